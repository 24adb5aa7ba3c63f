#include "polyir/ConstantTensors.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

#include "polyir/Parser.h"

namespace polyfuse {

namespace {

// Whether `e` has one value for the whole program run: no tensor read, no index.
bool isConstantExpr(const Expr& e) {
  if (e.kind == ExprKind::Access || e.kind == ExprKind::Index || e.kind == ExprKind::Name) return false;
  return std::all_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return isConstantExpr(*a); });
}

// Whether statement `w`'s parallel points write every element of its tensor `T`, each
// once: one parallel dimension per subscript, each from 0 to the extent.
bool writesEveryElement(const Statement& w, const Tensor& T) {
  if (w.write.subscripts.size() != T.shape.size() || w.write.gathers()) return false;
  std::vector<bool> used(size_t(w.numParallel), false);
  for (size_t k = 0; k < T.shape.size(); ++k) {
    const Affine& s = w.write.subscripts[k];
    if (s.constant != 0 || s.div != 1 || s.coef.size() != 1 || s.coef.begin()->second != 1) return false;
    const auto parallelEnd = w.dims.begin() + w.numParallel;
    auto d = std::find(w.dims.begin(), parallelEnd, s.coef.begin()->first);
    if (d == parallelEnd) return false;
    const size_t at = size_t(d - w.dims.begin());
    if (used[at]) return false;
    used[at] = true;
    const Range& r = w.ranges[at];
    if (!r.lo.isConstant() || r.lo.constant != 0 || r.hi != T.shape[k]) return false;
  }
  return true;
}

// Whether statement `w` writes every element of its tensor `T` once: no reduction loops.
bool writesWholeTensor(const Statement& w, const Tensor& T) { return w.numReduction() == 0 && writesEveryElement(w, T); }

// The value a read of a tensor of type `t` gives, from the expression its writer stores:
// a narrow float, or a float stored by a program that computes in double, is rounded
// where it is stored (as generated code's typed stores do).
ExprPtr storedExpr(const Expr& value, ElemType t, ElemType computeType) {
  ExprPtr v = cloneExpr(value);
  Intrinsic round;
  if (t == ElemType::Half) round = Intrinsic::RoundF16;
  else if (t == ElemType::BF16) round = Intrinsic::RoundBF16;
  else if (t == ElemType::F32 && computeType == ElemType::F64) round = Intrinsic::RoundF32;
  else return v;
  if (v->kind == ExprKind::Call && v->fn == round) return v;  // rounded already
  auto call = std::make_unique<Expr>(ExprKind::Call, value.loc);
  call->fn = round;
  call->name = intrinsicName(round);
  call->height = v->height + 1;
  call->args.push_back(std::move(v));
  return call;
}

// Replaces the reads of `tensor` in `e` by copies of `value`; `at` maps each read's
// old position to its new one (-1 for the reads replaced).
void replaceReads(ExprPtr& e, const Statement& st, int tensor, const Expr& value, ElemType type, ElemType computeType,
                  const std::vector<int>& at) {
  if (e->kind == ExprKind::Access) {
    if (st.reads[size_t(e->ref)].tensor == tensor) {
      e = storedExpr(value, type, computeType);
      return;
    }
    e->ref = at[size_t(e->ref)];
  }
  e->height = 1;
  for (auto& a : e->args) {
    replaceReads(a, st, tensor, value, type, computeType, at);
    e->height = std::max(e->height, a->height + 1);
  }
}

// Whether some statement reads `tensor` as a gather's subscript.
bool readAsIds(const Program& prog, int tensor) {
  for (const Statement& st : prog.statements)
    for (const Access& a : st.reads)
      for (int r : a.indirect)
        if (r >= 0 && st.reads[size_t(r)].tensor == tensor) return true;
  return false;
}

// Whether every read of `tensor` may become a value: none gathers, none is a gather's subscript.
bool readsAsValues(const Program& prog, int tensor) {
  for (const Statement& st : prog.statements)
    for (const Access& a : st.reads)
      if (a.tensor == tensor && a.gathers()) return false;
  return !readAsIds(prog, tensor);
}

// Whether `t` is what makes the program compute in double (Program::computeType): the
// only double tensor, with no double scalar. Its readers' f64 arithmetic stays.
bool setsPrecision(const Program& prog, int t) {
  if (prog.tensors[size_t(t)].type != ElemType::F64) return false;
  for (size_t u = 0; u < prog.tensors.size(); ++u)
    if (int(u) != t && prog.tensors[u].type == ElemType::F64) return false;
  return std::none_of(prog.scalars.begin(), prog.scalars.end(),
                      [](const ScalarParam& s) { return s.type == ElemType::F64; });
}

// Removes tensor `t` (no statement writes or reads it any more) from the program.
void eraseTensor(Program& prog, int t) {
  prog.tensors.erase(prog.tensors.begin() + t);
  auto renumber = [t](int& x) {
    if (x > t) --x;
  };
  for (Statement& st : prog.statements) {
    renumber(st.write.tensor);
    for (Access& a : st.reads) renumber(a.tensor);
  }
}

// Removes statement w, which alone wrote tensor t, no longer read, and t itself;
// statements keep their order and are numbered again.
void eraseWriter(Program& prog, size_t w, int t) {
  prog.statements.erase(prog.statements.begin() + std::ptrdiff_t(w));
  for (size_t s = 0; s < prog.statements.size(); ++s) prog.statements[s].id = int(s);
  eraseTensor(prog, t);
}

// Subscript `g` of the copy's read, at its point `y` (dims[k] = sub[k]): each of the
// copy's dims replaced by the reader's subscript. None where a quotient gets in the way.
std::optional<Affine> composed(const Affine& g, const std::vector<std::string>& dims, const std::vector<Affine>& sub) {
  Affine out = Affine::constantOf(g.constant);
  for (auto& [name, c] : g.coef) {
    const auto d = std::find(dims.begin(), dims.end(), name);
    if (d == dims.end()) {
      out.coef[name] += c;  // a size
      continue;
    }
    const Affine& f = sub[size_t(d - dims.begin())];
    if (g.coef.size() == 1 && c == 1 && g.constant == 0 && g.div == 1) return f;  // the dim itself
    if (f.div != 1) return std::nullopt;
    out = out + f.scaled(c);
  }
  for (auto it = out.coef.begin(); it != out.coef.end();) it = it->second == 0 ? out.coef.erase(it) : std::next(it);
  return g.div == 1 ? out : out.floorDiv(g.div);
}

// A reader's read of a copy, as reads of what the copy read: the source, its subscripts
// composed with the reader's, and (a gathering copy) the ids at the reader's point.
struct ComposedRead {
  size_t read = 0;             // the reader's read of the copy
  Access source;               // its `indirect` names the copy's reads until placed
  std::vector<Access> ids;     // the copy's other reads, in its order
};

// The copy's subscript `g` at a reader's read `at`: the reader's own index value where `g`
// is a dim the reader gathers (its read number in `indirect`), else the affine
// composition. None where `g` needs a gathered dim inside arithmetic, or a quotient
// gets in the way.
std::optional<std::pair<Affine, int>> composedAt(const Affine& g, const std::vector<std::string>& dims,
                                                 const Access& at) {
  for (size_t p = 0; p < dims.size(); ++p) {
    if (at.indirectAt(p) < 0 || !g.coef.count(dims[p])) continue;
    if (g.coef.size() != 1 || g.coef.begin()->second != 1 || g.constant != 0 || g.div != 1) return std::nullopt;
    return std::make_pair(Affine::constantOf(0), at.indirect[p]);
  }
  std::optional<Affine> c = composed(g, dims, at.subscripts);
  if (!c) return std::nullopt;
  return std::make_pair(*c, -1);
}

// What a statement computes, written so that two statements with the same key store the
// same values, element for element: its operator, its loops' ranges and its write's
// subscripts, its expression with every read (tensor, subscripts, ids, guards) and every
// literal's bits; dims named by position, so that the names do not matter.
std::string computationKey(const Program& prog, const Statement& st) {
  auto dimName = [&](const std::string& n) {
    const auto d = std::find(st.dims.begin(), st.dims.end(), n);
    return d == st.dims.end() ? n : "#" + std::to_string(d - st.dims.begin());
  };
  auto affine = [&](const Affine& a) {
    std::string k = "(";
    std::vector<std::pair<std::string, int64_t>> terms;
    for (auto& [n, c] : a.coef) terms.push_back({dimName(n), c});
    std::sort(terms.begin(), terms.end());
    for (auto& [n, c] : terms) k += n + "*" + std::to_string(c) + "+";
    return k + std::to_string(a.constant) + "/" + std::to_string(a.div) + ")";
  };
  auto access = [&](const Access& a) {
    std::string k = prog.tensors[size_t(a.tensor)].name + "[";
    for (size_t p = 0; p < a.subscripts.size(); ++p)
      k += a.indirectAt(p) >= 0 ? "@" + std::to_string(a.indirect[p]) + "," : affine(a.subscripts[p]) + ",";
    k += "]";
    for (const Guard& g : a.guards) k += "?" + std::to_string(int(g.cmp)) + affine(g.expr);
    return k;
  };
  std::function<std::string(const Expr&)> expr = [&](const Expr& e) {
    std::string k = "{" + std::to_string(int(e.kind));
    switch (e.kind) {
      case ExprKind::Number: {
        uint64_t bits;
        std::memcpy(&bits, &e.number, sizeof bits);
        k += ":" + std::to_string(bits);
        break;
      }
      case ExprKind::Index: k += ":" + dimName(e.name); break;
      case ExprKind::Name: k += ":" + dimName(e.name); break;
      case ExprKind::Size: case ExprKind::Scalar: k += ":" + e.name; break;
      case ExprKind::Access: return k + ":" + access(st.reads[size_t(e.ref)]) + "}";  // its subscripts are the read's
      case ExprKind::Call: k += ":" + std::to_string(int(e.fn)); break;
      default: break;
    }
    for (const ExprPtr& a : e.args) k += expr(*a);
    return k + "}";
  };
  std::string k = std::to_string(int(st.op)) + (st.init ? "!" : "") + "|" + std::to_string(st.numParallel) + "|";
  for (const Range& r : st.ranges) k += affine(r.lo) + ":" + affine(r.hi) + ",";
  k += "|";
  for (const Affine& a : st.write.subscripts) k += affine(a) + ",";
  k += "|";
  for (const Access& a : st.reads) k += access(a) + ";";  // the ids reads that no expression names
  const Tensor& T = prog.tensors[size_t(st.write.tensor)];
  k += "|" + std::to_string(int(T.type)) + "|";
  for (const Affine& a : T.shape) k += affine(a) + ",";
  return k + "|" + expr(*st.rhs);
}

// Whether statement `w` alone writes its tensor, over all of it, each element once per
// parallel point (a reduction's loops after its parallel ones).
bool soleWholeWriter(const Program& prog, size_t w) {
  const Statement& W = prog.statements[w];
  for (size_t s = 0; s < prog.statements.size(); ++s)
    if (s != w && prog.statements[s].write.tensor == W.write.tensor) return false;
  return (W.op == ReduceOp::Assign || W.init) && writesEveryElement(W, prog.tensors[size_t(W.write.tensor)]);
}

}  // namespace

std::vector<std::string> readThroughCopies(Program& prog) {
  std::vector<std::string> removed;
  for (int t = 0; t < int(prog.tensors.size());) {
    const Tensor& T = prog.tensors[size_t(t)];
    std::vector<size_t> writers;
    for (size_t s = 0; s < prog.statements.size(); ++s)
      if (prog.statements[s].write.tensor == t) writers.push_back(s);
    auto skip = [&] { ++t; };
    if (T.role != TensorRole::Temporary || writers.size() != 1 || readAsIds(prog, t)) {
      skip();
      continue;
    }
    const size_t w = writers[0];
    const Statement& W = prog.statements[w];
    if (W.op != ReduceOp::Assign || W.rhs->kind != ExprKind::Access || !writesWholeTensor(W, T) ||
        W.dims.size() != T.shape.size()) {
      skip();
      continue;
    }
    const size_t k = size_t(W.rhs->ref);
    const Access& src = W.reads[k];
    // A gathering copy (an embedding's rows, a rotary table's positions) reads its source
    // and the ids its indirect subscripts name, plain reads each; nothing else.
    const bool gathering = src.gathers();
    bool ok = !src.guarded();
    std::vector<int> sources = {src.tensor};
    for (size_t j = 0; j < W.reads.size() && ok; ++j) {
      if (j == k) continue;
      ok = std::count(src.indirect.begin(), src.indirect.end(), int(j)) > 0 && !W.reads[j].gathers() &&
           !W.reads[j].guarded();
      sources.push_back(W.reads[j].tensor);
    }
    // The same value, bit for bit, wherever it is read; what the copy reads unchanged from
    // the copy on (written only before it, or an input).
    ok = ok && src.tensor != t && prog.tensors[size_t(src.tensor)].type == T.type;
    for (size_t s = 0; s < prog.statements.size() && ok; ++s)
      for (int u : sources)
        if (prog.statements[s].write.tensor == u) ok = ok && s < w && prog.tensors[size_t(u)].role != TensorRole::Output;
    // The copy's dims, as its write names them, in subscript order.
    std::vector<std::string> dims;
    for (const Affine& a : W.write.subscripts) dims.push_back(a.coef.begin()->first);
    // Every reader's reads of the copy, composed with the copy's reads.
    std::vector<std::vector<ComposedRead>> reads(prog.statements.size());
    for (size_t s = 0; s < prog.statements.size() && ok; ++s) {
      const Statement& st = prog.statements[s];
      for (size_t r = 0; r < st.reads.size() && ok; ++r) {
        const Access& at = st.reads[r];
        if (at.tensor != t) continue;
        ok = s > w && std::find(sources.begin(), sources.end(), st.write.tensor) == sources.end();
        // A gathered value is read again at each of its reader's points: only where the
        // reader reads each point once (no reduction loop re-reads it), and not through
        // a second level of ids.
        if (gathering) ok = ok && !at.gathers() && st.numReduction() == 0;
        ComposedRead c;
        c.read = r;
        c.source.tensor = src.tensor;
        c.source.guards = at.guards;
        c.source.loc = at.loc;
        for (size_t p = 0; p < src.subscripts.size() && ok; ++p) {
          if (src.indirectAt(p) >= 0) {  // the copy's own gather: its ids, read at the reader's point
            c.source.subscripts.push_back(Affine::constantOf(0));
            c.source.indirect.resize(src.subscripts.size(), -1);
            c.source.indirect[p] = src.indirect[p];
            continue;
          }
          std::optional<std::pair<Affine, int>> g = composedAt(src.subscripts[p], dims, at);
          ok = g.has_value();
          if (!ok) break;
          c.source.subscripts.push_back(g->first);
          if (g->second >= 0) {
            c.source.indirect.resize(src.subscripts.size(), -1);
            c.source.indirect[p] = -2 - g->second;  // the reader's own read, kept apart from the copy's
          }
        }
        for (size_t j = 0; j < W.reads.size() && ok; ++j) {
          if (j == k) continue;
          Access id = W.reads[j];
          id.guards = at.guards;
          id.loc = at.loc;
          for (Affine& g : id.subscripts) {
            std::optional<Affine> cg = composed(g, dims, at.subscripts);
            ok = ok && cg.has_value();
            if (ok) g = *cg;
          }
          c.ids.push_back(std::move(id));
        }
        // A reader's gather moves onto the source only as it was: each gathered dim of the
        // copy one subscript of the source, over the same extent, so that the ids stay
        // bounded by what the copy held (a slice or a broadcast of the gathered dim would
        // widen them, or leave them read for nothing).
        for (size_t p = 0; p < at.indirect.size() && ok; ++p) {
          if (at.indirect[p] < 0) continue;
          int found = 0;
          for (size_t q = 0; q < c.source.indirect.size(); ++q)
            if (c.source.indirect[q] == -2 - at.indirect[p] && ++found == 1)
              ok = prog.tensors[size_t(src.tensor)].shape[q] == T.shape[p];
          ok = ok && found == 1;
        }
        reads[s].push_back(std::move(c));
      }
    }
    if (!ok) {
      skip();
      continue;
    }
    for (size_t s = 0; s < prog.statements.size(); ++s)
      for (ComposedRead& c : reads[s]) {
        Statement& st = prog.statements[s];
        std::vector<int> placed(W.reads.size(), -1);
        for (size_t j = 0, i = 0; j < W.reads.size(); ++j)
          if (j != k) {
            placed[j] = int(st.reads.size());
            st.reads.push_back(std::move(c.ids[i++]));
          }
        for (int& x : c.source.indirect) x = x >= 0 ? placed[size_t(x)] : x <= -2 ? -2 - x : -1;
        st.reads[c.read] = std::move(c.source);
      }
    removed.push_back(T.name);
    eraseWriter(prog, w, t);
  }
  return removed;
}

std::vector<std::string> mergeCommonTensors(Program& prog) {
  std::vector<std::string> removed;
  // Key -> the latest statement computing it whose tensor later readers may read instead.
  // Keys name tensors, not their numbers, so that they hold as statements and tensors go.
  std::map<std::string, size_t> earlier;
  for (size_t w = 0; w < prog.statements.size();) {
    const Statement& W = prog.statements[w];
    const int t = W.write.tensor;
    if (prog.tensors[size_t(t)].role == TensorRole::Input || !soleWholeWriter(prog, w)) {
      ++w;
      continue;
    }
    auto [it, fresh] = earlier.emplace(computationKey(prog, W), w);
    // The same computation earlier, what it read unchanged since (written before it, or an
    // input); this tensor a temporary read only after it.
    const size_t e = it->second;
    bool same = !fresh && prog.tensors[size_t(t)].role == TensorRole::Temporary;
    for (size_t s = 0; s < prog.statements.size() && same; ++s) {
      const Statement& S = prog.statements[s];
      for (const Access& a : W.reads) same = same && !(S.write.tensor == a.tensor && s >= e && s != w);
      for (const Access& a : S.reads) same = same && !(a.tensor == t && s <= w);
    }
    if (!same) {
      it->second = w;
      ++w;
      continue;
    }
    const int kept = prog.statements[e].write.tensor;
    for (Statement& S : prog.statements)
      for (Access& a : S.reads)
        if (a.tensor == t) a.tensor = kept;
    removed.push_back(prog.tensors[size_t(t)].name);
    eraseWriter(prog, w, t);  // the statement at w is now the next one
  }
  return removed;
}

std::vector<std::string> inlineConstantTensors(Program& prog) {
  std::vector<std::string> removed;
  const ElemType computeType = prog.computeType();
  for (int t = 0; t < int(prog.tensors.size());) {
    const Tensor& T = prog.tensors[size_t(t)];
    size_t w = 0;  // its writer's position
    int writers = 0;
    for (size_t s = 0; s < prog.statements.size(); ++s)
      if (prog.statements[s].write.tensor == t) {
        w = s;
        ++writers;
      }
    if (T.role != TensorRole::Temporary || writers != 1 || !readsAsValues(prog, t) || setsPrecision(prog, t)) {
      ++t;
      continue;
    }
    const Statement& W = prog.statements[w];
    // Every walk over a body recurses as deep as it is tall: a reader grows by the
    // value's height (and a rounding), within the parser's bound.
    const bool shallow = std::all_of(prog.statements.begin(), prog.statements.end(), [&](const Statement& st) {
      return std::none_of(st.reads.begin(), st.reads.end(), [&](const Access& a) { return a.tensor == t; }) ||
             st.rhs->height + W.rhs->height + 1 <= kMaxExprHeight;
    });
    if (W.op != ReduceOp::Assign || !W.reads.empty() || !isConstantExpr(*W.rhs) || !writesWholeTensor(W, T) ||
        !shallow) {
      ++t;
      continue;
    }
    for (Statement& st : prog.statements) {
      std::vector<int> at(st.reads.size(), -1);
      std::vector<Access> kept;
      for (size_t r = 0; r < st.reads.size(); ++r)
        if (st.reads[r].tensor != t) {
          at[r] = int(kept.size());
          kept.push_back(st.reads[r]);
        }
      if (kept.size() == st.reads.size()) continue;
      replaceReads(st.rhs, st, t, *W.rhs, T.type, computeType, at);
      for (Access& a : kept)
        for (int& r : a.indirect)
          if (r >= 0) r = at[size_t(r)];
      st.reads = std::move(kept);
    }
    removed.push_back(T.name);
    eraseWriter(prog, w, t);
  }
  return removed;
}

}  // namespace polyfuse

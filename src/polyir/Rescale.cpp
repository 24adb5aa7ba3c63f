#include "polyir/Rescale.h"

#include <algorithm>
#include <map>
#include <functional>
#include <optional>


namespace polyfuse {

namespace {

using Renaming = std::map<std::string, Affine>;

// What the rule asks of the whole program, computed once per sum: each tensor's one
// writer, and whether each statement's value comes from a maximum (memoized: a chain of
// elementwise statements reading two temporaries each would otherwise be walked once per
// path, 2^depth times).
struct Scope {
  const Program& prog;
  std::vector<int> writer;                   // per tensor: its one writer, -1 when none or several
  mutable std::vector<signed char> reaches;  // per statement: -1 unknown, 0 no, 1 yes
  explicit Scope(const Program& p) : prog(p), writer(p.tensors.size(), -1), reaches(p.statements.size(), -1) {
    std::vector<int> count(p.tensors.size(), 0);
    for (auto& st : p.statements) {
      ++count[size_t(st.write.tensor)];
      writer[size_t(st.write.tensor)] = st.id;
    }
    for (size_t t = 0; t < count.size(); ++t)
      if (count[t] != 1) writer[t] = -1;
  }
  int soleWriter(int tensor) const { return writer[size_t(tensor)]; }
};

// a with each variable `by` names replaced by its form (subscripts: div is 1).
Affine substitute(const Affine& a, const Renaming& by) {
  Affine r = Affine::constantOf(a.constant);
  for (auto& [name, c] : a.coef) {
    auto it = by.find(name);
    r = r + (it == by.end() ? Affine::var(name) : it->second).scaled(c);
  }
  return r;
}

// An affine form as an expression tree (a subscript written out after a rewrite).
ExprPtr affineExpr(const Affine& a, const Program& prog, SourceLoc loc) {
  ExprPtr r;
  auto add = [&](ExprPtr t) {
    if (!r) { r = std::move(t); return; }
    auto s = std::make_unique<Expr>(ExprKind::Add, loc);
    s->args.push_back(std::move(r));
    s->args.push_back(std::move(t));
    r = std::move(s);
  };
  auto number = [&](double v) {
    auto n = std::make_unique<Expr>(ExprKind::Number, loc);
    n->number = v;
    return n;
  };
  for (auto& [name, c] : a.coef) {
    const bool size = std::find(prog.sizeParams.begin(), prog.sizeParams.end(), name) != prog.sizeParams.end();
    auto v = std::make_unique<Expr>(size ? ExprKind::Size : ExprKind::Index, loc);
    v->name = name;
    if (c == 1) { add(std::move(v)); continue; }
    auto m = std::make_unique<Expr>(ExprKind::Mul, loc);
    m->args.push_back(number(double(c)));
    m->args.push_back(std::move(v));
    add(std::move(m));
  }
  if (a.constant != 0 || !r) add(number(double(a.constant)));
  return r;
}

int fixHeights(Expr& e) {
  e.height = 1;
  for (auto& a : e.args) e.height = std::max(e.height, fixHeights(*a) + 1);
  return e.height;
}

bool readsTensor(const Statement& st, const Expr& e, int tensor) {
  if (e.kind == ExprKind::Access && st.reads[size_t(e.ref)].tensor == tensor) return true;
  for (auto& a : e.args)
    if (readsTensor(st, *a, tensor)) return true;
  return false;
}

// How a maximum's statement M lines up with a sum S that reads its result: M's dims as
// forms in S's dims (parallel dims through S's subscripts of m, reduction dims in order).
struct Alignment {
  const Statement* max = nullptr;
  Renaming dims;  // M's dim name -> S's dim
};

std::optional<Alignment> align(const Scope& scope, const Statement& s, const Access& readOfM) {
  const Program& prog = scope.prog;
  const int w = scope.soleWriter(readOfM.tensor);
  if (w < 0 || w >= s.id) return std::nullopt;
  const Statement& m = prog.statements[size_t(w)];
  // S may have parallel dims M has not (a weighted sum of values, o(i, d) +=! p(i, j) *
  // V(j, d)): each of its points rescales as a point of a sum of M's shape would.
  if (!(m.op == ReduceOp::Max || m.op == ReduceOp::FMax) || !m.init || m.numReduction() != s.numReduction() ||
      m.numParallel > s.numParallel || readOfM.subscripts.size() != size_t(m.numParallel) || readOfM.gathers())
    return std::nullopt;
  Alignment al;
  al.max = &m;
  std::vector<bool> used(s.dims.size(), false);
  for (size_t p = 0; p < readOfM.subscripts.size(); ++p) {
    // m(P) at S's own parallel point: each subscript one of S's parallel dims, once.
    const Affine& sub = readOfM.subscripts[p];
    if (sub.coef.size() != 1 || sub.constant != 0 || sub.coef.begin()->second != 1) return std::nullopt;
    auto d = std::find(s.dims.begin(), s.dims.begin() + s.numParallel, sub.coef.begin()->first);
    if (d == s.dims.begin() + s.numParallel || used[size_t(d - s.dims.begin())]) return std::nullopt;
    used[size_t(d - s.dims.begin())] = true;
    const Affine& mw = m.write.subscripts[p];
    if (mw.coef.size() != 1) return std::nullopt;
    al.dims[mw.coef.begin()->first] = sub;
  }
  for (int r = 0; r < s.numReduction(); ++r)
    al.dims[m.dims[size_t(m.numParallel + r)]] = Affine::var(s.dims[size_t(s.numParallel + r)]);
  // The same points: each of M's dims spans the range of the dim it lines up with.
  for (size_t d = 0; d < m.dims.size(); ++d) {
    const std::string& sd = al.dims[m.dims[d]].coef.begin()->first;
    const size_t k = size_t(std::find(s.dims.begin(), s.dims.end(), sd) - s.dims.begin());
    if (!(m.ranges[d].lo == s.ranges[k].lo) || !(m.ranges[d].hi == s.ranges[k].hi)) return std::nullopt;
  }
  return al;
}

// Whether M's expression a (in M's dims) and S's expression b (in S's) compute the same
// value at aligned points.
bool sameValue(const Statement& m, const Expr& a, const Statement& s, const Expr& b, const Renaming& dims) {
  if (a.kind != b.kind || a.args.size() != b.args.size()) return false;
  switch (a.kind) {
    case ExprKind::Number: return a.number == b.number || (a.number != a.number && b.number != b.number);
    case ExprKind::Size: return a.name == b.name;
    case ExprKind::Scalar: return a.ref == b.ref;
    case ExprKind::Index: {
      auto it = dims.find(a.name);
      return it != dims.end() && it->second == Affine::var(b.name);
    }
    case ExprKind::Access: {
      const Access& x = m.reads[size_t(a.ref)];
      const Access& y = s.reads[size_t(b.ref)];
      if (x.tensor != y.tensor || x.gathers() || y.gathers() || x.subscripts.size() != y.subscripts.size()) return false;
      for (size_t p = 0; p < x.subscripts.size(); ++p)
        if (!(substitute(x.subscripts[p], dims) == y.subscripts[p])) return false;
      return true;
    }
    case ExprKind::Call:
      if (a.fn != b.fn) return false;
      break;
    default: break;
  }
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!sameValue(m, *a.args[i], s, *b.args[i], dims)) return false;
  return true;
}

// The power of exp(-m) that e carries: e = exp(-k m) * e0 with e0 free of m. `zero`: the
// literal 0, which carries any power.
struct Degree {
  bool ok = true, zero = false;
  int k = 0;
};

struct DegreeOf {
  const Statement& s;
  const Alignment& al;
  int tensor;

  bool isM(const Expr& e) const { return e.kind == ExprKind::Access && s.reads[size_t(e.ref)].tensor == tensor; }

  Degree operator()(const Expr& e) const {
    if (e.kind == ExprKind::Number && e.number == 0) return {true, true, 0};
    if (!readsTensor(s, e, tensor)) return {};
    if (e.kind == ExprKind::Call && e.fn == Intrinsic::Exp) {
      // exp(E - m(P)), E the maximized value itself: each term at most 1.
      const Expr& a = *e.args[0];
      if (a.kind == ExprKind::Sub && isM(*a.args[1]) && !readsTensor(s, *a.args[0], tensor) &&
          sameValue(*al.max, *al.max->rhs, s, *a.args[0], al.dims))
        return {true, false, 1};
      return {false};
    }
    auto both = [&](bool sumLike, int sign) -> Degree {
      Degree x = (*this)(*e.args[sumLike ? e.args.size() - 2 : 0]), y = (*this)(*e.args.back());
      if (!x.ok || !y.ok) return {false};
      if (sumLike) {
        if (x.zero) return y;
        if (y.zero) return x;
        return x.k == y.k ? x : Degree{false};
      }
      if (x.zero || (y.zero && sign > 0)) return {true, true, 0};
      if (y.zero) return {false};  // a division by zero
      return {true, false, x.k + sign * y.k};
    };
    switch (e.kind) {
      case ExprKind::Add: case ExprKind::Sub: return both(true, 1);
      case ExprKind::Mul: return both(false, 1);
      case ExprKind::Div: return both(false, -1);
      case ExprKind::Neg: return (*this)(*e.args[0]);
      case ExprKind::Select:
        if (readsTensor(s, *e.args[0], tensor)) return {false};
        return both(true, 1);
      default: return {false};
    }
  }
};

}  // namespace

std::optional<std::vector<std::pair<int, bool>>> invariantFactors(const Statement& s, const std::vector<int>& tensors) {
  auto wanted = [&](const Access& a) { return std::find(tensors.begin(), tensors.end(), a.tensor) != tensors.end(); };
  std::vector<std::pair<int, bool>> out;
  bool ok = true;
  std::function<void(const Expr&, bool, bool)> walk = [&](const Expr& e, bool factor, bool divides) {
    if (e.kind == ExprKind::Access && wanted(s.reads[size_t(e.ref)])) {
      const Access& a = s.reads[size_t(e.ref)];
      for (auto& sub : a.subscripts)
        for (auto& [name, c] : sub.coef)
          for (size_t d = size_t(s.numParallel); d < s.dims.size(); ++d) ok = ok && !(c != 0 && name == s.dims[d]);
      ok = ok && factor && !a.gathers() && !a.guarded();
      out.push_back({e.ref, divides});
      return;
    }
    const bool product = e.kind == ExprKind::Mul || e.kind == ExprKind::Div;
    for (size_t i = 0; i < e.args.size(); ++i)
      walk(*e.args[i], factor && product, e.kind == ExprKind::Div && i == 1 ? !divides : divides);
  };
  walk(*s.rhs, true, false);
  if (!ok) return std::nullopt;
  return out;
}

bool isShiftedExp(const Statement& s, const Expr& e, int max) {
  return e.kind == ExprKind::Call && e.fn == Intrinsic::Exp && e.args.size() == 1 && e.args[0]->kind == ExprKind::Sub &&
         e.args[0]->args[1]->kind == ExprKind::Access && s.reads[size_t(e.args[0]->args[1]->ref)].tensor == max;
}

int soleWriter(const Program& prog, int tensor) {
  int w = -1;
  for (auto& st : prog.statements)
    if (st.write.tensor == tensor) {
      if (w >= 0) return -1;
      w = st.id;
    }
  return w;
}

static int rescalingTensor(const Scope& scope, const Statement& s) {
  const Program& prog = scope.prog;
  if (s.op != ReduceOp::Add || !s.init || s.numReduction() == 0) return -1;
  int found = -1;
  for (auto& r : s.reads) {
    if (r.tensor == found) continue;
    const int w = scope.soleWriter(r.tensor);
    if (w < 0 || !(prog.statements[size_t(w)].op == ReduceOp::Max || prog.statements[size_t(w)].op == ReduceOp::FMax)) continue;
    if (found >= 0) return -1;  // two maxima: one running value at a time
    found = r.tensor;
  }
  if (found < 0) return -1;
  // Every read of m lines up the same way (m(P) at S's own point).
  std::optional<Alignment> al;
  for (auto& r : s.reads)
    if (r.tensor == found) {
      auto a = align(scope, s, r);
      if (!a || (al && a->dims != al->dims)) return -1;
      al = std::move(a);
    }
  const Degree d = DegreeOf{s, *al, found}(*s.rhs);
  return d.ok && !d.zero && d.k == 1 ? found : -1;
}

int rescalingTensor(const Program& prog, const Statement& s) {
  if (s.op != ReduceOp::Add || !s.init || s.numReduction() == 0) return -1;
  return rescalingTensor(Scope(prog), s);
}

namespace {

// The elementwise producer of read `r` of s that may be inlined there: the one writer of
// the tensor, a pointwise assignment over the whole tensor (so it wrote every element s
// reads), with no gather, whose reads nothing between it and s overwrites.
int inlinableProducer(const Scope& scope, const Statement& s, const Access& r) {
  const Program& prog = scope.prog;
  if (r.gathers()) return -1;
  const int w = scope.soleWriter(r.tensor);
  if (w < 0 || w >= s.id) return -1;
  const Statement& p = prog.statements[size_t(w)];
  if (p.op != ReduceOp::Assign || p.numReduction() != 0) return -1;
  const Tensor& t = prog.tensors[size_t(r.tensor)];
  if (p.write.subscripts.size() != t.shape.size()) return -1;
  for (size_t k = 0; k < t.shape.size(); ++k) {
    const Affine& sub = p.write.subscripts[k];
    if (sub.coef.size() != 1) return -1;
    const size_t d = size_t(std::find(p.dims.begin(), p.dims.end(), sub.coef.begin()->first) - p.dims.begin());
    if (d >= p.dims.size() || !(p.ranges[d].lo == Affine::constantOf(0)) || !(p.ranges[d].hi == t.shape[k])) return -1;
  }
  for (auto& pr : p.reads) {
    if (pr.gathers()) return -1;
    for (int b = w + 1; b < s.id; ++b)
      if (prog.statements[size_t(b)].write.tensor == pr.tensor) return -1;
  }
  return w;
}

// Whether p's value (through further elementwise producers) comes from a maximum's
// result. Writers come before their readers, so the walk ends.
bool reachesMaximum(const Scope& scope, const Statement& p) {
  signed char& memo = scope.reaches[size_t(p.id)];
  if (memo >= 0) return memo == 1;
  memo = 0;
  for (auto& r : p.reads) {
    const int w = scope.soleWriter(r.tensor);
    if (w < 0 || w >= p.id) continue;
    const Statement& q = scope.prog.statements[size_t(w)];
    if (((q.op == ReduceOp::Max || q.op == ReduceOp::FMax) && q.init) || (q.op == ReduceOp::Assign && reachesMaximum(scope, q))) {
      memo = 1;
      break;
    }
  }
  return memo == 1;
}

// s with read `k` replaced by producer p's body, p's dims bound to the read's subscripts.
Statement inlineRead(const Program& prog, const Statement& s, size_t k, const Statement& p) {
  Statement out = cloneStatement(s);
  const Access read = s.reads[k];
  Renaming dims;
  for (size_t q = 0; q < p.write.subscripts.size(); ++q) dims[p.write.subscripts[q].coef.begin()->first] = read.subscripts[q];
  // Reads: s's without k, then p's (substituted).
  std::vector<int> newRef(s.reads.size(), -1);
  out.reads.clear();
  for (size_t r = 0; r < s.reads.size(); ++r)
    if (r != k) {
      newRef[r] = int(out.reads.size());
      out.reads.push_back(s.reads[r]);
    }
  const int base = int(out.reads.size());
  // A gather's ids are reads of the same statement: renumbered with them.
  for (Access& a : out.reads)
    for (int& r : a.indirect)
      if (r >= 0) r = newRef[size_t(r)];
  for (auto& pr : p.reads) {
    Access a = pr;
    for (int& r : a.indirect)
      if (r >= 0) r += base;
    for (auto& sub : a.subscripts) sub = substitute(sub, dims);
    // Made where p makes it and where s makes the read it replaces.
    for (auto& g : a.guards) g.expr = substitute(g.expr, dims);
    a.guards.insert(a.guards.begin(), read.guards.begin(), read.guards.end());
    a.loc = read.loc;
    out.reads.push_back(std::move(a));
  }
  // p's body, in s's dims and reads.
  std::function<ExprPtr(const Expr&)> fromP = [&](const Expr& e) -> ExprPtr {
    if (e.kind == ExprKind::Index) {
      auto it = dims.find(e.name);
      return it == dims.end() ? cloneExpr(e) : affineExpr(it->second, prog, e.loc);
    }
    auto c = std::make_unique<Expr>(e.kind, e.loc);
    c->number = e.number;
    c->name = e.name;
    c->ref = e.kind == ExprKind::Access ? base + e.ref : e.ref;
    c->fn = e.fn;
    if (e.kind == ExprKind::Access) {
      for (auto& sub : out.reads[size_t(c->ref)].subscripts) c->args.push_back(affineExpr(sub, prog, e.loc));
      return c;
    }
    for (auto& a : e.args) c->args.push_back(fromP(*a));
    return c;
  };
  std::function<void(ExprPtr&)> rewrite = [&](ExprPtr& e) {
    if (e->kind == ExprKind::Access) {
      if (size_t(e->ref) == k) { e = fromP(*p.rhs); return; }
      e->ref = newRef[size_t(e->ref)];
      return;
    }
    for (auto& a : e->args) rewrite(a);
  };
  rewrite(out.rhs);
  fixHeights(*out.rhs);
  return out;
}

}  // namespace

StreamChain streamChain(const Program& prog, const Statement& s) {
  StreamChain out;
  if (s.op != ReduceOp::Add || !s.init || s.numReduction() == 0) return out;
  const Scope scope(prog);
  Statement t = cloneStatement(s);
  // Inline producers on the way to a maximum, a bounded number of times (each inlining
  // copies a body; chains in real models are a few statements long).
  for (int round = 0; round < 8 && rescalingTensor(scope, t) < 0; ++round) {
    bool any = false;
    for (size_t k = 0; k < t.reads.size() && !any; ++k) {
      const int w = inlinableProducer(scope, t, t.reads[k]);
      if (w < 0 || !reachesMaximum(scope, prog.statements[size_t(w)])) continue;
      t = inlineRead(prog, t, k, prog.statements[size_t(w)]);
      out.producers.push_back(w);
      any = true;
    }
    if (!any) break;
  }
  const int m = rescalingTensor(scope, t);
  if (m < 0) return StreamChain{};
  for (auto& r : t.reads)
    if (r.tensor == m) {
      std::optional<Alignment> al = align(scope, t, r);
      for (auto& d : al->max->dims) {
        const std::string& sd = al->dims.at(d).coef.begin()->first;
        out.sumDimOf.push_back(int(std::find(t.dims.begin(), t.dims.end(), sd) - t.dims.begin()));
      }
      out.max = al->max->id;
      for (int d = 0; d < t.numParallel; ++d)
        if (std::find(out.sumDimOf.begin(), out.sumDimOf.end(), d) == out.sumDimOf.end()) out.extraDims.push_back(d);
      break;
    }
  out.tensor = m;
  std::sort(out.producers.begin(), out.producers.end());
  out.producers.erase(std::unique(out.producers.begin(), out.producers.end()), out.producers.end());
  out.inlined = std::move(t);
  return out;
}

}  // namespace polyfuse

#include "polyir/CollapseLoops.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace polyfuse {

namespace {

// The extent of a loop from 0 to a constant; none for any other range.
std::optional<int64_t> constantExtent(const Range& r) {
  if (!r.lo.isConstant() || r.lo.constant != 0 || !r.hi.isConstant() || r.hi.constant < 1) return std::nullopt;
  return r.hi.constant;
}

bool namesIndex(const Expr& e, const std::string& dim) {
  if (e.kind == ExprKind::Index && e.name == dim) return true;
  return std::any_of(e.args.begin(), e.args.end(), [&](const ExprPtr& a) { return namesIndex(*a, dim); });
}

// Whether `a` uses the loops u (outer) and v, of extent ev, only as ev*u + v.
bool linearIn(const Affine& a, const std::string& u, const std::string& v, int64_t ev) {
  return a.coefficient(u) == ev * a.coefficient(v);
}

// Subscripts k and k+1 of a tensor whose extent at k+1 is `s`, as the one subscript of
// the tensor stored with those two dimensions as one.
Affine flattened(const Affine& outer, const Affine& inner, int64_t s) { return outer.scaled(s) + inner; }

// Calls f on every access of the program, each with its statement.
void forEachAccess(Program& prog, const std::function<void(Statement&, Access&)>& f) {
  for (Statement& st : prog.statements) {
    f(st, st.write);
    for (Access& a : st.reads) f(st, a);
  }
}

// Calls f on every affine form of `st` that names its loops: subscripts and guards.
void forEachAffine(Statement& st, const std::function<void(Affine&)>& f) {
  auto access = [&](Access& a) {
    for (Affine& s : a.subscripts) f(s);
    for (Guard& g : a.guards) f(g.expr);
  };
  access(st.write);
  for (Access& a : st.reads) access(a);
}

// Whether temporary `t` may be stored with dimensions k and k+1 as one: the extent at
// k+1 constant, and every access of it affine, ungathered and unguarded there, so each
// element keeps its place in memory.
bool flattenable(Program& prog, int t, size_t k) {
  const Tensor& T = prog.tensors[size_t(t)];
  if (T.role != TensorRole::Temporary || k + 1 >= T.shape.size() || !T.shape[k + 1].isConstant()) return false;
  bool ok = true;
  forEachAccess(prog, [&](Statement&, Access& a) {
    if (a.tensor != t) return;
    ok = ok && !a.gathers() && !a.guarded() && a.subscripts[k].div == 1 && a.subscripts[k + 1].div == 1;
  });
  return ok;
}

void flatten(Program& prog, int t, size_t k) {
  Tensor& T = prog.tensors[size_t(t)];
  const int64_t s = T.shape[k + 1].constant;
  forEachAccess(prog, [&](Statement&, Access& a) {
    if (a.tensor != t) return;
    a.subscripts[k] = flattened(a.subscripts[k], a.subscripts[k + 1], s);
    a.subscripts.erase(a.subscripts.begin() + std::ptrdiff_t(k) + 1);
  });
  T.shape[k] = T.shape[k].scaled(s);
  T.shape.erase(T.shape.begin() + std::ptrdiff_t(k) + 1);
}

// The tensor dimensions to store as one (tensor, k) so that every access of `st` uses
// its loops u and v only as ev*u + v; none when no such set exists.
std::optional<std::vector<std::pair<int, size_t>>> flatteningsFor(Program& prog, const Statement& st,
                                                                   const std::string& u, const std::string& v,
                                                                   int64_t ev) {
  std::vector<std::pair<int, size_t>> out;
  auto check = [&](const Access& a) {
    for (const Guard& g : a.guards)
      if (!linearIn(g.expr, u, v, ev)) return false;
    for (size_t k = 0; k < a.subscripts.size(); ++k) {
      if (linearIn(a.subscripts[k], u, v, ev)) continue;
      // u and v as consecutive subscripts, stored as one of extent ev at k+1.
      const Tensor& T = prog.tensors[size_t(a.tensor)];
      if (k + 1 >= a.subscripts.size() || !flattenable(prog, a.tensor, k) || T.shape[k + 1].constant != ev) return false;
      if (!linearIn(flattened(a.subscripts[k], a.subscripts[k + 1], ev), u, v, ev)) return false;
      const std::pair<int, size_t> f{a.tensor, k};
      // Every access of the tensor in the statement must agree on where.
      for (auto& [t, at] : out)
        if (t == a.tensor && at != k) return false;
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
      ++k;  // k+1 is folded into k
    }
    return true;
  };
  if (!check(st.write)) return std::nullopt;
  for (const Access& a : st.reads)
    if (!check(a)) return std::nullopt;
  // A tensor flattened at k must see the same pair nowhere else in the statement.
  for (auto& [t, k] : out) {
    auto agrees = [&, t = t, k = k](const Access& a) {
      if (a.tensor != t) return true;
      return linearIn(flattened(a.subscripts[k], a.subscripts[k + 1], ev), u, v, ev);
    };
    if (!agrees(st.write) || !std::all_of(st.reads.begin(), st.reads.end(), agrees)) return std::nullopt;
  }
  return out;
}

// ev*u + v as the one loop u (of extent eu*ev) in every access of `st`.
void collapsePair(Statement& st, size_t p, int64_t eu, int64_t ev) {
  const std::string u = st.dims[p], v = st.dims[p + 1];
  forEachAffine(st, [&](Affine& a) {
    const int64_t c = a.coefficient(v);
    a.coef.erase(u);
    a.coef.erase(v);
    if (c != 0) a.coef[u] = c;
  });
  st.ranges[p].hi = Affine::constantOf(eu * ev);
  st.dims.erase(st.dims.begin() + std::ptrdiff_t(p) + 1);
  st.ranges.erase(st.ranges.begin() + std::ptrdiff_t(p) + 1);
}

// A name for the loop that the loops `names` became: their common stem where the
// importer split one loop as stem_0, stem_1, ... and the stem is free; else the outer's.
std::string collapsedName(const Program& prog, const Statement& st, const std::vector<std::string>& names,
                          const std::string& current) {
  const size_t cut = names.front().rfind('_');
  if (cut == std::string::npos || cut == 0) return current;
  const std::string stem = names.front().substr(0, cut);
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] != stem + "_" + std::to_string(k)) return current;
  const bool taken = std::find(st.dims.begin(), st.dims.end(), stem) != st.dims.end() ||
                     std::find(prog.sizeParams.begin(), prog.sizeParams.end(), stem) != prog.sizeParams.end() ||
                     std::any_of(prog.scalars.begin(), prog.scalars.end(), [&](const ScalarParam& s) { return s.name == stem; }) ||
                     prog.findTensor(stem) >= 0;
  return taken ? current : stem;
}

void renameDim(Statement& st, const std::string& from, const std::string& to) {
  forEachAffine(st, [&](Affine& a) {
    if (auto it = a.coef.find(from); it != a.coef.end()) {
      const int64_t c = it->second;
      a.coef.erase(it);
      a.coef[to] = c;
    }
  });
  std::replace(st.dims.begin(), st.dims.end(), from, to);
}

}  // namespace

std::vector<std::string> collapseReductionLoops(Program& prog) {
  std::vector<std::string> changed;
  for (Statement& st : prog.statements) {
    // The loops each current loop stands for, for the statement's line.
    std::vector<std::vector<std::string>> stands;
    for (const std::string& d : st.dims) stands.push_back({d});
    bool any = false;
    for (bool progress = true; progress;) {
      progress = false;
      // Innermost pair first: a nest folds from the inside out.
      for (size_t p = st.dims.size() - 1; p > size_t(st.numParallel) && p < st.dims.size(); --p) {
        const size_t o = p - 1;
        const auto eu = constantExtent(st.ranges[o]), ev = constantExtent(st.ranges[p]);
        if (!eu || !ev || namesIndex(*st.rhs, st.dims[o]) || namesIndex(*st.rhs, st.dims[p])) continue;
        auto flat = flatteningsFor(prog, st, st.dims[o], st.dims[p], *ev);
        if (!flat) continue;
        for (auto& [t, k] : *flat) flatten(prog, t, k);
        collapsePair(st, o, *eu, *ev);
        stands[o].insert(stands[o].end(), stands[p].begin(), stands[p].end());
        stands.erase(stands.begin() + std::ptrdiff_t(p));
        progress = any = true;
        break;
      }
    }
    if (!any) continue;
    std::string line;
    for (size_t d = size_t(st.numParallel); d < st.dims.size(); ++d) {
      if (stands[d].size() < 2) continue;
      const std::string name = collapsedName(prog, st, stands[d], st.dims[d]);
      if (name != st.dims[d]) renameDim(st, st.dims[d], name);
      std::string from;
      for (const std::string& n : stands[d]) from += (from.empty() ? "" : ", ") + n;
      line += (line.empty() ? "" : "; ") + from + " as " + name + " (" + std::to_string(st.ranges[d].hi.constant) +
              " points)";
    }
    changed.push_back(st.label() + ": " + line);
  }
  return changed;
}

}  // namespace polyfuse

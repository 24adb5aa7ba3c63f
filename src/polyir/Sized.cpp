#include "polyir/Sized.h"

#include <algorithm>

#include "polyir/Checked.h"

namespace polyfuse {

static int64_t countOps(const Expr& e) {
  int64_t n = 0;
  switch (e.kind) {
    case ExprKind::Neg: case ExprKind::Add: case ExprKind::Sub: case ExprKind::Mul: case ExprKind::Div:
    case ExprKind::Call: case ExprKind::Lt: case ExprKind::Le: case ExprKind::Gt: case ExprKind::Ge:
    case ExprKind::Eq: case ExprKind::Ne: case ExprKind::Select: n = 1; break;
    default: break;
  }
  for (auto& a : e.args) n += countOps(*a);
  return n;
}

// Calls whose evaluation is a routine (range reduction and a polynomial), not an
// instruction or two: what Device::mathFlops weighs.
static bool mathRoutine(Intrinsic f) {
  switch (f) {
    case Intrinsic::Exp: case Intrinsic::Log: case Intrinsic::Sqrt: case Intrinsic::Rsqrt: case Intrinsic::Tanh:
    case Intrinsic::Erf: case Intrinsic::Pow: case Intrinsic::Sigmoid: case Intrinsic::Sin: case Intrinsic::Cos:
    case Intrinsic::Tan: case Intrinsic::Atan: case Intrinsic::Atan2: case Intrinsic::Log1p: case Intrinsic::Log2:
    case Intrinsic::Log10: case Intrinsic::Exp2: case Intrinsic::Expm1: case Intrinsic::Fmod: case Intrinsic::Asin:
    case Intrinsic::Acos: case Intrinsic::Sinh: case Intrinsic::Cosh: case Intrinsic::Asinh: case Intrinsic::Acosh:
    case Intrinsic::Atanh: case Intrinsic::Cbrt: case Intrinsic::Erfc:
      return true;
    default:
      return false;
  }
}

// Marks the statement dims that e's value varies with (a gather: all of them).
static void markVarying(const Statement& st, const Expr& e, std::vector<bool>& varies) {
  if (e.kind == ExprKind::Index)
    for (size_t d = 0; d < st.dims.size(); ++d) varies[d] = varies[d] || st.dims[d] == e.name;
  if (e.kind == ExprKind::Access) {
    const Access& a = st.reads[size_t(e.ref)];
    for (size_t d = 0; d < st.dims.size(); ++d) {
      bool v = a.gathers();
      for (auto& sub : a.subscripts) v = v || sub.coefficient(st.dims[d]) != 0;
      varies[d] = varies[d] || v;
    }
  }
  for (auto& a : e.args) markVarying(st, *a, varies);
}

// Math-library calls a point evaluates. One whose arguments vary along only some dims
// counts once a point of those: the row factor rsqrt(var(i) + eps) once a row, as
// compilers hoist it out of the loops over the others (and codegen's row factors are).
static double countMathCalls(const Statement& st, const Expr& e, const std::vector<int64_t>& extents) {
  double n = 0;
  if (e.kind == ExprKind::Call && mathRoutine(e.fn)) {
    std::vector<bool> varies(st.dims.size(), false);
    for (auto& a : e.args) markVarying(st, *a, varies);
    n = 1;
    for (size_t d = 0; d < st.dims.size(); ++d)
      if (!varies[d]) n /= double(std::max<int64_t>(1, extents[d]));
  }
  for (auto& a : e.args) n += countMathCalls(st, *a, extents);
  return n;
}

SizedAccess sizeAccess(const Program& prog, const Access& a, const Statement& st, const Sizes& sizes) {
  SizedAccess s;
  s.tensor = a.tensor;
  for (auto& sub : a.subscripts) {
    std::vector<int64_t> row;
    Affine rest = sub;
    for (auto& d : st.dims) {
      row.push_back(sub.coefficient(d));
      rest = rest - Affine::var(d).scaled(sub.coefficient(d));
    }
    s.coef.push_back(row);
    s.constant.push_back(rest.eval(sizes));
  }
  s.guarded = a.guarded();
  if (a.gathers()) s.indirect = a.indirect;
  if (a.gathers() || s.guarded)
    for (auto& e : prog.tensors[a.tensor].shape) s.extent.push_back(e.eval(sizes));
  return s;
}

void Box::hull(const Box& o) {
  if (o.empty) return;
  if (empty) {
    *this = o;
    return;
  }
  for (size_t p = 0; p < lo.size(); ++p) {
    lo[p] = std::min(lo[p], o.lo[p]);
    hi[p] = std::max(hi[p], o.hi[p]);
  }
}

int64_t Box::volume() const {
  if (empty) return 0;
  int64_t v = 1;
  for (size_t p = 0; p < lo.size(); ++p) v = checkedMul(v, hi[p] - lo[p] + 1, "a footprint volume");
  return v;
}

Box footprint(const SizedStatement& ss, const SizedAccess& a, const std::vector<int64_t>& lo,
              const std::vector<int64_t>& hi) {
  Box b;
  for (size_t k = 0; k < lo.size(); ++k)
    if (lo[k] >= hi[k]) return b;
  b.empty = false;
  b.lo.reserve(a.coef.size());
  b.hi.reserve(a.coef.size());
  for (size_t p = 0; p < a.coef.size(); ++p) {
    int64_t mn = a.constant[p], mx = a.constant[p];
    for (size_t k = 0; k < lo.size(); ++k) {
      int64_t c = a.coef[p][k];
      const char* what = "an access's footprint bound";
      if (c > 0) {
        mn = checkedAdd(mn, checkedMul(c, lo[k], what), what);
        mx = checkedAdd(mx, checkedMul(c, hi[k] - 1, what), what);
      } else if (c < 0) {
        mn = checkedAdd(mn, checkedMul(c, hi[k] - 1, what), what);
        mx = checkedAdd(mx, checkedMul(c, lo[k], what), what);
      }
    }
    b.lo.push_back(mn);
    b.hi.push_back(mx);
  }
  // A gather touches at most as many rows as its index read has elements here: the
  // box spans that many (or the whole dimension), not every row it may read.
  for (size_t p = 0; p < a.indirect.size(); ++p)
    if (a.indirect[p] >= 0) {
      const Box index = footprint(ss, ss.reads[size_t(a.indirect[p])], lo, hi);
      b.lo[p] = 0;
      b.hi[p] = std::min(a.extent[p], index.volume()) - 1;
    }
  // A guarded read's subscripts leave the tensor only where its guards fail.
  if (a.guarded)
    for (size_t p = 0; p < b.lo.size(); ++p) {
      b.lo[p] = std::max<int64_t>(b.lo[p], 0);
      b.hi[p] = std::min(b.hi[p], a.extent[p] - 1);
      if (b.lo[p] > b.hi[p]) return Box{};
    }
  return b;
}

SizedProgram::SizedProgram(const Program& prog, const Sizes& sizes) : prog_(&prog), sizes_(sizes) {
  prog.checkSizes(sizes);
  for (auto& t : prog.tensors) elems_.push_back(t.elements(sizes));
  for (auto& st : prog.statements) {
    SizedStatement s;
    s.points = 1;
    for (auto& r : st.ranges) {
      s.lo.push_back(r.lo.eval(sizes));
      s.hi.push_back(r.hi.eval(sizes));
      s.points = checkedMul(s.points, std::max<int64_t>(0, s.hi.back() - s.lo.back()), "a statement's point count");
    }
    s.flopsPerPoint = countOps(*st.rhs) + (st.isReduction() ? 1 : 0);
    std::vector<int64_t> extents;
    for (size_t d = 0; d < s.lo.size(); ++d) extents.push_back(s.hi[d] - s.lo[d]);
    s.mathCallsPerPoint = countMathCalls(st, *st.rhs, extents);
    s.write = sizeAccess(prog, st.write, st, sizes);
    for (auto& r : st.reads) s.reads.push_back(sizeAccess(prog, r, st, sizes));
    stmts_.push_back(std::move(s));
  }
}

int64_t SizedProgram::lowerBoundBytes() const {
  // The elements every partition must move, per tensor the largest footprint of one
  // access: of a read for an input (a slice reads part of it; an argument nobody reads,
  // such as the destination a fill overwrites, none; gathers from one table share rows in
  // a kernel that holds them all, its footprint their hull), of a write for an output (a
  // `where` range may write part of it). Temporaries need not move at all.
  std::vector<int64_t> moved(prog_->tensors.size(), 0);
  auto take = [&](const SizedStatement& ss, const SizedAccess& a, TensorRole role) {
    int64_t& m = moved[size_t(a.tensor)];
    if (prog_->tensors[size_t(a.tensor)].role == role) m = std::max(m, footprint(ss, a, ss.lo, ss.hi).volume());
  };
  for (auto& st : prog_->statements) {
    const SizedStatement& ss = stmts_[size_t(st.id)];
    for (auto& r : ss.reads) take(ss, r, TensorRole::Input);
    take(ss, ss.write, TensorRole::Output);
  }
  int64_t b = 0;
  for (size_t t = 0; t < prog_->tensors.size(); ++t) {
    const Tensor& T = prog_->tensors[t];
    if (T.role != TensorRole::Temporary) b += std::min(tensorBytes(int(t)), moved[t] * elemBytes(T.type));
  }
  return b;
}

bool SizedProgram::needsWideIndices() const {
  const int64_t limit = int64_t(1) << 31;
  return std::any_of(elems_.begin(), elems_.end(), [&](int64_t n) { return n >= limit; }) ||
         std::any_of(stmts_.begin(), stmts_.end(), [&](const SizedStatement& s) { return s.points >= limit; });
}

}  // namespace polyfuse

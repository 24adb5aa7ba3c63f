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

static SizedAccess sizeAccess(const Access& a, const Statement& st, const Sizes& sizes) {
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
  return s;
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
    s.write = sizeAccess(st.write, st, sizes);
    for (auto& r : st.reads) s.reads.push_back(sizeAccess(r, st, sizes));
    stmts_.push_back(std::move(s));
  }
}

int64_t SizedProgram::lowerBoundBytes() const {
  int64_t b = 0;
  for (size_t t = 0; t < prog_->tensors.size(); ++t)
    if (prog_->tensors[t].role != TensorRole::Temporary) b += tensorBytes(int(t));
  return b;
}

bool SizedProgram::needsWideIndices() const {
  const int64_t limit = int64_t(1) << 31;
  return std::any_of(elems_.begin(), elems_.end(), [&](int64_t n) { return n >= limit; }) ||
         std::any_of(stmts_.begin(), stmts_.end(), [&](const SizedStatement& s) { return s.points >= limit; });
}

}  // namespace polyfuse

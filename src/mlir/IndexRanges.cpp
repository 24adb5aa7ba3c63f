#include "mlir/IndexRanges.h"

#include <numeric>
#include <utility>

#include "mlir/IR/AffineExpr.h"

namespace polyfuse {

namespace {

using Extents = std::vector<std::optional<int64_t>>;
using Interval = std::optional<std::pair<int64_t, int64_t>>;  // [lo, hi], both included

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// A sum of terms c * atom and a constant: an affine expression taken apart.
struct Linear {
  std::vector<std::pair<mlir::AffineExpr, int64_t>> terms;
  int64_t constant = 0;
  void add(mlir::AffineExpr atom, int64_t c) {
    for (auto& [a, k] : terms)
      if (a == atom) { k += c; return; }
    terms.push_back({atom, c});
  }
};

void flatten(mlir::AffineExpr e, int64_t scale, Linear& out) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) { out.constant += scale * c.getValue(); return; }
  if (e.getKind() == mlir::AffineExprKind::Add) {
    auto b = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    flatten(b.getLHS(), scale, out);
    flatten(b.getRHS(), scale, out);
    return;
  }
  if (e.getKind() == mlir::AffineExprKind::Mul) {
    auto b = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(b.getRHS())) return flatten(b.getLHS(), scale * c.getValue(), out);
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(b.getLHS())) return flatten(b.getRHS(), scale * c.getValue(), out);
  }
  out.add(e, scale);
}

mlir::AffineExpr rebuild(const Linear& l, mlir::MLIRContext* ctx) {
  mlir::AffineExpr r = mlir::getAffineConstantExpr(l.constant, ctx);
  for (auto& [a, c] : l.terms)
    if (c != 0) r = r + a * c;
  return r;
}

struct Simplifier {
  const Extents& extents;

  Interval range(mlir::AffineExpr e) const {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return std::make_pair(c.getValue(), c.getValue());
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) {
      const unsigned p = d.getPosition();
      if (p < extents.size() && extents[p] && *extents[p] >= 1) return std::make_pair(int64_t(0), *extents[p] - 1);
      return std::nullopt;
    }
    auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!b) return std::nullopt;
    auto k = mlir::dyn_cast<mlir::AffineConstantExpr>(b.getRHS());
    if (e.getKind() == mlir::AffineExprKind::Mod && k && k.getValue() >= 1) return std::make_pair(int64_t(0), k.getValue() - 1);
    if (e.getKind() == mlir::AffineExprKind::FloorDiv && k && k.getValue() >= 1) {
      Interval x = range(b.getLHS());
      if (!x) return std::nullopt;
      return std::make_pair(floorDiv(x->first, k.getValue()), floorDiv(x->second, k.getValue()));
    }
    Linear l;
    flatten(e, 1, l);
    if (l.terms.size() == 1 && l.terms[0].first == e) return std::nullopt;  // not a sum: nothing known
    return rangeOf(l);
  }
  Interval rangeOf(const Linear& l) const {
    int64_t lo = l.constant, hi = l.constant;
    for (auto& [a, c] : l.terms) {
      if (c == 0) continue;
      Interval x = range(a);
      if (!x) return std::nullopt;
      lo += c > 0 ? c * x->first : c * x->second;
      hi += c > 0 ? c * x->second : c * x->first;
    }
    return std::make_pair(lo, hi);
  }

  mlir::AffineExpr operator()(mlir::AffineExpr e) const {
    auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!b) return e;
    mlir::MLIRContext* ctx = e.getContext();
    const mlir::AffineExpr lhs = (*this)(b.getLHS()), rhs = (*this)(b.getRHS());
    switch (e.getKind()) {
      case mlir::AffineExprKind::Add: return lhs + rhs;
      case mlir::AffineExprKind::Mul: return lhs * rhs;
      case mlir::AffineExprKind::CeilDiv: return lhs.ceilDiv(rhs);
      default: break;
    }
    const bool div = e.getKind() == mlir::AffineExprKind::FloorDiv;
    auto kc = mlir::dyn_cast<mlir::AffineConstantExpr>(rhs);
    if (!kc || kc.getValue() < 1) return div ? lhs.floorDiv(rhs) : lhs % rhs;
    const int64_t k = kc.getValue();
    if (Interval x = range(lhs); x && x->first >= 0 && x->second < k) return div ? mlir::getAffineConstantExpr(0, ctx) : lhs;
    Linear l;
    flatten(lhs, 1, l);
    // The largest g dividing k such that the terms whose coefficients g does not divide
    // (with the constant's remainder) stay in 0:g.
    for (int64_t g = k; g > 1; --g) {
      if (k % g) continue;
      Linear outer, inner;
      outer.constant = floorDiv(l.constant, g);
      inner.constant = l.constant - g * outer.constant;
      for (auto& [a, c] : l.terms) {
        if (c % g == 0) outer.add(a, c / g);
        else inner.add(a, c);
      }
      Interval r = rangeOf(inner);
      if (!r || r->first < 0 || r->second >= g) continue;
      const mlir::AffineExpr a = (*this)(rebuild(outer, ctx));
      const int64_t m = k / g;
      if (div) return m == 1 ? a : (*this)(a.floorDiv(m));
      return (m == 1 ? mlir::getAffineConstantExpr(0, ctx) : (*this)(a % m)) * g + rebuild(inner, ctx);
    }
    return div ? lhs.floorDiv(k) : lhs % k;
  }
};

}  // namespace

mlir::AffineMap simplifyByRanges(mlir::AffineMap map, const std::vector<std::optional<int64_t>>& extents) {
  const Simplifier simplify{extents};
  llvm::SmallVector<mlir::AffineExpr> out;
  for (mlir::AffineExpr e : map.getResults())
    out.push_back(mlir::simplifyAffineExpr(simplify(e), map.getNumDims(), map.getNumSymbols()));
  return mlir::AffineMap::get(map.getNumDims(), map.getNumSymbols(), out, map.getContext());
}

}  // namespace polyfuse

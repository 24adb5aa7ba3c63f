#include "mlir/IndexRanges.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "mlir/IR/AffineExpr.h"

namespace polyfuse {

namespace {

using Extents = std::vector<std::optional<int64_t>>;
using Interval = std::optional<std::pair<int64_t, int64_t>>;  // [lo, hi], both included

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// a * b + c, or none where it overflows (extents reach 2^40: a range times a coefficient
// may not fit; such a form is left as it is).
std::optional<int64_t> mulAdd(int64_t a, int64_t b, int64_t c) {
  int64_t p, r;
  if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, &r)) return std::nullopt;
  return r;
}

// A sum of terms c * atom and a constant: an affine expression taken apart.
struct Linear {
  std::vector<std::pair<mlir::AffineExpr, int64_t>> terms;
  int64_t constant = 0;
  bool overflow = false;
  void add(mlir::AffineExpr atom, int64_t c) {
    for (auto& [a, k] : terms)
      if (a == atom) {
        if (__builtin_add_overflow(k, c, &k)) overflow = true;
        return;
      }
    terms.push_back({atom, c});
  }
};

void flatten(mlir::AffineExpr e, int64_t scale, Linear& out) {
  if (out.overflow) return;
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) {
    std::optional<int64_t> v = mulAdd(scale, c.getValue(), out.constant);
    if (!v) out.overflow = true;
    else out.constant = *v;
    return;
  }
  if (e.getKind() == mlir::AffineExprKind::Add) {
    auto b = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    flatten(b.getLHS(), scale, out);
    flatten(b.getRHS(), scale, out);
    return;
  }
  if (e.getKind() == mlir::AffineExprKind::Mul) {
    auto b = mlir::cast<mlir::AffineBinaryOpExpr>(e);
    for (auto [k, x] : {std::pair(b.getRHS(), b.getLHS()), std::pair(b.getLHS(), b.getRHS())})
      if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(k)) {
        std::optional<int64_t> s = mulAdd(scale, c.getValue(), 0);
        if (!s) { out.overflow = true; return; }
        return flatten(x, *s, out);
      }
  }
  out.add(e, scale);
}

}  // namespace

std::optional<LoopSum> loopSum(mlir::AffineExpr e) {
  Linear l;
  flatten(e, 1, l);
  if (l.overflow) return std::nullopt;
  LoopSum s{{}, l.constant};
  for (auto& [atom, c] : l.terms) {
    auto d = mlir::dyn_cast<mlir::AffineDimExpr>(atom);
    if (!d) return std::nullopt;
    s.coefficients[d.getPosition()] += c;
  }
  return s;
}

namespace {

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
    if (l.overflow) return std::nullopt;
    int64_t lo = l.constant, hi = l.constant;
    for (auto& [a, c] : l.terms) {
      if (c == 0) continue;
      Interval x = range(a);
      if (!x) return std::nullopt;
      std::optional<int64_t> nlo = mulAdd(c, c > 0 ? x->first : x->second, lo), nhi = mulAdd(c, c > 0 ? x->second : x->first, hi);
      if (!nlo || !nhi) return std::nullopt;
      lo = *nlo, hi = *nhi;
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
    // Quotients and remainders of quotients and remainders: (x floordiv a) floordiv k =
    // x floordiv (a*k), (x mod (a*k)) floordiv a.. and (x mod m) mod k = x mod k where k
    // divides m; (x mod (k*b)) floordiv k = (x floordiv k) mod b.
    if (auto inner = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(lhs)) {
      auto ic = mlir::dyn_cast<mlir::AffineConstantExpr>(inner.getRHS());
      if (ic && ic.getValue() >= 1) {
        const int64_t a = ic.getValue();
        int64_t ak;
        if (div && lhs.getKind() == mlir::AffineExprKind::FloorDiv && !__builtin_mul_overflow(a, k, &ak))
          return (*this)(inner.getLHS().floorDiv(ak));
        if (!div && lhs.getKind() == mlir::AffineExprKind::Mod && a % k == 0) return (*this)(inner.getLHS() % k);
        if (div && lhs.getKind() == mlir::AffineExprKind::Mod && a % k == 0 && a / k > 1)
          return (*this)(inner.getLHS().floorDiv(k) % (a / k));
      }
    }
    Linear l;
    flatten(lhs, 1, l);
    if (l.overflow) return div ? lhs.floorDiv(k) : lhs % k;
    // The largest g dividing k such that the terms whose coefficients g does not divide
    // (with the constant's remainder) stay in 0:g. Such a g is the gcd of k and the
    // coefficients it divides, so the candidates are k's gcds with the coefficients, one
    // and two at a time (k may be 2^40: its divisors are not walked).
    std::vector<int64_t> candidates{k};
    for (size_t i = 0; i < l.terms.size(); ++i) {
      const int64_t gi = std::gcd(k, l.terms[i].second);
      candidates.push_back(gi);
      for (size_t j = i + 1; j < l.terms.size(); ++j) candidates.push_back(std::gcd(gi, l.terms[j].second));
    }
    std::sort(candidates.rbegin(), candidates.rend());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (int64_t g : candidates) {
      if (g <= 1) break;
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

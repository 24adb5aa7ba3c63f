#include "mlir/LoopFunction.h"

#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace polyfuse {
namespace {

// A value of the chain at one point: an integer (index or iN) or a float, rounded to f32
// after every operation when its type is f32.
struct Num {
  bool isFloat = false;
  int64_t i = 0;
  double f = 0;
};

class Evaluator {
 public:
  Evaluator(mlir::Block* body) : body_(body) {}

  // The loop the chain reads; false when it reads more than one, or an op outside the list,
  // or more than 256 ops (each value is visited once: a shared operand is not a path).
  bool scan(mlir::Value v) {
    if (mlir::isa<mlir::BlockArgument>(v)) return false;
    if (!scanned_.insert(v.getAsOpaquePointer()).second) return true;
    if (scanned_.size() > 256) return false;
    mlir::Operation* d = v.getDefiningOp();
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d))
      return mlir::isa<mlir::IntegerAttr, mlir::FloatAttr>(c.getValue());
    if (d->getBlock() != body_) return false;
    if (auto l = mlir::dyn_cast<mlir::linalg::IndexOp>(d)) {
      if (loop_ && *loop_ != l.getDim()) return false;
      loop_ = unsigned(l.getDim());
      return true;
    }
    if (!mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp,
                   mlir::arith::SIToFPOp, mlir::arith::UIToFPOp, mlir::arith::FPToSIOp, mlir::arith::FPToUIOp,
                   mlir::arith::ExtFOp, mlir::arith::TruncFOp, mlir::math::FloorOp, mlir::math::CeilOp, mlir::arith::AddFOp,
                   mlir::arith::SubFOp, mlir::arith::MulFOp, mlir::arith::DivFOp, mlir::arith::AddIOp, mlir::arith::SubIOp,
                   mlir::arith::MulIOp, mlir::arith::FloorDivSIOp, mlir::arith::MinSIOp, mlir::arith::MaxSIOp,
                   mlir::arith::MinUIOp, mlir::arith::MaxUIOp>(d))
      return false;
    for (mlir::Value o : d->getOperands())
      if (!scan(o)) return false;
    return true;
  }
  std::optional<unsigned> loop() const { return loop_; }

  // v at loop index `point`; values shared by several ops are computed once a point.
  std::optional<Num> eval(mlir::Value v, int64_t point) {
    if (point != cachedPoint_) cache_.clear(), cachedPoint_ = point;
    if (auto it = cache_.find(v.getAsOpaquePointer()); it != cache_.end()) return it->second;
    std::optional<Num> n = compute(v, point);
    if (n) cache_[v.getAsOpaquePointer()] = *n;
    return n;
  }

 private:
  std::optional<Num> compute(mlir::Value v, int64_t point) {
    mlir::Operation* d = v.getDefiningOp();
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d)) {
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue())) return Num{false, i.getValue().getSExtValue(), 0};
      return round(v, mlir::cast<mlir::FloatAttr>(c.getValue()).getValueAsDouble());
    }
    if (mlir::isa<mlir::linalg::IndexOp>(d)) return Num{false, point, 0};
    std::vector<Num> a;
    for (mlir::Value o : d->getOperands()) {
      std::optional<Num> x = eval(o, point);
      if (!x) return std::nullopt;
      a.push_back(*x);
    }
    // An unsigned op reads a negative operand as a huge value: no fit then, rather than a
    // signed reading MLIR does not make.
    if (mlir::isa<mlir::arith::IndexCastUIOp, mlir::arith::ExtUIOp, mlir::arith::UIToFPOp, mlir::arith::MinUIOp,
                  mlir::arith::MaxUIOp>(d))
      for (const Num& n : a)
        if (!n.isFloat && n.i < 0) return std::nullopt;
    if (mlir::isa<mlir::arith::FPToUIOp>(d) && a[0].f < 0) return std::nullopt;
    if (mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp>(d))
      return a[0];
    if (mlir::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp>(d)) return round(v, double(a[0].i));
    if (mlir::isa<mlir::arith::ExtFOp, mlir::arith::TruncFOp>(d)) return round(v, a[0].f);
    if (mlir::isa<mlir::arith::FPToSIOp, mlir::arith::FPToUIOp>(d)) {
      if (!std::isfinite(a[0].f) || std::fabs(a[0].f) > 9.0e15) return std::nullopt;
      return Num{false, int64_t(std::trunc(a[0].f)), 0};
    }
    if (mlir::isa<mlir::math::FloorOp>(d)) return round(v, std::floor(a[0].f));
    if (mlir::isa<mlir::math::CeilOp>(d)) return round(v, std::ceil(a[0].f));
    if (mlir::isa<mlir::arith::AddFOp>(d)) return round(v, a[0].f + a[1].f);
    if (mlir::isa<mlir::arith::SubFOp>(d)) return round(v, a[0].f - a[1].f);
    if (mlir::isa<mlir::arith::MulFOp>(d)) return round(v, a[0].f * a[1].f);
    if (mlir::isa<mlir::arith::DivFOp>(d)) return round(v, a[0].f / a[1].f);
    const int64_t x = a[0].i, y = a[1].i;
    if (mlir::isa<mlir::arith::AddIOp>(d)) return Num{false, x + y, 0};
    if (mlir::isa<mlir::arith::SubIOp>(d)) return Num{false, x - y, 0};
    if (mlir::isa<mlir::arith::MulIOp>(d)) return Num{false, x * y, 0};
    if (mlir::isa<mlir::arith::FloorDivSIOp>(d)) {
      if (y == 0) return std::nullopt;
      return Num{false, x / y - ((x % y != 0) && ((x < 0) != (y < 0))), 0};
    }
    // Unsigned operands were checked non-negative above: signed and unsigned agree.
    if (mlir::isa<mlir::arith::MinSIOp, mlir::arith::MinUIOp>(d)) return Num{false, std::min(x, y), 0};
    return Num{false, std::max(x, y), 0};  // MaxSI, MaxUI
  }

  // A result rounded to its type (nearest, ties to even), as MLIR's arithmetic rounds it:
  // the operations here computed in double and rounded once are correctly rounded for
  // f32, f16 and bf16 (double carries more than twice their precision); f64 is exact.
  static Num round(mlir::Value v, double x) {
    Num n;
    n.isFloat = true;
    n.f = x;
    auto t = mlir::dyn_cast<mlir::FloatType>(v.getType());
    if (t && t.getWidth() < 64 && std::isfinite(x)) {
      llvm::APFloat f(x);
      bool lost = false;
      f.convert(t.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
      f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
      n.f = f.convertToDouble();
    }
    return n;
  }
  mlir::Block* body_;
  std::optional<unsigned> loop_;
  std::unordered_set<const void*> scanned_;
  std::unordered_map<const void*, Num> cache_;
  int64_t cachedPoint_ = -1;
};

}  // namespace

std::optional<mlir::AffineExpr> fitLoopFunction(mlir::Value v, mlir::Block* body,
                                                const std::function<std::optional<int64_t>(unsigned)>& extentOf) {
  Evaluator e(body);
  if (!e.scan(v) || !e.loop()) return std::nullopt;
  std::optional<int64_t> extent = extentOf(*e.loop());
  if (!extent || *extent < 1 || *extent > (int64_t(1) << 20)) return std::nullopt;
  std::vector<int64_t> table;
  for (int64_t p = 0; p < *extent; ++p) {
    std::optional<Num> n = e.eval(v, p);
    if (!n || n->isFloat) return std::nullopt;
    table.push_back(n->i);
  }
  mlir::MLIRContext* ctx = v.getContext();
  const mlir::AffineExpr d = mlir::getAffineDimExpr(*e.loop(), ctx);
  const int64_t c = table[0];
  // c + s*d: a strided read (a downsample).
  const int64_t s = table.size() > 1 ? table[1] - c : 0;
  bool affine = true;
  for (size_t p = 0; p < table.size() && affine; ++p) affine = table[p] == c + s * int64_t(p);
  if (affine) return d * s + c;
  // c + d floordiv k: each source index repeated k times (a nearest upsample).
  int64_t k = 1;
  while (k < int64_t(table.size()) && table[size_t(k)] == c) ++k;
  for (size_t p = 0; p < table.size(); ++p)
    if (table[p] != c + int64_t(p) / k) return std::nullopt;
  return d.floorDiv(k) + c;
}

}  // namespace polyfuse

// Index arithmetic of one loop read as an affine form. torch-mlir computes a nearest
// upsample's source row in floating point: floor(float(h) * 0.5), cast back to an index.
// That is no affine expression, but over the loop's static range it takes the same values
// as h floordiv 2. The function is evaluated at every point of the range with MLIR's
// semantics (f32 rounding included), and the form is kept only if it agrees everywhere:
// a fit checked exhaustively, not an assumption about the scale.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Value.h"

namespace polyfuse {

// The affine form c + s*d or c + d floordiv k of the index value `v`, computed in `body`
// from one loop d (linalg.index d) and constants through integer and float arithmetic,
// casts, floor/ceil and min/max; none when v depends on anything else, its ops fall outside
// that list, the loop has no static extent (extentOf) or more than 2^20 points, or no such
// form agrees with v at every point.
std::optional<mlir::AffineExpr> fitLoopFunction(mlir::Value v, mlir::Block* body,
                                                const std::function<std::optional<int64_t>(unsigned)>& extentOf);

}  // namespace polyfuse

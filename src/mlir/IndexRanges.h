// Reads through views simplified by what the loops' ranges know. A collapse_shape read
// through an expand_shape (torch-mlir's `view` of 2x3x4 as 6x4, through 24) composes into
// ((4*d0 + d1) floordiv 12) mod 2 and the like, which MLIR's own simplification leaves:
// it does not know that d1 < 4. With the loops' extents it is d0 floordiv 3, a part of one
// loop, which the importer splits the loop for. Only MLIR's affine expressions are
// included here (not its dialects).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "mlir/IR/AffineMap.h"

namespace polyfuse {

// `map` with each floordiv and mod by a positive constant rewritten where the ranges of
// its operand's terms make it one: (g*a + b) floordiv (g*m) = a floordiv m and
// (g*a + b) mod (g*m) = g*(a mod m) + b when 0 <= b < g; x floordiv k = 0 and x mod k = x
// when 0 <= x < k. extents[d]: loop d's static extent (its index in 0:extent), or none.
// An affine expression as a sum of loops times coefficients plus a constant
// (coefficients[d] for loop d), or none where it holds a floordiv, a mod, a symbol, a
// product of loops, or overflows 64 bits.
struct LoopSum {
  std::map<unsigned, int64_t> coefficients;
  int64_t constant = 0;
};
std::optional<LoopSum> loopSum(mlir::AffineExpr e);

mlir::AffineMap simplifyByRanges(mlir::AffineMap map, const std::vector<std::optional<int64_t>>& extents);

}  // namespace polyfuse

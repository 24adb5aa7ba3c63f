// A tensor built piece by piece: a chain of tensor.insert_slice ops into a tensor.empty,
// each into the one before, the pieces laid side by side along one dimension and covering
// it once (MLIR's own lowering of tosa.concat; torch-mlir's older `cat`, the rotary
// embedding's rotate_half). Read op by op, it is a fill of zeros for the empty tensor, then
// for each insert a copy of the tensor so far and a write of its piece: passes that write
// what the next reads back, in statements that each write the same tensor again. It is the
// one tensor.concat of its pieces, which the importer writes as one window a piece.
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// Rewrites `f` in place; one note counts the chains rewritten. A chain qualifies when
// every insert but the last is used only by the next, every offset, size and stride is
// static (strides 1, no rank dropped), the pieces span their other dimensions whole, and
// along the one they split they follow each other from 0 to the extent without overlap.
void insertChainsAsConcat(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

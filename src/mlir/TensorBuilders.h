// tensor.from_elements and tensor.generate, the two ops that build a tensor element by
// element, written as the op the importer reads: a linalg.generic over the result, whose
// body selects each element by its position, or is the generate's body with the
// generic's own indices (linalg.index).
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// At most this many elements selected among (a constant of more is an input).
constexpr long kMaxFromElements = 1024;

// Whether every use of `v` is the shape operand of a tensor.reshape (torch-mlir's view
// lowering builds the result's sizes with tensor.from_elements): no data, the reshape reads
// its result's type.
bool onlyReshapeShape(mlir::Value v);

// Rewrites `f` in place; one note says what was rewritten. A from_elements of more than
// kMaxFromElements distinct elements is refused at the op.
void tensorBuilders(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

// tensor.from_elements and tensor.generate, the two ops that build a tensor element by
// element, written as the ops the importer reads: a fill and one tensor.insert per element
// that differs from it; a linalg.generic over the result whose body is the generate's,
// its indices the generic's own (linalg.index).
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// At most this many elements written one by one: each is a statement.
constexpr long kMaxFromElements = 1024;

// Whether every use of `v` is the shape operand of a tensor.reshape (torch-mlir's view
// lowering builds the result's sizes with tensor.from_elements): no data, the reshape reads
// its result's type.
bool onlyReshapeShape(mlir::Value v);

// Rewrites `f` in place; one note says what was rewritten. A from_elements of more than
// kMaxFromElements distinct elements is refused at the op.
void tensorBuilders(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

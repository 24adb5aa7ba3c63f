// TOSA functions (IREE's tosa_ops tests, TFLite exports), and elementwise ops on whole
// tensors, become linalg on tensors through MLIR's own conversions, before the importer
// reads them.
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// Registers the TOSA dialect, so that a file written in it parses.
void registerTosa(mlir::DialectRegistry& registry);

// Lowers the TOSA ops of `f` (none: nothing happens) with MLIR's passes, in the order of
// its tosa-to-linalg pipeline, less the canonicalizations that would fold constants (an
// IREE test's unfoldable inputs must stay inputs). Fails with MLIR's diagnostic emitted
// at the op it could not convert.
mlir::LogicalResult lowerTosa(mlir::func::FuncOp f, std::vector<std::string>& notes);

// Elementwise ops applied to whole tensors (`arith.addf` or `math.tanh` on a tensor<..>,
// as IREE's tests and hand-written files use them) become the linalg.generic each means,
// by MLIR's convert-elementwise-to-linalg.
mlir::LogicalResult lowerTensorElementwise(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

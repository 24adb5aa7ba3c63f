// A generic that writes a result through a linearization of its loops, `(n1 * 2 + n2,
// c1 * 2 + c2)` (tpp-mlir's relayout of blocked tiles back to rows: an unpack written as a
// generic), read as the same generic writing the result's expansion, `(n1, n2, c1, c2)`,
// then the collapse back: a view the importer composes, so every write is by whole loops.
// Strided inserts likewise.
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// Rewrites each such generic of `f` in place; one note when any was.
void expandLinearizedWrites(mlir::func::FuncOp f, std::vector<std::string>& notes);

// An insert_slice with strides (static, each dividing its dimension of the destination)
// read the same way: each strided dimension e as (e / stride, stride), where the slice
// goes in with unit strides at (offset / stride, offset mod stride), then the collapse.
void expandStridedInserts(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

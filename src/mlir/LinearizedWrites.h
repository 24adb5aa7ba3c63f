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

// A tensor.extract in a linalg body from a view, a reshape or a slice with static sizes
// (the unit-extent folding wraps a pad that a body reads, torch-mlir's adaptive pooling,
// in an expand_shape), read as an extract from the viewed tensor at the subscripts the
// view maps its own to: through an expand_shape, each group's subscripts linearized;
// through a collapse_shape whose groups each hold at most one extent other than 1, the
// subscript at that one and 0 at the others; through an extract_slice, offset + stride *
// subscript; through a tensor.cast, the same. Collapses of several such extents are left
// (they would read through divisions), and so are extracts outside bodies, whose
// constant indices the importer reads through views itself.
void extractsThroughViews(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

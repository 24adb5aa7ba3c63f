// Linalg on buffers (tpp-mlir's integration tests and benchmarks, bufferized IR): read as
// the tensor program it computes. Each buffer holds a tensor value; an op that writes a
// buffer (a linalg op's `outs`, a copy, a store) gives it its next value; a read sees
// the value the buffer holds at that point. What the function leaves in its argument
// buffers, and the buffers it returns, are its results.
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

// Rewrites `f` in place when any of its arguments, results or ops works on memrefs
// (nothing happens otherwise). Throws SourceError at an op whose buffers alias (a
// subview, a reinterpret_cast) or that it cannot read as a tensor op.
void readBuffers(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

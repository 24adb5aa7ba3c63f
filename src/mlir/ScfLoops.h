// scf.for and scf.forall of constant bounds (tpp-mlir's tiled tests: a tile extracted,
// computed and inserted back at offsets of the loops' indices), read as the operations
// they run, one copy of the body per iteration: each copy's offsets are constants, and
// the slices and ops are read as any others are. A forall's parallel inserts become
// inserts in iteration order (its iterations write disjoint slices). Exact, and bounded:
// past kMaxUnrolledIterations copies of loop bodies in a function, refused at the loop.
#pragma once
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace polyfuse::linalg_import {

constexpr long kMaxUnrolledIterations = 1024;

// Rewrites `f` in place when it holds scf loops; one note says how many were read.
void unrollLoops(mlir::func::FuncOp f, std::vector<std::string>& notes);

}  // namespace polyfuse::linalg_import

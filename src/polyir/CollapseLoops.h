// Reduction loops collapsed into one.
//
// A reduction over a flattened operand arrives as a nest: torch-mlir's `flatten` before
// a classifier is a `collapse_shape` of 256x6x6 into 9216, and reading the collapsed
// tensor along the matmul's reduction splits that loop into three (d1_0, d1_1, d1_2),
// so that every subscript stays affine. The nest's innermost loop is then 6 points
// long, and a reduction's threads run along its innermost loop: 6 of a block's threads
// would work. When every access uses the nest only as its row-major linear index
// (36*d1_0 + 6*d1_1 + d1_2), one loop over that index visits the same points in the
// same order: the same program, bit for bit, with one long loop for threads to share.
// An operand read with the nest's loops as consecutive subscripts over their whole
// extents (v31(d1_0, d1_1, d1_2)) is such an access once its tensor is stored flat,
// which changes nothing outside the program for a temporary.
#pragma once
#include <string>
#include <vector>

#include "polyir/Program.h"

namespace polyfuse {

// Collapses adjacent reduction loops of constant extents, each from 0, that every
// access of their statement uses only as their linear index, flattening the
// temporaries whose consecutive subscripts are those loops over their whole extents
// (no gathers, no guards, no quotients in any of their accesses). Reduction loops a
// value of the statement names (an index read as a value) stay. Returns one line a
// statement changed: "S29: d1_0, d1_1, d1_2 as d1 (9216 points)", in program order.
std::vector<std::string> collapseReductionLoops(Program& prog);

}  // namespace polyfuse

// Tensors that hold one value everywhere, read as that value.
//
// Exporters write a constant operand as a tensor: torch-mlir's clamp bounds (relu6,
// hardsigmoid, hardswish) are a rank-0 `linalg.fill` cast to f32, splat constants a fill
// of a whole activation-sized tensor. Kept as tensors, each is a statement of its own,
// stored and read back: a rank-0 one is a kernel of one block, and a statement without
// parallel dimensions lets any group reach a one-block grid, so no set of statements
// could ever be ruled out of the fusion search. Reading the value where it is used is
// the same program: the tensor is written once, by a statement that reads nothing, over
// every element.
#pragma once
#include <string>
#include <vector>

#include "polyir/Program.h"

namespace polyfuse {

// Replaces every read of each temporary that one statement writes, over all of its
// elements, from an expression that reads no tensor and no index (a literal, sizes,
// scalars, intrinsics of those), by that expression (rounded to the tensor's type where
// its store would round), and removes the statement and the tensor. Statements keep
// their order and are numbered again. A tensor read as a gather's subscript, or read
// through one, stays, and so does the one double tensor that makes the program compute
// in double. Returns the names of the tensors removed, in program order.
std::vector<std::string> inlineConstantTensors(Program& prog);

// Copies read through. A temporary that one statement writes over all its elements
// from a single read of another tensor, with no arithmetic (a permutation: torch-mlir's
// head split and transpose of K, `permute`, a broadcast; a slice; a gather: an
// embedding's rows, a rotary table's positions), holds at each element the value of the
// element it was copied from: every reader may read that element instead, its
// subscripts composed with the copy's (and a gather's ids read at the reader's point).
// The copy's statement and tensor go, and with them a pass that writes what it read and
// the pass that reads it back (MiniLM: K's and V's head transposes, two kernels of nine
// a layer, which a grid could not share with the projections or with the attention that
// reads them across rows; an exported LLaMA: two gathered tables a layer, 64 statements
// that all read the positions and so were all siblings of each other). Exact: the same
// element types, what the copy reads written once before it (or an input), no reader
// that writes it, affine subscripts where they compose, no guards in the copy; a gathered
// value is read through only into readers without reduction loops, which read each of
// its elements once. Returns the names of the tensors removed, in program order.
std::vector<std::string> readThroughCopies(Program& prog);

// Tensors computed twice. A temporary that one statement writes whole, as an earlier
// statement writes another tensor whole (the same operator, loops, reads and expression,
// literals bit for bit), from values unchanged in between, holds the same elements: its
// readers read the earlier tensor, and its statement and tensor go. An exported
// ResNet-18 (buddy-mlir's TOSA file) normalizes each convolution with the same variance
// tensor: 20 copies of rsqrt(var + eps), each reading that input and so siblings of each
// other, every subset of them a candidate kernel. Returns the names of the tensors
// removed, in program order.
std::vector<std::string> mergeCommonTensors(Program& prog);

}  // namespace polyfuse

// The 16-bit float storage types (ElemType::Half, ElemType::BF16): rounding to them, as
// MLIR's truncf and every backend's stores do, and their bit patterns, as devices and
// .npy files hold them.
#pragma once
#include <cstdint>

#include "polyir/Ast.h"

namespace polyfuse {

// x rounded to nearest even in IEEE half precision and in bfloat16; past the largest
// finite value, infinity.
double roundToHalf(double x);
double roundToBFloat16(double x);
// x rounded to nearest even with `fraction` bits, in quanta no finer than 2^minQuantum (the
// subnormals' step); past `maxFinite`, infinity, or NaN for a format without infinities
// (MLIR's f8E4M3FN and the FNUZ kinds).
double roundToFloatFormat(double x, int fraction, int minQuantum, double maxFinite, bool nanOnOverflow);
// `v` as a tensor of type `t` holds it: rounded to float, half or bfloat16.
double storedValue(ElemType t, double v);

// Bit patterns of the rounded value, and back (exact). A NaN is the quiet NaN.
uint16_t halfBits(double v);
double halfValue(uint16_t bits);
uint16_t bfloat16Bits(double v);
double bfloat16Value(uint16_t bits);

}  // namespace polyfuse

#include "polyir/Float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace polyfuse {

double roundToFloatFormat(double x, int fraction, int minQuantum, double maxFinite, bool nanOnOverflow) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return nanOnOverflow ? NAN : x;
  int e;
  std::frexp(x, &e);
  const int q = std::max(e - 1 - fraction, minQuantum);
  const double r = std::ldexp(std::nearbyint(std::ldexp(x, -q)), q);
  if (std::fabs(r) <= maxFinite) return r;
  return nanOnOverflow ? NAN : std::copysign(INFINITY, r);
}
double roundToHalf(double x) { return roundToFloatFormat(x, 10, -24, 65504.0, false); }
double roundToBFloat16(double x) { return roundToFloatFormat(x, 7, -133, 3.3895313892515355e38, false); }

double storedValue(ElemType t, double v) {
  switch (t) {
    case ElemType::F32: return double(float(v));
    case ElemType::Half: return roundToHalf(v);
    case ElemType::BF16: return roundToBFloat16(v);
    default: return v;
  }
}

uint16_t halfBits(double v) {
  v = roundToHalf(v);
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return 0x7e00;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): the exponent is e - 1
  if (e - 1 < -14) return sign | uint16_t(std::ldexp(a, 24));  // subnormal: multiples of 2^-24
  return sign | uint16_t((e - 1 + 15) << 10) | uint16_t(std::ldexp(a, 11 - e) - 1024);
}

double halfValue(uint16_t bits) {
  const double sign = bits & 0x8000 ? -1.0 : 1.0;
  const int exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
  if (exp == 0x1f) return mant ? NAN : sign * INFINITY;
  if (exp == 0) return sign * std::ldexp(double(mant), -24);
  return sign * std::ldexp(double(mant + 1024), exp - 25);
}

uint16_t bfloat16Bits(double v) {
  v = roundToBFloat16(v);
  if (std::isnan(v)) return 0x7fc0;
  const float f = float(v);  // exact: bfloat16 values are floats
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}

double bfloat16Value(uint16_t bits) {
  const uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace polyfuse

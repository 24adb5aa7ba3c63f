// 64-bit integer arithmetic that refuses to wrap. Sizes, coefficients, element counts
// and byte counts are multiplied in many places; a product that does not fit must be
// an error, never a silently wrong plan (X(i * 2^32 * 2^32) once became X(0 * i)).
#pragma once
#include <cstdint>
#include <string>

#include "polyir/Diagnostic.h"

namespace polyfuse {

// Thrown when a result does not fit; a UsageError, so it is reported as bad input.
class OverflowError : public UsageError {
 public:
  using UsageError::UsageError;
};

// The largest size, element count or statement point count polyfuse models: 2^40
// (a tensor of 4 TiB in float). Below it, every product the cost model forms fits.
constexpr int64_t kMaxExtent = int64_t(1) << 40;
// The most points one statement may have (a 16384^3 matmul has 2^42).
constexpr int64_t kMaxStatementPoints = int64_t(1) << 50;

inline int64_t checkedAdd(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw OverflowError(std::string("integer overflow: ") + what + " does not fit in 64 bits");
  return r;
}

inline int64_t checkedMul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw OverflowError(std::string("integer overflow: ") + what + " does not fit in 64 bits");
  return r;
}

}  // namespace polyfuse

// The reference interpreter: runs a program at concrete sizes in double precision.
// It is the oracle for every generated kernel.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "polyir/Float16.h"
#include "polyir/Program.h"

namespace polyfuse {

struct TensorData {
  std::vector<int64_t> shape;
  std::vector<double> values;  // row-major
};

struct Bindings {
  Sizes sizes;
  std::map<std::string, double> scalars;
  std::map<std::string, TensorData> tensors;  // inputs on entry; all tensors on exit
};

// Random inputs, uniform in [-1, 1], from a seed; reproducible across platforms.
// Scalar parameters not given in `scalars` are drawn uniform in [0.5, 1.5].
Bindings makeInputs(const Program& prog, const Sizes& sizes, uint64_t seed,
                    const std::map<std::string, double>& scalars = {});

// What the reference computes in (docs/design.md, "The reference"). `Program`: in the
// program's element type, every value rounded to it after each operation, as MLIR's
// lowering and a sequential loop nest compute (an f32 program in float, reductions
// accumulated in float in program order). `F64`: every value in double, no rounding but
// the inputs' own: the exact answer's stand-in, for error analysis.
enum class Precision { Program, F64 };

// The reads whose values a statement's products take rounded to TF32, as a tensor-core
// plan's operands are (`--numerics tf32`): statement id -> indices in its reads. Under
// Precision::Program the reference rounds them too, so that verification compares the
// generated code with the numerics it was planned for, and the error those numerics
// themselves add shows against float64 (docs/codegen.md, "TF32 in the reference").
using Tf32Reads = std::map<int, std::set<int>>;

// x rounded to TF32 as cvt.rna.tf32.f32 rounds it: 10 bits of mantissa, to nearest,
// ties away from zero; infinities and NaN as they are.
float tf32Rounded(float x);

// Runs every statement in program order; fills outputs and temporaries.
void interpret(const Program& prog, Bindings& b, Precision precision = Precision::Program, const Tf32Reads& tf32 = {});

// Order-independent summary used in CLI output and tests.

struct Checksum {
  double sum = 0, absSum = 0;
};
Checksum checksum(const TensorData& t);

// A deterministic stream of doubles in [0, 1), independent of the standard library.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t state_;
};

}  // namespace polyfuse

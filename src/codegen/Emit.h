// Printers: CUDA C and OpenCL C kernels from one kernel IR (they differ only in
// spelling), the CUDA host code with its standalone harness, and the C reference.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "codegen/KernelIR.h"
#include "fusion/KernelPlan.h"
#include "polyir/PolyProgram.h"
#include "polyir/Sized.h"

namespace polyfuse {

enum class Dialect { Cuda, OpenCL, C };  // C: the double-precision reference

struct GeneratedCode {
  std::vector<KernelIR> kernels;
  std::string kernelSource;  // kernels.cu or kernels.cl
};

// Lowers, verifies the schedule against every dependence, and prints the kernels.
GeneratedCode generate(const PolyProgram& pp, const Partition& p, Dialect d);

// harness.cu: allocation, launches in order, CUDA-event timing, GB/s, verification
// against the C reference. Includes kernels.cu and reference.h.
std::string emitCudaHarness(const Program& prog, const Partition& p, const GeneratedCode& code);
// reference.h: the program as plain C loops, in the program's precision; the reads in
// `tf32` rounded as a TF32 plan's tensor cores round them (tf32Operands).
std::string emitReference(const SizedProgram& at, const Tf32Reads& tf32 = {});
// reference_main.c: runs reference.h on the interpreter's inputs; prints output sums.
std::string emitReferenceMain(const SizedProgram& at);

// The C function reference.h defines.
std::string referenceName(const Program& prog);

// The element type the kernels compute in ("float" or "double").
std::string realType(const Program& prog);
// A tensor element's C type in a dialect (int64 is OpenCL's long, CUDA's long long).
std::string cTypeName(ElemType t, Dialect d);
// The C reference's expression for `v` rounded as a tensor of 16-bit float type `t` holds
// it (reference.h defines the rounding where the program has such a type).
std::string referenceRounding(ElemType t, const std::string& v);

// The largest normwise relative error against the reference that still verifies: every
// backend (OpenCL runner, CUDA harness, exec) checks against this one number. It follows
// from the longest reduction at these sizes (docs/design.md, "The reference"): 1e-4 for
// f32 (1e-10 for f64) up to 1,024 terms a value, growing as the square root beyond, the
// typical growth of rounding error when a parallel code sums in another order.
double verificationTolerance(const Program& prog, const Partition& p);

}  // namespace polyfuse

// Running a partition's generated code: OpenCL through the in-process runner, CUDA
// through the generated harness compiled with nvcc. Shared by `exec` and experiments.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "codegen/Emit.h"
#include "driver/Backend.h"
#include "fusion/CostModel.h"
#include "polyir/Interpreter.h"

namespace polyfuse {

struct ExecOutcome {
  Backend backend = Backend::OpenCL;
  std::string device;  // named as a report names it: implementation, device, units
  bool verified = false;
  double maxRelError = 0;                  // against the interpreter in the program's precision
  double tolerance = 0;                    // what it was held to
  double tf32Effect = -1;                  // RunResult::tf32Effect
  // Against the interpreter in float64 (no rounding but the inputs'): the plan's own
  // numerical error, what a study of fused against unfused numerics compares.
  double maxErrorF64 = 0;
  std::string worst;
  std::vector<std::string> kernelNames;
  std::vector<double> kernelMs;
  double totalMs = 0;                      // median over the repeats
  double totalMinMs = 0, totalMaxMs = 0;   // spread over the repeats
  double flushedBytes = 0;                 // written between repeats to evict the caches
  std::map<std::string, TensorData> outputs;  // as the backend computed them (when it hands them back)
};

// Refuses (UsageError, exit 2) to run a program whose tensors at these sizes would not
// fit in the memory available now: the interpreter holds every tensor in double, twice
// when it checks a backend, and the OpenCL runner adds the device buffers. Better a clear
// message at once than the OOM killer after minutes.
void checkMemoryFits(const Program& prog, const Sizes& sizes, Backend backend);

// What runs of several partitions of one program on the same inputs share, made once by
// the caller: validate runs hundreds, and the float64 interpreter alone takes seconds at
// a GPU's sizes.
struct SharedRun {
  const Bindings* exactF64 = nullptr;  // interpretF64(program, inputs), when computed already
  std::string cudaHarness;             // a folder that buildCudaHarnesses compiled this partition into
};

// The interpreter's float64 result on `inputs`: the yardstick of ExecOutcome::maxErrorF64.
Bindings interpretF64(const Program& prog, const Bindings& inputs);

// Runs the generated code (OpenCL or CUDA, not Ref). Throws std::runtime_error when
// the backend has no device here (no GPU for cuda).
// With `dumpDir`, the backend's outputs are also written there as NAME.npy.
ExecOutcome executePartition(const CostModel& cm, const Partition& p, Backend backend,
                             const Bindings& inputs, uint64_t seed, int repeat, const std::string& dumpDir = "",
                             const SharedRun& shared = {});

// Writes each partition's CUDA harness into this process's scratch folder (pN inside it
// for several) and compiles it, one nvcc a core: nvcc takes seconds a harness, and the
// runs that time them must stay one at a time. Returns the folders, in the partitions'
// order. Throws std::runtime_error without a GPU or nvcc, InternalError when nvcc fails.
std::vector<std::string> buildCudaHarnesses(const CostModel& cm, const std::vector<Partition>& partitions);

// Writes the generated sources of a partition into `dir` (kernels, reference, harness
// for cuda; kernels for opencl; plan.json); returns the paths.
std::vector<std::string> writeCode(const CostModel& cm, const Partition& p, const std::string& target,
                                   const std::string& dir);

}  // namespace polyfuse

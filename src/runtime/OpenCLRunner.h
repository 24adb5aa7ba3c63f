// Runs generated OpenCL C on the first OpenCL device (PoCL on a CPU, or a GPU) and
// compares every output with the reference interpreter.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "codegen/Emit.h"
#include "polyir/Interpreter.h"

namespace polyfuse {

struct RunResult {
  std::string device;                 // e.g. "PoCL 3.1+debian, pthread-skylake-avx512-AMD EPYC, 2 compute units"
  bool verified = false;
  double maxRelError = 0;
  // A plan with TF32 operands (tf32Operands): how far rounding them moves the reference's
  // outputs at these inputs (normwise, as maxRelError; reported, not tolerated); -1: no
  // such operands.
  double tf32Effect = -1;
  std::string worst;                  // output with the largest error
  std::vector<double> kernelMs;       // median per kernel over the repeats
  double totalMs = 0;                 // median wall time of one full run
  double totalMinMs = 0, totalMaxMs = 0;  // its spread over the repeats
  std::vector<double> runMs;          // every timed run, in order
  double flushedBytes = 0;            // written between runs to evict the caches
  std::map<std::string, TensorData> outputs;  // what the device computed, in double
};

// Normwise relative error: max |y - r| / max |r| (the infinity norm). An elementwise
// ratio is ill-conditioned for elements that cancel to near zero.
double maxRelativeError(const std::vector<double>& got, const std::vector<double>& ref);

// Pins PoCL's CPU threads to cores (POCL_AFFINITY=1) unless the environment says
// otherwise; called before the process's first OpenCL call. Unpinned, the threads of this
// 2-core machine migrate: one kernel measured 1.46-1.59 ms over five runs, pinned
// 0.81-0.84 ms (bench/RESULTS.md).
void pinCpuThreads();

// The first OpenCL device, named as a report should name it: the platform and its
// version, the device, its compute units, and whether PoCL's threads are pinned. Throws
// UsageError when there is none.
std::string openclDeviceDescription();

// Throws UsageError when no OpenCL device exists, InternalError when the build fails.
// One untimed warm-up run, then `repeat` timed runs; before each, the inputs are
// uploaded again and a scratch buffer is written so that no run finds the previous
// one's data in the caches (nvbench's L2 flush, on a CPU device).
// Launches follow the plan's `launches`; a kernel's time runs from the start of its
// first launch to the end of its last (a split reduction's combine included).
RunResult runOpenCL(const Program& prog, const Partition& p, const GeneratedCode& code, const Bindings& inputs,
                    int repeat, double tolerance);

}  // namespace polyfuse

// Device parameters of the cost model. Presets describe public datasheet figures;
// a YAML file describes any other device (see docs/cost-model.md).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace polyfuse {

struct Device {
  std::string name;
  double dramBytesPerSec = 0;     // HBM bandwidth
  double l2BytesPerSec = 0;       // L2 bandwidth for re-reads that hit
  double flopsPerSec = 0;         // FP32 non-tensor-core throughput
  // Dense TF32 tensor-core throughput: what a contraction under `--numerics tf32` runs at
  // (mma.sync); 0 for a device without tensor cores, whose contractions stay on the FMA units.
  double tensorFlopsPerSec = 0;
  // Dense FP16 / BF16 tensor-core throughput with f32 accumulation: contractions of
  // operands stored as halves (mma.sync m16n8k16); 0 where there are none.
  double halfTensorFlopsPerSec = 0;
  double launchUs = 0;            // per-kernel launch overhead
  int smCount = 0;
  int blocksToSaturate = 0;       // blocks in flight needed to reach full bandwidth
  double l2Bytes = 0;             // re-reads of tensors larger than this go to DRAM
  double onchipBytesPerBlock = 0; // shared memory a block may use for temporaries
  double onchipBytesPerSec = 0;   // L1 / shared memory operand bandwidth, all SMs (0: not modeled)
  int threadsPerBlock = 256;
  // CUDA architecture whose occupancy rules bound blocks per SM (sm_80, sm_90, ..); empty
  // for a device without them (an OpenCL CPU), where every kernel counts as fully occupied.
  std::string arch;
  // Little's law: an SM draws its share of DRAM bandwidth only with bandwidth x latency
  // bytes of loads in flight. DRAM latency under load, and the loop steps whose loads one
  // thread keeps in flight at once (the compiler's unrolling overlaps them): documented
  // assumptions until calibrated on a GPU.
  double dramLatencyNs = 600;
  int loadsInFlight = 2;
  // Starting a block costs each SM this long whatever the block does: a kernel of many
  // small blocks is bound by their number (2M blocks of 32 threads, 2 of them working,
  // took 1.27 ms on an H200 for 64 MiB). 0: not modeled.
  double blockNs = 0;
  // A block waits this long at each barrier it passes (KernelPlan::barriersPerBlock), and
  // this long at each combine across its threads (reductionsPerBlock), its barriers
  // included: on a CPU under PoCL a barrier splits the work-group's loop over its
  // work-items, and costs about a nanosecond a work-item. 0: not modeled (the GPU presets,
  // where the other resident blocks run meanwhile).
  double barrierNs = 0, reductionNs = 0;
  // Each point a statement computes costs a compute unit this long beyond its flops: the
  // work-item loop's indexing, scalar loads and stores. 0: not modeled (the GPU presets,
  // whose warps run such code beside the memory traffic); a CPU under PoCL, which runs
  // generated loops one work-item at a time, measures about a nanosecond.
  double pointNs = 0;
  // A math-library call (exp, log, tanh, ..) in flops at the device's FMA rate: a routine
  // of range reduction and polynomial, where the peak counts vector multiply-adds. 1 counts
  // it as one operation, as the GPU presets do (not measured on one yet); a CPU under PoCL
  // measures hundreds.
  double mathFlops = 1;
};

// What a device file or sweep that still sets the old occupancy threshold is told.
inline constexpr const char* kSaturatingOccupancyGone =
    "'saturating_occupancy' is gone: the model counts the bytes a kernel keeps in flight (Little's law); "
    "set 'dram_latency_ns' and 'loads_in_flight' instead (docs/cost-model.md, \"Time\")";

// "a100", "h100", "h200", or a path to a YAML file. Throws UsageError.
Device loadDevice(const std::string& nameOrPath);
// Whether `name` is one of the presets loadDevice knows without a file.
inline bool isDevicePreset(const std::string& name) { return name == "a100" || name == "h100" || name == "h200"; }
// Throws a UsageError naming the parameter, its allowed range and the value when `v`
// is not a value of parameter `k` (or `k` is not a parameter).
void checkDeviceParameter(const std::string& k, double v);
// The YAML keys of the numeric parameters (dram_gbps, launch_us, ...), in one table.
const std::vector<std::string>& deviceParameterKeys();
// Sets parameter `k`, in its key's unit, after checkDeviceParameter.
void setDeviceParameter(Device& d, const std::string& k, double v);
// Overrides parameters by their YAML keys (dram_gbps, launch_us, ...), each checked.
void applyDeviceOverrides(Device& d, const std::map<std::string, double>& values);

}  // namespace polyfuse

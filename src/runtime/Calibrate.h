// Measures a device's bandwidths, launch latency and arithmetic throughput, and
// writes them as a device YAML for the cost model: the model is a hypothesis, and
// where a device is at hand its measured parameters replace the presets.
#pragma once
#include <string>

#include "fusion/Device.h"

namespace polyfuse {

// A measured rate: the median over the repeats, with the slowest and fastest.
struct Spread {
  double median = 0, min = 0, max = 0;
  int runs = 0;
};

struct Calibration {
  std::string deviceName;
  double dramGBps = 0, l2GBps = 0, tflops = 0, launchUs = 0;  // the medians
  double blockNs = 0;  // a block's start on its compute unit: an empty kernel of many blocks, less a launch
  double mathFlops = 0;  // flops (at the measured rate) an exp costs; 0: not measured
  // A barrier and a block reduction (its barriers included), per work-group; 0: not measured.
  double barrierNs = 0, reductionNs = 0;
  double pointNs = 0;  // a statement point's indexing, loads and store on a compute unit; 0: not measured
  Spread dram, l2, flops, launch, block, exps, barrier, reduction, point;  // GB/s, GB/s, TFLOP/s, us, ns, .., ns, ns, ns
  size_t dramWorkingSet = 0, l2WorkingSet = 0;                  // bytes each copy touches
  int computeUnits = 0, threadsPerBlock = 256;
  double cacheMB = 0, localKB = 0;
  std::string yaml(const std::string& name) const;
};

// Runs the measurements on the first OpenCL device. Throws UsageError without one.
Calibration calibrateOpenCL();
// Compiles and runs a small CUDA program with nvcc. Throws std::runtime_error without a GPU.
Calibration calibrateCuda();

}  // namespace polyfuse

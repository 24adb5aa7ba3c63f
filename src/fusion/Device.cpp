#include "fusion/Device.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "fusion/Occupancy.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

static Device preset(const std::string& n) {
  Device d;
  d.name = n;
  d.threadsPerBlock = 256;
  if (n == "a100") {  // A100 SXM4 80GB
    d.dramBytesPerSec = 2.039e12; d.l2BytesPerSec = 5.0e12; d.flopsPerSec = 19.5e12;
    d.tensorFlopsPerSec = 156e12;  // TF32 dense
    d.halfTensorFlopsPerSec = 312e12;  // FP16 / BF16 dense, f32 accumulation
    d.smCount = 108; d.l2Bytes = 40e6; d.onchipBytesPerBlock = 163 * 1024.0; d.launchUs = 3.0; d.arch = "sm_80";
    d.onchipBytesPerSec = 19.5e12;  // 128 B a clock an SM at 1.41 GHz
  } else if (n == "h100") {  // H100 SXM5 80GB
    d.dramBytesPerSec = 3.35e12; d.l2BytesPerSec = 7.0e12; d.flopsPerSec = 67e12;
    d.tensorFlopsPerSec = 494.7e12;  // TF32 dense
    d.halfTensorFlopsPerSec = 989.4e12;  // FP16 / BF16 dense, f32 accumulation
    d.smCount = 132; d.l2Bytes = 50e6; d.onchipBytesPerBlock = 227 * 1024.0; d.launchUs = 2.5; d.arch = "sm_90";
    d.onchipBytesPerSec = 33e12;  // 128 B a clock an SM at 1.98 GHz
  } else if (n == "h200") {  // H200 SXM 141GB
    d.dramBytesPerSec = 4.8e12; d.l2BytesPerSec = 7.0e12; d.flopsPerSec = 67e12;
    d.tensorFlopsPerSec = 494.7e12;  // TF32 dense: the H100's tensor cores
    d.halfTensorFlopsPerSec = 989.4e12;
    d.smCount = 132; d.l2Bytes = 50e6; d.onchipBytesPerBlock = 227 * 1024.0; d.launchUs = 2.5; d.arch = "sm_90";
    d.onchipBytesPerSec = 33e12;
  } else {
    throw UsageError("unknown device '" + n + "' (presets: a100, h100, h200; or a YAML file)");
  }
  // Measured on an H200 (bench/RESULTS.md, "H200"): 80 ns a block an SM, for blocks of 32
  // threads; taken for the other presets' block schedulers too until measured there.
  d.blockNs = 80;
  // Two resident blocks per SM hide enough latency to saturate HBM (XLA's model
  // notes about 57 active SMs for an H100; two per SM is the conservative side).
  d.blocksToSaturate = 2 * d.smCount;
  return d;
}

namespace {

// A cost-model parameter as device files, --device overrides, sweeps and weights spell
// it: its key, its range (the bounds keep every modeled time a finite number the LP
// solver accepts: CLP asserts on coefficients of 1e25, and 1e-30 GB/s is not a device),
// and where it lands in Device, scaled from the key's unit. The one list of them.
struct DeviceParameter {
  const char* key;
  double lo, hi;
  bool whole;      // a count
  bool zeroOff;    // 0 is allowed below lo: "not modeled"
  const char* unit;
  void (*set)(Device&, double);
};

const DeviceParameter kParameters[] = {
    {"dram_gbps", 1e-3, 1e9, false, false, " (GB/s)", [](Device& d, double v) { d.dramBytesPerSec = v * 1e9; }},
    {"l2_gbps", 1e-3, 1e9, false, false, " (GB/s)", [](Device& d, double v) { d.l2BytesPerSec = v * 1e9; }},
    {"tflops", 1e-6, 1e6, false, false, " (TFLOP/s)", [](Device& d, double v) { d.flopsPerSec = v * 1e12; }},
    {"tensor_tflops", 1e-6, 1e6, false, true, " (TFLOP/s, TF32; 0: no tensor cores, f16 ones too unless tensor_f16_tflops says)",
     [](Device& d, double v) { d.tensorFlopsPerSec = v * 1e12; }},
    {"tensor_f16_tflops", 1e-6, 1e6, false, true, " (TFLOP/s, f16 and bf16 operands; 0: none)",
     [](Device& d, double v) { d.halfTensorFlopsPerSec = v * 1e12; }},
    {"launch_us", 0, 1e6, false, false, " (microseconds)", [](Device& d, double v) { d.launchUs = v; }},
    {"sm_count", 1, 1e6, true, false, "", [](Device& d, double v) { d.smCount = int(v); }},
    {"blocks_to_saturate", 1, 1e9, true, false, "", [](Device& d, double v) { d.blocksToSaturate = int(v); }},
    {"l2_mb", 0, 1e6, false, false, " (MB)", [](Device& d, double v) { d.l2Bytes = v * 1e6; }},
    {"onchip_kb_per_block", 0, 1e6, false, false, " (KiB)", [](Device& d, double v) { d.onchipBytesPerBlock = v * 1024; }},
    {"onchip_gbps", 1e-3, 1e9, false, true, " (GB/s; 0: not modeled)", [](Device& d, double v) { d.onchipBytesPerSec = v * 1e9; }},
    {"threads_per_block", 1, 1024, true, false, "", [](Device& d, double v) { d.threadsPerBlock = int(v); }},
    {"dram_latency_ns", 1e-3, 1e6, false, false, " (nanoseconds)", [](Device& d, double v) { d.dramLatencyNs = v; }},
    {"loads_in_flight", 1, 64, true, false, "", [](Device& d, double v) { d.loadsInFlight = int(v); }},
    {"block_ns", 0, 1e9, false, false, " (nanoseconds)", [](Device& d, double v) { d.blockNs = v; }},
    {"barrier_ns", 0, 1e9, false, false, " (nanoseconds)", [](Device& d, double v) { d.barrierNs = v; }},
    {"reduction_ns", 0, 1e9, false, false, " (nanoseconds)", [](Device& d, double v) { d.reductionNs = v; }},
    {"point_ns", 0, 1e9, false, false, " (nanoseconds)", [](Device& d, double v) { d.pointNs = v; }},
    {"math_flops", 1, 1e6, false, false, " (flops a math-library call)", [](Device& d, double v) { d.mathFlops = v; }},
};

const DeviceParameter* parameter(const std::string& k) {
  for (const DeviceParameter& p : kParameters)
    if (k == p.key) return &p;
  if (k == "saturating_occupancy") throw UsageError(kSaturatingOccupancyGone);
  throw UsageError("unknown device parameter '" + k + "'");
}

}  // namespace

const std::vector<std::string>& deviceParameterKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const DeviceParameter& p : kParameters) k.push_back(p.key);
    return k;
  }();
  return keys;
}

void checkDeviceParameter(const std::string& k, double v) {
  const DeviceParameter& p = *parameter(k);
  if (p.zeroOff && v == 0) return;
  if (!(v >= p.lo && v <= p.hi) || (p.whole && v != std::floor(v))) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "'%s' must be %s from %g to %g%s, not %.17g", k.c_str(), p.whole ? "a whole number" : "a number",
                  p.lo, p.hi, p.unit, v);
    throw UsageError(buf);
  }
}

void setDeviceParameter(Device& d, const std::string& k, double v) {
  checkDeviceParameter(k, v);
  parameter(k)->set(d, v);
}

void applyDeviceOverrides(Device& d, const std::map<std::string, double>& values) {
  for (auto& [k, v] : values) setDeviceParameter(d, k, v);
}

Device loadDevice(const std::string& nameOrPath) {
  if (isDevicePreset(nameOrPath)) return preset(nameOrPath);
  if (!std::filesystem::is_regular_file(nameOrPath))
    throw UsageError("unknown device '" + nameOrPath + "' (presets: a100, h100, h200; or a YAML file)");
  YAML::Node y;
  try {
    y = YAML::LoadFile(nameOrPath);
  } catch (const YAML::Exception& e) {
    throw UsageError(nameOrPath + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": " + e.msg);
  }
  if (!y.IsMap()) throw UsageError(nameOrPath + ": a device file is a mapping of keys to numbers");
  auto at = [&](const YAML::Node& n) {
    return nameOrPath + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1) + ": ";
  };
  auto text = [&](const YAML::Node& n, const std::string& what) {
    if (!n.IsScalar()) throw UsageError(at(n) + what + " must be a name");
    return n.as<std::string>();
  };
  // A number within the parameter's range (checkDeviceParameter), located in the file.
  auto number = [&](const YAML::Node& n, const std::string& k) {
    double v = 0;
    try {
      if (!n.IsScalar()) throw YAML::Exception(n.Mark(), "not a scalar");
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      throw UsageError(at(n) + "'" + k + "' must be a number");
    }
    try {
      checkDeviceParameter(k, v);
    } catch (const UsageError& e) {
      throw UsageError(at(n) + e.what());
    }
    return v;
  };
  Device d;
  d.name = std::filesystem::path(nameOrPath).stem().string();
  if (y["base"]) d = preset(text(y["base"], "base"));
  for (auto it = y.begin(); it != y.end(); ++it) {
    std::string k = text(it->first, "a key");
    const YAML::Node v = it->second;  // a handle: it->second belongs to a temporary
    if (k == "name") {
      d.name = text(v, "name");
    } else if (k == "base") {
    } else if (k == "arch") {
      d.arch = text(v, "arch");
      if (!cudaArchKnown(d.arch)) throw UsageError(at(v) + "no occupancy rules for '" + d.arch + "' (sm_80, sm_86, sm_89, sm_90)");
    } else {
      try {
        parameter(k);
      } catch (const UsageError& e) {
        throw UsageError(at(it->first) + (k == "saturating_occupancy" ? e.what() : "unknown key '" + k + "'"));
      }
      setDeviceParameter(d, k, number(v, k));
    }
  }
  // A file that turns the tensor cores off (tensor_tflops: 0, as files written before the
  // f16 rate was a key of its own do) turns off both rates, unless it gives the f16 one.
  if (y["tensor_tflops"] && d.tensorFlopsPerSec == 0 && !y["tensor_f16_tflops"]) d.halfTensorFlopsPerSec = 0;
  if (d.blocksToSaturate <= 0) d.blocksToSaturate = 2 * d.smCount;
  if (d.dramBytesPerSec <= 0 || d.l2BytesPerSec <= 0 || d.flopsPerSec <= 0 || d.smCount <= 0 || d.threadsPerBlock <= 0)
    throw UsageError(nameOrPath + ": dram_gbps, l2_gbps, tflops, sm_count and threads_per_block must be positive");
  return d;
}

}  // namespace polyfuse

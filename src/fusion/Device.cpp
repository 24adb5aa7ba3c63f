#include "fusion/Device.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "fusion/Occupancy.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

static Device preset(const std::string& n) {
  Device d;
  d.name = n;
  d.threadsPerBlock = 256;
  if (n == "a100") {  // A100 SXM4 80GB
    d.dramBytesPerSec = 2.039e12; d.l2BytesPerSec = 5.0e12; d.flopsPerSec = 19.5e12;
    d.smCount = 108; d.l2Bytes = 40e6; d.onchipBytesPerBlock = 163 * 1024.0; d.launchUs = 3.0; d.arch = "sm_80";
    d.onchipBytesPerSec = 19.5e12;  // 128 B a clock an SM at 1.41 GHz
  } else if (n == "h100") {  // H100 SXM5 80GB
    d.dramBytesPerSec = 3.35e12; d.l2BytesPerSec = 7.0e12; d.flopsPerSec = 67e12;
    d.smCount = 132; d.l2Bytes = 50e6; d.onchipBytesPerBlock = 227 * 1024.0; d.launchUs = 2.5; d.arch = "sm_90";
    d.onchipBytesPerSec = 33e12;  // 128 B a clock an SM at 1.98 GHz
  } else if (n == "h200") {  // H200 SXM 141GB
    d.dramBytesPerSec = 4.8e12; d.l2BytesPerSec = 7.0e12; d.flopsPerSec = 67e12;
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

// The one check of a device parameter's value, for device files, --device, sweeps and
// weights alike. The bounds keep every modeled time a finite number the LP solver
// accepts (CLP asserts on coefficients of 1e25): a rate of 1e-30 GB/s is not a device.
void checkDeviceParameter(const std::string& k, double v) {
  auto range = [&](double lo, double hi, bool whole, const char* unit) {
    if (!(v >= lo && v <= hi) || (whole && v != std::floor(v))) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "'%s' must be %s from %g to %g%s, not %.17g", k.c_str(), whole ? "a whole number" : "a number",
                    lo, hi, unit, v);
      throw UsageError(buf);
    }
  };
  if (k == "dram_gbps" || k == "l2_gbps") range(1e-3, 1e9, false, " (GB/s)");
  else if (k == "onchip_gbps") { if (v != 0) range(1e-3, 1e9, false, " (GB/s; 0: not modeled)"); }
  else if (k == "tflops") range(1e-6, 1e6, false, " (TFLOP/s)");
  else if (k == "launch_us") range(0, 1e6, false, " (microseconds)");
  else if (k == "sm_count") range(1, 1e6, true, "");
  else if (k == "blocks_to_saturate") range(1, 1e9, true, "");
  else if (k == "threads_per_block") range(1, 1024, true, "");
  else if (k == "l2_mb") range(0, 1e6, false, " (MB)");
  else if (k == "onchip_kb_per_block") range(0, 1e6, false, " (KiB)");
  else if (k == "dram_latency_ns") { range(1e-3, 1e6, false, " (nanoseconds)"); }
  else if (k == "loads_in_flight") range(1, 64, true, "");
  else if (k == "block_ns") range(0, 1e9, false, " (nanoseconds)");
  else if (k == "math_flops") range(1, 1e6, false, " (flops a math-library call)");
  else if (k == "saturating_occupancy") throw UsageError(kSaturatingOccupancyGone);
  else throw UsageError("unknown device parameter '" + k + "'");
}

void applyDeviceOverrides(Device& d, const std::map<std::string, double>& values) {
  for (auto& [k, v] : values) {
    checkDeviceParameter(k, v);
    if (k == "dram_gbps") d.dramBytesPerSec = v * 1e9;
    else if (k == "l2_gbps") d.l2BytesPerSec = v * 1e9;
    else if (k == "tflops") d.flopsPerSec = v * 1e12;
    else if (k == "launch_us") d.launchUs = v;
    else if (k == "sm_count") d.smCount = int(v);
    else if (k == "blocks_to_saturate") d.blocksToSaturate = int(v);
    else if (k == "l2_mb") d.l2Bytes = v * 1e6;
    else if (k == "onchip_kb_per_block") d.onchipBytesPerBlock = v * 1024;
    else if (k == "onchip_gbps") d.onchipBytesPerSec = v * 1e9;
    else if (k == "threads_per_block") d.threadsPerBlock = int(v);
    else if (k == "dram_latency_ns") d.dramLatencyNs = v;
    else if (k == "loads_in_flight") d.loadsInFlight = int(v);
    else if (k == "block_ns") d.blockNs = v;
    else if (k == "math_flops") d.mathFlops = v;
  }
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
  auto count = [&](const YAML::Node& n, const std::string& k) { return int(number(n, k)); };
  Device d;
  d.name = std::filesystem::path(nameOrPath).stem().string();
  if (y["base"]) d = preset(text(y["base"], "base"));
  static const std::set<std::string> keys = {"name", "base", "dram_gbps", "l2_gbps", "tflops", "launch_us", "sm_count",
                                             "blocks_to_saturate", "l2_mb", "onchip_kb_per_block", "threads_per_block",
                                             "onchip_gbps", "arch", "dram_latency_ns", "loads_in_flight", "block_ns",
                                             "math_flops", "saturating_occupancy"};
  for (auto it = y.begin(); it != y.end(); ++it) {
    std::string k = text(it->first, "a key");
    if (!keys.count(k)) throw UsageError(at(it->first) + "unknown key '" + k + "'");
    const YAML::Node v = it->second;  // a handle: it->second belongs to a temporary
    if (k == "name") d.name = text(v, "name");
    else if (k == "dram_gbps") d.dramBytesPerSec = number(v, k) * 1e9;
    else if (k == "l2_gbps") d.l2BytesPerSec = number(v, k) * 1e9;
    else if (k == "tflops") d.flopsPerSec = number(v, k) * 1e12;
    else if (k == "launch_us") d.launchUs = number(v, k);
    else if (k == "sm_count") d.smCount = count(v, k);
    else if (k == "blocks_to_saturate") d.blocksToSaturate = count(v, k);
    else if (k == "l2_mb") d.l2Bytes = number(v, k) * 1e6;
    else if (k == "onchip_kb_per_block") d.onchipBytesPerBlock = number(v, k) * 1024;
    else if (k == "onchip_gbps") d.onchipBytesPerSec = number(v, k) * 1e9;
    else if (k == "threads_per_block") d.threadsPerBlock = count(v, k);
    else if (k == "arch") {
      d.arch = text(v, "arch");
      if (!cudaArchKnown(d.arch)) throw UsageError(at(v) + "no occupancy rules for '" + d.arch + "' (sm_80, sm_86, sm_89, sm_90)");
    } else if (k == "dram_latency_ns") {
      d.dramLatencyNs = number(v, k);
    } else if (k == "loads_in_flight") {
      d.loadsInFlight = count(v, k);
    } else if (k == "block_ns") {
      d.blockNs = number(v, k);
    } else if (k == "math_flops") {
      d.mathFlops = number(v, k);
    } else if (k == "saturating_occupancy") {
      throw UsageError(at(it->first) + kSaturatingOccupancyGone);
    }
  }
  if (d.blocksToSaturate <= 0) d.blocksToSaturate = 2 * d.smCount;
  if (d.dramBytesPerSec <= 0 || d.l2BytesPerSec <= 0 || d.flopsPerSec <= 0 || d.smCount <= 0 || d.threadsPerBlock <= 0)
    throw UsageError(nameOrPath + ": dram_gbps, l2_gbps, tflops, sm_count and threads_per_block must be positive");
  return d;
}

}  // namespace polyfuse

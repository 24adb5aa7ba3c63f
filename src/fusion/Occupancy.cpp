#include "fusion/Occupancy.h"

#include <algorithm>
#include <map>

#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

struct SmLimits {
  int maxThreads, maxBlocks;
  int registers;           // 32-bit registers per SM
  int64_t sharedMemory;    // bytes per SM usable by blocks
  int64_t reservedShared;  // bytes the runtime reserves per block
};

// CUDA C Programming Guide, "Technical Specifications per Compute Capability".
const std::map<std::string, SmLimits> kLimits = {
    {"sm_80", {2048, 32, 65536, 167936, 1024}},
    {"sm_86", {1536, 16, 65536, 102400, 1024}},
    {"sm_89", {1536, 24, 65536, 102400, 1024}},
    {"sm_90", {2048, 32, 65536, 233472, 1024}},
};
constexpr int kRegisterUnit = 256;      // registers are allocated per warp in units of 256
constexpr int64_t kSharedUnit = 128;    // shared memory is allocated in units of 128 bytes

int64_t roundUp(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

}  // namespace

bool cudaArchKnown(const std::string& arch) { return kLimits.count(arch) > 0; }

Occupancy cudaOccupancy(const std::string& arch, int threadsPerBlock, int registersPerThread, int64_t smemBytes) {
  auto it = kLimits.find(arch);
  if (it == kLimits.end()) throw UsageError("no occupancy rules for '" + arch + "' (sm_80, sm_86, sm_89, sm_90)");
  const SmLimits& l = it->second;
  Occupancy o;
  o.maxWarpsPerSM = l.maxThreads / 32;
  const int warps = std::max(1, (threadsPerBlock + 31) / 32);
  struct Limit { int64_t blocks; const char* name; };
  const int64_t regsPerWarp = roundUp(int64_t(std::max(1, registersPerThread)) * 32, kRegisterUnit);
  Limit limits[] = {
      {l.maxThreads / (warps * 32), "threads"},
      {(l.registers / regsPerWarp) / warps, "registers"},
      {l.sharedMemory / (roundUp(smemBytes, kSharedUnit) + l.reservedShared), "shared memory"},
      {l.maxBlocks, "blocks"},
  };
  const Limit* least = &limits[0];
  for (const Limit& x : limits)
    if (x.blocks < least->blocks) least = &x;
  o.blocksPerSM = int(least->blocks);
  o.limiter = least->name;
  o.warpsPerSM = o.blocksPerSM * warps;
  o.fraction = double(o.warpsPerSM) / o.maxWarpsPerSM;
  return o;
}

}  // namespace polyfuse

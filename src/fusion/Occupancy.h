// CUDA's occupancy rules: how many blocks of a compiled kernel fit on one SM, from its
// threads, registers and shared memory, per architecture. The cost model applies it with
// an estimate of the registers; `inspect` with ptxas's count. The figures follow NVIDIA's
// occupancy calculator.
#pragma once
#include <cstdint>
#include <string>

namespace polyfuse {

struct Occupancy {
  int blocksPerSM = 0;
  int warpsPerSM = 0, maxWarpsPerSM = 0;
  double fraction = 0;  // warpsPerSM / maxWarpsPerSM
  std::string limiter;  // "threads", "registers", "shared memory" or "blocks"
};

// `arch`: sm_80, sm_86, sm_89 or sm_90 (others: UsageError). `smemBytes`: static plus
// dynamic shared memory per block.
bool cudaArchKnown(const std::string& arch);
Occupancy cudaOccupancy(const std::string& arch, int threadsPerBlock, int registersPerThread, int64_t smemBytes);

}  // namespace polyfuse

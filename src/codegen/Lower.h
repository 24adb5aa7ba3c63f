// KernelPlans to kernel IR: isl's AST generator builds each statement's in-block loop
// nest (bounds and guards for sizes that do not divide evenly), then the plan's
// thread mapping decides how threads share it.
#pragma once
#include <vector>

#include "codegen/KernelIR.h"
#include "fusion/CostModel.h"

namespace polyfuse {

std::vector<KernelIR> lowerPartition(const CostModel& cm, const Partition& p);

// Tensors that live in global memory in this partition (inputs, outputs, and
// temporaries that cross kernels or are spilled): the host allocates them.
std::vector<int> globalTensors(const CostModel& cm, const Partition& p);

}  // namespace polyfuse

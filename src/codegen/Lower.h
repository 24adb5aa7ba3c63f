// The plan to kernel IR: isl's AST generator prints each statement's in-block loop
// nest (bounds and guards for sizes that do not divide evenly) from the plan's
// verified schedule tree, and the plan's statement modes say how threads share it.
#pragma once
#include <vector>

#include "codegen/KernelIR.h"
#include "codegen/Schedule.h"
#include "polyir/PolyProgram.h"

namespace polyfuse {

std::vector<KernelIR> lowerPartition(const PolyProgram& pp, const SizedProgram& at, const Partition& p,
                                     const PlanSchedule& sched);

// Tensors that live in global memory in this partition (inputs, outputs, and
// temporaries that cross kernels or are spilled): the host allocates them.
std::vector<int> globalTensors(const Program& prog, const Partition& p);

// The C function of kernel K<id>, and of its split reduction's combine.
std::string kernelFunction(const Program& prog, int id);
std::string combineFunction(const Program& prog, int id);

}  // namespace polyfuse

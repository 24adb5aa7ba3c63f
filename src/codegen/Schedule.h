// A partition's KernelPlans as one isl schedule tree, and its verification against
// every dependence of the program before any code is printed.
#pragma once
#include <string>

#include "fusion/CostModel.h"

namespace polyfuse {

// A sequence of kernels; each kernel is a mark "kernel K<id>" over the grid band
// (mark "grid"), then a sequence of its statements, each with its in-block band
// marked "thread" (parallel dims) or "reduction".
isl::schedule buildSchedule(const CostModel& cm, const Partition& p);

// Throws InternalError naming the first dependence the schedule violates: a source
// not scheduled before its sink, or a dependence inside a kernel that crosses grid
// points (blocks run in parallel).
void verifySchedule(const CostModel& cm, const Partition& p, const isl::schedule& s);

}  // namespace polyfuse

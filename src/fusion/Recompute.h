// Recomputation made explicit. The search may put an elementwise statement in several
// kernels (Partition, KernelPlan::recomputed); code generation and the verified
// schedule tree need every instance that runs to be a statement instance of its own.
// This rewrites the program so that each kernel's copy is a new statement writing a new
// temporary that only that kernel reads, and re-plans the same kernels on it: the
// rewritten plan is an ordinary partition (each statement in one kernel), its modeled
// cost equal to the original's, and isl checks it like any other.
#pragma once
#include <memory>

#include "fusion/CostModel.h"

namespace polyfuse {

struct RecomputedProgram {
  std::unique_ptr<Program> program;
  std::unique_ptr<PolyProgram> poly;
  std::unique_ptr<FusionGraph> graph;
  std::unique_ptr<CostModel> cm;
  Partition plan;  // the same kernels, in the same order, over `program`
};

// Null when no kernel recomputes anything (the plan runs as it is). Throws
// InternalError if the rewritten plan does not cost what the original does.
std::unique_ptr<RecomputedProgram> makeCopiesExplicit(const CostModel& cm, const Partition& p);

}  // namespace polyfuse

// Where a kernel's threads wait for each other. Decided with the rest of the plan, so
// that the cost model prices the barriers codegen emits and codegen places no barrier
// the plan does not state (docs/codegen.md, "Barriers").
#pragma once
#include "fusion/KernelPlan.h"
#include "polyir/Sized.h"

namespace polyfuse {

// Fills kp.barrierAfter, kp.barriersPerBlock and kp.reductionsPerBlock from the plan's
// members, modes, thread mapping and on-chip storage.
void placeBarriers(const Program& prog, const SizedProgram& at, KernelPlan& kp);

}  // namespace polyfuse

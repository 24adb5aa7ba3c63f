// Where a kernel's threads wait for each other. Decided with the rest of the plan, so
// that the cost model prices the barriers codegen emits and codegen places no barrier
// the plan does not state (docs/codegen.md, "Barriers").
#pragma once
#include <functional>

#include "fusion/KernelPlan.h"
#include "polyir/Sized.h"

namespace polyfuse {

// Fills kp.barrierAfter, kp.barriersPerBlock and kp.reductionsPerBlock from the plan's
// members, modes, thread mapping and on-chip storage.
void placeBarriers(const Program& prog, const SizedProgram& at, KernelPlan& kp);

// The analysis behind both placing the barriers (on the plan) and checking them (on the
// AST isl built, codegen/Lower.cpp): walks the members in order, and before each asks
// `barrierBefore(m, needed)` whether a barrier stands there, `needed` when m touches what
// another thread wrote since the last barrier (or overwrites what another thread read):
// `sameThread(a, b, t)` says whether members a and b touch tensor t only at the point each
// thread owns, `guardedSync(m)` whether member m's own barriers (a block reduction's, a
// contraction's) sit in a branch only some blocks take, which a barrier must close.
struct BarrierQuestions {
  std::function<bool(size_t a, size_t b, int tensor)> sameThread;
  std::function<bool(size_t m)> guardedSync;
  std::function<bool(size_t m, bool needed)> barrierBefore;
};
void walkBarriers(const Program& prog, const KernelPlan& kp, const BarrierQuestions& q);

// Whether every access of statement s to tensor t's storage (the tensors sharing it too)
// is the identity of s's parallel point: half of both sameThread questions.
bool accessesOwnPoint(const KernelPlan& kp, const Statement& s, int t);

}  // namespace polyfuse

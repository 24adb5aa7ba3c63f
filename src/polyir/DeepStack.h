// Every pass over an expression recurses once per level, and the front ends accept
// expressions up to kMaxExprHeight levels (a flat sum of 1,000 terms is 1,000 deep).
// Code generation keeps several frames a level; under AddressSanitizer they are large
// enough that 8 MB, the usual main-thread stack, runs out. The entry points therefore
// do their work on a thread whose stack holds the deepest accepted expression.
#pragma once

#include <cstddef>
#include <functional>

namespace polyfuse {

// Virtual size only: pages are committed as the recursion touches them.
constexpr size_t kDeepStackBytes = size_t(512) << 20;

// Runs `work` on a thread with a stack of kDeepStackBytes and returns its result; an
// exception it throws is rethrown here. Where no such thread can be made, it runs here.
int runOnDeepStack(const std::function<int()>& work);

}  // namespace polyfuse

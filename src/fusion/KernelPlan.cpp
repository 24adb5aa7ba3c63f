#include "fusion/KernelPlan.h"

#include <algorithm>

namespace polyfuse {

const char* stmtModeName(StmtMode m) {
  switch (m) {
    case StmtMode::Pointwise: return "pointwise";
    case StmtMode::SerialReduce: return "serial-reduce";
    case StmtMode::BlockReduce: return "block-reduce";
    case StmtMode::SplitReduce: return "split-reduce";
  }
  return "?";
}

int64_t OnChipArray::elements() const {
  int64_t n = 1;
  for (int64_t e : extent) n *= e;
  return n;
}

bool KernelPlan::keepsOnChip(int tensor) const {
  return std::any_of(onChip.begin(), onChip.end(), [&](const OnChipArray& a) { return a.tensor == tensor; });
}

bool KernelPlan::usesBlockReduce() const {
  return std::any_of(modes.begin(), modes.end(),
                     [](StmtMode m) { return m == StmtMode::BlockReduce || m == StmtMode::SplitReduce; });
}

}  // namespace polyfuse

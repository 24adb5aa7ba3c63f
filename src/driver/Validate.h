// Is the model right? Every legal partition (or the K best) run on a device, verified
// against the interpreter, and its measured time set against the modeled one.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "driver/Execute.h"

namespace polyfuse {

struct ValidatedPartition {
  std::vector<std::vector<int>> kernels;  // statement ids per kernel, in launch order
  std::vector<std::vector<int>> recomputed;  // per kernel: KernelPlan::recomputed
  double modeledUs = 0;
  ExecOutcome run;  // measured and verified; outputs dropped
};

struct Validation {
  std::vector<ValidatedPartition> partitions;  // by modeled time, the model's pick first
  std::string source;                          // which partitions, in words
  std::string device;                          // where they ran
  double kendallTau = 0, spearmanRho = 0, regret = 1;
  bool allVerified = true;
};

// `topK` > 0: the K best partitions by the exact search; otherwise every legal partition
// (UsageError when there are more than `kMaxValidated`).
constexpr size_t kMaxValidated = 200;
// `timeLimitSeconds` > 0 stops starting partitions once it has passed (those run are
// ranked); `progress`, when given, gets a line per partition as it finishes.
Validation validatePartitions(const CostModel& cm, Backend backend, const Bindings& inputs, int repeat, int topK,
                              bool recompute = true, double timeLimitSeconds = 0, std::ostream* progress = nullptr);

// A partition's kernels as text: "{S0 S1} {S1' S2}".
std::string kernelsText(const std::vector<std::vector<int>>& kernels, const std::vector<std::vector<int>>& recomputed);

}  // namespace polyfuse

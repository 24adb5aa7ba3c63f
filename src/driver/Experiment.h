// The experiment runner: the sweep's points run in forked workers (isolation: a point
// that crashes is recorded, not fatal), each written atomically; a second run resumes.
#pragma once
#include <string>

namespace polyfuse {

struct ExperimentOptions {
  std::string config, out;
  int jobs = 1;
  int shardIndex = 0, shardCount = 1;
  bool mergeOnly = false;
  bool force = false;  // take an output folder another configuration wrote
};

// Exit status: 0 when every executed point verified, 1 otherwise; UsageError on bad input.
int runExperiment(const ExperimentOptions& opt);

}  // namespace polyfuse

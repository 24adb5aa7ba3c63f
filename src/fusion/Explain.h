// Why each dependence edge and each sibling pair is fused or not.
#pragma once
#include <string>
#include <vector>

#include "fusion/Search.h"

namespace polyfuse {

struct Decision {
  std::string kind;       // "dependence" or "sibling"
  int a = 0, b = 0;       // statements
  std::string tensors;    // the tensors that connect them
  bool fused = false;
  std::string verdict;    // fused | illegal | not-convex | over-capacity | costlier | rule
  std::string reason;     // one sentence
  double fusedUs = -1, chosenUs = -1;  // modeled time with the pair fused (best such plan) and as chosen
};

// `opt` is the search that produced `chosen`; alternatives are found with ilp.
std::vector<Decision> explain(const CostModel& cm, const Partition& chosen, const SearchOptions& opt);

}  // namespace polyfuse

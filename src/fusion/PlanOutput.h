// Views of a partition: the readable table, the JSON object of the CLI contract,
// and the Graphviz drawing with kernels as clusters.
#pragma once
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "fusion/Explain.h"

namespace polyfuse {

std::string gridText(const Program& prog, const KernelPlan& k);  // "[i, j]"
std::string tileText(const KernelPlan& k);                        // "32x32"
nlohmann::ordered_json partitionJson(const CostModel& cm, const Partition& p);
nlohmann::ordered_json decisionsJson(const Program& prog, const std::vector<Decision>& ds);
void printPartitionTable(std::ostream& os, const CostModel& cm, const Partition& p, bool timing);
void printDecisions(std::ostream& os, const std::vector<Decision>& ds);
void writeDot(std::ostream& os, const CostModel& cm, const Partition& p);

}  // namespace polyfuse

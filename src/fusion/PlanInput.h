// A plan read back (`codegen --plan plan.json`). `fuse --json` writes, per kernel, the
// decisions the cost model made (its statements, what it recomputes, each member's grid
// dimensions and thread dimension, the tile, the split's chunks, whether its sums
// stream); everything else in a kernel's plan (blocks, threads, modes, vector widths,
// on-chip arrays, contraction tiles, costs) follows from them. Reading takes the
// decisions as given and prices them again, as replan does, so a plan written by
// `fuse` generates exactly the code `codegen` would, and a plan written or edited by
// hand generates the kernels it asks for, when they are legal: each statement computed
// by one kernel, kernels in an order the dependences allow, a grid assignment the
// dependences keep (the ones CostModel::gridCandidates lists). Anything else is a
// UsageError naming the plan's file and the kernel at fault.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "fusion/CostModel.h"

namespace polyfuse {

// What a plan was made for, read before the cost model that prices it is built.
struct PlanHeader {
  Strategy strategy = Strategy::Ilp;
  Numerics numerics = Numerics::Default;
  std::string device;
  Sizes sizes;
  bool streams = false;  // some kernel streams a sum beside its maximum
  int maxStages = CostModel::kDefaultContractionStages;  // the most stages of its tiled contractions' (the model's limit: --stages)
  bool wideFmaTiles = false;  // some tile on the FMA units takes 8 x 8 micro-tiles (--wide-fma-tiles)
};
PlanHeader readPlanHeader(const Program& prog, const nlohmann::json& plan, const std::string& path);

// The plan's kernels priced by `cm` (built at the header's sizes, with its numerics);
// `header` is readPlanHeader's of the same plan.
Partition readPlan(const CostModel& cm, const nlohmann::json& plan, const PlanHeader& header, const std::string& path);

}  // namespace polyfuse

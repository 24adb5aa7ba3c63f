// The cost model: footprints as box hulls of access images at concrete sizes,
// DRAM and L2 bytes, flops, occupancy, and modeled time. See docs/cost-model.md.
#pragma once
#include <map>
#include <optional>
#include <unordered_map>

#include "fusion/Device.h"
#include "fusion/FusionGraph.h"
#include "fusion/KernelPlan.h"
#include "polyir/Sized.h"

namespace polyfuse {

// Inclusive integer box; empty when any lo > hi.
struct Box {
  std::vector<int64_t> lo, hi;
  bool empty = true;
  void hull(const Box& o);
  int64_t volume() const;
};

class CostModel {
 public:
  CostModel(const FusionGraph& fg, const Sizes& sizes, const Device& dev);

  const FusionGraph& graph() const { return fg_; }
  const Device& device() const { return dev_; }
  const Sizes& sizes() const { return at_.sizes(); }
  const SizedProgram& at() const { return at_; }
  const SizedStatement& sized(int s) const { return at_.statement(s); }

  // The cheapest plan for the group as one kernel, over legal grids and tiles; none
  // when the group is not connected, not convex, or has no legal grid. With
  // `noParallelismLoss`, every statement must keep all its parallel dims on the grid.
  std::optional<KernelPlan> plan(const StmtSet& group, bool noParallelismLoss = false) const;
  // Why `plan` returns none: the blocking dependence and its source lines, or shape.
  struct Refusal {
    bool convex = true;  // false: a path leaves the group and comes back
    std::string reason;
  };
  Refusal whyNotFusible(const StmtSet& group) const;

  // `modeled`, a plan made at other sizes, at this model's sizes: the same kernels,
  // grids, tiles, thread mappings and split chunks, costed here. A tile or chunk count
  // larger than its extent here is clamped to it; `clamps` lists each clamp in words.
  Partition replan(const Partition& modeled, std::vector<std::string>& clamps) const;

  int64_t lowerBoundBytes() const { return at_.lowerBoundBytes(); }
  int64_t tensorBytes(int t) const { return at_.tensorBytes(t); }
  // Orders groups topologically and totals their costs.
  Partition assemble(Strategy strategy, const std::vector<StmtSet>& groups,
                     bool noParallelismLoss = false) const;

 private:
  const FusionGraph& fg_;
  SizedProgram at_;
  Device dev_;
  std::vector<int> elemBytes_;
  // flowSources_[s]: tensor -> statements whose values s reads through it
  std::vector<std::map<int, std::vector<int>>> flowSources_;
  std::vector<std::vector<int>> consumers_;  // per tensor: statements that read it via flow deps
  mutable std::unordered_map<StmtSet, std::optional<KernelPlan>, StmtSetHash> memo_[2];

  std::vector<std::vector<std::vector<int>>> gridAssignments(const std::vector<int>& members, int g) const;
  // `threadDims`, when given, fixes the thread mapping instead of choosing it.
  KernelPlan evaluate(const std::vector<int>& members, const std::vector<std::vector<int>>& dims,
                      const std::vector<int64_t>& tile, int64_t chunks = 1,
                      const std::vector<int>* threadDims = nullptr) const;
  OnChipArray onChipSlice(const std::vector<int>& members, const KernelPlan& kp, int t) const;
  Box accessBox(const SizedAccess& a, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) const;
};

}  // namespace polyfuse

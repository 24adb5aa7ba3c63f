// The cost model: footprints as box hulls of access images at concrete sizes,
// DRAM and L2 bytes, flops, occupancy, and modeled time. See docs/cost-model.md.
#pragma once
#include <map>
#include <optional>
#include <unordered_map>

#include "fusion/Device.h"
#include "fusion/FusionGraph.h"
#include "fusion/KernelPlan.h"

namespace polyfuse {

// One access at concrete sizes: subscript p = constant[p] + sum_k coef[p][k] * dim_k.
struct SizedAccess {
  int tensor = -1;
  std::vector<std::vector<int64_t>> coef;
  std::vector<int64_t> constant;
};

struct SizedStatement {
  std::vector<int64_t> lo, hi;  // per dim, half-open
  int64_t points = 0;
  int64_t flopsPerPoint = 0;
  SizedAccess write;
  std::vector<SizedAccess> reads;
};

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
  const Sizes& sizes() const { return sizes_; }
  const SizedStatement& sized(int s) const { return stmts_[s]; }

  // The cheapest plan for the group as one kernel, over legal grids and tiles; none
  // when the group is not connected, not convex, or has no legal grid. With
  // `noParallelismLoss`, every statement must keep all its parallel dims on the grid.
  std::optional<KernelPlan> plan(const StmtSet& group, bool noParallelismLoss = false) const;
  // Why `plan` returns none: the blocking dependence and its source lines, or shape.
  std::string whyNotFusible(const StmtSet& group) const;

  int64_t lowerBoundBytes() const;
  int64_t tensorBytes(int t) const;
  // Orders groups topologically and totals their costs.
  Partition assemble(const std::string& strategy, const std::vector<StmtSet>& groups,
                     bool noParallelismLoss = false) const;

 private:
  const FusionGraph& fg_;
  Sizes sizes_;
  Device dev_;
  std::vector<SizedStatement> stmts_;
  std::vector<int64_t> tensorElems_;
  std::vector<int> elemBytes_;
  // flowSources_[s]: tensor -> statements whose values s reads through it
  std::vector<std::map<int, std::vector<int>>> flowSources_;
  std::vector<std::vector<int>> consumers_;  // per tensor: statements that read it via flow deps
  mutable std::unordered_map<StmtSet, std::optional<KernelPlan>, StmtSetHash> memo_[2];

  std::vector<std::vector<std::vector<int>>> gridAssignments(const std::vector<int>& members, int g) const;
  KernelPlan evaluate(const std::vector<int>& members, const std::vector<std::vector<int>>& dims,
                      const std::vector<int64_t>& tile, int64_t chunks = 1) const;
  Box accessBox(const SizedAccess& a, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) const;
};

}  // namespace polyfuse

// The exact search: choose a set of candidate kernels that covers every statement
// once (set partitioning, as in Korch) at minimum modeled time. Kernels must run in
// some order, so the quotient graph must be acyclic; rather than encode that with
// ordering variables, cycles found in a solution are cut off and the model is
// solved again, which stays exact.
#include <coin/Cbc_C_Interface.h>

#include <algorithm>
#include <memory>
#include <chrono>
#include <functional>
#include <set>

#include "fusion/Search.h"

namespace polyfuse {

std::vector<int> findKernelCycle(const FusionGraph& fg, const std::vector<StmtSet>& groups) {
  std::vector<int> groupOf(fg.size(), -1);
  for (size_t k = 0; k < groups.size(); ++k)
    for (int s : groups[k].members()) groupOf[s] = int(k);
  std::vector<std::set<int>> succ(groups.size());
  for (auto& d : fg.poly().dependences())
    if (groupOf[d.src] != groupOf[d.dst]) succ[groupOf[d.src]].insert(groupOf[d.dst]);
  std::vector<int> color(groups.size(), 0), stack;
  std::vector<int> cycle;
  std::function<bool(int)> dfs = [&](int u) {
    color[u] = 1;
    stack.push_back(u);
    for (int v : succ[u]) {
      if (color[v] == 1) {
        cycle.assign(std::find(stack.begin(), stack.end(), v), stack.end());
        return true;
      }
      if (color[v] == 0 && dfs(v)) return true;
    }
    stack.pop_back();
    color[u] = 2;
    return false;
  };
  for (size_t k = 0; k < groups.size(); ++k)
    if (color[k] == 0 && dfs(int(k))) return cycle;
  return {};
}

IlpResult solvePartitionIlp(const CostModel& cm, const std::vector<StmtSet>& cands, const std::vector<double>& cost,
                            int maxKernels, double timeLimitSeconds, const std::vector<int>& start,
                            const std::vector<std::vector<int>>& exclude) {
  auto t0 = std::chrono::steady_clock::now();
  const int n = cm.graph().size();
  IlpResult res;
  // Cycle cuts and no-good cuts have one form: not all of these candidates at once.
  std::vector<std::vector<int>> cuts = exclude;
  // Microseconds as they are; every gap tolerance is zero so that near-ties between
  // partitions are resolved exactly, as the exhaustive oracle resolves them.
  const double scale = 1.0;
  std::vector<int> bestKnown = start;
  for (int round = 0; round < 500; ++round) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double left = timeLimitSeconds - elapsed;
    if (left <= 0) { res.status = SolverStatus::TimeLimit; break; }
    // Owned for the round: freed on every path, an exception's included.
    std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
    Cbc_Model* m = model.get();
    Cbc_setLogLevel(m, 0);
    Cbc_setParameter(m, "log", "0");
    Cbc_setParameter(m, "slog", "0");
    Cbc_setAllowableGap(m, 0.0);
    Cbc_setAllowableFractionGap(m, 0.0);
    Cbc_setAllowablePercentageGap(m, 0.0);
    Cbc_setParameter(m, "increment", "0");
    for (size_t c = 0; c < cands.size(); ++c) Cbc_addCol(m, "", 0.0, 1.0, cost[c] * scale, 1, 0, nullptr, nullptr);
    std::vector<std::vector<int>> cover(n);
    for (size_t c = 0; c < cands.size(); ++c)
      for (int s : cands[c].members()) cover[s].push_back(int(c));
    for (int s = 0; s < n; ++s) {
      std::vector<double> ones(cover[s].size(), 1.0);
      Cbc_addRow(m, "", int(cover[s].size()), cover[s].data(), ones.data(), 'E', 1.0);
    }
    if (maxKernels > 0) {
      std::vector<int> all(cands.size());
      for (size_t c = 0; c < cands.size(); ++c) all[c] = int(c);
      std::vector<double> ones(all.size(), 1.0);
      Cbc_addRow(m, "", int(all.size()), all.data(), ones.data(), 'L', double(maxKernels));
    }
    for (auto& cut : cuts) {
      std::vector<double> ones(cut.size(), 1.0);
      Cbc_addRow(m, "", int(cut.size()), cut.data(), ones.data(), 'L', double(cut.size()) - 1);
    }
    if (!bestKnown.empty()) {
      std::vector<double> vals(bestKnown.size(), 1.0);
      Cbc_setMIPStartI(m, int(bestKnown.size()), bestKnown.data(), vals.data());
    }
    Cbc_setMaximumSeconds(m, left);
    Cbc_solve(m);
    bool limit = Cbc_isSecondsLimitReached(m);
    const double* x = Cbc_getColSolution(m);
    std::vector<int> chosen;
    if (x && !Cbc_isProvenInfeasible(m)) {
      for (size_t c = 0; c < cands.size(); ++c)
        if (x[c] > 0.5) chosen.push_back(int(c));
      // Validate coverage: CBC may return no incumbent at a time limit.
      std::vector<int> covered(n, 0);
      for (int c : chosen)
        for (int s : cands[c].members()) covered[s]++;
      if (std::any_of(covered.begin(), covered.end(), [](int v) { return v != 1; })) chosen.clear();
    }
    bool infeasible = Cbc_isProvenInfeasible(m);
    bool optimal = Cbc_isProvenOptimal(m);
    if (chosen.empty()) {
      // CBC stopped by the clock may call an unexplored problem infeasible: only a
      // search that ran to its end may say so.
      res.status = infeasible && !limit ? SolverStatus::Infeasible : SolverStatus::TimeLimit;
      break;
    }
    std::vector<StmtSet> groups;
    for (int c : chosen) groups.push_back(cands[c]);
    std::vector<int> cycle = findKernelCycle(cm.graph(), groups);
    if (cycle.empty()) {
      res.chosen = chosen;
      res.status = optimal && !limit ? SolverStatus::Optimal : SolverStatus::TimeLimit;
      break;
    }
    std::vector<int> cut;
    for (int k : cycle) cut.push_back(chosen[k]);
    std::sort(cut.begin(), cut.end());
    cuts.push_back(cut);
    ++res.cycleCuts;
    if (limit) { res.status = SolverStatus::TimeLimit; break; }
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace polyfuse

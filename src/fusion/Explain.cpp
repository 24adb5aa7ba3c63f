#include "fusion/Explain.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "polyir/Diagnostic.h"

namespace polyfuse {

static std::string fmtUs(double us) {
  std::ostringstream os;
  os.precision(4);
  os << us << " us";
  return os.str();
}

std::vector<Decision> explain(const CostModel& cm, const Partition& chosen, const SearchOptions& opt) {
  const FusionGraph& fg = cm.graph();
  const Program& prog = fg.program();
  const int n = fg.size();
  std::vector<int> kernelOf(n, -1);
  for (auto& k : chosen.kernels)
    for (int s : k.statements) kernelOf[s] = k.id;
  // One decision per connected pair, dependences first, in statement order.
  std::map<std::pair<int, int>, std::set<std::string>> depPairs;
  for (auto& d : fg.poly().dependences())
    if (d.src != d.dst) depPairs[{d.src, d.dst}].insert(prog.tensors[d.tensor].name);
  std::vector<Decision> out;
  auto join = [](const std::set<std::string>& s) {
    std::string r;
    for (auto& x : s) r += (r.empty() ? "" : ", ") + x;
    return r;
  };
  auto decision = [](PairKind kind, int a, int b, const std::string& tensors) {
    Decision d;
    d.kind = kind;
    d.a = a;
    d.b = b;
    d.tensors = tensors;
    return d;
  };
  for (auto& [pr, ts] : depPairs) out.push_back(decision(PairKind::Dependence, pr.first, pr.second, join(ts)));
  for (auto& sp : fg.siblings()) {
    std::set<std::string> ts;
    for (int t : sp.tensors) ts.insert(prog.tensors[t].name);
    out.push_back(decision(PairKind::Sibling, sp.a, sp.b, join(ts)));
  }
  auto label = [&](int s) { return prog.statements[s].label() + " (line " + std::to_string(prog.statements[s].loc.line) + ")"; };
  // The exact search's space, under the user's constraints but not their never-fuse
  // pairs (a pair kept apart by the user is explained by what fusing it would cost).
  const double limit = std::min(opt.timeLimitSeconds, 10.0);
  SearchOptions base = opt;
  base.strategy = Strategy::Ilp;
  base.neverFuse.clear();
  std::optional<CandidateSpace> space;
  for (auto& d : out) {
    d.chosenUs = chosen.modeledUs;
    if (kernelOf[d.a] == kernelOf[d.b]) {
      d.fused = true;
      d.verdict = Verdict::Fused;
      d.fusedUs = chosen.modeledUs;
      const KernelPlan& k = chosen.kernels[kernelOf[d.a]];
      d.reason = "both run in K" + std::to_string(k.id) + " at one grid point per block";
      continue;
    }
    // The best partition that puts them in one kernel: the candidates that do not
    // separate them; the pair alone may be non-convex while a larger kernel holding
    // both is legal.
    if (!space) space = candidateSpace(cm, base, limit);
    std::vector<StmtSet> together;
    std::vector<double> cost;
    for (size_t c = 0; c < space->candidates.size(); ++c)
      if (space->candidates[c].contains(d.a) == space->candidates[c].contains(d.b)) {
        together.push_back(space->candidates[c]);
        cost.push_back(space->cost[c]);
      }
    IlpResult r = solvePartitionIlp(cm, together, cost, opt.maxKernels, limit, {});
    if (r.chosen.empty()) {
      StmtSet pair = StmtSet::of(n, {d.a, d.b});
      if (cm.plan(pair)) {
        d.verdict = Verdict::Illegal;
        d.reason = "no legal partition puts " + label(d.a) + " and " + label(d.b) + " in one kernel";
      } else {
        CostModel::Refusal why = cm.whyNotFusible(pair);
        d.verdict = why.convex ? Verdict::Illegal : Verdict::NotConvex;
        d.reason = why.reason;
      }
      continue;
    }
    std::vector<StmtSet> groups;
    for (int c : r.chosen) groups.push_back(together[c]);
    Partition alt = cm.assemble(Strategy::Ilp, groups);
    d.fusedUs = alt.modeledUs;
    std::vector<int> spilled;
    for (auto& k : alt.kernels)
      if (std::count(k.statements.begin(), k.statements.end(), d.a) && std::count(k.statements.begin(), k.statements.end(), d.b))
        spilled = k.scratch;
    if (!spilled.empty() && d.fusedUs > chosen.modeledUs) {
      d.verdict = Verdict::OverCapacity;
      std::string names;
      for (int t : spilled) names += (names.empty() ? "" : ", ") + prog.tensors[t].name;
      d.reason = "fused, the temporaries " + names + " exceed the on-chip budget of " +
                 std::to_string(int64_t(cm.device().onchipBytesPerBlock)) + " bytes per block and go to global scratch; " +
                 fmtUs(d.fusedUs) + " fused against " + fmtUs(chosen.modeledUs) + " as chosen";
    } else if (d.fusedUs > chosen.modeledUs + 1e-9) {
      d.verdict = Verdict::Costlier;
      d.reason = "the best plan that fuses them models " + fmtUs(d.fusedUs) + " against " + fmtUs(chosen.modeledUs) +
                 " as chosen";
    } else {
      d.verdict = Verdict::Rule;
      d.reason = std::string("the ") + strategyName(chosen.strategy) + " rule keeps them apart; fusing them would model " +
                 fmtUs(d.fusedUs) + " against " + fmtUs(chosen.modeledUs);
    }
  }
  return out;
}

}  // namespace polyfuse

#include "fusion/Explain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

// "parallelism decides (+12.3 us); memory -4.1 us, launch -2 us": the deciding term
// first, then every other term that moved.
static std::string termsText(const CostTerms& delta, CostTerm deciding) {
  auto signedUs = [](double us) { return (us >= 0 ? "+" : "") + fmtUs(us); };
  std::string s = std::string(costTermName(deciding)) + " decides (" + signedUs(delta[deciding]) + ")";
  std::string rest;
  for (int t = 0; t < kCostTerms; ++t)
    if (CostTerm(t) != deciding && std::abs(delta.us[t]) >= 0.01)  // below 10 ns is rounding, not a cause
      rest += (rest.empty() ? "" : ", ") + std::string(costTermName(CostTerm(t))) + " " + signedUs(delta.us[t]);
  return rest.empty() ? s : s + "; " + rest;
}

std::vector<Decision> explain(const CostModel& cm, const Partition& chosen, const SearchOptions& opt,
                              double secondsBudget) {
  const auto t0 = std::chrono::steady_clock::now();
  auto left = [&] { return secondsBudget - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const FusionGraph& fg = cm.graph();
  const Program& prog = fg.program();
  const int n = fg.size();
  // The kernel that holds both statements of a pair, if any (a recomputed statement is
  // in several).
  auto sharedKernel = [&](int a, int b) -> const KernelPlan* {
    for (auto& k : chosen.kernels)
      if (std::count(k.statements.begin(), k.statements.end(), a) && std::count(k.statements.begin(), k.statements.end(), b))
        return &k;
    return nullptr;
  };
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
  const CostTerms chosenTerms = cm.costTerms(chosen);
  for (auto& d : out) {
    d.chosenUs = chosen.modeledUs;
    if (const KernelPlan* k = sharedKernel(d.a, d.b)) {
      d.fused = true;
      d.verdict = Verdict::Fused;
      d.fusedUs = chosen.modeledUs;
      d.reason = "both run in K" + std::to_string(k->id) + " at one grid point per block";
      for (int s : {d.a, d.b})
        if (std::count(k->recomputed.begin(), k->recomputed.end(), s))
          d.reason += ", " + prog.statements[s].label() + " recomputed there";
      continue;
    }
    // The best partition that puts them in one kernel: the candidates that do not
    // separate them; the pair alone may be non-convex while a larger kernel holding
    // both is legal.
    if (left() <= 0) {
      d.verdict = Verdict::Unsettled;
      d.reason = "the time limit ran out before the search for the best plan that fuses them (a larger --time-limit settles it)";
      continue;
    }
    if (!space) space = candidateSpace(cm, base, std::min(limit, left()), SpaceUse::ForcedFusions);
    std::vector<StmtSet> together, kept;
    std::vector<double> cost;
    for (size_t c = 0; c < space->candidates.size(); ++c)
      if (space->candidates[c].contains(d.a) == space->candidates[c].contains(d.b)) {
        together.push_back(space->candidates[c]);
        cost.push_back(space->cost[c]);
        if (!space->recomputed.empty()) kept.push_back(space->recomputed[c]);
      }
    IlpResult r = solvePartitionIlp(cm, together, cost, opt.maxKernels, std::min(limit, left()), {}, {}, kept);
    if (r.chosen.empty() && r.status == SolverStatus::TimeLimit) {
      // No plan within the time is no proof that none exists.
      d.verdict = Verdict::Unsettled;
      d.reason = "the search for the best plan that fuses them ran out of time";
      continue;
    }
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
    std::vector<StmtSet> groups, groupsKept;
    for (int c : r.chosen) {
      groups.push_back(together[c]);
      if (!kept.empty()) groupsKept.push_back(kept[c]);
    }
    Partition alt = cm.assemble(Strategy::Ilp, groups, groupsKept);
    d.fusedUs = alt.modeledUs;
    const CostTerms fusedTerms = cm.costTerms(alt);
    d.hasTerms = true;
    for (int t = 0; t < kCostTerms; ++t) {
      d.termDeltas.us[t] = fusedTerms.us[t] - chosenTerms.us[t];
      if (d.termDeltas.us[t] > d.termDeltas[d.deciding]) d.deciding = CostTerm(t);
    }
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
                 " as chosen; " + termsText(d.termDeltas, d.deciding);
      std::string copies;
      for (auto& k : alt.kernels)
        for (int s : k.recomputed) copies += (copies.empty() ? "" : ", ") + prog.statements[s].label() + " in K" + std::to_string(k.id);
      if (!copies.empty()) d.reason += " (that plan recomputes " + copies + ")";
    } else {
      d.hasTerms = false;
      d.verdict = Verdict::Rule;
      d.reason = std::string("the ") + strategyName(chosen.strategy) + " rule keeps them apart; fusing them would model " +
                 fmtUs(d.fusedUs) + " against " + fmtUs(chosen.modeledUs);
    }
  }
  return out;
}

std::vector<Recomputation> explainRecomputation(const CostModel& cm, const Partition& chosen, const SearchOptions& opt,
                                                double secondsBudget) {
  const int n = cm.graph().size();
  std::vector<Recomputation> out;
  std::vector<std::vector<int>> holders(n);
  std::vector<bool> stored(n, false);
  for (auto& k : chosen.kernels)
    for (int s : k.statements) {
      holders[s].push_back(k.id);
      if (!std::count(k.recomputed.begin(), k.recomputed.end(), s)) stored[s] = true;
    }
  SearchOptions plain = opt;
  plain.recompute = false;
  plain.topK = 1;
  plain.timeLimitSeconds = std::max(0.0, std::min(plain.timeLimitSeconds, secondsBudget));
  std::optional<double> storedUs;
  for (int s = 0; s < n; ++s) {
    if (holders[s].size() < 2) continue;
    if (!storedUs) storedUs = search(cm, plain).modeledUs;
    out.push_back({s, holders[s], stored[s], chosen.modeledUs, *storedUs});
  }
  return out;
}

std::string recomputationText(const Program& prog, const Recomputation& r) {
  std::string ks;
  for (size_t i = 0; i < r.kernels.size(); ++i)
    ks += (i == 0 ? "" : i + 1 == r.kernels.size() ? " and " : ", ") + std::string("K") + std::to_string(r.kernels[i]);
  return prog.statements[r.stmt].label() + " recomputed in " + ks + (r.stored ? " (stored by one of them)" : " instead of stored") +
         ": " + fmtUs(r.chosenUs) + " against " + fmtUs(r.storedUs) + " with every value stored once";
}

std::vector<Streaming> explainStreaming(const CostModel& cm, const Partition& chosen) {
  std::vector<Streaming> out;
  for (const KernelPlan& k : chosen.kernels)
    for (const StreamPair& sp : k.streams) {
      const std::optional<KernelPlan> two = cm.twoPass(k);
      out.push_back({k.id, k.statements[size_t(sp.sum)], k.statements[size_t(sp.max)], k.modeledUs,
                     two ? std::optional(two->modeledUs) : std::nullopt});
    }
  return out;
}

std::vector<StreamSplit> explainStreamSplits(const CostModel& cm, const Partition& chosen) {
  std::vector<StreamSplit> out;
  for (const KernelPlan& k : chosen.kernels) {
    if (!(k.streamedTile() || k.splitsK()) || k.splitChunks < 2) continue;
    StreamSplit s{k.id, k.statements[size_t(k.splitMember())], k.splitChunks, k.splitChunk, k.modeledUs, std::nullopt};
    if (auto whole = cm.unsplit(k)) s.wholeUs = whole->modeledUs;
    out.push_back(s);
  }
  return out;
}

std::string streamSplitText(const Program& prog, const StreamSplit& s) {
  return "K" + std::to_string(s.kernel) + " splits " + prog.statements[size_t(s.max)].label() + "'s reduction in " +
         std::to_string(s.chunks) + " chunks of " + std::to_string(s.chunk) + ": " + fmtUs(s.chosenUs) + " against " +
         (s.wholeUs ? fmtUs(*s.wholeUs) + " whole on the same grid (one launch fewer, its blocks alone)"
                    : std::string("no whole tile on the same grid"));
}

std::vector<TiledContraction> explainContractions(const Partition& chosen) {
  std::vector<TiledContraction> out;
  for (const KernelPlan& k : chosen.kernels)
    for (const ContractionTile& c : k.contractions) {
      TiledContraction t{k.id, k.statements[size_t(c.member)], c, {}, k.kChunk()};
      for (int e : c.epilogue) t.epilogue.push_back(k.statements[size_t(e)]);
      out.push_back(std::move(t));
    }
  return out;
}

std::string contractionText(const Program& prog, const TiledContraction& t) {
  const ContractionTile& c = t.tile;
  std::string s = "K" + std::to_string(t.kernel) + " tiles " + prog.statements[size_t(t.stmt)].label() + " in " +
                  std::to_string(c.tileP) + "x" + std::to_string(c.tileQ) + " blocks " +
                  (c.tensorCores() ? std::string("on tensor cores (mma.sync ") +
                                         (c.halfOperands() ? (c.engine == ContractionEngine::TensorCoresF16 ? "F16" : "BF16")
                                                           : "TF32") +
                                         ", warps of " + std::to_string(c.warpP()) + "x" +
                                         std::to_string(c.warpQ()) + " outputs)"
                                   : "on the FMA units (" + std::to_string(c.micro) + "x" + std::to_string(c.micro) +
                                         " outputs a thread)") +
                  ", the reduction staged " + std::to_string(c.kStep) + " steps at a time in " + std::to_string(c.stages) +
                  (c.stages == 1 ? " buffer" : " buffers");
  if (t.kChunk > 0)
    s += "; split-K: a block reduces " + std::to_string(t.kChunk) + " of " + prog.statements[size_t(t.stmt)].dims[size_t(c.r)] +
         "'s points, a second launch adds the chunks' partial sums";
  if (!t.epilogue.empty()) {
    std::string e;
    for (int m : t.epilogue) e += (e.empty() ? "" : ", ") + prog.statements[size_t(m)].label();
    s += "; " + e + " applied to its accumulators";
  }
  return s;
}

std::string streamingText(const Program& prog, const Streaming& s) {
  return prog.statements[size_t(s.sum)].label() + " streams in " + prog.statements[size_t(s.max)].label() + "'s loop in K" +
         std::to_string(s.kernel) + ": " + fmtUs(s.chosenUs) +
         (s.twoPassUs ? " against " + fmtUs(*s.twoPassUs) + " with every pass kept (the same grid and threads)"
                      : std::string(" (no kernel of its statements keeps every pass on that grid: --no-stream plans the passes apart)"));
}

}  // namespace polyfuse

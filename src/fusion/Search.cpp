#include "fusion/Search.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The least time the rule-based baselines get under any time limit: enough for them to
// finish on programs of hundreds of statements, so that a short limit still answers at
// least as well as each of them.
constexpr double kBaselineSeconds = 1.0;
// The share of --time-limit left for assembling the plan the search chose, and the share
// of the rest that enumerating candidates may take.
constexpr double kFinishShare = 0.05;
constexpr double kEnumerationShare = 0.8;

// What bounds the rule-based baselines. Past the deadline every merge they would still
// try is declined, so a rule ends in time linear in what is left (the statements not yet
// grouped run alone); `cut` records that it bound. Like their peers, the rules build no
// kernel of more than kMaxRuleKernelStatements statements (Inductor's max_fusion_size):
// each legality test then plans a bounded group, so a rule's time is linear in the
// program; `capped` records that the cap declined a merge.
constexpr int kMaxRuleKernelStatements = 64;
// bytes-greedy's partners through one buffer, on each side (Inductor's
// max_fusion_buffer_group_pairwise_attempts).
constexpr int kMaxBufferPartners = 64;

struct RuleLimits {
  Clock::time_point at = Clock::time_point::max();
  mutable bool cut = false, capped = false;
  static RuleLimits after(Clock::time_point t0, double seconds) {
    RuleLimits d;
    if (seconds < 1e9) d.at = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    return d;
  }
  bool passed() const {
    if (at == Clock::time_point::max() || Clock::now() < at) return false;
    cut = true;
    return true;
  }
  // Whether a rule may still build group g: within the cap, before the deadline.
  bool admits(const StmtSet& g) const {
    if (passed()) return false;
    if (g.count() <= kMaxRuleKernelStatements) return true;
    capped = true;
    return false;
  }
  // What the solver's note says of the limits that bound.
  std::string note() const {
    std::string out;
    if (cut) out += "the time limit stopped the rule: statements it had not reached run unfused";
    if (capped)
      out += std::string(out.empty() ? "" : "; ") + "the rule built no kernel of more than " +
             std::to_string(kMaxRuleKernelStatements) + " statements, Inductor's max_fusion_size";
    return out;
  }
};

std::vector<StmtSet> singletons(int n) {
  std::vector<StmtSet> g;
  for (int s = 0; s < n; ++s) g.push_back(StmtSet::of(n, {s}));
  return g;
}

// IREE's default dispatch formation: reductions and contractions are roots; a root
// absorbs elementwise producers used only by it and elementwise consumers whose
// parallel iteration space matches its own; other elementwise ops fuse with an
// elementwise producer of the same space.
// IREE's later steps toward one softmax dispatch (docs/strategies.md, `iree-aggressive`).
struct IreeSteps {
  bool multiUseProducers = false;      // step 1: an elementwise producer joins when all its uses are in one dispatch
  bool reductionProducers = false;     // step 2: a reduction joins the reduction it feeds when their parallel spaces match
  bool broadcastingConsumers = false;  // step 3: a consumer joins its reduction even with more parallel dimensions
};

constexpr IreeSteps kIreeAggressive{true, true, true};

std::vector<StmtSet> greedyIree(const CostModel& cm, const IreeSteps& steps, const RuleLimits& limits) {
  const FusionGraph& fg = cm.graph();
  const Program& prog = fg.program();
  const int n = fg.size();
  std::vector<int> groupOf(n, -1);
  std::vector<StmtSet> groups;
  std::vector<int> space;  // parallel rank of each group's root
  auto legalFull = [&](const StmtSet& g, int rank) {
    if (!limits.admits(g)) return false;
    const auto& p = cm.plan(g);
    return p && p->gridRank() == rank;
  };
  std::vector<std::vector<int>> flowConsumers(n), flowProducers(n);
  for (auto& d : fg.poly().dependences())
    if (d.kind == DepKind::Flow && d.src != d.dst) {
      flowConsumers[d.src].push_back(d.dst);
      flowProducers[d.dst].push_back(d.src);
    }
  for (auto& v : flowConsumers) { std::sort(v.begin(), v.end()); v.erase(std::unique(v.begin(), v.end()), v.end()); }
  for (auto& v : flowProducers) { std::sort(v.begin(), v.end()); v.erase(std::unique(v.begin(), v.end()), v.end()); }
  auto elementwise = [&](int s) { return prog.statements[s].numReduction() == 0; };
  for (int r = 0; r < n; ++r) {
    if (elementwise(r)) continue;
    StmtSet g = StmtSet::of(n, {r});
    int rank = prog.statements[r].numParallel;
    // Producers: elementwise, single use (all consumers are this root).
    for (int p : flowProducers[r]) {
      if (!elementwise(p) || groupOf[p] >= 0) continue;
      if (flowConsumers[p] != std::vector<int>{r}) continue;
      StmtSet t = g;
      t.insert(p);
      if (legalFull(t, rank)) g = t;
    }
    // Consumers: elementwise, same parallel space as the root (step 3: or a larger one,
    // which then runs inside the root's blocks: fewer blocks than it had alone).
    for (int c : flowConsumers[r]) {
      if (!elementwise(c) || groupOf[c] >= 0) continue;
      if (steps.broadcastingConsumers ? prog.statements[c].numParallel < rank : prog.statements[c].numParallel != rank)
        continue;
      StmtSet t = g;
      t.insert(c);
      if (legalFull(t, rank)) g = t;
    }
    for (int s : g.members()) groupOf[s] = int(groups.size());
    groups.push_back(g);
    space.push_back(rank);
  }
  for (int s = 0; s < n; ++s) {
    if (groupOf[s] >= 0) continue;
    int rank = prog.statements[s].numParallel;
    int joined = -1;
    for (auto it = flowProducers[s].rbegin(); it != flowProducers[s].rend() && joined < 0; ++it) {
      int k = groupOf[*it];
      if (k < 0 || space[k] != rank) continue;
      StmtSet t = groups[k];
      t.insert(s);
      if (legalFull(t, rank)) {
        groups[k] = t;
        joined = k;
      }
    }
    if (joined < 0) {
      groups.push_back(StmtSet::of(n, {s}));
      space.push_back(rank);
      joined = int(groups.size()) - 1;
    }
    groupOf[s] = joined;
  }
  // Steps 1 and 2 merge whole dispatches, to a fixed point; a merge stands only when the
  // result is a legal kernel on the consumer's grid rank and the quotient stays acyclic.
  auto root = [&](const StmtSet& g) {
    int rk = -1;
    for (int x : g.members())
      if (!elementwise(x)) rk = rk < 0 ? x : rk;
    return rk;
  };
  for (bool changed = steps.multiUseProducers || steps.reductionProducers; changed;) {
    changed = false;
    std::vector<int> at(n);
    for (size_t k = 0; k < groups.size(); ++k)
      for (int x : groups[k].members()) at[x] = int(k);
    for (size_t a = 0; a < groups.size() && !changed; ++a) {
      // The groups that read group a's values, in index order: the b that may take a in.
      std::set<size_t> usedBy;
      for (int x : groups[a].members())
        for (int c : flowConsumers[x])
          if (size_t(at[c]) != a) usedBy.insert(size_t(at[c]));
      for (size_t b : usedBy) {
        const int ra = root(groups[a]), rb = root(groups[b]);
        bool step1 = steps.multiUseProducers && ra < 0 && usedBy.size() == 1;
        bool step2 = steps.reductionProducers && ra >= 0 && rb >= 0 &&
                     prog.statements[ra].numParallel == prog.statements[rb].numParallel;
        if (!step1 && !step2) continue;
        StmtSet t = groups[a];
        t |= groups[b];
        int rank = rb >= 0 ? prog.statements[rb].numParallel : space[b];
        if (!legalFull(t, rank)) continue;
        std::vector<StmtSet> merged = groups;
        std::vector<int> mergedSpace = space;
        merged[b] = t;
        merged.erase(merged.begin() + long(a));
        mergedSpace.erase(mergedSpace.begin() + long(a));
        if (!findKernelCycle(fg, merged).empty()) continue;
        groups = merged;
        space = mergedSpace;
        changed = true;
        break;
      }
    }
  }
  // A later merge can make an earlier group's quotient cyclic; split such groups.
  while (!findKernelCycle(fg, groups).empty()) {
    std::vector<int> cyc = findKernelCycle(fg, groups);
    int k = *std::max_element(cyc.begin(), cyc.end(), [&](int a, int b) { return groups[a].count() < groups[b].count(); });
    std::vector<int> m = groups[k].members();
    groups.erase(groups.begin() + k);
    for (int s : m) groups.push_back(StmtSet::of(n, {s}));
  }
  return groups;
}

// TorchInductor's rule: repeatedly fuse the legal pair of nodes that shares the most
// bytes of buffers (read or written by both), closest in program order on ties.
std::vector<StmtSet> bytesGreedy(const CostModel& cm, const RuleLimits& limits) {
  const FusionGraph& fg = cm.graph();
  const Program& prog = fg.program();
  const int n = fg.size();
  // Groups live in slots that never move: merging B into A empties slot B. Slots keep
  // the order the rule's list would have, so the tie-break on list order holds.
  std::vector<StmtSet> group = singletons(n);
  std::vector<std::set<int>> tensors(n);          // per slot: tensors read or written
  std::vector<std::set<int>> holders(prog.tensors.size());  // per tensor: slots touching it
  for (int s = 0; s < n; ++s) {
    tensors[s].insert(prog.statements[s].write.tensor);
    for (auto& r : prog.statements[s].reads) tensors[s].insert(r.tensor);
    for (int t : tensors[s]) holders[t].insert(s);
  }
  struct Pair {
    int64_t score;
    int dist, a, b;
    // Most shared bytes first, then closest in program order, then list order.
    bool operator<(const Pair& o) const {
      if (score != o.score) return score > o.score;
      if (dist != o.dist) return dist < o.dist;
      return std::tie(a, b) < std::tie(o.a, o.b);
    }
  };
  // The pairs not yet refused, best first. A pair refused stays refused while both its
  // groups stand: its union's plan does not change, and a cycle through it survives any
  // merge of other groups; it keeps its place in pairOf, so it is not proposed again.
  std::set<Pair> pairs;
  std::vector<std::map<int, Pair>> pairOf(n);  // per slot: its pairs, refused or not, by the other slot
  auto front = [&](int k) { return group[k].members().front(); };
  auto sharedBytes = [&](int k, int h) {
    int64_t bytes = 0;
    auto i = tensors[k].begin(), j = tensors[h].begin();
    while (i != tensors[k].end() && j != tensors[h].end()) {
      if (*i < *j) ++i;
      else if (*j < *i) ++j;
      else { bytes += cm.tensorBytes(*i); ++i; ++j; }
    }
    return bytes;
  };
  // A slot's partners: through each tensor it touches, the kMaxBufferPartners nearest
  // slots on each side (in list order) that touch it too, as Inductor bounds its pairwise
  // attempts per buffer. A tensor every statement reads then gives pairs linear in the
  // program, not quadratic. A slot's partners are found when it is formed.
  auto addPairsOf = [&](int k) {
    std::set<int> partners;
    for (int t : tensors[k]) {
      const std::set<int>& hs = holders[t];
      const auto at = hs.find(k);
      auto it = at;
      for (int i = 0; i < kMaxBufferPartners && it != hs.begin(); ++i) partners.insert(*--it);
      it = at;
      for (int i = 0; i < kMaxBufferPartners && ++it != hs.end(); ++i) partners.insert(*it);
    }
    for (int h : partners) {
      if (pairOf[k].count(h)) continue;  // unchanged since it was scored (and perhaps refused)
      const int64_t score = sharedBytes(k, h);
      if (score <= 0) continue;
      Pair p{score, std::abs(front(k) - front(h)), std::min(k, h), std::max(k, h)};
      pairs.insert(p);
      pairOf[k][h] = p;
      pairOf[h][k] = p;
    }
  };
  auto dropPairsOf = [&](int k) {
    for (auto& [h, p] : pairOf[k]) {
      pairs.erase(p);
      pairOf[h].erase(k);
    }
    pairOf[k].clear();
  };
  for (int s = 0; s < n; ++s) {
    if (limits.passed()) return group;
    addPairsOf(s);
  }
  std::vector<int> slotOf(n);
  std::iota(slotOf.begin(), slotOf.end(), 0);
  // The partition is acyclic; merging a and b closes a cycle exactly when a path leaves
  // one of them, runs through other kernels and enters the other.
  auto mergeCloses = [&](int a, int b) {
    std::vector<char> seen(n, 0);
    std::vector<int> queue;
    bool closes = false;
    auto visitSuccessors = [&](int k) {
      for (int u : group[k].members())
        for (auto e : boost::make_iterator_range(boost::out_edges(u, fg.graph()))) {
          int q = slotOf[int(boost::target(e, fg.graph()))];
          if (q == k) continue;
          if (q == a || q == b) {
            closes |= k != a && k != b;  // an edge between a and b themselves is fine
            continue;
          }
          if (!seen[q]) {
            seen[q] = 1;
            queue.push_back(q);
          }
        }
    };
    visitSuccessors(a);
    visitSuccessors(b);
    for (size_t i = 0; i < queue.size() && !closes; ++i) visitSuccessors(queue[i]);
    return closes;
  };
  while (true) {
    int bestA = -1, bestB = -1;
    for (auto it = pairs.begin(); it != pairs.end();) {
      const Pair p = *it;
      StmtSet u = group[p.a];
      u |= group[p.b];
      if (!limits.admits(u) || !cm.modeledUs(u) || mergeCloses(p.a, p.b)) {
        if (limits.cut) break;
        it = pairs.erase(it);
        continue;
      }
      bestA = p.a;
      bestB = p.b;
      break;
    }
    if (bestA < 0) break;
    dropPairsOf(bestA);
    dropPairsOf(bestB);
    group[bestA] |= group[bestB];
    for (int s : group[bestB].members()) slotOf[s] = bestA;
    group[bestB] = StmtSet(n);
    for (int t : tensors[bestB]) {
      holders[t].erase(bestB);
      holders[t].insert(bestA);
    }
    tensors[bestA].insert(tensors[bestB].begin(), tensors[bestB].end());
    tensors[bestB].clear();
    addPairsOf(bestA);
  }
  std::vector<StmtSet> out;
  for (int k = 0; k < n; ++k)
    if (!group[k].empty()) out.push_back(group[k]);
  return out;
}

// Recomputation is searched where the exhaustive oracle can check it (every partition,
// every placement of copies: minutes at 10 statements). Beyond, the cover's cyclic
// solutions make CBC iterate for minutes on a 96-statement encoder for a gain under 2%
// (docs/strategies.md): left for a model-scale formulation.
constexpr int kMaxRecomputeStatements = 8;

// Whether the search may recompute producers: asked for, searched exactly, and possible.
bool recomputes(const CostModel& cm, const SearchOptions& opt) {
  return opt.recompute && (opt.strategy == Strategy::Ilp || opt.strategy == Strategy::Exhaustive) &&
         cm.graph().size() <= kMaxRecomputeStatements && cm.graph().anyRecomputable();
}

bool satisfiesConstraints(const StmtSet& g, const SearchOptions& opt) {
  for (auto& [a, b] : opt.neverFuse)
    if (g.contains(a) && g.contains(b)) return false;
  for (auto& [a, b] : opt.mustFuse)
    if (g.contains(a) != g.contains(b)) return false;
  return true;
}

// Every partition into legal kernels that honours the constraints, in a fixed order;
// `visit` gets its kernels, what each recomputes, and the modeled time, and returns
// false to stop. With recomputation, each partition's statements are homes, and every
// recomputable statement may also be copied into any kernel that uses it (consumers
// first, so a copy's own producers can be copied after it); its home kernel stores it
// exactly when a kernel reads it without a copy.
using PartitionVisitor =
    std::function<bool(const std::vector<StmtSet>&, const std::vector<StmtSet>&, double)>;
void forEachLegalPartition(const CostModel& cm, const SearchOptions& opt, const PartitionVisitor& visit,
                           size_t& visited, const std::function<double()>& bound = [] { return 1e300; }) {
  const FusionGraph& fg = cm.graph();
  const int n = fg.size();
  const bool recompute = recomputes(cm, opt);
  std::vector<int> copyable;  // recomputable statements, consumers first
  for (int s = n - 1; s >= 0 && recompute; --s)
    if (fg.recomputable(s)) copyable.push_back(s);
  std::vector<StmtSet> blocks;
  bool stop = false;
  auto offer = [&](const std::vector<StmtSet>& groups, const std::vector<StmtSet>& kept) {
    double total = 0;
    for (size_t k = 0; k < groups.size(); ++k) {
      if (!satisfiesConstraints(groups[k], opt)) return;
      const auto& p = kept.empty() ? cm.plan(groups[k]) : cm.plan(groups[k], kept[k]);
      if (!p) return;
      total += p->modeledUs;
    }
    const double best = bound();
    if (total >= best - 1e-9 * std::max(1.0, best)) return;
    if (!findKernelCycle(fg, groups, kept).empty()) return;
    stop = !visit(groups, kept, total);
  };
  auto withCopies = [&]() {
    std::vector<int> home(n);
    for (size_t k = 0; k < blocks.size(); ++k)
      for (int s : blocks[k].members()) home[s] = int(k);
    std::vector<StmtSet> groups = blocks;
    auto usedIn = [&](int s, int k) {
      for (int c : fg.flowConsumers(s))
        if (groups[k].contains(c)) return true;
      return false;
    };
    auto usedOutside = [&](int s, int k) { return fg.readOutside(groups[k], s); };
    // Filled anew at each leaf of the placement (there are millions in a large search).
    std::vector<StmtSet> kept(groups.size(), StmtSet(n));
    std::vector<char> needed(n);
    auto chooseStores = [&]() {
      for (StmtSet& k : kept) k.clear();
      std::fill(needed.begin(), needed.end(), 0);
      for (int s : copyable)
        for (size_t k = 0; k < groups.size(); ++k)
          if (int(k) != home[s] && groups[k].contains(s) && usedOutside(s, int(k))) kept[k].insert(s);
      for (int s = 0; s < n; ++s) {
        const int h = home[s];
        for (size_t k = 0; k < groups.size() && !needed[s]; ++k) needed[s] = !groups[k].contains(s) && usedIn(s, int(k));
        // A value no kernel reads from memory is not stored: its home keeps it (and
        // must use it).
        if (fg.recomputable(s) && !needed[s] && usedOutside(s, h)) {
          if (!usedIn(s, h)) return;
          kept[h].insert(s);
        }
      }
      // A kernel reads s without computing it: its home must store it, which it does for
      // a value used outside it, or one it alone computes that a member it recomputes
      // reads (FusionGraph::storesValue; a copy's readers elsewhere are not enough).
      for (int s = 0; s < n; ++s)
        if (needed[s] && !fg.storesValue(groups[home[s]], kept[home[s]], s)) return;
      offer(groups, kept);
    };
    std::function<void(size_t)> place = [&](size_t i) {
      if (stop) return;
      if (i == copyable.size()) return chooseStores();
      const int s = copyable[i];
      std::vector<int> targets;
      for (size_t k = 0; k < groups.size(); ++k)
        if (int(k) != home[s] && usedIn(s, int(k))) targets.push_back(int(k));
      for (uint64_t bits = 0; bits < (uint64_t(1) << targets.size()) && !stop; ++bits) {
        for (size_t t = 0; t < targets.size(); ++t)
          if (bits >> t & 1) groups[targets[t]].insert(s);
        place(i + 1);
        for (size_t t = 0; t < targets.size(); ++t)
          if (bits >> t & 1) groups[targets[t]].erase(s);
      }
    };
    place(0);
  };
  std::function<void(int)> rec = [&](int s) {
    if (stop) return;
    if (s == n) {
      ++visited;
      if (opt.maxKernels > 0 && int(blocks.size()) > opt.maxKernels) return;
      if (recompute) withCopies();
      else offer(blocks, {});
      return;
    }
    for (size_t k = 0; k < blocks.size(); ++k) {
      blocks[k].insert(s);
      // Statements are added in dependence order, so a non-convex prefix stays so
      // (not so for a kernel that recomputes: copies change which paths leave it).
      if (recompute || fg.isConvex(blocks[k])) rec(s + 1);
      blocks[k].erase(s);
    }
    blocks.push_back(StmtSet::of(n, {s}));
    rec(s + 1);
    blocks.pop_back();
  };
  rec(0);
}

// The oracle: the cheapest legal partition, by enumeration.
std::pair<std::vector<StmtSet>, std::vector<StmtSet>> exhaustive(const CostModel& cm, const SearchOptions& opt,
                                                                 size_t& visited) {
  std::pair<std::vector<StmtSet>, std::vector<StmtSet>> best;
  double bestCost = 1e300;
  forEachLegalPartition(
      cm, opt,
      [&](const std::vector<StmtSet>& groups, const std::vector<StmtSet>& kept, double total) {
        bestCost = total;
        best = {groups, kept};
        return true;
      },
      visited, [&] { return bestCost; });
  return best;
}

}  // namespace

std::vector<Partition> legalPartitions(const CostModel& cm, size_t limit, bool& more, bool recompute) {
  std::vector<Partition> out;
  size_t visited = 0;
  more = false;
  SearchOptions all;
  all.strategy = Strategy::Exhaustive;
  all.recompute = recompute;
  // Copies of a statement that no kernel stores look alike whichever is called its home.
  std::set<std::vector<std::pair<StmtSet, StmtSet>>> seen;
  forEachLegalPartition(
      cm, all,
      [&](const std::vector<StmtSet>& groups, const std::vector<StmtSet>& kept, double) {
        std::vector<std::pair<StmtSet, StmtSet>> key;
        for (size_t k = 0; k < groups.size(); ++k) key.push_back({groups[k], kept.empty() ? StmtSet() : kept[k]});
        std::sort(key.begin(), key.end());
        if (!seen.insert(key).second) return true;
        if (out.size() == limit) {
          more = true;
          return false;
        }
        out.push_back(cm.assemble(Strategy::Exhaustive, groups, kept));
        return true;
      },
      visited);
  std::stable_sort(out.begin(), out.end(), [](const Partition& a, const Partition& b) { return a.modeledUs < b.modeledUs; });
  return out;
}

StmtSet recomputableIn(const FusionGraph& fg, const StmtSet& group) {
  StmtSet out(fg.size());
  for (int s : group.members()) {
    if (!fg.recomputable(s)) continue;
    bool inside = false, outside = false;
    for (int c : fg.flowConsumers(s)) (group.contains(c) ? inside : outside) = true;
    if (inside && outside) out.insert(s);
  }
  return out;
}

// Calls f on every subset of `of`, the empty set first.
static void forEachSubset(const StmtSet& of, const std::function<void(const StmtSet&)>& f) {
  const std::vector<int> m = of.members();
  const StmtSet none = of.minus(of);
  for (uint64_t bits = 0; bits < (uint64_t(1) << m.size()); ++bits) {
    StmtSet r = none;
    for (size_t i = 0; i < m.size(); ++i)
      if (bits >> i & 1) r.insert(m[i]);
    f(r);
  }
}

std::vector<StmtSet> enumerateCandidates(const CostModel& cm, int maxSize, size_t maxCount, bool noParallelismLoss,
                                         CandidateBound& bound, double secondsBudget,
                                         std::vector<StmtSet>* recomputedOut, double ceilingUs, bool dominance) {
  const FusionGraph& fg = cm.graph();
  const int n = fg.size();
  bound = CandidateBound::None;
  const auto t0 = Clock::now();
  std::unordered_set<StmtSet, StmtSetHash> seen;
  std::vector<StmtSet> frontier, out;
  // Each statement's kernel alone: splitting a convex kernel into its members, in
  // dependence order, keeps every partition's kernels in some order, so a group slower
  // than its members alone is in no optimal partition (with no constraint that keeps
  // them together and no bound on the kernels' number; the caller says).
  std::vector<double> aloneUs;
  if (dominance && !recomputedOut)
    for (int s = 0; s < n; ++s) {
      const std::optional<double> t = cm.modeledUs(StmtSet::of(n, {s}), noParallelismLoss);
      aloneUs.push_back(t ? *t : std::numeric_limits<double>::infinity());
    }
  auto keep = [&](const StmtSet& g) {
    if (!recomputedOut) {
      double alone = std::numeric_limits<double>::infinity();
      if (!aloneUs.empty() && g.count() > 1) {
        alone = 0;
        for (int s : g.members()) alone += aloneUs[size_t(s)];
        alone *= 1 + 1e-9;  // strictly slower: equal times keep the group
      }
      // A group priced before (or one of its shape) is known already, and may be slower.
      if (const std::optional<double> t = cm.modeledUsBelow(g, noParallelismLoss, alone); t && !(*t > alone))
        out.push_back(g);
      return;
    }
    forEachSubset(recomputableIn(fg, g), [&](const StmtSet& r) {
      if (cm.plan(g, r, noParallelismLoss)) {
        out.push_back(g);
        recomputedOut->push_back(r);
      }
    });
  };
  for (int s = 0; s < n; ++s) {
    StmtSet g = StmtSet::of(n, {s});
    seen.insert(g);
    frontier.push_back(g);
  }
  // Grow connected sets one neighbour at a time, keeping the legal ones. Without
  // recomputation a kernel is convex, and each step takes the convex hull: every
  // convex connected set H is reached, from any member, by adding a neighbour inside H
  // and closing (the hull of a subset of H stays in H, and a hull of a connected set is
  // connected). A set no superset of which can be legal (CostModel::mayGrowLegal) is
  // dropped, so the frontier holds only sets on the way to a legal kernel and the walk
  // ends by itself. So is one whose legal supersets are all kernels of one block slower
  // than a known partition (ceilingUs): one statement without parallel dimensions (a
  // LayerNorm's statistics over a whole batch-1 tensor) would otherwise keep every set
  // of the graph on its way to a rank-0 grid (ConvNeXt: 200,000 sets at eight members).
  // The ILP's optimum is unchanged: such a kernel is in no partition as fast as the
  // known one.
  // The clock is read every 64 units of work: a group costed, or a neighbour tried (a
  // statement of a wide graph has thousands, each a hull and a legality bound).
  size_t work = 0;
  auto outOfTime = [&] {
    if (++work % 64 != 0 || since(t0) <= secondsBudget) return false;
    bound = CandidateBound::TimeLimit;
    return true;
  };
  for (int step = 1; !frontier.empty(); ++step) {
    std::vector<StmtSet> next;
    bool grow = true;
    for (auto& g : frontier) {
      // The size-1 groups always go in (every partition needs them), but past the budget
      // they grow no more: on a wide graph growing them alone outlasted a short limit.
      if (grow && outOfTime()) {
        if (step > 1) return out;
        grow = false;
      }
      keep(g);
      if (!grow || bound == CandidateBound::Count) continue;  // cost what was reached, grow no more
      for (int u : g.members())
        for (int v : fg.neighbours(u)) {
          if (g.contains(v) || !grow) continue;
          if (outOfTime()) {
            if (step > 1) return out;
            grow = false;
            continue;
          }
          StmtSet h = g;
          h.insert(v);
          if (!recomputedOut) h = fg.convexHull(h);  // what any legal superset holds too
          if (!seen.insert(h).second || !cm.mayGrowLegal(h)) continue;
          const bool ceiling = ceilingUs < std::numeric_limits<double>::infinity();
          const bool dominated = !aloneUs.empty() && !noParallelismLoss;
          if (ceiling || dominated) {
            const CostModel::OneBlockBound b = cm.oneBlockBound(h, dominated);
            if (b.floorUs > ceilingUs || b.dominated) continue;
          }
          if (h.count() > maxSize) {
            bound = CandidateBound::Size;  // a set that might be legal is left out
            continue;
          }
          next.push_back(h);
        }
      if (seen.size() > maxCount) bound = CandidateBound::Count;
    }
    if (!grow) return out;
    std::sort(next.begin(), next.end());
    frontier = std::move(next);
  }
  return out;
}

// The baselines: strategies that apply a rule, no search. The ILP always has their
// kernels among its candidates, so it never answers worse than any of them.
constexpr Strategy kBaselines[] = {Strategy::Nofuse, Strategy::Greedy, Strategy::IreeAggressive, Strategy::BytesGreedy};

// A baseline's kernels; none for a strategy that searches.
static std::optional<std::vector<StmtSet>> ruleGroups(const CostModel& cm, Strategy s, const RuleLimits& limits) {
  switch (s) {
    case Strategy::Nofuse: return singletons(cm.graph().size());
    case Strategy::Greedy: return greedyIree(cm, {}, limits);
    case Strategy::IreeAggressive: return greedyIree(cm, kIreeAggressive, limits);
    case Strategy::BytesGreedy: return bytesGreedy(cm, limits);
    default: return std::nullopt;
  }
}

std::optional<std::vector<StmtSet>> ruleGroups(const CostModel& cm, Strategy s) { return ruleGroups(cm, s, RuleLimits{}); }

// The ILP over a candidate space. With recomputation, first without it (a partition
// problem, quick to prove), then the set cover with that optimum as its start: a time
// limit then costs at most the gain of recomputing, never the partition's optimum.
IlpResult solveWithRecomputation(const CostModel& cm, const CandidateSpace& sp, int maxKernels, double seconds,
                                 std::string& note) {
  if (sp.recomputed.empty())
    return solvePartitionIlp(cm, sp.candidates, sp.cost, maxKernels, seconds, sp.start);
  const auto t0 = Clock::now();
  std::vector<int> plain;  // indices of the candidates that recompute nothing
  std::vector<StmtSet> cands;
  std::vector<double> cost;
  std::vector<int> at(sp.candidates.size(), -1);
  for (size_t c = 0; c < sp.candidates.size(); ++c)
    if (sp.recomputed[c].empty()) {
      at[c] = int(plain.size());
      plain.push_back(int(c));
      cands.push_back(sp.candidates[c]);
      cost.push_back(sp.cost[c]);
    }
  std::vector<int> start;
  for (int c : sp.start) start.push_back(at[c]);
  IlpResult first = solvePartitionIlp(cm, cands, cost, maxKernels, seconds, start);
  for (int& c : first.chosen) c = plain[c];
  if (first.chosen.empty()) {
    first.bestBound = -std::numeric_limits<double>::infinity();  // the first model holds no recomputing partition
    return first;
  }
  IlpResult second =
      solvePartitionIlp(cm, sp.candidates, sp.cost, maxKernels, seconds - since(t0), first.chosen, {}, sp.recomputed);
  second.cycleCuts += first.cycleCuts;
  double a = 0, b = 0;
  for (int c : first.chosen) a += sp.cost[c];
  for (int c : second.chosen) b += sp.cost[c];
  if (second.chosen.empty() || b > a) {
    note += "; recomputation not settled within the time limit: the best partition without it is returned";
    first.status = SolverStatus::TimeLimit;
    first.seconds = since(t0);
    first.cycleCuts = second.cycleCuts;
    first.bestBound = second.bestBound;  // the cover's relaxation holds every partition; the first model's does not
    return first;
  }
  second.seconds = since(t0);
  return second;
}

// Whether kernels `groups` run in some order: their quotient graph has no cycle.
static bool runsInOrder(const FusionGraph& fg, const std::vector<StmtSet>& groups) {
  const std::vector<std::set<int>> succ = fg.kernelSuccessors(groups, {});
  std::vector<int> indegree(groups.size(), 0), ready;
  for (auto& out : succ)
    for (int v : out) ++indegree[size_t(v)];
  for (size_t k = 0; k < groups.size(); ++k)
    if (indegree[k] == 0) ready.push_back(int(k));
  size_t done = 0;
  while (!ready.empty()) {
    const int u = ready.back();
    ready.pop_back();
    ++done;
    for (int v : succ[size_t(u)])
      if (--indegree[size_t(v)] == 0) ready.push_back(v);
  }
  return done == groups.size();
}

// kernelOf[s]: the position in `current` (candidate indices) of the kernel holding s.
static void indexKernels(const CandidateSpace& sp, const std::vector<int>& current, std::vector<int>& kernelOf) {
  for (size_t k = 0; k < current.size(); ++k)
    for (int m : sp.candidates[size_t(current[k])].members()) kernelOf[size_t(m)] = int(k);
}

// Candidate `taken`, with `parts` (what it leaves of the kernels it touches), replaces
// those kernels in `current`, if the kernels then still run in some order.
static bool replaceIfOrdered(const FusionGraph& fg, const CandidateSpace& sp, std::vector<int>& current, int taken,
                             const std::vector<int>& parts) {
  std::vector<int> next{taken};
  next.insert(next.end(), parts.begin(), parts.end());
  for (int k : current)
    if (!sp.candidates[size_t(k)].intersects(sp.candidates[size_t(taken)])) next.push_back(k);
  std::vector<StmtSet> groups;
  for (int k : next) groups.push_back(sp.candidates[size_t(k)]);
  if (!runsInOrder(fg, groups)) return false;
  current = std::move(next);
  return true;
}

// A descent from the best baseline over the candidates: while some candidate is exactly
// the union of two or more of the current kernels and is modeled faster than they are
// together, the one that saves the most replaces them, if the kernels still run in some
// order. Each candidate's saving is kept, and a merge prices again only the candidates
// that meet the merged kernel (the others cover the same kernels as before): a step
// costs a scan of the savings, not of the candidates' members, which on MobileBERT's
// 56,000 candidates under a 5-s limit was the difference between a few merges and all of
// them. It gives CBC a better start, and a time limit that stops CBC a better answer
// than a rule's. Candidates that recompute are left to the ILP. Returns the kernels as
// candidate indices (the start where nothing merges).
static std::vector<int> mergeDescent(const CostModel& cm, const CandidateSpace& sp, double seconds) {
  const auto t0 = Clock::now();
  const FusionGraph& fg = cm.graph();
  std::vector<int> current = sp.start;
  std::vector<int> kernelOf(size_t(fg.size()), -1);
  indexKernels(sp, current, kernelOf);
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  std::vector<std::vector<int>> members(sp.candidates.size());
  std::vector<std::vector<int>> holding(size_t(fg.size()));  // per statement: the candidates that may merge it
  for (size_t c = 0; c < sp.candidates.size(); ++c)
    if (sp.recomputed.empty() || sp.recomputed[c].empty()) {
      members[c] = sp.candidates[c].members();
      if (members[c].size() >= 2)
        for (int m : members[c]) holding[size_t(m)].push_back(int(c));
    }
  std::vector<int> touched;
  // What replacing the kernels candidate c covers by c saves (kNone where it takes part
  // of a kernel, or one kernel whole).
  auto saving = [&](size_t c) {
    if (members[c].size() < 2) return kNone;
    touched.clear();
    for (int m : members[c]) touched.push_back(kernelOf[size_t(m)]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    if (touched.size() < 2) return kNone;
    int covered = 0;
    double parts = 0;
    for (int k : touched) {
      covered += sp.candidates[size_t(current[size_t(k)])].count();
      parts += sp.cost[size_t(current[size_t(k)])];
    }
    return covered == int(members[c].size()) ? parts - sp.cost[c] : kNone;
  };
  std::vector<double> saves(sp.candidates.size());
  for (size_t c = 0; c < sp.candidates.size(); ++c) saves[c] = saving(c);
  std::vector<char> stale(sp.candidates.size(), 0), rejected(sp.candidates.size(), 0);
  while (since(t0) < seconds) {
    int best = -1;
    double bestSaving = 1e-9;
    for (size_t c = 0; c < saves.size(); ++c)
      if (saves[c] > bestSaving) bestSaving = saves[c], best = int(c);
    if (best < 0) break;
    if (!replaceIfOrdered(fg, sp, current, best, {})) {
      saves[size_t(best)] = kNone;  // it would close a cycle among the current kernels
      rejected[size_t(best)] = 1;
      continue;
    }
    indexKernels(sp, current, kernelOf);
    std::vector<int> again;
    for (int m : members[size_t(best)])
      for (int c : holding[size_t(m)])
        if (!stale[size_t(c)]) stale[size_t(c)] = 1, again.push_back(c);
    for (int c : again) {
      stale[size_t(c)] = 0;
      if (!rejected[size_t(c)]) saves[size_t(c)] = saving(size_t(c));
    }
  }
  return current;
}

// A wider descent for candidate spaces the enumeration cut short, where CBC may find
// no incumbent in time and the start is the answer: a candidate may also take part of a
// kernel, what it leaves of each kernel it touches running as that remnant (when the
// remnant is a candidate) or as its statements apart. While some candidate saves time
// that way, the one that saves the most replaces what it touches, if the kernels still
// run in some order. Only where the space is incomplete: elsewhere the ILP proves its
// optimum from any start, and the start is left as the merges made it.
static std::vector<int> exchangeDescent(const CostModel& cm, const CandidateSpace& sp,
                                        const std::unordered_map<StmtSet, int, StmtSetHash>& pos, double seconds) {
  const auto t0 = Clock::now();
  const FusionGraph& fg = cm.graph();
  const int n = fg.size();
  std::vector<int> current = sp.start;
  std::vector<int> kernelOf(size_t(n), -1);
  indexKernels(sp, current, kernelOf);
  std::vector<int> alone(size_t(n), -1);
  for (int s = 0; s < n; ++s)
    if (auto it = pos.find(StmtSet::of(n, {s})); it != pos.end()) alone[size_t(s)] = it->second;
  // What a remnant runs as: itself, when a candidate, else its statements apart (none
  // when one of them is no candidate alone).
  auto remnant = [&](const StmtSet& r, std::vector<int>& parts) {
    if (auto it = pos.find(r); it != pos.end()) {
      parts.push_back(it->second);
      return true;
    }
    for (int s : r.members()) {
      if (alone[size_t(s)] < 0) return false;
      parts.push_back(alone[size_t(s)]);
    }
    return true;
  };
  std::set<int> rejected;
  std::vector<int> touched, parts, bestParts;
  while (since(t0) < seconds) {
    int best = -1;
    double bestSaving = 1e-9;
    for (size_t c = 0; c < sp.candidates.size() && since(t0) < seconds; ++c) {
      if ((!sp.recomputed.empty() && !sp.recomputed[c].empty()) || rejected.count(int(c))) continue;
      const StmtSet& g = sp.candidates[c];
      if (g.count() < 2) continue;
      touched.clear();
      for (int m : g.members()) touched.push_back(kernelOf[size_t(m)]);
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      if (touched.size() == 1 && sp.candidates[size_t(current[size_t(touched[0])])] == g) continue;
      double saving = -sp.cost[c];
      parts.clear();
      bool ok = true;
      for (int k : touched) {
        const StmtSet& kernel = sp.candidates[size_t(current[size_t(k)])];
        saving += sp.cost[size_t(current[size_t(k)])];
        const StmtSet rest = kernel.minus(g);
        if (rest.count() > 0) ok = ok && remnant(rest, parts);
        if (!ok) break;
      }
      if (!ok) continue;
      for (int q : parts) saving -= sp.cost[size_t(q)];
      if (saving > bestSaving) bestSaving = saving, best = int(c), bestParts = parts;
    }
    if (best < 0) break;
    if (!replaceIfOrdered(fg, sp, current, best, bestParts)) {
      rejected.insert(best);
      continue;
    }
    indexKernels(sp, current, kernelOf);
  }
  return current;
}

CandidateSpace candidateSpace(const CostModel& cm, const SearchOptions& opt, double secondsBudget, SpaceUse use) {
  const auto t0 = Clock::now();
  const int n = cm.graph().size();
  const bool typed = opt.strategy == Strategy::Typed;
  const bool recompute = recomputes(cm, opt);
  CandidateSpace sp;
  // Every connected group that may still grow legal is visited: the space is complete
  // unless a size cap is asked for or the clock or the count stops it (the note says).
  int maxSize = opt.candidateMaxSize > 0 ? opt.candidateMaxSize : n;
  // The time limit bounds the whole search: the baselines first (they are the floor
  // the answer never goes below), with 40% of it but at least kBaselineSeconds, then
  // enumeration and costing, then CBC with what is left. On programs of hundreds of
  // statements the baselines take milliseconds; on a long one a rule cut short still
  // groups what it reached.
  std::vector<std::vector<StmtSet>> baselines;
  const RuleLimits limits = RuleLimits::after(t0, std::max(0.4 * secondsBudget, kBaselineSeconds));
  if (!typed)
    for (Strategy s : kBaselines) baselines.push_back(*ruleGroups(cm, s, limits));
  std::vector<StmtSet> kept;
  // Each baseline's modeled time where it honours the options (infinity where not). The
  // best bounds the optimum from above: a kernel slower than all of it is in no optimal
  // partition (nor, with --top, in the next best).
  std::vector<double> baselineUs;
  for (auto& b : baselines) {
    double total = opt.maxKernels > 0 && int(b.size()) > opt.maxKernels ? std::numeric_limits<double>::infinity() : 0;
    for (auto& g : b) {
      const std::optional<double> t = satisfiesConstraints(g, opt) ? cm.modeledUs(g) : std::nullopt;
      total = t ? total + *t : std::numeric_limits<double>::infinity();
    }
    baselineUs.push_back(total);
  }
  double ceilingUs = std::numeric_limits<double>::infinity();
  if (opt.topK <= 1)
    for (double total : baselineUs) ceilingUs = std::min(ceilingUs, total);
  // The enumeration stops at kEnumerationShare of the budget: the rest is for the
  // descent and the ILP, which turn candidates into a plan.
  std::vector<StmtSet> cands = enumerateCandidates(cm, maxSize, kMaxEnumerated, typed, sp.bound,
                                                   kEnumerationShare * secondsBudget - since(t0), recompute ? &kept : nullptr,
                                                   ceilingUs * (1 + 1e-9),
                                                   use == SpaceUse::Optimum && opt.topK <= 1 && opt.maxKernels == 0 &&
                                                       opt.mustFuse.empty());
  for (size_t c = 0; c < cands.size(); ++c)
    if (satisfiesConstraints(cands[c], opt)) {
      sp.candidates.push_back(cands[c]);
      if (recompute) sp.recomputed.push_back(kept[c]);
    }
  // The baselines' kernels are always candidates, so the search never does worse.
  // Candidate index of each group as a kernel that recomputes nothing.
  std::unordered_map<StmtSet, int, StmtSetHash> pos;
  for (size_t c = 0; c < sp.candidates.size(); ++c)
    if (!recompute || sp.recomputed[c].empty()) pos.emplace(sp.candidates[c], int(c));
  for (auto& b : baselines)
    for (auto& g : b)
      if (satisfiesConstraints(g, opt) && cm.modeledUs(g) && pos.emplace(g, int(sp.candidates.size())).second) {
        sp.candidates.push_back(g);
        if (recompute) sp.recomputed.push_back(StmtSet(n));
      }
  for (size_t c = 0; c < sp.candidates.size(); ++c)
    sp.cost.push_back(recompute ? cm.plan(sp.candidates[c], sp.recomputed[c], typed)->modeledUs
                                : *cm.modeledUs(sp.candidates[c], typed));
  // Best baseline that honours the constraints: the MIP start and the fallback. Each of
  // its kernels is a candidate (added above), its cost the time summed in baselineUs.
  for (size_t b = 0; b < baselines.size(); ++b) {
    if (!(baselineUs[b] < sp.startCost)) continue;
    std::vector<int> idx;
    for (auto& g : baselines[b]) idx.push_back(pos.at(g));
    sp.startCost = baselineUs[b];
    sp.start = std::move(idx);
  }
  // The start improved by merging its kernels where candidates say it pays, within half
  // of what the budget has left (it ends by itself long before on every model tried:
  // MiniLM-L12 from 169 kernels to 109, the ILP's optimum, in 0.3 s).
  if (!sp.start.empty() && !typed && opt.strategy != Strategy::Maxfuse && opt.maxKernels == 0) {
    auto keepIfFaster = [&](std::vector<int> start) {
      double total = 0;
      for (int c : start) total += sp.cost[size_t(c)];
      if (!(total < sp.startCost - 1e-9 * std::max(1.0, sp.startCost))) return;
      sp.start = std::move(start);
      sp.startCost = total;
      sp.startMerged = true;
    };
    keepIfFaster(mergeDescent(cm, sp, 0.5 * std::max(0.0, secondsBudget - since(t0))));
    if (sp.bound != CandidateBound::None)
      keepIfFaster(exchangeDescent(cm, sp, pos, 0.5 * std::max(0.0, secondsBudget - since(t0))));
  }
  sp.note = std::to_string(sp.candidates.size()) + " candidate kernels";
  if (recompute) {
    int variants = 0;
    for (auto& r : sp.recomputed) variants += !r.empty();
    sp.note += " (" + std::to_string(variants) + " recompute a producer)";
  } else if (opt.recompute && opt.strategy == Strategy::Ilp && n > kMaxRecomputeStatements &&
             cm.graph().anyRecomputable()) {
    sp.note += " (recomputation not searched: more than " + std::to_string(kMaxRecomputeStatements) + " statements)";
  }
  switch (sp.bound) {
    case CandidateBound::None: break;
    case CandidateBound::Size: sp.note += " (bounded: kernels of at most " + std::to_string(maxSize) + " statements)"; break;
    case CandidateBound::Count:
      sp.note += " (bounded: the enumeration stopped after " + std::to_string(kMaxEnumerated) + " groups)";
      break;
    case CandidateBound::TimeLimit: sp.note += " (bounded: the enumeration stopped at the time limit)"; break;
  }
  if (limits.cut) sp.note += " (the time limit stopped the baselines' rules early)";
  if (limits.capped)
    sp.note += " (the baselines' rules built no kernel of more than " + std::to_string(kMaxRuleKernelStatements) +
               " statements)";
  return sp;
}

// The plan's proven lower bound on modeled time and its gap (SolverInfo): the optimum
// where the status says so, else the better of the solver's bound and the model's own.
static void proveBound(const CostModel& cm, Partition& p, double solverBound) {
  SolverInfo& s = p.solver;
  s.hasBound = true;
  s.bestBoundUs = s.status == SolverStatus::Optimal
                      ? p.modeledUs
                      : std::min(p.modeledUs, std::max(cm.modeledLowerBoundUs(), solverBound));
  s.gap = p.modeledUs > 0 ? (p.modeledUs - s.bestBoundUs) / p.modeledUs : 0.0;
}

Partition search(const CostModel& cm, const SearchOptions& opt) {
  const FusionGraph& fg = cm.graph();
  const int n = fg.size();
  bool constrained = !opt.neverFuse.empty() || !opt.mustFuse.empty() || opt.maxKernels > 0;
  if (opt.topK < 1) throw UsageError("--top must be at least 1");
  if (opt.topK > 1 && opt.strategy != Strategy::Ilp) throw UsageError("--top applies to the ilp strategy");
  if (constrained && opt.strategy != Strategy::Ilp && opt.strategy != Strategy::Exhaustive)
    throw UsageError("--never-fuse, --fuse and --max-kernels apply to the ilp and exhaustive strategies");
  for (auto& [a, b] : opt.neverFuse)
    for (auto& [c, d] : opt.mustFuse)
      if ((a == c && b == d) || (a == d && b == c))
        throw UsageError("S" + std::to_string(a) + " and S" + std::to_string(b) + " are both fused and never fused");
  auto t0 = Clock::now();
  Partition p;
  const RuleLimits limits = RuleLimits::after(t0, std::max(opt.timeLimitSeconds, kBaselineSeconds));
  if (std::optional<std::vector<StmtSet>> groups = ruleGroups(cm, opt.strategy, limits)) {
    p = cm.assemble(opt.strategy, *groups);
    p.solver = {"none", limits.cut ? SolverStatus::TimeLimit : SolverStatus::Heuristic, since(t0), limits.note()};
    return p;
  }
  if (opt.strategy == Strategy::Exhaustive) {
    if (n > opt.exhaustiveLimit)
      throw UsageError("the exhaustive strategy enumerates every partition and refuses programs of more than " +
                       std::to_string(opt.exhaustiveLimit) + " statements (this one has " + std::to_string(n) +
                       "); use ilp");
    size_t visited = 0;
    auto [groups, kept] = exhaustive(cm, opt, visited);
    if (groups.empty()) throw UsageError("no partition satisfies the fusion constraints");
    p = cm.assemble(Strategy::Exhaustive, groups, kept);
    p.solver = {"enumeration", SolverStatus::Optimal, since(t0), std::to_string(visited) + " partitions"};
    proveBound(cm, p, p.modeledUs);
    return p;
  }
  // ILP-based strategies: set partitioning over enumerated candidate kernels.
  const CostModel::ShapeStats before = cm.shapeStats();
  bool typed = opt.strategy == Strategy::Typed;
  // The search stops short of the limit by what turning its answer into a plan takes
  // (a MiniLM-L12 plan of 169 kernels: 0.16 s), so that the limit bounds the command.
  const double budget = opt.timeLimitSeconds * (1 - kFinishShare);
  CandidateSpace space = candidateSpace(cm, opt, budget);
  const std::vector<StmtSet>& filtered = space.candidates;
  const std::vector<double>& cost = space.cost;
  const std::vector<int>& start = space.start;
  const double startCost = space.startCost;
  std::string note = space.note;
  // The chosen candidates as kernels, with what each recomputes.
  auto kernelsOf = [&](const std::vector<int>& chosen) {
    std::pair<std::vector<StmtSet>, std::vector<StmtSet>> k;
    for (int c : chosen) {
      k.first.push_back(filtered[c]);
      if (!space.recomputed.empty()) k.second.push_back(space.recomputed[c]);
    }
    return k;
  };
  // The start, assembled before the ILP: the answer where the ILP finds nothing better
  // in time, and the measure of what assembling the ILP's answer will take (a MiniLM-L12
  // plan: 0.3 s), which the ILP leaves.
  std::optional<Partition> startPlan;
  double assembleSeconds = 0;
  if (!space.start.empty() && !typed && opt.strategy != Strategy::Maxfuse) {
    const auto ta = Clock::now();
    const auto [g, k] = kernelsOf(space.start);
    startPlan = cm.assemble(opt.strategy, g, k, typed);
    assembleSeconds = since(ta);
  }
  const double left = budget - since(t0) - assembleSeconds;
  IlpResult r;
  if (opt.strategy == Strategy::Maxfuse || typed) {
    // Fewest kernels first, then the cheapest among those.
    std::vector<double> unit(filtered.size(), 1.0);
    IlpResult count = solvePartitionIlp(cm, filtered, unit, 0, left, {});
    if (count.chosen.empty()) {
      // No incumbent within the limit: the best baseline below, never "no partition".
      if (start.empty())
        throw UsageError(std::string("no partition found for ") + strategyName(opt.strategy) + ": " + solverStatusName(count.status));
      r = count;
    } else {
      r = solvePartitionIlp(cm, filtered, cost, int(count.chosen.size()), left - count.seconds, count.chosen);
      if (r.chosen.empty()) r.chosen = count.chosen;
      r.seconds += count.seconds;
      if (count.status != SolverStatus::Optimal) r.status = count.status;
    }
  } else {
    r = solveWithRecomputation(cm, space, opt.maxKernels, left, note);
  }
  std::vector<StmtSet> groups;
  SolverStatus status = r.status;
  // Optimal over an incomplete candidate space proves nothing about the program.
  if (space.bound == CandidateBound::TimeLimit) status = SolverStatus::TimeLimit;
  else if (space.bound != CandidateBound::None && status == SolverStatus::Optimal) status = SolverStatus::Bounded;
  if (r.chosen.empty()) {
    if (start.empty()) throw UsageError(std::string("no partition satisfies the fusion constraints (") + solverStatusName(r.status) + ")");
    r.chosen = start;
    if (r.status == SolverStatus::TimeLimit) {
      note += space.startMerged ? "; no solution within the time limit: the best baseline, its kernels merged (or regrouped) where "
                                  "candidates model faster, is returned"
                                : "; no solution within the time limit: the best baseline is returned";
    } else {
      // The baseline satisfies the constraints, so "infeasible" would contradict the plan
      // returned: the candidates the solver saw missed it.
      status = SolverStatus::Heuristic;
      note += "; the solver's candidates hold no partition that satisfies the constraints: the best baseline that does is returned";
    }
  } else if (!typed && opt.strategy != Strategy::Maxfuse && !start.empty()) {
    // An incumbent found under a time limit may be worse than the MIP start CBC was
    // given: never answer worse than a baseline.
    // Sums of the same costs in another order differ in the last bits: an optimum equal
    // to the start is not worse than it.
    double chosenCost = 0;
    for (int c : r.chosen) chosenCost += cost[c];
    if (chosenCost > startCost + 1e-9 * std::max(1.0, startCost)) {
      r.chosen = start;
      // The note names what happened as the status does: an optimum CBC proved within its
      // own tolerances is not an incumbent cut short by the clock.
      note += status == SolverStatus::Optimal
                  ? "; the solver's optimum, within its numerical tolerances, modeled above the best baseline, which is returned"
                  : space.startMerged ? "; the solver's incumbent at the time limit was worse than its start (the best baseline, "
                                        "its kernels merged (or regrouped) where candidates model faster), which is returned"
                                      : "; the solver's incumbent at the time limit was worse than the best baseline, which is returned";
    }
  }
  std::vector<StmtSet> kept;
  std::tie(groups, kept) = kernelsOf(r.chosen);
  p = startPlan && r.chosen == start ? *startPlan : cm.assemble(opt.strategy, groups, kept, typed);
  if (r.cycleCuts) note += ", " + std::to_string(r.cycleCuts) + " cycle cuts";
  if (opt.topK > 1) {
    // The K best distinct partitions: each found partition becomes a no-good cut (its
    // candidates may not all be chosen again) and CBC solves again.
    auto alternative = [](const Partition& q) {
      Alternative a;
      for (auto& k : q.kernels) {
        a.kernels.push_back(k.statements);
        a.recomputed.push_back(k.recomputed);
      }
      a.modeledUs = q.modeledUs;
      return a;
    };
    p.alternatives.push_back(alternative(p));
    std::vector<std::vector<int>> found = {r.chosen};
    while (int(p.alternatives.size()) < opt.topK) {
      IlpResult next =
          solvePartitionIlp(cm, filtered, cost, opt.maxKernels, budget - since(t0), {}, found, space.recomputed);
      if (next.chosen.empty()) {
        note += next.status == SolverStatus::Infeasible ? "; only " + std::to_string(p.alternatives.size()) + " partitions exist"
                                            : "; the time limit stopped the alternatives at " +
                                                  std::to_string(p.alternatives.size());
        break;
      }
      auto [g, r2] = kernelsOf(next.chosen);
      p.alternatives.push_back(alternative(cm.assemble(opt.strategy, g, r2)));
      found.push_back(next.chosen);
      if (next.status != SolverStatus::Optimal) {
        note += "; the last alternative is the best found at the time limit, not proven";
        break;
      }
    }
    std::stable_sort(p.alternatives.begin() + 1, p.alternatives.end(),
                     [](const Alternative& a, const Alternative& b) { return a.modeledUs < b.modeledUs; });
  }
  p.solver = {"cbc", status, since(t0), note};
  p.solver.pricedGroups = cm.shapeStats().priced - before.priced;
  p.solver.sharedGroups = cm.shapeStats().shared - before.shared;
  // A bound over the candidates proves something of the program only when they are all
  // its kernels.
  if (!typed && opt.strategy != Strategy::Maxfuse)
    proveBound(cm, p, space.bound == CandidateBound::None ? r.bestBound : -std::numeric_limits<double>::infinity());
  return p;
}

}  // namespace polyfuse

// Partition search: the strategies of the design (nofuse, greedy, bytes-greedy,
// maxfuse, typed, ilp, exhaustive). See docs/strategies.md for each rule's source.
#pragma once
#include <string>
#include <utility>
#include <limits>
#include <vector>

#include "fusion/CostModel.h"

namespace polyfuse {

struct SearchOptions {
  Strategy strategy = Strategy::Ilp;
  std::vector<std::pair<int, int>> neverFuse, mustFuse;  // statement ids
  int maxKernels = 0;                                    // 0: no limit
  double timeLimitSeconds = 60;
  int exhaustiveLimit = 10;                              // statements
  int candidateMaxSize = 0;                              // 0: automatic
  int topK = 1;                                          // ilp: also find the K best distinct partitions
  // ilp and exhaustive: an elementwise temporary (FusionGraph::recomputable) may be
  // computed again in each kernel that uses it instead of stored once and read back.
  bool recompute = true;
};

// What stopped the candidate enumeration before it had every group that may be a
// legal kernel; with None the space is complete and the ILP's optimum is the program's.
enum class CandidateBound { None, Size, Count, TimeLimit };
// Groups visited before the enumeration stops growing them (CandidateBound::Count).
constexpr size_t kMaxEnumerated = 400000;

// The ILP's search space, enumerated and costed once: the candidate kernels that honour
// the options' constraints (the baselines' kernels always among them) with their
// modeled times, and the best baseline as a start. `--explain` reuses it for every pair.
struct CandidateSpace {
  std::vector<StmtSet> candidates;
  // Per candidate: the members it recomputes for its own use and does not store (empty
  // sets without recomputation). One group may appear with several such sets.
  std::vector<StmtSet> recomputed;
  std::vector<double> cost;
  std::vector<int> start;  // candidate indices of the best baseline; empty when none fits
  double startCost = 1e300;
  bool startMerged = false;  // the start is the baseline with kernels merged or regrouped (mergeDescent, exchangeDescent)
  CandidateBound bound = CandidateBound::None;  // what, if anything, cut the enumeration short
  std::string note;        // "N candidate kernels" and the bound that applied, if any
};
// What a candidate space is for: the optimum alone (groups that no optimal partition
// holds may be left out), or the best partition under each fusion `--explain` forces
// (every legal group kept).
enum class SpaceUse { Optimum, ForcedFusions };
CandidateSpace candidateSpace(const CostModel& cm, const SearchOptions& opt, double secondsBudget,
                              SpaceUse use = SpaceUse::Optimum);

// Throws UsageError for an unknown strategy, a program above the exhaustive limit,
// or constraints that no partition satisfies.
Partition search(const CostModel& cm, const SearchOptions& opt);

// Connected, convex groups that are legal kernels, smallest first; `bound` says what
// cut the enumeration short: the size cap, the count of groups visited, or
// `secondsBudget` (the groups found so far are returned).
// With `recomputedOut`, each group comes once per legal choice of the members it
// recomputes (recomputableIn), the choice appended there. `ceilingUs`, the modeled time
// of a known partition: a set whose every legal superset is a kernel of one block slower
// than that (CostModel::oneBlockFloorUs) is in no optimal partition, and not grown.
// With `dominance`, a group whose every plan is slower than its members' kernels alone
// (each candidate's floor above the sum of their times) is not priced nor returned: in
// any partition those kernels take its place faster (see candidateSpace), so no
// optimal partition holds it.
std::vector<StmtSet> enumerateCandidates(const CostModel& cm, int maxSize, size_t maxCount, bool noParallelismLoss,
                                         CandidateBound& bound, double secondsBudget = 1e300,
                                         std::vector<StmtSet>* recomputedOut = nullptr,
                                         double ceilingUs = std::numeric_limits<double>::infinity(),
                                         bool dominance = false);
// The members a kernel of this group may recompute instead of store: recomputable,
// used both inside the group and outside it.
StmtSet recomputableIn(const FusionGraph& fg, const StmtSet& group);

// Set partitioning over candidates with CBC; cycles between kernels are cut lazily.
struct IlpResult {
  std::vector<int> chosen;   // candidate indices
  SolverStatus status = SolverStatus::TimeLimit;  // optimal | time_limit | infeasible
  double seconds = 0;
  int cycleCuts = 0;
  // CBC's proven lower bound on the objective over the candidates, the best of every
  // round (each round's model, cycle cuts and all, is a relaxation of the acyclic
  // problem); -infinity when no round got one.
  double bestBound = -std::numeric_limits<double>::infinity();
};
// `exclude`: candidate sets that may not be chosen together again (no-good cuts: the
// partitions already found, for the K best).
// `recomputed` (per candidate, or empty): with it the model is a set cover, where a
// recomputable statement may be in several chosen kernels, stored by at most one, and
// stored whenever a chosen kernel reads it without computing it.
IlpResult solvePartitionIlp(const CostModel& cm, const std::vector<StmtSet>& cands, const std::vector<double>& cost,
                            int maxKernels, double timeLimitSeconds, const std::vector<int>& start,
                            const std::vector<std::vector<int>>& exclude = {},
                            const std::vector<StmtSet>& recomputed = {});

// Every legal partition (kernels connected, convex, legal on a grid, acyclic), sorted by
// modeled time; at most `limit`, with `more` set when there are others.
std::vector<Partition> legalPartitions(const CostModel& cm, size_t limit, bool& more, bool recompute = true);

// Kernel index of each statement's group in a cyclic quotient, or empty when acyclic.
std::vector<int> findKernelCycle(const FusionGraph& fg, const std::vector<StmtSet>& groups,
                                 const std::vector<StmtSet>& recomputed = {});


}  // namespace polyfuse

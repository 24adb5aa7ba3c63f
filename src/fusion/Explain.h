// Why each dependence edge and each sibling pair is fused or not.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "fusion/Search.h"

namespace polyfuse {

// What connects a pair of statements: a dependence, or only an input both read.
enum class PairKind { Dependence, Sibling };
inline constexpr EnumName<PairKind> kPairKindNames[] = {{PairKind::Dependence, "dependence"},
                                                        {PairKind::Sibling, "sibling"}};
inline const char* pairKindName(PairKind k) { return nameIn(kPairKindNames, k); }

// Why a pair is fused or kept apart (docs/cost-model.md, "Explanations").
enum class Verdict {
  Fused,         // one kernel
  Illegal,       // no legal kernel holds both (a dependence forbids every grid)
  NotConvex,     // every kernel holding both would contain a path that leaves it
  OverCapacity,  // fused, the temporaries spill to global scratch and cost more
  Costlier,      // the best plan that fuses them models a longer time
  Rule,          // the strategy's rule keeps them apart although fusing is not costlier
  Unsettled      // the time budget ran out before the best plan that fuses them was found
};
inline constexpr EnumName<Verdict> kVerdictNames[] = {
    {Verdict::Fused, "fused"},         {Verdict::Illegal, "illegal"},   {Verdict::NotConvex, "not-convex"},
    {Verdict::OverCapacity, "over-capacity"}, {Verdict::Costlier, "costlier"}, {Verdict::Rule, "rule"},
    {Verdict::Unsettled, "unsettled"}};
inline const char* verdictName(Verdict v) { return nameIn(kVerdictNames, v); }

struct Decision {
  PairKind kind = PairKind::Dependence;
  int a = 0, b = 0;       // statements
  std::string tensors;    // the tensors that connect them
  bool fused = false;
  Verdict verdict = Verdict::Fused;
  std::string reason;     // one sentence
  double fusedUs = -1, chosenUs = -1;  // modeled time with the pair fused (best such plan) and as chosen
  // Costlier and OverCapacity: the best fused plan's terms minus the chosen plan's, and
  // the term whose increase is largest (what decides against fusing).
  bool hasTerms = false;
  CostTerms termDeltas;
  CostTerm deciding = CostTerm::Memory;
};

// A statement computed in several kernels instead of stored once: what that plan models
// against the best plan that stores every value (`--no-recompute`).
struct Recomputation {
  int stmt = 0;
  std::vector<int> kernels;  // kernel ids that compute it
  bool stored = false;       // one of them also stores it for other kernels
  double chosenUs = 0, storedUs = 0;
};
std::vector<Recomputation> explainRecomputation(const CostModel& cm, const Partition& chosen, const SearchOptions& opt,
                                                double secondsBudget = 1e300);
// "S1 recomputed in K1 and K2 instead of stored: 52.58 us against 75.11 us"
std::string recomputationText(const Program& prog, const Recomputation& r);

// A sum streamed beside its maximum (docs/streaming.md): the kernel as chosen, and the
// same kernel (grid, tile, threads) with every pass kept.
struct Streaming {
  int kernel = 0;
  int sum = 0, max = 0;  // statements
  double chosenUs = 0;
  // The same kernel with every pass kept; none where no such kernel runs on its grid (a
  // streamed tile's scores, never stored, have no two-pass form within one kernel).
  std::optional<double> twoPassUs;
};
std::vector<Streaming> explainStreaming(const CostModel& cm, const Partition& chosen);
// A streamed tile split over its maximum's reduction, or a tiled contraction over its
// own (split-K), against the same tile whole.
struct StreamSplit {
  int kernel = 0;
  int max = 0;  // the statement split (the maximum, or the contraction)
  int64_t chunks = 0, chunk = 0;
  double chosenUs = 0;
  std::optional<double> wholeUs;  // none where no whole tile fits the grid
};
std::vector<StreamSplit> explainStreamSplits(const CostModel& cm, const Partition& chosen);
// A member the plan runs as a tiled contraction (ContractionTile), as the plan states it.
struct TiledContraction {
  int kernel = 0;
  int stmt = 0;
  ContractionTile tile;
  std::vector<int> epilogue;  // statements
  int64_t kChunk = 0;         // KernelPlan::kChunk
};
std::vector<TiledContraction> explainContractions(const Partition& chosen);
// "K0 tiles S0 in 128x128 blocks on tensor cores (mma.sync TF32, warps of 64x32 outputs),
// the reduction staged 16 steps at a time in 2 buffers; S1, S2 applied to its accumulators"
std::string contractionText(const Program& prog, const TiledContraction& c);
// "K0 splits S2's reduction in 4 chunks of 1024: 104.6 us against 138.8 us whole on the same grid"
std::string streamSplitText(const Program& prog, const StreamSplit& s);
// "S2 streams in S0's loop in K0: 2974.86 us against 5952.51 us with every pass kept"
std::string streamingText(const Program& prog, const Streaming& s);

// `opt` is the search that produced `chosen`. The best partition that fuses each pair is
// found by the exact search over one candidate space, enumerated and costed once. All of
// it within `secondsBudget`: a pair the budget no longer reaches is `unsettled`.
std::vector<Decision> explain(const CostModel& cm, const Partition& chosen, const SearchOptions& opt,
                              double secondsBudget = 1e300);

}  // namespace polyfuse

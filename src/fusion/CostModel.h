// The cost model: footprints as box hulls of access images at concrete sizes,
// DRAM and L2 bytes, flops, occupancy, and modeled time. See docs/cost-model.md.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "fusion/Device.h"
#include "fusion/FusionGraph.h"
#include "fusion/KernelPlan.h"
#include "polyir/Rescale.h"
#include "polyir/Sized.h"

namespace polyfuse {

// One element of a group's candidate set: a grid assignment (dims[k][t]: the parallel
// dimension of member k on grid coordinate t), a tile of the grid, and the chunks of a
// split reduction (1: none).
struct GridCandidate {
  std::vector<std::vector<int>> dims;
  std::vector<int64_t> tile;
  int64_t chunks = 1;
};

class CostModel {
 public:
  CostModel(const FusionGraph& fg, const Sizes& sizes, const Device& dev);

  const FusionGraph& graph() const { return fg_; }
  const Device& device() const { return dev_; }
  const Sizes& sizes() const { return at_.sizes(); }
  const SizedProgram& at() const { return at_; }
  const SizedStatement& sized(int s) const { return at_.statement(s); }

  // The documented constants of the grid and tile candidates (docs/cost-model.md).
  static constexpr int kWarp = 32;                 // threads per warp: a block's thread-count unit
  // CUDA's most threads a block: what a wide block may take (price), beyond the device's
  // threads_per_block, when its shared memory leaves one block an SM.
  static constexpr int kMaxBlockThreads = 1024;
  static constexpr int kTiledGridCoords = 2;       // only the innermost two grid coordinates are tiled
  // Unanchored siblings (gridAssignments) take every orientation up to this many
  // assignments a rank, then pair the loops their shared tensor leaves free in order.
  static constexpr size_t kMaxUnanchoredAssignments = 1024;
  static constexpr int64_t kMaxTile1D = 1024;      // largest tile of a one-dimensional grid
  static constexpr int64_t kMaxTileND = 64;        // largest tile per coordinate of a wider grid
  static constexpr int64_t kMaxTilePoints = 4096;  // largest tile, in grid points
  static constexpr int64_t kWideTile = 128;        // a tensor-core contraction's (128 x 128 points)
  static constexpr int64_t kMinSplitChunk = 256;   // a split reduction's chunks hold at least this many points
  static constexpr int64_t kMaxSplitChunks = 4096;
  static constexpr double kSectorBytes = 32;       // DRAM moves whole 32-byte sectors
  // Registers per thread assumed for occupancy: what ptxas gives the generated kernels
  // (sm_90, 256 threads; test/lit/cuda/occupancy.test checks it stays true; the launch
  // bounds hold them to the planned blocks per SM), and the static shared memory beside
  // the on-chip arrays: a block reduction's per-warp partials, two halves of 32 slots in
  // the compute type (codegen alternates them so one barrier suffices).
  static constexpr int kEstimatedRegisters = 32;
  // ...and 8 more for each 16-byte vector beyond two that one step of a member loads at
  // once (SkipLayerNorm's h = X + R + bias holds three float4s: ptxas wants 38).
  static constexpr int kRegistersPerExtraVector = 8;
  static constexpr int64_t kReduceScratchSlots = 64;
  // A tiled contraction (ContractionTile): 4 x 4 outputs a thread, the reduction staged
  // 16 steps at a time.
  static constexpr int kMicroTile = 4;
  // A tensor-core tile's wider warp tiles (64 x 32 outputs, 64 a thread): a 128 x 128
  // tile in 256 threads, which reads each operand half as often from L2 as 64 x 64.
  static constexpr int kWideMicroTile = 8;
  static constexpr int64_t kContractionStep = 16;
  // Its staged slices in 2 buffers (ContractionTile::stages) where they fit CUDA's static
  // shared memory: a step's copies run while the step before computes. `--stages` allows
  // up to kMaxContractionStages (dynamic shared memory, as long as they cost no block an
  // SM); on the H200 four measured as two (bench/RESULTS.md, "fourth lease").
  static constexpr int kDefaultContractionStages = 2;
  static constexpr int kMaxContractionStages = 4;
  // A row kept in registers holds at most this many elements a thread (OneFlow's
  // warp-per-row softmax keeps 1,024 floats a warp: 32 a thread).
  static constexpr int64_t kMaxRegisterRow = 32;
  // Registers of a kernel with rows in registers, besides the rows: what ptxas gives the
  // generated norms (sm_90, test/lit/cuda/inspect_occupancy.test), and 4 for each global
  // vector beyond one that a step loads, once per unrolled step.
  static constexpr int kRowKernelRegisters = 16;
  static constexpr int kRegistersPerVectorStep = 4;
  // A streamed tile (KernelPlan::streamTile): at least this many rows a block, staged
  // reads and extra dimensions of at most kMaxStagedInner points.
  static constexpr int64_t kMinStreamRows = 8;
  static constexpr int64_t kMaxStagedInner = 256;
  // A streamed tile split along the maximum's reduction: at most this many chunks (a
  // decode step's 32 heads take 256 to fill an H100 with loads in flight), each
  // of at least kMinStreamChunk points (a few steps, so that a block's staging pays off).
  static constexpr int64_t kMaxStreamChunks = 256;
  static constexpr int64_t kMinStreamChunk = 128;

  // The cheapest plan for the group as one kernel, over its whole candidate set; none
  // when the group is not connected, not convex, or has no legal grid. With
  // `noParallelismLoss`, every statement must keep all its parallel dims on the grid.
  // Answers come from a memo that lives as long as the model: the search prices the same
  // groups many times, and copies of plans were half its time.
  const std::optional<KernelPlan>& plan(const StmtSet& group, bool noParallelismLoss = false) const;
  // The same, where the kernel keeps the values of `recomputed` (members that other
  // kernels compute too) to itself: they are not stored, and other kernels' uses of them
  // do not make the group non-convex.
  const std::optional<KernelPlan>& plan(const StmtSet& group, const StmtSet& recomputed,
                                        bool noParallelismLoss = false) const;
  // The modeled time of `plan(group)`, priced once per shape: groups whose key
  // (shapeKey) is equal have equal plans up to renaming (src/fusion/GroupShape.cpp).
  std::optional<double> modeledUs(const StmtSet& group, bool noParallelismLoss = false) const;
  // The same, or none without pricing it when every plan of the group is slower than
  // `ceilingUs` (each candidate's floor above it); that answer is not remembered.
  std::optional<double> modeledUsBelow(const StmtSet& group, bool noParallelismLoss, double ceilingUs) const;
  // Everything `plan` reads of a connected, convex group, with its statements and
  // tensors renamed by their order in it.
  std::string shapeKey(const StmtSet& group) const;
  // Groups `modeledUs` priced, groups it answered from an earlier one of their shape,
  // and groups modeledUsBelow left unpriced, every plan of theirs above the ceiling.
  struct ShapeStats {
    size_t priced = 0, shared = 0, dominated = 0;
  };
  ShapeStats shapeStats() const { return shapeStats_; }

  // False when no group holding all of `must` can have a legal grid: their internal
  // dependences keep no grid coordinate in common, and a larger group only adds
  // dependences. The enumeration passes what every legal superset of its set must hold,
  // the convex hull (or with recomputation, where kernels need not be convex, the set
  // itself), which bounds it exactly (docs/strategies.md, "The ILP").
  bool mayGrowLegal(const StmtSet& must) const;
  // Whether some grid of rank 1 keeps every internal dependence of the group (the
  // graph's bitmask network; gridAssignments where that does not apply).
  bool anyRankOneGrid(const StmtSet& group) const;
  // What any legal kernel holding `must` takes at least, when every such kernel is one
  // block (no grid of rank 1 keeps must's dependences: only a member without parallel
  // dimensions makes it legal, on a grid of rank 0); 0 otherwise (PlanFloor.cpp).
  double oneBlockFloorUs(const StmtSet& must) const { return oneBlockBound(must, false).floorUs; }
  // True when every legal kernel holding `must` is one block and slower than its
  // members as kernels alone, so in no optimal partition (PlanFloor.cpp): such a kernel
  // holds the hull C of must and a member z without parallel dimensions, and with w(s)
  // the arithmetic of s at one block's rate less its time alone, sum_K w > -launch
  // already for the least K the convex sets around C allow.
  bool oneBlockDominated(const StmtSet& must) const { return oneBlockBound(must, true).dominated; }
  // Both at once, on one grid check and one hull per member without parallel
  // dimensions (the enumeration asks both of every set); `dominance` false skips the second.
  struct OneBlockBound {
    double floorUs = 0;
    bool dominated = false;
  };
  OneBlockBound oneBlockBound(const StmtSet& must, bool dominance) const;
  // The group's candidate set, in the order `plan` tries it: grid ranks from the
  // largest, every legal assignment, every tile in the menus, every split.
  std::vector<GridCandidate> gridCandidates(const StmtSet& group, bool noParallelismLoss = false,
                                            const StmtSet& recomputed = {}) const;
  // What every plan of a group moves and computes, whatever its grid (PlanFloor.cpp):
  // DRAM bytes, the arithmetic's time at full rate, the most chunks a split may add.
  struct GroupFloor {
    double dramBytes = 0, computeUs = 0;
    int64_t maxChunks = 1;
  };
  GroupFloor groupFloor(const std::vector<int>& members, const std::vector<int>& recomputed) const;
  // The statements' arithmetic at full rate, each at the faster rate it may run at.
  double arithmeticFloorUs(const std::vector<int>& statements) const;
  // No plan of candidate c is faster than this; the second form takes the grid's
  // extents and c's tile (g values) and chunks.
  double floorUs(const GroupFloor& f, const std::vector<int>& members, const GridCandidate& c) const;
  double floorUs(const GroupFloor& f, const std::vector<int64_t>& extents, const int64_t* tile, int64_t chunks) const;
  // One candidate costed: grid shape, thread mapping, footprints and placement, time.
  // None when the candidate splits a reduction its threads would not share. With
  // `threadDims`, the thread mapping is given instead of chosen.
  // `stream`: whether sums stream beside their maxima where they can (replan keeps the
  // modeled plan's choice); unset: where it is faster. `columns`: whether reductions run
  // down a column tile (RowMapping::ColumnTile, where columnCoord finds one); unset:
  // where it is faster (at equal time, not). `mapping`: ColumnTile or StreamedTile asks
  // for that mapping alone, any other the threads' own; unset: the fastest of those the
  // model may take (a streamed tile where sums stream, only when strictly faster).
  std::optional<KernelPlan> evaluate(const std::vector<int>& members, const GridCandidate& c,
                                     const std::vector<int>* threadDims = nullptr,
                                     const std::vector<int>& recomputed = {},
                                     std::optional<bool> stream = std::nullopt,
                                     std::optional<RowMapping> mapping = std::nullopt) const;
  // Tile sizes tried on grid coordinate t of a rank-g grid of the given extent:
  // 1, then powers of two below twice the extent, up to kMaxTile1D or kMaxTileND, on
  // the innermost kTiledGridCoords coordinates.
  static std::vector<int64_t> tileMenu(int g, int t, int64_t extent, int64_t most);
  // The widest tile per coordinate of a wider grid, and in points, for this group:
  // tensor-core contractions (under --numerics tf32, or of f16 and bf16 operands) take
  // kWideTile, all else kMaxTileND.
  std::pair<int64_t, int64_t> tileLimits(const std::vector<int>& members) const;
  // Whether contractions may run on tensor cores: --numerics tf32 on a CUDA device with them.
  bool tensorCoresAllowed() const {
    return numerics_ == Numerics::Tf32 && dev_.tensorFlopsPerSec > 0 && !dev_.arch.empty();
  }
  // The tensor cores a statement's tile may run on (FmaUnits: none): a product of two
  // reads of one type in an f32 program, TF32 where tensorCoresAllowed, f16 and bf16
  // (their products exact in f32) on a CUDA device with them under any numerics but
  // strict. Whether the tile then takes them is the tile's shape's question.
  ContractionEngine tensorEngine(const Statement& st) const;
  // The same for a sum over one reduction of the product of two reads, of any shape (a
  // streamed tile's scores, Q K^T over heads): the engine its operands' types and the
  // numerics allow.
  ContractionEngine productEngine(const Statement& st) const;
  // Flops a second on that engine.
  double tensorRate(ContractionEngine e) const {
    return e == ContractionEngine::TensorCoresTf32 ? dev_.tensorFlopsPerSec : dev_.halfTensorFlopsPerSec;
  }
  // A sum over one reduction dim into a rank-2 output: what may tile as a matrix product.
  static bool contractionShaped(const Statement& st) {
    return st.numParallel == 2 && st.numReduction() == 1 && st.op == ReduceOp::Add;
  }
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
  // Whether kernels may stream a sum beside its maximum (docs/streaming.md); on unless
  // `--no-stream`. Set before the first plan: plans are memoized.
  void setStreams(bool on) { streams_ = on; }
  bool streams() const { return streams_; }
  // Whether reductions may run down column tiles (RowMapping::ColumnTile) where the
  // model finds them faster; on unless `--no-column-tiles`. Set before the first plan.
  void setColumnTiles(bool on) { columnTiles_ = on; }
  // Whether a streamed tile may split its maximum's reduction across blocks where its rows
  // alone leave SMs idle (docs/streaming.md, "Split streamed tiles"); on unless
  // `--no-stream-split`. Set before the first plan.
  void setStreamSplits(bool on) { streamSplits_ = on; }
  void setSplitK(bool on) { splitK_ = on; }
  // Whether a tiled contraction on the FMA units may take 8 x 8 micro-tiles (16 FMAs a
  // 128-bit shared load, 127 registers) as tensor cores' warp tiles may; off by default
  // until a GPU measures them against their model (`--wide-fma-tiles`). Set before the
  // first plan.
  void setWideFmaTiles(bool on) { wideFmaTiles_ = on; }
  // At most this many buffers of a tiled contraction's staged slices
  // (ContractionTile::stages; `--stages`, 1: stage a step, then compute it). Set before
  // the first plan.
  void setMaxStages(int n) { maxStages_ = n; }
  // `--numerics strict` (Numerics): only plans that round as the reference does, each
  // reduction serial in one thread, no split, no stream, no vector lanes. Set before the
  // first plan, as setStreams.
  void setNumerics(Numerics n) { numerics_ = n; }
  Numerics numerics() const { return numerics_; }
  bool strict() const { return numerics_ == Numerics::Strict; }
  // Kernel k priced again on its grid, tile and threads with every sum two-pass: with its
  // split where one remains legal, else unsplit (a maximum and its sum split together
  // only streamed).
  std::optional<KernelPlan> twoPass(const KernelPlan& k) const {
    // A streamed tile's two-pass form is the threads' own mapping on its grid.
    const std::vector<int>* threads = k.streamedTile() ? nullptr : &k.threadDims;
    const RowMapping mapping = k.columnTile() ? RowMapping::ColumnTile : RowMapping::Threads;
    if (auto p = evaluate(k.statements, {k.gridDims, k.tile, k.splitChunks}, threads, k.recomputed, false, mapping))
      return p;
    return evaluate(k.statements, {k.gridDims, k.tile, 1}, threads, k.recomputed, false, mapping);
  }
  // A split streamed tile, or a split-K contraction, priced again whole (one chunk) on
  // its grid and tile.
  std::optional<KernelPlan> unsplit(const KernelPlan& k) const {
    if (!k.streamedTile()) return evaluate(k.statements, {k.gridDims, k.tile, 1}, &k.threadDims, k.recomputed, false, RowMapping::Threads);
    return evaluate(k.statements, {k.gridDims, k.tile, 1}, nullptr, k.recomputed, true, RowMapping::StreamedTile);
  }
  // A lower bound on any partition's modeled time, whatever the search saw: one launch,
  // then the slower of the DRAM lower bound at full bandwidth and every statement's
  // flops at full throughput, on the tensor cores where a contraction may take them
  // (each kernel's time is at least its launch and each of those at full share, and a
  // partition moves at least the lower bound's bytes).
  double modeledLowerBoundUs() const;
  // A kernel's modeled time as the sum of its terms: the launch, then its binding
  // resource (memory, compute or on-chip loads) at full rate, and what the kernel loses
  // of that rate to a grid too small to fill the device and to too few loads in flight.
  CostTerms costTerms(const KernelPlan& kp) const;
  CostTerms costTerms(const Partition& p) const;
  int64_t tensorBytes(int t) const { return at_.tensorBytes(t); }
  // Orders groups topologically and totals their costs. With `recomputed` (one set per
  // group), a statement may be in several groups: see Partition.
  Partition assemble(Strategy strategy, const std::vector<StmtSet>& groups,
                     bool noParallelismLoss = false) const;
  Partition assemble(Strategy strategy, const std::vector<StmtSet>& groups, const std::vector<StmtSet>& recomputed,
                     bool noParallelismLoss = false) const;

 private:
  const FusionGraph& fg_;
  SizedProgram at_;
  Device dev_;
  std::vector<int> elemBytes_;
  int computeBytes_ = 4;  // the compute type's, as on-chip arrays hold it (Program::computeType scans the program)
  bool anyScalarStatement_ = false;  // some statement has no parallel dimension
  // Per statement z without parallel dimensions, what oneBlockDominated reads: w, and
  // the statements a one-block kernel holding z and faster than its members alone may
  // hold. Made on first use.
  struct OneBlockRegion {
    int z = -1;
    StmtSet allowed;
    double negative = 0;  // sum of min(w, 0) over allowed
  };
  mutable std::vector<double> oneBlockExcess_;
  mutable std::vector<OneBlockRegion> oneBlockRegions_;
  void makeOneBlockRegions() const;
  bool oneBlockDominatedWith(const StmtSet& hull, const OneBlockRegion& r) const;
  // flowSources_[s]: tensor -> statements whose values s reads through it
  std::vector<std::map<int, std::vector<int>>> flowSources_;
  std::vector<std::vector<int>> consumers_;  // per tensor: statements that read it via flow deps
  std::vector<std::vector<int>> depSources_;  // per statement: those it depends on (any kind), sorted
  std::vector<StreamChain> stream_;           // per statement: how it streams, when a sum that can
  bool streams_ = true;                       // --no-stream: false
  bool columnTiles_ = true;                   // --no-column-tiles: false
  bool streamSplits_ = true;                  // --no-stream-split: false
  bool splitK_ = true;                        // --no-split-k: false
  bool wideFmaTiles_ = false;                 // --wide-fma-tiles: true
  int maxStages_ = kDefaultContractionStages;  // --stages
  Numerics numerics_ = Numerics::Default;
  mutable std::unordered_map<StmtSet, std::optional<KernelPlan>, StmtSetHash> memo_[2];
  // Plans of groups that recompute members, keyed by the group followed by the members.
  mutable std::map<std::pair<StmtSet, StmtSet>, std::optional<KernelPlan>> recomputeMemo_[2];
  mutable std::unordered_map<std::string, std::optional<double>> shapeMemo_[2];
  mutable std::unordered_map<StmtSet, std::optional<double>, StmtSetHash> timeMemo_[2];
  mutable ShapeStats shapeStats_;

  // Each member's box in one block, and the length of its thread dimension there.
  struct BlockShape {
    std::vector<std::vector<int64_t>> lo, hi;
    std::vector<int64_t> run;
    std::vector<int64_t> work;  // per member: its points in one block
  };
  // Drops each member's tuples (`choices`, by position in `members`; `pos`: statement
  // to position) that no assignment holds; false when a member keeps none.
  bool consistentChoices(const std::vector<int>& members, const std::vector<int>& deps, const std::vector<int>& pos, int g,
                         std::vector<std::vector<std::vector<int>>>& choices) const;
  // The legal rank-g assignments, anchored (below); with `anyOne`, the first one the
  // dependences allow, or none.
  std::vector<std::vector<std::vector<int>>> gridAssignments(const std::vector<int>& members, int g,
                                                             bool anyOne = false) const;
  // Members that no internal dependence links to earlier ones (siblings: they share only
  // a tensor they read) would take every orientation independently, 2^k assignments
  // for k of them. Each such component is anchored to an earlier member that reads a
  // tensor it reads: on every grid coordinate, the two place the dims that index the
  // same subscript of that tensor (docs/cost-model.md, "Grid and tile candidates").
  struct SiblingAnchor {
    int earlier = -1, later = -1;               // positions in the group, earlier < later
    std::vector<int> earlierPos, laterPos;      // per parallel dim: the subscript it indexes, or -1
  };
  std::vector<SiblingAnchor> siblingAnchors(const std::vector<int>& members, const std::vector<int>& deps) const;
  std::pair<std::vector<int64_t>, std::vector<int64_t>> gridBounds(const std::vector<int>& members,
                                                                   const std::vector<std::vector<int>>& dims) const;
  // Per grid coordinate, the points gridBounds spans (0 where it spans none).
  std::vector<int64_t> gridExtents(const std::vector<int>& members, const std::vector<std::vector<int>>& dims) const;
  std::vector<int64_t> splitMenu(const std::vector<int>& members) const;
  // Per member, the dimension a split cuts into chunks: the reduction's last, and for
  // each elementwise producer the dimension its in-kernel readers index by their chunked
  // one. Empty when the group cannot split (docs/cost-model.md).
  std::vector<int> splitDims(const std::vector<int>& members) const;
  // The index in `members` of its only reduction; -1 with none or several.
  int splitRoot(const std::vector<int>& members) const;
  // The index in `members` of a sum streamed beside the split reduction; -1 if none.
  int splitPartner(const std::vector<int>& members) const;
  BlockShape shapeGrid(const std::vector<int>& members, const GridCandidate& c, KernelPlan& kp) const;
  // gridCandidates' set, each assignment and tile stored once.
  struct CandidateSet {
    std::vector<std::vector<std::vector<int>>> assignments;
    std::vector<std::vector<int64_t>> extents;  // per assignment: gridExtents
    std::vector<int64_t> tiles;  // each tile's g values, one after another
    struct Item {
      uint32_t assignment;
      size_t tileAt;
      int64_t chunks;
    };
    std::vector<Item> items;  // in plan()'s order
    GridCandidate at(size_t i) const;
  };
  CandidateSet candidateSet(const StmtSet& group, bool noParallelismLoss, const StmtSet& recomputed) const;
  // The cheapest plan over the candidates, the first of equals in their order (plan()'s
  // rule), pricing only those whose floor does not exceed the best found.
  std::optional<KernelPlan> cheapest(const std::vector<int>& members, const CandidateSet& candidates,
                                     const std::vector<int>& recomputed) const;
  // Each candidate's floor with its index, lowest first (ties in plan()'s order).
  std::vector<std::pair<double, size_t>> floorOrder(const std::vector<int>& members, const CandidateSet& candidates,
                                                    const std::vector<int>& recomputed) const;
  std::optional<KernelPlan> cheapest(const std::vector<int>& members, const CandidateSet& candidates,
                                     const std::vector<std::pair<double, size_t>>& order,
                                     const std::vector<int>& recomputed) const;
  // The grid coordinate a column tile runs along for candidate c: every reducing member
  // has a parallel dimension there, tiled by at least 2, that some read of it walks
  // contiguously (the last subscript, coefficient 1, no reduction dimension in it),
  // and every other parallel dimension of it fixed by the block; -1 when there is none.
  int columnCoord(const std::vector<int>& members, const GridCandidate& c) const;
  // The threads of a column tile of `columns` points: a multiple of both the columns and
  // a warp, at least the warp's; 0 when none fits a block.
  int columnThreads(int64_t threads, int64_t columns) const;
  // The group as a streamed tile on candidate c (KernelPlan::streamTile), its step and
  // threads a row the fastest that fit; none when its members do not take the roles.
  // With `splits`, also split along the maximum's reduction where the fastest; without,
  // in c.chunks chunks (a plan that names them).
  std::optional<KernelPlan> streamedTile(const std::vector<int>& members, const GridCandidate& c,
                                         const std::vector<int>& recomputed, bool splits) const;
  std::optional<KernelPlan> evaluateMapping(const std::vector<int>& members, const GridCandidate& c,
                                            const std::vector<int>* threadDims, const std::vector<int>& recomputed,
                                            std::optional<bool> stream, int columnCoord) const;
  bool mapThreads(const std::vector<int>& members, const std::vector<int>* threadDims, BlockShape& shape,
                  KernelPlan& kp, int columnCoord = -1) const;
  bool mapRows(const std::vector<int>& members, KernelPlan& kp, int columnCoord) const;
  bool tileContraction(const std::vector<int>& members, KernelPlan& kp, int micro) const;
  std::optional<ContractionTile> contractionTile(const std::vector<int>& members, const KernelPlan& kp, int member,
                                                 int micro) const;
  std::vector<int> epilogueOf(const std::vector<int>& members, const KernelPlan& kp, const ContractionTile& c) const;
  // The tiled contraction whose accumulators hold temporary t: written by it or its
  // epilogue, and read only by that epilogue; null otherwise.
  const ContractionTile* accumulated(const std::vector<int>& members, const KernelPlan& kp, int t) const;
  KernelPlan price(const std::vector<int>& members, const BlockShape& shape, KernelPlan kp,
                   std::optional<bool> stream = std::nullopt) const;
  // The sums of the group that can run in their maximum's loop under kp's mapping.
  std::vector<StreamPair> streamPairs(const std::vector<int>& members, const KernelPlan& kp) const;
  void onchipLoads(const std::vector<int>& members, KernelPlan& kp) const;
  int64_t reuseStorage(const std::vector<int>& members, KernelPlan& kp, int computeBytes) const;
  double placeData(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp, bool cacheInputs) const;
  // The scratch and traffic of split member `s`'s partials (one result per chunk).
  void addPartials(int s, KernelPlan& kp) const;
  std::optional<OnChipArray> inputSlice(const std::vector<int>& members, const BlockShape& shape, const KernelPlan& kp,
                                        int t) const;
  void vectorize(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const;
  bool registerRows(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const;
  // The most 16-byte global vectors one step of a member loads.
  int vectorsPerStep(const std::vector<int>& members, const KernelPlan& kp) const;
  // Blocks per SM and occupancy by the device's rules, once the shared memory is known.
  void occupy(KernelPlan& kp) const;
  void loadsInFlight(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const;
  void timeKernel(double sectorWaste, KernelPlan& kp) const;
  // Flops with each math-library call counted at what it costs (Device::mathFlops).
  double weightedFlops(double flops, double mathCalls) const { return flops + mathCalls * (dev_.mathFlops - 1); }
  // The block's slice of what members[m] writes.
  OnChipArray onChipSlice(const std::vector<int>& members, const KernelPlan& kp, size_t m) const;
};

}  // namespace polyfuse

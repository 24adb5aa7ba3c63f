// The plan: the one record between the fusion search and code generation. Per kernel
// it says which statements run, how they map onto the grid, how the grid is tiled into
// blocks, how threads share each statement, which arrays live on chip and with what
// extents, and every launch. The cost model fills it; codegen, the harness, the OpenCL
// runner, `inspect` and the reports read it and decide nothing of their own: what is
// costed is what is generated.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "polyir/EnumNames.h"
#include "polyir/Interpreter.h"
#include "polyir/Program.h"
#include "polyir/Sized.h"

namespace polyfuse {

// How a kernel's threads run one statement.
enum class StmtMode {
  Pointwise,     // threads over the block's parallel points, no reduction
  SerialReduce,  // threads over parallel points, each reduces its point serially
  BlockReduce,   // the block's threads split each point's reduction, then combine
  SplitReduce,   // a block reduction over one chunk per block; a second launch combines
  ColumnReduce,  // threads along a kept dimension (a column each), the block's groups of
                 // threads split each column's reduction (RowMapping::ColumnTile)
  // Split-K: a tiled contraction (ContractionTile) over one chunk of its reduction per
  // block, each thread its micro-tile's partial sums; a second launch combines. A tile of
  // outputs per block already gives its threads their own points, so the split is there
  // only for blocks: a small output with a long reduction fills no GPU otherwise.
  SplitTileReduce
};
inline constexpr EnumName<StmtMode> kStmtModeNames[] = {{StmtMode::Pointwise, "pointwise"},
                                                       {StmtMode::SerialReduce, "serial-reduce"},
                                                       {StmtMode::BlockReduce, "block-reduce"},
                                                       {StmtMode::SplitReduce, "split-reduce"},
                                                       {StmtMode::ColumnReduce, "column-reduce"},
                                                       {StmtMode::SplitTileReduce, "split-tile-reduce"}};
inline const char* stmtModeName(StmtMode m) { return nameIn(kStmtModeNames, m); }
// The block's threads share each point's reduction (and combine through shared memory).
inline bool reducesAcrossThreads(StmtMode m) {
  return m == StmtMode::BlockReduce || m == StmtMode::SplitReduce || m == StmtMode::ColumnReduce;
}
// Each block reduces one chunk into partials that the combine launch folds.
inline bool reducesAChunk(StmtMode m) { return m == StmtMode::SplitReduce || m == StmtMode::SplitTileReduce; }

// How a kernel whose threads share reductions lays its rows (the grid points of its
// block's tile: the points a reduction runs over) onto threads. Rows never run one
// after another through a whole block: a block holds one row, or each warp holds one.
enum class RowMapping {
  Threads,     // no reduction shared across threads: the block's threads run all its points
  BlockPerRow, // one row per block; its reductions combine across the block (one barrier each)
  WarpPerRow,  // one row per warp, 32 x rows threads: reductions are warp shuffles, no block barrier
  SplitRow,    // one chunk of a row per block, combined by a second launch (a split reduction)
  // A tile of columns per block: consecutive threads take consecutive grid points of a
  // kept dimension that is contiguous in memory (a reduction down the columns, softmax
  // over dim 0), so that every load is coalesced; the block's threadsPerBlock /
  // groupColumns groups of threads split each column's reduction and combine it in
  // shared memory (warp shuffles first, where a warp holds several groups).
  ColumnTile,
  // A tile of rows per block, each row a few threads (StreamTile): the rows' maximum
  // runs along its reduction in steps staged through shared memory, what it reduces is
  // computed at each step (a contraction's scores too), and the sums streamed against it
  // (with parallel dims of their own: a weighted sum of values) stay in registers.
  StreamedTile
};
inline constexpr EnumName<RowMapping> kRowMappingNames[] = {{RowMapping::Threads, "threads"},
                                                           {RowMapping::BlockPerRow, "block-per-row"},
                                                           {RowMapping::WarpPerRow, "warp-per-row"},
                                                           {RowMapping::SplitRow, "split-row"},
                                                           {RowMapping::ColumnTile, "column-tile"},
                                                           {RowMapping::StreamedTile, "streamed-tile"}};
inline const char* rowMappingName(RowMapping m) { return nameIn(kRowMappingNames, m); }

// A kernel's statement as reports print it: S1, or S1' where the kernel recomputes it.
inline std::string memberLabel(const std::string& label, const std::vector<int>& recomputed, int s) {
  for (int r : recomputed)
    if (r == s) return label + "'";
  return label;
}

// Where an on-chip array lives. Registers hold a row only where every thread touches
// just its own elements (CostModel::registerRows): no other thread ever reads them, so
// they need neither shared memory nor barriers.
enum class OnChipPlace { SharedMemory, Registers };

// A temporary the kernel keeps on chip (shared memory in CUDA, local memory in OpenCL,
// or each thread's registers): the block's slice of it. Tensor dimension p starts at the
// block origin of grid coordinate gridCoord[p], or at the constant lo[p] when
// gridCoord[p] < 0.
struct OnChipArray {
  // gridCoord[p] for a dimension cut into the chunks of a split reduction: it starts at
  // lo[p] + chunk * splitChunk.
  static constexpr int kChunkCoord = -2;
  int tensor = -1;
  // The on-chip array (a tensor id) whose storage this one takes once that one's last
  // reader is done with it; -1: storage of its own (KernelPlan::storageOf).
  int reuses = -1;
  std::vector<int64_t> extent;
  std::vector<int> gridCoord;
  std::vector<int64_t> lo;
  OnChipPlace place = OnChipPlace::SharedMemory;
  // In registers: the elements each thread holds. A row: the thread's vector of `width`
  // elements at each of KernelPlan::registerSteps steps along it (slot step x width + lane);
  // a value per row (a reduction's result, which every thread of the row receives): 1.
  int64_t registerSlots = 0;
  bool inRegisters() const { return place == OnChipPlace::Registers; }
  // The dimension along which the block (or warp) holds more than its row's own element:
  // the row; -1 for a value per row, -2 for more than one such dimension.
  int rowDim() const;
  int64_t elements() const;
  // Bytes in dynamic shared memory: 16-byte aligned, so arrays pack in plan order.
  int64_t alignedBytes(int elemBytes) const { return (elements() * elemBytes + 15) / 16 * 16; }
};

// A contraction run as a tiled matrix product (CostModel::tileContraction): member
// `member` computes the block's tile of outputs along its parallel dims p (rows) and q
// (columns, consecutive threads), each thread a micro x micro register tile (thread t
// takes p offsets (t / (tileQ / micro)) micro + a and q offsets (t % (tileQ / micro))
// micro + b, each micro consecutive outputs one vector load). The reduction dim r runs in steps of
// kStep; each step stages in shared memory the block's slice of every read, a
// [tileP x kStep] one for a read that does not vary with q, [kStep x tileQ] for one that
// does not vary with p (polyhedral promotion: the footprint of the access per step).
//
// On tensor cores (`engine`, under `--numerics tf32` on a device with them) the same
// threads form warps of (8 micro) x (4 micro) outputs (warpP x warpQ), tileQ / warpQ
// warps along q, each running mma.sync m16n8k8 on TF32 operands: a thread holds micro x
// micro of its warp's accumulator fragments instead of a strided micro-tile, and the
// slices' lines are padded (kMmaPadP, kMmaPadQ) so that a fragment's 32 loads hit 32
// distinct banks. Operands stored as f16 or bf16 run mma.sync m16n8k16 on their own type
// (`mma-f16`, `mma-bf16`) under any numerics but strict: the staged f32 values are
// those halves exactly, so the fragments repack them without rounding, and products of
// two halves are exact in f32 (the tensor cores' sums, unlike the FMA units', truncate
// as they align addends: within the 2e-3 a half-precision program verifies against).
enum class ContractionEngine { FmaUnits, TensorCoresTf32, TensorCoresF16, TensorCoresBf16 };
inline constexpr EnumName<ContractionEngine> kContractionEngineNames[] = {{ContractionEngine::FmaUnits, "fma"},
                                                                         {ContractionEngine::TensorCoresTf32, "mma-tf32"},
                                                                         {ContractionEngine::TensorCoresF16, "mma-f16"},
                                                                         {ContractionEngine::TensorCoresBf16, "mma-bf16"}};
inline const char* contractionEngineName(ContractionEngine e) { return nameIn(kContractionEngineNames, e); }
// Whether the engine's products take 16-bit operands (f16, bf16).
inline bool halfOperands(ContractionEngine e) {
  return e == ContractionEngine::TensorCoresF16 || e == ContractionEngine::TensorCoresBf16;
}
// Steps of the reduction one mma takes: 16 on 16-bit operands, 8 on TF32.
inline int64_t mmaSteps(ContractionEngine e) { return halfOperands(e) ? 16 : 8; }

struct ContractionTile {
  static constexpr int64_t kMmaPadP = 4, kMmaPadQ = 8;
  // 16-bit operands are staged as they are stored, 2 bytes an element, and fragments load
  // by ldmatrix: each lane gives a 16-byte row of an 8 x 8 block, so lines are a multiple
  // of 8 elements; 8 more put the 8 rows of a block in distinct banks.
  static constexpr int64_t kHalfMmaPadP = 8, kHalfMmaPadQ = 8;
  int member = -1;  // index in KernelPlan::statements
  int p = -1, q = -1, r = -1;
  int64_t tileP = 0, tileQ = 0;
  int micro = 4;
  int64_t kStep = 16;
  // Buffers of staged slices: with 2 or more, the copies of step k + stages - 1 run
  // while step k computes (cp.async on CUDA: the loads are in flight through the math,
  // not before it), one barrier a step; with 1, a step stages, then computes.
  int stages = 1;
  std::vector<bool> alongP;  // per read of the member: its slice is [tileP x kStep]
  // Per read: its slice's lines run along r ([tileP x kStep] or [tileQ x kStep]), as the
  // tensor-core fragments read them: the operand along p always, the one along q where
  // its memory is contiguous along r too (a weight stored [out x in], torch's Linear), so
  // that its copies stay 16 bytes wide and its fragments load by ldmatrix. Else the
  // slice is r-major ([kStep x tileP], [kStep x tileQ]).
  std::vector<bool> linesAlongR;
  // Pointwise members applied to the accumulators in registers, in order, as each
  // output leaves the micro-tile (bias, GELU): each reads the contraction's result, or
  // an earlier one's, only at its own point, and those results live in no memory at all.
  std::vector<int> epilogue;  // indices in KernelPlan::statements
  ContractionEngine engine = ContractionEngine::FmaUnits;
  bool tensorCores() const { return engine != ContractionEngine::FmaUnits; }
  // On 16-bit operands: an mma takes 16 steps of r (8 on TF32), and each fragment
  // register a pair of consecutive ones.
  bool halfOperands() const { return polyfuse::halfOperands(engine); }
  int64_t mmaSteps() const { return polyfuse::mmaSteps(engine); }
  int64_t warpP() const { return 8 * micro; }
  int64_t warpQ() const { return 4 * micro; }
  int threads() const { return int(tileP / micro * (tileQ / micro)); }
  // Read r's slice in shared memory: lines(r) lines of lineElements(r) each, padding
  // included. On FMA units both slices are r-major ([kStep x tileP], [kStep x tileQ]), so
  // that a thread's micro consecutive outputs along p or q load as 128-bit vectors (the
  // [kStep x tileP] lines padded by kFmaPadP: consecutive r, which staging threads store
  // side by side, then fall in different banks). On tensor cores the slice along p has
  // lines along r ([tileP x kStep]): an A fragment runs along r; the slice along q too
  // where linesAlongR says so.
  static constexpr int64_t kFmaPadP = 4;
  bool alongR(size_t r) const { return linesAlongR[r]; }
  // The extent of read r's other dimension: p's tile or q's.
  int64_t across(size_t r) const { return alongP[r] ? tileP : tileQ; }
  int64_t lines(size_t r) const { return alongR(r) ? across(r) : kStep; }
  int64_t lineElements(size_t r) const {
    if (halfOperands()) return alongR(r) ? kStep + kHalfMmaPadP : tileQ + kHalfMmaPadQ;
    if (tensorCores()) return alongR(r) ? kStep + kMmaPadP : tileQ + kMmaPadQ;
    return alongP[r] ? tileP + kFmaPadP : tileQ;
  }
  // How many outputs each staged element of read r feeds from one load into registers:
  // a micro-tile's row or column, or a warp tile's (an A fragment serves the warp's q).
  int64_t reuse(size_t r) const { return tensorCores() ? (alongP[r] ? warpQ() : warpP()) : micro; }
  // One buffer's staged slices, in elements (padding included): the stride between
  // the stages' buffers.
  int64_t stageElements() const;
  // Static shared memory of every stage's buffer, in elements.
  int64_t stagedElements() const { return stages * stageElements(); }
  // Bytes of a staged element: the operands' own where they are 16-bit floats on tensor
  // cores (copied bit for bit, cp.async where aligned), else the compute type's
  // (`computeBytes`), which the FMA units read.
  int stageBytes(int computeBytes) const { return halfOperands() ? 2 : computeBytes; }
  int64_t stagedBytes(int computeBytes) const { return stagedElements() * stageBytes(computeBytes); }
  // The values a step stages (padding excluded): what it moves.
  int64_t stagedValues() const {
    int64_t n = 0;
    for (bool p : alongP) n += (p ? tileP : tileQ) * kStep;
    return n;
  }
  // A block's steps of the reduction (`ss`: the member at the plan's sizes; `chunk`:
  // the points of r one block reduces under split-K, KernelPlan::kChunk, 0 for all).
  int64_t steps(const SizedStatement& ss, int64_t chunk) const {
    const int64_t points = chunk > 0 ? chunk : ss.hi[size_t(r)] - ss.lo[size_t(r)];
    return (points + kStep - 1) / kStep;
  }
};

// A sum streamed beside the maximum it is shifted by (polyir/Rescale.h, StreamChain):
// one loop over their common points runs both, the sum (its elementwise producers
// inlined) against the running maximum, rescaled each time it grows; their partials
// combine by the maximum first, then by the rescaled sum. Indices in
// KernelPlan::statements. `inlined`: the producers that run only there (no loop, no
// storage of their own: nothing else in the kernel or after it reads them).
struct StreamPair {
  int max = -1, sum = -1;
  std::vector<int> inlined;
};

// A member's part in a streamed tile (RowMapping::StreamedTile).
enum class StreamRole {
  Score,     // computed at each (row, reduction point) of a step, before the maximum reads it
  Maximum,   // the running maximum: a register a row
  Sum,       // streamed against it (polyir/Rescale.h): a register a row, or a thread's lanes
  Inlined,   // a producer inlined into the sums: it runs nowhere else
  Epilogue   // after the last step, pointwise on the row's registers
};
inline constexpr EnumName<StreamRole> kStreamRoleNames[] = {{StreamRole::Score, "score"},
                                                           {StreamRole::Maximum, "maximum"},
                                                           {StreamRole::Sum, "sum"},
                                                           {StreamRole::Inlined, "inlined"},
                                                           {StreamRole::Epilogue, "epilogue"}};
inline const char* streamRoleName(StreamRole r) { return nameIn(kStreamRoleNames, r); }

// A read a streamed tile stages in shared memory, in lines of `inner` values and padding
// (StreamTile::linePitch): `perStep`, its values at each step's reduction points
// ([step x pitch]: keys and values); otherwise the block's rows, once ([rows x pitch]:
// queries). `inner` is the extent of the one other dimension it varies along (a score's
// own reduction, a sum's extra dimension).
struct StagedRead {
  int member = -1;  // index in KernelPlan::statements
  int read = -1;    // index in its reads (a sum's: in its inlined form, StreamChain::inlined)
  bool perStep = true;
  int innerDim = -1;  // the member's dimension along `inner`; -1: none (inner is 1)
  int64_t innerLo = 0, inner = 1;
  // Whether memory holds consecutive lines (points of the step, or rows) side by side: the
  // staging loop then runs along them, so that consecutive threads load consecutive
  // elements (a transposed K^T(d, j)), else along the inner dimension.
  bool linesContiguous = false;
  // Elements a load moves: a 16-byte vector of the compute type where the staging loop
  // walks the inner dimension, contiguous and vector-aligned in memory (vectorAligned),
  // its range a whole number of vectors; 1 otherwise.
  int width = 1;
};

// The shape of a streamed tile (RowMapping::StreamedTile, docs/streaming.md "Streamed
// tiles"): the block holds tile[rowCoord] rows of the maximum, or tile[outerCoord] x
// tile[rowCoord] of them (the query heads that share keys and values, and their
// queries: row r at outer r / tile[rowCoord], inner r % tile[rowCoord]), rowThreads
// threads each (each thread rowsAThread rows);
// the maximum's reduction runs in steps of `step` points. A step stages its reads,
// computes each score at the row's thread that owns the point (points rowThreads apart),
// keeps the scores the maximum and the sums read in shared memory ([rows x tilePitch()]),
// then each thread takes the step's maximum and rescales its partial sums once, computes
// the factors exp(E - m) of the sums' terms at its own points (a tile beside the scores),
// and adds the step's terms: a sum over the maximum's points as one register a row, a sum
// with an extra dimension as `lanes` registers, its points rowThreads apart.
struct StreamTile {
  int rowCoord = -1;
  int outerCoord = -1;  // a second tiled grid coordinate of rows; -1: none
  int64_t rows(const std::vector<int64_t>& tile) const {
    return tile[size_t(rowCoord)] * (outerCoord >= 0 ? tile[size_t(outerCoord)] : 1);
  }
  bool isRowCoord(int t) const { return t >= 0 && (t == rowCoord || t == outerCoord); }
  int64_t step = 32;
  int rowThreads = 1;
  int rowsAThread = 1;  // rows a thread holds, rows(tile) / rowsAThread apart
  int64_t lanes = 0, extraLo = 0, extraHi = 0;
  int64_t keysAThread() const { return step / rowThreads; }
  // The line of a tile of scores: at least a step, padded so that a warp's threads (a
  // row's rowThreads adjacent lanes, rows one line apart) store their points and read a
  // row's point on distinct banks.
  int64_t tilePitch() const {
    const int lanes = 32, g = std::min(rowThreads, lanes), groups = lanes / g;
    for (int64_t p = step + 1; p <= step + lanes; ++p) {
      std::vector<bool> bank(lanes, false);
      bool distinct = true;
      for (int r = 0; r < groups && distinct; ++r)
        for (int t = 0; t < g && distinct; ++t) {
          const int64_t b = (int64_t(r) * p + t) % lanes;
          distinct = !bank[size_t(b)];
          bank[size_t(b)] = true;
        }
      if (distinct) return p;
    }
    return step + 1;
  }
  // Staged read i's line in shared memory, padding included: inner + 1, so that threads
  // reading down a column (a row's thread each) hit distinct banks; for a tensor-core
  // operand whose staging walks the inner dimension, the pitch at or above that whose
  // fragment loads meet the fewest lanes on one bank (fragmentPitch).
  int64_t linePitch(size_t i) const;
  // Whether staged read i is an operand of the tensor cores on TF32: rounded once as it is
  // staged (by plain stores, unlike a contraction tile's cp.async), not at each of the
  // fragment loads that read it (every 16 rows, every step).
  bool stagedTf32(size_t i) const {
    return (scoreEngine == ContractionEngine::TensorCoresTf32 && (int(i) == mmaRowRead || int(i) == mmaKeyRead)) ||
           (sumEngine == ContractionEngine::TensorCoresTf32 && int(i) == mmaValueRead);
  }
  int64_t stagedElements(size_t i, int64_t rows) const { return (staged[i].perStep ? step : rows) * linePitch(i); }
  // Per member: its role, and its dimensions along the maximum's reduction (key), along
  // the sums' extra dimension, and along its own reduction (a score's contraction); -1: none.
  std::vector<StreamRole> roles;
  std::vector<int> keyDim, extraDim, innerDim;
  std::vector<int> tiled;  // tensors written by scores, held [rows x tilePitch()]
  std::vector<StagedRead> staged;
  // A score that is a contraction of two staged reads over its own reduction, one along
  // the rows and one along the step's points (Q K^T), on tensor cores: each warp runs
  // m16n8 tiles of the [rows x step] scores (mma.sync, fragments loaded from the staged
  // lines), and leaves them in shared memory ([rows x tilePitch()]), where the score's
  // threads read them instead of running its reduction. `scoreEngine` is the operands'
  // (ContractionEngine: TF32 under that numerics, or the 16-bit types they are stored as);
  // FmaUnits: no such score, or no tile whose rows and step fill whole m16n8 tiles.
  ContractionEngine scoreEngine = ContractionEngine::FmaUnits;
  int mmaScore = -1;                    // the member, an index in KernelPlan::statements
  int mmaRowRead = -1, mmaKeyRead = -1;  // its operands, indices in `staged`
  bool mmaScores() const { return scoreEngine != ContractionEngine::FmaUnits; }
  // m16n8 tiles of the step's scores.
  int64_t mmaTiles(int64_t rows) const { return rows / 16 * (step / 8); }
  // A sum with an extra dimension whose terms are the step's factor exp(E - m) times a
  // staged read along the extra dimension (P V), and factors it takes out, on tensor
  // cores: its [rows x extra] partials are m16n8 accumulator tiles the warps hold across
  // the steps, rescaled there by each row's step scale (kept in shared memory, [rows]),
  // an mma.sync on the step's factors and staged lines a step; after the last step they
  // meet the rows' threads through shared memory ([rows x (extra + 1)]). TF32 only: the
  // factors are f32 values, exact in no 16-bit type.
  ContractionEngine sumEngine = ContractionEngine::FmaUnits;
  int mmaSum = -1;        // the member, an index in KernelPlan::statements
  int mmaValueRead = -1;  // its staged operand, an index in `staged`
  int mmaValueTensor = -1;  // the tensor that operand reads
  bool mmaSums() const { return sumEngine != ContractionEngine::FmaUnits; }
  int64_t mmaSumTiles(int64_t rows) const { return rows / 16 * ((extraHi - extraLo + 7) / 8); }
  // Where the finished partials meet the rows' threads: the lines of a read staged once a
  // block for a score or the maximum (the queries), which nothing reads after the last
  // step's factors, where they fit; -1: an array of their own.
  int mmaSumsIn(int64_t rows) const {
    for (size_t i = 0; i < staged.size(); ++i) {
      const StreamRole r = roles[size_t(staged[i].member)];
      if (!staged[i].perStep && (r == StreamRole::Score || r == StreamRole::Maximum) &&
          stagedElements(i, rows) >= rows * (extraHi - extraLo + 1))
        return int(i);
    }
    return -1;
  }
  // Bytes of shared memory, each array 16-byte aligned (as codegen lays them out).
  int64_t sharedBytes(int64_t rows, int elemBytes) const {
    auto aligned = [&](int64_t elements) { return (elements * elemBytes + 15) / 16 * 16; };
    // The tiled scores, the step's factors, and the tensor cores' scores.
    int64_t n = int64_t(tiled.size() + 1 + (mmaScores() ? 1 : 0)) * aligned(rows * tilePitch());
    if (mmaSums()) n += aligned(rows) + (mmaSumsIn(rows) < 0 ? aligned(rows * (extraHi - extraLo + 1)) : 0);  // step scales, the finished partials
    for (size_t i = 0; i < staged.size(); ++i) n += aligned(stagedElements(i, rows));
    return n;
  }
};

struct KernelPlan {
  int id = 0;
  std::vector<int> statements;             // program order
  // Members this kernel computes for its own use while another kernel computes (and
  // perhaps stores) them too: their values are read here and never written out.
  std::vector<int> recomputed;
  // gridDims[k][t]: the parallel dimension of statements[k] on grid coordinate t.
  std::vector<std::vector<int>> gridDims;
  std::vector<int64_t> gridLo, gridExtent;  // grid coordinate t spans [lo, lo + extent)
  std::vector<int64_t> tile;                // block shape on the grid
  // threadDims[k]: the dimension of statements[k] that consecutive threads run along
  // (-1: one point per block). Coalescing in the cost model assumes this mapping.
  std::vector<int> threadDims;
  std::vector<StmtMode> modes;              // per statement
  // vectorWidth[k]: elements a thread takes per step along its thread dimension (1, or
  // 16 bytes of the compute type: float4, double2); the accesses vectorAligned accepts
  // move as one 128-bit load or store, the others element by element.
  std::vector<int> vectorWidth;
  int64_t blocks = 1;
  int threadsPerBlock = 32;
  // Priced with up to CostModel::kMaxBlockThreads threads instead of the device's
  // threads_per_block: its shared memory leaves it alone on an SM (CostModel::price).
  bool wideBlock = false;
  RowMapping rowMapping = RowMapping::Threads;
  // Under ColumnTile: the columns a block holds (the tile along the kept dimension),
  // columnLanes adjacent ones per consecutive thread of each group (a 16-byte vector
  // where the loads allow, else 1); threadsPerBlock is a multiple of the group's threads.
  int64_t groupColumns = 0;
  int columnLanes = 1;
  bool columnTile() const { return rowMapping == RowMapping::ColumnTile; }
  // Under StreamedTile: its shape and each member's part.
  StreamTile streamTile;
  bool streamedTile() const { return rowMapping == RowMapping::StreamedTile; }
  int64_t groupThreads() const { return groupColumns / columnLanes; }
  int64_t reduceGroups() const { return columnTile() ? threadsPerBlock / groupThreads() : 1; }
  // Under ColumnTile, CUDA: the partials a column reduction leaves in shared memory, a
  // thread's lanes side by side (a warp's groups fold by shuffles first where a group's
  // threads are a power of two below a warp), times two halves that consecutive
  // reductions alternate (one barrier each).
  int64_t columnScratchSlots() const;
  // A split reduction: one member reduces, its last dimension cut into splitChunks
  // chunks of splitChunk points; each block reduces one chunk into a partial result, and
  // a second launch combines the partials in order. The other members are elementwise
  // producers of the reduction, each computing (recomputing, when other kernels need
  // it too) just the chunk its block reduces: chunkDims[k] is the dimension of
  // statements[k] cut into chunks (-1 without a split).
  int64_t splitChunks = 1, splitChunk = 0;
  std::vector<int> chunkDims;
  // The members run as tiled contractions (Q, K and V projections side by side), in
  // member order, all with the kernel's threads. They run one after another, so their
  // staged slices share one buffer (stagedBytes: the largest).
  std::vector<ContractionTile> contractions;
  const ContractionTile* contractionOf(size_t m) const {
    for (auto& c : contractions)
      if (size_t(c.member) == m) return &c;
    return nullptr;
  }
  // The tiled contraction that runs member m: its own, or the one whose epilogue it is.
  const ContractionTile* tiledWith(size_t m) const {
    for (auto& c : contractions)
      if (size_t(c.member) == m || std::find(c.epilogue.begin(), c.epilogue.end(), int(m)) != c.epilogue.end()) return &c;
    return nullptr;
  }
  int64_t stagedBytes(int computeBytes) const {
    int64_t n = 0;
    for (auto& c : contractions) n = std::max(n, c.stagedBytes(computeBytes));
    return n;
  }
  // Sums that run in their maximum's loop (docs/streaming.md): each reads what the
  // maximum reads in the same pass, so its global reads are no pass of their own.
  std::vector<StreamPair> streams;
  // The member whose loop runs member m (a streamed sum); -1 when m runs its own.
  int streamedInto(size_t m) const {
    for (auto& s : streams)
      if (size_t(s.sum) == m) return s.max;
    return -1;
  }
  // The streamed sum that runs in member m's loop; -1 when none.
  int streamedSum(size_t m) const {
    for (auto& s : streams)
      if (size_t(s.max) == m) return s.sum;
    return -1;
  }
  // The maximum whose loop runs member m: a streamed sum's, or the one whose sum m is
  // inlined into; -1 when m runs its own loop.
  int streamLoopOf(size_t m) const {
    for (auto& s : streams)
      if (size_t(s.sum) == m || std::find(s.inlined.begin(), s.inlined.end(), int(m)) != s.inlined.end()) return s.max;
    return -1;
  }
  // Whether member m is a producer inlined into a streamed sum (it runs nowhere else).
  bool inlinedInStream(size_t m) const { return streamLoopOf(m) >= 0 && streamedInto(m) < 0; }
  int64_t partialElements = 0;              // the split's scratch: chunks x the result tensor's elements
  std::vector<OnChipArray> onChip;          // in tensor order
  std::vector<int> scratch;                 // temporaries spilled to global scratch
  // Inputs read in several passes whose block slice stays on chip: the first member
  // that reads one reads global memory and leaves the slice; later members read it.
  std::vector<OnChipArray> cachedInputs;    // in tensor order
  // Rows in registers: the steps each thread takes along a row (its loop unrolled, so
  // each step's registers are named at compile time); 0 when no row is there.
  int64_t registerSteps = 0;
  bool cacheable = false;                   // some input's slice could stay on chip (the cost model tries both)
  std::vector<int> globalReads, globalWrites;
  // Per globalReads entry: the member statements that read it from global memory (a
  // fused softmax reads X twice); every pass after the first is priced as a re-read.
  std::vector<int> inputPasses;
  // CUDA's shared memory a block takes without asking: static arrays must fit it, and a
  // launch beyond it raises the kernel's limit first.
  static constexpr int64_t kStaticSharedBytes = 48 * 1024;
  int64_t sharedBytes = 0;                  // dynamic shared memory per block (the on-chip arrays there)
  // The staged slices' buffers where they outgrow CUDA's static shared memory (more than
  // two stages): dynamic too, after the arrays; 0 where they are a static array.
  int64_t stagedSharedBytes = 0;
  int64_t launchSharedBytes() const { return sharedBytes + stagedSharedBytes; }
  // Where the block's threads wait for each other (fusion/Barriers.h): barrierAfter[k],
  // after member k (a warp's threads only, in CUDA, under WarpPerRow); barriersPerBlock,
  // every barrier one block passes but the reductions' own: those between members, a
  // tiled contraction's steps, a streamed tile's steps; reductionsPerBlock, the combines
  // across threads one block runs (in CUDA one barrier each, or warp shuffles alone under
  // WarpPerRow; OpenCL spells them with more). Codegen emits these and no others.
  std::vector<bool> barrierAfter;
  int64_t barriersPerBlock = 0, reductionsPerBlock = 0;

  int64_t dramBytes = 0, l2Bytes = 0, flops = 0, onchipBytesPerBlock = 0;
  int64_t uncoalescedBytes = 0;  // extra sector traffic of uncoalesced accesses (time only)
  // Operand bytes the members' arithmetic reads from L1 / shared memory: every read of
  // every point, but a tiled contraction's staged reads once per micro-tile row or column.
  int64_t onchipLoadBytes = 0;
  // occupancy: resident warps over the SM's most, by CUDA's rules for this kernel's
  // threads, shared memory and estimated registers (1 on a device without the rules);
  // gridFill: the blocks over those the device needs in flight to saturate.
  double occupancy = 0, gridFill = 0, memoryUs = 0, computeUs = 0, onchipUs = 0, launchUs = 0, modeledUs = 0;
  // The blocks' start and synchronization costs on each SM (Device::blockNs, barrierNs,
  // reductionNs).
  double schedulingUs = 0;
  double mathCalls = 0;     // of `flops`, math-library calls (Device::mathFlops each)
  int64_t points = 0;       // statement points the kernel computes, recomputed ones included (Device::pointNs)
  int64_t tensorFlops = 0;  // of `flops`, those run on tensor cores (Device::tensorFlopsPerSec)
  int64_t halfTensorFlops = 0;  // of `tensorFlops`, those on f16 or bf16 operands (Device::halfTensorFlopsPerSec)
  int blocksPerSM = 0;
  int registersPerThread = 32;  // the model's estimate (CostModel::kEstimatedRegisters and up)
  // Little's law: bytes of global loads a block keeps in flight in the kernel's main
  // stream (its member that reads the most global memory), and the share of DRAM
  // bandwidth the resident blocks' loads in flight cover (1 without occupancy rules).
  int64_t bytesInFlightPerBlock = 0;
  double latencyShare = 1;
  std::string occupancyLimiter;  // threads, registers, shared memory or blocks

  int gridRank() const { return int(gridExtent.size()); }
  // The grid coordinate that dimension d of statements[m] runs on; -1 when off the grid.
  int gridCoordOf(size_t m, int d) const;
  // Whether a block holds a single value of dimension d of statements[m] (a grid
  // coordinate with tile 1): no in-block loop runs along it.
  bool fixedByBlock(size_t m, int d) const {
    const int t = gridCoordOf(m, d);
    return t >= 0 && tile[t] == 1;
  }
  bool keepsOnChip(int tensor) const;
  // The on-chip array of `tensor`: a temporary kept on chip or a cached input; null if none.
  const OnChipArray* arrayOf(int tensor) const;
  OnChipArray* arrayOf(int tensor) { return const_cast<OnChipArray*>(std::as_const(*this).arrayOf(tensor)); }
  // Whether member m reads `tensor` from global memory: not kept on chip, nor a cached
  // input past its first reader.
  bool readsGlobal(const Program& prog, size_t m, int tensor) const;
  // The tensor whose on-chip storage `tensor` lives in: itself, or the array it reuses
  // (followed to the first owner). Codegen aliases them; barriers see one buffer.
  int storageOf(int tensor) const;
  bool cachesInput(int tensor) const;
  // The first member (a statement id) that reads `tensor`; -1 when none does. It reads
  // a cached input from global memory and fills the on-chip copy.
  int firstReader(const Program& prog, int tensor) const;
  // Whether access `a` of member m moves as one `width`-element vector a step: a global
  // access there (not an on-chip temporary, nor a cached input past its first reader)
  // of the compute type, aligned for it (vectorAligned). The cost model and codegen
  // both ask this one question.
  bool vectorAccess(const Program& prog, const Sizes& sizes, size_t m, const SizedAccess& a, int width) const;
  bool usesBlockReduce() const;
  // Whether member m touches a row kept in registers: its loop along the row is unrolled.
  bool runsRegisterRow(const Program& prog, size_t m) const;
  bool warpPerRow() const { return rowMapping == RowMapping::WarpPerRow; }
  // Whether dimension d of statements[m] runs one row per warp (a grid coordinate the
  // block's tile spans with more than one point, under WarpPerRow).
  bool rowOfWarp(size_t m, int d) const {
    const int t = gridCoordOf(m, d);
    return warpPerRow() && t >= 0 && tile[size_t(t)] > 1;
  }
  // The index in `statements` of the split reduction; -1 without a split.
  int splitMember() const;
  // Split-K: the split reduction runs as a tiled contraction over one chunk a block
  // (StmtMode::SplitTileReduce).
  bool splitsK() const { return splitMember() >= 0 && modes[size_t(splitMember())] == StmtMode::SplitTileReduce; }
  // The points of a tiled contraction's reduction one block reduces under split-K; 0
  // (all of them) otherwise.
  int64_t kChunk() const { return splitsK() ? splitChunk : 0; }
  // Every member a split cuts into chunks of partial results: the split reduction, and a
  // sum streamed beside it (its partials rescale to the combined maximum). In member
  // order; the scratch holds their partials one after another, the combine writes each.
  std::vector<int> splitMembers() const;
  // The outputs a split's combine launch computes: the grid's points (and, in a streamed
  // tile, the points of the sums' extra dimension at each).
  int64_t combinePoints() const;
};

// Whether `a` moves as one `width`-element vector per step along thread dimension x:
// x only in its last subscript, with coefficient 1, every other term of that subscript
// a multiple of the width, and rows (the last extent) a multiple of it, so each vector
// starts 16-byte aligned; or, rows of any length, when the access stays in the first row
// (a one-dimensional tensor). A gather never does.
bool vectorAligned(const SizedAccess& a, int x, int width, int64_t lastExtent);

// What the device runs, in order: each kernel, and after a split reduction its combine.
// The terms a modeled time adds up to (CostModel::costTerms): what `--explain` names
// when it says which term decides that a fusion is slower.
enum class CostTerm {
  Launch,       // kernel launches (a split reduction's combine is a second)
  Memory,       // DRAM (or L2) traffic at the device's full bandwidth
  Compute,      // arithmetic at full throughput
  OnChip,       // operand loads from shared memory / L1 at full bandwidth
  Parallelism,  // too few blocks to fill the device (grid fill below 1)
  Occupancy,    // too few loads in flight per SM to cover DRAM latency (Little's law)
  Scheduling    // the blocks' starts and barriers, each SM's one after another, longer than the
                // work (Device::blockNs, barrierNs, reductionNs)
};
inline constexpr EnumName<CostTerm> kCostTermNames[] = {
    {CostTerm::Launch, "launch"},   {CostTerm::Memory, "memory"},           {CostTerm::Compute, "compute"},
    {CostTerm::OnChip, "on-chip"}, {CostTerm::Parallelism, "parallelism"}, {CostTerm::Occupancy, "occupancy"},
    {CostTerm::Scheduling, "scheduling"}};
inline const char* costTermName(CostTerm t) { return nameIn(kCostTermNames, t); }
constexpr int kCostTerms = 7;
// Microseconds per term, indexed by CostTerm; they sum to the modeled time.
struct CostTerms {
  double us[kCostTerms] = {};
  double& operator[](CostTerm t) { return us[int(t)]; }
  double operator[](CostTerm t) const { return us[int(t)]; }
  CostTerms& operator+=(const CostTerms& o) {
    for (int i = 0; i < kCostTerms; ++i) us[i] += o.us[i];
    return *this;
  }
};

enum class LaunchKind { Kernel, Combine };
struct Launch {
  int kernel = 0;  // index into Partition::kernels
  LaunchKind kind = LaunchKind::Kernel;
  int64_t blocks = 1;
  int threads = 32;
  int64_t sharedBytes = 0;
};

// The combine launch of a split reduction: a grid-stride loop over the outputs, a warp
// an output in CUDA (the blocks cover them up to kCombineMaxBlocks).
constexpr int64_t kCombineMaxBlocks = 4096;
constexpr int kCombineThreads = 256;

// The partition strategies (docs/strategies.md).
enum class Strategy { Nofuse, Greedy, IreeAggressive, BytesGreedy, Maxfuse, Typed, Ilp, Exhaustive };
inline constexpr EnumName<Strategy> kStrategyNames[] = {
    {Strategy::Nofuse, "nofuse"}, {Strategy::Greedy, "greedy"}, {Strategy::IreeAggressive, "iree-aggressive"},
    {Strategy::BytesGreedy, "bytes-greedy"},
    {Strategy::Maxfuse, "maxfuse"}, {Strategy::Typed, "typed"}, {Strategy::Ilp, "ilp"},
    {Strategy::Exhaustive, "exhaustive"}};
inline const char* strategyName(Strategy s) { return nameIn(kStrategyNames, s); }
// Throws UsageError naming the strategies for an unknown name.
Strategy parseStrategy(std::string_view name);

// What the search can say of the partition it returns.
enum class SolverStatus {
  None,        // no solver ran
  Optimal,     // proven optimal over every legal partition: the candidate set was complete
  Bounded,     // proven optimal over a candidate set a bound cut short (the note says which)
  TimeLimit,   // the best found when the time limit stopped the search
  Heuristic,   // a rule's answer, nothing proven
  Infeasible   // no partition satisfies the constraints
};
inline constexpr EnumName<SolverStatus> kSolverStatusNames[] = {
    {SolverStatus::None, "n/a"}, {SolverStatus::Optimal, "optimal"}, {SolverStatus::Bounded, "bounded"},
    {SolverStatus::TimeLimit, "time_limit"},
    {SolverStatus::Heuristic, "heuristic"}, {SolverStatus::Infeasible, "infeasible"}};
inline const char* solverStatusName(SolverStatus s) { return nameIn(kSolverStatusNames, s); }

struct SolverInfo {
  std::string name = "none";
  SolverStatus status = SolverStatus::None;
  double seconds = 0;
  std::string note;
  // For the searches for the fastest partition (ilp, exhaustive), as a MIP solver
  // reports them: a proven lower bound on any partition's modeled time, and the plan's
  // relative gap to it, (modeled - bound) / modeled; 0 when optimal. hasBound is false
  // for the rules, which prove nothing.
  bool hasBound = false;
  double bestBoundUs = 0, gap = 0;
  // Groups the cost model priced, and groups it answered from an earlier one of their
  // shape (CostModel::modeledUs): a measure of the search's work, like its seconds, and
  // shown with them (it depends on how a program names its parts, not on its plan).
  size_t pricedGroups = 0, sharedGroups = 0;
};

// One of the K best partitions (`fuse --top K`): its kernels' statements and cost.
struct Alternative {
  std::vector<std::vector<int>> kernels;  // statement ids per kernel, in launch order
  std::vector<std::vector<int>> recomputed;  // per kernel: KernelPlan::recomputed
  double modeledUs = 0;
};

// Which rounding the generated code may change (`--numerics`). Default: a plan may
// reassociate reductions (threads and blocks share them, sums stream beside their
// maxima, vector lanes keep partials, a divisor is inverted once) and the compilers may
// contract a multiply and an add into one FMA. Strict: every statement rounds where the
// reference interpreter rounds it: reductions run serially in their loops' order, no
// FMA, divisions as written, so that every plan of a program computes the same bits
// on one device (docs/codegen.md, "Numerics").
// Tf32: Default, and a tiled contraction of two f32 operands may run on tensor cores,
// each operand rounded to TF32 (10 bits of mantissa, as cuBLAS and PyTorch allow when
// asked): ~2^-11 relative error a product, where f32 has 2^-24 (docs/codegen.md).
enum class Numerics { Default, Strict, Tf32 };
inline constexpr EnumName<Numerics> kNumericsNames[] = {
    {Numerics::Default, "default"}, {Numerics::Strict, "strict"}, {Numerics::Tf32, "tf32"}};
inline const char* numericsName(Numerics n) { return nameIn(kNumericsNames, n); }

struct Partition {
  Strategy strategy = Strategy::Ilp;
  Numerics numerics = Numerics::Default;  // what the kernels were planned and must be generated for
  Sizes sizes;          // what the plan was made for
  std::string device;   // the device preset's name
  std::vector<KernelPlan> kernels;  // in launch order
  std::vector<Launch> launches;     // in order
  SolverInfo solver;
  double modeledUs = 0;
  int64_t dramBytes = 0, l2Bytes = 0, flops = 0;
  std::vector<Alternative> alternatives;  // with --top K: the K best, sorted; the first is this one
};

// The reads each statement's products take rounded to TF32 in this plan: both operands of
// a contraction tile or a streamed tile's scores on mma-tf32, and the staged value of a
// streamed weighted sum on it. The reference of the plan rounds them as the tensor cores
// do (polyir/Interpreter.h).
Tf32Reads tf32Operands(const Program& prog, const Partition& p);

}  // namespace polyfuse

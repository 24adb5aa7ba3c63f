#include "fusion/CostModel.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

#include "fusion/Barriers.h"
#include "fusion/Occupancy.h"
#include "polyir/Checked.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

CostModel::CostModel(const FusionGraph& fg, const Sizes& sizes, const Device& dev) : fg_(fg), at_(fg.program(), sizes), dev_(dev) {
  const Program& prog = fg.program();
  for (auto& t : prog.tensors) elemBytes_.push_back(elemBytes(t.type));
  computeBytes_ = elemBytes(prog.computeType());
  for (auto& st : prog.statements) anyScalarStatement_ |= st.numParallel == 0;
  flowSources_.assign(prog.statements.size(), {});
  consumers_.assign(prog.tensors.size(), {});
  depSources_.assign(prog.statements.size(), {});
  for (const Dependence& dep : fg.poly().dependences()) {
    if (dep.src != dep.dst) depSources_[dep.dst].push_back(dep.src);
    if (dep.kind == DepKind::Flow && dep.src != dep.dst) {
      flowSources_[dep.dst][dep.tensor].push_back(dep.src);
      consumers_[dep.tensor].push_back(dep.dst);
    }
  }
  for (auto& d : depSources_) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  // A sum streams only where its terms and its result hold the computing type: a term
  // the program rounds to a narrower one (p = exp(x - m) stored as f16) is a value of the
  // finished maximum that no running one gives, rounded or not.
  auto narrower = [&](int tensor) {
    const ElemType t = prog.tensors[size_t(tensor)].type;
    return isNarrowFloat(t) || (t == ElemType::F32 && prog.computeType() == ElemType::F64);
  };
  for (auto& st : prog.statements) {
    StreamChain sc = streamChain(prog, st);
    bool narrow = sc.streams() && narrower(st.write.tensor);
    for (int p : sc.producers) narrow = narrow || narrower(prog.statements[size_t(p)].write.tensor);
    if (narrow) sc.max = -1;
    stream_.push_back(std::move(sc));
  }
}

// Whether plan a beats b: faster, or as fast and keeping every pass where b streams (at
// equal time the program's own arithmetic stays, as price() keeps it on one grid).
static bool beats(const KernelPlan& a, const KernelPlan& b) {
  if (a.modeledUs < b.modeledUs - 1e-12) return true;
  return a.modeledUs <= b.modeledUs + 1e-12 && a.streams.empty() && !b.streams.empty();
}

const std::optional<KernelPlan>& CostModel::plan(const StmtSet& group, bool noParallelismLoss) const {
  auto& memo = memo_[noParallelismLoss ? 1 : 0];
  if (auto it = memo.find(group); it != memo.end()) return it->second;
  return memo[group] = cheapest(group.members(), candidateSet(group, noParallelismLoss, {}), {});
}

const std::optional<KernelPlan>& CostModel::plan(const StmtSet& group, const StmtSet& recomputed,
                                                 bool noParallelismLoss) const {
  if (recomputed.empty()) return plan(group, noParallelismLoss);
  auto& memo = recomputeMemo_[noParallelismLoss ? 1 : 0];
  const auto key = std::make_pair(group, recomputed);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  return memo[key] = cheapest(group.members(), candidateSet(group, noParallelismLoss, recomputed), recomputed.members());
}

// Candidates come in a fixed order (docs/cost-model.md): of equal ones, the first wins.
// They are priced from the lowest floor up, and pricing stops at the first floor above
// the best time found: no candidate left can equal it. The winner is the one a scan in
// their order would keep, as `beats` orders plans and the first of equals wins.
std::vector<std::pair<double, size_t>> CostModel::floorOrder(const std::vector<int>& members, const CandidateSet& set,
                                                             const std::vector<int>& recomputed) const {
  const GroupFloor f = groupFloor(members, recomputed);
  std::vector<std::pair<double, size_t>> order;
  order.reserve(set.items.size());
  for (size_t i = 0; i < set.items.size(); ++i) {
    const CandidateSet::Item& it = set.items[i];
    order.push_back({floorUs(f, set.extents[it.assignment], set.tiles.data() + it.tileAt, it.chunks), i});
  }
  std::sort(order.begin(), order.end());
  return order;
}

std::optional<KernelPlan> CostModel::cheapest(const std::vector<int>& members, const CandidateSet& set,
                                              const std::vector<int>& recomputed) const {
  return cheapest(members, set, floorOrder(members, set, recomputed), recomputed);
}

std::optional<KernelPlan> CostModel::cheapest(const std::vector<int>& members, const CandidateSet& set,
                                              const std::vector<std::pair<double, size_t>>& order,
                                              const std::vector<int>& recomputed) const {
  std::optional<KernelPlan> best;
  size_t bestAt = 0;
  for (auto [floor, i] : order) {
    if (best && floor > best->modeledUs + 1e-12) break;
    std::optional<KernelPlan> p = evaluate(members, set.at(i), nullptr, recomputed);
    if (p && (!best || beats(*p, *best) || (!beats(*best, *p) && i < bestAt))) {
      best = std::move(p);
      bestAt = i;
    }
  }
  return best;
}

// The block's slice of the temporary that members[m] writes, as its members write it:
// the tile along grid coordinates, along the others the hull of every writer's range (a
// tensor built in windows, a concatenation or a rotary half swap, is written by several
// statements, each over its own part).
OnChipArray CostModel::onChipSlice(const std::vector<int>& members, const KernelPlan& kp, size_t m) const {
  const Program& prog = fg_.program();
  const Statement& st = prog.statements[members[m]];
  const int t = st.write.tensor;
  const SizedStatement& ss = sized(st.id);
  OnChipArray a;
  a.tensor = t;
  for (int d = 0; d < st.numParallel; ++d) {
    if (int g = kp.gridCoordOf(m, d); g >= 0) {
      a.gridCoord.push_back(g);
      a.lo.push_back(0);
      a.extent.push_back(kp.tile[g]);
    } else if (kp.splitChunks > 1 && d == kp.chunkDims[m]) {
      a.gridCoord.push_back(OnChipArray::kChunkCoord);
      a.lo.push_back(ss.lo[d]);
      a.extent.push_back(kp.splitChunk);
    } else {
      int64_t lo = ss.lo[d], hi = ss.hi[d];
      for (size_t k = 0; k < members.size(); ++k) {
        const Statement& w = prog.statements[members[k]];
        if (k == m || w.write.tensor != t || d >= w.numParallel) continue;
        lo = std::min(lo, sized(w.id).lo[d]);
        hi = std::max(hi, sized(w.id).hi[d]);
      }
      a.gridCoord.push_back(-1);
      a.lo.push_back(lo);
      a.extent.push_back(hi - lo);
    }
  }
  return a;
}

std::optional<KernelPlan> CostModel::evaluate(const std::vector<int>& members, const GridCandidate& c,
                                             const std::vector<int>* threadDims, const std::vector<int>& recomputed,
                                             std::optional<bool> stream, std::optional<RowMapping> mapping) const {
  if (mapping == RowMapping::StreamedTile) return stream == false ? std::nullopt : streamedTile(members, c, recomputed, false);
  const bool columns = mapping == RowMapping::ColumnTile;
  std::optional<KernelPlan> best;
  if (!columns) best = evaluateMapping(members, c, threadDims, recomputed, stream, -1);
  auto keepFaster = [&](std::optional<KernelPlan> other) {
    if (other && (!best || other->modeledUs < best->modeledUs - 1e-12)) best = std::move(other);
  };
  if (!mapping && stream != false && c.chunks == 1) keepFaster(streamedTile(members, c, recomputed, true));
  // A column tile shares reductions across threads (strict numerics keeps them serial);
  // a split is a row's.
  if ((mapping && !columns) || (!mapping && !columnTiles_) || strict() || c.chunks > 1) return best;
  const int coord = columnCoord(members, c);
  if (coord < 0) return best;
  keepFaster(evaluateMapping(members, c, threadDims, recomputed, stream, coord));
  return best;
}

int CostModel::columnCoord(const std::vector<int>& members, const GridCandidate& c) const {
  const Program& prog = fg_.program();
  int coord = -1;
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[size_t(members[k])];
    if (st.numReduction() == 0) continue;
    const SizedStatement& ss = sized(members[k]);
    int found = -1;
    for (size_t t = 0; t < c.dims[k].size() && found < 0; ++t) {
      const int d = c.dims[k][t];
      if (c.tile[t] < 2 || (coord >= 0 && int(t) != coord)) continue;
      for (auto& r : ss.reads) {
        if (r.coef.empty() || !r.indirect.empty() || r.coef.back()[size_t(d)] != 1) continue;
        bool alongReduction = false;
        for (size_t e = size_t(st.numParallel); e < st.dims.size(); ++e) alongReduction |= r.coef.back()[e] != 0;
        if (!alongReduction) found = int(t);
      }
    }
    if (found < 0) return -1;
    coord = found;
    for (int d = 0; d < st.numParallel; ++d) {
      if (d == c.dims[k][size_t(coord)]) continue;
      auto t = std::find(c.dims[k].begin(), c.dims[k].end(), d);
      if (t == c.dims[k].end() || c.tile[size_t(t - c.dims[k].begin())] != 1) return -1;
    }
  }
  return coord;
}

int CostModel::columnThreads(int64_t threads, int64_t columns) const {
  const int64_t unit = std::lcm<int64_t>(columns, kWarp);
  if (unit > dev_.threadsPerBlock) return 0;
  return int(std::max(unit, threads / unit * unit));
}

// evaluate() for one thread mapping: the threads' own (columnCoord < 0), or a column tile
// along grid coordinate columnCoord.
std::optional<KernelPlan> CostModel::evaluateMapping(const std::vector<int>& members, const GridCandidate& c,
                                                     const std::vector<int>* threadDims, const std::vector<int>& recomputed,
                                                     std::optional<bool> stream, int columnCoord) const {
  // A split's chunks add their partials in another order than the loop.
  if (strict() && c.chunks > 1) return std::nullopt;
  KernelPlan kp;
  kp.recomputed = recomputed;
  BlockShape shape = shapeGrid(members, c, kp);
  if (!mapThreads(members, threadDims, shape, kp, columnCoord)) return std::nullopt;
  // Two reductions split together run only streamed: each chunk's maximum alone would
  // not do for the sum.
  if (kp.splitChunks > 1 && splitPartner(members) >= 0) {
    if (stream == false) return std::nullopt;
    const std::vector<StreamPair> pairs = streamPairs(members, kp);
    if (pairs.empty()) return std::nullopt;
    // Only the sum and the producers it inlines, which read the running maximum, may
    // read what the pair computes: a chunk holds neither final value.
    const Program& prog = fg_.program();
    const int m = prog.statements[size_t(members[size_t(pairs[0].max)])].write.tensor;
    const int s = prog.statements[size_t(members[size_t(pairs[0].sum)])].write.tensor;
    for (size_t k = 0; k < members.size(); ++k) {
      if (int(k) == pairs[0].sum || std::find(pairs[0].inlined.begin(), pairs[0].inlined.end(), int(k)) != pairs[0].inlined.end())
        continue;
      for (auto& r : prog.statements[size_t(members[k])].reads)
        if (r.tensor == m || r.tensor == s) return std::nullopt;
    }
    stream = true;
  }
  // A contraction tiled (if it can be), then as it is: the cheaper, the tiled at equal time.
  // On tensor cores, warp tiles of either size (ContractionTile).
  std::optional<KernelPlan> best;
  for (int micro : {kMicroTile, kWideMicroTile}) {
    KernelPlan tiled = kp;
    if (!tileContraction(members, tiled, micro)) continue;
    if (micro != kMicroTile && !tiled.contractions.front().tensorCores() && !wideFmaTiles_) continue;
    KernelPlan v = price(members, shape, tiled, stream);
    if (!best || v.modeledUs < best->modeledUs - 1e-12) best = std::move(v);
  }
  // Split-K runs tiled only: a chunk per thread would be a serial loop over a chunk.
  if (kp.splitsK())
    return splitK_ ? best : std::nullopt;
  KernelPlan plain = price(members, shape, kp, stream);
  if (!best) return plain;
  return plain.modeledUs < best->modeledUs - 1e-12 ? plain : *best;
}

// Steps 3 and 4 for one thread mapping: without, then with, the re-read inputs cached on
// chip, each with its rows in shared memory, then in registers where they can be; the
// cheapest, and at equal time the later (each input read once: L2 traffic the time does
// not show is spared; rows in registers: no on-chip loads, no barriers).
KernelPlan CostModel::price(const std::vector<int>& members, const BlockShape& shape, KernelPlan kp,
                            std::optional<bool> stream) const {
  std::optional<KernelPlan> best;
  // Streamed sums (docs/streaming.md): one pass fewer over what they share with their
  // maximum, a rescale per point. Taken only when faster (at equal time the two passes
  // keep the program's own arithmetic), or when asked for: then the two-pass plans are
  // not priced at all.
  std::vector<StreamPair> pairs = stream.value_or(true) ? streamPairs(members, kp) : std::vector<StreamPair>{};
  const bool onlyStreamed = stream.value_or(false) && !pairs.empty();
  // Wide blocks: a block whose shared memory leaves it alone on its SM is priced again
  // with up to kMaxBlockThreads threads (more loads in flight, a row in registers where
  // 256 threads would need more than kMaxRegisterRow each), and kept only when faster.
  auto alone = [&](const KernelPlan& p) {
    return !dev_.arch.empty() && p.blocksPerSM == 1 && p.occupancyLimiter == "shared memory" &&
           p.threadsPerBlock < kMaxBlockThreads;
  };
  // Prices a placed variant; it replaces `into` when faster (`wide`: only then, and only
  // where a block of it fits an SM; else at equal time too).
  auto finish = [&](KernelPlan v, double sectorWaste, std::optional<KernelPlan>& into, bool wide) {
    loadsInFlight(members, shape, v);
    onchipLoads(members, v);
    placeBarriers(fg_.program(), at_, v);
    timeKernel(sectorWaste, v);
    if (wide && v.blocksPerSM < 1) return;
    if (!into || v.modeledUs < into->modeledUs - 1e-12 || (!wide && v.modeledUs <= into->modeledUs + 1e-12))
      into = std::move(v);
  };
  bool widen = false;
  for (bool wide : {false, true}) {
    if (wide && !widen) break;
    bool cacheable = !onlyStreamed;
    for (bool cacheInputs : {false, true}) {
      if (!cacheable) break;
      KernelPlan placed = kp;
      placed.wideBlock = wide;
      const double sectorWaste = placeData(members, shape, placed, cacheInputs);
      cacheable = placed.cacheable;  // else the cached variant would be this plan again
      vectorize(members, shape, placed);
      widen |= alone(placed);
      if (wide && placed.threadsPerBlock <= dev_.threadsPerBlock) continue;  // as narrow as before
      for (bool registers : {false, true}) {
        KernelPlan v = placed;
        if (registers && !registerRows(members, shape, v)) break;
        finish(std::move(v), sectorWaste, best, wide);
      }
    }
  }
  if (!pairs.empty()) {
    std::optional<KernelPlan> streamed;
    for (bool wide : {false, true}) {
      if (wide && !alone(*streamed)) break;
      KernelPlan v = kp;
      v.wideBlock = wide;
      v.streams = pairs;
      const double sectorWaste = placeData(members, shape, v, false);
      vectorize(members, shape, v);
      if (wide && v.threadsPerBlock <= dev_.threadsPerBlock) break;
      for (auto& p : v.streams)  // the rescale: an exp and a multiply per point
        v.flops = checkedAdd(v.flops, checkedMul(sized(members[size_t(p.sum)]).points, 2, "a kernel's flops"), "a kernel's flops");
      finish(std::move(v), sectorWaste, streamed, wide);
    }
    if (onlyStreamed || streamed->modeledUs < best->modeledUs - 1e-12) best = std::move(streamed);
  }
  return *best;
}

// A sum runs in its maximum's loop (StreamChain) when the maximum and every producer it
// inlines are members, both reduce the same way (across the block's or a warp's
// threads, each thread serially, or in a split's chunks; never tiled) on aligned dims of
// the grid and threads, and neither the sum nor a producer depends on a member after the
// maximum but those producers (the loop runs where the maximum stands). A producer is
// inlined, running nowhere else, when no other member and nothing after the kernel
// reads its value.
std::vector<StreamPair> CostModel::streamPairs(const std::vector<int>& members, const KernelPlan& kp) const {
  std::vector<StreamPair> out;
  if (!streams_ || strict()) return out;  // a streamed sum rescales: other rounding
  const Program& prog = fg_.program();
  auto indexOf = [&](int s) { return size_t(std::find(members.begin(), members.end(), s) - members.begin()); };
  for (size_t k = 0; k < members.size(); ++k) {
    const StreamChain& sc = stream_[size_t(members[k])];
    if (!sc.streamsAlongside()) continue;
    const size_t j = indexOf(sc.max);
    if (j >= k || kp.modes[j] != kp.modes[k] || kp.tiledWith(j) || kp.tiledWith(k)) continue;
    if (kp.modes[k] != StmtMode::BlockReduce && kp.modes[k] != StmtMode::SerialReduce && kp.modes[k] != StmtMode::SplitReduce)
      continue;
    std::vector<size_t> chain;
    for (int p : sc.producers) chain.push_back(indexOf(p));
    bool ok = std::all_of(chain.begin(), chain.end(), [&](size_t c) { return c < members.size(); });
    auto aligned = [&](int dm, int ds) { return dm < 0 ? ds < 0 : ds == sc.sumDimOf[size_t(dm)]; };
    ok = ok && aligned(kp.threadDims[j], kp.threadDims[k]);
    for (size_t t = 0; t < kp.gridDims[j].size() && ok; ++t) ok = aligned(kp.gridDims[j][t], kp.gridDims[k][t]);
    auto inChain = [&](size_t at) { return std::find(chain.begin(), chain.end(), at) != chain.end(); };
    std::vector<size_t> runs = chain;
    runs.push_back(k);
    for (size_t r : runs)
      for (int src : depSources_[size_t(members[r])]) {
        const size_t at = indexOf(src);
        ok = ok && (at == members.size() || at <= j || inChain(at));
      }
    for (auto& p : out) ok = ok && size_t(p.max) != j;  // one sum a loop
    if (!ok) continue;
    StreamPair sp{int(j), int(k), {}};
    for (size_t c : chain) {
      const int t = prog.statements[size_t(members[c])].write.tensor;
      const bool recomputed = std::find(kp.recomputed.begin(), kp.recomputed.end(), members[c]) != kp.recomputed.end();
      bool alone = prog.tensors[size_t(t)].role != TensorRole::Output;
      for (int reader : consumers_[size_t(t)]) {
        const size_t at = indexOf(reader);
        if (at == members.size()) alone = alone && recomputed;
        else alone = alone && (at == k || inChain(at));
      }
      if (alone) sp.inlined.push_back(int(c));
    }
    out.push_back(std::move(sp));
  }
  return out;
}

// A serial reduction that is a sum over one reduction dim r with two parallel dims p, q,
// both tiled on the grid in multiples of the micro-tile, every read varying with r and
// with exactly one of p and q (A(i, k), W(k, j)), runs as a tiled matrix product:
// (tileP / 4) x (tileQ / 4) threads, 4 x 4 outputs each, the reads staged in shared
// memory 16 steps of r at a time. Every such member whose threads agree with the first's
// is tiled (the others run their plain loops with those threads), with its epilogue.
// False (kp unchanged) when none is.
bool CostModel::tileContraction(const std::vector<int>& members, KernelPlan& kp, int micro) const {
  if (kp.rowMapping != RowMapping::Threads) return false;
  // Split-K: the contraction alone (its partials are no value an epilogue could take).
  const bool split = kp.splitChunks > 1;
  if (split && members.size() != 1) return false;
  std::vector<ContractionTile> tiles;
  for (size_t k = 0; k < members.size(); ++k) {
    if (kp.modes[k] != (split ? StmtMode::SplitTileReduce : StmtMode::SerialReduce)) continue;
    std::optional<ContractionTile> c = contractionTile(members, kp, int(k), micro);
    if (c && (tiles.empty() || c->threads() == tiles.front().threads())) tiles.push_back(*c);
  }
  if (tiles.empty()) return false;
  kp.contractions = tiles;
  kp.threadsPerBlock = tiles.front().threads();
  for (ContractionTile& c : kp.contractions) {
    c.epilogue = epilogueOf(members, kp, c);
    if (c.tensorCores()) {
      const SizedStatement& ss = sized(members[size_t(c.member)]);
      const int64_t flops = checkedMul(ss.points, ss.flopsPerPoint, "a kernel's flops");
      kp.tensorFlops = checkedAdd(kp.tensorFlops, flops, "a kernel's flops");
      if (c.halfOperands()) kp.halfTensorFlops = checkedAdd(kp.halfTensorFlops, flops, "a kernel's flops");
    }
  }
  return true;
}

const ContractionTile* CostModel::accumulated(const std::vector<int>& members, const KernelPlan& kp, int t) const {
  if (kp.contractions.empty()) return nullptr;  // the common case, answered without a pass over the members
  const Program& prog = fg_.program();
  const ContractionTile* tile = nullptr;
  for (size_t m = 0; m < members.size(); ++m)
    if (prog.statements[size_t(members[m])].write.tensor == t) tile = kp.tiledWith(m);
  if (!tile) return nullptr;
  for (size_t m = 0; m < members.size(); ++m)
    for (const Access& r : prog.statements[size_t(members[m])].reads)
      if (r.tensor == t && (kp.tiledWith(m) != tile || kp.contractionOf(m))) return nullptr;
  return tile;
}

// A contraction's epilogue: the later pointwise members that can run on its accumulators
// in registers as each output leaves the micro-tile, ahead of the members between them.
// Member e qualifies when it assigns one value at each point of the contraction's tile
// (its two dims on the same grid coordinates, over the same ranges), reads the
// contraction's result or an earlier epilogue member's only at its own point, and no
// member between them writes what e reads or touches what e writes. What e reads besides
// was written before the contraction, which the staging barriers of its first step order.
std::vector<int> CostModel::epilogueOf(const std::vector<int>& members, const KernelPlan& kp, const ContractionTile& c) const {
  const Program& prog = fg_.program();
  const size_t cm = size_t(c.member);
  const SizedStatement& cs = sized(members[cm]);
  std::vector<int> out;
  // No step, no staging barrier; a contraction that adds to a value it does not start
  // from keeps that value in memory.
  if (cs.hi[size_t(c.r)] <= cs.lo[size_t(c.r)] || !prog.statements[size_t(members[cm])].init) return out;
  std::vector<int> chain{prog.statements[size_t(members[cm])].write.tensor};
  auto inChain = [&](int t) { return std::find(chain.begin(), chain.end(), t) != chain.end(); };
  // The grid coordinate of each subscript of an access that is a bare dimension; -1 else.
  auto coords = [&](size_t m, const Access& a) {
    const Statement& st = prog.statements[size_t(members[m])];
    std::vector<int> g;
    for (const Affine& sub : a.subscripts) {
      int t = -1;
      if (sub.coef.size() == 1 && sub.constant == 0 && sub.div == 1 && sub.coef.begin()->second == 1)
        for (size_t d = 0; d < st.dims.size(); ++d)
          if (st.dims[d] == sub.coef.begin()->first) t = kp.gridCoordOf(m, int(d));
      g.push_back(t);
    }
    return g;
  };
  const int tp = kp.gridCoordOf(cm, c.p), tq = kp.gridCoordOf(cm, c.q);
  std::vector<size_t> between;  // members after the contraction that stay where they are
  for (size_t e = cm + 1; e < members.size(); ++e) {
    const Statement& st = prog.statements[size_t(members[e])];
    const SizedStatement& ss = sized(members[e]);
    bool ok = kp.modes[e] == StmtMode::Pointwise && st.op == ReduceOp::Assign && st.numParallel == 2 &&
              st.dims.size() == 2 && !kp.contractionOf(e);
    for (int d = 0; d < 2 && ok; ++d) {
      const int t = kp.gridCoordOf(e, d);
      const int cd = t == tp ? c.p : t == tq ? c.q : -1;
      ok = cd >= 0 && ss.lo[size_t(d)] == cs.lo[size_t(cd)] && ss.hi[size_t(d)] == cs.hi[size_t(cd)];
    }
    bool readsChain = false;
    for (const Access& r : st.reads) {
      if (!ok) break;
      if (!inChain(r.tensor)) continue;
      readsChain = true;
      // The value at e's own point: each subscript the dimension on the grid coordinate
      // that the writer's subscript there runs on.
      int w = int(cm);
      for (size_t m = 0; m < members.size(); ++m)
        if (prog.statements[size_t(members[m])].write.tensor == r.tensor) w = int(m);
      const std::vector<int> at = coords(e, r), written = coords(size_t(w), prog.statements[size_t(members[size_t(w)])].write);
      ok = at == written && std::find(at.begin(), at.end(), -1) == at.end();
    }
    ok = ok && readsChain;
    for (size_t m = 0; m < members.size() && ok; ++m)  // e's tensor has one writer
      ok = m == e || prog.statements[size_t(members[m])].write.tensor != st.write.tensor;
    for (size_t b : between) {  // e moves ahead of b
      const Statement& sb = prog.statements[size_t(members[b])];
      for (const Access& r : st.reads) ok = ok && sb.write.tensor != r.tensor;
      ok = ok && sb.write.tensor != st.write.tensor;
      for (const Access& r : sb.reads) ok = ok && r.tensor != st.write.tensor;
    }
    if (!ok) {
      between.push_back(e);
      continue;
    }
    out.push_back(int(e));
    chain.push_back(st.write.tensor);
  }
  return out;
}

std::optional<ContractionTile> CostModel::contractionTile(const std::vector<int>& members, const KernelPlan& kp,
                                                          int member, int micro) const {
  const Program& prog = fg_.program();
  const Statement& st = prog.statements[members[size_t(member)]];
  if (!contractionShaped(st) || st.reads.empty()) return std::nullopt;
  ContractionTile c;
  c.member = member;
  c.q = kp.threadDims[size_t(member)];
  c.p = 1 - c.q;
  c.r = 2;
  if (c.q != 0 && c.q != 1) return std::nullopt;
  const int tp = kp.gridCoordOf(size_t(member), c.p), tq = kp.gridCoordOf(size_t(member), c.q);
  if (tp < 0 || tq < 0) return std::nullopt;
  c.tileP = kp.tile[size_t(tp)];
  c.tileQ = kp.tile[size_t(tq)];
  c.micro = micro;
  c.kStep = kContractionStep;
  if (c.tileP % c.micro || c.tileQ % c.micro) return std::nullopt;
  if (c.threads() < kWarp || c.threads() % kWarp || c.threads() > dev_.threadsPerBlock) return std::nullopt;
  auto uses = [](const Access& a, const std::string& dim) {
    for (auto& s : a.subscripts)
      if (s.coefficient(dim) != 0) return true;
    return false;
  };
  for (auto& r : st.reads) {
    // Staging loads every step's slice ahead of the body's selects.
    if (r.gathers() || r.guarded()) return std::nullopt;
    const bool p = uses(r, st.dims[size_t(c.p)]), q = uses(r, st.dims[size_t(c.q)]);
    if (!uses(r, st.dims[2]) || p == q) return std::nullopt;
    c.alongP.push_back(p);
  }
  // Tensor cores take a product of two operands, one along each side of the tile, and a
  // tile of whole warp tiles.
  if (const ContractionEngine e = tensorEngine(st); e != ContractionEngine::FmaUnits && c.alongP[0] != c.alongP[1] &&
                                                    c.tileP % c.warpP() == 0 && c.tileQ % c.warpQ() == 0 &&
                                                    c.kStep % mmaSteps(e) == 0)
    c.engine = e;
  // Slices with lines along r: the operand along p on tensor cores, and the one along q
  // where its tensor runs along r in memory (its last subscript r alone).
  for (size_t k = 0; k < st.reads.size(); ++k) {
    c.linesAlongR.push_back(c.tensorCores() && (c.alongP[k] || st.reads[k].runsAlong(st.dims[2])));
  }
  if (maxStages_ >= 2 && 2 * c.stageElements() * c.stageBytes(computeBytes_) + kReduceScratchSlots * computeBytes_ <=
                             KernelPlan::kStaticSharedBytes)
    c.stages = 2;
  return c;
}

ContractionEngine CostModel::tensorEngine(const Statement& st) const {
  return contractionShaped(st) ? productEngine(st) : ContractionEngine::FmaUnits;
}

ContractionEngine CostModel::productEngine(const Statement& st) const {
  const Program& prog = fg_.program();
  if (st.op != ReduceOp::Add || st.numReduction() != 1 || st.reads.size() != 2 || st.rhs->kind != ExprKind::Mul ||
      st.rhs->args.size() != 2 || dev_.arch.empty() || prog.computeType() != ElemType::F32)
    return ContractionEngine::FmaUnits;
  auto typeOf = [&](const Expr& e) {
    return e.kind == ExprKind::Access ? std::optional(prog.tensors[size_t(st.reads[size_t(e.ref)].tensor)].type) : std::nullopt;
  };
  const std::optional<ElemType> a = typeOf(*st.rhs->args[0]), b = typeOf(*st.rhs->args[1]);
  if (!a || a != b) return ContractionEngine::FmaUnits;
  if (*a == ElemType::F32 && tensorCoresAllowed()) return ContractionEngine::TensorCoresTf32;
  if ((*a == ElemType::Half || *a == ElemType::BF16) && numerics_ != Numerics::Strict && dev_.halfTensorFlopsPerSec > 0)
    return *a == ElemType::Half ? ContractionEngine::TensorCoresF16 : ContractionEngine::TensorCoresBf16;
  return ContractionEngine::FmaUnits;
}

// Operand traffic from L1 / shared memory: every read of every point, except a tiled
// contraction's, whose staged values each feed a micro-tile's row or column from
// registers, plus its staging stores (each block's slices, every step: smaller tiles
// stage more).
void CostModel::onchipLoads(const std::vector<int>& members, KernelPlan& kp) const {
  kp.onchipLoadBytes = 0;
  for (const ContractionTile& c : kp.contractions) {
    const int64_t steps = c.steps(sized(members[size_t(c.member)]), kp.kChunk());
    kp.onchipLoadBytes += checkedMul(checkedMul(kp.blocks, c.stagedValues() * steps, "staging"),
                                     c.stageBytes(computeBytes_), "staging");
  }
  for (size_t k = 0; k < members.size(); ++k) {
    const SizedStatement& ss = sized(members[k]);
    const ContractionTile* c = kp.contractionOf(k);
    for (size_t i = 0; i < ss.reads.size(); ++i) {
      const auto& r = ss.reads[i];
      const int64_t reuse = c ? c->reuse(i) : 1;
      if (const OnChipArray* a = kp.arrayOf(r.tensor); a && a->inRegisters() && !kp.readsGlobal(fg_.program(), k, r.tensor))
        continue;  // the thread's own registers
      // A tile's slices hold its reads as ContractionTile::stageBytes says.
      const int64_t bytes = c ? c->stageBytes(computeBytes_) : elemBytes_[r.tensor];
      kp.onchipLoadBytes = checkedAdd(kp.onchipLoadBytes, checkedMul(ss.points, bytes, "on-chip loads") / reuse, "on-chip loads");
    }
  }
}

// The slice of input t that every member reading it reads in one block, as an on-chip
// array, when they all read the same box through the same subscripts' grid coordinates
// (then the first reader's pass fills it and every later one finds what it needs);
// none otherwise, or in a split reduction.
std::optional<OnChipArray> CostModel::inputSlice(const std::vector<int>& members, const BlockShape& shape,
                                                const KernelPlan& kp, int t) const {
  if (kp.splitChunks > 1) return std::nullopt;
  std::optional<OnChipArray> out;
  std::optional<Box> box;
  for (size_t k = 0; k < members.size(); ++k) {
    const SizedStatement& ss = sized(members[k]);
    for (auto& r : ss.reads) {
      if (r.tensor != t) continue;
      // A tiled contraction stages its reads step by step instead: it leaves no copy.
      // A guarded reader copies only the elements its guards let it read.
      if (!r.indirect.empty() || r.guarded || kp.tiledWith(k)) return std::nullopt;
      // Every block must run every reader, the first included: a member whose range on a
      // grid coordinate is narrower than the grid leaves blocks where it fills nothing.
      for (int g = 0; g < kp.gridRank(); ++g) {
        const size_t d = size_t(kp.gridDims[k][size_t(g)]);
        if (ss.lo[d] != kp.gridLo[size_t(g)] || ss.hi[d] != kp.gridLo[size_t(g)] + kp.gridExtent[size_t(g)])
          return std::nullopt;
      }
      const Box b = footprint(ss, r, shape.lo[k], shape.hi[k]);
      if (b.empty || (box && (box->lo != b.lo || box->hi != b.hi))) return std::nullopt;
      box = b;
      OnChipArray a;
      a.tensor = t;
      for (size_t p = 0; p < r.coef.size(); ++p) {
        int grid = -1, dims = 0;
        for (size_t d = 0; d < r.coef[p].size(); ++d) {
          if (r.coef[p][d] == 0) continue;
          ++dims;
          if (kp.gridCoordOf(k, int(d)) >= 0) grid = int(d);
        }
        if (grid >= 0) {  // the subscript is the grid dimension itself: the tile
          if (dims != 1 || r.coef[p][size_t(grid)] != 1 || r.constant[p] != 0) return std::nullopt;
          const int g = kp.gridCoordOf(k, grid);
          a.gridCoord.push_back(g);
          a.lo.push_back(0);
          a.extent.push_back(kp.tile[size_t(g)]);
        } else {
          a.gridCoord.push_back(-1);
          a.lo.push_back(b.lo[p]);
          a.extent.push_back(b.hi[p] - b.lo[p] + 1);
        }
      }
      if (out && (out->gridCoord != a.gridCoord || out->lo != a.lo || out->extent != a.extent)) return std::nullopt;
      out = a;
    }
  }
  return out;
}

// Buffers whose lifetimes do not overlap share storage: a pointwise member that reads an
// on-chip array (a temporary, or an input cached after its first pass) for the last time,
// each element at the point where it writes its own on-chip result, writes that result
// in place (h -> d = h - mean in SkipLayerNorm). The same thread reads an element and then
// overwrites it; the barrier analysis sees one buffer. Returns the bytes saved.
int64_t CostModel::reuseStorage(const std::vector<int>& members, KernelPlan& kp, int computeBytes) const {
  const Program& prog = fg_.program();
  auto same = [](const OnChipArray& a, const OnChipArray& b) {
    return a.extent == b.extent && a.gridCoord == b.gridCoord && a.lo == b.lo;
  };
  // Writers of each tensor and the last member reading it, counted once: the tests below
  // run for every member, and a kernel may have thousands.
  std::map<int, int> writers;
  std::map<int, size_t> lastReader;
  for (size_t m = 0; m < members.size(); ++m) {
    const Statement& st = prog.statements[members[m]];
    ++writers[st.write.tensor];
    for (auto& q : st.reads) lastReader[q.tensor] = m;
  }
  std::set<int> taken;  // arrays whose storage a later one holds now
  int64_t saved = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[members[k]];
    OnChipArray* b = kp.arrayOf(st.write.tensor);
    if (!b || b->inRegisters() || kp.modes[k] != StmtMode::Pointwise || !kp.keepsOnChip(st.write.tensor)) continue;
    if (writers[st.write.tensor] != 1) continue;  // one writer of b in the kernel
    for (auto& r : st.reads) {
      OnChipArray* a = kp.arrayOf(r.tensor);
      if (!a || a == b || a->inRegisters() || taken.count(r.tensor) || !same(*a, *b) || r.subscripts != st.write.subscripts)
        continue;
      // The first reader of a cached input fills it: the copy is still being made there.
      if (kp.cachesInput(r.tensor) && kp.firstReader(prog, r.tensor) == st.id) continue;
      // No later member reads a, and st reads it only at its own point.
      bool last = lastReader[r.tensor] == k;
      for (auto& q : st.reads) last &= q.tensor != r.tensor || q.subscripts == st.write.subscripts;
      if (!last) continue;
      b->reuses = r.tensor;
      taken.insert(r.tensor);
      saved += b->alignedBytes(computeBytes);
      break;
    }
  }
  return saved;
}

// Partials of split member `s`: written by the blocks, read back by the combining launch.
// The scratch holds one copy of the member's result tensor per chunk (codegen indexes it
// that way: chunk times the tensor's elements, plus the element, after the earlier
// members'); the traffic is the outputs'.
void CostModel::addPartials(int s, KernelPlan& kp) const {
  const Statement& st = fg_.program().statements[size_t(s)];
  const SizedStatement& ss = sized(s);
  int64_t outputs = 1;
  for (int d = 0; d < st.numParallel; ++d) outputs *= ss.hi[size_t(d)] - ss.lo[size_t(d)];
  kp.partialElements = checkedAdd(kp.partialElements,
                                  checkedMul(at_.tensorElements(st.write.tensor), kp.splitChunks, "a split reduction's scratch"),
                                  "a split reduction's scratch");
  const int64_t bytes = checkedMul(outputs, kp.splitChunks * computeBytes_, "a split reduction's scratch");
  kp.dramBytes += bytes;
  kp.l2Bytes += bytes;
}

// Step 1, the grid: where it starts and ends, how many blocks, each member's box in one
// block, and the threads a block needs for its largest member.
CostModel::BlockShape CostModel::shapeGrid(const std::vector<int>& members, const GridCandidate& c,
                                           KernelPlan& kp) const {
  const int g = int(c.tile.size());
  kp.statements = members;
  kp.gridDims = c.dims;
  kp.tile = c.tile;
  std::vector<int64_t> gridHi;
  std::tie(kp.gridLo, gridHi) = gridBounds(members, c.dims);
  kp.blocks = 1;
  int64_t tilePoints = 1;
  for (int t = 0; t < g; ++t) {
    kp.gridExtent.push_back(std::max<int64_t>(0, gridHi[t] - kp.gridLo[t]));
    kp.blocks *= std::max<int64_t>(1, (kp.gridExtent[t] + c.tile[t] - 1) / c.tile[t]);
    tilePoints *= c.tile[t];
  }
  kp.chunkDims.assign(members.size(), -1);
  if (c.chunks > 1) {
    kp.chunkDims = splitDims(members);
    if (kp.chunkDims.empty()) kp.chunkDims.assign(members.size(), -1);  // mapThreads rejects it
    // Every chunked dimension spans the reduction's range (splitDims checks it): the
    // reduction's last dimension.
    const SizedStatement& s = sized(members[std::max(0, splitRoot(members))]);
    const int64_t extent = s.hi.back() - s.lo.back();
    kp.splitChunk = (extent + c.chunks - 1) / c.chunks;
    kp.splitChunks = (extent + kp.splitChunk - 1) / kp.splitChunk;
    kp.blocks *= kp.splitChunks;
  }
  // Work per block: the statement's points outside the grid times the tile.
  int64_t work = 1;
  BlockShape shape;
  shape.lo.resize(members.size());
  shape.hi.resize(members.size());
  for (size_t k = 0; k < members.size(); ++k) {
    const SizedStatement& s = sized(members[k]);
    shape.lo[k] = s.lo;
    shape.hi[k] = s.hi;
    int64_t w = 1;
    for (size_t d = 0; d < s.lo.size(); ++d)
      if (std::find(c.dims[k].begin(), c.dims[k].end(), int(d)) == c.dims[k].end()) w *= std::max<int64_t>(1, s.hi[d] - s.lo[d]);
    for (int t = 0; t < g; ++t) {
      int d = c.dims[k][t];
      shape.lo[k][d] = std::max(s.lo[d], kp.gridLo[t]);
      shape.hi[k][d] = std::min(s.hi[d], kp.gridLo[t] + c.tile[t]);
    }
    if (c.chunks > 1 && kp.chunkDims[k] >= 0) {
      // A split reduction: the block covers one chunk of each member's chunked dimension.
      const int d = kp.chunkDims[k];
      const int64_t extent = s.hi[d] - s.lo[d];
      shape.hi[k][d] = std::min(s.hi[d], s.lo[d] + kp.splitChunk);
      w = w / std::max<int64_t>(1, extent) * kp.splitChunk;
    }
    shape.work.push_back(w * tilePoints);
    work = std::max(work, w * tilePoints);
    kp.flops = checkedAdd(kp.flops, checkedMul(s.points, s.flopsPerPoint, "a kernel's flops"), "a kernel's flops");
    kp.mathCalls += double(s.points) * s.mathCallsPerPoint;
    kp.points = checkedAdd(kp.points, s.points, "a kernel's points");
  }
  kp.threadsPerBlock = int(std::min<int64_t>(dev_.threadsPerBlock, (work + kWarp - 1) / kWarp * kWarp));
  return shape;
}

// Step 2, the thread mapping, which the code generator follows: threads run along the
// innermost in-block parallel dimension when the block's parallel points fill a warp;
// otherwise they split the innermost reduction dimension. False when the candidate
// splits a reduction that its threads would not share (nothing to gain).
bool CostModel::mapThreads(const std::vector<int>& members, const std::vector<int>* threadDims, BlockShape& shape,
                           KernelPlan& kp, int columnCoord) const {
  const Program& prog = fg_.program();
  kp.threadDims.assign(members.size(), -1);
  shape.run.assign(members.size(), 1);
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[members[k]];
    int lastPar = -1;
    int64_t parPoints = 1;
    for (int d = 0; d < st.numParallel; ++d) {
      if (kp.fixedByBlock(k, d)) continue;
      lastPar = d;
      parPoints *= shape.hi[k][d] - shape.lo[k][d];
    }
    int x = lastPar;
    // Strict numerics: threads never share a reduction (each combines partials in a
    // tree, another order than the loop's).
    if ((parPoints < kWarp || lastPar < 0) && st.numReduction() > 0 && !strict()) x = int(st.dims.size()) - 1;
    // A column tile: a reduction's threads run along its column (the kept dimension).
    const int column = columnCoord >= 0 && st.numReduction() > 0 ? kp.gridDims[k][size_t(columnCoord)] : -1;
    if (column >= 0) x = column;
    if (threadDims) x = (*threadDims)[k];
    if (strict() && x >= st.numParallel) return false;
    if (column >= 0 && x != column) return false;
    kp.threadDims[k] = x;
    if (x >= 0) shape.run[k] = std::max<int64_t>(1, shape.hi[k][x] - shape.lo[k][x]);
    const bool split = kp.splitChunks > 1;
    kp.modes.push_back(st.numReduction() == 0       ? StmtMode::Pointwise
                       : column >= 0               ? StmtMode::ColumnReduce
                       : x < st.numParallel && split ? StmtMode::SplitTileReduce  // tiled, or nothing (evaluate)
                       : x < st.numParallel        ? StmtMode::SerialReduce
                       : split                     ? StmtMode::SplitReduce
                                                   : StmtMode::BlockReduce);
  }
  // Splitting extends a block reduction across blocks, or a tiled contraction's (split-K).
  for (size_t k = 0; k < members.size(); ++k) {
    if (kp.splitChunks > 1 && kp.chunkDims[k] < 0) return false;  // a member the chunks do not cut
    if (kp.chunkDims[k] >= 0 && kp.gridCoordOf(k, kp.chunkDims[k]) >= 0) return false;  // chunks cut across blocks only
  }
  if (kp.splitChunks > 1 && kp.splitMember() < 0) return false;
  return mapRows(members, kp, columnCoord);
}

// Step 2b, rows onto threads (RowMapping). A kernel whose threads share a reduction
// never runs its rows one after another through the whole block: a block of one row
// (the tile is one grid point), or a warp per row (each grid point of the tile gets a
// warp; its reductions are shuffles and its statements meet at warp barriers, since every
// dependence stays at one grid point). False for a tile that fits neither.
bool CostModel::mapRows(const std::vector<int>& members, KernelPlan& kp, int columnCoord) const {
  const Program& prog = fg_.program();
  if (columnCoord >= 0) {
    // A column tile: each group of threads holds the tile's columns, one a thread; at
    // least two groups share each column's reduction (one would be a serial reduction).
    kp.rowMapping = RowMapping::ColumnTile;
    kp.groupColumns = kp.tile[size_t(columnCoord)];
    // A tile past the grid's end would hold idle columns in every group.
    if (kp.groupColumns > kp.gridExtent[size_t(columnCoord)]) return false;
    kp.threadsPerBlock = columnThreads(kp.threadsPerBlock, kp.groupThreads());
    return kp.threadsPerBlock > 0 && kp.reduceGroups() >= 2;
  }
  int64_t rows = 1;
  for (int64_t t : kp.tile) rows *= t;
  if (!kp.usesBlockReduce()) kp.rowMapping = RowMapping::Threads;
  else if (kp.splitChunks > 1) kp.rowMapping = RowMapping::SplitRow;
  else if (rows == 1) kp.rowMapping = RowMapping::BlockPerRow;
  else kp.rowMapping = RowMapping::WarpPerRow;
  if (kp.rowMapping == RowMapping::SplitRow && rows > 1) return false;
  if (!kp.warpPerRow()) return true;
  if (rows * kWarp > dev_.threadsPerBlock) return false;
  // A warp's reductions run over its row alone: every parallel dimension a reducing
  // member loops over in the block is the row.
  for (size_t k = 0; k < members.size(); ++k) {
    if (!reducesAcrossThreads(kp.modes[k])) continue;
    for (int d = 0; d < prog.statements[members[k]].numParallel; ++d)
      if (!kp.fixedByBlock(k, d) && !kp.rowOfWarp(k, d)) return false;
  }
  kp.threadsPerBlock = int(rows * kWarp);
  return true;
}

// Step 3, footprints and placement: what each tensor costs in DRAM and L2 bytes, and
// which temporaries stay on chip. Returns the extra bytes of uncoalesced accesses.
double CostModel::placeData(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp,
                            bool cacheInputs) const {
  const Program& prog = fg_.program();
  StmtSet group = StmtSet::of(fg_.size(), members);
  // Bytes per element an access moves, as a multiple of its element: 1 when coalesced
  // (consecutive threads touch consecutive elements, or one element), else a whole
  // sector per element.
  auto sectorFactor = [&](const SizedAccess& a, size_t k) {
    int x = kp.threadDims[k];
    double eb = elemBytes_[a.tensor];
    // A gather along the last dimension scatters its elements over rows it cannot know.
    if (!a.indirect.empty() && a.indirect.back() >= 0) return kSectorBytes / eb;
    bool uses = false;
    for (auto& row : a.coef) uses |= x >= 0 && row[x] != 0;
    if (!uses) return x >= 0 || a.coef.empty() ? 1.0 : kSectorBytes / eb;
    for (size_t p = 0; p + 1 < a.coef.size(); ++p)
      if (a.coef[p][x] != 0) return kSectorBytes / eb;
    int64_t c = a.coef.back()[x];
    if (c != 1 && c != -1) return kSectorBytes / eb;
    return std::max(1.0, kSectorBytes / (double(shape.run[k]) * eb));
  };
  // Classify every tensor the kernel touches.
  struct Use {
    Box extReadFull, extReadBlock, writeFull, writeBlock, intReadBlock;
    int passes = 0;  // member statements that read it from global memory
    bool written = false;
    size_t firstWriter = 0;  // the member that writes it first, when written
    double sector = 1.0;  // worst sector factor over the kernel's accesses
  };
  std::map<int, Use> uses;
  std::vector<std::set<int>> passedIn(members.size());
  // Streamed: what inlined producers would write lives in registers, as does the
  // running maximum they and the sum read.
  std::set<int> inRegisters;
  for (auto& sp : kp.streams) {
    const StreamChain& sc = stream_[size_t(members[size_t(sp.sum)])];
    for (int p : sc.producers) inRegisters.insert(prog.statements[size_t(p)].write.tensor);
    inRegisters.insert(sc.tensor);
  }
  for (size_t k = 0; k < members.size(); ++k) {
    int s = members[k];
    const SizedStatement& ss = sized(s);
    if (!kp.inlinedInStream(k)) {
      Use& w = uses[ss.write.tensor];
      if (!w.written) w.firstWriter = k;
      w.written = true;
      w.sector = std::max(w.sector, sectorFactor(ss.write, k));
      w.writeFull.hull(footprint(ss, ss.write, ss.lo, ss.hi));
      w.writeBlock.hull(footprint(ss, ss.write, shape.lo[k], shape.hi[k]));
    }
    // Tensors this statement's pass already reads from global memory; a streamed sum's
    // pass, and its inlined producers', is its maximum's.
    const int into = kp.streamLoopOf(k);
    const bool streamed = into >= 0;
    std::set<int>& passed = passedIn[streamed ? size_t(into) : k];
    for (auto& r : ss.reads) {
      if (streamed && inRegisters.count(r.tensor)) continue;
      Use& u = uses[r.tensor];
      u.sector = std::max(u.sector, sectorFactor(r, k));
      bool external = prog.tensors[r.tensor].role == TensorRole::Input;
      auto it = flowSources_[s].find(r.tensor);
      if (it == flowSources_[s].end()) external = true;
      else
        for (int src : it->second) external |= !group.contains(src);
      if (external) {
        u.passes += passed.insert(r.tensor).second;
        u.extReadFull.hull(footprint(ss, r, ss.lo, ss.hi));
        u.extReadBlock.hull(footprint(ss, r, shape.lo[k], shape.hi[k]));
      } else {
        u.intReadBlock.hull(footprint(ss, r, shape.lo[k], shape.hi[k]));
      }
    }
  }
  // On-chip arrays hold the compute type, as the kernel declares them.
  const int computeBytes = computeBytes_;
  struct Candidate { OnChipArray array; int64_t bytes; };
  std::vector<Candidate> onchip;
  // Bytes moved by uncoalesced accesses, beyond the logical bytes.
  double sectorWaste = 0;
  auto dram = [&](int t, int64_t bytes) {
    kp.dramBytes += bytes;
    sectorWaste += double(bytes) * (uses[t].sector - 1.0);
  };
  auto reread = [&](int t, int64_t bytes) {
    if (bytes <= 0) return;
    if (double(tensorBytes(t)) > dev_.l2Bytes) dram(t, bytes);
    else kp.l2Bytes += bytes;
  };
  const StmtSet recomputedSet = kp.recomputed.empty() ? StmtSet() : StmtSet::of(fg_.size(), kp.recomputed);
  for (auto& [t, u] : uses) {
    const int64_t eb = elemBytes_[t];
    if (!u.extReadFull.empty) {
      int64_t first = u.extReadFull.volume();
      dram(t, first * eb);
      reread(t, (checkedMul(kp.blocks, u.extReadBlock.volume(), "a kernel's re-read bytes") - first) * eb);
      kp.globalReads.push_back(t);
      kp.inputPasses.push_back(u.passes);
    }
    if (!u.written) continue;
    bool escapes = prog.tensors[t].role == TensorRole::Output;
    // A recomputed member is its tensor's only writer; other kernels have their own copy.
    bool kept = false;
    for (int r : kp.recomputed) kept |= prog.statements[r].write.tensor == t;
    for (int c : consumers_[t]) escapes |= !group.contains(c) && !kept;
    // What the search counts as stored: among it, a value only this kernel computes that a
    // member it recomputes reads (that member's other copies read it from memory).
    escapes |= !kept && fg_.storesValue(group, recomputedSet, members[u.firstWriter]);
    // A tensor built in parts, some by another kernel, that a member reads: memory holds
    // every part, a chip only this kernel's (a rotary half swap split over two kernels).
    escapes |= !u.extReadFull.empty;
    if (escapes) {
      dram(t, u.writeFull.volume() * eb);
      reread(t, checkedMul(kp.blocks, u.intReadBlock.volume(), "a kernel's re-read bytes") * eb);
      kp.globalWrites.push_back(t);
    } else {
      OnChipArray a = onChipSlice(members, kp, u.firstWriter);
      if (const ContractionTile* c = accumulated(members, kp, t)) {
        // A contraction's result, or its epilogue's, read by that epilogue alone: it
        // lives in the accumulators' registers, in no memory.
        a.place = OnChipPlace::Registers;
        a.registerSlots = int64_t(c->micro) * c->micro;
        kp.onChip.push_back(a);
        continue;
      }
      onchip.push_back({a, a.alignedBytes(computeBytes)});
    }
  }
  // Keep temporaries on chip while they fit; spill the largest first.
  std::sort(onchip.begin(), onchip.end(), [](const Candidate& a, const Candidate& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.array.tensor < b.array.tensor;
  });
  int64_t total = 0;
  for (auto& c : onchip) total += c.bytes;
  for (auto& c : onchip) {
    const int t = c.array.tensor;
    if (double(total) > dev_.onchipBytesPerBlock) {
      total -= c.bytes;
      const Use& u = uses[t];
      kp.scratch.push_back(t);
      dram(t, u.writeFull.volume() * elemBytes_[t]);
      reread(t, checkedMul(kp.blocks, u.intReadBlock.volume(), "a kernel's re-read bytes") * elemBytes_[t]);
    } else {
      kp.onChip.push_back(c.array);
    }
  }
  std::sort(kp.onChip.begin(), kp.onChip.end(), [](const OnChipArray& a, const OnChipArray& b) { return a.tensor < b.tensor; });
  std::sort(kp.scratch.begin(), kp.scratch.end());
  // A tensor read from global memory in several passes may stay on chip after its first:
  // the first reader leaves its slice there (evaluate prices both ways).
  for (auto& [t, u] : uses) {
    if (u.passes < 2 || u.extReadFull.empty) continue;
    const std::optional<OnChipArray> slice = inputSlice(members, shape, kp, t);
    if (!slice) continue;
    const int64_t bytes = slice->alignedBytes(computeBytes);
    if (double(total + bytes) > dev_.onchipBytesPerBlock) continue;
    kp.cacheable = true;  // else the cached variant would be this plan again
    if (!cacheInputs) continue;
    kp.cachedInputs.push_back(*slice);
    total += bytes;
  }
  for (size_t g = 0; g < kp.globalReads.size(); ++g)
    if (kp.cachesInput(kp.globalReads[g])) kp.inputPasses[g] = 1;  // later passes read the on-chip copy
  total -= reuseStorage(members, kp, computeBytes);
  kp.onchipBytesPerBlock = kp.sharedBytes = total;
  occupy(kp);
  // A statement after the first that reads an input again, where it is not cached on
  // chip, reads the block's slice of it again: from L2 while the slices of every block
  // resident at once fit there, from DRAM otherwise.
  // Resident at once: what fits on the SMs by the occupancy rules, or on a device without
  // them (a CPU runs a few work-groups at a time) the blocks it needs to saturate.
  const int64_t resident = std::min<int64_t>(
      kp.blocks, kp.blocksPerSM > 0 ? int64_t(kp.blocksPerSM) * dev_.smCount : int64_t(dev_.blocksToSaturate));
  for (auto& [t, u] : uses) {
    if (u.passes < 2 || u.extReadFull.empty || kp.cachesInput(t)) continue;
    const int64_t slice = u.extReadBlock.volume() * elemBytes_[t];
    const int64_t again = checkedMul(checkedMul(kp.blocks, slice, "a kernel's re-read bytes"), u.passes - 1,
                                     "a kernel's re-read bytes");
    if (double(resident) * double(slice) > dev_.l2Bytes) dram(t, again);
    else kp.l2Bytes += again;
  }

  if (kp.splitChunks > 1)
    for (int m : kp.splitMembers()) addPartials(members[size_t(m)], kp);
  kp.uncoalescedBytes = int64_t(sectorWaste);
  return sectorWaste;
}

// Step 3b, vector width: a member whose threads step along a dimension whose range in
// every block starts at a 16-byte vector and either splits into whole vectors or is the
// member's one loop (the rest, a scalar tail), takes a vector per step when at least one
// of its global accesses is aligned for it (vectorAligned). Time is
// unchanged (the model is bandwidth-bound); the plan states what the kernel will do.
void CostModel::vectorize(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const {
  const Program& prog = fg_.program();
  const int computeBytes = computeBytes_;
  const int width = 16 / computeBytes;
  kp.vectorWidth.assign(members.size(), 1);
  for (size_t k = 0; k < members.size() && !strict(); ++k) {  // strict: lanes would invert divisors, vector math
    const int x = kp.threadDims[k];
    // Off a tiled contraction; along a split's chunks only where every chunk starts a
    // vector (the last one may end in the scalar tail, below).
    const bool chunked = kp.splitChunks > 1 && kp.chunkDims[k] == x;
    if (x < 0 || (chunked && kp.splitChunk % width) || kp.rowOfWarp(k, x) || kp.tiledWith(k)) continue;
    // A streamed pair runs in its maximum's loop: the maximum takes vectors when its
    // block shares the reduction (a step's lanes meet the running value once, then the
    // sum rescales once a step); the sum and inlined producers step with it (below).
    const bool shared = kp.modes[k] == StmtMode::BlockReduce || kp.modes[k] == StmtMode::SplitReduce;
    if (kp.streamLoopOf(k) >= 0 || (kp.streamedSum(k) >= 0 && !shared)) continue;
    if (kp.modes[k] != StmtMode::Pointwise && !shared) continue;
    // A range that is no multiple of the width ends in a scalar tail, where the thread
    // dimension is the member's one loop in the block.
    const Statement& st = prog.statements[size_t(members[k])];
    bool oneLoop = kp.modes[k] == StmtMode::Pointwise ? st.numReduction() == 0 : st.numReduction() == 1;
    for (int d = 0; d < st.numParallel && oneLoop; ++d)
      oneLoop = d == x || kp.fixedByBlock(k, d) || kp.rowOfWarp(k, d) || kp.modes[k] != StmtMode::Pointwise;
    // On the grid, every block's tile starts a vector (the last one's may end in the tail).
    if (const int t = kp.gridCoordOf(k, x);
        t >= 0 && (kp.tile[t] % width || kp.gridLo[t] % width || (kp.gridExtent[t] % width && !oneLoop)))
      continue;
    const int64_t lo = shape.lo[k][size_t(x)], extent = shape.hi[k][size_t(x)] - lo;
    if (extent < width || lo % width || (extent % width && !oneLoop)) continue;
    if (chunked && !oneLoop && (sized(members[k]).hi[size_t(x)] - lo) % width) continue;  // the last chunk's vectors
    const SizedStatement& ss = sized(members[k]);
    bool any = kp.vectorAccess(prog, at_.sizes(), k, ss.write, width);
    for (auto& r : ss.reads) any |= kp.vectorAccess(prog, at_.sizes(), k, r, width);
    if (any) kp.vectorWidth[k] = width;
  }
  for (const StreamPair& sp : kp.streams) kp.vectorWidth[size_t(sp.sum)] = kp.vectorWidth[size_t(sp.max)];
  // A column tile's threads take `width` adjacent columns each (columnLanes) when every
  // column reduction's columns split into whole, aligned vectors in every block, and one
  // of them reads global memory aligned for it: that read moves 16 bytes a step.
  if (kp.columnTile() && !strict()) {
    bool lanes = false, whole = true;
    for (size_t k = 0; k < members.size(); ++k) {
      if (kp.modes[k] != StmtMode::ColumnReduce) continue;
      const int t = kp.gridCoordOf(k, kp.threadDims[k]);
      whole = whole && kp.tile[size_t(t)] % width == 0 && kp.gridLo[size_t(t)] % width == 0 &&
              kp.gridExtent[size_t(t)] % width == 0;
      for (auto& r : sized(members[k]).reads) lanes |= kp.vectorAccess(prog, at_.sizes(), k, r, width);
    }
    if (lanes && whole) {
      kp.columnLanes = width;
      for (size_t k = 0; k < members.size(); ++k)
        if (kp.modes[k] == StmtMode::ColumnReduce) kp.vectorWidth[k] = width;
    }
  }
  // Registers: a step's vectors live at once.
  kp.registersPerThread = kEstimatedRegisters + kRegistersPerExtraVector * std::max(0, vectorsPerStep(members, kp) - 2);
  // A column tile's vector lanes each keep a partial (the GEMV x^T W wants 36 with four).
  if (kp.columnLanes > 1) kp.registersPerThread += kRegistersPerExtraVector;
  // A tiled contraction's accumulators and one step's operands live in registers.
  if (!kp.contractions.empty()) {
    const ContractionTile& c = kp.contractions.front();
    kp.registersPerThread += c.micro * c.micro + 2 * c.micro;
    // An 8 x 8 tile on the FMA units (--wide-fma-tiles) keeps both steps' operand vectors
    // and both slices' addresses live beside its 64 accumulators: ptxas (sm_90) gives 127
    // registers to matmul's; at the 112 above it was held to 96 and spilled.
    if (!c.tensorCores() && c.micro == kWideMicroTile) kp.registersPerThread += 2 * c.micro;
    // A strict update that continues from the value before it (C = b; C += A x B) loads
    // that value into its accumulators, and nvcc keeps those addresses live across the
    // steps: 64 registers spilled (bias_matmul at 4096 x 768 x 3072), 78 did not.
    if (numerics_ == Numerics::Strict && !fg_.program().statements[size_t(members[size_t(c.member)])].init)
      kp.registersPerThread += c.micro * c.micro;
  }
  // A thread takes a vector a step: a block needs threads for its steps, not its points
  // (a 128-element row of float4 steps is one warp's work, not four warps').
  if (!kp.warpPerRow() && kp.contractions.empty()) {
    int64_t steps = 1;
    for (size_t k = 0; k < members.size(); ++k) steps = std::max(steps, (shape.work[k] + kp.vectorWidth[k] - 1) / kp.vectorWidth[k]);
    const int64_t cap = kp.wideBlock ? kMaxBlockThreads : dev_.threadsPerBlock;
    kp.threadsPerBlock = int(std::min<int64_t>(cap, (steps + kWarp - 1) / kWarp * kWarp));
    if (kp.columnTile()) kp.threadsPerBlock = columnThreads(kp.threadsPerBlock, kp.groupThreads());
  }
  occupy(kp);
}

int CostModel::vectorsPerStep(const std::vector<int>& members, const KernelPlan& kp) const {
  const Program& prog = fg_.program();
  int vectors = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    if (kp.vectorWidth[k] == 1) continue;
    // Reads of one element (X(i, j) * X(i, j)) are one load.
    std::set<std::tuple<int, std::vector<std::vector<int64_t>>, std::vector<int64_t>>> loads;
    for (auto& r : sized(members[k]).reads)
      if (kp.vectorAccess(prog, at_.sizes(), k, r, kp.vectorWidth[k])) loads.insert({r.tensor, r.coef, r.constant});
    vectors = std::max(vectors, int(loads.size()));
  }
  return vectors;
}

// Step 3c, rows in registers (the OneFlow softmax's layout): in a kernel of one row per
// block or per warp, an on-chip array goes to registers when no thread ever reads an
// element another thread wrote, so it needs neither shared memory nor barriers:
// - a row: every member that touches it runs the row (one dimension) with the row's
//   threads, each step a vector of the same width from the same start, and touches at
//   each point exactly the element of that point; the thread then holds its elements of
//   the row, `registerSteps` vectors, and each member's loop along the row is unrolled;
// - a value per row: a block or warp reduction's result (with its initialization), which
//   every thread of the row receives from the combine.
// Rows of one kernel share the width: 16 bytes when every member touching one can step
// by vectors, else 1 (when none of them already does). A row takes at most
// kMaxRegisterRow registers a thread. False (kp unchanged) when no array qualifies.
bool CostModel::registerRows(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const {
  if ((kp.rowMapping != RowMapping::BlockPerRow && !kp.warpPerRow()) || !kp.contractions.empty()) return false;
  const Program& prog = fg_.program();
  const int computeBytes = computeBytes_;
  const int64_t threads = kp.warpPerRow() ? kWarp : kp.threadsPerBlock;
  // Whether member k touches array a's row only at its own points, in the row's order.
  auto rowMember = [&](size_t k, const OnChipArray& a, int rowDim) {
    const Statement& st = prog.statements[members[k]];
    const SizedStatement& ss = sized(members[k]);
    const int x = kp.threadDims[k];
    const bool reduce = kp.modes[k] == StmtMode::BlockReduce;
    if (x < 0 || (kp.modes[k] != StmtMode::Pointwise && !reduce)) return false;
    // A streamed pair's loop is not unrolled over a row: it keeps a running value instead.
    if (kp.streamLoopOf(k) >= 0 || kp.streamedSum(k) >= 0) return false;
    if (reduce ? st.numReduction() != 1 || x != int(st.dims.size()) - 1 : x >= st.numParallel) return false;
    for (int d = 0; d < st.numParallel; ++d)
      if (d != x && !kp.fixedByBlock(k, d) && !kp.rowOfWarp(k, d)) return false;
    auto own = [&](const SizedAccess& acc, size_t ref, bool write) {
      const Access& orig = write ? st.write : st.reads[ref];
      if (!acc.indirect.empty()) return false;
      for (size_t p = 0; p < acc.coef.size(); ++p) {
        if (orig.subscripts[p].div != 1) return false;
        if (int(p) != rowDim) {
          if (acc.coef[p][size_t(x)] != 0) return false;
          continue;
        }
        for (size_t d = 0; d < acc.coef[p].size(); ++d)
          if (acc.coef[p][d] != (int(d) == x ? 1 : 0)) return false;
        // Step 0 of lane 0 touches the slice's first element.
        if (shape.lo[k][size_t(x)] + acc.constant[p] != a.lo[size_t(p)]) return false;
      }
      return true;
    };
    if (st.write.tensor == a.tensor && (!own(ss.write, 0, true) || reduce || st.op != ReduceOp::Assign)) return false;
    for (size_t r = 0; r < ss.reads.size(); ++r)
      if (ss.reads[r].tensor == a.tensor && !own(ss.reads[r], r, false)) return false;
    return true;
  };
  // The members touching each tensor, in member order: every array asks, and a kernel may
  // have thousands of members and arrays.
  std::map<int, std::vector<size_t>> touching;
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[members[k]];
    touching[st.write.tensor].push_back(k);
    for (auto& r : st.reads)
      if (std::vector<size_t>& v = touching[r.tensor]; v.empty() || v.back() != k) v.push_back(k);
  }
  // Members running a row that stays; whether each can step by 16-byte vectors.
  std::vector<bool> runsRow(members.size(), false);
  std::vector<OnChipArray*> rows, values;
  for (auto* list : {&kp.onChip, &kp.cachedInputs})
    for (OnChipArray& a : *list) {
      const int rowDim = a.rowDim();
      if (rowDim == -2) continue;
      bool ok = true;
      const std::vector<size_t>& touchers = touching[a.tensor];
      for (size_t i = 0; i < touchers.size() && ok; ++i) {
        const size_t k = touchers[i];
        const Statement& st = prog.statements[members[k]];
        if (rowDim >= 0) ok = rowMember(k, a, rowDim);
        // A value per row: written once, by a reduction every thread of the row takes part in,
        // and read at the row (a gather's row is another one's).
        else if (st.write.tensor == a.tensor)
          ok = kp.modes[k] == StmtMode::BlockReduce && st.init && !kp.cachesInput(a.tensor);
        else
          ok = std::none_of(st.reads.begin(), st.reads.end(), [&](const Access& r) { return r.tensor == a.tensor && r.gathers(); });
      }
      if (!ok) continue;
      if (rowDim < 0) {
        values.push_back(&a);
        continue;
      }
      rows.push_back(&a);
      for (size_t k : touchers) runsRow[k] = true;
    }
  // A value per row that no member writes (a cached input) stays: its readers fill it.
  values.erase(std::remove_if(values.begin(), values.end(), [&](const OnChipArray* a) {
                 const std::vector<size_t>& v = touching[a->tensor];
                 return std::none_of(v.begin(), v.end(), [&](size_t k) { return prog.statements[size_t(members[k])].write.tensor == a->tensor; });
               }), values.end());
  int width = 16 / computeBytes;
  bool vectors = true, scalars = true;
  for (size_t k = 0; k < members.size(); ++k) {
    if (!runsRow[k]) continue;
    const int x = kp.threadDims[k];
    const int64_t lo = shape.lo[k][size_t(x)], extent = shape.hi[k][size_t(x)] - lo;
    vectors = vectors && extent >= width && extent % width == 0 && lo % width == 0;
    scalars = scalars && kp.vectorWidth[k] == 1;
  }
  if (!vectors) {
    if (!scalars) rows.clear();  // some member steps by vectors, another cannot
    width = 1;
  }
  int64_t steps = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    if (!runsRow[k] || rows.empty()) continue;
    const int x = kp.threadDims[k];
    const int64_t extent = shape.hi[k][size_t(x)] - shape.lo[k][size_t(x)];
    steps = std::max(steps, (extent / width + threads - 1) / threads);
  }
  if (steps * width > kMaxRegisterRow) rows.clear();
  if (rows.empty() && values.empty()) return false;
  for (OnChipArray* a : rows) {
    a->place = OnChipPlace::Registers;
    a->registerSlots = steps * width;
  }
  for (OnChipArray* a : values) {
    a->place = OnChipPlace::Registers;
    a->registerSlots = 1;
  }
  if (!rows.empty()) {
    kp.registerSteps = steps;
    for (size_t k = 0; k < members.size(); ++k)
      if (runsRow[k]) kp.vectorWidth[k] = width;
  }
  // Storage: an array reuses another's only in the same place; shared memory holds what
  // stays there. Registers: the rows (one per storage: the compiler reuses registers by
  // liveness as the plan reuses storage), besides what the kernel needs anyway, and each
  // unrolled step's global vectors beyond one, loaded ahead of their use.
  int64_t shared = 0, registers = 0;
  for (auto* list : {&kp.onChip, &kp.cachedInputs})
    for (OnChipArray& a : *list) {
      if (a.reuses >= 0 && kp.arrayOf(a.reuses)->place != a.place) a.reuses = -1;
      if (a.reuses >= 0) continue;
      if (!a.inRegisters()) shared += a.alignedBytes(computeBytes);
      else if (a.rowDim() >= 0) registers += a.registerSlots;  // a value per row: one register among those any kernel has
    }
  kp.sharedBytes = shared;
  kp.registersPerThread = int(kRowKernelRegisters + registers * computeBytes / 4 +
                              kRegistersPerVectorStep * std::max(0, vectorsPerStep(members, kp) - 1) * std::max<int64_t>(1, kp.registerSteps));
  occupy(kp);
  return true;
}

// Step 4, time: launches, then the slower of memory and arithmetic, each at the
// bandwidth the kernel's blocks can draw (occupancy).
void CostModel::occupy(KernelPlan& kp) const {
  kp.occupancy = 1;
  kp.blocksPerSM = 0;
  kp.occupancyLimiter.clear();
  if (dev_.arch.empty()) return;
  const int eb = computeBytes_;
  const int64_t slots = kp.columnTile() ? kp.columnScratchSlots() : kp.usesBlockReduce() && !kp.warpPerRow() ? kReduceScratchSlots : 0;
  auto occupancy = [&] {
    return cudaOccupancy(dev_.arch, kp.threadsPerBlock, kp.registersPerThread, kp.sharedBytes + slots * eb + kp.stagedBytes(eb));
  };
  // More stages than two, in dynamic shared memory, where they cost no block an SM (nor
  // the block's limit): the most that keep the two stages' occupancy.
  kp.stagedSharedBytes = 0;
  if (!kp.contractions.empty() && kp.contractions.front().stages >= 2) {
    auto setStages = [&](int s) {
      for (ContractionTile& c : kp.contractions)
        if (c.stages >= 2) c.stages = s;
    };
    setStages(2);
    const int blocks = occupancy().blocksPerSM;
    for (int s = maxStages_; s > 2; --s) {
      setStages(s);
      const int64_t bytes = kp.stagedBytes(eb);
      if (double(kp.sharedBytes + bytes + slots * eb) <= dev_.onchipBytesPerBlock && occupancy().blocksPerSM >= blocks) {
        kp.stagedSharedBytes = bytes;
        break;
      }
      setStages(2);
    }
  }
  Occupancy o = occupancy();
  kp.occupancy = o.fraction;
  kp.blocksPerSM = o.blocksPerSM;
  kp.occupancyLimiter = o.limiter;
}

// Little's law: an SM streams at bandwidth B from DRAM of latency L only with B x L bytes
// of loads in flight. A block's threads each keep a step's global loads in flight (one
// 16-byte vector, or one element, per access), for up to loads_in_flight steps of their
// loop at once (all its steps, running a row in registers), counted on the member that
// reads the most global bytes; a thread without a step of its own keeps nothing in flight.
void CostModel::loadsInFlight(const std::vector<int>& members, const BlockShape& shape, KernelPlan& kp) const {
  const Program& prog = fg_.program();
  int64_t most = -1;
  kp.bytesInFlightPerBlock = 0;
  for (size_t k = 0; k < members.size(); ++k) {
    const SizedStatement& ss = sized(members[k]);
    const int width = kp.vectorWidth[k];
    int64_t step = 0;
    for (auto& r : ss.reads) {
      if (!kp.readsGlobal(prog, k, r.tensor)) continue;
      step += kp.vectorAccess(prog, at_.sizes(), k, r, width) ? 16 : elemBytes_[r.tensor];
    }
    if (step == 0) continue;
    const int64_t steps = (shape.work[k] + width - 1) / width;  // the block's steps of this member
    if (steps * step <= most) continue;
    most = steps * step;
    // A thread running a row in registers issues all its unrolled steps' loads at once.
    const int64_t perThread = kp.runsRegisterRow(prog, k) ? std::max<int64_t>(dev_.loadsInFlight, kp.registerSteps)
                                                           : int64_t(dev_.loadsInFlight);
    kp.bytesInFlightPerBlock = step * std::min<int64_t>(steps, int64_t(kp.threadsPerBlock) * perThread);
  }
  kp.latencyShare = 1;
  if (kp.blocksPerSM > 0 && kp.bytesInFlightPerBlock > 0) {
    const double needed = dev_.dramBytesPerSec / dev_.smCount * dev_.dramLatencyNs * 1e-9;
    const double inFlight = double(kp.blocksPerSM) * double(kp.bytesInFlightPerBlock);
    kp.latencyShare = std::min(1.0, inFlight / needed);
  }
}

void CostModel::timeKernel(double sectorWaste, KernelPlan& kp) const {
  kp.launchUs = dev_.launchUs * (kp.splitChunks > 1 ? 2 : 1);  // a split reduction's combine is a second launch
  kp.gridFill = std::min(1.0, double(kp.blocks) / dev_.blocksToSaturate);
  // The share of the device's throughput the kernel draws: enough blocks to fill the SMs,
  // and enough warps on each to cover latency.
  const double share = kp.gridFill * kp.latencyShare;
  // Two levels: DRAM at the share the kernel draws, and L2, which every byte passes
  // (DRAM's on its way, re-reads that hit) and which streams while DRAM does.
  kp.memoryUs = std::max((double(kp.dramBytes) + sectorWaste) / (dev_.dramBytesPerSec * share),
                         double(kp.dramBytes + kp.l2Bytes) / dev_.l2BytesPerSec) * 1e6;
  // Arithmetic needs blocks on every SM; its latencies are short beside DRAM's.
  kp.computeUs = (weightedFlops(double(kp.flops - kp.tensorFlops), kp.mathCalls) / dev_.flopsPerSec +
                  (kp.tensorFlops > kp.halfTensorFlops ? double(kp.tensorFlops - kp.halfTensorFlops) / dev_.tensorFlopsPerSec : 0.0) +
                  (kp.halfTensorFlops ? double(kp.halfTensorFlops) / dev_.halfTensorFlopsPerSec : 0.0) +
                  double(kp.points) * dev_.pointNs * 1e-9 / dev_.smCount) /
                 kp.gridFill * 1e6;
  // Operands stream from L1 / shared memory at its bandwidth: a naive contraction's two
  // loads a multiply-add bound it there, long before the arithmetic.
  kp.onchipUs = dev_.onchipBytesPerSec > 0 ? double(kp.onchipLoadBytes) / (dev_.onchipBytesPerSec * kp.gridFill) * 1e6 : 0;
  // Each SM starts its share of the blocks one after another (waves of smCount), and
  // each block waits at its barriers.
  const double perBlockNs = dev_.blockNs + double(kp.barriersPerBlock) * dev_.barrierNs +
                            double(kp.reductionsPerBlock) * dev_.reductionNs;
  kp.schedulingUs = double((kp.blocks + dev_.smCount - 1) / dev_.smCount) * perBlockNs * 1e-3;
  kp.modeledUs = kp.launchUs + std::max({kp.memoryUs, kp.computeUs, kp.onchipUs, kp.schedulingUs});
}

// timeKernel's formula taken apart; the terms sum to kp.modeledUs.
CostTerms CostModel::costTerms(const KernelPlan& kp) const {
  CostTerms t;
  t[CostTerm::Launch] = kp.launchUs;
  const double fill = std::max(kp.gridFill, 1e-12), share = std::max(kp.gridFill * kp.latencyShare, 1e-12);
  if (kp.schedulingUs > std::max({kp.memoryUs, kp.computeUs, kp.onchipUs})) {
    t[CostTerm::Scheduling] = kp.schedulingUs;
  } else if (kp.memoryUs >= kp.computeUs && kp.memoryUs >= kp.onchipUs) {
    const double dram = double(kp.dramBytes) + double(kp.uncoalescedBytes);
    const double atShare = dram / (dev_.dramBytesPerSec * share) * 1e6;
    if (atShare >= kp.memoryUs - 1e-12 && dram > 0) {
      const double full = dram / dev_.dramBytesPerSec * 1e6, filled = dram / (dev_.dramBytesPerSec * fill) * 1e6;
      t[CostTerm::Memory] = full;
      t[CostTerm::Parallelism] = filled - full;
      t[CostTerm::Occupancy] = kp.memoryUs - filled;
    } else {
      t[CostTerm::Memory] = kp.memoryUs;  // L2 binds: every byte passes it, at any grid
    }
  } else if (kp.computeUs >= kp.onchipUs) {
    t[CostTerm::Compute] = kp.computeUs * kp.gridFill;
    t[CostTerm::Parallelism] = kp.computeUs - t[CostTerm::Compute];
  } else {
    t[CostTerm::OnChip] = kp.onchipUs * kp.gridFill;
    t[CostTerm::Parallelism] = kp.onchipUs - t[CostTerm::OnChip];
  }
  return t;
}

CostTerms CostModel::costTerms(const Partition& p) const {
  CostTerms t;
  for (auto& k : p.kernels) t += costTerms(k);
  return t;
}

double CostModel::modeledLowerBoundUs() const {
  std::vector<int> all(size_t(fg_.size()));
  for (int s = 0; s < fg_.size(); ++s) all[size_t(s)] = s;
  const double memoryUs = double(lowerBoundBytes()) / dev_.dramBytesPerSec * 1e6;
  return (fg_.size() > 0 ? dev_.launchUs : 0.0) + std::max(memoryUs, arithmeticFloorUs(all));
}

CostModel::Refusal CostModel::whyNotFusible(const StmtSet& group) const {
  const Program& prog = fg_.program();
  auto line = [&](int s) { return prog.statements[s].label() + " (line " + std::to_string(prog.statements[s].loc.line) + ")"; };
  if (!fg_.isConnected(group)) return {true, "the statements share no dependence and no tensor"};
  if (!fg_.isConvex(group)) {
    std::vector<int> m = group.members();
    for (int w = 0; w < fg_.size(); ++w) {
      if (group.contains(w)) continue;
      for (int u : m)
        for (int v : m)
          if (fg_.reaches(u, w) && fg_.reaches(w, v))
            return {false, "a path " + line(u) + " -> " + line(w) + " -> " + line(v) + " leaves the group and comes back"};
    }
    return {false, "a path leaves the group and comes back"};
  }
  // No grid of rank >= 1: name the first dependence that forbids rank 1 for every choice.
  std::vector<int> members = group.members();
  const auto& deps = fg_.poly().dependences();
  for (int d : fg_.internalDeps(group)) {
    const Dependence& dep = deps[d];
    if (dep.src == dep.dst) continue;
    bool any = false;
    for (int a = 0; a < prog.statements[dep.src].numParallel && !any; ++a)
      for (int b = 0; b < prog.statements[dep.dst].numParallel && !any; ++b) any = fg_.aligned(d, a, b);
    if (!any)
      return {true, std::string("the ") + depKindName(dep.kind) + " dependence " + line(dep.src) + " -> " +
             line(dep.dst) + " on '" + prog.tensors[dep.tensor].name +
             "' relates different grid points for every choice of grid (no parallel dimension stays equal)"};
  }
  return {true, "no grid keeps every internal dependence at one grid point"};
}

// Appends a kernel with its launches (a split reduction's combine after it) and totals.
static void appendKernel(Partition& p, KernelPlan k) {
  k.id = int(p.kernels.size());
  p.launches.push_back({k.id, LaunchKind::Kernel, k.blocks, k.threadsPerBlock, k.launchSharedBytes()});
  if (k.splitChunks > 1) {
    const int64_t warps = kCombineThreads / CostModel::kWarp;
    p.launches.push_back({k.id, LaunchKind::Combine, std::min(kCombineMaxBlocks, (k.combinePoints() + warps - 1) / warps),
                          kCombineThreads, 0});
  }
  p.modeledUs += k.modeledUs;
  p.dramBytes += k.dramBytes;
  p.l2Bytes += k.l2Bytes;
  p.flops += k.flops;
  p.kernels.push_back(std::move(k));
}

Partition CostModel::replan(const Partition& modeled, std::vector<std::string>& clamps) const {
  Partition p = modeled;
  p.sizes = sizes();
  p.device = dev_.name;
  p.kernels.clear();
  p.launches.clear();
  p.modeledUs = 0;
  p.dramBytes = p.l2Bytes = p.flops = 0;
  for (const KernelPlan& m : modeled.kernels) {
    std::vector<int64_t> tile = m.tile;
    const auto [lo, hi] = gridBounds(m.statements, m.gridDims);
    for (int t = 0; t < m.gridRank(); ++t) {
      const int64_t extent = std::max<int64_t>(1, hi[t] - lo[t]);
      // A streamed tile keeps its rows: those past the grid's end are computed at its last
      // row and never stored (and its threads stay whole warps).
      if (tile[t] > extent && !m.streamedTile()) {
        clamps.push_back("K" + std::to_string(m.id) + ": tile " + std::to_string(tile[t]) + " on grid coordinate " +
                         std::to_string(t) + " clamped to its extent " + std::to_string(extent));
        tile[t] = extent;
      }
    }
    const RowMapping mapping = m.columnTile() || m.streamedTile() ? m.rowMapping : RowMapping::Threads;
    std::optional<KernelPlan> planned =
        evaluate(m.statements, {m.gridDims, tile, m.splitChunks}, &m.threadDims, m.recomputed, !m.streams.empty(), mapping);
    if (!planned && m.streamedTile())
      // A streamed tile with no plan at these sizes (its rows' shared memory no longer
      // fits, say): the rows' own threads, two-pass, unsplit.
      planned = evaluate(m.statements, {m.gridDims, tile, 1}, nullptr, m.recomputed, false, RowMapping::Threads);
    if (!planned && m.columnTile()) {
      // A clamped tile whose columns and a warp have no common multiple within a block.
      planned = evaluate(m.statements, {m.gridDims, tile, m.splitChunks}, &m.threadDims, m.recomputed, !m.streams.empty(),
                         RowMapping::Threads);
      int64_t columns = m.groupColumns;
      for (size_t k = 0; k < m.modes.size(); ++k)
        if (m.modes[k] == StmtMode::ColumnReduce) columns = tile[size_t(m.gridCoordOf(k, m.threadDims[k]))];
      if (planned)
        clamps.push_back("K" + std::to_string(m.id) + ": no block holds a column tile of " + std::to_string(columns) +
                         " columns in groups of whole warps; its reductions run without one");
    }
    if (!planned && m.splitChunks > 1) {
      // A split-K tile clamped off the micro-tile (its contraction no longer tiles): unsplit.
      planned = evaluate(m.statements, {m.gridDims, tile, 1}, &m.threadDims, m.recomputed, !m.streams.empty(), mapping);
      if (planned)
        clamps.push_back("K" + std::to_string(m.id) + ": no split of " + std::to_string(m.splitChunks) +
                         " chunks runs at these sizes; its reduction runs whole in each block");
    }
    if (!planned) throw InternalError("K" + std::to_string(m.id) + " has no plan at the execution sizes");
    KernelPlan k = std::move(*planned);
    if (k.splitChunks != m.splitChunks && k.splitChunks > 1) {
      const SizedStatement& s = sized(m.statements[k.splitMember()]);
      clamps.push_back("K" + std::to_string(m.id) + ": split reduction of " + std::to_string(m.splitChunks) +
                       " chunks becomes " + std::to_string(k.splitChunks) + " chunks of " + std::to_string(k.splitChunk) +
                       " points over its extent " + std::to_string(s.hi.back() - s.lo.back()));
    }
    appendKernel(p, std::move(k));
  }
  return p;
}

Partition CostModel::assemble(Strategy strategy, const std::vector<StmtSet>& groups,
                              bool noParallelismLoss) const {
  return assemble(strategy, groups, {}, noParallelismLoss);
}

Partition CostModel::assemble(Strategy strategy, const std::vector<StmtSet>& groups,
                              const std::vector<StmtSet>& recomputed, bool noParallelismLoss) const {
  Partition p;
  p.strategy = strategy;
  p.numerics = numerics_;
  p.sizes = sizes();
  p.device = dev_.name;
  const int n = fg_.size();
  StmtSet covered(n);
  for (auto& g : groups) covered |= g;
  for (int s = 0; s < n; ++s)
    if (!covered.contains(s)) throw InternalError("partition leaves statement S" + std::to_string(s) + " out");
  // Topological order of the quotient graph; ties by smallest statement id.
  std::vector<std::set<int>> succ = fg_.kernelSuccessors(groups, recomputed);
  std::vector<int> indeg(groups.size(), 0);
  for (auto& s : succ)
    for (int b : s) ++indeg[b];
  std::set<std::pair<int, int>> ready;
  for (size_t k = 0; k < groups.size(); ++k)
    if (!indeg[k]) ready.insert({groups[k].members().front(), int(k)});
  std::vector<int> order;
  while (!ready.empty()) {
    int k = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(k);
    for (int b : succ[k])
      if (--indeg[b] == 0) ready.insert({groups[b].members().front(), b});
  }
  if (order.size() != groups.size()) throw InternalError("partition has a cycle between kernels");
  for (int k : order) {
    auto kp = recomputed.empty() ? plan(groups[k], noParallelismLoss) : plan(groups[k], recomputed[k], noParallelismLoss);
    if (!kp) throw InternalError("partition contains a group that is not a legal kernel: " + whyNotFusible(groups[k]).reason);
    // A member that another kernel computes too and that this one does not store is
    // recomputed here, whether or not anything outside would read it.
    kp->recomputed.clear();
    for (int s : groups[k].members()) {
      bool elsewhere = false;
      for (size_t j = 0; j < groups.size(); ++j) elsewhere |= j != size_t(k) && groups[j].contains(s);
      if (elsewhere && !fg_.storesValue(groups[k], recomputed.empty() ? StmtSet() : recomputed[k], s))
        kp->recomputed.push_back(s);
    }
    appendKernel(p, *kp);
  }
  return p;
}

}  // namespace polyfuse

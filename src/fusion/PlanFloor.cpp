// A floor under every plan of one grid candidate, known before the candidate is priced
// (docs/cost-model.md, "Candidates priced in order of their floor").
//
// Whatever the thread mapping, placement, streaming or tiling, a kernel on a grid of B
// blocks launches once, reads each tensor it takes from outside at least once, writes
// at least once each value that leaves it, and does its members' arithmetic; the blocks
// it draws throughput with number between B and B times the most chunks a split may
// cut (a split adds blocks, never removes them). timeKernel's formula then bounds the
// time from below term by term.
#include <algorithm>
#include <limits>

#include "fusion/CostModel.h"

namespace polyfuse {

// Each statement's arithmetic at full rate, contractions at the tensor cores' where they
// may take them (productEngine: a streamed tile's scores too) and they are faster; the
// statements' times add.
double CostModel::arithmeticFloorUs(const std::vector<int>& statements) const {
  const Program& prog = fg_.program();
  double us = 0;
  for (int s : statements) {
    const SizedStatement& ss = sized(s);
    const double flops = double(ss.points) * double(ss.flopsPerPoint), calls = double(ss.points) * ss.mathCallsPerPoint;
    double t = weightedFlops(flops, calls) / dev_.flopsPerSec;
    const Statement& st = prog.statements[size_t(s)];
    if (tensorCoresAllowed() && contractionShaped(st))
      t = std::min(t, weightedFlops(0, calls) / dev_.flopsPerSec + flops / dev_.tensorFlopsPerSec);
    if (const ContractionEngine e = productEngine(st); e != ContractionEngine::FmaUnits)
      t = std::min(t, weightedFlops(0, calls) / dev_.flopsPerSec + flops / tensorRate(e));
    us += t * 1e6;
  }
  return us;
}

CostModel::GroupFloor CostModel::groupFloor(const std::vector<int>& members, const std::vector<int>& recomputed) const {
  const Program& prog = fg_.program();
  GroupFloor f;
  StmtSet group = StmtSet::of(fg_.size(), members);
  std::map<int, Box> external;          // tensors no member writes: the hull every plan reads
  std::map<int, int64_t> leaving;       // tensors that leave the kernel: the largest writer's box
  for (int s : members) {
    const Statement& st = prog.statements[size_t(s)];
    const SizedStatement& ss = sized(s);
    for (auto& r : ss.reads) {
      bool memberWrites = false;
      for (int w : members) memberWrites |= prog.statements[size_t(w)].write.tensor == r.tensor;
      if (!memberWrites) external[r.tensor].hull(footprint(ss, r, ss.lo, ss.hi));
    }
    // An output always leaves; without recomputation, so does a value read after the
    // kernel (with it, a kept copy may serve that reader).
    const int t = st.write.tensor;
    bool leaves = prog.tensors[size_t(t)].role == TensorRole::Output;
    if (recomputed.empty())
      for (int c : consumers_[size_t(t)]) leaves |= !group.contains(c);
    if (leaves) {
      int64_t& most = leaving[t];
      most = std::max(most, footprint(ss, ss.write, ss.lo, ss.hi).volume());
    }
    f.maxChunks = std::max(f.maxChunks, stream_[size_t(s)].streams() ? kMaxStreamChunks : int64_t(1));
  }
  for (auto& [t, box] : external) f.dramBytes += double(box.volume()) * elemBytes_[size_t(t)];
  for (auto& [t, volume] : leaving) f.dramBytes += double(volume) * elemBytes_[size_t(t)];
  f.computeUs = arithmeticFloorUs(members);
  return f;
}

double CostModel::floorUs(const GroupFloor& f, const std::vector<int>& members, const GridCandidate& c) const {
  return floorUs(f, gridExtents(members, c.dims), c.tile.data(), c.chunks);
}

double CostModel::floorUs(const GroupFloor& f, const std::vector<int64_t>& extents, const int64_t* tile,
                          int64_t chunks) const {
  int64_t blocks = 1;
  for (size_t t = 0; t < extents.size(); ++t) blocks *= std::max<int64_t>(1, (extents[t] + tile[t] - 1) / tile[t]);
  const double most = double(blocks) * double(std::max(chunks, f.maxChunks));
  const double fill = std::min(1.0, most / dev_.blocksToSaturate);
  const double memoryUs = f.dramBytes / (dev_.dramBytesPerSec * fill) * 1e6;
  const double schedulingUs = double((blocks + dev_.smCount - 1) / dev_.smCount) * dev_.blockNs * 1e-3;
  return dev_.launchUs + std::max({memoryUs, f.computeUs / fill, schedulingUs});
}

// A kernel of one block draws 1 / blocksToSaturate of the device (timeKernel), unless a
// split cuts its one reduction into chunks (at most kMaxSplitChunks), which a group of
// three reductions or more never does. Its arithmetic then takes that many times its
// time at full rate (arithmeticFloorUs). The kernel holds must, a member without
// parallel dimensions, and every statement on a path between them (it is convex).
CostModel::OneBlockBound CostModel::oneBlockBound(const StmtSet& must, bool dominance) const {
  OneBlockBound b;
  if (!anyScalarStatement_ || anyRankOneGrid(must)) return b;
  const Program& prog = fg_.program();
  int reductions = 0;
  for (int s : must.members()) reductions += prog.statements[size_t(s)].numReduction() > 0;
  const double slowdown =
      reductions >= 3 ? double(dev_.blocksToSaturate) : std::max(1.0, double(dev_.blocksToSaturate) / kMaxSplitChunks);
  // A streamed sum may cut its loop into chunks, more blocks than one.
  dominance = dominance && std::none_of(stream_.begin(), stream_.end(), [](const StreamChain& sc) { return sc.streams(); });
  if (dominance && oneBlockExcess_.empty()) makeOneBlockRegions();
  b.dominated = dominance;
  double least = std::numeric_limits<double>::infinity();
  size_t region = 0;  // oneBlockRegions_ follow the statements without parallel dimensions
  for (int z = 0; z < fg_.size(); ++z) {
    if (prog.statements[size_t(z)].numParallel != 0) continue;
    StmtSet with = must;
    with.insert(z);
    const StmtSet hull = fg_.convexHull(with);
    least = std::min(least, arithmeticFloorUs(hull.members()));
    const size_t at = region++;
    if (b.dominated) b.dominated = oneBlockDominatedWith(hull, oneBlockRegions_[at]);
  }
  b.floorUs = dev_.launchUs + slowdown * least;
  return b;
}

// A one-block kernel K with three reductions or more runs its arithmetic at
// 1 / blocks_to_saturate of the device, so it takes at least launch + sum_K a(s), a(s)
// that arithmetic; in an optimal partition it takes at most sum_K alone(s), its members
// as kernels of their own (they replace it in dependence order). So it needs
// sum_K w <= -launch, w = a - alone. K holds z and, with any s, every statement on a
// path between s and z, whose positive w alone is pos(s); and sum_K min(w, 0) is at least
// that sum over any set known to hold K. Starting from every statement, the statements s
// with pos(s) + (that sum over the set) <= -launch are kept, again until nothing
// changes: every such K stays inside (by induction over the rounds).
void CostModel::makeOneBlockRegions() const {
  const Program& prog = fg_.program();
  const int n = fg_.size();
  oneBlockExcess_.assign(size_t(n), 0);
  for (int s = 0; s < n; ++s) {
    const std::optional<double> alone = modeledUs(StmtSet::of(n, {s}));
    oneBlockExcess_[size_t(s)] = alone ? double(dev_.blocksToSaturate) * arithmeticFloorUs({s}) - *alone
                                       : -std::numeric_limits<double>::infinity();
  }
  const std::vector<double>& w = oneBlockExcess_;
  for (int z = 0; z < n; ++z) {
    if (prog.statements[size_t(z)].numParallel != 0) continue;
    std::vector<double> pos(size_t(n), 0);
    for (int s = 0; s < n; ++s)
      for (int m : fg_.convexHull(StmtSet::of(n, {s, z})).members()) pos[size_t(s)] += std::max(0.0, w[size_t(m)]);
    OneBlockRegion r;
    r.z = z;
    r.allowed = StmtSet::of(n, {});
    for (int s = 0; s < n; ++s) r.allowed.insert(s);
    for (bool shrank = true; shrank;) {
      r.negative = 0;
      for (int s : r.allowed.members()) r.negative += std::min(0.0, w[size_t(s)]);
      shrank = false;
      for (int s : r.allowed.members())
        if (pos[size_t(s)] + r.negative > -dev_.launchUs) {
          r.allowed.erase(s);
          shrank = true;
        }
    }
    oneBlockRegions_.push_back(std::move(r));
  }
}

// Whether every K that holds `hull` (must with r.z and the paths between) and is worth
// holding lies outside r's allowed statements, or has sum_K w above -launch.
bool CostModel::oneBlockDominatedWith(const StmtSet& hull, const OneBlockRegion& r) const {
  const Program& prog = fg_.program();
  int reductions = 0;
  for (int s : hull.members()) reductions += prog.statements[size_t(s)].numReduction() > 0;
  if (reductions < 3) return false;  // a split may give it more blocks
  if (!hull.minus(r.allowed).empty()) return true;
  // sum_K w over any K holding the hull inside the allowed set: the hull's w, and
  // every other allowed statement's that is negative.
  double least = r.negative;
  for (int s : hull.members()) least += std::max(0.0, oneBlockExcess_[size_t(s)]);
  return least > -dev_.launchUs + 1e-9;
}

}  // namespace polyfuse

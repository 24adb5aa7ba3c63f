#include "fusion/CostModel.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <set>

#include "polyir/Checked.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

void Box::hull(const Box& o) {
  if (o.empty) return;
  if (empty) {
    *this = o;
    return;
  }
  for (size_t p = 0; p < lo.size(); ++p) {
    lo[p] = std::min(lo[p], o.lo[p]);
    hi[p] = std::max(hi[p], o.hi[p]);
  }
}

int64_t Box::volume() const {
  if (empty) return 0;
  int64_t v = 1;
  for (size_t p = 0; p < lo.size(); ++p) v = checkedMul(v, hi[p] - lo[p] + 1, "a footprint volume");
  return v;
}

CostModel::CostModel(const FusionGraph& fg, const Sizes& sizes, const Device& dev) : fg_(fg), at_(fg.program(), sizes), dev_(dev) {
  const Program& prog = fg.program();
  for (auto& t : prog.tensors) elemBytes_.push_back(elemBytes(t.type));
  flowSources_.assign(prog.statements.size(), {});
  consumers_.assign(prog.tensors.size(), {});
  for (const Dependence& dep : fg.poly().dependences())
    if (dep.kind == DepKind::Flow && dep.src != dep.dst) {
      flowSources_[dep.dst][dep.tensor].push_back(dep.src);
      consumers_[dep.tensor].push_back(dep.dst);
    }
}

Box CostModel::accessBox(const SizedAccess& a, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) const {
  Box b;
  for (size_t k = 0; k < lo.size(); ++k)
    if (lo[k] >= hi[k]) return b;
  b.empty = false;
  for (size_t p = 0; p < a.coef.size(); ++p) {
    int64_t mn = a.constant[p], mx = a.constant[p];
    for (size_t k = 0; k < lo.size(); ++k) {
      int64_t c = a.coef[p][k];
      const char* what = "an access's footprint bound";
      if (c > 0) {
        mn = checkedAdd(mn, checkedMul(c, lo[k], what), what);
        mx = checkedAdd(mx, checkedMul(c, hi[k] - 1, what), what);
      } else if (c < 0) {
        mn = checkedAdd(mn, checkedMul(c, hi[k] - 1, what), what);
        mx = checkedAdd(mx, checkedMul(c, lo[k], what), what);
      }
    }
    b.lo.push_back(mn);
    b.hi.push_back(mx);
  }
  return b;
}

std::vector<std::vector<std::vector<int>>> CostModel::gridAssignments(const std::vector<int>& members, int g) const {
  const Program& prog = fg_.program();
  StmtSet group = StmtSet::of(fg_.size(), members);
  std::vector<int> deps = fg_.internalDeps(group);
  const auto& all = fg_.poly().dependences();
  std::vector<std::vector<std::vector<int>>> out;
  std::vector<std::vector<int>> current(members.size());
  std::vector<int> pos(fg_.size(), -1);
  for (size_t k = 0; k < members.size(); ++k) pos[members[k]] = int(k);
  const size_t kMaxAssignments = 32;
  // Ordered g-tuples of distinct parallel dims of a statement.
  auto tuples = [&](int s) {
    std::vector<std::vector<int>> res;
    int p = prog.statements[s].numParallel;
    std::vector<int> t;
    std::function<void()> rec = [&] {
      if (int(t.size()) == g) { res.push_back(t); return; }
      for (int a = 0; a < p; ++a)
        if (std::find(t.begin(), t.end(), a) == t.end()) {
          t.push_back(a);
          rec();
          t.pop_back();
        }
    };
    rec();
    return res;
  };
  std::function<void(size_t)> assign = [&](size_t k) {
    if (out.size() >= kMaxAssignments) return;
    if (k == members.size()) { out.push_back(current); return; }
    for (auto& t : tuples(members[k])) {
      current[k] = t;
      bool ok = true;
      for (int d : deps) {
        int ps = pos[all[d].src], pd = pos[all[d].dst];
        if (size_t(std::max(ps, pd)) != k) continue;  // checked once both ends are placed
        for (int c = 0; c < g && ok; ++c) ok = fg_.aligned(d, current[ps][c], current[pd][c]);
        if (!ok) break;
      }
      if (ok) assign(k + 1);
    }
  };
  assign(0);
  return out;
}

std::optional<KernelPlan> CostModel::plan(const StmtSet& group, bool noParallelismLoss) const {
  auto& memo = memo_[noParallelismLoss ? 1 : 0];
  if (auto it = memo.find(group); it != memo.end()) return it->second;
  std::optional<KernelPlan> best;
  std::vector<int> members = group.members();
  const Program& prog = fg_.program();
  if (!members.empty() && fg_.isConnected(group) && fg_.isConvex(group)) {
    int minP = 1 << 20, maxP = 0;
    for (int s : members) {
      minP = std::min(minP, prog.statements[s].numParallel);
      maxP = std::max(maxP, prog.statements[s].numParallel);
    }
    // Grids use at most every member's parallel rank, and need rank >= 1 unless some
    // statement has no parallel dimension. Without parallelism loss, every statement
    // keeps all its parallel dimensions on the grid (so all ranks must agree).
    const int maxG = minP;
    int minG = minP > 0 ? 1 : 0;
    if (noParallelismLoss) minG = maxP == minP ? maxG : maxG + 1;
    // A reduction alone in its kernel may also split its last (reduction) dimension
    // into chunks of at least 256 points, when its result leaves the kernel.
    std::vector<int64_t> splitMenu{1};
    if (members.size() == 1) {
      const Statement& st = prog.statements[members[0]];
      const SizedStatement& ss = sized(members[0]);
      bool escapes = prog.tensors[st.write.tensor].role == TensorRole::Output || !consumers_[st.write.tensor].empty();
      if (st.numReduction() > 0 && escapes) {
        int64_t extent = ss.hi.back() - ss.lo.back();
        for (int64_t c = 2; c <= 4096 && extent / c >= 256; c *= 2) splitMenu.push_back(c);
      }
    }
    for (int g = maxG; g >= minG; --g) {
      for (auto& dims : gridAssignments(members, g)) {
        // Tile the innermost two grid coordinates with powers of two.
        std::vector<int64_t> extent(g);
        for (int t = 0; t < g; ++t) {
          int64_t lo = INT64_MAX, hi = INT64_MIN;
          for (size_t k = 0; k < members.size(); ++k) {
            lo = std::min(lo, sized(members[k]).lo[dims[k][t]]);
            hi = std::max(hi, sized(members[k]).hi[dims[k][t]]);
          }
          extent[t] = std::max<int64_t>(1, hi - lo);
        }
        std::vector<std::vector<int64_t>> menus(g, std::vector<int64_t>{1});
        for (int t = std::max(0, g - 2); t < g; ++t)
          for (int64_t v = 2; v <= (g == 1 ? 1024 : 64) && v < extent[t] * 2; v *= 2) menus[t].push_back(v);
        std::vector<int64_t> tile(g, 1);
        std::function<void(int, int64_t)> rec = [&](int t, int64_t product) {
          if (t == g) {
            for (int64_t chunks : splitMenu) {
              KernelPlan p = evaluate(members, dims, tile, chunks);
              if (!best || p.modeledUs < best->modeledUs - 1e-12) best = p;
            }
            return;
          }
          for (int64_t v : menus[t]) {
            if (product * v > 4096) break;
            tile[t] = v;
            rec(t + 1, product * v);
          }
          tile[t] = 1;
        };
        rec(0, 1);
      }
    }
  }
  memo[group] = best;
  return best;
}

// The block's slice of temporary t, as its producer in the kernel writes it: the tile
// along grid coordinates, the statement's whole range along the others.
OnChipArray CostModel::onChipSlice(const std::vector<int>& members, const KernelPlan& kp, int t) const {
  const Program& prog = fg_.program();
  size_t m = 0;
  while (prog.statements[members[m]].write.tensor != t) ++m;
  const Statement& st = prog.statements[members[m]];
  const SizedStatement& ss = sized(st.id);
  OnChipArray a;
  a.tensor = t;
  for (int d = 0; d < st.numParallel; ++d) {
    auto it = std::find(kp.gridDims[m].begin(), kp.gridDims[m].end(), d);
    if (it != kp.gridDims[m].end()) {
      int g = int(it - kp.gridDims[m].begin());
      a.gridCoord.push_back(g);
      a.lo.push_back(0);
      a.extent.push_back(kp.tile[g]);
    } else {
      a.gridCoord.push_back(-1);
      a.lo.push_back(ss.lo[d]);
      a.extent.push_back(ss.hi[d] - ss.lo[d]);
    }
  }
  return a;
}

KernelPlan CostModel::evaluate(const std::vector<int>& members, const std::vector<std::vector<int>>& dims,
                               const std::vector<int64_t>& tile, int64_t chunks,
                               const std::vector<int>* threadDims) const {
  const Program& prog = fg_.program();
  const int g = int(tile.size());
  KernelPlan kp;
  kp.statements = members;
  kp.gridDims = dims;
  kp.tile = tile;
  kp.gridLo.assign(g, INT64_MAX);
  std::vector<int64_t> gridHi(g, INT64_MIN);
  for (size_t k = 0; k < members.size(); ++k)
    for (int t = 0; t < g; ++t) {
      kp.gridLo[t] = std::min(kp.gridLo[t], sized(members[k]).lo[dims[k][t]]);
      gridHi[t] = std::max(gridHi[t], sized(members[k]).hi[dims[k][t]]);
    }
  kp.blocks = 1;
  int64_t tileProduct = 1;
  for (int t = 0; t < g; ++t) {
    kp.gridExtent.push_back(std::max<int64_t>(0, gridHi[t] - kp.gridLo[t]));
    kp.blocks *= std::max<int64_t>(1, (kp.gridExtent[t] + tile[t] - 1) / tile[t]);
    tileProduct *= tile[t];
  }
  // Work per block: the statement's points outside the grid times the tile.
  int64_t work = 1;
  StmtSet group = StmtSet::of(fg_.size(), members);
  std::vector<std::vector<int64_t>> blockLo(members.size()), blockHi(members.size());
  for (size_t k = 0; k < members.size(); ++k) {
    const SizedStatement& s = sized(members[k]);
    blockLo[k] = s.lo;
    blockHi[k] = s.hi;
    int64_t w = 1;
    for (size_t d = 0; d < s.lo.size(); ++d)
      if (std::find(dims[k].begin(), dims[k].end(), int(d)) == dims[k].end()) w *= std::max<int64_t>(1, s.hi[d] - s.lo[d]);
    for (int t = 0; t < g; ++t) {
      int d = dims[k][t];
      blockLo[k][d] = std::max(s.lo[d], kp.gridLo[t]);
      blockHi[k][d] = std::min(s.hi[d], kp.gridLo[t] + tile[t]);
    }
    if (chunks > 1) {
      // A split reduction: the block covers one chunk of the last dimension.
      int last = int(s.lo.size()) - 1;
      int64_t extent = s.hi[last] - s.lo[last];
      kp.splitChunk = (extent + chunks - 1) / chunks;
      kp.splitChunks = (extent + kp.splitChunk - 1) / kp.splitChunk;
      blockHi[k][last] = std::min(s.hi[last], s.lo[last] + kp.splitChunk);
      w = w / std::max<int64_t>(1, extent) * kp.splitChunk;
      kp.blocks *= kp.splitChunks;
    }
    work = std::max(work, w * tileProduct);
    kp.flops = checkedAdd(kp.flops, checkedMul(s.points, s.flopsPerPoint, "a kernel's flops"), "a kernel's flops");
  }
  kp.threadsPerBlock = int(std::min<int64_t>(dev_.threadsPerBlock, (work + 31) / 32 * 32));

  // Thread mapping, which the code generator follows: threads run along the
  // innermost in-block parallel dimension (x) when the in-block parallel points fill
  // a warp; otherwise they split the innermost reduction dimension. A global access
  // is coalesced when consecutive x values touch consecutive elements (or one element);
  // otherwise each element costs a whole 32-byte DRAM sector.
  kp.threadDims.assign(members.size(), -1);
  std::vector<int64_t> run(members.size(), 1);
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[members[k]];
    int lastPar = -1;
    int64_t parPoints = 1;
    for (int d = 0; d < st.numParallel; ++d) {
      auto it = std::find(dims[k].begin(), dims[k].end(), d);
      if (it != dims[k].end() && tile[it - dims[k].begin()] == 1) continue;
      lastPar = d;
      parPoints *= blockHi[k][d] - blockLo[k][d];
    }
    int x = lastPar;
    if ((parPoints < 32 || lastPar < 0) && st.numReduction() > 0) x = int(st.dims.size()) - 1;
    if (threadDims) x = (*threadDims)[k];
    kp.threadDims[k] = x;
    if (x >= 0) run[k] = std::max<int64_t>(1, blockHi[k][x] - blockLo[k][x]);
    kp.modes.push_back(st.numReduction() == 0      ? StmtMode::Pointwise
                       : x < st.numParallel       ? StmtMode::SerialReduce
                       : kp.splitChunks > 1       ? StmtMode::SplitReduce
                                                  : StmtMode::BlockReduce);
  }
  // Splitting extends a block reduction across blocks; a reduction whose block already
  // has a warp's worth of outputs (a contraction's tile) gains nothing from it.
  if (kp.splitChunks > 1 && kp.modes[0] != StmtMode::SplitReduce) {
    kp.modeledUs = std::numeric_limits<double>::infinity();
    return kp;
  }
  // Bytes per element actually moved by an access: elemBytes when coalesced.
  auto sectorFactor = [&](const SizedAccess& a, size_t k) {
    int x = kp.threadDims[k];
    double eb = elemBytes_[a.tensor];
    bool uses = false;
    for (auto& row : a.coef) uses |= x >= 0 && row[x] != 0;
    if (!uses) return x >= 0 || a.coef.empty() ? 1.0 : 32.0 / eb;
    for (size_t p = 0; p + 1 < a.coef.size(); ++p)
      if (a.coef[p][x] != 0) return 32.0 / eb;
    int64_t c = a.coef.back()[x];
    if (c != 1 && c != -1) return 32.0 / eb;
    return std::max(1.0, 32.0 / (double(run[k]) * eb));
  };
  // Classify every tensor the kernel touches.
  struct Use {
    Box extReadFull, extReadBlock, writeFull, writeBlock, intReadBlock;
    bool written = false;
    double sector = 1.0;  // worst sector factor over the kernel's accesses
  };
  std::map<int, Use> uses;
  for (size_t k = 0; k < members.size(); ++k) {
    int s = members[k];
    const SizedStatement& ss = sized(s);
    Use& w = uses[ss.write.tensor];
    w.written = true;
    w.sector = std::max(w.sector, sectorFactor(ss.write, k));
    w.writeFull.hull(accessBox(ss.write, ss.lo, ss.hi));
    w.writeBlock.hull(accessBox(ss.write, blockLo[k], blockHi[k]));
    for (auto& r : ss.reads) {
      Use& u = uses[r.tensor];
      u.sector = std::max(u.sector, sectorFactor(r, k));
      bool external = prog.tensors[r.tensor].role == TensorRole::Input;
      auto it = flowSources_[s].find(r.tensor);
      if (it == flowSources_[s].end()) external = true;
      else
        for (int src : it->second) external |= !group.contains(src);
      if (external) {
        u.extReadFull.hull(accessBox(r, ss.lo, ss.hi));
        u.extReadBlock.hull(accessBox(r, blockLo[k], blockHi[k]));
      } else {
        u.intReadBlock.hull(accessBox(r, blockLo[k], blockHi[k]));
      }
    }
  }
  // On-chip arrays hold the compute type, as the kernel declares them.
  const int computeBytes = elemBytes(prog.computeType());
  struct Candidate { OnChipArray array; int64_t bytes; };
  std::vector<Candidate> onchip;
  // Bytes moved by uncoalesced accesses, beyond the logical bytes: a 32-byte sector
  // per element.
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
  for (auto& [t, u] : uses) {
    const int64_t eb = elemBytes_[t];
    if (!u.extReadFull.empty) {
      int64_t first = u.extReadFull.volume();
      dram(t, first * eb);
      reread(t, (checkedMul(kp.blocks, u.extReadBlock.volume(), "a kernel's re-read bytes") - first) * eb);
      kp.globalReads.push_back(t);
    }
    if (!u.written) continue;
    bool escapes = prog.tensors[t].role == TensorRole::Output;
    for (int c : consumers_[t]) escapes |= !group.contains(c);
    if (escapes) {
      dram(t, u.writeFull.volume() * eb);
      reread(t, checkedMul(kp.blocks, u.intReadBlock.volume(), "a kernel's re-read bytes") * eb);
      kp.globalWrites.push_back(t);
    } else {
      OnChipArray a = onChipSlice(members, kp, t);
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
  kp.onchipBytesPerBlock = kp.sharedBytes = total;

  kp.launchUs = dev_.launchUs;
  if (kp.splitChunks > 1) {
    // Partials: written by the blocks, read back by the combining launch.
    const SizedStatement& s = sized(members[0]);
    int64_t outputs = 1;
    for (int d = 0; d < prog.statements[members[0]].numParallel; ++d) outputs *= s.hi[d] - s.lo[d];
    kp.partialElements = outputs * kp.splitChunks;
    int64_t partialBytes = kp.partialElements * computeBytes;
    kp.dramBytes += partialBytes;
    kp.l2Bytes += partialBytes;
    kp.launchUs *= 2;
  }
  kp.occupancy = std::min(1.0, double(kp.blocks) / dev_.blocksToSaturate);
  kp.uncoalescedBytes = int64_t(sectorWaste);
  kp.memoryUs = ((double(kp.dramBytes) + sectorWaste) / (dev_.dramBytesPerSec * kp.occupancy) + double(kp.l2Bytes) / dev_.l2BytesPerSec) * 1e6;
  kp.computeUs = double(kp.flops) / (dev_.flopsPerSec * kp.occupancy) * 1e6;
  kp.modeledUs = kp.launchUs + std::max(kp.memoryUs, kp.computeUs);
  return kp;
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
  p.launches.push_back({k.id, LaunchKind::Kernel, k.blocks, k.threadsPerBlock, k.sharedBytes});
  if (k.splitChunks > 1) p.launches.push_back({k.id, LaunchKind::Combine, kCombineBlocks, kCombineThreads, 0});
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
    for (int t = 0; t < m.gridRank(); ++t) {
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (size_t k = 0; k < m.statements.size(); ++k) {
        lo = std::min(lo, sized(m.statements[k]).lo[m.gridDims[k][t]]);
        hi = std::max(hi, sized(m.statements[k]).hi[m.gridDims[k][t]]);
      }
      const int64_t extent = std::max<int64_t>(1, hi - lo);
      if (tile[t] > extent) {
        clamps.push_back("K" + std::to_string(m.id) + ": tile " + std::to_string(tile[t]) + " on grid coordinate " +
                         std::to_string(t) + " clamped to its extent " + std::to_string(extent));
        tile[t] = extent;
      }
    }
    KernelPlan k = evaluate(m.statements, m.gridDims, tile, m.splitChunks, &m.threadDims);
    if (k.splitChunks != m.splitChunks)
      clamps.push_back("K" + std::to_string(m.id) + ": split reduction of " + std::to_string(m.splitChunks) +
                       " chunks clamped to " + std::to_string(k.splitChunks) + " (its extent)");
    appendKernel(p, std::move(k));
  }
  return p;
}

Partition CostModel::assemble(Strategy strategy, const std::vector<StmtSet>& groups,
                              bool noParallelismLoss) const {
  Partition p;
  p.strategy = strategy;
  p.sizes = sizes();
  p.device = dev_.name;
  const int n = fg_.size();
  std::vector<int> groupOf(n, -1);
  for (size_t k = 0; k < groups.size(); ++k)
    for (int s : groups[k].members()) groupOf[s] = int(k);
  for (int s = 0; s < n; ++s)
    if (groupOf[s] < 0) throw InternalError("partition leaves statement S" + std::to_string(s) + " out");
  // Topological order of the quotient graph; ties by smallest statement id.
  std::vector<std::set<int>> succ(groups.size());
  std::vector<int> indeg(groups.size(), 0);
  for (auto& d : fg_.poly().dependences()) {
    int a = groupOf[d.src], b = groupOf[d.dst];
    if (a != b && succ[a].insert(b).second) ++indeg[b];
  }
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
    auto kp = plan(groups[k], noParallelismLoss);
    if (!kp) throw InternalError("partition contains a group that is not a legal kernel: " + whyNotFusible(groups[k]).reason);
    appendKernel(p, *kp);
  }
  return p;
}

}  // namespace polyfuse

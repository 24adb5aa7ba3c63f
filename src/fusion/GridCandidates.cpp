// The grid and tile candidates of a group: the set the cost model searches completely
// (docs/cost-model.md, "Grid and tile candidates").
#include <algorithm>
#include <functional>

#include "fusion/CostModel.h"

namespace polyfuse {

std::vector<std::vector<std::vector<int>>> CostModel::gridAssignments(const std::vector<int>& members, int g) const {
  const Program& prog = fg_.program();
  StmtSet group = StmtSet::of(fg_.size(), members);
  std::vector<int> deps = fg_.internalDeps(group);
  const auto& all = fg_.poly().dependences();
  std::vector<std::vector<std::vector<int>>> out;
  std::vector<std::vector<int>> current(members.size());
  std::vector<int> pos(fg_.size(), -1);
  for (size_t k = 0; k < members.size(); ++k) pos[members[k]] = int(k);
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
  // Every assignment that keeps every internal dependence at one grid point; a
  // dependence is checked as soon as both its ends are placed, which prunes early.
  std::function<void(size_t)> assign = [&](size_t k) {
    if (k == members.size()) { out.push_back(current); return; }
    for (auto& t : tuples(members[k])) {
      current[k] = t;
      bool ok = true;
      for (int d : deps) {
        int ps = pos[all[d].src], pd = pos[all[d].dst];
        if (size_t(std::max(ps, pd)) != k) continue;
        for (int c = 0; c < g && ok; ++c) ok = fg_.aligned(d, current[ps][c], current[pd][c]);
        if (!ok) break;
      }
      if (ok) assign(k + 1);
    }
  };
  assign(0);
  return out;
}

std::pair<std::vector<int64_t>, std::vector<int64_t>> CostModel::gridBounds(
    const std::vector<int>& members, const std::vector<std::vector<int>>& dims) const {
  const size_t g = dims.empty() ? 0 : dims.front().size();
  std::vector<int64_t> lo(g, INT64_MAX), hi(g, INT64_MIN);
  for (size_t k = 0; k < members.size(); ++k)
    for (size_t t = 0; t < g; ++t) {
      lo[t] = std::min(lo[t], sized(members[k]).lo[dims[k][t]]);
      hi[t] = std::max(hi[t], sized(members[k]).hi[dims[k][t]]);
    }
  return {lo, hi};
}

std::vector<int64_t> CostModel::tileMenu(int g, int t, int64_t extent) {
  std::vector<int64_t> menu{1};
  if (t < g - kTiledGridCoords) return menu;
  const int64_t most = g == 1 ? kMaxTile1D : kMaxTileND;
  for (int64_t v = 2; v <= most && v < extent * 2; v *= 2) menu.push_back(v);
  return menu;
}

std::vector<int64_t> CostModel::splitMenu(const std::vector<int>& members) const {
  const Program& prog = fg_.program();
  std::vector<int64_t> menu{1};
  if (members.size() != 1) return menu;
  const Statement& st = prog.statements[members[0]];
  const SizedStatement& ss = sized(members[0]);
  bool escapes = prog.tensors[st.write.tensor].role == TensorRole::Output || !consumers_[st.write.tensor].empty();
  if (st.numReduction() == 0 || !escapes) return menu;
  const int64_t extent = ss.hi.back() - ss.lo.back();
  for (int64_t c = 2; c <= kMaxSplitChunks && extent / c >= kMinSplitChunk; c *= 2) menu.push_back(c);
  return menu;
}

std::vector<GridCandidate> CostModel::gridCandidates(const StmtSet& group, bool noParallelismLoss) const {
  std::vector<GridCandidate> out;
  std::vector<int> members = group.members();
  const Program& prog = fg_.program();
  if (members.empty() || !fg_.isConnected(group) || !fg_.isConvex(group)) return out;
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
  const std::vector<int64_t> chunkMenu = splitMenu(members);
  for (int g = maxG; g >= minG; --g) {
    for (auto& dims : gridAssignments(members, g)) {
      auto [lo, hi] = gridBounds(members, dims);
      std::vector<std::vector<int64_t>> menus;
      for (int t = 0; t < g; ++t) menus.push_back(tileMenu(g, t, std::max<int64_t>(1, hi[t] - lo[t])));
      std::vector<int64_t> tile(g, 1);
      std::function<void(int, int64_t)> rec = [&](int t, int64_t points) {
        if (t == g) {
          for (int64_t chunks : chunkMenu) out.push_back({dims, tile, chunks});
          return;
        }
        for (int64_t v : menus[t]) {
          if (points * v > kMaxTilePoints) break;
          tile[t] = v;
          rec(t + 1, points * v);
        }
        tile[t] = 1;
      };
      rec(0, 1);
    }
  }
  return out;
}

}  // namespace polyfuse

// The grid and tile candidates of a group: the set the cost model searches completely
// (docs/cost-model.md, "Grid and tile candidates").
#include <algorithm>
#include <functional>

#include "fusion/CostModel.h"

namespace polyfuse {

bool CostModel::mayGrowLegal(const StmtSet& must) const {
  // A statement without parallel dimensions admits a grid of rank 0 (one block), which
  // any group may reach by taking it in: no bound then.
  if (anyScalarStatement_) return true;
  // A rank-g assignment restricted to its first coordinate is a rank-1 one.
  return anyRankOneGrid(must);
}

bool CostModel::anyRankOneGrid(const StmtSet& group) const {
  if (const std::optional<bool> any = fg_.anyRankOneGrid(group)) return *any;
  return !gridAssignments(group.members(), 1, /*anyOne=*/true).empty();
}

// Arc consistency over the members' tuples: a tuple that some dependence rules out
// against every tuple left to the member at its other end is in no assignment, and goes,
// until none goes. The backtracking below checks a dependence once both ends are
// placed; without this, a member that rules out every placement comes late and the
// placements of all members before it (unit dimensions align with each other, so each
// may have several) are retried: MobileBERT's legality bounds spent most of a minute
// there. False when some member keeps no tuple: no assignment exists.
bool CostModel::consistentChoices(const std::vector<int>& members, const std::vector<int>& deps, const std::vector<int>& pos,
                                  int g, std::vector<std::vector<std::vector<int>>>& choices) const {
  const auto& all = fg_.poly().dependences();
  const size_t n = members.size();
  // Per member, each dependence at it: the member at the other end, and whether this one is its source.
  struct End {
    size_t other;
    int dep;
    bool source;
  };
  std::vector<std::vector<End>> ends(n);
  for (int d : deps) {
    const size_t a = size_t(pos[all[d].src]), b = size_t(pos[all[d].dst]);
    ends[a].push_back({b, d, true});
    if (b != a) ends[b].push_back({a, d, false});
  }
  auto keeps = [&](const End& e, const std::vector<int>& t, const std::vector<int>& u) {
    for (int c = 0; c < g; ++c)
      if (!(e.source ? fg_.aligned(e.dep, t[size_t(c)], u[size_t(c)]) : fg_.aligned(e.dep, u[size_t(c)], t[size_t(c)])))
        return false;
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < n; ++k) {
      auto& mine = choices[k];
      const size_t before = mine.size();
      mine.erase(std::remove_if(mine.begin(), mine.end(),
                                [&](const std::vector<int>& t) {
                                  for (const End& e : ends[k]) {
                                    if (e.other == k) {
                                      if (!keeps(e, t, t)) return true;
                                      continue;
                                    }
                                    const auto& theirs = choices[e.other];
                                    if (std::none_of(theirs.begin(), theirs.end(),
                                                     [&](const std::vector<int>& u) { return keeps(e, t, u); }))
                                      return true;
                                  }
                                  return false;
                                }),
                 mine.end());
      if (mine.empty()) return false;
      changed = changed || mine.size() != before;
    }
  }
  return true;
}

std::vector<std::vector<std::vector<int>>> CostModel::gridAssignments(const std::vector<int>& members, int g,
                                                                      bool anyOne) const {
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
  std::vector<std::vector<std::vector<int>>> choices;
  for (int s : members) choices.push_back(tuples(s));
  if (!consistentChoices(members, deps, pos, g, choices)) return out;
  // Whether any assignment exists is the dependences' question alone (anchors only
  // choose among those they allow), and the first found answers it.
  const std::vector<SiblingAnchor> anchors = anyOne ? std::vector<SiblingAnchor>{} : siblingAnchors(members, deps);
  // Members are placed in an order where each (but the first of its component) shares a
  // dependence with one placed before it, so every choice is checked against a neighbour
  // at once: in group order, six-dimensional siblings read by a later member took
  // 720 x 720 choices before that member ruled on them (torch's unfold: a minute).
  const size_t n = members.size();
  std::vector<std::vector<size_t>> linked(n);
  for (int d : deps) {
    const size_t a = size_t(pos[all[d].src]), b = size_t(pos[all[d].dst]);
    linked[a].push_back(b);
    linked[b].push_back(a);
  }
  const std::vector<size_t> order = breadthFirstOrder(linked);
  std::vector<int> step(n);  // each member's place in `order`
  for (size_t s = 0; s < n; ++s) step[order[s]] = int(s);
  // Every assignment that keeps every internal dependence at one grid point (and reads
  // each anchor's tensor as `anchoring` says); a constraint is checked as soon as both
  // its ends are placed, which prunes early.
  enum class Anchoring { Subscripts, SubscriptsThenOrder, None };
  Anchoring anchoring = Anchoring::Subscripts;
  // A dim's place among the dims of its statement that index no subscript of the
  // anchor's tensor (-1 for one that indexes one).
  auto freeRank = [](const std::vector<int>& at, int d) {
    if (at[size_t(d)] >= 0) return -1;
    return int(std::count_if(at.begin(), at.begin() + d, [](int p) { return p < 0; }));
  };
  // Unanchored, past kMaxUnanchoredAssignments the pass stops (`overflow`).
  bool capped = false, overflow = false;
  std::function<void(size_t)> assign = [&](size_t at) {
    if (at == n) {
      out.push_back(current);
      overflow = capped && out.size() > kMaxUnanchoredAssignments;
      return;
    }
    const size_t k = order[at];
    for (auto& t : choices[k]) {
      if ((anyOne && !out.empty()) || overflow) return;
      current[k] = t;
      bool ok = true;
      for (int d : deps) {
        int ps = pos[all[d].src], pd = pos[all[d].dst];
        if (size_t(std::max(step[size_t(ps)], step[size_t(pd)])) != at) continue;
        for (int c = 0; c < g && ok; ++c) ok = fg_.aligned(d, current[ps][c], current[pd][c]);
        if (!ok) break;
      }
      for (size_t a = 0; a < anchors.size() && ok && anchoring != Anchoring::None; ++a) {
        const SiblingAnchor& x = anchors[a];
        if (size_t(std::max(step[size_t(x.earlier)], step[size_t(x.later)])) != at) continue;
        for (int c = 0; c < g && ok; ++c) {
          const int de = current[x.earlier][c], dl = current[x.later][c];
          const int p = x.earlierPos[size_t(de)];
          ok = p == x.laterPos[size_t(dl)] &&
               (p >= 0 || (anchoring == Anchoring::SubscriptsThenOrder &&
                           freeRank(x.earlierPos, de) == freeRank(x.laterPos, dl)));
        }
      }
      if (ok) assign(at + 1);
    }
  };
  assign(0);
  // No assignment reads the anchors' tensors alike on every coordinate: the group's
  // legality is the dependences' alone, and every assignment they allow is tried, as
  // long as they are few (MiniLM's Q, K and V projections: V's grid transposed against
  // Q's and K's models 11.2 us against 13.8 us). Past kMaxUnanchoredAssignments, a
  // coordinate places, in both members of each anchor, dims that index none of the
  // tensor's subscripts, the k-th of one with the k-th of the other: three projections of
  // one input over batch x heads x rows x head dimension took 27,652 assignments a group,
  // and the search ran out of time on 18 statements. Should that allow none, every
  // assignment is tried after all.
  if (out.empty() && !anchors.empty()) {
    anchoring = Anchoring::None;
    capped = !anyOne;
    assign(0);
    if (overflow) {
      out.clear();
      overflow = capped = false;
      anchoring = Anchoring::SubscriptsThenOrder;
      assign(0);
      if (out.empty()) {
        anchoring = Anchoring::None;
        assign(0);
      }
    }
  }
  // In group order, each member's tuples in theirs: the order plan() breaks ties by.
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<CostModel::SiblingAnchor> CostModel::siblingAnchors(const std::vector<int>& members,
                                                                const std::vector<int>& deps) const {
  const Program& prog = fg_.program();
  const auto& all = fg_.poly().dependences();
  const size_t n = members.size();
  std::vector<int> pos(fg_.size(), -1);
  for (size_t k = 0; k < n; ++k) pos[members[k]] = int(k);
  // Components of the group under its internal dependences, each named by its first member.
  std::vector<int> comp(n);
  for (size_t k = 0; k < n; ++k) comp[k] = int(k);
  std::function<int(int)> find = [&](int k) { return comp[k] == k ? k : comp[k] = find(comp[k]); };
  for (int d : deps) {
    int a = find(pos[all[d].src]), b = find(pos[all[d].dst]);
    comp[std::max(a, b)] = std::min(a, b);
  }
  // Per parallel dim of a statement's read: the subscript it alone indexes with
  // coefficient one, or -1.
  auto positions = [&](int s, const SizedAccess& r) {
    const int p = prog.statements[s].numParallel;
    std::vector<int> at(size_t(p), -1);
    if (!r.indirect.empty()) return at;
    for (size_t q = 0; q < r.coef.size(); ++q) {
      int dim = -1, nonzero = 0;
      for (size_t v = 0; v < r.coef[q].size(); ++v)
        if (r.coef[q][v] != 0) {
          ++nonzero;
          dim = r.coef[q][v] == 1 ? int(v) : -1;
        }
      if (nonzero == 1 && dim >= 0 && dim < p) at[size_t(dim)] = int(q);
    }
    return at;
  };
  std::vector<SiblingAnchor> anchors;
  for (size_t k = 1; k < n; ++k) {
    if (find(int(k)) != int(k)) continue;  // not the first member of its component
    bool found = false;
    for (size_t e = 0; e < k && !found; ++e)
      for (size_t m = k; m < n && !found; ++m) {
        if (find(int(m)) != int(k)) continue;
        for (auto& ra : sized(members[e]).reads) {
          for (auto& rb : sized(members[m]).reads)
            if (ra.tensor == rb.tensor) {
              std::vector<int> pa = positions(members[e], ra), pb = positions(members[m], rb);
              if (std::all_of(pa.begin(), pa.end(), [](int p) { return p < 0; })) continue;
              anchors.push_back({int(e), int(m), std::move(pa), std::move(pb)});
              found = true;
              break;
            }
          if (found) break;
        }
      }
  }
  return anchors;
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

std::vector<int64_t> CostModel::gridExtents(const std::vector<int>& members,
                                            const std::vector<std::vector<int>>& dims) const {
  auto [lo, hi] = gridBounds(members, dims);
  for (size_t t = 0; t < lo.size(); ++t) hi[t] = std::max<int64_t>(0, hi[t] - lo[t]);
  return hi;
}

std::pair<int64_t, int64_t> CostModel::tileLimits(const std::vector<int>& members) const {
  for (int s : members) {
    const Statement& st = fg_.program().statements[size_t(s)];
    if ((tensorCoresAllowed() && contractionShaped(st)) || tensorEngine(st) != ContractionEngine::FmaUnits)
      return {kWideTile, kWideTile * kWideTile};
  }
  return {kMaxTileND, kMaxTilePoints};
}

std::vector<int64_t> CostModel::tileMenu(int g, int t, int64_t extent, int64_t widest) {
  std::vector<int64_t> menu{1};
  if (t < g - kTiledGridCoords) return menu;
  const int64_t most = g == 1 ? kMaxTile1D : widest;
  for (int64_t v = 2; v <= most && v < extent * 2; v *= 2) menu.push_back(v);
  return menu;
}

int CostModel::splitRoot(const std::vector<int>& members) const {
  const int partner = splitPartner(members);
  int root = -1;
  for (int k = 0; k < int(members.size()); ++k)
    if (fg_.program().statements[members[k]].numReduction() > 0 && k != partner) {
      if (root >= 0) return -1;
      root = k;
    }
  return root;
}

// Two reductions split together only as a streamed pair: the later sums against the
// earlier's maximum (docs/streaming.md), every producer it inlines a member.
int CostModel::splitPartner(const std::vector<int>& members) const {
  if (!streams_) return -1;
  std::vector<int> reductions;
  for (int k = 0; k < int(members.size()); ++k)
    if (fg_.program().statements[members[k]].numReduction() > 0) reductions.push_back(k);
  if (reductions.size() != 2) return -1;
  const StreamChain& sc = stream_[size_t(members[reductions[1]])];
  if (!sc.streamsAlongside() || sc.max != members[reductions[0]]) return -1;
  for (int p : sc.producers)
    if (std::find(members.begin(), members.end(), p) == members.end()) return -1;
  return reductions[1];
}

std::vector<int> CostModel::splitDims(const std::vector<int>& members) const {
  const Program& prog = fg_.program();
  const int n = int(members.size());
  const int root = splitRoot(members);
  if (root < 0) return {};
  std::vector<int> dims(n, -1);
  const SizedStatement& rs = sized(members[root]);
  dims[root] = int(rs.lo.size()) - 1;
  const int64_t lo = rs.lo.back(), hi = rs.hi.back();
  // A streamed sum's chunks are its maximum's: its last dim lines up with theirs. What
  // the maximum writes its chunk's partner reads as the running value, not across chunks.
  const int partner = splitPartner(members);
  if (partner >= 0) {
    const SizedStatement& ps = sized(members[partner]);
    const int last = int(ps.lo.size()) - 1;
    if (stream_[size_t(members[partner])].sumDimOf[size_t(dims[root])] != last || ps.lo[last] != lo || ps.hi[last] != hi)
      return {};
    dims[partner] = last;
  }
  // Producers come before their readers: settle the readers first.
  for (int k = n - 1; k >= 0; --k) {
    if (k == root || k == partner) continue;
    const Statement& st = prog.statements[members[k]];
    const SizedStatement& ss = sized(members[k]);
    if (st.numReduction() > 0) return {};
    auto isVar = [](const std::vector<int64_t>& row, int64_t constant, int var) {
      if (constant != 0) return false;
      for (size_t v = 0; v < row.size(); ++v)
        if (row[v] != (int(v) == var ? 1 : 0)) return false;
      return true;
    };
    int dim = -1;
    bool read = false;
    for (int c = k + 1; c < n; ++c)
      for (auto& r : sized(members[c]).reads) {
        if (r.tensor != ss.write.tensor) continue;
        read = true;
        if (dims[c] < 0) return {};
        // The reader's chunked dimension indexes position p; the producer writes
        // position p from one of its own dimensions.
        int p = -1;
        for (size_t q = 0; q < r.coef.size(); ++q)
          if (isVar(r.coef[q], r.constant[q], dims[c])) p = int(q);
        if (p < 0) return {};
        int d = -1;
        for (int v = 0; v < int(ss.lo.size()); ++v)
          if (isVar(ss.write.coef[p], ss.write.constant[p], v)) d = v;
        if (d < 0 || (dim >= 0 && dim != d)) return {};
        dim = d;
      }
    if (!read || dim < 0 || ss.lo[dim] != lo || ss.hi[dim] != hi) return {};
    dims[k] = dim;
  }
  return dims;
}

std::vector<int64_t> CostModel::splitMenu(const std::vector<int>& members) const {
  const Program& prog = fg_.program();
  std::vector<int64_t> menu{1};
  if (splitDims(members).empty()) return menu;
  const int root = splitRoot(members);
  const Statement& st = prog.statements[members[root]];
  const SizedStatement& ss = sized(members[root]);
  bool escapes = prog.tensors[st.write.tensor].role == TensorRole::Output || !consumers_[st.write.tensor].empty();
  if (!escapes) return menu;
  const int64_t extent = ss.hi.back() - ss.lo.back();
  for (int64_t c = 2; c <= kMaxSplitChunks && extent / c >= kMinSplitChunk; c *= 2) menu.push_back(c);
  return menu;
}

GridCandidate CostModel::CandidateSet::at(size_t i) const {
  const Item& it = items[i];
  const auto& dims = assignments[it.assignment];
  const size_t g = dims.empty() ? 0 : dims.front().size();
  return {dims, std::vector<int64_t>(tiles.begin() + ptrdiff_t(it.tileAt), tiles.begin() + ptrdiff_t(it.tileAt + g)), it.chunks};
}

// Assignments are few and tiles many (a convolution's 64 assignments times their tile
// menus are hundreds of candidates): each is kept once, a candidate is indices into them.
CostModel::CandidateSet CostModel::candidateSet(const StmtSet& group, bool noParallelismLoss,
                                                const StmtSet& recomputed) const {
  CandidateSet out;
  std::vector<int> members = group.members();
  const Program& prog = fg_.program();
  if (members.empty() || !fg_.isConnected(group) || !fg_.isConvex(group, recomputed)) return out;
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
  const auto [widest, mostPoints] = tileLimits(members);
  for (int g = maxG; g >= minG; --g) {
    for (auto& dims : gridAssignments(members, g)) {
      const uint32_t a = uint32_t(out.assignments.size());
      out.extents.push_back(gridExtents(members, dims));
      out.assignments.push_back(std::move(dims));
      std::vector<std::vector<int64_t>> menus;
      for (int t = 0; t < g; ++t) menus.push_back(tileMenu(g, t, std::max<int64_t>(1, out.extents[a][size_t(t)]), widest));
      std::vector<int64_t> tile(g, 1);
      std::function<void(int, int64_t)> rec = [&](int t, int64_t points) {
        if (t == g) {
          const size_t at = out.tiles.size();
          out.tiles.insert(out.tiles.end(), tile.begin(), tile.end());
          for (int64_t chunks : chunkMenu) out.items.push_back({a, at, chunks});
          return;
        }
        for (int64_t v : menus[t]) {
          if (points * v > mostPoints) break;
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

std::vector<GridCandidate> CostModel::gridCandidates(const StmtSet& group, bool noParallelismLoss,
                                                     const StmtSet& recomputed) const {
  const CandidateSet set = candidateSet(group, noParallelismLoss, recomputed);
  std::vector<GridCandidate> out;
  for (size_t i = 0; i < set.items.size(); ++i) out.push_back(set.at(i));
  return out;
}

}  // namespace polyfuse

#include "fusion/FusionGraph.h"

#include <algorithm>
#include <functional>
#include <set>

#include "polyir/Diagnostic.h"

namespace polyfuse {

std::vector<size_t> breadthFirstOrder(const std::vector<std::vector<size_t>>& linked) {
  const size_t n = linked.size();
  std::vector<size_t> order;
  std::vector<bool> placed(n, false);
  for (size_t root = 0; root < n; ++root) {
    if (placed[root]) continue;
    placed[root] = true;
    order.push_back(root);
    for (size_t q = order.size() - 1; q < order.size(); ++q) {
      std::vector<size_t> next = linked[order[q]];
      std::sort(next.begin(), next.end());
      for (size_t m : next)
        if (!placed[m]) placed[m] = true, order.push_back(m);
    }
  }
  return order;
}

FusionGraph::FusionGraph(const PolyProgram& pp) : pp_(pp), graph_(pp.program().statements.size()) {
  const Program& prog = pp.program();
  const int n = size();
  const auto& deps = pp.dependences();
  depsFrom_.assign(n, {});
  for (size_t d = 0; d < deps.size(); ++d) {
    const Dependence& dep = deps[d];
    const Statement& src = prog.statements[dep.src];
    const Statement& dst = prog.statements[dep.dst];
    aligned_.emplace_back(src.numParallel, std::vector<bool>(dst.numParallel, false));
    for (int a = 0; a < src.numParallel; ++a)
      for (int b = 0; b < dst.numParallel; ++b) {
        isl_map* eq = isl_map_equate(isl_map_universe(dep.relation.space().release()), isl_dim_in, a, isl_dim_out, b);
        aligned_[d][a][b] = dep.relation.is_subset(isl::manage(eq));
      }
    std::vector<uint64_t> masks(size_t(src.numParallel), 0);
    for (int a = 0; a < src.numParallel && a < 64; ++a)
      for (int b = 0; b < dst.numParallel && b < 64; ++b)
        if (aligned_[d][a][b]) masks[size_t(a)] |= uint64_t(1) << b;
    alignedMask_.push_back(std::move(masks));
    depsFrom_[dep.src].push_back(int(d));
    if (dep.src != dep.dst) boost::add_edge(dep.src, dep.dst, DepEdge{int(d), dep.kind, dep.tensor}, graph_);
  }
  for (const Statement& st : prog.statements) wideStatements_ = wideStatements_ || st.numParallel > 64;
  // Reachability in statement order: dependences only point forward.
  reach_.assign(n, StmtSet(n));
  reachedBy_.assign(n, StmtSet(n));
  for (int u = n - 1; u >= 0; --u) {
    for (auto e : boost::make_iterator_range(boost::out_edges(u, graph_))) {
      int v = int(boost::target(e, graph_));
      reach_[u].insert(v);
      reach_[u] |= reach_[v];
    }
  }
  for (int u = 0; u < n; ++u)
    for (int v : reach_[u].members()) reachedBy_[v].insert(u);
  // Siblings: statements reading a common tensor, neither reaching the other.
  std::vector<std::set<int>> readSets(n);
  for (auto& st : prog.statements)
    for (auto& r : st.reads) readSets[st.id].insert(r.tensor);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (reaches(a, b) || reaches(b, a)) continue;
      SiblingPair sp{a, b, {}};
      std::set_intersection(readSets[a].begin(), readSets[a].end(), readSets[b].begin(), readSets[b].end(),
                            std::back_inserter(sp.tensors));
      if (!sp.tensors.empty()) siblings_.push_back(sp);
    }
  neighbours_.assign(n, {});
  auto link = [&](int a, int b) {
    if (std::find(neighbours_[a].begin(), neighbours_[a].end(), b) == neighbours_[a].end()) {
      neighbours_[a].push_back(b);
      neighbours_[b].push_back(a);
    }
  };
  for (auto& d : deps)
    if (d.src != d.dst) link(d.src, d.dst);
  for (auto& s : siblings_) link(s.a, s.b);
  for (auto& nb : neighbours_) std::sort(nb.begin(), nb.end());

  flowConsumers_.assign(n, {});
  recomputable_.assign(n, false);
  for (auto& st : prog.statements) {
    const Tensor& t = prog.tensors[st.write.tensor];
    recomputable_[st.id] = st.numReduction() == 0 && !st.isReduction() && !st.init && t.role == TensorRole::Temporary;
  }
  for (auto& st : prog.statements)
    for (auto& other : prog.statements)
      if (other.id != st.id && other.write.tensor == st.write.tensor) recomputable_[st.id] = false;
  for (auto& d : deps) {
    // A self-dependence (a value written twice) or any anti or output dependence means
    // that where a copy runs decides what it reads or leaves behind.
    const bool plainFlow = d.kind == DepKind::Flow && d.src < d.dst;
    if (!plainFlow) recomputable_[d.src] = recomputable_[d.dst] = false;
    if (d.kind == DepKind::Flow && d.src != d.dst) flowConsumers_[d.src].push_back(d.dst);
  }
  for (int s = 0; s < n; ++s) {
    auto& c = flowConsumers_[s];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    if (c.empty()) recomputable_[s] = false;
  }
}

bool FusionGraph::readOutside(const StmtSet& group, int s) const {
  for (int c : flowConsumers_[s])
    if (!group.contains(c)) return true;
  return false;
}

bool FusionGraph::anyRecomputable() const {
  return std::find(recomputable_.begin(), recomputable_.end(), true) != recomputable_.end();
}

std::vector<int> FusionGraph::internalDeps(const StmtSet& group) const {
  std::vector<int> out;
  const auto& deps = pp_.dependences();
  for (int u : group.members())
    for (int d : depsFrom_[u])
      if (group.contains(deps[d].dst)) out.push_back(d);
  std::sort(out.begin(), out.end());
  return out;
}

// A constraint network of one variable per member (its parallel dim on the grid's one
// coordinate, a bitmask of the dims still possible) and one constraint per internal
// dependence (alignedMask). Arc consistency first, then a backtracking search in which
// each member placed is checked against the members placed before it. The enumeration
// asks this of every set it grows (MobileBERT: 400,000 times a minute), so the network
// is bitmasks on the stack's few vectors, not gridAssignments' tuples.
std::optional<bool> FusionGraph::anyRankOneGrid(const StmtSet& group) const {
  if (wideStatements_) return std::nullopt;
  const Program& prog = program();
  const auto& deps = pp_.dependences();
  const std::vector<int> members = group.members();
  const size_t n = members.size();
  auto local = [&](int s) { return size_t(std::lower_bound(members.begin(), members.end(), s) - members.begin()); };
  struct Link {
    size_t a, b;
    int dep;
  };
  std::vector<Link> links;
  std::vector<uint64_t> dom(n);
  for (size_t k = 0; k < n; ++k) {
    const int p = prog.statements[size_t(members[k])].numParallel;
    if (p == 0) return false;
    dom[k] = p == 64 ? ~uint64_t(0) : (uint64_t(1) << p) - 1;
    for (int d : depsFrom_[size_t(members[k])])
      if (group.contains(deps[size_t(d)].dst)) links.push_back({k, local(deps[size_t(d)].dst), d});
  }
  // The dims of b that some dim of `from` (the source's) keeps aligned through d.
  auto image = [&](int d, uint64_t from) {
    uint64_t to = 0;
    for (uint64_t w = from; w; w &= w - 1) to |= alignedMask_[size_t(d)][size_t(__builtin_ctzll(w))];
    return to;
  };
  auto preimage = [&](int d, uint64_t to) {
    uint64_t from = 0;
    const auto& m = alignedMask_[size_t(d)];
    for (size_t x = 0; x < m.size(); ++x)
      if (m[x] & to) from |= uint64_t(1) << x;
    return from;
  };
  auto self = [&](int d) {
    uint64_t keep = 0;
    const auto& m = alignedMask_[size_t(d)];
    for (size_t x = 0; x < m.size(); ++x)
      if (m[x] >> x & 1) keep |= uint64_t(1) << x;
    return keep;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Link& l : links) {
      const uint64_t a = l.a == l.b ? dom[l.a] & self(l.dep) : dom[l.a] & preimage(l.dep, dom[l.b]);
      const uint64_t b = l.a == l.b ? a : dom[l.b] & image(l.dep, a);
      if (!a || !b) return false;
      changed = changed || a != dom[l.a] || b != dom[l.b];
      dom[l.a] = a;
      dom[l.b] = b;
    }
  }
  // Members are placed breadth-first along the links (each, but the first of its
  // component, beside one placed before it: gridAssignments' order, which kept torch's
  // unfold from retrying every placement in between), each link checked at the later of
  // its two ends.
  std::vector<std::vector<size_t>> linked(n);
  for (const Link& l : links) {
    linked[l.a].push_back(l.b);
    linked[l.b].push_back(l.a);
  }
  const std::vector<size_t> order = breadthFirstOrder(linked);
  std::vector<size_t> step(n);
  for (size_t s = 0; s < n; ++s) step[order[s]] = s;
  std::vector<std::vector<size_t>> at(n);
  for (size_t i = 0; i < links.size(); ++i) at[std::max(step[links[i].a], step[links[i].b])].push_back(i);
  std::vector<int> chosen(n, -1);
  std::function<bool(size_t)> place = [&](size_t s) {
    if (s == n) return true;
    const size_t k = order[s];
    for (uint64_t w = dom[k]; w; w &= w - 1) {
      chosen[k] = __builtin_ctzll(w);
      bool ok = true;
      for (size_t i : at[s]) {
        const Link& l = links[i];
        ok = ok && (alignedMask_[size_t(l.dep)][size_t(chosen[l.a])] >> chosen[l.b] & 1);
      }
      if (ok && place(s + 1)) return true;
    }
    return false;
  };
  return place(0);
}

bool FusionGraph::isConvex(const StmtSet& group) const {
  StmtSet out(size()), in(size());
  for (int u : group.members()) {
    out |= reach_[u];
    in |= reachedBy_[u];
  }
  out = out.minus(group);
  return !out.intersects(in);
}

StmtSet FusionGraph::convexHull(const StmtSet& group) const {
  StmtSet out(size()), in(size());
  for (int u : group.members()) {
    out |= reach_[u];
    in |= reachedBy_[u];
  }
  out &= in;
  out |= group;
  return out;
}

bool FusionGraph::isConvex(const StmtSet& group, const StmtSet& recomputed) const {
  if (recomputed.empty()) return isConvex(group);
  // Leave through a member that shares its value, come back to any member.
  StmtSet out(size()), in(size());
  for (int u : group.members()) {
    in |= reachedBy_[u];
    if (recomputed.contains(u)) continue;
    for (auto e : boost::make_iterator_range(boost::out_edges(u, graph_))) {
      int v = int(boost::target(e, graph_));
      if (group.contains(v)) continue;
      out.insert(v);
      out |= reach_[v];
    }
  }
  out = out.minus(group);
  return !out.intersects(in);
}

std::vector<std::set<int>> FusionGraph::kernelSuccessors(const std::vector<StmtSet>& groups,
                                                         const std::vector<StmtSet>& recomputed) const {
  const int n = size();
  // Per statement: the groups that hold it, and the one whose copy others read.
  std::vector<std::vector<int>> holders(n);
  std::vector<int> writer(n, -1);
  for (size_t k = 0; k < groups.size(); ++k)
    for (int s : groups[k].members()) holders[s].push_back(int(k));
  for (int s = 0; s < n; ++s) {
    if (holders[s].size() == 1) writer[s] = holders[s][0];
    // Of several copies, the stored one (a copy whose readers are all beside it stores
    // nothing).
    else
      for (int k : holders[s])
        if (storesValue(groups[k], recomputed.empty() ? StmtSet() : recomputed[k], s)) writer[s] = k;
  }
  std::vector<std::set<int>> succ(groups.size());
  for (auto& d : pp_.dependences())
    for (int k : holders[d.dst]) {
      if (groups[k].contains(d.src)) continue;
      if (writer[d.src] < 0)
        throw InternalError("S" + std::to_string(d.dst) + " in kernel " + std::to_string(k) + " reads S" +
                            std::to_string(d.src) + ", which no kernel stores");
      succ[writer[d.src]].insert(k);
    }
  return succ;
}

bool FusionGraph::isConnected(const StmtSet& group) const {
  std::vector<int> m = group.members();
  if (m.empty()) return false;
  StmtSet seen(size());
  std::vector<int> stack{m[0]};
  seen.insert(m[0]);
  int count = 0;
  while (!stack.empty()) {
    int u = stack.back();
    stack.pop_back();
    ++count;
    for (int v : neighbours_[u])
      if (group.contains(v) && !seen.contains(v)) {
        seen.insert(v);
        stack.push_back(v);
      }
  }
  return count == int(m.size());
}

}  // namespace polyfuse

// The fusion graph: statements as vertices, dependences between statements as
// edges (Boost.Graph), sibling pairs that share a tensor they read, reachability,
// and for every dependence the pairs of parallel dimensions it keeps equal: the
// facts from which grid legality is decided without further isl calls.
#pragma once
#include <boost/graph/adjacency_list.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fusion/StmtSet.h"
#include "polyir/PolyProgram.h"

namespace polyfuse {

// The nodes of an undirected graph (`linked`: each node's neighbours) in breadth-first
// order, components in node order, neighbours in increasing order: each node but the
// first of its component comes after one it is linked to. Grid legality places a group's
// members in it, so that each placement is checked against a placed neighbour at once.
std::vector<size_t> breadthFirstOrder(const std::vector<std::vector<size_t>>& linked);

struct DepEdge {
  int dep = -1;  // index into PolyProgram::dependences()
  DepKind kind = DepKind::Flow;
  int tensor = -1;  // bytes follow from the tensor at concrete sizes (CostModel::tensorBytes)
};

using DepGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property, DepEdge>;

struct SiblingPair {
  int a, b;                  // a < b
  std::vector<int> tensors;  // tensors both read
};

class FusionGraph {
 public:
  explicit FusionGraph(const PolyProgram& pp);

  const PolyProgram& poly() const { return pp_; }
  const Program& program() const { return pp_.program(); }
  int size() const { return int(program().statements.size()); }
  const DepGraph& graph() const { return graph_; }

  // alignment(d, a, b): dependence d maps parallel dim a of its source onto parallel
  // dim b of its sink (every instance pair has x_a == y_b).
  bool aligned(int dep, int a, int b) const { return aligned_[dep][a][b]; }
  // Whether one grid coordinate can hold every internal dependence of the group at a
  // grid point: each member puts one of its parallel dims on it, aligned across each
  // dependence (CostModel::gridAssignments of rank 1, existence alone). None where a
  // statement has more than 64 parallel dims (its dims are not one word).
  std::optional<bool> anyRankOneGrid(const StmtSet& group) const;
  // Dependences with both ends in the group (self-dependences included).
  std::vector<int> internalDeps(const StmtSet& group) const;
  bool reaches(int u, int v) const { return reach_[u].contains(v); }
  // No path leaves the group and comes back. Paths that leave through a member in
  // `recomputed` do not count: the kernel keeps those values to itself.
  bool isConvex(const StmtSet& group) const;
  bool isConvex(const StmtSet& group, const StmtSet& recomputed) const;
  // The smallest convex set holding the group: it and every statement on a path
  // between two of its members. Every convex superset of the group contains it.
  StmtSet convexHull(const StmtSet& group) const;
  // A statement other kernels may compute again instead of reading its stored value:
  // elementwise (no reduction, no update), the only writer of a temporary, and linked
  // to the rest of the program by flow dependences alone, from earlier statements, with
  // at least one consumer. Every copy then computes the same values wherever it runs.
  bool recomputable(int s) const { return recomputable_[s]; }
  bool anyRecomputable() const;
  // Statements that read s's value (flow dependences), sorted.
  const std::vector<int>& flowConsumers(int s) const { return flowConsumers_[s]; }
  // Some statement outside the group reads s's value.
  bool readOutside(const StmtSet& group, int s) const;
  // The kernel `group`, recomputing `recomputed` (or nothing, when empty), writes s's
  // value for other kernels: s is a member it does not recompute, read outside it, or,
  // when s is not recomputable (this kernel alone computes it), read by a member it
  // recomputes: that statement runs elsewhere too, and there it reads s from memory.
  bool storesValue(const StmtSet& group, const StmtSet& recomputed, int s) const {
    if (!group.contains(s) || (!recomputed.empty() && recomputed.contains(s))) return false;
    if (readOutside(group, s)) return true;
    if (recomputed.empty() || recomputable(s)) return false;
    for (int c : flowConsumers(s))
      if (recomputed.contains(c)) return true;
    return false;
  }
  // Connected through dependence edges or sibling pairs.
  bool isConnected(const StmtSet& group) const;
  // The order kernels must run in: succ[a] holds b when kernel b uses what kernel a
  // leaves in memory. `recomputed` (one set per group, or empty) names the members a
  // group keeps to itself; a statement in several groups is stored by the one that does
  // not recompute it. Throws InternalError when a group reads a value no group stores.
  std::vector<std::set<int>> kernelSuccessors(const std::vector<StmtSet>& groups,
                                              const std::vector<StmtSet>& recomputed = {}) const;
  const std::vector<SiblingPair>& siblings() const { return siblings_; }
  const std::vector<int>& neighbours(int s) const { return neighbours_[s]; }

 private:
  const PolyProgram& pp_;
  DepGraph graph_;
  std::vector<std::vector<std::vector<bool>>> aligned_;
  std::vector<std::vector<uint64_t>> alignedMask_;  // per dependence and source dim: the sink dims aligned with it
  bool wideStatements_ = false;                      // some statement has more than 64 parallel dims
  std::vector<StmtSet> reach_, reachedBy_;
  std::vector<std::vector<int>> depsFrom_;  // per statement: the dependences it is the source of
  std::vector<SiblingPair> siblings_;
  std::vector<std::vector<int>> neighbours_;
  std::vector<std::vector<int>> flowConsumers_;
  std::vector<bool> recomputable_;
};

}  // namespace polyfuse

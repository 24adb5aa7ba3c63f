// The fusion graph: statements as vertices, dependences between statements as
// edges (Boost.Graph), sibling pairs that share a tensor they read, reachability,
// and for every dependence the pairs of parallel dimensions it keeps equal: the
// facts from which grid legality is decided without further isl calls.
#pragma once
#include <boost/graph/adjacency_list.hpp>

#include <string>
#include <vector>

#include "fusion/StmtSet.h"
#include "polyir/PolyProgram.h"

namespace polyfuse {

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
  // Dependences with both ends in the group (self-dependences included).
  std::vector<int> internalDeps(const StmtSet& group) const;
  bool reaches(int u, int v) const { return reach_[u].contains(v); }
  // No path leaves the group and comes back.
  bool isConvex(const StmtSet& group) const;
  // Connected through dependence edges or sibling pairs.
  bool isConnected(const StmtSet& group) const;
  const std::vector<SiblingPair>& siblings() const { return siblings_; }
  const std::vector<int>& neighbours(int s) const { return neighbours_[s]; }

 private:
  const PolyProgram& pp_;
  DepGraph graph_;
  std::vector<std::vector<std::vector<bool>>> aligned_;
  std::vector<StmtSet> reach_, reachedBy_;
  std::vector<SiblingPair> siblings_;
  std::vector<std::vector<int>> neighbours_;
};

}  // namespace polyfuse

// Groups of one shape share one pricing. A model's repeated layers (an encoder's or a
// decoder's blocks, ResNet's bottlenecks) give the enumeration thousands of groups that
// differ only in which statements and tensors they name: the same sizes, accesses,
// bodies and dependences, in the same order. Their plans are the same plan renamed, so
// their modeled times are equal, and the search prices one of each (docs/strategies.md,
// "The ILP"). The key below is everything `plan` reads of a group, with statements
// numbered by their order in the group and tensors by the order of their ids among the
// tensors it touches: comparisons of ids inside the cost model (tie-breaks, map orders)
// then go the same way for every group of one key.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "fusion/CostModel.h"

namespace polyfuse {

namespace {

class KeyWriter {
 public:
  void put(int64_t v) { key_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void put(double v) {
    int64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    put(bits);
  }
  void put(const std::string& s) {
    put(int64_t(s.size()));
    key_ += s;
  }
  void put(const std::vector<int64_t>& v) {
    put(int64_t(v.size()));
    for (int64_t x : v) put(x);
  }
  std::string take() { return std::move(key_); }

 private:
  std::string key_;
};

}  // namespace

std::string CostModel::shapeKey(const StmtSet& group) const {
  const Program& prog = fg_.program();
  const std::vector<int> members = group.members();
  std::vector<int> tensors;
  for (int s : members) {
    tensors.push_back(prog.statements[s].write.tensor);
    for (auto& r : prog.statements[s].reads) tensors.push_back(r.tensor);
  }
  std::sort(tensors.begin(), tensors.end());
  tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
  auto local = [&](int t) { return int64_t(std::lower_bound(tensors.begin(), tensors.end(), t) - tensors.begin()); };
  auto member = [&](int s) {
    auto it = std::lower_bound(members.begin(), members.end(), s);
    return it != members.end() && *it == s ? int64_t(it - members.begin()) : int64_t(-1);
  };
  // Literals by what the model can tell of them: whether two are equal (Rescale's
  // sameValue), whether one is zero (its degree rule), NaN and infinity. Their values
  // themselves change no plan or time, and an exported model's layers differ in little
  // else (MobileBERT's splat weights: 0.0038 in one layer, 0.0037 in the next).
  std::vector<double> literals;
  auto literal = [&](double v) {
    size_t i = 0;
    while (i < literals.size() && !(literals[i] == v || (literals[i] != literals[i] && v != v))) ++i;
    if (i == literals.size()) literals.push_back(v);
    return int64_t(i) << 4 | int64_t(v == 0) | int64_t(v != v) << 1 | int64_t(std::isinf(v)) << 2 |
           int64_t(std::signbit(v)) << 3;
  };
  KeyWriter w;
  w.put(int64_t(members.size()));
  // Each tensor as the model sees it: type, role, extents, and who else reads it
  // (whether a written value escapes the kernel, whether a split may write partials).
  for (int t : tensors) {
    const Tensor& T = prog.tensors[t];
    w.put(int64_t(T.type));
    w.put(int64_t(T.role));
    w.put(at_.tensorElements(t));
    w.put(int64_t(T.shape.size()));
    for (auto& e : T.shape) w.put(e.eval(at_.sizes()));
    w.put(int64_t(consumers_[t].empty()));
    w.put(int64_t(std::any_of(consumers_[t].begin(), consumers_[t].end(), [&](int c) { return !group.contains(c); })));
  }
  auto access = [&](const SizedAccess& a) {
    w.put(local(a.tensor));
    w.put(int64_t(a.coef.size()));
    for (auto& row : a.coef) w.put(row);
    w.put(a.constant);
    w.put(int64_t(a.indirect.size()));
    for (int i : a.indirect) w.put(int64_t(i));
    w.put(a.extent);
  };
  for (int s : members) {
    const Statement& st = prog.statements[s];
    const SizedStatement& ss = sized(s);
    w.put(int64_t(st.op));
    w.put(int64_t(st.init));
    // How it streams: its maximum and inlined producers, as members (or outside: -1).
    const StreamChain& sc = stream_[size_t(s)];
    w.put(sc.streams() ? member(sc.max) : int64_t(-2));
    if (sc.streams()) {
      w.put(int64_t(sc.producers.size()));
      for (int p : sc.producers) w.put(member(p));
    }
    w.put(int64_t(st.numParallel));
    w.put(int64_t(st.dims.size()));
    w.put(ss.lo);
    w.put(ss.hi);
    w.put(ss.points);
    w.put(ss.flopsPerPoint);
    access(ss.write);
    w.put(int64_t(ss.reads.size()));
    for (auto& r : ss.reads) access(r);
    // The body: what the kernel computes decides contraction tiling and register rows.
    std::function<void(const Expr&)> body = [&](const Expr& e) {
      w.put(int64_t(e.kind));
      w.put(int64_t(e.args.size()));
      switch (e.kind) {
        case ExprKind::Number: w.put(literal(e.number)); break;
        case ExprKind::Access: w.put(local(e.ref)); break;
        case ExprKind::Scalar: w.put(int64_t(e.ref)); break;
        case ExprKind::Call: w.put(int64_t(e.fn)); break;
        case ExprKind::Index: {
          auto it = std::find(st.dims.begin(), st.dims.end(), e.name);
          if (it != st.dims.end()) w.put(int64_t(it - st.dims.begin()));
          else w.put(e.name);
          break;
        }
        case ExprKind::Name:
        case ExprKind::Size: w.put(e.name); break;
        default: break;
      }
      for (auto& a : e.args) body(*a);
    };
    if (st.rhs) body(*st.rhs);
    // Where each value read comes from: members (by position) or outside the kernel.
    w.put(int64_t(flowSources_[s].size()));
    for (auto& [t, srcs] : flowSources_[s]) {
      std::vector<int64_t> inside;
      bool outside = false;
      for (int src : srcs) {
        int64_t k = member(src);
        if (k < 0) outside = true;
        else inside.push_back(k);
      }
      std::sort(inside.begin(), inside.end());
      w.put(local(t));
      w.put(inside);
      w.put(int64_t(outside));
    }
  }
  // The dependences inside the kernel decide its legal grids.
  const auto& deps = fg_.poly().dependences();
  std::vector<std::string> internal;
  for (int d : fg_.internalDeps(group)) {
    const Dependence& dep = deps[d];
    KeyWriter e;
    e.put(int64_t(dep.kind));
    e.put(member(dep.src));
    e.put(member(dep.dst));
    e.put(local(dep.tensor));
    const int ps = prog.statements[dep.src].numParallel, pd = prog.statements[dep.dst].numParallel;
    for (int a = 0; a < ps; ++a)
      for (int b = 0; b < pd; ++b) e.put(int64_t(fg_.aligned(d, a, b)));
    internal.push_back(e.take());
  }
  std::sort(internal.begin(), internal.end());
  w.put(int64_t(internal.size()));
  for (auto& e : internal) w.put(e);
  return w.take();
}

std::optional<double> CostModel::modeledUs(const StmtSet& group, bool noParallelismLoss) const {
  return modeledUsBelow(group, noParallelismLoss, std::numeric_limits<double>::infinity());
}

std::optional<double> CostModel::modeledUsBelow(const StmtSet& group, bool noParallelismLoss, double ceilingUs) const {
  const int flag = noParallelismLoss ? 1 : 0;
  if (auto it = timeMemo_[flag].find(group); it != timeMemo_[flag].end()) return it->second;
  // The key sees the group from inside: whether a path leaves it and comes back is
  // asked of the whole graph.
  if (!fg_.isConnected(group) || !fg_.isConvex(group)) return timeMemo_[flag][group] = std::nullopt;
  std::string key = shapeKey(group);
  if (auto it = shapeMemo_[flag].find(key); it != shapeMemo_[flag].end()) {
    ++shapeStats_.shared;
    return timeMemo_[flag][group] = it->second;
  }
  // The time alone is kept: the enumeration prices tens of thousands of groups and
  // keeps a few hundred, whose plans plan() makes again (a memo of every plan took
  // 5 GB on MobileNet v3).
  std::optional<double> time;
  if (auto m = memo_[flag].find(group); m != memo_[flag].end()) {
    if (m->second) time = m->second->modeledUs;
  } else {
    const std::vector<int> members = group.members();
    const CandidateSet set = candidateSet(group, noParallelismLoss, {});
    const auto order = floorOrder(members, set, {});
    if (!order.empty() && order.front().first > ceilingUs) {
      ++shapeStats_.dominated;
      return std::nullopt;
    }
    if (auto p = cheapest(members, set, order, {})) time = p->modeledUs;
  }
  ++shapeStats_.priced;
  shapeMemo_[flag].emplace(std::move(key), time);
  return timeMemo_[flag][group] = time;
}

}  // namespace polyfuse

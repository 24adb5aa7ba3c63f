#include "codegen/Schedule.h"

#include <isl/schedule_node.h>

#include "polyir/Diagnostic.h"

namespace polyfuse {

static std::string stmtTuple(const Statement& st) {
  std::string s = st.label() + "[";
  for (size_t k = 0; k < st.dims.size(); ++k) s += (k ? ", " : "") + islName(st.dims[k]);
  return s + "]";
}

// S[dims] -> [selected dims] for each member, as a multi union piecewise affine.
static isl::multi_union_pw_aff partialSchedule(const PolyProgram& pp, const std::vector<int>& members,
                                               const std::vector<std::vector<int>>& dimsOf, const isl::set& params) {
  const Program& prog = pp.program();
  isl::union_map um = isl::union_map::empty(pp.ctx());
  isl::union_set dom = isl::union_set::empty(pp.ctx());
  const std::string prefix = pp.paramPrefix();
  for (size_t k = 0; k < members.size(); ++k) {
    const Statement& st = prog.statements[members[k]];
    std::string out = "[";
    for (size_t t = 0; t < dimsOf[k].size(); ++t) out += (t ? ", " : "") + islName(st.dims[dimsOf[k][t]]);
    out += "]";
    um = um.unite(isl::union_map(isl::map(pp.ctx(), prefix + "{ " + stmtTuple(st) + " -> " + out + " }")));
    dom = dom.unite(isl::union_set(pp.statements()[st.id].domain.intersect_params(params)));
  }
  // The domains are applied after the conversion: a statement whose domain is empty at
  // these sizes would leave an empty relation, from which isl cannot take the space.
  isl::multi_union_pw_aff mupa = isl::manage(isl_multi_union_pw_aff_from_union_map(um.release()));
  return mupa.intersect_domain(dom);
}

isl::schedule buildSchedule(const CostModel& cm, const Partition& p) {
  const PolyProgram& pp = cm.graph().poly();
  const Program& prog = pp.program();
  isl::set params = pp.paramsAt(cm.sizes());
  auto domainOf = [&](int s) { return isl::union_set(pp.statements()[s].domain.intersect_params(params)); };
  isl::schedule total;
  for (const KernelPlan& k : p.kernels) {
    isl::union_set dom = isl::union_set::empty(pp.ctx());
    isl::union_set_list filters(pp.ctx(), int(k.statements.size()));
    for (int s : k.statements) {
      dom = dom.unite(domainOf(s));
      filters = filters.add(domainOf(s));
    }
    isl::schedule_node n = isl::schedule::from_domain(dom).root().child(0);
    if (k.gridRank() > 0) {
      n = n.insert_partial_schedule(partialSchedule(pp, k.statements, k.gridDims, params));
      for (int t = 0; t < k.gridRank(); ++t) n = n.as<isl::schedule_node_band>().member_set_coincident(t, true);
      n = n.insert_mark(isl::id(pp.ctx(), "grid")).child(0).child(0);
    }
    n = n.insert_sequence(filters);
    for (size_t m = 0; m < k.statements.size(); ++m) {
      const Statement& st = prog.statements[k.statements[m]];
      std::vector<int> rest;
      for (int d = 0; d < int(st.dims.size()); ++d)
        if (std::find(k.gridDims[m].begin(), k.gridDims[m].end(), d) == k.gridDims[m].end()) rest.push_back(d);
      if (rest.empty()) continue;
      isl::schedule_node c = n.child(int(m)).child(0);
      c = c.insert_partial_schedule(partialSchedule(pp, {st.id}, {rest}, params));
      c = c.insert_mark(isl::id(pp.ctx(), st.numReduction() > 0 ? "reduction" : "thread"));
      n = c.parent().parent();
    }
    n = n.root().child(0).insert_mark(isl::id(pp.ctx(), "kernel K" + std::to_string(k.id)));
    isl::schedule ks = n.schedule();
    total = total.is_null() ? ks : isl::manage(isl_schedule_sequence(total.release(), ks.release()));
  }
  return total;
}

void verifySchedule(const CostModel& cm, const Partition& p, const isl::schedule& s) {
  const PolyProgram& pp = cm.graph().poly();
  const Program& prog = pp.program();
  isl::set params = pp.paramsAt(cm.sizes());
  isl::union_map order = s.map();
  isl::union_map before = isl::manage(isl_union_map_lex_lt_union_map(order.copy(), order.copy()));
  std::vector<int> kernelOf(prog.statements.size(), -1);
  for (auto& k : p.kernels)
    for (int st : k.statements) kernelOf[st] = k.id;
  auto name = [&](const Dependence& d) {
    return std::string(depKindName(d.kind)) + " dependence " + prog.statements[d.src].label() + " (line " +
           std::to_string(prog.statements[d.src].loc.line) + ") -> " + prog.statements[d.dst].label() + " (line " +
           std::to_string(prog.statements[d.dst].loc.line) + ") on '" + prog.tensors[d.tensor].name + "'";
  };
  for (auto& d : pp.dependences()) {
    isl::union_map rel(d.relation.intersect_params(params));
    if (rel.is_empty()) continue;
    if (!rel.is_subset(before))
      throw InternalError("illegal schedule: the " + name(d) + " is not ordered source before sink");
    if (d.src == d.dst && d.reduction) continue;  // partial results combine associatively
    int k = kernelOf[d.src];
    if (k != kernelOf[d.dst]) continue;  // kernels run in order
    const KernelPlan& kp = p.kernels[k];
    if (kp.gridRank() == 0) continue;
    isl::union_map grid = isl::manage(isl_union_map_from_multi_union_pw_aff(partialSchedule(pp, kp.statements, kp.gridDims, params).release()));
    isl::union_map mapped = rel.apply_domain(grid).apply_range(grid);
    isl::union_map identity = isl::union_set(mapped.domain().unite(mapped.range())).identity();
    if (!mapped.is_subset(identity))
      throw InternalError("illegal schedule: the " + name(d) + " crosses grid points of kernel K" + std::to_string(k));
  }
}

}  // namespace polyfuse

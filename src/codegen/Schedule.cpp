#include "codegen/Schedule.h"

#include <isl/constraint.h>
#include <isl/schedule_node.h>

#include <algorithm>
#include <memory>

#include "polyir/Diagnostic.h"

namespace polyfuse {

std::string blockOriginName(int t) { return "pf_b" + std::to_string(t); }

namespace {

// isl's C++ interface has no local space; this owns one.
using LocalSpace = std::unique_ptr<isl_local_space, decltype(&isl_local_space_free)>;

// The statement's domain at the plan's sizes, with the size parameters projected out:
// every bound the AST generator sees is a number.
isl::set domainAt(const PolyProgram& pp, int s, const isl::set& params) {
  return pp.statements()[s].domain.intersect_params(params).project_out_all_params();
}

// One member of a band for a statement: floor((dim - lo) / step), or the plain
// dimension when step is 1 and lo 0.
struct Member {
  int dim;
  int64_t lo = 0, step = 1;
};

// S[dims] -> [members] over the given statements, as a multi union piecewise affine.
isl::multi_union_pw_aff bandSchedule(const std::vector<isl::set>& domains,
                                     const std::vector<std::vector<Member>>& members) {
  isl_ctx* ctx = domains.front().ctx().get();
  const int n = int(members.front().size());
  isl::union_pw_multi_aff upma = isl::manage(isl_union_pw_multi_aff_empty(isl_space_params_alloc(ctx, 0)));
  isl::union_set all = isl::union_set::empty(domains.front().ctx());
  for (size_t k = 0; k < domains.size(); ++k) {
    LocalSpace ls(isl_local_space_from_space(isl_set_get_space(domains[k].get())), isl_local_space_free);
    isl::aff_list list = isl::manage(isl_aff_list_alloc(ctx, n));
    for (const Member& m : members[k]) {
      isl::aff a = isl::manage(isl_aff_var_on_domain(isl_local_space_copy(ls.get()), isl_dim_set, m.dim));
      if (m.lo != 0) a = isl::manage(isl_aff_add_constant_val(a.release(), isl_val_int_from_si(ctx, -m.lo)));
      if (m.step != 1) a = isl::manage(isl_aff_floor(isl_aff_scale_down_val(a.release(), isl_val_int_from_si(ctx, m.step))));
      list = list.add(a);
    }
    isl_space* range = isl_space_add_dims(isl_space_from_domain(isl_set_get_space(domains[k].get())), isl_dim_out, n);
    isl::multi_aff ma = isl::manage(isl_multi_aff_from_aff_list(range, list.release()));
    upma = isl::manage(isl_union_pw_multi_aff_add_pw_multi_aff(upma.release(), isl_pw_multi_aff_from_multi_aff(ma.release())));
    all = all.unite(isl::union_set(domains[k]));
  }
  // The domains are applied after the conversion: a statement whose domain is empty at
  // these sizes would leave an empty relation, from which isl cannot take the space.
  return isl::manage(isl_multi_union_pw_aff_from_union_pw_multi_aff(upma.release())).intersect_domain(all);
}

isl::union_set unionOf(const std::vector<isl::set>& sets) {
  isl::union_set u = isl::union_set::empty(sets.front().ctx());
  for (auto& s : sets) u = u.unite(isl::union_set(s));
  return u;
}

isl::schedule kernelTree(const PolyProgram& pp, const SizedProgram& at, const KernelPlan& k, const isl::set& params) {
  const Program& prog = pp.program();
  isl::ctx ctx = pp.ctx();
  std::vector<isl::set> domains;
  for (int s : k.statements) domains.push_back(domainAt(pp, s, params));
  isl::schedule_node n = isl::schedule::from_domain(unionOf(domains)).root().child(0);
  // Block coordinates: the grid's, then the chunk of a split reduction.
  std::vector<std::vector<Member>> block(k.statements.size());
  for (size_t m = 0; m < k.statements.size(); ++m) {
    for (int t = 0; t < k.gridRank(); ++t) block[m].push_back({k.gridDims[m][t], k.gridLo[t], k.tile[t]});
    if (const int d = k.splitChunks > 1 ? k.chunkDims[m] : -1; d >= 0)
      block[m].push_back({d, at.statement(k.statements[m]).lo[d], k.splitChunk});
  }
  if (!block.front().empty()) {
    n = n.insert_partial_schedule(bandSchedule(domains, block));
    for (int t = 0; t < k.gridRank(); ++t) n = n.as<isl::schedule_node_band>().member_set_coincident(t, true);
    n = n.insert_mark(isl::id(ctx, kGridMark)).child(0).child(0);
  }
  isl::union_set_list filters(ctx, int(domains.size()));
  for (auto& d : domains) filters = filters.add(isl::union_set(d));
  n = n.insert_sequence(filters);
  for (size_t m = 0; m < k.statements.size(); ++m) {
    const Statement& st = prog.statements[k.statements[m]];
    std::vector<Member> par, red;
    for (int d = 0; d < int(st.dims.size()); ++d)
      if (!k.fixedByBlock(m, d)) (d < st.numParallel ? par : red).push_back({d});
    isl::schedule_node c = n.child(int(m)).child(0);  // each insertion returns the node just below the filter
    if (!red.empty()) {
      c = c.insert_partial_schedule(bandSchedule({domains[m]}, {red})).insert_mark(isl::id(ctx, kReductionMark));
    }
    if (!par.empty()) {
      c = c.insert_partial_schedule(bandSchedule({domains[m]}, {par}));
      for (size_t q = 0; q < par.size(); ++q) c = c.as<isl::schedule_node_band>().member_set_coincident(int(q), true);
      c = c.insert_mark(isl::id(ctx, kThreadMark));
    }
    n = c.parent().parent();
  }
  n = n.root().child(0).insert_mark(isl::id(ctx, "kernel K" + std::to_string(k.id)));
  return n.schedule();
}

// The kernel's band below the "grid" mark; null when the kernel is one block.
isl::schedule_node blockBand(const isl::schedule& ks) {
  isl::schedule_node n = ks.root().child(0).child(0);  // below the kernel mark
  if (n.isa<isl::schedule_node_mark>() && isl::manage(isl_schedule_node_mark_get_id(n.get())).name() == kGridMark)
    return n.child(0);
  return {};
}

}  // namespace

PlanSchedule buildSchedule(const PolyProgram& pp, const SizedProgram& at, const Partition& p) {
  isl::set params = pp.paramsAt(p.sizes);
  PlanSchedule out;
  for (const KernelPlan& k : p.kernels) {
    isl::schedule ks = kernelTree(pp, at, k, params);
    out.kernels.push_back(ks);
    out.tree = out.tree.is_null() ? ks : isl::manage(isl_schedule_sequence(out.tree.copy(), ks.copy()));
  }
  return out;
}

void verifySchedule(const PolyProgram& pp, const Partition& p, const PlanSchedule& s) {
  const Program& prog = pp.program();
  isl::set params = pp.paramsAt(p.sizes);
  isl::union_map order = s.tree.map();
  isl::union_map before = isl::manage(isl_union_map_lex_lt_union_map(order.copy(), order.copy()));
  std::vector<int> kernelOf(prog.statements.size(), -1);
  for (auto& k : p.kernels)
    for (int st : k.statements) kernelOf[st] = k.id;
  auto name = [&](const Dependence& d) {
    return std::string(depKindName(d.kind)) + " dependence " + prog.statements[d.src].label() + " (line " +
           std::to_string(prog.statements[d.src].loc.line) + ") -> " + prog.statements[d.dst].label() + " (line " +
           std::to_string(prog.statements[d.dst].loc.line) + ") on '" + prog.tensors[d.tensor].name + "'";
  };
  // Relates instances that a map sends to different points.
  auto separates = [](const isl::union_map& rel, const isl::union_map& to) {
    isl::union_map mapped = rel.apply_domain(to).apply_range(to);
    return !mapped.is_subset(isl::union_set(mapped.domain().unite(mapped.range())).identity());
  };
  // A streamed sum and the producers it inlines read the maximum's running value, which
  // each block (a split's chunk) keeps for its own points: partials combine by the
  // rescale (docs/streaming.md), as a reduction's combine associatively.
  auto streamsThrough = [](const KernelPlan& kp, const Dependence& d) {
    // And in a streamed tile, a sum's value that a later sum takes out of its terms as a
    // factor (polyir/Rescale.h, invariantFactors): applied once the sum is finished (in
    // a split, by the combine), whichever chunk read it.
    if (kp.streamedTile() && d.kind == DepKind::Flow) {
      auto role = [&](int s) {
        const auto it = std::find(kp.statements.begin(), kp.statements.end(), s);
        return it == kp.statements.end() ? StreamRole::Epilogue : kp.streamTile.roles[size_t(it - kp.statements.begin())];
      };
      if (role(d.src) == StreamRole::Sum && (role(d.dst) == StreamRole::Sum || role(d.dst) == StreamRole::Inlined)) return true;
    }
    for (const StreamPair& sp : kp.streams) {
      const int max = kp.statements[size_t(sp.max)];
      if (d.src != max || d.kind != DepKind::Flow) continue;
      if (d.dst == kp.statements[size_t(sp.sum)]) return true;
      for (int m : sp.inlined)
        if (d.dst == kp.statements[size_t(m)]) return true;
    }
    return false;
  };
  // Per kernel, built once: the tree's block band, and the plan's grid (unless the
  // kernel is one block).
  std::vector<isl::union_map> blockOf(p.kernels.size()), gridOf(p.kernels.size());
  auto maps = [&](const KernelPlan& kp) {
    if (!gridOf[kp.id].is_null()) return;
    isl::schedule_node band = blockBand(s.kernels[kp.id]);
    if (!band.is_null()) blockOf[kp.id] = isl::union_map::from(band.as<isl::schedule_node_band>().partial_schedule());
    std::vector<isl::set> domains;
    std::vector<std::vector<Member>> grid;
    for (size_t m = 0; m < kp.statements.size(); ++m) {
      domains.push_back(domainAt(pp, kp.statements[m], params));
      grid.emplace_back();
      for (int t = 0; t < kp.gridRank(); ++t) grid.back().push_back({kp.gridDims[m][t]});
    }
    gridOf[kp.id] = isl::union_map::from(bandSchedule(domains, grid));
  };
  for (auto& d : pp.dependences()) {
    isl::union_map rel(d.relation.intersect_params(params).project_out_all_params());
    if (rel.is_empty()) continue;
    // The one dependence the streaming rule relaxes: no order or block to respect.
    if (kernelOf[d.src] == kernelOf[d.dst] && streamsThrough(p.kernels[kernelOf[d.src]], d)) continue;
    if (!rel.is_subset(before))
      throw InternalError("illegal schedule: the " + name(d) + " is not ordered source before sink");
    if (d.src == d.dst && d.reduction) continue;  // partial results combine associatively
    int k = kernelOf[d.src];
    if (k != kernelOf[d.dst]) continue;  // kernels run in order
    const KernelPlan& kp = p.kernels[k];
    if (kp.gridRank() == 0) continue;
    maps(kp);
    // The tree's block band: instances in different blocks run in parallel.
    if (!blockOf[k].is_null() && separates(rel, blockOf[k]))
      throw InternalError("illegal schedule: the " + name(d) + " crosses blocks of kernel K" + std::to_string(k));
    // The plan's promise, which its costs assume: a dependence stays at one grid point.
    if (separates(rel, gridOf[k]))
      throw InternalError("illegal schedule: the " + name(d) + " crosses grid points of kernel K" + std::to_string(k));
  }
}

// The launched blocks in band coordinates, one set dimension per member of the block
// band: grid coordinate t at block index e_t, whose origin pf_b<t> = lo_t + tile_t e_t,
// and the chunk c = pf_c of a split reduction.
static isl::set launchedBlocks(isl::ctx ctx, const KernelPlan& k, bool chunk) {
  const int g = k.gridRank(), n = g + (chunk ? 1 : 0);
  isl_space* sp = isl_space_set_alloc(ctx.get(), n, n);
  for (int t = 0; t < n; ++t) {
    std::string name = t < g ? blockOriginName(t) : kChunkName;
    sp = isl_space_set_dim_id(sp, isl_dim_param, t, isl_id_alloc(ctx.get(), name.c_str(), nullptr));
  }
  LocalSpace ls(isl_local_space_from_space(isl_space_copy(sp)), isl_local_space_free);
  isl::basic_set bs = isl::manage(isl_basic_set_universe(sp));
  auto add = [&](bool equality, std::initializer_list<std::pair<int, int64_t>> params,
                 std::initializer_list<std::pair<int, int64_t>> dims, int64_t constant) {
    isl_constraint* c = equality ? isl_constraint_alloc_equality(isl_local_space_copy(ls.get()))
                                 : isl_constraint_alloc_inequality(isl_local_space_copy(ls.get()));
    // Values are 64-bit (extents reach 2^40): set through isl_val, not int.
    for (auto [i, v] : params) c = isl_constraint_set_coefficient_val(c, isl_dim_param, i, isl_val_int_from_si(ctx.get(), v));
    for (auto [i, v] : dims) c = isl_constraint_set_coefficient_val(c, isl_dim_set, i, isl_val_int_from_si(ctx.get(), v));
    c = isl_constraint_set_constant_val(c, isl_val_int_from_si(ctx.get(), constant));
    bs = isl::manage(isl_basic_set_add_constraint(bs.release(), c));
  };
  for (int t = 0; t < g; ++t) {
    const int64_t blocks = (k.gridExtent[t] + k.tile[t] - 1) / k.tile[t];
    add(true, {{t, 1}}, {{t, -k.tile[t]}}, -k.gridLo[t]);  // pf_b<t> = lo + tile e_t
    add(false, {}, {{t, 1}}, 0);                            // e_t >= 0
    add(false, {}, {{t, -1}}, blocks - 1);                  // e_t < blocks
  }
  if (chunk) {
    add(true, {{g, 1}}, {{g, -1}}, 0);
    add(false, {}, {{g, 1}}, 0);
    add(false, {}, {{g, -1}}, k.splitChunks - 1);
  }
  return isl::set(bs);
}

isl::schedule blockSchedule(const PlanSchedule& s, const KernelPlan& k, int stmt, isl::set& context) {
  isl::schedule ks = s.kernels[k.id];
  isl::ctx ctx = ks.ctx();
  isl::set sdom;
  ks.domain().foreach_set([&](isl::set x) {
    if (isl_set_get_tuple_name(x.get()) == "S" + std::to_string(stmt)) sdom = x;
  });
  if (sdom.is_null()) return {};  // no instances at these sizes
  ks = isl::manage(isl_schedule_intersect_domain(ks.release(), isl_union_set_from_set(sdom.copy())));
  isl::schedule_node band = blockBand(ks);
  if (band.is_null()) {
    context = isl::set::universe(isl::manage(isl_space_params_alloc(ctx.get(), 0)));
    return ks;
  }
  isl::multi_union_pw_aff mupa = band.as<isl::schedule_node_band>().partial_schedule();
  const bool chunk = int(mupa.size()) > k.gridRank();
  isl::set blocks = launchedBlocks(ctx, k, chunk);
  // The statement's instances in the block whose parameters these are: the band's
  // coordinates, read from the verified tree, equal to the block's.
  isl::union_set filter = isl::union_map::from(mupa).intersect_range(isl::union_set(blocks)).domain();
  context = blocks.params();
  isl::schedule_node n = band.insert_filter(filter).child(0);
  return isl::manage(isl_schedule_node_delete(n.release())).schedule();
}

}  // namespace polyfuse

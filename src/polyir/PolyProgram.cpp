#include "polyir/PolyProgram.h"

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>

namespace polyfuse {

// isl objects are built through isl's API from the program's names, which become isl
// ids: no text is parsed, so a name that is one of isl's keywords (floor, exists, min,
// and, ...) is as good as any other.
namespace {

using LocalSpace = std::unique_ptr<isl_local_space, decltype(&isl_local_space_free)>;

isl_val* value(isl_ctx* ctx, int64_t v) { return isl_val_int_from_si(ctx, long(v)); }

// Adds a map in place: the union is not shared, so isl extends it rather than copying
// it (building a union of n maps by `unite` copies it n times).
isl::union_map addMap(isl::union_map&& um, const isl::map& m) {
  return isl::manage(isl_union_map_add_map(um.release(), m.copy()));
}

}  // namespace

isl::space PolyProgram::paramSpace() const {
  isl_space* sp = isl_space_params_alloc(ctx_->get().get(), unsigned(prog_.sizeParams.size()));
  for (size_t i = 0; i < prog_.sizeParams.size(); ++i)
    sp = isl_space_set_dim_id(sp, isl_dim_param, unsigned(i), isl_id_alloc(ctx_->get().get(), prog_.sizeParams[i].c_str(), nullptr));
  return isl::manage(sp);
}

isl::space PolyProgram::tupleSpace(const std::string& name, size_t n, const std::vector<std::string>& dims) const {
  isl_space* sp = isl_space_add_dims(paramSpace().release(), isl_dim_set, unsigned(n));
  sp = isl_space_set_tuple_id(sp, isl_dim_set, isl_id_alloc(ctx_->get().get(), name.c_str(), nullptr));
  for (size_t k = 0; k < dims.size(); ++k)
    sp = isl_space_set_dim_id(sp, isl_dim_set, unsigned(k), isl_id_alloc(ctx_->get().get(), dims[k].c_str(), nullptr));
  return isl::manage(sp);
}

// An affine form over the set space `sp`, whose dimensions are named `dims`; other
// names are size parameters.
isl::aff PolyProgram::affineOn(const Affine& a, const isl::space& sp, const std::vector<std::string>& dims) const {
  isl_ctx* ctx = ctx_->get().get();
  LocalSpace ls(isl_local_space_from_space(sp.copy()), isl_local_space_free);
  isl_aff* aff = isl_aff_set_constant_val(isl_aff_zero_on_domain(isl_local_space_copy(ls.get())), value(ctx, a.constant));
  for (auto& [n, c] : a.coef) {
    auto d = std::find(dims.begin(), dims.end(), n);
    if (d != dims.end()) {
      aff = isl_aff_set_coefficient_val(aff, isl_dim_in, int(d - dims.begin()), value(ctx, c));
      continue;
    }
    auto p = std::find(prog_.sizeParams.begin(), prog_.sizeParams.end(), n);
    if (p == prog_.sizeParams.end()) throw InternalError("affine form names '" + n + "', neither an index nor a size");
    aff = isl_aff_set_coefficient_val(aff, isl_dim_param, int(p - prog_.sizeParams.begin()), value(ctx, c));
  }
  if (a.div != 1) aff = isl_aff_floor(isl_aff_scale_down_ui(aff, unsigned(a.div)));
  return isl::manage(aff);
}

// The box lo_k <= x_k < hi_k over the set space `sp`.
isl::set PolyProgram::boxOn(const isl::space& sp, const std::vector<std::string>& dims, const std::vector<Affine>& lo,
                            const std::vector<Affine>& hi) const {
  isl::set box = isl::set::universe(sp);
  LocalSpace ls(isl_local_space_from_space(sp.copy()), isl_local_space_free);
  for (size_t k = 0; k < lo.size(); ++k) {
    isl_aff* x = isl_aff_var_on_domain(isl_local_space_copy(ls.get()), isl_dim_set, unsigned(k));
    box = box.intersect(isl::manage(isl_aff_le_set(affineOn(lo[k], sp, dims).release(), isl_aff_copy(x))));
    box = box.intersect(isl::manage(isl_aff_lt_set(x, affineOn(hi[k], sp, dims).release())));
  }
  return box;
}

isl::set PolyProgram::guardSet(const std::vector<Guard>& guards, const isl::space& sp,
                               const std::vector<std::string>& dims) const {
  isl::set where = isl::set::universe(sp);
  for (auto& g : guards) {
    isl_aff* x = affineOn(g.expr, sp, dims).release();
    isl_aff* zero = isl_aff_zero_on_domain(isl_local_space_from_space(sp.copy()));
    isl_set* held = nullptr;
    switch (g.cmp) {
      case ExprKind::Lt: held = isl_aff_lt_set(x, zero); break;
      case ExprKind::Le: held = isl_aff_le_set(x, zero); break;
      case ExprKind::Gt: held = isl_aff_gt_set(x, zero); break;
      case ExprKind::Ge: held = isl_aff_ge_set(x, zero); break;
      case ExprKind::Eq: held = isl_aff_eq_set(x, zero); break;
      case ExprKind::Ne: held = isl_aff_ne_set(x, zero); break;
      default: isl_aff_free(x); isl_aff_free(zero); throw InternalError("a guard that is not a comparison");
    }
    where = where.intersect(isl::manage(held));
  }
  return where;
}

PolyProgram::PolyProgram(const Program& prog, IslContextPtr ctx) : prog_(prog), ctx_(std::move(ctx)) {
  isl_set* c = isl_set_universe(paramSpace().release());
  for (size_t i = 0; i < prog_.sizeParams.size(); ++i) c = isl_set_lower_bound_si(c, isl_dim_param, unsigned(i), 1);
  context_ = isl::manage(c);
  // What the front end knows of the sizes (a slice of a dynamic size stays inside its
  // source): given sizes are checked against it (Program::checkSizes).
  for (auto& b : prog_.sizeBounds) {
    const isl::space sp = paramSpace();
    context_ = context_.intersect(isl::manage(isl_aff_le_set(affineOn(b.used, sp, {}).release(), affineOn(b.limit, sp, {}).release())));
  }
  buildStatements();
  checkBounds();
  computeDependences();
}

isl::set PolyProgram::paramsAt(const Sizes& sizes) const {
  isl_set* c = isl_set_universe(paramSpace().release());
  for (size_t i = 0; i < prog_.sizeParams.size(); ++i)
    c = isl_set_fix_val(c, isl_dim_param, unsigned(i), value(ctx_->get().get(), sizes.at(prog_.sizeParams[i])));
  return isl::manage(c);
}

void PolyProgram::buildStatements() {
  isl_ctx* ctx = ctx_->get().get();
  size_t maxDims = 0;
  for (auto& st : prog_.statements) maxDims = std::max(maxDims, st.dims.size());
  isl::union_map sched = isl::union_map::empty(ctx_->get());
  for (auto& st : prog_.statements) {
    PolyStatement ps;
    const isl::space sp = tupleSpace("S" + std::to_string(st.id), st.dims.size(), st.dims);
    std::vector<Affine> lo, hi;
    for (auto& r : st.ranges) {
      lo.push_back(r.lo);
      hi.push_back(r.hi);
    }
    ps.domain = boxOn(sp, st.dims, lo, hi).intersect_params(context_);
    // S[dims] -> target[exprs], each expression affine over the statement's space.
    auto mapTo = [&](isl_space* target, const std::vector<isl::aff>& exprs) {
      isl_aff_list* list = isl_aff_list_alloc(ctx, int(exprs.size()));
      for (auto& e : exprs) list = isl_aff_list_add(list, e.copy());
      isl_space* ms = isl_space_map_from_domain_and_range(sp.copy(), target);
      return isl::manage(isl_map_from_multi_aff(isl_multi_aff_from_aff_list(ms, list))).intersect_domain(ps.domain);
    };
    auto accessMap = [&](const Access& a) {
      const Tensor& T = prog_.tensors[a.tensor];
      std::vector<isl::aff> subs;
      for (auto& e : a.subscripts) subs.push_back(affineOn(e, sp, st.dims));
      isl::map m = mapTo(tupleSpace(T.name, subs.size(), {}).release(), subs);
      if (a.guarded()) m = m.intersect_domain(guardSet(a.guards, sp, st.dims));
      if (!a.gathers()) return m;
      const isl::set made = m.domain();
      // A data-dependent subscript may take any value in its dimension: the read is a
      // may-read of the whole extent there, which keeps every dependence it could have.
      isl_map* raw = m.release();
      for (size_t p = 0; p < a.indirect.size(); ++p)
        if (a.indirect[p] >= 0) raw = isl_map_drop_constraints_involving_dims(raw, isl_dim_out, unsigned(p), 1);
      const isl::space ts = tupleSpace(T.name, T.shape.size(), {});
      return isl::manage(raw).intersect_range(boxOn(ts, {}, std::vector<Affine>(T.shape.size()), T.shape)).intersect_domain(made);
    };
    ps.write = accessMap(st.write);
    for (auto& r : st.reads) ps.reads.push_back(accessMap(r));
    if (st.readsLhs()) {
      isl::set readDomain = ps.domain;
      if (st.init && st.numReduction() > 0) {
        // The first step of a `!` reduction reads the identity, not memory.
        isl::set first = isl::set::universe(sp);
        LocalSpace ls(isl_local_space_from_space(sp.copy()), isl_local_space_free);
        for (size_t k = st.numParallel; k < st.dims.size(); ++k)
          first = first.intersect(isl::manage(isl_aff_eq_set(
              isl_aff_var_on_domain(isl_local_space_copy(ls.get()), isl_dim_set, unsigned(k)),
              affineOn(st.ranges[k].lo, sp, st.dims).release())));
        readDomain = readDomain.subtract(first);
      } else if (st.init) {
        readDomain = isl::set::empty(ps.domain.space());
      }
      ps.accumulationRead = ps.write.intersect_domain(readDomain);
    } else {
      ps.accumulationRead = isl::map::empty(ps.write.space());
    }
    // Program order: [statement id, its dims, zeros to the deepest statement's depth].
    std::vector<isl::aff> order{affineOn(Affine::constantOf(st.id), sp, st.dims)};
    for (size_t k = 0; k < maxDims; ++k)
      order.push_back(k < st.dims.size() ? affineOn(Affine::var(st.dims[k]), sp, st.dims) : affineOn(Affine{}, sp, st.dims));
    isl_space* time = isl_space_add_dims(paramSpace().release(), isl_dim_set, unsigned(maxDims + 1));
    ps.schedule = mapTo(time, order);
    sched = addMap(std::move(sched), ps.schedule);
    stmts_.push_back(std::move(ps));
  }
  schedule_ = sched;
  // [t] -> [-t] on schedule coordinates.
  isl_space* ts = isl_space_set_alloc(ctx, 0, unsigned(maxDims + 1));
  isl_multi_aff* neg = isl_multi_aff_identity(isl_space_map_from_set(ts));
  neg = isl_multi_aff_scale_val(neg, isl_val_negone(ctx));
  reversedTime_ = isl::union_map(isl::manage(isl_map_from_multi_aff(neg)));
}

static std::string shapeText(const Tensor& T) {
  std::string s = "(";
  for (size_t i = 0; i < T.shape.size(); ++i) s += (i ? ", " : "") + T.shape[i].str();
  return s + ")";
}

void PolyProgram::checkBounds() {
  for (auto& st : prog_.statements) {
    const PolyStatement& ps = stmts_[st.id];
    auto check = [&](const Access& a, const isl::map& rel) {
      const Tensor& T = prog_.tensors[a.tensor];
      const isl::space sp = tupleSpace(T.name, T.shape.size(), {});
      isl::set shape = boxOn(sp, {}, std::vector<Affine>(T.shape.size()), T.shape);
      isl::set image = rel.range().intersect_params(context_);
      if (!image.is_subset(shape.intersect_params(context_))) {
        std::string subs;
        for (size_t i = 0; i < a.subscripts.size(); ++i) subs += (i ? ", " : "") + a.subscripts[i].str();
        // Name where the ranges of the indices in this access came from: an inferred
        // range is the usual surprise (Y(i) = X(i + 1) makes i start at -1).
        std::string why;
        for (size_t k = 0; k < st.dims.size(); ++k) {
          bool used = std::any_of(a.subscripts.begin(), a.subscripts.end(),
                                  [&](const Affine& s) { return s.coefficient(st.dims[k]) != 0; });
          if (!used) continue;
          const Range& r = st.ranges[k];
          why += "; index '" + st.dims[k] + "' ranges over " + r.lo.str() + ":" + r.hi.str() + (r.origin.empty() ? "" : " (from " + r.origin + ")");
        }
        throw SourceError(a.loc, "access " + T.name + "(" + subs + ") is out of bounds: '" + T.name +
                                     "' has shape " + shapeText(T) + why + "; check the where clauses");
      }
    };
    check(st.write, ps.write);
    for (size_t r = 0; r < st.reads.size(); ++r) check(st.reads[r], ps.reads[r]);
  }
}

static std::vector<isl::map> mapsOf(const isl::union_map& um) {
  std::vector<isl::map> out;
  isl::map_list list = um.map_list();
  for (int i = 0; i < int(list.size()); ++i) out.push_back(list.at(i));
  // isl's iteration order is by hash; sort for stable output.
  std::sort(out.begin(), out.end(), [](const isl::map& a, const isl::map& b) {
    auto key = [](const isl::map& m) {
      return std::make_pair(std::stoi(m.domain_tuple_id().name().substr(1)), std::stoi(m.range_tuple_id().name().substr(1)));
    };
    return key(a) < key(b);
  });
  return out;
}

static int stmtIdOf(const isl::id& id) { return std::stoi(id.name().substr(1)); }

void PolyProgram::computeDependences() {
  // The statements that touch each tensor, so that each analysis looks at them alone.
  std::vector<std::vector<int>> touchers(prog_.tensors.size());
  for (auto& st : prog_.statements) {
    touchers[st.write.tensor].push_back(st.id);
    for (auto& r : st.reads)
      if (touchers[r.tensor].empty() || touchers[r.tensor].back() != st.id) touchers[r.tensor].push_back(st.id);
  }
  for (size_t t = 0; t < prog_.tensors.size(); ++t) {
    isl::union_map writes = isl::union_map::empty(ctx_->get());
    isl::union_map reads = isl::union_map::empty(ctx_->get());
    isl::union_map allReads = isl::union_map::empty(ctx_->get());
    isl::union_map sched = isl::union_map::empty(ctx_->get());
    int writers = 0;
    bool inPlace = false;  // some writer also reads the tensor
    for (int id : touchers[t]) {
      const Statement& st = prog_.statements[id];
      const PolyStatement& ps = stmts_[id];
      bool writes_t = st.write.tensor == int(t), reads_t = false;
      if (writes_t) {
        writes = addMap(std::move(writes), ps.write);
        reads = addMap(std::move(reads), ps.accumulationRead);
        allReads = addMap(std::move(allReads), ps.write.intersect_domain(ps.accumulationRead.domain()));
        ++writers;
        inPlace |= st.readsLhs();
      }
      for (size_t r = 0; r < st.reads.size(); ++r)
        if (st.reads[r].tensor == int(t)) {
          reads = addMap(std::move(reads), ps.reads[r]);
          allReads = addMap(std::move(allReads), ps.reads[r]);
          reads_t = true;
        }
      inPlace |= writes_t && reads_t;
      sched = addMap(std::move(sched), ps.schedule);
    }
    if (!writers) continue;  // inputs are never written: no dependences through them
    // Only the statements that touch the tensor take part: the analysis stays local.
    isl::union_access_info info(reads);
    info = info.set_must_source(writes).set_schedule_map(sched);
    isl::union_map flow = info.compute_flow().must_dependence();
    auto add = [&](DepKind kind, const isl::union_map& rel) {
      for (auto& m : mapsOf(rel)) {
        if (m.is_empty()) continue;
        Dependence d;
        d.kind = kind;
        d.src = stmtIdOf(m.domain_tuple_id());
        d.dst = stmtIdOf(m.range_tuple_id());
        d.tensor = int(t);
        d.relation = m;
        if (d.src == d.dst) {
          const Statement& st = prog_.statements[d.src];
          // Every parallel dimension kept: the dependence runs along reductions only.
          isl_map* eq = isl_map_universe(m.space().release());
          for (int k = 0; k < st.numParallel; ++k) eq = isl_map_equate(eq, isl_dim_in, k, isl_dim_out, k);
          isl::map same = isl::manage(eq);
          d.reduction = st.numReduction() > 0 && m.is_subset(same);
        }
        deps_.push_back(d);
      }
    };
    add(DepKind::Flow, flow);
    // Memory-based dependences exist only for tensors updated in place or written by
    // several statements: a read before a later write of the same element (anti) and
    // two writes of one element (output). With one writer that never reads the
    // tensor, every read comes after the write (Sema rejects reads before writes).
    //
    // Only the direct ones are kept (the transitive reduction): a write depends on the
    // last earlier write of its element, a read on the first later write. Every other
    // memory-based dependence is a composition of these and of flow dependences, so
    // kernel order and grid legality are unchanged; all pairs made 300 in-place
    // updates of one tensor cost 45,000 relations (83 s, 1.4 GB in `check`).
    if (writers > 1 || inPlace) {
      isl::union_access_info out(writes);
      out = out.set_must_source(writes).set_schedule_map(sched);
      add(DepKind::Output, out.compute_flow().must_dependence());
      // The first write after a read is the last source before the sink in reversed time.
      isl::union_access_info anti(allReads);
      anti = anti.set_must_source(writes).set_schedule_map(sched.apply_range(reversedTime_));
      add(DepKind::Anti, anti.compute_flow().must_dependence().reverse());
    }
  }
  std::stable_sort(deps_.begin(), deps_.end(), [](const Dependence& a, const Dependence& b) {
    return std::make_tuple(a.src, a.dst, int(a.kind), a.tensor) < std::make_tuple(b.src, b.dst, int(b.kind), b.tensor);
  });
  // A recurrence along a parallel dimension cannot run on parallel hardware. This is a
  // property of the program, so `check` rejects it as `fuse` and `codegen` do.
  for (const Dependence& d : deps_) {
    if (d.src != d.dst || d.reduction) continue;
    const Statement& st = prog_.statements[d.src];
    for (int a = 0; a < st.numParallel; ++a) {
      isl::map same = isl::manage(isl_map_equate(isl_map_universe(d.relation.space().release()), isl_dim_in, a, isl_dim_out, a));
      if (!d.relation.is_subset(same))
        throw SourceError(st.loc, "statement " + st.label() + " carries a " + depKindName(d.kind) +
                                      " dependence along its parallel dimension '" + st.dims[a] +
                                      "' (a recurrence); polyfuse runs every parallel dimension in parallel");
    }
  }
}

}  // namespace polyfuse

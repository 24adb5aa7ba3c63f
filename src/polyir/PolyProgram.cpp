#include "polyir/PolyProgram.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace polyfuse {

std::string islName(const std::string& name) {
  // isl's parser keywords. Renaming appends '_', and a name that already ends in '_'
  // or starts with 'pf_' (polyfuse's own parameters) is renamed too, which keeps the
  // mapping injective: a kept name never ends in '_'.
  static const std::set<std::string> reserved = {"and", "or", "not", "exists", "min", "max", "mod",
                                                 "floor", "ceil", "ceild", "floord", "true", "false",
                                                 "implies", "infty", "infinity", "NaN", "rat", "domain", "range"};
  bool rename = reserved.count(name) || name.rfind("pf_", 0) == 0 || (!name.empty() && name.back() == '_');
  return rename ? name + "_" : name;
}

static std::string islAffine(const Affine& a) {
  Affine r;
  r.constant = a.constant;
  for (auto& [n, c] : a.coef) r.coef[islName(n)] = c;
  return r.str();
}

std::string PolyProgram::paramPrefix() const {
  std::string s = "[";
  for (size_t i = 0; i < prog_.sizeParams.size(); ++i) s += (i ? ", " : "") + islName(prog_.sizeParams[i]);
  return s + "] -> ";
}

PolyProgram::PolyProgram(const Program& prog, IslContextPtr ctx) : prog_(prog), ctx_(std::move(ctx)) {
  std::string cons;
  for (auto& p : prog_.sizeParams) cons += (cons.empty() ? "" : " and ") + islName(p) + " >= 1";
  context_ = isl::set(ctx_->get(), paramPrefix() + "{ : " + (cons.empty() ? "true" : cons) + " }");
  buildStatements();
  checkBounds();
  computeDependences();
}

isl::set PolyProgram::paramsAt(const Sizes& sizes) const {
  std::string cons;
  for (auto& p : prog_.sizeParams)
    cons += (cons.empty() ? "" : " and ") + islName(p) + " = " + std::to_string(sizes.at(p));
  return isl::set(ctx_->get(), paramPrefix() + "{ : " + (cons.empty() ? "true" : cons) + " }");
}

static std::string tuple(const std::string& name, const std::vector<std::string>& dims) {
  std::string s = islName(name) + "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + islName(dims[i]);
  return s + "]";
}

static std::string accessTuple(const std::string& tensor, const std::vector<Affine>& subs) {
  std::string s = islName(tensor) + "[";
  for (size_t i = 0; i < subs.size(); ++i) s += (i ? ", " : "") + islAffine(subs[i]);
  return s + "]";
}

void PolyProgram::buildStatements() {
  size_t maxDims = 0;
  for (auto& st : prog_.statements) maxDims = std::max(maxDims, st.dims.size());
  isl::union_map sched = isl::union_map::empty(ctx_->get());
  for (auto& st : prog_.statements) {
    PolyStatement ps;
    std::string t = tuple(st.label(), st.dims), cons;
    for (size_t k = 0; k < st.dims.size(); ++k) {
      cons += (k ? " and " : "") + islAffine(st.ranges[k].lo) + " <= " + islName(st.dims[k]) + " < " +
              islAffine(st.ranges[k].hi);
    }
    ps.domain = isl::set(ctx_->get(), paramPrefix() + "{ " + t + (cons.empty() ? "" : " : " + cons) + " }")
                    .intersect_params(context_);
    auto accessMap = [&](const Access& a) {
      return isl::map(ctx_->get(), paramPrefix() + "{ " + t + " -> " +
                                       accessTuple(prog_.tensors[a.tensor].name, a.subscripts) + " }")
          .intersect_domain(ps.domain);
    };
    ps.write = accessMap(st.write);
    for (auto& r : st.reads) ps.reads.push_back(accessMap(r));
    if (st.readsLhs()) {
      isl::set readDomain = ps.domain;
      if (st.init && st.numReduction() > 0) {
        // The first step of a `!` reduction reads the identity, not memory.
        std::string first;
        for (size_t k = st.numParallel; k < st.dims.size(); ++k)
          first += (first.empty() ? "" : " and ") + islName(st.dims[k]) + " = " + islAffine(st.ranges[k].lo);
        readDomain = readDomain.subtract(isl::set(ctx_->get(), paramPrefix() + "{ " + t + " : " + first + " }"));
      } else if (st.init) {
        readDomain = isl::set::empty(ps.domain.space());
      }
      ps.accumulationRead = ps.write.intersect_domain(readDomain);
    } else {
      ps.accumulationRead = isl::map::empty(ps.write.space());
    }
    std::string out = "[" + std::to_string(st.id);
    for (size_t k = 0; k < maxDims; ++k) out += ", " + (k < st.dims.size() ? islName(st.dims[k]) : std::string("0"));
    out += "]";
    sched = sched.unite(isl::union_map(isl::map(ctx_->get(), paramPrefix() + "{ " + t + " -> " + out + " }")
                                           .intersect_domain(ps.domain)));
    stmts_.push_back(std::move(ps));
  }
  schedule_ = sched;
  std::string in, neg;
  for (size_t k = 0; k <= maxDims; ++k) {
    in += (k ? ", " : "") + std::string("t") + std::to_string(k);
    neg += (k ? ", " : "") + std::string("-t") + std::to_string(k);
  }
  reversedTime_ = isl::union_map(isl::map(ctx_->get(), "{ [" + in + "] -> [" + neg + "] }"));
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
      std::string cons;
      std::vector<std::string> names;
      for (size_t i = 0; i < T.shape.size(); ++i) {
        names.push_back("a" + std::to_string(i));
        cons += (i ? " and " : "") + std::string("0 <= a") + std::to_string(i) + " < " + islAffine(T.shape[i]);
      }
      isl::set shape(ctx_->get(), paramPrefix() + "{ " + tuple(T.name, names) + (cons.empty() ? "" : " : " + cons) + " }");
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
  for (size_t t = 0; t < prog_.tensors.size(); ++t) {
    isl::union_map writes = isl::union_map::empty(ctx_->get());
    isl::union_map reads = isl::union_map::empty(ctx_->get());
    isl::union_map allReads = isl::union_map::empty(ctx_->get());
    isl::union_set touching = isl::union_set::empty(ctx_->get());
    int writers = 0;
    bool inPlace = false;  // some writer also reads the tensor
    for (auto& st : prog_.statements) {
      const PolyStatement& ps = stmts_[st.id];
      bool writes_t = st.write.tensor == int(t), reads_t = false;
      if (writes_t) {
        writes = writes.unite(isl::union_map(ps.write));
        reads = reads.unite(isl::union_map(ps.accumulationRead));
        allReads = allReads.unite(isl::union_map(ps.write.intersect_domain(ps.accumulationRead.domain())));
        ++writers;
        inPlace |= st.readsLhs();
      }
      for (size_t r = 0; r < st.reads.size(); ++r)
        if (st.reads[r].tensor == int(t)) {
          reads = reads.unite(isl::union_map(ps.reads[r]));
          allReads = allReads.unite(isl::union_map(ps.reads[r]));
          reads_t = true;
        }
      inPlace |= writes_t && reads_t;
      if (writes_t || reads_t) touching = touching.unite(isl::union_set(ps.domain));
    }
    if (!writers) continue;  // inputs are never written: no dependences through them
    // Only the statements that touch the tensor take part: the analysis stays local.
    isl::union_map sched = schedule_.intersect_domain(touching);
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
          std::string eq;
          for (int k = 0; k < st.numParallel; ++k) eq += (k ? " and " : "") + islName(st.dims[k]) + "' = " + islName(st.dims[k]);
          std::vector<std::string> primed;
          for (auto& n : st.dims) primed.push_back(islName(n) + "'");
          isl::map same(ctx_->get(), paramPrefix() + "{ " + tuple(st.label(), st.dims) + " -> " + st.label() + "[" +
                                         [&] { std::string s; for (size_t i = 0; i < primed.size(); ++i) s += (i ? ", " : "") + primed[i]; return s; }() +
                                         "]" + (eq.empty() ? "" : " : " + eq) + " }");
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

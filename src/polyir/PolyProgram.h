// The isl form of a Program: iteration domains, access relations, the original
// (sequential) schedule and the dependences that any fused schedule must respect.
#pragma once
#include <string>
#include <vector>

#include "polyir/IslContext.h"
#include "polyir/Program.h"

namespace polyfuse {

enum class DepKind { Flow, Anti, Output };
inline const char* depKindName(DepKind k) {
  return k == DepKind::Flow ? "flow" : k == DepKind::Anti ? "anti" : "output";
}

struct Dependence {
  DepKind kind;
  int src = 0, dst = 0;  // statement ids
  int tensor = -1;
  // A self-dependence that only runs along reduction dimensions: it orders the
  // partial results of one reduction and does not forbid a parallel reduction.
  bool reduction = false;
  isl::map relation;  // src domain -> dst domain
};

struct PolyStatement {
  isl::set domain;
  isl::map write;
  std::vector<isl::map> reads;     // one per Statement::reads entry
  isl::map accumulationRead;       // the lhs read of an update, restricted as it is read; may be empty
  isl::map schedule;               // its instances in program order (originalSchedule's piece)
};

class PolyProgram {
 public:
  // Builds the isl form and checks every access against its tensor's shape;
  // throws SourceError on an out-of-bounds access.
  PolyProgram(const Program& prog, IslContextPtr ctx);

  const Program& program() const { return prog_; }
  isl::ctx ctx() const { return ctx_->get(); }
  const IslContextPtr& context() const { return ctx_; }
  isl::set paramContext() const { return context_; }
  const std::vector<PolyStatement>& statements() const { return stmts_; }
  const std::vector<Dependence>& dependences() const { return deps_; }
  isl::union_map originalSchedule() const { return schedule_; }
  // The parameter space bound to concrete sizes.
  isl::set paramsAt(const Sizes& sizes) const;

 private:
  const Program& prog_;
  IslContextPtr ctx_;  // declared first: destroyed after every isl object below
  isl::set context_;
  std::vector<PolyStatement> stmts_;
  std::vector<Dependence> deps_;
  isl::union_map schedule_;
  isl::union_map reversedTime_;  // [t] -> [-t] on schedule coordinates

  isl::space paramSpace() const;
  isl::space tupleSpace(const std::string& name, size_t n, const std::vector<std::string>& dims) const;
  isl::aff affineOn(const Affine& a, const isl::space& sp, const std::vector<std::string>& dims) const;
  // Where a read's guards all hold, over statement space sp.
  isl::set guardSet(const std::vector<Guard>& guards, const isl::space& sp, const std::vector<std::string>& dims) const;
  isl::set boxOn(const isl::space& sp, const std::vector<std::string>& dims, const std::vector<Affine>& lo,
                 const std::vector<Affine>& hi) const;
  void buildStatements();
  void checkBounds();
  void computeDependences();
};

}  // namespace polyfuse

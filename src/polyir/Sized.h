// A program at concrete sizes: each statement's iteration box and its accesses as
// integer matrices. The cost model prices these; the code generator bounds its
// loops and arrays with them. Both read the same numbers.
#pragma once
#include <cstdint>
#include <vector>

#include "polyir/Program.h"

namespace polyfuse {

// One access at concrete sizes: subscript p = constant[p] + sum_k coef[p][k] * dim_k.
// A gather's data-dependent subscripts have zero rows; `indirect` names the statement's
// read that supplies each (Access::indirect) and `extent` the dimension it may span.
struct SizedAccess {
  int tensor = -1;
  std::vector<std::vector<int64_t>> coef;
  std::vector<int64_t> constant;
  std::vector<int> indirect;    // empty unless a gather
  std::vector<int64_t> extent;  // per subscript, with `indirect` or `guarded`
  // Made only where its guards hold (Access::guards): it is never vector-loaded, staged or
  // copied ahead of its select, and its footprint stays inside the tensor.
  bool guarded = false;
};

struct SizedStatement {
  std::vector<int64_t> lo, hi;  // per dim, half-open
  int64_t points = 0;
  int64_t flopsPerPoint = 0;      // each operation and call one
  double mathCallsPerPoint = 0;  // of those, calls a math library evaluates (exp, log, tanh, ..), a
                                 // call varying along some dims alone counted once a point of those
  SizedAccess write;
  std::vector<SizedAccess> reads;
};

// Inclusive integer box; empty when any lo > hi.
struct Box {
  std::vector<int64_t> lo, hi;
  bool empty = true;
  void hull(const Box& o);
  int64_t volume() const;
};

// The box of elements access `a` of statement `ss` touches over its points in [lo, hi).
// A gather's data-dependent dimension spans as many rows as its index read has
// elements there (or the whole dimension): the rows it can touch, not every row.
Box footprint(const SizedStatement& ss, const SizedAccess& a, const std::vector<int64_t>& lo,
              const std::vector<int64_t>& hi);

// Access `a` of statement `st` at these sizes (the statement need not be the program's
// own: a form of it rewritten for codegen, polyir/Rescale.h).
SizedAccess sizeAccess(const Program& prog, const Access& a, const Statement& st, const Sizes& sizes);

class SizedProgram {
 public:
  // Throws UsageError when a size is missing or out of range.
  SizedProgram(const Program& prog, const Sizes& sizes);

  const Program& program() const { return *prog_; }
  const Sizes& sizes() const { return sizes_; }
  const SizedStatement& statement(int s) const { return stmts_[s]; }
  int64_t tensorElements(int t) const { return elems_[t]; }
  int64_t tensorBytes(int t) const { return elems_[t] * elemBytes(prog_->tensors[t].type); }
  // Bytes every execution must move: each output written once, each input read once
  // (an input read only through gathers, at most the rows they can touch).
  int64_t lowerBoundBytes() const;
  // Whether 32-bit index arithmetic could wrap: a tensor offset, or a linear index
  // over a statement's points, of 2^31 or more.
  bool needsWideIndices() const;

 private:
  const Program* prog_;
  Sizes sizes_;
  std::vector<SizedStatement> stmts_;
  std::vector<int64_t> elems_;
};

}  // namespace polyfuse

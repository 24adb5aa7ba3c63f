// The small kernel IR between isl's AST and the CUDA / OpenCL printers. It is
// specialized to concrete sizes: every bound is a constant or an expression of the
// block's grid origin (pf_b0, pf_b1, ...), a typed tree (IndexExpr) that the printers
// spell and tests evaluate.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fusion/KernelPlan.h"
#include "polyir/Program.h"

namespace polyfuse {

// An operator of isl's AST expressions, as the kernel IR keeps them.
enum class IndexOp {
  Int, Name,                          // leaves: a constant, a block origin (pf_b0 ..) or loop iterator
  Neg, Add, Sub, Mul, Div, FloorDiv,  // Div truncates (isl uses it only where that is exact or floor)
  Rem, Min, Max,                      // Min, Max: two arguments or more
  And, Or, Eq, Le, Lt, Ge, Gt,        // conditions: 1 or 0
  Select,                             // args[0] ? args[1] : args[2]
};

// An integer expression of isl's AST over block origins, loop iterators and constants.
// Every dialect spells it the same (indexC): pf_min, pf_max and pf_floord are each
// source's own helpers.
struct IndexExpr {
  IndexOp op = IndexOp::Int;
  int64_t value = 0;  // Int
  std::string name;   // Name
  std::vector<IndexExpr> args;

  static IndexExpr constant(int64_t v) { return {IndexOp::Int, v, {}, {}}; }
  static IndexExpr named(std::string n) { return {IndexOp::Name, 0, std::move(n), {}}; }
  static IndexExpr apply(IndexOp op, std::vector<IndexExpr> args) { return {op, 0, {}, std::move(args)}; }
  bool isName(const std::string& n) const { return op == IndexOp::Name && name == n; }
  bool operator==(const IndexExpr& o) const { return op == o.op && value == o.value && name == o.name && args == o.args; }
  bool operator!=(const IndexExpr& o) const { return !(*this == o); }
};

// The C spelling (the same in CUDA, OpenCL and C), parenthesized as isl's printer does.
std::string indexC(const IndexExpr& e);
// Its value where each name has the value `names` gives (C's truncating / and %; none
// where a name has no value or a divisor is 0).
std::optional<int64_t> evaluate(const IndexExpr& e, const std::map<std::string, int64_t>& names);

struct LoopIR {
  std::string var;  // the statement's dimension name, in C
  IndexExpr lo, hi;  // hi exclusive
  bool reduction = false;
  bool operator==(const LoopIR& o) const { return var == o.var && lo == o.lo && hi == o.hi && reduction == o.reduction; }
};

// One loop nest that isl's AST generator produced for a statement in a block.
struct PieceIR {
  std::vector<IndexExpr> guards;     // conditions on the block origin, all of which must hold
  std::vector<LoopIR> loops;         // outer to inner: parallel dims, then reduction dims
  std::vector<IndexExpr> dimValue;   // per statement dimension: its loop's iterator, or its value
  std::string guardC() const;        // the guards as one C condition; empty: always
};

struct StmtIR {
  int stmt = 0;
  StmtMode mode = StmtMode::Pointwise;  // the plan's
  int vectorWidth = 1;                  // the plan's: elements a thread takes a step
  int threadDim = -1;                   // the plan's: the dimension consecutive threads run along
  size_t member = 0;                    // its index in the plan's statements
  std::vector<PieceIR> pieces;
  bool barrierAfter = false;
};

struct KernelIR {
  int id = 0;
  std::string name;
  KernelPlan plan;  // a copy: the IR outlives the Partition it came from
  std::vector<int64_t> numBlocks;  // per grid coordinate
  std::vector<int> params;         // global tensors, in tensor order
  std::vector<bool> paramWritten;
  std::vector<StmtIR> stmts;
  int barriers = 0;            // between statements
  // Executed by one block in CUDA: those between statements and one per block reduction.
  // A warp-per-row kernel has none: its statements meet at warp barriers (warpBarriers,
  // per warp) and its reductions are shuffles.
  int64_t barriersPerBlock = 0;
  int64_t warpBarriers = 0;
};

}  // namespace polyfuse

// The small kernel IR between isl's AST and the CUDA / OpenCL printers. It is
// specialized to concrete sizes: every bound is a constant or an expression of the
// block's grid origin (b0, b1, ...).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fusion/KernelPlan.h"
#include "polyir/Program.h"

namespace polyfuse {

struct LoopIR {
  std::string var;     // the statement's dimension name
  std::string lo, hi;  // C expressions, hi exclusive
  bool reduction = false;
};

// One loop nest that isl's AST generator produced for a statement in a block.
struct PieceIR {
  std::string guard;                  // condition on the block origin; empty: always
  std::vector<LoopIR> loops;          // outer to inner: parallel dims, then reduction dims
  std::vector<std::string> dimValue;  // per statement dimension: a C expression
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

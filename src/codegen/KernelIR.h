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

enum class StmtMode {
  Pointwise,     // threads over parallel points, no reduction
  SerialReduce,  // threads over parallel points, each reduces serially
  BlockReduce    // threads split the reduction of each parallel point; block combine
};

struct StmtIR {
  int stmt = 0;
  StmtMode mode = StmtMode::Pointwise;
  std::vector<PieceIR> pieces;
  bool barrierAfter = false;
};

struct LocalArray {  // an on-chip temporary: shared (CUDA) or local (OpenCL) memory
  int tensor = -1;
  std::vector<int64_t> extent;
  std::vector<std::string> base;  // tensor coordinate of element 0, per dimension
  int64_t elements() const {
    int64_t n = 1;
    for (auto e : extent) n *= e;
    return n;
  }
  // Bytes it takes in dynamic shared memory: 16-byte aligned, so arrays pack in order.
  int64_t alignedBytes(int elemBytes) const { return (elements() * elemBytes + 15) / 16 * 16; }
};

struct KernelIR {
  int id = 0;
  std::string name;
  KernelPlan plan;  // a copy: the IR outlives the Partition it came from
  std::vector<int64_t> numBlocks;  // per grid coordinate
  std::vector<int> params;         // global tensors, in tensor order
  std::vector<bool> paramWritten;
  std::vector<LocalArray> locals;
  std::vector<StmtIR> stmts;
  bool usesBlockReduce = false;
  int barriers = 0;

  int64_t sharedBytes(int elemBytes) const {
    int64_t n = 0;
    for (auto& la : locals) n += la.alignedBytes(elemBytes);
    return n;
  }
};

}  // namespace polyfuse

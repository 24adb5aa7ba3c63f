// One kernel of a partition: which statements, how they map onto the grid, how the
// grid is tiled into blocks, where temporaries live, and what the cost model says.
// The cost model writes it and the code generator reads it: what is costed is what
// is generated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace polyfuse {

struct KernelPlan {
  int id = 0;
  std::vector<int> statements;             // program order
  // gridDims[k][t]: the parallel dimension of statements[k] on grid coordinate t.
  std::vector<std::vector<int>> gridDims;
  std::vector<int64_t> gridLo, gridExtent;  // grid coordinate t spans [lo, lo + extent)
  std::vector<int64_t> tile;                // block shape on the grid
  // threadDims[k]: the dimension of statements[k] that consecutive threads run along
  // (-1: one point per block). Coalescing in the cost model assumes this mapping.
  std::vector<int> threadDims;
  int64_t blocks = 1;
  int threadsPerBlock = 32;
  // A split reduction (one statement alone): its last dimension, a reduction, is cut
  // into splitChunks chunks of splitChunk points; each block reduces one chunk into a
  // partial result, and a second launch combines the partials in order.
  int64_t splitChunks = 1, splitChunk = 0;
  std::vector<int> onChip;                  // temporaries kept in shared memory
  std::vector<int> scratch;                 // temporaries spilled to global scratch
  std::vector<int> globalReads, globalWrites;

  int64_t dramBytes = 0, l2Bytes = 0, flops = 0, onchipBytesPerBlock = 0;
  int64_t uncoalescedBytes = 0;  // extra sector traffic of uncoalesced accesses (time only)
  double occupancy = 0, memoryUs = 0, computeUs = 0, launchUs = 0, modeledUs = 0;

  int gridRank() const { return int(gridExtent.size()); }
};

struct SolverInfo {
  std::string name = "none";
  std::string status = "n/a";  // optimal | time_limit | heuristic
  double seconds = 0;
  std::string note;
};

// One of the K best partitions (`fuse --top K`): its kernels' statements and cost.
struct Alternative {
  std::vector<std::vector<int>> kernels;  // statement ids per kernel, in launch order
  double modeledUs = 0;
};

struct Partition {
  std::string strategy;
  std::vector<KernelPlan> kernels;  // in launch order
  SolverInfo solver;
  double modeledUs = 0;
  int64_t dramBytes = 0, l2Bytes = 0, flops = 0;
  std::vector<Alternative> alternatives;  // with --top K: the K best, sorted; the first is this one
};

}  // namespace polyfuse

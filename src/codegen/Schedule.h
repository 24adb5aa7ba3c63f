// The plan's schedule: one isl schedule tree per kernel, marked as PPCG marks its
// kernels, verified against every dependence before any code is printed; the AST
// generator prints the same trees.
#pragma once
#include <vector>

#include "fusion/KernelPlan.h"
#include "polyir/PolyProgram.h"
#include "polyir/Sized.h"

namespace polyfuse {

// Kernel K's tree, over the statements' domains at the plan's sizes:
//
//   mark "kernel K<id>"
//     mark "grid"                 block coordinates, one per grid coordinate: floor((d - lo) / tile)
//       band (coincident)         (and the chunk of a split reduction)
//         sequence                the kernel's statements in program order
//           filter S
//             mark "thread"       in-block parallel dimensions
//               band
//                 mark "reduction" reduction dimensions
//                   band
//
// Empty bands and their marks are left out. `tree` is the kernels' trees in sequence.
struct PlanSchedule {
  isl::schedule tree;
  std::vector<isl::schedule> kernels;
};

// `at`: the program at the plan's sizes.
PlanSchedule buildSchedule(const PolyProgram& pp, const SizedProgram& at, const Partition& p);

// Throws InternalError naming the first dependence the schedule violates: a source
// not scheduled before its sink, a dependence inside a kernel between two blocks
// (blocks run in parallel), or one between grid points the plan keeps apart.
void verifySchedule(const PolyProgram& pp, const Partition& p, const PlanSchedule& s);

// What one block of kernel k runs of statement `stmt`: the kernel's tree restricted to
// the statement, with the block band replaced by the block's parameters, as PPCG does:
// pf_b<t> is the block's origin on grid coordinate t and pf_c the chunk of a split
// reduction. `context` receives the parameters' values over all blocks. A null
// schedule when the statement has no instances at the plan's sizes.
isl::schedule blockSchedule(const PlanSchedule& s, const KernelPlan& k, int stmt, isl::set& context);

// The parameter names of blockSchedule.
std::string blockOriginName(int t);
constexpr const char* kChunkName = "pf_c";

// The marks of the tree, which the AST walker reads back.
constexpr const char* kGridMark = "grid";
constexpr const char* kThreadMark = "thread";
constexpr const char* kReductionMark = "reduction";

}  // namespace polyfuse

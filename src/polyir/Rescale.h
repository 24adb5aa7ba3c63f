// Sums that may run against a running maximum: the algebra behind streamed reductions
// (docs/streaming.md). A sum s(P) +=! B over reduction dims R, and a maximum
// m(P) max=! E over the same points, with B = exp(E - m(P)) * B0 where B0 does not read m:
// since exp(E - m) = exp(E - m') * exp(m' - m), the sum can run beside the maximum, against
// its running value m', and rescale its partial by exp(m' - m'') each time the running
// value grows to m''. Partial pairs of any two parts combine the same way. Max is a
// monoid (a running value exists and its last value is m whatever the order), + is a
// monoid over which the rescale distributes, and E - m' <= 0 keeps every term at most 1,
// as the two-pass form does. The rule reads the operators, never a layer's shape.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polyir/Program.h"

namespace polyfuse {

// The tensor m that sum `s` may stream against, or -1: s is `+=!` over reduction dims,
// and every read of m in its body is m(P) at s's own parallel point, inside a factor
// exp(E - m(P)) where E is the body of the statement that alone writes m, a `max=!` (or
// `fmax=!`) over the same points (dims matched by the subscripts, ranges equal); the
// body is that factor times terms free of m (products, quotients, sums and selects of
// such terms, literal zeros anywhere).
int rescalingTensor(const Program& prog, const Statement& s);

// How a sum streams, when it can: its maximum, the elementwise producers (softmax's
// e(i, j) = exp(X(i, j) - mx(i))) whose bodies, inlined into the sum, make it read the
// maximum itself, and that inlined sum, for which the rule holds (rescalingTensor). The
// program is not changed: a kernel that holds the maximum, the producers and the sum
// may run the inlined sum in the maximum's loop (KernelPlan::streams). A producer is
// inlined when it alone writes its tensor, pointwise over all of it, with no gather,
// nothing between it and the sum overwrites what it reads, and its value comes from a
// maximum (through further producers).
struct StreamChain {
  int max = -1;                // the maximum's statement id; -1: the sum does not stream
  int tensor = -1;             // m, the maximum's result
  std::vector<int> producers;  // statement ids inlined into the sum, in the order inlined
  Statement inlined;           // the sum with them inlined (the same value), reading m
  std::vector<int> sumDimOf;   // per dim of the maximum, the sum's dim over the same points
  // The sum's parallel dims the maximum has not (attention's d in o(i, d) +=! p(i, j) *
  // V(j, d)): each point of them keeps a partial of its own, rescaled with the rest. Only
  // a streamed tile (KernelPlan::streamTile) runs such a sum in the maximum's loop.
  std::vector<int> extraDims;
  bool streams() const { return max >= 0; }
  // Whether the sum runs over exactly the maximum's points (a row kernel's streamed pair).
  bool streamsAlongside() const { return streams() && extraDims.empty(); }
};
StreamChain streamChain(const Program& prog, const Statement& s);

// The reads of `tensors` in s's body that are factors of the whole of it: reached from its
// root through products and quotients only, so that a sum over s's reduction may take
// them out, sum_j f(P) t(P, j) = f(P) sum_j t(P, j) (a softmax's division by its sum,
// before the weighted sum of values: FlashAttention's normalization at the end). Each
// as (read index, whether it divides). None when a read of those tensors sits anywhere
// else (under a sum, a call, a select), or names a reduction dimension.
std::optional<std::vector<std::pair<int, bool>>> invariantFactors(const Statement& s, const std::vector<int>& tensors);

// Whether e, in s's body, is exp(E - m): a term's factor against the maximum m, the
// tensor `max` (a streamed tile computes it once a point and its sums read it).
bool isShiftedExp(const Statement& s, const Expr& e, int max);

// The statement that writes `tensor` alone (-1 when none or several do).
int soleWriter(const Program& prog, int tensor);

}  // namespace polyfuse

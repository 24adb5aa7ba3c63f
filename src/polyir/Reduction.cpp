#include "polyir/Reduction.h"

#include <cmath>
#include <limits>

#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Assign first, then the reductions; indexed by nothing but searched by op.
const ReduceKind kTable[] = {
    {ReduceOp::Assign, "assign", "=", 0.0, "0", nullptr, nullptr},
    {ReduceOp::Add, "add", "+=", 0.0, "0", "+", nullptr},
    {ReduceOp::Mul, "mul", "*=", 1.0, "1", "*", nullptr},
    {ReduceOp::Max, "max", "max=", -kInf, "-INFINITY", nullptr, "pf_maximum"},
    {ReduceOp::Min, "min", "min=", kInf, "INFINITY", nullptr, "pf_minimum"},
    {ReduceOp::FMax, "fmax", "fmax=", -kInf, "-INFINITY", nullptr, "fmax"},
    {ReduceOp::FMin, "fmin", "fmin=", kInf, "INFINITY", nullptr, "fmin"},
};

}  // namespace

double ieeeMaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double ieeeMinimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return a + b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

const ReduceKind& reduceKind(ReduceOp op) {
  for (auto& k : kTable)
    if (k.op == op) return k;
  throw InternalError("unknown statement operator");
}

const ReduceKind* reductionsBegin() { return kTable + 1; }
const ReduceKind* reductionsEnd() { return kTable + sizeof kTable / sizeof kTable[0]; }

double combineValues(ReduceOp op, double acc, double v) {
  switch (op) {
    case ReduceOp::Assign: return v;
    case ReduceOp::Add: return acc + v;
    case ReduceOp::Mul: return acc * v;
    case ReduceOp::Max: return ieeeMaximum(acc, v);
    case ReduceOp::Min: return ieeeMinimum(acc, v);
    case ReduceOp::FMax: return std::fmax(acc, v);
    case ReduceOp::FMin: return std::fmin(acc, v);
  }
  throw InternalError("unknown statement operator");
}

}  // namespace polyfuse

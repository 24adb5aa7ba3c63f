#include "codegen/KernelIR.h"

#include <algorithm>

#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

// The infix operators' C spelling; the others are spelled in indexC.
const char* infix(IndexOp op) {
  switch (op) {
    case IndexOp::Add: return " + ";
    case IndexOp::Sub: return " - ";
    case IndexOp::Mul: return " * ";
    case IndexOp::Div: return " / ";
    case IndexOp::Rem: return " % ";
    case IndexOp::And: return " && ";
    case IndexOp::Or: return " || ";
    case IndexOp::Eq: return " == ";
    case IndexOp::Le: return " <= ";
    case IndexOp::Lt: return " < ";
    case IndexOp::Ge: return " >= ";
    case IndexOp::Gt: return " > ";
    default: return nullptr;
  }
}

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::string indexC(const IndexExpr& e) {
  auto arg = [&](size_t i) { return indexC(e.args.at(i)); };
  switch (e.op) {
    case IndexOp::Int: return e.value < 0 ? "(" + std::to_string(e.value) + ")" : std::to_string(e.value);
    case IndexOp::Name: return e.name;
    case IndexOp::Neg: return "(-" + arg(0) + ")";
    case IndexOp::FloorDiv: return "pf_floord(" + arg(0) + ", " + arg(1) + ")";
    case IndexOp::Min: case IndexOp::Max: {
      std::string r = arg(0);
      for (size_t i = 1; i < e.args.size(); ++i) r = std::string(e.op == IndexOp::Min ? "pf_min(" : "pf_max(") + r + ", " + arg(i) + ")";
      return r;
    }
    case IndexOp::Select: return "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
    default: break;
  }
  if (const char* op = infix(e.op)) return "(" + arg(0) + op + arg(1) + ")";
  throw InternalError("an index expression without a spelling");
}

std::optional<int64_t> evaluate(const IndexExpr& e, const std::map<std::string, int64_t>& names) {
  if (e.op == IndexOp::Int) return e.value;
  if (e.op == IndexOp::Name) {
    auto it = names.find(e.name);
    return it == names.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  std::vector<int64_t> a;
  for (auto& x : e.args) {
    std::optional<int64_t> v = evaluate(x, names);
    if (!v) return std::nullopt;
    a.push_back(*v);
  }
  switch (e.op) {
    case IndexOp::Neg: return -a[0];
    case IndexOp::Add: return a[0] + a[1];
    case IndexOp::Sub: return a[0] - a[1];
    case IndexOp::Mul: return a[0] * a[1];
    case IndexOp::Div: return a[1] == 0 ? std::nullopt : std::optional<int64_t>(a[0] / a[1]);
    case IndexOp::FloorDiv: return a[1] == 0 ? std::nullopt : std::optional<int64_t>(floorDiv(a[0], a[1]));
    case IndexOp::Rem: return a[1] == 0 ? std::nullopt : std::optional<int64_t>(a[0] % a[1]);
    case IndexOp::Min: case IndexOp::Max: {
      int64_t r = a[0];
      for (int64_t x : a) r = e.op == IndexOp::Min ? std::min(r, x) : std::max(r, x);
      return r;
    }
    case IndexOp::And: return int64_t(a[0] && a[1]);
    case IndexOp::Or: return int64_t(a[0] || a[1]);
    case IndexOp::Eq: return int64_t(a[0] == a[1]);
    case IndexOp::Le: return int64_t(a[0] <= a[1]);
    case IndexOp::Lt: return int64_t(a[0] < a[1]);
    case IndexOp::Ge: return int64_t(a[0] >= a[1]);
    case IndexOp::Gt: return int64_t(a[0] > a[1]);
    case IndexOp::Select: return a[0] ? a[1] : a[2];
    default: return std::nullopt;
  }
}

std::string PieceIR::guardC() const {
  std::string out;
  for (auto& g : guards) out += (out.empty() ? "" : " && ") + indexC(g);
  return out;
}

}  // namespace polyfuse

#include "polyir/Printer.h"

#include <iomanip>
#include <set>
#include <sstream>

namespace polyfuse {

static int precedence(ExprKind k) {
  switch (k) {
    case ExprKind::Add: case ExprKind::Sub: return 1;
    case ExprKind::Mul: case ExprKind::Div: return 2;
    case ExprKind::Neg: return 3;
    case ExprKind::Lt: case ExprKind::Le: case ExprKind::Gt: case ExprKind::Ge: case ExprKind::Eq: case ExprKind::Ne:
    case ExprKind::Select: return 0;
    default: return 4;
  }
}

static std::string accessText(const Program& prog, const Statement& st, const Access& a) {
  std::string s = prog.tensors[a.tensor].name;
  if (a.subscripts.empty()) return s;
  s += "(";
  for (size_t i = 0; i < a.subscripts.size(); ++i)
    s += (i ? ", " : "") + (a.indirectAt(i) >= 0 ? accessText(prog, st, st.reads[size_t(a.indirect[i])]) : a.subscripts[i].str());
  return s + ")";
}

std::string exprText(const Program& prog, const Statement& st, const Expr& e) {
  auto sub = [&](const Expr& c, int minPrec) {
    std::string t = exprText(prog, st, c);
    return precedence(c.kind) < minPrec ? "(" + t + ")" : t;
  };
  switch (e.kind) {
    case ExprKind::Number: return e.name.empty() ? std::to_string(e.number) : e.name;
    case ExprKind::Size: case ExprKind::Scalar: case ExprKind::Index: case ExprKind::Name: return e.name;
    case ExprKind::Access: return accessText(prog, st, st.reads[e.ref]);
    case ExprKind::Neg: return "-" + sub(*e.args[0], 3);
    case ExprKind::Lt: return sub(*e.args[0], 1) + " < " + sub(*e.args[1], 1);
    case ExprKind::Le: return sub(*e.args[0], 1) + " <= " + sub(*e.args[1], 1);
    case ExprKind::Gt: return sub(*e.args[0], 1) + " > " + sub(*e.args[1], 1);
    case ExprKind::Ge: return sub(*e.args[0], 1) + " >= " + sub(*e.args[1], 1);
    case ExprKind::Eq: return sub(*e.args[0], 1) + " == " + sub(*e.args[1], 1);
    case ExprKind::Ne: return sub(*e.args[0], 1) + " != " + sub(*e.args[1], 1);
    case ExprKind::Select:  // a nested conditional is parenthesized, to read unambiguously
      return exprText(prog, st, *e.args[0]) + " ? " + sub(*e.args[1], 1) + " : " + sub(*e.args[2], 1);
    case ExprKind::Add: return sub(*e.args[0], 1) + " + " + sub(*e.args[1], 1);
    case ExprKind::Sub: return sub(*e.args[0], 1) + " - " + sub(*e.args[1], 2);
    case ExprKind::Mul: return sub(*e.args[0], 2) + " * " + sub(*e.args[1], 2);
    case ExprKind::Div: return sub(*e.args[0], 2) + " / " + sub(*e.args[1], 3);
    case ExprKind::Call: {
      std::string s = std::string(intrinsicName(e.fn)) + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + exprText(prog, st, *e.args[i]);
      return s + ")";
    }
  }
  return "?";
}

std::string programText(const Program& prog) {
  // TC has no syntax for a bound on a size: a comment says it (checked when sizes are given).
  std::string s;
  for (auto& b : prog.sizeBounds)
    s += "# requires " + b.used.str() + " <= " + b.limit.str() + ": " + b.what + " at line " + std::to_string(b.loc.line) + "\n";
  s += "def " + prog.name + "(";
  bool first = true;
  auto param = [&](const std::string& text) {
    s += (first ? "" : ", ") + text;
    first = false;
  };
  // A size no input's shape has is declared by name.
  std::set<std::string> shaped;
  for (auto& t : prog.tensors)
    if (t.role == TensorRole::Input)
      for (auto& d : t.shape)
        for (auto& [n, k] : d.coef) shaped.insert(n);
  for (auto& n : prog.sizeParams)
    if (!shaped.count(n)) param("size " + n);
  for (auto& t : prog.tensors)
    if (t.role == TensorRole::Input) param(shapeText(t) + " " + t.name);
  for (auto& sc : prog.scalars) param(std::string(elemTypeName(sc.type)) + " " + sc.name);
  s += ") -> (";
  first = true;
  // A declared output dimension is a size or an integer; an output whose inferred shape
  // is anything else (H - KH + 1, a strided (H - KH + 2) / 2) is left to be inferred again.
  auto declarable = [](const Tensor& t) {
    for (auto& d : t.shape)
      if (!(d.isConstant() || (d.div == 1 && d.constant == 0 && d.coef.size() == 1 && d.coef.begin()->second == 1)))
        return false;
    return true;
  };
  for (auto& t : prog.tensors)
    if (t.role == TensorRole::Output) param(declarable(t) ? shapeText(t) + " " + t.name : t.name);
  s += ") {\n";
  for (auto& st : prog.statements) {
    s += "  " + statementText(prog, st);
    std::string where;
    for (size_t k = 0; k < st.dims.size(); ++k)
      if (st.ranges[k].origin == kWhereOrigin)
        where += (where.empty() ? " where " : ", ") + st.dims[k] + " in " + st.ranges[k].lo.str() + ":" +
                 st.ranges[k].hi.str();
    s += where + "\n";
  }
  return s + "}\n";
}

std::string statementText(const Program& prog, const Statement& st) {
  return accessText(prog, st, st.write) + " " + reduceOpText(st.op, st.init) + " " + exprText(prog, st, *st.rhs);
}

std::string shapeText(const Tensor& t) {
  std::string s = std::string(elemTypeName(t.type)) + "(";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + t.shape[i].str();
  return s + ")";
}

void printCheck(std::ostream& os, const PolyProgram& pp, const Sizes* sizes) {
  const Program& prog = pp.program();
  os << "program " << prog.name << "\n";
  os << "sizes:";
  for (auto& p : prog.sizeParams) os << " " << p;
  if (prog.sizeParams.empty()) os << " (none)";
  os << "\n";
  if (!prog.scalars.empty()) {
    os << "scalars:";
    for (auto& s : prog.scalars) os << " " << elemTypeName(s.type) << " " << s.name;
    os << "\n";
  }
  os << "tensors:\n";
  for (auto& t : prog.tensors) {
    os << "  " << std::left << std::setw(10) << t.name << " " << std::setw(10) << roleName(t.role) << " "
       << shapeText(t);
    if (sizes) os << "  " << t.bytes(*sizes) << " bytes";
    os << "\n";
  }
  isl::set at = sizes ? pp.paramsAt(*sizes) : isl::set();
  os << "statements:\n";
  for (auto& st : prog.statements) {
    const PolyStatement& ps = pp.statements()[st.id];
    os << "  " << st.label() << " (line " << st.loc.line << "): " << statementText(prog, st) << "\n";
    os << "    ranges:    ";
    for (size_t k = 0; k < st.dims.size(); ++k)
      os << (k ? ", " : "") << st.dims[k] << " in " << st.ranges[k].lo.str() << ":" << st.ranges[k].hi.str();
    if (st.dims.empty()) os << "(none)";
    os << "\n";
    os << "    domain:    " << islStr(ps.domain.gist_params(pp.paramContext())) << "\n";
    if (sizes) os << "    at sizes:  " << islStr(ps.domain.intersect_params(at).project_out_all_params()) << "\n";
    os << "    write:     " << islStr(ps.write.gist_params(pp.paramContext())) << "\n";
    for (size_t r = 0; r < ps.reads.size(); ++r) {
      os << "    read:      " << islStr(ps.reads[r].gist_params(pp.paramContext())) << "\n";
      if (st.reads[r].gathers())
        os << "               (a may-read: a data-dependent subscript may name any element of its dimension)\n";
    }
    os << "    reduction: ";
    if (st.numReduction() == 0) os << "(none)";
    for (size_t k = st.numParallel; k < st.dims.size(); ++k) os << (k > size_t(st.numParallel) ? ", " : "") << st.dims[k];
    os << "\n";
  }
  os << "dependences:\n";
  if (pp.dependences().empty()) os << "  (none)\n";
  for (auto& d : pp.dependences()) {
    os << "  " << std::left << std::setw(6) << depKindName(d.kind) << " S" << d.src << " -> S" << d.dst << " on "
       << prog.tensors[d.tensor].name << (d.reduction ? " (reduction)" : "") << ": " << islStr(d.relation.gist_params(pp.paramContext())) << "\n";
  }
}

}  // namespace polyfuse

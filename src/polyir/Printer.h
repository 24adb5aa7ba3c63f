// Human-readable renderings of the IR: statements in TC syntax and the `check` report.
#pragma once
#include <ostream>
#include <string>

#include "polyir/PolyProgram.h"

namespace polyfuse {

// The statement as TC source, e.g. "mx(i) max=! X(i, j)".
std::string statementText(const Program& prog, const Statement& st);
std::string exprText(const Program& prog, const Statement& st, const Expr& e);
std::string shapeText(const Tensor& t);  // "float(N, M)"
// The whole program as a TC definition that reads back as the same program: where
// clauses for the ranges a where clause set, inferred ranges left to inference.
std::string programText(const Program& prog);

// The `polyfuse check` report. With sizes, domains are shown at those sizes too.
void printCheck(std::ostream& os, const PolyProgram& pp, const Sizes* sizes);

}  // namespace polyfuse

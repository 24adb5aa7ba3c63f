// Recursive-descent parser for TC definitions. Nesting is bounded so that hostile
// input gets an error instead of exhausting the stack.
#pragma once
#include <string>
#include <vector>

#include "polyir/Ast.h"

namespace polyfuse {

constexpr int kMaxExprDepth = 256;
// The height of an expression tree: 1,024 levels of operations, parenthesized or not.
constexpr int kMaxExprHeight = 1024;

std::vector<DefDecl> parseFile(const std::string& source);

}  // namespace polyfuse

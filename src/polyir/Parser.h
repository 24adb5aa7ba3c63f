// Recursive-descent parser for TC definitions. Nesting is bounded so that hostile
// input gets an error instead of exhausting the stack.
#pragma once
#include <string>
#include <vector>

#include "polyir/Ast.h"

namespace polyfuse {

constexpr int kMaxExprDepth = 256;

std::vector<DefDecl> parseFile(const std::string& source);

}  // namespace polyfuse

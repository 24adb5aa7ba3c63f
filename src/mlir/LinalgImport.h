// The linalg front end: a function on tensors (linalg, tensor, arith and math ops) as
// the TC syntax tree of the same program. The tree then goes through the TC front end's
// own checks (Sema), so both front ends produce the same Program for the same
// computation. This header includes nothing of MLIR's: only LinalgImport.cpp pays for it.
#pragma once
#include <string>
#include <vector>

#include "polyir/Ast.h"
#include "polyir/Frontend.h"

namespace polyfuse {

struct LinalgImport {
  DefDecl def;
  std::vector<std::string> notes;  // what the importer did that a user should know
};

// Parses and verifies `src` (upgraded older spellings included), generalizes named ops,
// and turns the function `entry` (default: the first with a body) into a definition.
// Located problems throw SourceError (line and column in `src.text`).
LinalgImport importLinalg(const SourceFile& src, const std::string& entry);

}  // namespace polyfuse

// Older MLIR as it is found in public repositories and issue threads (2022-2024), and
// newer (MLIR 20, 21: linalg.matmul with indexing_maps, linalg.contract), read by MLIR 19:
// the known spellings are rewritten in the text before parsing, each in its own lines,
// so that line numbers in messages stay those of the user's file.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the upgraded text; appends one note naming each kind of upgrade applied.
std::string upgradeMlir(const std::string& text, std::vector<std::string>& notes);

}  // namespace polyfuse

// TOSA 1.0, as MLIR 20 and later print it (IREE's tosa_ops tests, current TFLite and
// torch exports), read by MLIR 19's TOSA dialect: shapes given as !tosa.shape values
// and shifts, zero points, pad values and permutations given as operands become the
// attributes and constant operands MLIR 19's ops take. Text to text, before parsing;
// each op stays on its line, so messages keep the user's lines.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the rewritten text (the same text where it has no TOSA 1.0 spelling); appends
// one note saying what was rewritten.
std::string readTosa10(const std::string& text, std::vector<std::string>& notes);

}  // namespace polyfuse

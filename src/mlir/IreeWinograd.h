// IREE's Winograd transforms for F(6x6, 3x3), read as the linalg they mean: each tile
// multiplied on both sides by the algorithm's constant matrix (B^T d B for the input,
// G g G^T for the filter, A^T m A for the output), two contractions with the matrix as
// a constant tensor. The input is padded with zeros up to its last tile; the output's
// tiles are read back through `h floordiv 6` and `h mod 6`. Text to text before parsing.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the rewritten text; one note for each kind of op read.
std::string readIreeWinograd(const std::string& text, std::vector<std::string>& notes);

}  // namespace polyfuse

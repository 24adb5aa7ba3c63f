// Reading pieces of MLIR's text without parsing it, for the rewrites made before MLIR 19
// parses a file (Upgrade.cpp, TosaSpelling.cpp, IreeBoundary.cpp's kind).
#pragma once
#include <string>
#include <vector>

namespace polyfuse::mlir_text {

std::string trimmed(const std::string& s);
// Splits at the commas outside <..>, (..), [..] and {..} (an arrow `->` opens nothing).
std::vector<std::string> commaList(const std::string& s);
std::string joined(const std::vector<std::string>& v, const std::string& sep = ", ");
// The element type of `tensor<4x8xf32>` or `tensor<f32>`; empty when it is not one.
std::string elementOf(const std::string& type);
bool isFloatType(const std::string& element);

}  // namespace polyfuse::mlir_text

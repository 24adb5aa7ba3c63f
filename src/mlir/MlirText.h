// Reading pieces of MLIR's text without parsing it, for the rewrites made before MLIR 19
// parses a file (Upgrade.cpp, TosaSpelling.cpp, IreeBoundary.cpp's kind).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
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
// The extents of `tensor<4x16xf32>` (none for `tensor<f32>`); none where one is dynamic or
// the type is no tensor.
std::optional<std::vector<int64_t>> staticShape(const std::string& type);
// The bits of a scalar type MLIR 19 computes with (f16, bf16, f32, f64, iN); none for another.
std::optional<int> typeBits(const std::string& element);
// The index of the bracket that closes the one at `open` ([, (, { or <; the > of an
// arrow closes nothing); npos when it is not closed.
size_t closingBracket(const std::string& text, size_t open);
// At `pos` (whitespace skipped), `keyword(..)`: what the parentheses hold, `pos` moved past
// them; none (and `pos` as it was) otherwise.
std::optional<std::string> parenthesized(const std::string& text, size_t& pos, const std::string& keyword);
// At `pos` (whitespace skipped), `-> T1, T2, ..`: `count` types (each `name<..>`), `pos`
// moved past them; none (and `pos` as it was) otherwise.
std::optional<std::vector<std::string>> resultTypes(const std::string& text, size_t& pos, size_t count);
// `%a, %b : ta, tb` (what an op's ins or outs hold): the values and their types, as many
// of each; none otherwise.
struct Operands {
  std::vector<std::string> values, types;
};
std::optional<Operands> operands(const std::string& list);
// `replacement` standing for text[at, end) on one line, then as many line breaks as that
// span held: the lines after it keep their numbers in messages.
std::string keepingLines(const std::string& text, size_t at, size_t end, std::string replacement);
// A file's affine map aliases, `#name = affine_map<..>` at the start of a line.
std::map<std::string, std::string> affineMapAliases(const std::string& text);
// The number a literal spells (`0`, `-1.5`, `0x7F800000` left out); none for anything else.
std::optional<double> literal(const std::string& text);

}  // namespace polyfuse::mlir_text

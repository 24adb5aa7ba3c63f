#include "mlir/MlirText.h"

#include <cstdlib>

namespace polyfuse::mlir_text {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> commaList(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '<' || ch == '(' || ch == '[' || ch == '{') ++depth;
    if ((ch == '>' && (i == 0 || s[i - 1] != '-')) || ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ',' && depth == 0) {
      parts.push_back(trimmed(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!trimmed(cur).empty()) parts.push_back(trimmed(cur));
  return parts;
}

std::string joined(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string elementOf(const std::string& type) {
  const size_t open = type.find('<'), close = type.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  const std::string inner = type.substr(open + 1, close - open - 1);
  const size_t x = inner.rfind('x');
  return trimmed(x == std::string::npos ? inner : inner.substr(x + 1));
}

bool isFloatType(const std::string& t) { return !t.empty() && (t[0] == 'f' || t.rfind("bf", 0) == 0); }

std::optional<int> typeBits(const std::string& t) {
  if (t == "f16" || t == "bf16") return 16;
  if (t == "f32") return 32;
  if (t == "f64") return 64;
  if (t.size() < 2 || t.size() > 3 || t[0] != 'i' || t.find_first_not_of("0123456789", 1) != std::string::npos) return std::nullopt;
  const int bits = std::atoi(t.c_str() + 1);
  return bits >= 1 && bits <= 64 ? std::optional<int>(bits) : std::nullopt;
}

std::optional<double> literal(const std::string& text) {
  const std::string t = trimmed(text);
  if (t.empty() || t.size() > 64) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || t.find_first_of("xXnN") != std::string::npos) return std::nullopt;
  return v;
}

}  // namespace polyfuse::mlir_text

#include "mlir/MlirText.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <regex>

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

size_t closingBracket(const std::string& text, size_t open) {
  const char o = text[open], c = o == '[' ? ']' : o == '(' ? ')' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == o) ++depth;
    if (text[i] == c && !(c == '>' && i > 0 && text[i - 1] == '-') && --depth == 0) return i;
  }
  return std::string::npos;
}

std::optional<std::string> parenthesized(const std::string& text, size_t& pos, const std::string& keyword) {
  const size_t at = text.find_first_not_of(" \t\r\n", pos);
  if (at == std::string::npos || text.compare(at, keyword.size(), keyword) != 0) return std::nullopt;
  const size_t open = text.find_first_not_of(" \t\r\n", at + keyword.size());  // `ins (` too
  if (open == std::string::npos || text[open] != '(') return std::nullopt;
  const size_t close = closingBracket(text, open);
  if (close == std::string::npos) return std::nullopt;
  pos = close + 1;
  return text.substr(open + 1, close - open - 1);
}

std::optional<std::vector<std::string>> resultTypes(const std::string& text, size_t& pos, size_t count) {
  size_t at = text.find_first_not_of(" \t\r\n", pos);
  if (at == std::string::npos || text.compare(at, 2, "->") != 0) return std::nullopt;
  at += 2;
  std::vector<std::string> types;
  for (size_t n = 0; n < count; ++n) {
    size_t t = text.find_first_not_of(" \t\r\n", at);
    if (n > 0) {
      if (t == std::string::npos || text[t] != ',') return std::nullopt;
      t = text.find_first_not_of(" \t\r\n", t + 1);
    }
    const size_t open = t == std::string::npos ? t : text.find('<', t);
    const size_t close = open == std::string::npos ? open : closingBracket(text, open);
    if (close == std::string::npos) return std::nullopt;
    types.push_back(text.substr(t, close + 1 - t));
    at = close + 1;
  }
  pos = at;
  return types;
}

std::optional<Operands> operands(const std::string& list) {
  const size_t colon = list.find(':');
  if (colon == std::string::npos) return std::nullopt;
  Operands o{commaList(list.substr(0, colon)), commaList(list.substr(colon + 1))};
  if (o.values.size() != o.types.size()) return std::nullopt;
  return o;
}

std::string keepingLines(const std::string& text, size_t at, size_t end, std::string replacement) {
  std::replace(replacement.begin(), replacement.end(), '\n', ' ');
  return replacement + std::string(size_t(std::count(text.begin() + long(at), text.begin() + long(end), '\n')), '\n');
}

std::map<std::string, std::string> affineMapAliases(const std::string& text) {
  std::map<std::string, std::string> aliases;
  if (text.find('#') == std::string::npos) return aliases;
  static const std::regex alias(R"((?:^|\n)\s*(#[\w.$-]+)\s*=\s*(affine_map<[^\n]*>))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), alias); it != std::sregex_iterator(); ++it)
    aliases[(*it)[1].str()] = (*it)[2].str();
  return aliases;
}

std::optional<std::vector<int64_t>> staticShape(const std::string& type) {
  const size_t open = type.find('<'), close = type.rfind('>');
  if (type.rfind("tensor<", 0) != 0 || close == std::string::npos) return std::nullopt;
  std::vector<int64_t> out;
  std::string inner = type.substr(open + 1, close - open - 1);
  for (size_t x; (x = inner.find('x')) != std::string::npos && x > 0 && std::isdigit(static_cast<unsigned char>(inner[0]));) {
    const std::string e = inner.substr(0, x);
    if (e.size() > 15 || e.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    out.push_back(std::stoll(e));
    inner = inner.substr(x + 1);
  }
  if (inner.empty() || inner[0] == '?' || std::isdigit(static_cast<unsigned char>(inner[0]))) return std::nullopt;
  return out;
}

}  // namespace polyfuse::mlir_text

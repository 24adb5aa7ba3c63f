#include "mlir/Upgrade.h"

#include <regex>

namespace polyfuse {

namespace {

struct Rename {
  const char* pattern;
  const char* replacement;
  const char* note;
};

// Renames that keep the operands as they are.
const Rename kRenames[] = {
    {R"(\bbuiltin\.func\b)", "func.func", "builtin.func is now func.func"},
    {R"((^|[\s{])func(\s+(?:private\s+)?@))", "$1func.func$2", "func is now func.func"},
    {R"(\barith\.maxf\b)", "arith.maximumf", "arith.maxf is now arith.maximumf"},
    {R"(\barith\.minf\b)", "arith.minimumf", "arith.minf is now arith.minimumf"},
};

// `linalg.init_tensor [%d, 4] : tensor<?x4xf32>` is `tensor.empty(%d) : tensor<?x4xf32>`:
// the static sizes live in the type alone.
std::string upgradeInitTensor(const std::string& text, bool& applied) {
  static const std::regex initTensor(R"(linalg\.init_tensor\s*\[([^\]]*)\])");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), initTensor);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += text.substr(last, size_t(m.position(0)) - last);
    std::string dynamic, item, list = m[1].str() + ",";
    for (char c : list) {
      if (c != ',') {
        item += c;
        continue;
      }
      size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
      std::string v = b == std::string::npos ? "" : item.substr(b, e - b + 1);
      if (!v.empty() && v[0] == '%') dynamic += (dynamic.empty() ? "" : ", ") + v;
      item.clear();
    }
    out += "tensor.empty(" + dynamic + ")";
    last = size_t(m.position(0) + m.length(0));
    applied = true;
  }
  return out + text.substr(last);
}

}  // namespace

std::string upgradeMlir(const std::string& text, std::vector<std::string>& notes) {
  std::vector<std::string> applied;
  bool init = false;
  std::string s = upgradeInitTensor(text, init);
  if (init) applied.push_back("linalg.init_tensor is now tensor.empty");
  for (const Rename& r : kRenames) {
    std::regex re(r.pattern);
    if (!std::regex_search(s, re)) continue;
    s = std::regex_replace(s, re, r.replacement);
    applied.push_back(r.note);
  }
  if (!applied.empty()) {
    std::string n = "upgraded older MLIR spellings: ";
    for (size_t i = 0; i < applied.size(); ++i) n += (i ? "; " : "") + applied[i];
    notes.push_back(n);
  }
  return s;
}

}  // namespace polyfuse

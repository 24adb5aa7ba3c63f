// Affine forms over named variables (index variables and size parameters), the
// currency of subscripts, ranges and shapes before they become isl objects.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace polyfuse {

using Sizes = std::map<std::string, int64_t>;

struct Affine {
  std::map<std::string, int64_t> coef;  // no zero entries
  int64_t constant = 0;

  static Affine constantOf(int64_t c) { Affine a; a.constant = c; return a; }
  static Affine var(const std::string& name) { Affine a; a.coef[name] = 1; return a; }

  bool isConstant() const { return coef.empty(); }
  int64_t coefficient(const std::string& name) const {
    auto it = coef.find(name);
    return it == coef.end() ? 0 : it->second;
  }
  bool dependsOnAny(const std::vector<std::string>& names) const;
  Affine operator+(const Affine& o) const;
  Affine operator-(const Affine& o) const;
  Affine scaled(int64_t k) const;
  bool operator==(const Affine& o) const { return coef == o.coef && constant == o.constant; }
  bool operator!=(const Affine& o) const { return !(*this == o); }
  // Value at concrete sizes; every variable must be bound.
  int64_t eval(const Sizes& values) const;
  // isl / TC surface syntax, e.g. "N - 1", "2*i + j".
  std::string str() const;
};

}  // namespace polyfuse

// Affine forms over named variables (index variables and size parameters), the
// currency of subscripts, ranges and shapes before they become isl objects.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace polyfuse {

using Sizes = std::map<std::string, int64_t>;

// With `div` > 1 the value is floor((sum of coef * name + constant) / div): the extents
// of strided accesses (a range that keeps 2*h + kh inside H ends at (H - KH) / 2 + 1).
// Subscripts always have div 1; ranges and shapes may not. Arithmetic that would leave
// this form (the sum of two quotients, a quotient scaled by other than -1 or 1) throws
// NotAffine, which the front end reports at the expression that needed it.
struct NotAffine : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Affine {
  std::map<std::string, int64_t> coef;  // no zero entries
  int64_t constant = 0;
  int64_t div = 1;                      // >= 1; 1 unless some coefficient or the constant is not a multiple

  static Affine constantOf(int64_t c) { Affine a; a.constant = c; return a; }
  static Affine var(const std::string& name) { Affine a; a.coef[name] = 1; return a; }

  bool isConstant() const { return coef.empty(); }  // a constant quotient is folded: div is 1
  // floor(*this / d) for d >= 1; the form stays one quotient.
  Affine floorDiv(int64_t d) const;
  int64_t coefficient(const std::string& name) const {
    auto it = coef.find(name);
    return it == coef.end() ? 0 : it->second;
  }
  bool dependsOnAny(const std::vector<std::string>& names) const;
  Affine operator+(const Affine& o) const;
  Affine operator-(const Affine& o) const;
  Affine scaled(int64_t k) const;
  bool operator==(const Affine& o) const { return coef == o.coef && constant == o.constant && div == o.div; }
  bool operator!=(const Affine& o) const { return !(*this == o); }
  // Value at concrete sizes; every variable must be bound.
  int64_t eval(const Sizes& values) const;
  // isl / TC surface syntax, e.g. "N - 1", "2*i + j", "(H - KH + 2) / 2" (floor: the
  // TC parser reads a size expression divided by a positive integer as this form).
  std::string str() const;
};

}  // namespace polyfuse

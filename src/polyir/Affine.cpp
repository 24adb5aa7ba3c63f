#include "polyir/Affine.h"

#include <sstream>

#include "polyir/Checked.h"

namespace polyfuse {

bool Affine::dependsOnAny(const std::vector<std::string>& names) const {
  for (auto& n : names)
    if (coef.count(n)) return true;
  return false;
}

Affine Affine::operator+(const Affine& o) const {
  Affine r = *this;
  r.constant = checkedAdd(r.constant, o.constant, "an affine constant");
  for (auto& [n, c] : o.coef) {
    r.coef[n] = checkedAdd(r.coef[n], c, "an affine coefficient");
    if (r.coef[n] == 0) r.coef.erase(n);
  }
  return r;
}

Affine Affine::operator-(const Affine& o) const { return *this + o.scaled(-1); }

Affine Affine::scaled(int64_t k) const {
  Affine r;
  if (k == 0) return r;
  r.constant = checkedMul(constant, k, "an affine constant");
  for (auto& [n, c] : coef) r.coef[n] = checkedMul(c, k, "an affine coefficient");
  return r;
}

int64_t Affine::eval(const Sizes& values) const {
  int64_t v = constant;
  for (auto& [n, c] : coef) {
    auto it = values.find(n);
    if (it == values.end()) throw UsageError("no value given for size '" + n + "'");
    v = checkedAdd(v, checkedMul(c, it->second, "an affine value"), "an affine value");
  }
  return v;
}

std::string Affine::str() const {
  std::ostringstream os;
  bool first = true;
  for (auto& [n, c] : coef) {
    if (first) {
      if (c == -1) os << "-";
      else if (c != 1) os << c << "*";
    } else {
      os << (c < 0 ? " - " : " + ");
      int64_t m = c < 0 ? -c : c;
      if (m != 1) os << m << "*";
    }
    os << n;
    first = false;
  }
  if (first) os << constant;
  else if (constant > 0) os << " + " << constant;
  else if (constant < 0) os << " - " << -constant;
  return os.str();
}

}  // namespace polyfuse

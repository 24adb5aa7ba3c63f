#include "polyir/Affine.h"

#include <sstream>

#include "polyir/Checked.h"

namespace polyfuse {

bool Affine::dependsOnAny(const std::vector<std::string>& names) const {
  for (auto& n : names)
    if (coef.count(n)) return true;
  return false;
}

namespace {

int64_t floorDivide(int64_t n, int64_t d) { return n / d - ((n % d != 0) && ((n < 0) != (d < 0))); }

// Folds a quotient whose every term divides evenly, so that equal values compare equal.
Affine normalized(Affine a) {
  if (a.div == 1) return a;
  if (a.coef.empty()) {
    a.constant = floorDivide(a.constant, a.div);
    a.div = 1;
    return a;
  }
  for (auto& [n, c] : a.coef)
    if (c % a.div) return a;
  for (auto& [n, c] : a.coef) c /= a.div;
  a.constant = floorDivide(a.constant, a.div);
  a.div = 1;
  return a;
}

// The numerator alone, as an affine form of div 1.
Affine numerator(const Affine& a) {
  Affine n = a;
  n.div = 1;
  return n;
}

}  // namespace

Affine Affine::floorDiv(int64_t d) const {
  if (d < 1) throw NotAffine("division by " + std::to_string(d) + ": only positive integer divisors");
  Affine r = *this;
  r.div = checkedMul(div, d, "an affine divisor");  // floor(floor(x / a) / b) = floor(x / (a * b))
  return normalized(r);
}

Affine Affine::operator+(const Affine& o) const {
  if (div != 1 && o.div != 1) throw NotAffine("the sum of two quotients is not one quotient");
  if (div != 1 || o.div != 1) {
    // floor(n / d) + m = floor((n + d * m) / d) for integral m.
    const Affine& q = div != 1 ? *this : o;
    const Affine& m = div != 1 ? o : *this;
    Affine r = numerator(q) + m.scaled(q.div);
    r.div = q.div;
    return normalized(r);
  }
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
  if (div != 1) {
    if (k == 1) return *this;
    // -floor(n / d) = ceil(-n / d) = floor((-n + d - 1) / d)
    if (k != -1) throw NotAffine("a quotient scaled by " + std::to_string(k) + " is not one quotient");
    r = numerator(*this).scaled(-1) + constantOf(div - 1);
    r.div = div;
    return normalized(r);
  }
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
  return floorDivide(v, div);
}

std::string Affine::str() const {
  if (div != 1) {
    std::string n = numerator(*this).str();
    return (n.find(' ') == std::string::npos ? n : "(" + n + ")") + " / " + std::to_string(div);
  }
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

#include "polyir/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "polyir/Reduction.h"

namespace polyfuse {

static uint64_t nameHash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: stable across platforms
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

Bindings makeInputs(const Program& prog, const Sizes& sizes, uint64_t seed,
                    const std::map<std::string, double>& scalars) {
  prog.checkSizes(sizes);
  Bindings b;
  b.sizes = sizes;
  for (auto& s : prog.scalars) {
    auto it = scalars.find(s.name);
    if (it != scalars.end()) {
      b.scalars[s.name] = it->second;
    } else {
      SplitMix64 rng(seed ^ nameHash(s.name));
      b.scalars[s.name] = 0.5 + rng.uniform();
    }
  }
  for (auto& [n, v] : scalars)
    if (!b.scalars.count(n)) throw UsageError("unknown scalar parameter '" + n + "'");
  for (int t : prog.tensorsWithRole(TensorRole::Input)) {
    const Tensor& T = prog.tensors[t];
    TensorData d;
    for (auto& e : T.shape) d.shape.push_back(e.eval(sizes));
    d.values.resize(size_t(T.elements(sizes)));
    if (!T.values.empty()) {  // a constant of the source: its own elements
      for (size_t i = 0; i < d.values.size(); ++i) d.values[i] = isInteger(T.type) ? T.values[i] : storedValue(T.type, T.values[i]);
      b.tensors[T.name] = std::move(d);
      continue;
    }
    SplitMix64 rng(seed ^ nameHash(T.name));
    if (isInteger(T.type)) {  // subscripts: uniform over the rows every gather may read
      const Program::IntegerDraw r = prog.integerDraw(t, sizes);
      for (auto& v : d.values) v = double(r.low) + std::floor(rng.uniform() * double(r.high - r.low));
      b.tensors[T.name] = std::move(d);
      continue;
    }
    // Inputs of float tensors are drawn already rounded to float: the oracle sees
    // exactly what a float kernel reads.
    for (auto& v : d.values) v = storedValue(T.type, 2.0 * rng.uniform() - 1.0);
    b.tensors[T.name] = std::move(d);
  }
  return b;
}

// ---- the casts and integer ops of MLIR bodies (docs/linalg.md) ----

// Integers travel as doubles; a value beyond int64 saturates (MLIR's would be poison).
static int64_t toInt64(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9.2233720368547758e18) return INT64_MAX;
  if (x <= -9.2233720368547758e18) return INT64_MIN;
  return int64_t(x);
}

// x reduced to a two's complement integer of n bits.
static int64_t wrapInt(int64_t x, int n) {
  if (n >= 64) return x;
  const uint64_t m = uint64_t(1) << n, v = uint64_t(x) & (m - 1);
  return v >= m / 2 ? int64_t(v) - int64_t(m) : int64_t(v);
}

// The unsigned value of the n-bit integer x.
static double zextInt(int64_t x, int n) {
  if (n >= 64) return double(uint64_t(x));
  return double(uint64_t(x) & ((uint64_t(1) << n) - 1));
}

// Truncating, floor and ceiling division and the remainder; by zero, 0 (undefined in MLIR).
static int64_t integerDivision(Intrinsic f, int64_t x, int64_t y) {
  if (y == 0) return 0;
  if (y == -1) return f == Intrinsic::IRem ? 0 : int64_t(0 - uint64_t(x));
  int64_t q = x / y;
  const bool inexact = x % y != 0;
  switch (f) {
    case Intrinsic::IRem: return x % y;
    case Intrinsic::FloorDiv: return inexact && (x < 0) != (y < 0) ? q - 1 : q;
    case Intrinsic::CeilDiv: return inexact && (x < 0) == (y < 0) ? q + 1 : q;
    default: return q;
  }
}

// The bitwise intrinsics on 64-bit two's complement; shifts past the width give what C
// cannot (0, or the sign).
static int64_t bitwise(Intrinsic f, int64_t x, int64_t y) {
  const uint64_t ux = uint64_t(x), uy = uint64_t(y);
  switch (f) {
    case Intrinsic::BitAnd: return int64_t(ux & uy);
    case Intrinsic::BitOr: return int64_t(ux | uy);
    case Intrinsic::BitXor: return int64_t(ux ^ uy);
    case Intrinsic::Shl: return y < 0 || y >= 64 ? 0 : int64_t(ux << y);
    case Intrinsic::AShr: return y < 0 || y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
    case Intrinsic::Clz: {  // x's leading zeros as an unsigned y-bit integer
      const int n = int(std::min<int64_t>(std::max<int64_t>(y, 1), 64));
      const uint64_t v = n >= 64 ? ux : ux & ((uint64_t(1) << n) - 1);
      int z = 0;
      for (int b = n - 1; b >= 0 && !(v >> b & 1); --b) ++z;
      return z;
    }
    default: return 0;
  }
}

float tf32Rounded(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;  // half an ulp of 10 bits on the magnitude
  std::memcpy(&x, &u, sizeof x);
  return x;
}

namespace {

// An access compiled to a linear offset: offset = base + sum(stride[k] * point[k]),
// plus, for a gather, each data-dependent subscript's value times its element stride.
struct LinearAccess {
  struct Gathered {
    int read;        // the statement's read that holds the subscript
    int64_t stride;  // elements per step of that subscript
    int64_t extent;  // its dimension: values outside [0, extent) are an input error
    size_t dim;
  };
  double* data = nullptr;
  int64_t base = 0;
  std::vector<int64_t> stride;
  std::vector<Gathered> gathered;
  const Tensor* tensor = nullptr;
};

LinearAccess linearize(const Access& a, const Statement& st, const Tensor& T, TensorData& d, const Sizes& sizes) {
  LinearAccess la;
  la.data = d.values.data();
  la.tensor = &T;
  la.stride.assign(st.dims.size(), 0);
  int64_t elemStride = 1;
  for (int p = int(a.subscripts.size()) - 1; p >= 0; --p) {
    const Affine& s = a.subscripts[p];
    Affine rest = s;
    for (size_t k = 0; k < st.dims.size(); ++k) {
      int64_t c = s.coefficient(st.dims[k]);
      la.stride[k] += c * elemStride;
      rest = rest - Affine::var(st.dims[k]).scaled(c);
    }
    la.base += rest.eval(sizes) * elemStride;
    if (a.indirectAt(size_t(p)) >= 0) la.gathered.push_back({a.indirect[size_t(p)], elemStride, T.shape[p].eval(sizes), size_t(p)});
    elemStride *= T.shape[p].eval(sizes);
  }
  return la;
}

class Evaluator {
 public:
  // `f32`: every value is rounded to float, as the program's f32 arithmetic does;
  // `tf32`: the reads whose values are rounded to TF32 (Tf32Reads).
  Evaluator(const Statement& st, std::vector<LinearAccess> reads, const Bindings& b, const std::vector<int64_t>& point,
            bool f32, std::set<int> tf32)
      : st_(st), reads_(std::move(reads)), b_(b), point_(point), f32_(f32), tf32_(std::move(tf32)) {}

  double eval(const Expr& e) const {
    const double v = exact(e);
    return f32_ ? double(float(v)) : v;
  }

 private:
  // The operation at e on its operands' (rounded) values, before its own rounding.
  double exact(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Number: return e.number;
      case ExprKind::Size: return double(b_.sizes.at(e.name));
      case ExprKind::Scalar: return b_.scalars.at(e.name);
      case ExprKind::Index:
        for (size_t k = 0; k < st_.dims.size(); ++k)
          if (st_.dims[k] == e.name) return double(point_[k]);
        return 0;
      case ExprKind::Access: return tf32_.count(e.ref) ? double(tf32Rounded(float(element(e.ref)))) : element(e.ref);
      case ExprKind::Neg: return -eval(*e.args[0]);
      case ExprKind::Add: return eval(*e.args[0]) + eval(*e.args[1]);
      case ExprKind::Sub: return eval(*e.args[0]) - eval(*e.args[1]);
      case ExprKind::Mul: return eval(*e.args[0]) * eval(*e.args[1]);
      case ExprKind::Div: return eval(*e.args[0]) / eval(*e.args[1]);
      case ExprKind::Lt: return eval(*e.args[0]) < eval(*e.args[1]);
      case ExprKind::Le: return eval(*e.args[0]) <= eval(*e.args[1]);
      case ExprKind::Gt: return eval(*e.args[0]) > eval(*e.args[1]);
      case ExprKind::Ge: return eval(*e.args[0]) >= eval(*e.args[1]);
      case ExprKind::Eq: return eval(*e.args[0]) == eval(*e.args[1]);
      case ExprKind::Ne: return eval(*e.args[0]) != eval(*e.args[1]);
      case ExprKind::Select: return eval(*e.args[0]) != 0 ? eval(*e.args[1]) : eval(*e.args[2]);
      case ExprKind::Call: {
        double x = eval(*e.args[0]);
        switch (e.fn) {
          case Intrinsic::Exp: return std::exp(x);
          case Intrinsic::Log: return std::log(x);
          case Intrinsic::Sqrt: return std::sqrt(x);
          case Intrinsic::Rsqrt: return 1.0 / std::sqrt(x);
          case Intrinsic::Tanh: return std::tanh(x);
          case Intrinsic::Erf: return std::erf(x);
          case Intrinsic::Fabs: return std::fabs(x);
          case Intrinsic::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
          case Intrinsic::Sin: return std::sin(x);
          case Intrinsic::Cos: return std::cos(x);
          case Intrinsic::Tan: return std::tan(x);
          case Intrinsic::Atan: return std::atan(x);
          case Intrinsic::Atan2: return std::atan2(x, eval(*e.args[1]));
          case Intrinsic::Floor: return std::floor(x);
          case Intrinsic::Ceil: return std::ceil(x);
          case Intrinsic::Round: return std::round(x);  // half away from zero (math.round)
          case Intrinsic::Rint: return std::nearbyint(x);  // half to even (math.roundeven)
          case Intrinsic::Log1p: return std::log1p(x);
          case Intrinsic::Log2: return std::log2(x);
          case Intrinsic::Log10: return std::log10(x);
          case Intrinsic::Exp2: return std::exp2(x);
          case Intrinsic::Expm1: return std::expm1(x);
          case Intrinsic::Copysign: return std::copysign(x, eval(*e.args[1]));
          case Intrinsic::Asin: return std::asin(x);
          case Intrinsic::Acos: return std::acos(x);
          case Intrinsic::Sinh: return std::sinh(x);
          case Intrinsic::Cosh: return std::cosh(x);
          case Intrinsic::Asinh: return std::asinh(x);
          case Intrinsic::Acosh: return std::acosh(x);
          case Intrinsic::Atanh: return std::atanh(x);
          case Intrinsic::Cbrt: return std::cbrt(x);
          case Intrinsic::Erfc: return std::erfc(x);
          case Intrinsic::Fmod: return std::fmod(x, eval(*e.args[1]));
          case Intrinsic::Fmax: return std::fmax(x, eval(*e.args[1]));
          case Intrinsic::Fmin: return std::fmin(x, eval(*e.args[1]));
          case Intrinsic::Pow: return std::pow(x, eval(*e.args[1]));
          case Intrinsic::Trunc: return std::trunc(x);
          case Intrinsic::Fma: return std::fma(x, eval(*e.args[1]), eval(*e.args[2]));
          case Intrinsic::Maximum: return ieeeMaximum(x, eval(*e.args[1]));
          case Intrinsic::Minimum: return ieeeMinimum(x, eval(*e.args[1]));
          case Intrinsic::RoundF32: return double(float(x));
          case Intrinsic::RoundF16: return roundToHalf(x);
          case Intrinsic::RoundBF16: return roundToBFloat16(x);
          case Intrinsic::RoundFloat:
            return roundToFloatFormat(x, int(eval(*e.args[1])), int(eval(*e.args[2])), eval(*e.args[3]), eval(*e.args[4]) != 0);
          case Intrinsic::Wrap: return double(wrapInt(toInt64(x), int(e.args[1]->number)));
          case Intrinsic::Zext: return zextInt(toInt64(x), int(e.args[1]->number));
          case Intrinsic::IDiv: case Intrinsic::IRem: case Intrinsic::FloorDiv: case Intrinsic::CeilDiv:
            return double(integerDivision(e.fn, toInt64(x), toInt64(eval(*e.args[1]))));
          case Intrinsic::BitAnd: case Intrinsic::BitOr: case Intrinsic::BitXor: case Intrinsic::Shl: case Intrinsic::AShr:
          case Intrinsic::Clz:
            return double(bitwise(e.fn, toInt64(x), toInt64(eval(*e.args[1]))));
        }
        return 0;
      }
      default: throw InternalError("unresolved expression in interpreter");
    }
  }

  const Statement& st_;
  std::vector<LinearAccess> reads_;

  double element(int read) const {
    const LinearAccess& a = reads_[read];
    int64_t off = a.base;
    for (size_t k = 0; k < point_.size(); ++k) off += a.stride[k] * point_[k];
    for (auto& g : a.gathered) {
      const double v = element(g.read);
      if (!(v >= 0 && v < double(g.extent)) || v != std::floor(v))
        throw UsageError(st_.label() + " (line " + std::to_string(st_.loc.line) + ") reads '" + a.tensor->name +
                         "' at " + (v == std::floor(v) && std::fabs(v) < 1e15 ? std::to_string(int64_t(v)) : std::to_string(v)) +
                         " in dimension " + std::to_string(g.dim) + " (from '" + reads_[g.read].tensor->name +
                         "'), outside 0:" + std::to_string(g.extent));
      off += int64_t(v) * g.stride;
    }
    return a.data[off];
  }
  const Bindings& b_;
  const std::vector<int64_t>& point_;
  const bool f32_;
  const std::set<int> tf32_;
};

// Calls f(point) for every point of the box lo <= p < hi, last dimension fastest.
template <class F>
void forBox(const std::vector<int64_t>& lo, const std::vector<int64_t>& hi, std::vector<int64_t>& p, F&& f) {
  size_t n = lo.size();
  for (size_t k = 0; k < n; ++k)
    if (lo[k] >= hi[k]) return;
  p = lo;
  while (true) {
    f();
    size_t k = n;
    while (k > 0) {
      --k;
      if (++p[k] < hi[k]) break;
      p[k] = lo[k];
      if (k == 0) return;
    }
    if (n == 0) return;
  }
}

}  // namespace

void interpret(const Program& prog, Bindings& b, Precision precision, const Tf32Reads& tf32) {
  const bool f32 = precision == Precision::Program && prog.computeType() == ElemType::F32;
  prog.checkSizes(b.sizes);
  for (auto& T : prog.tensors) {
    if (T.role == TensorRole::Input) {
      auto it = b.tensors.find(T.name);
      if (it == b.tensors.end()) throw UsageError("no data for input '" + T.name + "'");
      std::vector<int64_t> shape;
      for (auto& e : T.shape) shape.push_back(e.eval(b.sizes));
      if (it->second.shape != shape) throw UsageError("input '" + T.name + "' has the wrong shape");
      continue;
    }
    TensorData d;
    for (auto& e : T.shape) d.shape.push_back(e.eval(b.sizes));
    d.values.assign(size_t(T.elements(b.sizes)), 0.0);
    b.tensors[T.name] = std::move(d);
  }
  for (auto& st : prog.statements) {
    std::vector<int64_t> lo, hi, point;
    for (auto& r : st.ranges) {
      lo.push_back(r.lo.eval(b.sizes));
      hi.push_back(r.hi.eval(b.sizes));
    }
    const Tensor& W = prog.tensors[st.write.tensor];
    LinearAccess w = linearize(st.write, st, W, b.tensors[W.name], b.sizes);
    std::vector<LinearAccess> reads;
    for (auto& a : st.reads) {
      const Tensor& T = prog.tensors[a.tensor];
      reads.push_back(linearize(a, st, T, b.tensors[T.name], b.sizes));
    }
    auto offset = [&](const std::vector<int64_t>& p) {
      int64_t off = w.base;
      for (size_t k = 0; k < p.size(); ++k) off += w.stride[k] * p[k];
      return off;
    };
    // A statement whose domain is empty at these sizes executes nothing, its '!'
    // initialization included: the lhs keeps its start value (zero), as every backend
    // leaves it (docs/language.md).
    bool empty = false;
    for (size_t k = 0; k < lo.size(); ++k) empty |= lo[k] >= hi[k];
    if (st.init && !empty) {
      std::vector<int64_t> plo(lo.begin(), lo.begin() + st.numParallel), phi(hi.begin(), hi.begin() + st.numParallel);
      std::vector<int64_t> pp;
      double id = reduceKind(st.op).identity;
      forBox(plo, phi, pp, [&] {
        std::vector<int64_t> full = pp;
        full.resize(st.dims.size(), 0);
        w.data[offset(full)] = id;
      });
    }
    auto rounded = tf32.find(st.id);
    Evaluator ev(st, reads, b, point, f32, precision == Precision::Program && rounded != tf32.end() ? rounded->second : std::set<int>());
    // A narrow float is stored once its value is final: an assignment at each point, a
    // reduction after its last step (it accumulates in the computing type, as every
    // backend's registers do).
    const bool narrow = isNarrowFloat(W.type) && precision == Precision::Program;
    forBox(lo, hi, point, [&] {
      double v = ev.eval(*st.rhs);
      double& dst = w.data[offset(point)];
      dst = combineValues(st.op, dst, v);
      if (f32) dst = double(float(dst));
      if (narrow && !st.isReduction()) dst = storedValue(W.type, dst);
    });
    if (narrow && st.isReduction() && !empty) {
      std::vector<int64_t> plo(lo.begin(), lo.begin() + st.numParallel), phi(hi.begin(), hi.begin() + st.numParallel);
      std::vector<int64_t> pp;
      forBox(plo, phi, pp, [&] {
        std::vector<int64_t> full = pp;
        full.resize(st.dims.size(), 0);
        double& dst = w.data[offset(full)];
        dst = storedValue(W.type, dst);
      });
    }
  }
}

Checksum checksum(const TensorData& t) {
  Checksum c;
  for (double v : t.values) {
    c.sum += v;
    c.absSum += std::fabs(v);
  }
  return c;
}

}  // namespace polyfuse

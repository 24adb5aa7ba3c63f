// Name resolution, range inference (TC's rule: an index ranges over the largest
// interval that keeps its accesses in bounds) and the semantic checks.
#include <algorithm>
#include <cmath>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "polyir/Checked.h"
#include "polyir/Program.h"
#include "polyir/Reduction.h"

namespace polyfuse {

int64_t Tensor::elements(const Sizes& sizes) const {
  int64_t n = 1;
  for (auto& d : shape) n = checkedMul(n, d.eval(sizes), "an element count");
  return n;
}

int Program::findTensor(const std::string& n) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n) return int(i);
  return -1;
}

std::vector<int> Program::tensorsWithRole(TensorRole r) const {
  std::vector<int> out;
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].role == r) out.push_back(int(i));
  return out;
}

ElemType Program::computeType() const {
  for (auto& t : tensors)
    if (t.type == ElemType::F64) return ElemType::F64;
  for (auto& s : scalars)
    if (s.type == ElemType::F64) return ElemType::F64;
  return ElemType::F32;
}

Program::IntegerDraw Program::integerDraw(int tensor, const Sizes& sizes) const {
  int64_t limit = -1;
  for (auto& st : statements)
    for (auto& a : st.reads)
      for (size_t p = 0; p < a.indirect.size(); ++p)
        if (a.indirect[p] >= 0 && st.reads[a.indirect[p]].tensor == tensor) {
          const int64_t extent = tensors[a.tensor].shape[p].eval(sizes);
          limit = limit < 0 ? extent : std::min(limit, extent);
        }
  if (limit >= 0) return {0, limit};
  // Wider integers read as values may still become subscripts through arithmetic
  // (position ids); 0 and 1 keep those in bounds too.
  const ElemType t = tensors[tensor].type;
  return t == ElemType::I8 || t == ElemType::I16 ? IntegerDraw{-8, 8} : IntegerDraw{0, 2};
}

void Program::checkSizes(const Sizes& sizes) const {
  for (auto& p : sizeParams) {
    auto it = sizes.find(p);
    if (it == sizes.end()) throw UsageError("missing size '" + p + "' (use --size " + p + "=VALUE)");
    if (it->second < 1) throw UsageError("size '" + p + "' must be at least 1");
    if (it->second > kMaxExtent) throw UsageError("size '" + p + "' is larger than 2^40, the most polyfuse models");
  }
  for (auto& [k, v] : sizes)
    if (std::find(sizeParams.begin(), sizeParams.end(), k) == sizeParams.end())
      throw UsageError("unknown size '" + k + "' (program '" + name + "' has: " +
                       [&] { std::string s; for (auto& p : sizeParams) s += (s.empty() ? "" : ", ") + p; return s.empty() ? std::string("none") : s; }() + ")");
  for (auto& b : sizeBounds) {
    const int64_t limit = b.limit.eval(sizes);
    if (b.used.eval(sizes) <= limit) continue;
    std::string given;
    for (auto& [n, k] : b.used.coef) given += (given.empty() ? "'" : ", '") + n + "' = " + std::to_string(sizes.at(n));
    throw UsageError((b.used.coef.size() == 1 ? "size " + given + " is" : "sizes " + given + " are") + " too large: " + b.what +
                     " at line " + std::to_string(b.loc.line) + " needs " + b.used.str() + " <= " + b.limit.str() +
                     (b.limit.isConstant() ? "" : " = " + std::to_string(limit)));
  }
  // Bounds under which the cost model's products fit in 64 bits (polyir/Checked.h).
  auto sizesText = [&] {
    std::string s;
    for (auto& [k, v] : sizes) s += (s.empty() ? "" : ",") + k + "=" + std::to_string(v);
    return s.empty() ? std::string("its static shapes") : s;
  };
  for (auto& t : tensors) {
    int64_t n = 0;
    try {
      n = t.elements(sizes);
    } catch (const OverflowError&) {
      n = -1;
    }
    if (n < 0 || n > kMaxExtent)
      throw UsageError("tensor '" + t.name + "' has more than 2^40 elements at " + sizesText() +
                       ", more than polyfuse models");
  }
  for (auto& st : statements) {
    int64_t points = 1;
    for (auto& r : st.ranges) {
      int64_t lo = r.lo.eval(sizes), hi = r.hi.eval(sizes);
      if (lo < -kMaxExtent || hi > kMaxExtent)
        throw UsageError(st.label() + " (line " + std::to_string(st.loc.line) + ") ranges beyond 2^40 at " + sizesText());
      int64_t extent = std::max<int64_t>(0, hi - lo);
      points = extent != 0 && points > kMaxStatementPoints / extent ? kMaxStatementPoints + 1 : points * extent;
    }
    if (points > kMaxStatementPoints)
      throw UsageError(st.label() + " (line " + std::to_string(st.loc.line) + ") has more than 2^50 points at " +
                       sizesText() + ", more than polyfuse models");
  }
}

std::string reduceOpText(ReduceOp op, bool init) {
  return std::string(reduceKind(op).text) + (init && op != ReduceOp::Assign ? "!" : "");
}

static const std::map<std::string, std::pair<Intrinsic, int>>& intrinsics() {
  static const std::map<std::string, std::pair<Intrinsic, int>> table = {
      {"exp", {Intrinsic::Exp, 1}},     {"log", {Intrinsic::Log, 1}},
      {"sqrt", {Intrinsic::Sqrt, 1}},   {"rsqrt", {Intrinsic::Rsqrt, 1}},
      {"tanh", {Intrinsic::Tanh, 1}},   {"erf", {Intrinsic::Erf, 1}},
      {"fabs", {Intrinsic::Fabs, 1}},   {"fmax", {Intrinsic::Fmax, 2}},
      {"fmin", {Intrinsic::Fmin, 2}},   {"pow", {Intrinsic::Pow, 2}},
      {"sigmoid", {Intrinsic::Sigmoid, 1}},
      {"sin", {Intrinsic::Sin, 1}},         {"cos", {Intrinsic::Cos, 1}},
      {"tan", {Intrinsic::Tan, 1}},         {"atan", {Intrinsic::Atan, 1}},
      {"atan2", {Intrinsic::Atan2, 2}},     {"floor", {Intrinsic::Floor, 1}},
      {"ceil", {Intrinsic::Ceil, 1}},       {"round", {Intrinsic::Round, 1}},
      {"rint", {Intrinsic::Rint, 1}},       {"log1p", {Intrinsic::Log1p, 1}},
      {"log2", {Intrinsic::Log2, 1}},       {"log10", {Intrinsic::Log10, 1}},
      {"exp2", {Intrinsic::Exp2, 1}},       {"expm1", {Intrinsic::Expm1, 1}},
      {"copysign", {Intrinsic::Copysign, 2}}, {"fmod", {Intrinsic::Fmod, 2}},
      {"asin", {Intrinsic::Asin, 1}},       {"acos", {Intrinsic::Acos, 1}},
      {"sinh", {Intrinsic::Sinh, 1}},       {"cosh", {Intrinsic::Cosh, 1}},
      {"asinh", {Intrinsic::Asinh, 1}},     {"acosh", {Intrinsic::Acosh, 1}},
      {"atanh", {Intrinsic::Atanh, 1}},     {"cbrt", {Intrinsic::Cbrt, 1}},
      {"erfc", {Intrinsic::Erfc, 1}},
      {"trunc", {Intrinsic::Trunc, 1}},     {"fma", {Intrinsic::Fma, 3}},
      {"maximum", {Intrinsic::Maximum, 2}}, {"minimum", {Intrinsic::Minimum, 2}},
      {"round_f32", {Intrinsic::RoundF32, 1}}, {"round_f16", {Intrinsic::RoundF16, 1}},
      {"round_bf16", {Intrinsic::RoundBF16, 1}}, {"round_float", {Intrinsic::RoundFloat, 5}},
      {"wrap", {Intrinsic::Wrap, 2}},
      {"zext", {Intrinsic::Zext, 2}},       {"idiv", {Intrinsic::IDiv, 2}},
      {"irem", {Intrinsic::IRem, 2}},       {"floordiv", {Intrinsic::FloorDiv, 2}},
      {"ceildiv", {Intrinsic::CeilDiv, 2}}, {"bitand", {Intrinsic::BitAnd, 2}},
      {"bitor", {Intrinsic::BitOr, 2}},     {"bitxor", {Intrinsic::BitXor, 2}},
      {"shl", {Intrinsic::Shl, 2}},         {"ashr", {Intrinsic::AShr, 2}},
      {"clz", {Intrinsic::Clz, 2}}};
  return table;
}

bool isIntrinsicName(const std::string& name) { return intrinsics().count(name) > 0 || name == kInfinityName; }

const char* intrinsicName(Intrinsic f) {
  for (auto& [n, v] : intrinsics())
    if (v.first == f) return n.c_str();
  return "?";
}

Sizes parseSizes(const std::string& text) {
  Sizes out;
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find(',', i);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(i, end - i);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("bad size '" + item + "': expected NAME=VALUE, e.g. N=4096");
    std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    if (value.empty() || value.size() > 15 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      throw UsageError("bad size '" + item + "': the value must be a positive integer");
    if (out.count(name)) throw UsageError("size '" + name + "' given twice");
    int64_t v = std::stoll(value);
    if (v < 1) throw UsageError("bad size '" + item + "': the value must be at least 1");
    if (v > kMaxExtent) throw UsageError("bad size '" + item + "': polyfuse models sizes up to 2^40");
    out[name] = v;
    i = end + 1;
  }
  return out;
}

namespace {

struct Bound {
  Range range;
  SourceLoc loc;
  std::string from;  // for messages
};

class Sema {
 public:
  explicit Sema(const DefDecl& d) : def_(d) {}

  Program run() {
    prog_.name = def_.name;
    std::set<std::string> names;
    auto claim = [&](const std::string& n, SourceLoc loc) {
      if (!names.insert(n).second) throw SourceError(loc, "duplicate name '" + n + "'");
    };
    for (auto& [n, loc] : def_.sizes) {
      if (isSize(n)) throw SourceError(loc, "size '" + n + "' is declared twice");
      sizeExpr(n, loc, true);
    }
    for (auto& p : def_.params) {
      claim(p.name, p.loc);
      if (!p.hasShape) {
        if (isInteger(p.type))
          throw SourceError(p.loc, "scalar parameter '" + p.name + "' is an integer; scalars are float or double");
        prog_.scalars.push_back({p.name, p.loc, p.type});
        continue;
      }
      Tensor t;
      t.name = p.name;
      t.loc = p.loc;
      t.type = p.type;
      t.role = TensorRole::Input;
      for (size_t k = 0; k < p.dims.size(); ++k) t.shape.push_back(sizeExpr(p.dims[k], p.dimLocs[k], true));
      if (!p.values.empty()) {
        int64_t n = 1;
        bool fixed = true;
        for (auto& e : t.shape) {
          fixed &= e.isConstant();
          if (fixed) n = checkedMul(n, e.constant, "a constant's element count");
        }
        if (!fixed || n != int64_t(p.values.size()))
          throw InternalError("constant '" + p.name + "' states " + std::to_string(p.values.size()) +
                              " elements for a shape of another count");
        t.values = p.values;
      }
      prog_.tensors.push_back(std::move(t));
      if (defaultType_ < 0 && !isInteger(p.type)) defaultType_ = int(p.type);
    }
    for (auto& sname : prog_.sizeParams)
      if (names.count(sname))
        throw SourceError(def_.loc, "name '" + sname + "' is used both as a size and as a parameter");
    for (auto& b : def_.sizeBounds) {
      Affine used = Affine::constantOf(b.offset);
      for (auto& [size, k] : b.terms) {
        if (!isSize(size)) throw SourceError(b.loc, "a bound names '" + size + "', which is not a size of the program");
        used = used + Affine::var(size).scaled(k);
      }
      prog_.sizeBounds.push_back({used, sizeExpr(b.limit, b.loc, false), b.loc, b.what});
    }
    for (auto& o : def_.outputs) {
      if (prog_.findTensor(o.name) >= 0 || isScalar(o.name))
        throw SourceError(o.loc, "output '" + o.name + "' is also an input; outputs must be new tensors");
      claim(o.name, o.loc);
      if (isSize(o.name)) throw SourceError(o.loc, "output '" + o.name + "' has the name of a size");
      if (isInteger(o.type))
        throw SourceError(o.loc, "output '" + o.name + "' is an integer tensor; outputs are float or double "
                                 "(integer tensors are inputs)");
      Tensor t;
      t.name = o.name;
      t.loc = o.loc;
      t.type = o.type;
      if (!o.hasShape && defaultType_ >= 0) t.type = ElemType(defaultType_);
      t.role = TensorRole::Output;
      if (o.hasShape) {
        for (size_t k = 0; k < o.dims.size(); ++k) t.shape.push_back(sizeExpr(o.dims[k], o.dimLocs[k], false));
        shaped_.insert(o.name);
      }
      prog_.tensors.push_back(std::move(t));
    }
    for (auto& p : prog_.tensors)
      if (p.role == TensorRole::Input) shaped_.insert(p.name);
    for (auto& s : def_.stmts) lhsNames_.insert(s.lhs);
    for (auto& s : def_.stmts) statement(s);
    for (auto& t : prog_.tensors)
      if (t.role == TensorRole::Output && !written_.count(t.name))
        throw SourceError(t.loc, "output '" + t.name + "' is never written");
    // A static shape beyond what polyfuse models is the file's error, found by every
    // command (sizes given on the command line are checked by Program::checkSizes).
    for (auto& t : prog_.tensors) {
      int64_t n = 1;
      bool fixed = true;
      for (auto& e : t.shape) {
        fixed &= e.isConstant();
        if (fixed && e.constant > 0) n = n > kMaxExtent / e.constant ? kMaxExtent + 1 : n * e.constant;
      }
      if (fixed && n > kMaxExtent)
        throw SourceError(t.loc, "tensor '" + t.name + "' has more than 2^40 elements, more than polyfuse models");
    }
    return std::move(prog_);
  }

 private:
  const DefDecl& def_;
  Program prog_;
  int defaultType_ = -1;
  std::set<std::string> shaped_, written_, lhsNames_;
  std::vector<Guard> guards_;  // the affine conditions around the read being resolved

  bool isSize(const std::string& n) const {
    return std::find(prog_.sizeParams.begin(), prog_.sizeParams.end(), n) != prog_.sizeParams.end();
  }
  int scalarIndex(const std::string& n) const {
    for (size_t i = 0; i < prog_.scalars.size(); ++i)
      if (prog_.scalars[i].name == n) return int(i);
    return -1;
  }
  bool isScalar(const std::string& n) const { return scalarIndex(n) >= 0; }

  Affine sizeExpr(const std::string& text, SourceLoc loc, bool mayDeclare) {
    // A multiple of a size, `4*N`.
    if (const size_t star = text.find('*'); star != std::string::npos) {
      const Affine k = sizeExpr(text.substr(0, star), loc, false);
      const std::string n = text.substr(star + 1);
      if (!k.isConstant() || n.empty() || std::isdigit(static_cast<unsigned char>(n[0])) || n.find('*') != std::string::npos)
        throw SourceError(loc, "a dimension must be a size name, a positive integer or an integer times a size, not '" + text + "'");
      return sizeExpr(n, loc, mayDeclare).scaled(k.constant);
    }
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
      if (text.find_first_not_of("0123456789") != std::string::npos || text.size() > 15)
        throw SourceError(loc, "a dimension must be a size name or a positive integer, not '" + text + "'");
      int64_t v = std::stoll(text);
      if (v < 1) throw SourceError(loc, "a dimension must be at least 1");
      return Affine::constantOf(v);
    }
    if (!isSize(text)) {
      if (!mayDeclare) throw SourceError(loc, "unknown size '" + text + "'");
      prog_.sizeParams.push_back(text);
    }
    return Affine::var(text);
  }

  // Collects index variables: every name inside a subscript that is not a size.
  void collectIndices(const Expr& e, bool inSubscript, std::vector<std::pair<std::string, SourceLoc>>& out) {
    if (e.kind == ExprKind::Name && inSubscript && !isSize(e.name) && !isScalar(e.name) &&
        prog_.findTensor(e.name) < 0) {
      for (auto& [n, l] : out)
        if (n == e.name) return;
      out.push_back({e.name, e.loc});
      return;
    }
    bool sub = inSubscript || (e.kind == ExprKind::Call && prog_.findTensor(e.name) >= 0);
    for (auto& a : e.args) collectIndices(*a, sub, out);
  }

  Affine toAffine(const Expr& e, const std::set<std::string>& indices) {
    try {
      return toAffineAt(e, indices);
    } catch (const OverflowError& o) {  // the innermost operator that overflowed
      throw SourceError(e.loc, std::string(o.what()) + " in this subscript");
    } catch (const NotAffine& o) {
      throw SourceError(e.loc, std::string("not an affine form: ") + o.what());
    }
  }

  Affine toAffineAt(const Expr& e, const std::set<std::string>& indices) {
    switch (e.kind) {
      case ExprKind::Number:
        if (e.name.find_first_of(".eEfF") != std::string::npos)
          throw SourceError(e.loc, "subscripts must be integers; '" + e.name + "' is not");
        if (!(e.number <= double(kMaxExtent)))  // also before the conversion: a double beyond int64 is UB
          throw SourceError(e.loc, "integer constant '" + e.name + "' is too large (at most 2^40)");
        return Affine::constantOf(int64_t(e.number));
      case ExprKind::Name:
        if (isSize(e.name) || indices.count(e.name)) return Affine::var(e.name);
        if (isScalar(e.name)) throw SourceError(e.loc, "non-affine subscript: scalar '" + e.name + "' cannot index a tensor");
        throw SourceError(e.loc, "unknown name '" + e.name + "' in subscript");
      case ExprKind::Call:
        if (prog_.findTensor(e.name) >= 0)
          throw SourceError(e.loc, "a tensor read inside a subscript must be the whole subscript, as in E(ids(i), j)");
        throw SourceError(e.loc, "non-affine subscript: a call to '" + e.name + "'");
      case ExprKind::Neg: return toAffine(*e.args[0], indices).scaled(-1);
      case ExprKind::Add: return toAffine(*e.args[0], indices) + toAffine(*e.args[1], indices);
      case ExprKind::Sub: return toAffine(*e.args[0], indices) - toAffine(*e.args[1], indices);
      case ExprKind::Mul: {
        Affine a = toAffine(*e.args[0], indices), b = toAffine(*e.args[1], indices);
        if (a.isConstant()) return b.scaled(a.constant);
        if (b.isConstant()) return a.scaled(b.constant);
        throw SourceError(e.loc, "non-affine subscript: product of two variables");
      }
      case ExprKind::Div: {
        // A size expression over a positive integer is its floor (a range's end, as
        // `where h in 0:(H - KH) / 2 + 1`); indices are never divided.
        Affine a = toAffine(*e.args[0], indices), b = toAffine(*e.args[1], indices);
        bool indexed = false;
        for (auto& [n, c] : a.coef) indexed |= indices.count(n) > 0;
        if (indexed || !b.isConstant() || b.constant < 1)
          throw SourceError(e.loc, "non-affine subscript: only a size expression may be divided, by a positive integer");
        return a.floorDiv(b.constant);
      }
      default: throw SourceError(e.loc, "non-affine subscript: only sums of index variables, sizes and integer constants are allowed");
    }
  }

  // A subscript that is a tensor element: E(ids(s), d), a data-dependent read.
  bool readsTensor(const Expr& e) const {
    const int t = e.kind == ExprKind::Call || e.kind == ExprKind::Name ? prog_.findTensor(e.name) : -1;
    return t >= 0 && (e.kind == ExprKind::Call || prog_.tensors[size_t(t)].shape.empty());
  }

  // Resolves names in the right-hand side, recording reads; `asSubscript` when e is a
  // whole subscript of another access (its value indexes that tensor).
  void resolve(Expr& e, Statement& st, const std::set<std::string>& indices, bool asSubscript = false) {
    switch (e.kind) {
      case ExprKind::Number: return;
      case ExprKind::Name: {
        if (isSize(e.name)) { e.kind = ExprKind::Size; return; }
        if (int s = scalarIndex(e.name); s >= 0) { e.kind = ExprKind::Scalar; e.ref = s; return; }
        if (indices.count(e.name)) { e.kind = ExprKind::Index; return; }
        if (int t = prog_.findTensor(e.name); t >= 0) {
          if (prog_.tensors[t].shape.empty() && shaped_.count(e.name)) {
            e.kind = ExprKind::Call;  // rank-0 tensor used without parentheses
            resolve(e, st, indices, asSubscript);
            return;
          }
          throw SourceError(e.loc, "tensor '" + e.name + "' used without subscripts");
        }
        if (e.name == kInfinityName) {  // a literal of its own: no decimal spells it
          e.kind = ExprKind::Number;
          e.number = std::numeric_limits<double>::infinity();
          return;
        }
        throw SourceError(e.loc, "unknown name '" + e.name + "'");
      }
      case ExprKind::Call: {
        if (int t = prog_.findTensor(e.name); t >= 0) {
          if (!shaped_.count(e.name))
            throw SourceError(e.loc, "tensor '" + e.name + "' is read before it is written");
          const Tensor& T = prog_.tensors[t];
          if (e.args.size() != T.shape.size())
            throw SourceError(e.loc, "wrong rank: '" + e.name + "' has " + std::to_string(T.shape.size()) +
                                         " dimension(s), accessed with " + std::to_string(e.args.size()));
          if (asSubscript && !isInteger(T.type))
            throw SourceError(e.loc, "'" + e.name + "' is a " + elemTypeName(T.type) +
                                         " tensor; a data-dependent subscript reads an int32 or int64 tensor");
          Access a;
          a.tensor = t;
          a.loc = e.loc;
          a.guards = guards_;
          for (auto& s : e.args) {
            if (!readsTensor(*s)) {
              a.subscripts.push_back(toAffine(*s, indices));
              continue;
            }
            if (asSubscript)
              throw SourceError(s->loc, "a subscript of a data-dependent subscript must be affine (one level of gather)");
            resolve(*s, st, indices, true);
            a.indirect.resize(e.args.size(), -1);
            a.indirect[a.subscripts.size()] = s->ref;
            a.subscripts.push_back(Affine::constantOf(0));
          }
          e.kind = ExprKind::Access;
          e.ref = int(st.reads.size());
          st.reads.push_back(std::move(a));
          return;
        }
        if (lhsNames_.count(e.name))
          throw SourceError(e.loc, "tensor '" + e.name + "' is read before it is written");
        auto it = intrinsics().find(e.name);
        if (it == intrinsics().end()) throw SourceError(e.loc, "unknown tensor or function '" + e.name + "'");
        if (int(e.args.size()) != it->second.second)
          throw SourceError(e.loc, "'" + e.name + "' takes " + std::to_string(it->second.second) +
                                       " argument(s), given " + std::to_string(e.args.size()));
        e.fn = it->second.first;
        if (e.fn == Intrinsic::Wrap || e.fn == Intrinsic::Zext) {
          const Expr& w = *e.args[1];
          if (w.kind != ExprKind::Number || !(w.number >= 1 && w.number <= 64 && w.number == double(int(w.number))))
            throw SourceError(w.loc, "the width of '" + e.name + "' must be an integer literal from 1 to 64");
        }
        if (e.fn == Intrinsic::RoundFloat)
          for (size_t k = 1; k < e.args.size(); ++k)
            if (!literalValue(*e.args[k]))
              throw SourceError(e.args[k]->loc, "the format of 'round_float' (fraction bits, smallest quantum's exponent, largest finite value, NaN on overflow) must be literals");
        for (auto& a : e.args) resolve(*a, st, indices);
        return;
      }
      case ExprKind::Select: {
        resolve(*e.args[0], st, indices);
        // Each branch's reads are made only where the condition holds, or fails: an
        // affine condition becomes their guard.
        std::optional<Affine> diff;
        const Expr& c = *e.args[0];
        if (isComparison(c.kind))
          if (auto l = guardAffine(*c.args[0]), r = guardAffine(*c.args[1]); l && r) try {
              diff = *l - *r;
            } catch (const OverflowError&) {
            }
        for (int branch = 1; branch <= 2; ++branch) {
          if (diff) guards_.push_back({*diff, branch == 1 ? c.kind : negatedComparison(c.kind)});
          resolve(*e.args[size_t(branch)], st, indices);
          if (diff) guards_.pop_back();
        }
        return;
      }
      default:
        for (auto& a : e.args) resolve(*a, st, indices);
    }
  }

  static bool isComparison(ExprKind k) { return k >= ExprKind::Lt && k <= ExprKind::Ne; }
  static ExprKind negatedComparison(ExprKind k) {
    switch (k) {
      case ExprKind::Lt: return ExprKind::Ge;
      case ExprKind::Le: return ExprKind::Gt;
      case ExprKind::Gt: return ExprKind::Le;
      case ExprKind::Ge: return ExprKind::Lt;
      case ExprKind::Eq: return ExprKind::Ne;
      default: return ExprKind::Eq;
    }
  }

  // A resolved value as an affine form of indices and sizes, where it is one (integer
  // literals, sums, products by a constant); none otherwise.
  static std::optional<Affine> guardAffine(const Expr& e) {
    try {
      switch (e.kind) {
        case ExprKind::Number:
          if (e.number != std::floor(e.number) || !(std::fabs(e.number) <= double(kMaxExtent))) return std::nullopt;
          return Affine::constantOf(int64_t(e.number));
        case ExprKind::Index:
        case ExprKind::Size: return Affine::var(e.name);
        case ExprKind::Neg: {
          auto a = guardAffine(*e.args[0]);
          return a ? std::optional<Affine>(a->scaled(-1)) : std::nullopt;
        }
        case ExprKind::Add:
        case ExprKind::Sub:
        case ExprKind::Mul: {
          auto a = guardAffine(*e.args[0]), b = guardAffine(*e.args[1]);
          if (!a || !b) return std::nullopt;
          if (e.kind == ExprKind::Add) return *a + *b;
          if (e.kind == ExprKind::Sub) return *a - *b;
          if (a->isConstant()) return b->scaled(a->constant);
          if (b->isConstant()) return a->scaled(b->constant);
          return std::nullopt;
        }
        default: return std::nullopt;
      }
    } catch (const OverflowError&) {
      return std::nullopt;
    }
  }

  static bool isDeclaredIndex(const std::string& n, const Statement& st) {
    return std::find(st.dims.begin(), st.dims.end(), n) != st.dims.end();
  }

  void statement(const StmtDecl& d) {
    Statement st;
    st.id = int(prog_.statements.size());
    st.loc = d.loc;
    st.tensorName = d.lhs;
    st.op = d.op;
    st.init = d.init;
    if (isScalar(d.lhs) || isSize(d.lhs))
      throw SourceError(d.loc, "cannot write to '" + d.lhs + "': it is a " + (isSize(d.lhs) ? "size" : "scalar parameter"));
    int t = prog_.findTensor(d.lhs);
    if (t >= 0 && prog_.tensors[t].role == TensorRole::Input)
      throw SourceError(d.loc, "cannot write to input '" + d.lhs + "'");
    if (d.op != ReduceOp::Assign && !d.init && !written_.count(d.lhs))
      throw SourceError(d.opLoc, std::string("'") + reduceOpText(d.op, false) + "' updates '" + d.lhs +
                                     "', which is never written before; use the '!' form to start from the identity");
    if (t < 0) {
      Tensor tmp;
      tmp.name = d.lhs;
      tmp.loc = d.loc;
      tmp.role = TensorRole::Temporary;
      tmp.type = defaultType_ >= 0 ? ElemType(defaultType_) : ElemType::F32;
      for (auto& [n, type] : def_.temporaryTypes)
        if (n == d.lhs) tmp.type = type;
      prog_.tensors.push_back(tmp);
      t = int(prog_.tensors.size()) - 1;
    }
    // Left-hand side: distinct plain index variables.
    for (size_t k = 0; k < d.lhsIndices.size(); ++k) {
      const std::string& n = d.lhsIndices[k];
      if (n.empty() || isSize(n) || isScalar(n) || prog_.findTensor(n) >= 0)
        throw SourceError(d.lhsIndexLocs[k], "left-hand side subscripts must be distinct index variables");
      if (isDeclaredIndex(n, st)) throw SourceError(d.lhsIndexLocs[k], "index '" + n + "' appears twice on the left-hand side");
      st.dims.push_back(n);
    }
    st.numParallel = int(st.dims.size());
    if (shaped_.count(d.lhs) && prog_.tensors[t].shape.size() != st.dims.size())
      throw SourceError(d.loc, "wrong rank: '" + d.lhs + "' has " + std::to_string(prog_.tensors[t].shape.size()) +
                                   " dimension(s), written with " + std::to_string(st.dims.size()));
    std::vector<std::pair<std::string, SourceLoc>> rhsIdx;
    collectIndices(*d.rhs, false, rhsIdx);
    for (auto& [n, loc] : rhsIdx) {
      if (isDeclaredIndex(n, st)) continue;
      if (d.op == ReduceOp::Assign)
        throw SourceError(loc, "index '" + n + "' appears only on the right-hand side of '='; "
                               "use a reduction operator such as '+=!' to reduce over it");
      st.dims.push_back(n);
    }
    // A reduction may run over a loop that only its where clause names: the value is
    // reduced that many times (a sum over a row of a splat constant), as linalg writes it.
    for (auto& w : d.where)
      if (!isDeclaredIndex(w.index, st)) {
        if (d.op == ReduceOp::Assign || isSize(w.index) || isScalar(w.index) || prog_.findTensor(w.index) >= 0)
          throw SourceError(w.loc, "where clause names '" + w.index + "', which is not an index of this statement");
        st.dims.push_back(w.index);
      }
    std::set<std::string> indices(st.dims.begin(), st.dims.end());
    // Clone the rhs: the declaration stays const and the statement owns its tree.
    st.rhs = cloneExpr(*d.rhs);
    resolve(*st.rhs, st, indices);
    Access write;
    write.tensor = t;
    write.loc = d.loc;
    for (auto& n : st.dims) {
      if (int(write.subscripts.size()) == st.numParallel) break;
      write.subscripts.push_back(Affine::var(n));
    }
    st.write = write;
    inferRanges(st, d);
    if (!shaped_.count(d.lhs)) {
      Tensor& T = prog_.tensors[t];
      for (int k = 0; k < st.numParallel; ++k) T.shape.push_back(st.ranges[k].hi);
      shaped_.insert(d.lhs);
    }
    written_.insert(d.lhs);
    prog_.statements.push_back(std::move(st));
  }

  void inferRanges(Statement& st, const StmtDecl& d) {
    std::set<std::string> none;
    std::vector<std::optional<Range>> ranges(st.dims.size());
    for (size_t k = 0; k < st.dims.size(); ++k) ranges[k] = rangeOf(st, d, k, none);
    // Indices whose every subscript mixes in other indices (I(2 * h + kh) with kh read
    // alone elsewhere) take their range once those indices have theirs: TC's rule, the
    // largest interval that keeps every such subscript in bounds for all of them.
    for (bool progress = true; progress;) {
      progress = false;
      for (size_t k = 0; k < st.dims.size(); ++k)
        if (!ranges[k] && (ranges[k] = compoundRange(st, d, k, ranges))) progress = true;
    }
    for (size_t k = 0; k < st.dims.size(); ++k) {
      const std::string& v = st.dims[k];
      if (!ranges[k])
        throw SourceError(k < d.lhsIndexLocs.size() ? d.lhsIndexLocs[k] : d.loc,
                          "cannot infer the range of index '" + v + "'; add 'where " + v + " in LO:HI'");
      const Range& r = *ranges[k];
      if (r.origin != kWhereOrigin && r.lo.div == 1 && r.hi.div == 1) {
        Affine len = r.hi - r.lo;
        if (len.isConstant() && len.constant < 1)
          throw SourceError(d.loc, "index '" + v + "' has an empty range " + r.lo.str() + ":" + r.hi.str());
      }
      st.ranges.push_back(r);
    }
  }

  // The text of an access for messages: T(2*h + kh, w) at LINE:COL.
  std::string accessText(const Access& a) const {
    std::string text = prog_.tensors[a.tensor].name + "(";
    for (size_t q = 0; q < a.subscripts.size(); ++q) text += (q ? ", " : "") + a.subscripts[q].str();
    return text + ") at " + std::to_string(a.loc.line) + ":" + std::to_string(a.loc.col);
  }

  // The statement's accesses that bound its indices: its reads, and its write when the
  // tensor's shape is known.
  // With `guarded` unset, reads under a condition on v are left out: the condition
  // keeps them in bounds (the last bag's `i + 1 == N ? total : offsets(i + 1)` must not
  // end i at N - 1). They bound v only where nothing else does.
  std::vector<const Access*> boundingAccesses(const Statement& st, const StmtDecl& d, const std::string& v,
                                              bool guarded) const {
    std::vector<const Access*> out;
    if (shaped_.count(d.lhs)) out.push_back(&st.write);
    for (auto& a : st.reads)
      if (guarded || std::none_of(a.guards.begin(), a.guards.end(),
                                  [&](const Guard& g) { return g.expr.coefficient(v) != 0; }))
        out.push_back(&a);
    return out;
  }

  // Index k's range from a where clause or from subscripts `+-v + sizes`; none when
  // every subscript of v mixes in other indices or scales it.
  std::optional<Range> rangeOf(const Statement& st, const StmtDecl& d, size_t k, const std::set<std::string>& none) {
    const std::string& v = st.dims[k];
    const WhereRange* w = nullptr;
    for (auto& r : d.where)
      if (r.index == v) {
        if (w) throw SourceError(r.loc, "conflicting ranges: index '" + v + "' has two where clauses");
        w = &r;
      }
    if (w) {
      Range r{toAffine(*w->lo, none), toAffine(*w->hi, none), kWhereOrigin};
      if (r.lo.div == 1 && r.hi.div == 1) {
        Affine len = r.hi - r.lo;
        if (len.isConstant() && len.constant < 1)
          throw SourceError(w->loc, "empty range " + r.lo.str() + ":" + r.hi.str() + " for index '" + v + "'");
      }
      return r;
    }
    std::vector<Bound> bounds;
    auto bound = [&](const Access& a, const Affine& extent, int64_t c, const Affine& rest) {
      if ((c != 1 && c != -1) || rest.dependsOnAny(st.dims)) return;  // compoundRange's case
      Range r = c == 1 ? Range{rest.scaled(-1), extent - rest, ""}
                       : Range{rest - extent + Affine::constantOf(1), rest + Affine::constantOf(1), ""};
      r.origin = accessText(a);
      bounds.push_back({r, a.loc, prog_.tensors[a.tensor].name});
    };
    for (bool guarded : {false, true})
      if (bounds.empty()) forEachSubscriptOf(st, d, v, true, guarded, bound);
    if (bounds.empty()) return std::nullopt;
    return intersect(v, bounds);
  }

  // Calls f(access, extent, c, rest) for each subscript c * v + rest (c != 0) of the
  // accesses that bound the statement's indices. An extent that is a quotient (a strided
  // convolution's output, (H - KH) / 2 + 1) bounds only where `quotients` is set: a
  // plain index over it, whose range is the quotient shifted by an integer.
  template <typename F>
  void forEachSubscriptOf(const Statement& st, const StmtDecl& d, const std::string& v, bool quotients, bool guarded,
                          F f) {
    for (const Access* ap : boundingAccesses(st, d, v, guarded)) {
      const Tensor& T = prog_.tensors[ap->tensor];
      if (T.shape.size() != ap->subscripts.size()) continue;
      for (size_t p = 0; p < ap->subscripts.size(); ++p) {
        const int64_t c = ap->subscripts[p].coefficient(v);
        if (c == 0 || (T.shape[p].div != 1 && !quotients)) continue;
        f(*ap, T.shape[p], c, ap->subscripts[p] - Affine::var(v).scaled(c));
      }
    }
  }

  // Index k's range from subscripts c * v + rest, where rest's other indices all have
  // ranges: c * v + rest stays in [0, extent) for every value of rest.
  std::optional<Range> compoundRange(const Statement& st, const StmtDecl& d, size_t k,
                                     const std::vector<std::optional<Range>>& known) {
    const std::string& v = st.dims[k];
    std::vector<Bound> bounds;
    auto bound = [&](const Access& a, const Affine& extent, int64_t c, const Affine& rest) {
      // The least and the greatest value of rest over the other indices' ranges.
      Affine lo = Affine::constantOf(rest.constant), hi = lo;
      for (auto& [n, a2] : rest.coef) {
        auto at = std::find(st.dims.begin(), st.dims.end(), n);
        if (at == st.dims.end()) {  // a size
          lo = lo + Affine::var(n).scaled(a2);
          hi = hi + Affine::var(n).scaled(a2);
          continue;
        }
        const std::optional<Range>& r = known[size_t(at - st.dims.begin())];
        if (!r || r->lo.div != 1 || r->hi.div != 1) return;
        Affine last = r->hi - Affine::constantOf(1);
        lo = lo + (a2 > 0 ? r->lo : last).scaled(a2);
        hi = hi + (a2 > 0 ? last : r->lo).scaled(a2);
      }
      const Affine top = extent - Affine::constantOf(1);
      Range r;
      if (c > 0) {  // 0 <= c*v + lo, c*v + hi <= top
        r.lo = (lo.scaled(-1) + Affine::constantOf(c - 1)).floorDiv(c);  // ceil(-lo / c)
        r.hi = (top - hi + Affine::constantOf(c)).floorDiv(c);           // floor((top - hi) / c) + 1
      } else {      // c = -m: 0 <= hi - m*v, lo - m*v <= top
        const int64_t m = -c;
        r.lo = (lo - top + Affine::constantOf(m - 1)).floorDiv(m);       // ceil((lo - top) / m)
        r.hi = (hi + Affine::constantOf(m)).floorDiv(m);                 // floor(hi / m) + 1
      }
      r.origin = accessText(a);
      bounds.push_back({r, a.loc, prog_.tensors[a.tensor].name});
    };
    for (bool guarded : {false, true})
      if (bounds.empty()) forEachSubscriptOf(st, d, v, false, guarded, bound);
    if (bounds.empty()) return std::nullopt;
    return intersect(v, bounds);
  }

  // The tightest of several bounds on one index; bounds whose ends differ by more than
  // a constant conflict (the user says which with a where clause).
  Range intersect(const std::string& v, const std::vector<Bound>& bounds) {
    Range r = bounds[0].range;
    for (size_t b = 1; b < bounds.size(); ++b) {
      const Range& o = bounds[b].range;
      if (o.lo == r.lo && o.hi == r.hi) continue;
      auto conflict = [&] {
        return SourceError(bounds[b].loc, "conflicting ranges for index '" + v + "': " + r.lo.str() + ":" + r.hi.str() +
                                              " (from " + bounds[0].from + ") and " + o.lo.str() + ":" + o.hi.str() +
                                              " (from " + bounds[b].from + "); add a where clause");
      };
      if (r.lo.div != 1 || r.hi.div != 1 || o.lo.div != 1 || o.hi.div != 1) {
        // Quotients compare only at equal divisors and numerators apart by a constant.
        auto cmp = [&](const Affine& x, const Affine& y) -> std::optional<int64_t> {
          if (x.div != y.div) return std::nullopt;
          Affine nx = x, ny = y;
          nx.div = ny.div = 1;
          Affine dd = nx - ny;
          if (!dd.isConstant()) return std::nullopt;
          return dd.constant;
        };
        auto dl = cmp(o.lo, r.lo), dh = cmp(o.hi, r.hi);
        if (!dl || !dh) throw conflict();
        if (*dl > 0) r.lo = o.lo;
        if (*dh < 0) r.hi = o.hi;
        if (*dl > 0 || *dh < 0) r.origin += " and " + o.origin;
        continue;
      }
      Affine dlo = o.lo - r.lo, dhi = o.hi - r.hi;
      if (!dlo.isConstant() || !dhi.isConstant()) throw conflict();
      if (dlo.constant > 0) r.lo = o.lo;
      if (dhi.constant < 0) r.hi = o.hi;
      if (dlo.constant > 0 || dhi.constant < 0) r.origin += " and " + o.origin;
    }
    return r;
  }
};

}  // namespace

Program analyze(const DefDecl& def) { return Sema(def).run(); }

ExprPtr cloneExpr(const Expr& e) {
  auto c = std::make_unique<Expr>(e.kind, e.loc);
  c->number = e.number;
  c->name = e.name;
  c->ref = e.ref;
  c->fn = e.fn;
  c->height = e.height;
  for (auto& a : e.args) c->args.push_back(cloneExpr(*a));
  return c;
}

Statement cloneStatement(const Statement& st) {
  Statement c;
  c.id = st.id;
  c.loc = st.loc;
  c.tensorName = st.tensorName;
  c.op = st.op;
  c.init = st.init;
  c.dims = st.dims;
  c.numParallel = st.numParallel;
  c.ranges = st.ranges;
  c.write = st.write;
  c.reads = st.reads;
  c.rhs = cloneExpr(*st.rhs);
  c.name = st.name;
  return c;
}

}  // namespace polyfuse

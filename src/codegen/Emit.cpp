#include "codegen/Emit.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "codegen/Lower.h"
#include "codegen/Names.h"
#include "codegen/Schedule.h"
#include "polyir/Reduction.h"
#include "polyir/Rescale.h"
#include "fusion/PlanOutput.h"
#include "polyir/Diagnostic.h"
#include "polyir/Printer.h"

namespace polyfuse {

std::string referenceName(const Program& prog) { return "pf_" + cName(prog.name) + "_reference"; }

std::string realType(const Program& prog) { return elemTypeName(prog.computeType()); }

// Tensors read as values through a cast to the computing type (Spelling::castReads):
// integers, and floats in a double program, whose element would otherwise pick the
// float overload of a builtin (OpenCL's rsqrt, CUDA's) where an on-chip copy of the same
// value, held in double, picks the double one.
static std::vector<bool> widenedReads(const Program& prog) {
  std::vector<bool> v;
  const bool f64 = prog.computeType() == ElemType::F64;
  for (const Tensor& t : prog.tensors) v.push_back(isInteger(t.type) || (f64 && t.type == ElemType::F32));
  return v;
}

std::string cTypeName(ElemType t, Dialect d) {
  switch (t) {
    case ElemType::F32: return "float";
    case ElemType::F64: return "double";
    case ElemType::I8: return d == Dialect::OpenCL ? "char" : "signed char";
    case ElemType::I16: return "short";
    case ElemType::I32: return "int";
    case ElemType::I64: return d == Dialect::OpenCL ? "long" : "long long";
    case ElemType::Bool: return d == Dialect::OpenCL ? "uchar" : "unsigned char";
    // OpenCL without cl_khr_fp16 (PoCL's CPU device) has half only as storage, read and
    // written by vload_half/vstore_half; bfloat16 it has not at all: its 16 bits.
    case ElemType::Half: return d == Dialect::OpenCL ? "half" : "__half";
    case ElemType::BF16: return d == Dialect::OpenCL ? "ushort" : "__nv_bfloat16";
  }
  return "?";
}

double verificationTolerance(const Program& prog, const Partition& p) {
  const Sizes& sizes = p.sizes;
  double terms = 1;  // the most terms one value of a statement sums
  for (auto& st : prog.statements) {
    double t = 1;
    for (size_t d = size_t(st.numParallel); d < st.ranges.size(); ++d)
      t *= double(std::max<int64_t>(1, st.ranges[d].hi.eval(sizes) - st.ranges[d].lo.eval(sizes)));
    terms = std::max(terms, t);
  }
  double base = prog.computeType() == ElemType::F32 ? 1e-4 : 1e-10;
  // A value stored narrower than the program computes may round the other way when
  // backends sum in another order: up to an ulp of the output's scale (2^-23 for a float
  // in a double program, 2^-10 for half, 2^-7 for bfloat16).
  for (const Tensor& t : prog.tensors) {
    if (t.type == ElemType::F32 && prog.computeType() == ElemType::F64) base = std::max(base, 2.4e-7);
    if (t.type == ElemType::Half) base = std::max(base, 2e-3);
    if (t.type == ElemType::BF16) base = std::max(base, 1.6e-2);
  }
  // TF32 operands (a tensor-core contraction): 2^-11 relative a rounding, 2^-10 a product;
  // the scaled error of a sum grows as its terms' root, like the bound below.
  // A streamed tile's scores on TF32 operands err by as much in their exponent, whose
  // rows' maximum keeps it small, and its weighted sum as a contraction does.
  for (const KernelPlan& k : p.kernels) {
    for (const ContractionTile& c : k.contractions)
      if (c.tensorCores()) base = std::max(base, 2e-3);
    if (k.streamedTile() && (k.streamTile.mmaScores() || k.streamTile.mmaSums())) base = std::max(base, 2e-3);
  }
  return base * std::max(1.0, std::sqrt(terms / 1024.0));
}

namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether generated `code` names the identifier `name` (not merely a longer one).
bool readsName(const std::string& code, const std::string& name) {
  for (size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1))
    if ((at == 0 || !isIdentChar(code[at - 1])) && (at + name.size() == code.size() || !isIdentChar(code[at + name.size()])))
      return true;
  return false;
}

// `code` less its declarations of the index `var` ("const int var = ...;") when nothing
// else in it reads `var`: an index is pure arithmetic, dropped with no effect. A line
// that held nothing but such declarations goes with them.
std::string withoutUnreadIndex(const std::string& code, const std::string& var, const std::string& index) {
  const std::string decl = "const " + index + " " + var + " = ";
  std::string kept;
  bool dropped = false;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);) {
    std::string rest;
    size_t from = 0, end = 0;
    for (size_t at = line.find(decl); at != std::string::npos && (end = line.find(';', at)) != std::string::npos;
         at = line.find(decl, from)) {
      if (at > 0 && isIdentChar(line[at - 1])) {  // a longer name ending in "const"
        rest += line.substr(from, at + 1 - from);
        from = at + 1;
        continue;
      }
      rest += line.substr(from, at - from);
      from = end + 1 < line.size() && line[end + 1] == ' ' ? end + 2 : end + 1;
      dropped = true;
    }
    rest += line.substr(from);
    if (from == 0 || rest.find_first_not_of(' ') != std::string::npos) kept += rest + "\n";
  }
  return dropped && !readsName(kept, var) ? kept : code;
}

// `code` less each line `const <index> name = ...;` whose name nothing after it in its
// block reads (a block ends at the first line indented less than the declaration).
std::string withoutUnreadDeclarations(const std::string& code, const std::string& index) {
  std::vector<std::string> lines;
  std::istringstream in(code);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::string decl = "const " + index + " ";
  std::string out;
  for (size_t l = 0; l < lines.size(); ++l) {
    const std::string& line = lines[l];
    const size_t indent = line.find_first_not_of(' ');
    // One declaration: no comma outside parentheses.
    int depth = 0;
    bool several = false;
    for (char c : line) {
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      several |= c == ',' && depth == 0;
    }
    const bool declares = indent != std::string::npos && line.compare(indent, decl.size(), decl) == 0 && !several &&
                          line.back() == ';';
    if (declares) {
      const size_t nameAt = indent + decl.size(), nameEnd = line.find(' ', nameAt);
      const std::string name = line.substr(nameAt, nameEnd - nameAt);
      bool read = false;
      for (size_t m = l + 1; m < lines.size() && !read; ++m) {
        const size_t i = lines[m].find_first_not_of(' ');
        if (i != std::string::npos && i < indent) break;
        read = readsName(lines[m], name);
      }
      if (!read) continue;
    }
    out += line + "\n";
  }
  return out;
}

struct Spelling {
  Dialect d;
  bool f32;
  std::string real;
  // The type of indices and offsets: int while every tensor and every statement's
  // points stay below 2^31, else a 64-bit type (wide offsets, e.g. a 16384 x 151936
  // softmax); 32-bit arithmetic is what GPUs run fastest.
  std::string index = "int";
  // Set while printing one OpenCL vector expression (float4, double2): every scalar
  // operand is cast to it, as OpenCL's builtins want matching vector arguments.
  std::string vector;
  // The C reference of an f32 program computes in float, as the program does, on
  // arrays of doubles and with C's double math library: each read, scalar parameter and
  // library call is narrowed to float (float arithmetic then rounds each operation).
  bool narrowLeaves = false;
  // Per tensor: read as a value through a cast to the computing type (an integer input,
  // a mask), so that C's integer division and overflow never apply to it.
  std::vector<bool> castReads;
  // `--numerics strict` (Partition::numerics): no multiply may become part of an FMA.
  // OpenCL says so once per source (FP_CONTRACT OFF); CUDA has no such pragma, and its
  // multiplies are spelled __fmul_rn, which nvcc never contracts, whatever its flags.
  bool strict = false;
  // Whether a product is spelled as a call nvcc never contracts (strict CUDA), not `*`.
  bool uncontracted() const { return strict && d == Dialect::Cuda && vector.empty(); }
  std::string uncontractedProduct(const std::string& a, const std::string& b) const {
    return std::string(f32 ? "__fmul_rn(" : "__dmul_rn(") + a + ", " + b + ")";
  }
  int realBytes() const { return f32 ? 4 : 8; }
  std::string tid() const { return d == Dialect::Cuda ? "threadIdx.x" : "get_local_id(0)"; }
  std::string bid() const { return d == Dialect::Cuda ? "blockIdx.x" : "get_group_id(0)"; }
  std::string barrier() const {
    return d == Dialect::Cuda ? "__syncthreads();" : "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);";
  }
  std::string fn(const std::string& base) const {
    // polyfuse's own helpers (pf_maximum..) are defined per source; the C reference's
    // take other names, as the CUDA harness compiles it beside the kernels.
    if (base.compare(0, 3, "pf_") == 0) return d == Dialect::C ? "pfc_" + base.substr(3) : base;
    // CUDA has float overloads under f-suffixed names; OpenCL's builtins are generic.
    return d == Dialect::Cuda && f32 ? base + "f" : base;
  }
  std::string literal(const std::string& text) const {
    std::string t = text;
    if (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
    if (t.find_first_of(".eE") == std::string::npos) t += ".0";
    if (t.front() == '.') t = "0" + t;
    return f32 ? t + "f" : t;
  }
};

// The identity and the combine of a statement operator, spelled for the dialect, from
// the one table of operators (polyir/Reduction.h).
std::string identity(ReduceOp op, const Spelling& sp) {
  const ReduceKind& k = reduceKind(op);
  return std::isdigit(static_cast<unsigned char>(k.identityC[0])) ? sp.literal(k.identityC) : k.identityC;
}

std::string combine(ReduceOp op, const std::string& a, const std::string& b, const Spelling& sp) {
  const ReduceKind& k = reduceKind(op);
  if (k.infix && std::string(k.infix) == "*" && sp.uncontracted()) return sp.uncontractedProduct(a, b);
  if (k.infix) return a + " " + k.infix + " " + b;
  if (k.function) return sp.fn(k.function) + "(" + a + ", " + b + ")";
  return b;  // assignment
}

// The intrinsics no C builtin spells: each source defines the ones it uses once, as
// pf_<name> (mathHelpers), the same in CUDA, OpenCL and the C reference.
bool isHelper(Intrinsic f) {
  switch (f) {
    case Intrinsic::Maximum: case Intrinsic::Minimum: case Intrinsic::RoundF16: case Intrinsic::RoundBF16: case Intrinsic::RoundFloat:
    case Intrinsic::Wrap: case Intrinsic::Zext: case Intrinsic::IDiv: case Intrinsic::IRem: case Intrinsic::FloorDiv:
    case Intrinsic::CeilDiv: case Intrinsic::BitAnd: case Intrinsic::BitOr: case Intrinsic::BitXor: case Intrinsic::Shl:
    case Intrinsic::AShr: case Intrinsic::Clz:
      return true;
    default: return false;
  }
}
// The intrinsics polyfuse spells itself rather than a C library call: the helpers and the
// float cast. They take scalars and answer in the computing type.
bool spelledByPolyfuse(Intrinsic f) { return isHelper(f) || f == Intrinsic::RoundF32; }
// An expression OpenCL cannot evaluate as one vector (the helpers and casts take scalars).
bool scalarOnly(const Expr& e) {
  if (e.kind == ExprKind::Call && spelledByPolyfuse(e.fn)) return true;
  for (auto& a : e.args)
    if (scalarOnly(*a)) return true;
  return false;
}
std::string helperName(Intrinsic f) { return std::string("pf_") + intrinsicName(f); }

bool isNarrowRounding(Intrinsic f) { return f == Intrinsic::RoundF16 || f == Intrinsic::RoundBF16; }

// `v` rounded to 16-bit float type `t`: the binary format's rounding with its parameters.
std::string narrowRounded(ElemType t, const std::string& v, const Spelling& sp) {
  const bool half = t == ElemType::Half;
  return sp.fn(helperName(Intrinsic::RoundFloat)) + "(" + v + (half ? ", 10, -24, " : ", 7, -133, ") +
         sp.literal(half ? "65504.0" : "3.3895313892515355e38") + ", 0)";
}

// The helpers a program's statements call: its intrinsics, and the NaN-propagating
// max/min that its max= and min= statements combine with.
void usedHelpers(const Expr& e, std::set<Intrinsic>& out) {
  if (e.kind == ExprKind::Call && isHelper(e.fn)) out.insert(isNarrowRounding(e.fn) ? Intrinsic::RoundFloat : e.fn);
  for (auto& a : e.args) usedHelpers(*a, out);
}
std::set<Intrinsic> usedHelpers(const Program& prog) {
  std::set<Intrinsic> out;
  // A 16-bit float tensor kept on chip holds its rounded value, as memory would.
  for (auto& t : prog.tensors) {
    if (isNarrowFloat(t.type)) out.insert(Intrinsic::RoundFloat);
  }
  for (auto& st : prog.statements) {
    usedHelpers(*st.rhs, out);
    if (st.op == ReduceOp::Max) out.insert(Intrinsic::Maximum);
    if (st.op == ReduceOp::Min) out.insert(Intrinsic::Minimum);
  }
  return out;
}

// Definitions of the helpers in `used`. Integers travel as the computing type (a value
// of an MLIR body is a float or an index); the integer ops convert to 64 bits and back.
std::string mathHelpers(const Spelling& sp, const std::set<Intrinsic>& used) {
  std::ostringstream os;
  const std::string R = sp.real, L = cTypeName(ElemType::I64, sp.d), U = sp.d == Dialect::OpenCL ? "ulong" : "unsigned long long";
  const std::string head = sp.d == Dialect::Cuda ? "__device__ __forceinline__ " : sp.d == Dialect::C ? "static " : "";
  auto def = [&](Intrinsic f, const std::string& params, const std::string& body) {
    if (used.count(f)) os << head << R << " " << sp.fn(helperName(f)) << "(" << params << ") {\n" << body << "}\n";
  };
  auto f = [&](const char* base) { return sp.fn(base); };
  // IEEE 754-2019 maximum/minimum (MLIR's maximumf): NaN in, NaN out; -0 below +0.
  def(Intrinsic::Maximum, R + " a, " + R + " b",
      "  if (a != a || b != b) return a + b;\n  if (a == b) return signbit(a) ? b : a;\n  return a > b ? a : b;\n");
  def(Intrinsic::Minimum, R + " a, " + R + " b",
      "  if (a != a || b != b) return a + b;\n  if (a == b) return signbit(a) ? a : b;\n  return a < b ? a : b;\n");
  // Round to nearest even in a binary format of `fraction` bits (half's 10, bfloat16's 7,
  // MLIR's f8 kinds'), subnormals at a fixed quantum of 2^minq: every step is exact but
  // rint. Past the largest finite value, infinity, or NaN where the format has none.
  def(Intrinsic::RoundFloat, R + " x, int fraction, int minq, " + R + " maxf, int nan",
      "  if (x != x) return x;\n"
      "  if (" + f("fabs") + "(x) == INFINITY) return nan ? NAN : x;\n"
      "  int e;\n  " + f("frexp") + "(x, &e);\n  const int q = e - 1 - fraction < minq ? minq : e - 1 - fraction;\n"
      "  const " + R + " r = " + f("ldexp") + "(" + f("rint") + "(" + f("ldexp") + "(x, -q)), q);\n"
      "  if (" + f("fabs") + "(r) <= maxf) return r;\n  return nan ? NAN : (r < 0 ? -INFINITY : INFINITY);\n");
  def(Intrinsic::Wrap, R + " x, int n",
      "  " + L + " v = (" + L + ")x;\n  if (n < 64) { const " + L + " m = (" + L + ")1 << n; v &= m - 1; if (v >= m / 2) v -= m; }\n"
      "  return (" + R + ")v;\n");
  def(Intrinsic::Zext, R + " x, int n",
      "  const " + L + " v = (" + L + ")x;\n  if (n >= 64) return (" + R + ")(" + U + ")v;\n"
      "  return (" + R + ")(v & (((" + L + ")1 << n) - 1));\n");
  // Division by zero is undefined in MLIR; here it gives 0, as does the interpreter.
  const std::string ab = "  const " + L + " x = (" + L + ")a, y = (" + L + ")b;\n  if (y == 0) return 0;\n";
  def(Intrinsic::IDiv, R + " a, " + R + " b", ab + "  return (" + R + ")(y == -1 ? -x : x / y);\n");
  def(Intrinsic::IRem, R + " a, " + R + " b", ab + "  return (" + R + ")(y == -1 ? 0 : x % y);\n");
  def(Intrinsic::FloorDiv, R + " a, " + R + " b",
      ab + "  if (y == -1) return (" + R + ")(-x);\n  " + L + " q = x / y;\n"
      "  if (x % y != 0 && (x < 0) != (y < 0)) q -= 1;\n  return (" + R + ")q;\n");
  def(Intrinsic::CeilDiv, R + " a, " + R + " b",
      ab + "  if (y == -1) return (" + R + ")(-x);\n  " + L + " q = x / y;\n"
      "  if (x % y != 0 && (x < 0) == (y < 0)) q += 1;\n  return (" + R + ")q;\n");
  // On the 64-bit two's complement, as the interpreter computes them.
  const std::string xy = "  const " + L + " x = (" + L + ")a, y = (" + L + ")b;\n";
  def(Intrinsic::BitAnd, R + " a, " + R + " b", xy + "  return (" + R + ")(x & y);\n");
  def(Intrinsic::BitOr, R + " a, " + R + " b", xy + "  return (" + R + ")(x | y);\n");
  def(Intrinsic::BitXor, R + " a, " + R + " b", xy + "  return (" + R + ")(x ^ y);\n");
  def(Intrinsic::Shl, R + " a, " + R + " b",
      xy + "  return y < 0 || y >= 64 ? (" + R + ")0 : (" + R + ")(" + L + ")((" + U + ")x << y);\n");
  def(Intrinsic::AShr, R + " a, " + R + " b",
      xy + "  return y < 0 || y >= 64 ? (" + R + ")(x < 0 ? -1 : 0) : (" + R + ")(x >> y);\n");
  def(Intrinsic::Clz, R + " a, " + R + " b",
      xy + "  const int n = y < 1 ? 1 : y > 64 ? 64 : (int)y;\n"
      "  const " + U + " v = n >= 64 ? (" + U + ")x : (" + U + ")x & (((" + U + ")1 << n) - 1);\n"
      "  int z = 0;\n  for (int i = n - 1; i >= 0 && !((v >> i) & 1); --i) ++z;\n  return (" + R + ")z;\n");
  return os.str();
}

// A C expression and how tightly it binds: operands are parenthesized only where C's
// precedence and left associativity would regroup them, so a flat chain of 1,000
// additions stays flat (one pair of parentheses per level hit clang's bracket limit).
struct CExpr {
  std::string text;
  int prec;  // 0: comparisons, 1: + -, 2: * /, 3: primary (names, calls, casts, parenthesized)
};

// `reciprocal`: divisions whose divisor the caller computed once as 1 / divisor (named
// here), printed as a multiplication by it.
using Reciprocals = std::map<const Expr*, std::string>;

// A tensor element read as a value. Out of line: its string temporaries would otherwise
// enlarge the frame of each level of valueExpr's recursion (a flat sum of 1,000 terms
// recurses 1,000 deep, and AddressSanitizer's frames are large).
[[gnu::noinline]] std::string readText(const Access& a, const Spelling& sp,
                                       const std::function<std::string(const Access&)>& access) {
  // A vector expression reads an integer tensor gathered into a vector of the computing
  // type already.
  const bool cast = sp.vector.empty() && size_t(a.tensor) < sp.castReads.size() && sp.castReads[size_t(a.tensor)];
  return cast ? "((" + sp.real + ")" + access(a) + ")" : access(a);
}

template <class Sub, class Primary, class Wrap>
CExpr callExpr(const Expr& e, const Spelling& sp, const Sub& sub, const Primary& primary, const Wrap& wrap);

CExpr valueExpr(const Statement& st, const Expr& e, const Spelling& sp, const Sizes& sizes,
                const std::function<std::string(const Access&)>& access, const Reciprocals* reciprocal = nullptr) {
  auto sub = [&](int i) { return valueExpr(st, *e.args[i], sp, sizes, access, reciprocal); };
  auto wrap = [](const CExpr& c, int need) { return c.prec >= need ? c.text : "(" + c.text + ")"; };
  // Left operands of the same precedence need no parentheses; right operands do, so
  // that a - (b - c) and a + (b + c) keep their order of evaluation.
  auto binary = [&](const char* op, int prec) {
    return CExpr{wrap(sub(0), prec) + " " + op + " " + wrap(sub(1), prec + 1), prec};
  };
  auto primary = [](std::string t) { return CExpr{std::move(t), 3}; };
  auto scalar = [&](std::string t) { return primary(sp.vector.empty() ? t : "((" + sp.vector + ")(" + t + "))"); };
  auto narrow = [&](CExpr c) { return sp.narrowLeaves ? primary("((float)" + wrap(c, 3) + ")") : c; };
  // Out of line, as the other cases' lambdas are: temporaries here would enlarge every
  // level's frame.
  auto product = [&]() __attribute__((noinline)) {
    if (sp.uncontracted()) return primary(sp.uncontractedProduct(sub(0).text, sub(1).text));
    return binary("*", 2);
  };
  auto scaled = [&]() __attribute__((noinline)) { return CExpr{wrap(sub(0), 2) + " * " + reciprocal->at(&e), 2}; };
  switch (e.kind) {
    case ExprKind::Number:
      if (std::isinf(e.number)) return scalar("INFINITY");  // C99's, CUDA's and OpenCL C's spelling
      return scalar(sp.literal(e.name.empty() ? std::to_string(e.number) : e.name));
    case ExprKind::Size: return scalar(sp.literal(std::to_string(sizes.at(e.name))));
    case ExprKind::Scalar: return narrow(scalar(cName(e.name)));
    case ExprKind::Index: return scalar("(" + sp.real + ")" + cName(e.name));
    case ExprKind::Access: return narrow(primary(readText(st.reads[e.ref], sp, access)));
    case ExprKind::Neg: return primary("(-" + wrap(sub(0), 3) + ")");
    case ExprKind::Add: return binary("+", 1);
    case ExprKind::Sub: return binary("-", 1);
    case ExprKind::Mul: return product();
    case ExprKind::Div:
      if (reciprocal && reciprocal->count(&e)) return scaled();
      return binary("/", 2);
    // Comparisons bind looser than arithmetic; they stand only as a conditional's test.
    case ExprKind::Lt: return binary("<", 0);
    case ExprKind::Le: return binary("<=", 0);
    case ExprKind::Gt: return binary(">", 0);
    case ExprKind::Ge: return binary(">=", 0);
    case ExprKind::Eq: return binary("==", 0);
    case ExprKind::Ne: return binary("!=", 0);
    case ExprKind::Select:
      return primary("(" + sub(0).text + " ? " + sub(1).text + " : " + sub(2).text + ")");
    case ExprKind::Call: {
      // C's library answers in double: narrowed to float where the reference is (the
      // helpers take and return the computing type already).
      CExpr c = callExpr(e, sp, sub, primary, wrap);
      return spelledByPolyfuse(e.fn) ? c : narrow(c);
    }
    default: throw InternalError("unresolved expression in code generation");
  }
}

// A call of an intrinsic, as valueExpr prints it.
template <class Sub, class Primary, class Wrap>
CExpr callExpr(const Expr& e, const Spelling& sp, const Sub& sub, const Primary& primary, const Wrap& wrap) {
  switch (e.fn) {
    case Intrinsic::Sigmoid:
      return primary("(" + sp.literal("1") + " / (" + sp.literal("1") + " + " + sp.fn("exp") + "(-" + wrap(sub(0), 3) +
                     ")))");
    case Intrinsic::Rsqrt:
      // C's math library has no rsqrt; CUDA and OpenCL do.
      if (sp.d == Dialect::C) return primary("(1.0 / sqrt(" + sub(0).text + "))");
      return primary(sp.fn("rsqrt") + "(" + sub(0).text + ")");
    case Intrinsic::Fmax: case Intrinsic::Fmin: case Intrinsic::Pow: case Intrinsic::Atan2: case Intrinsic::Copysign:
    case Intrinsic::Fmod:
      return primary(sp.fn(intrinsicName(e.fn)) + "(" + sub(0).text + ", " + sub(1).text + ")");
    case Intrinsic::Fma:
      return primary(sp.fn("fma") + "(" + sub(0).text + ", " + sub(1).text + ", " + sub(2).text + ")");
    case Intrinsic::RoundF32:
      // Rounding to float is a no-op where the program computes in float.
      if (sp.f32) return sub(0);
      return primary("((" + sp.real + ")(float)" + wrap(sub(0), 3) + ")");
    case Intrinsic::Wrap: case Intrinsic::Zext:  // the width is a literal
      return primary(sp.fn(helperName(e.fn)) + "(" + sub(0).text + ", " + std::to_string(int(e.args[1]->number)) + ")");
    case Intrinsic::RoundF16: case Intrinsic::RoundBF16:
      return primary(narrowRounded(e.fn == Intrinsic::RoundF16 ? ElemType::Half : ElemType::BF16, sub(0).text, sp));
    case Intrinsic::RoundFloat: {  // the format's parameters are literals: integers but the largest value
      auto literal = [&](int k) { return literalValue(*e.args[size_t(k)]).value_or(0); };
      return primary(sp.fn(helperName(e.fn)) + "(" + sub(0).text + ", " + std::to_string(int(literal(1))) + ", " +
                     std::to_string(int(literal(2))) + ", " + sub(3).text + ", " + std::to_string(int(literal(4))) + ")");
    }
    default:
      if (isHelper(e.fn)) {
        std::string args;
        for (size_t i = 0; i < e.args.size(); ++i) args += (i ? ", " : "") + sub(int(i)).text;
        return primary(sp.fn(helperName(e.fn)) + "(" + args + ")");
      }
      return primary(sp.fn(intrinsicName(e.fn)) + "(" + sub(0).text + ")");
  }
}

// The right-hand side of a statement in C syntax, parenthesized unless primary, so that
// callers may place it beside any operator; `access` spells tensor elements.
std::string valueText(const Statement& st, const Expr& e, const Spelling& sp, const Sizes& sizes,
                      const std::function<std::string(const Access&)>& access, const Reciprocals* reciprocal = nullptr) {
  CExpr c = valueExpr(st, e, sp, sizes, access, reciprocal);
  return c.prec >= 3 ? c.text : "(" + c.text + ")";
}

class KernelPrinter {
 public:
  KernelPrinter(const SizedProgram& at, const KernelIR& k, const Spelling& sp) : at_(at), prog_(at.program()), k_(k), sp_(sp) {}

  std::string print() {
    const KernelPlan& kp = k_.plan;
    std::ostringstream os;
    std::string stmts;
    for (int s : kp.statements) stmts += (stmts.empty() ? "" : " ") + prog_.statements[s].label();
    os << "// Kernel K" << k_.id << ": " << stmts << "\n";
    for (int s : kp.statements)
      os << "//   " << prog_.statements[s].label() << " (line " << prog_.statements[s].loc.line
         << "): " << statementText(prog_, prog_.statements[s]) << "\n";
    // (Barriers: those between statements in the code, and all a block executes, a tiled
    // contraction's steps' and block reductions' included.)
    os << fmt::format("// grid {} tile {}: {} block(s) of {} threads, {} barrier(s) between statements, {} a block in all; "
                      "modeled {:.3f} us\n",
                      gridText(prog_, kp), tileText(kp), kp.blocks, kp.threadsPerBlock, k_.barriers, k_.barriersPerBlock,
                      kp.modeledUs);
    if (!kp.onChip.empty() || !kp.cachedInputs.empty()) {
      std::string names, cached;
      for (auto& a : kp.onChip) names += (names.empty() ? "" : ", ") + prog_.tensors[a.tensor].name;
      for (auto& a : kp.cachedInputs) cached += (cached.empty() ? "" : ", ") + prog_.tensors[a.tensor].name;
      os << "// on chip: " << names << (cached.empty() ? "" : (names.empty() ? "" : "; ") + cached + " cached after its first pass")
         << "\n";
      std::string registers, accumulators;
      for (auto* list : {&kp.onChip, &kp.cachedInputs})
        for (auto& a : *list)
          if (accumulatorOnly(a.tensor)) accumulators += (accumulators.empty() ? "" : ", ") + prog_.tensors[a.tensor].name;
          else if (a.inRegisters()) registers += (registers.empty() ? "" : ", ") + prog_.tensors[a.tensor].name;
      if (!accumulators.empty())
        os << "// in the tiled contraction's accumulators, in no memory: " << accumulators << "\n";
      if (!registers.empty())
        os << "// in registers: " << registers
           << (kp.registerSteps > 0 ? " (each thread's part of a row: " + std::to_string(kp.registerSteps) + " unrolled steps)" : "")
           << "; no thread reads another's\n";
    }
    if (sp_.d == Dialect::Cuda)
      // The plan's blocks per SM as the second bound: ptxas keeps registers within what
      // that occupancy allows, so the compiled kernel runs as the model priced it.
      os << "__global__ void __launch_bounds__(" << kp.threadsPerBlock
         << (kp.blocksPerSM > 0 ? ", " + std::to_string(kp.blocksPerSM) : std::string()) << ") " << k_.name << "(";
    else
      os << "__kernel __attribute__((reqd_work_group_size(" << kp.threadsPerBlock << ", 1, 1))) void " << k_.name << "(";
    std::vector<std::string> args;
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const Tensor& T = prog_.tensors[k_.params[i]];
      std::string ty = std::string(k_.paramWritten[i] ? "" : "const ") + cTypeName(T.type, sp_.d) + "*";
      args.push_back((sp_.d == Dialect::Cuda ? ty + " __restrict__ " : "__global " + ty + " restrict ") + cName(T.name));
    }
    if (kp.splitChunks > 1)
      args.push_back(sp_.d == Dialect::Cuda ? sp_.real + "* __restrict__ pf_partial" : "__global " + sp_.real + "* restrict pf_partial");
    for (auto& s : prog_.scalars) args.push_back("const " + sp_.real + " " + cName(s.name));
    for (size_t i = 0; i < args.size(); ++i) os << (i ? ",\n    " : "") << args[i];
    os << ") {\n";
    if (kp.streamedTile()) {
      std::ostringstream body;
      printStreamedTile(body);
      os << withoutUnreadDeclarations(body.str(), sp_.index) << "}\n";
      return os.str();
    }
    int64_t offset = 0;
    std::vector<OnChipArray> arrays = kp.onChip;
    arrays.insert(arrays.end(), kp.cachedInputs.begin(), kp.cachedInputs.end());
    for (auto& la : arrays) {
      const Tensor& T = prog_.tensors[la.tensor];
      if (accumulatorOnly(la.tensor)) continue;  // the tiled contraction's pf_acc
      if (la.inRegisters()) {
        // The thread's own elements: the compiler reuses registers by liveness itself.
        os << "  " << sp_.real << " " << registerName(T) << "[" << la.registerSlots << "];  // "
           << (la.rowDim() >= 0 ? "its " + std::to_string(la.registerSlots) + " elements of the row"
                                : std::string("the row's value, every thread's"))
           << ", in registers\n";
        continue;
      }
      if (la.reuses >= 0) continue;  // declared below, once its storage's owner is
      if (sp_.d == Dialect::Cuda) {
        if (offset == 0) os << "  extern __shared__ __align__(16) unsigned char pf_smem[];\n";
        os << "  " << sp_.real << "* " << localName(T) << " = (" << sp_.real << "*)(pf_smem + " << offset << ");  // "
           << la.elements() << " elements\n";
        offset += la.alignedBytes(sp_.f32 ? 4 : 8);
      } else {
        os << "  __local " << sp_.real << " " << localName(T) << "[" << la.elements() << "];\n";
      }
    }
    for (auto& la : arrays)
      if (la.reuses >= 0 && !la.inRegisters())
        os << "  " << (sp_.d == Dialect::Cuda ? "" : "__local ") << sp_.real << "* " << localName(prog_.tensors[la.tensor])
           << " = " << localName(prog_.tensors[kp.storageOf(la.tensor)]) << ";  // reuses "
           << prog_.tensors[la.reuses].name << "'s storage after its last read\n";
    // CUDA's warps reduce by shuffles; OpenCL's through local memory, 32 slots a row.
    if (kp.columnTile())
      os << "  " << (sp_.d == Dialect::Cuda ? "__shared__ __align__(16) " : "__local ") << sp_.real << " pf_red["
         << (sp_.d == Dialect::Cuda ? std::to_string(kp.columnScratchSlots()) +
                                          "];  // two halves, one column reduction after the other\n  int pf_red_half = 0;\n"
                                    : std::to_string(int64_t(kp.threadsPerBlock) * kp.columnLanes) + "];\n");
    else if (kp.usesBlockReduce() && !(kp.warpPerRow() && sp_.d == Dialect::Cuda))
      os << "  " << (sp_.d == Dialect::Cuda ? "__shared__ " : "__local ") << sp_.real << " pf_red["
         << (sp_.d == Dialect::Cuda ? "64];  // two halves, one block reduction after the other\n  int pf_red_half = 0;\n"
                                    : std::to_string(kp.threadsPerBlock) + "];\n");
    // The tiled contractions' staged slices, [tileP x kStep] or [kStep x tileQ] a read,
    // one buffer that the contractions, one after another, share.
    // (Past two stages, CUDA's are dynamic, after the arrays: the plan's stagedSharedBytes.)
    if (!kp.contractions.empty() && sp_.d == Dialect::Cuda && kp.stagedSharedBytes > 0) {
      if (offset == 0) os << "  extern __shared__ __align__(16) unsigned char pf_smem[];\n";
      os << "  " << sp_.real << "* pf_stage = (" << sp_.real << "*)(pf_smem + " << offset << ");  // the staged slices of a step, a buffer a stage ("
         << kp.stagedBytes(sp_.realBytes()) << " bytes)\n";
    } else if (!kp.contractions.empty()) {
      const int64_t reals = (kp.stagedBytes(sp_.realBytes()) + sp_.realBytes() - 1) / sp_.realBytes();
      os << "  " << (sp_.d == Dialect::Cuda ? "__shared__ __align__(16) " : "__local ") << sp_.real << " pf_stage[" << reals
         << "];  // the staged slices of a step, a buffer a stage\n";
    }
    // The plan's thread count, a compile-time constant (the launch bounds and the work-
    // group size enforce it): strides and trip counts fold.
    os << "  const int pf_tid = " << sp_.tid() << ", pf_nthreads = " << kp.threadsPerBlock << ";\n";
    printGridOrigins(os);
    if (kp.warpPerRow())
      os << "  const int pf_lane = pf_tid & 31, pf_warp = pf_tid >> 5;  // one row per warp\n";
    if (kp.columnTile())
      os << "  const int pf_col = pf_tid % " << kp.groupThreads() << ", pf_grp = pf_tid / " << kp.groupThreads() << ";  // "
         << (kp.columnLanes > 1 ? std::to_string(kp.columnLanes) + " columns" : std::string("a column"))
         << " per thread of each of the " << kp.reduceGroups() << " groups\n";
    os << "  (void)pf_tid; (void)pf_nthreads;\n";
    for (auto& s : k_.stmts) {
      if (k_.plan.tiledWith(s.member) && !k_.plan.contractionOf(s.member)) {
        const Statement& st = prog_.statements[size_t(s.stmt)];
        os << "  // " << st.label() << " (line " << st.loc.line << "): " << statementText(prog_, st)
           << ": applied in registers as each output of the tiled contraction above leaves its micro-tile\n";
        continue;
      }
      printStatement(os, s);
      // A warp-per-row kernel's statements meet within each warp: every dependence stays
      // in a row (at one grid point). OpenCL has no warp barrier; its barrier is uniform here.
      if (s.barrierAfter)
        os << "  " << (kp.warpPerRow() && sp_.d == Dialect::Cuda ? "__syncwarp();" : sp_.barrier()) << "\n";
    }
    os << "}\n";
    return os.str();
  }

 private:
  const SizedProgram& at_;
  const Program& prog_;
  const KernelIR& k_;
  const Spelling& sp_;

  std::string gridDimName(int t) const {
    const KernelPlan& kp = k_.plan;
    return prog_.statements[kp.statements.front()].dims[kp.gridDims.front()[t]];
  }
  static std::string localName(const Tensor& T) { return "pf_sh_" + cName(T.name); }
  static std::string registerName(const Tensor& T) { return "pf_rg_" + cName(T.name); }
  // While printing a step of a member that runs a row in registers: the register slot of
  // the element the step touches (a compile-time index once the steps are unrolled).
  mutable std::string slot_;
  // The on-chip array `st` reads `tensor` from: a temporary kept on chip, or an input
  // cached there, except in its first reader (which reads global memory and fills it).
  const OnChipArray* local(int tensor, const Statement* st = nullptr) const {
    for (auto& la : k_.plan.onChip)
      if (la.tensor == tensor) return &la;
    if (const OnChipArray* c = cachedInput(tensor); c && !(st && k_.plan.firstReader(prog_, tensor) == st->id)) return c;
    return nullptr;
  }
  const OnChipArray* cachedInput(int tensor) const {
    for (auto& la : k_.plan.cachedInputs)
      if (la.tensor == tensor) return &la;
    return nullptr;
  }

  // Subscript with statement dims bound to their C names.
  std::string affineC(const Affine& a) const {
    std::string s;
    for (auto& [n, c] : a.coef) {
      std::string term;
      auto sz = at_.sizes().find(n);
      int64_t coef = c;
      if (sz != at_.sizes().end()) {
        int64_t v = c * sz->second;
        term = std::to_string(v < 0 ? -v : v);
        coef = v < 0 ? -1 : 1;
      } else {
        term = (c == 1 || c == -1) ? cName(n) : std::to_string(c < 0 ? -c : c) + " * " + cName(n);
      }
      if (s.empty()) s = (coef < 0 ? "-" : "") + term;
      else s += (coef < 0 ? " - " : " + ") + term;
    }
    if (s.empty()) return std::to_string(a.constant);
    if (a.constant > 0) s += " + " + std::to_string(a.constant);
    if (a.constant < 0) s += " - " + std::to_string(-a.constant);
    return s;
  }

  // `st`: the statement whose reads a gather's subscripts name (and, for an input cached
  // on chip, whether it reads global memory: its first reader does).
  std::string accessC(const Access& a, const Statement* st = nullptr) const {
    if (const OnChipArray* la = local(a.tensor, st)) return localC(a, *la, st);
    return globalC(a, st);
  }
  // The element in global memory as stored (a 16-bit float's bits): what a copy takes.
  std::string globalElement(const Access& a, const Statement* st = nullptr) const {
    return cName(prog_.tensors[a.tensor].name) + "[" + globalIndex(a, st) + "]";
  }
  // The element in global memory; a 16-bit float's through its accessor, which
  // assign() turns into the store.
  std::string globalC(const Access& a, const Statement* st = nullptr) const {
    const Tensor& T = prog_.tensors[a.tensor];
    if (isNarrowFloat(T.type))
      return std::string("pf_load_") + (T.type == ElemType::Half ? "half" : "bf16") + "(" + cName(T.name) + ", " +
             globalIndex(a, st) + ")";
    return globalElement(a, st);
  }
  // `v`, a value of `tensor` in the computing type, rounded to the tensor's own type
  // where that is narrower (a 16-bit float; a float in a double program): what a reader
  // of it in memory would see, so that a value kept on chip or in registers is the one
  // the unfused program stores.
  std::string roundedTo(int tensor, const std::string& v) const {
    const ElemType t = prog_.tensors[size_t(tensor)].type;
    if (isNarrowFloat(t)) return narrowRounded(t, v, sp_);
    if (t == ElemType::F32 && !sp_.f32) return "(" + sp_.real + ")(float)(" + v + ")";
    return v;
  }
  // `lhs = v`, where lhs is what accessC gave for a write of `tensor`: a 16-bit float's
  // global element is stored through its accessor, an on-chip copy holds the rounded
  // value (roundedTo). Partial results stay unrounded.
  std::string assign(const std::string& lhs, const std::string& v, int tensor) const {
    static const std::string load = "pf_load_";
    if (lhs.compare(0, load.size(), load) == 0)
      return "pf_store_" + lhs.substr(load.size(), lhs.size() - load.size() - 1) + ", " + v + ")";
    const bool onChip = lhs.compare(0, 6, "pf_sh_") == 0 || lhs.compare(0, 6, "pf_rg_") == 0;
    return lhs + " = " + (onChip ? roundedTo(tensor, v) : v);
  }

  // In the first reader of an input cached on chip: the statements that leave each
  // element it reads there, before the value that reads them (from global memory: the
  // compiler keeps one load of each). `skip`: reads already copied another way.
  std::string cacheCopies(const Statement& st, const std::vector<bool>& skip = {}) const {
    std::string out;
    std::set<std::string> seen;
    for (size_t r = 0; r < st.reads.size(); ++r) {
      const OnChipArray* c = cachedInput(st.reads[r].tensor);
      if (!c || local(st.reads[r].tensor, &st) || (r < skip.size() && skip[r])) continue;
      const std::string copy = localC(st.reads[r], *c, &st) + " = " + accessC(st.reads[r], &st) + ";";
      if (seen.insert(copy).second) out += (out.empty() ? "" : " ") + copy;
    }
    return out;
  }

  // The element of on-chip array la that access a names, relative to the block's slice
  // (a gather's subscript is the element of its index read, in statement `st`).
  std::string localC(const Access& a, const OnChipArray& la, const Statement* st) const {
    if (la.inRegisters()) {
      if (a.gathers()) throw InternalError("a gather read from registers");
      if (la.rowDim() < 0) return registerName(prog_.tensors[a.tensor]) + "[0]";
      if (slot_.empty()) throw InternalError("a row in registers read outside its unrolled steps");
      return registerName(prog_.tensors[a.tensor]) + "[" + slot_ + "]";
    }
    std::string idx;
    int64_t stride = 1;
    for (int p = int(a.subscripts.size()) - 1; p >= 0; --p) {
      std::string base = la.gridCoord[p] >= 0 ? "pf_b" + std::to_string(la.gridCoord[p])
                         : la.gridCoord[p] == OnChipArray::kChunkCoord
                             ? "(" + std::to_string(la.lo[p]) + " + pf_c * " + std::to_string(k_.plan.splitChunk) + ")"
                             : std::to_string(la.lo[p]);
      if (a.indirectAt(size_t(p)) >= 0 && !st) throw InternalError("a gather printed without its statement");
      const std::string sub = a.indirectAt(size_t(p)) >= 0 ? "(" + sp_.index + ")" + accessC(st->reads[size_t(a.indirect[p])], st)
                                                           : affineC(a.subscripts[p]);
      std::string term = "(" + sub + " - " + base + ")";
      if (stride != 1) term += " * " + std::to_string(stride);
      idx = idx.empty() ? term : term + " + " + idx;
      stride *= la.extent[p];
    }
    return localName(prog_.tensors[a.tensor]) + "[" + (idx.empty() ? "0" : idx) + "]";
  }

  // Row-major element index of a global access.
  std::string globalIndex(const Access& a, const Statement* st = nullptr) const {
    const Tensor& T = prog_.tensors[a.tensor];
    std::string idx;
    int64_t stride = 1;
    for (int p = int(a.subscripts.size()) - 1; p >= 0; --p) {
      if (a.indirectAt(size_t(p)) >= 0 && !st) throw InternalError("a gather printed without its statement");
      std::string sub = a.indirectAt(size_t(p)) >= 0 ? "(" + sp_.index + ")" + accessC(st->reads[size_t(a.indirect[p])], st)
                                                     : affineC(a.subscripts[p]);
      std::string term = sub.find_first_of(" ") == std::string::npos ? sub : "(" + sub + ")";
      if (stride != 1) term += " * " + std::to_string(stride);
      idx = idx.empty() ? term : term + " + " + idx;
      stride *= T.shape[p].eval(at_.sizes());
    }
    return idx.empty() ? "0" : idx;
  }

  // Where a split reduction's chunk leaves its partial result: after the partials of the
  // split members before it (KernelPlan::splitMembers), chunk by chunk.
  std::string partialC(const Statement& st) const {
    const KernelPlan& kp = k_.plan;
    int64_t base = 0;
    for (int m : kp.splitMembers()) {
      const Statement& other = prog_.statements[size_t(kp.statements[size_t(m)])];
      if (other.id == st.id) break;
      base += kp.splitChunks * prog_.tensors[other.write.tensor].elements(at_.sizes());
    }
    return "pf_partial[" + (base ? std::to_string(base) + " + " : std::string()) + "pf_c * " +
           std::to_string(prog_.tensors[st.write.tensor].elements(at_.sizes())) + " + " + globalIndex(st.write) + "]";
  }

 public:
  // The second launch of a split reduction: combine the chunks' partials in order; with
  // a sum streamed beside it, the maximum first, then each chunk's sum rescaled to it.
  // The body of a streamed tile (KernelPlan::streamTile, docs/streaming.md "Streamed
  // tiles"). Thread pf_g of row group pf_rg holds rows pf_rg + a * pf_groups (a <
  // rowsAThread), the step's points pf_g + b * rowThreads (b < keysAThread) and the extra
  // dimension's points pf_g + q * rowThreads (q < lanes). Points past a row's or a step's
  // end are computed at the last valid one (every read stays in bounds, no branch in the
  // unrolled loops) and never kept.
  void printStreamedTile(std::ostream& os) const {
    const KernelPlan& kp = k_.plan;
    const StreamTile& tl = kp.streamTile;
    const Program& prog = prog_;
    const std::string& T = sp_.real, &I = sp_.index;
    const bool cuda = sp_.d == Dialect::Cuda;
    const int64_t rows = tl.rows(kp.tile), step = tl.step, R = tl.rowsAThread, G = tl.rowThreads;
    const int64_t KT = tl.keysAThread(), L = tl.lanes, groups = int64_t(kp.threadsPerBlock) / G;
    auto hiOf = [&](int t) { return kp.gridLo[size_t(t)] + kp.gridExtent[size_t(t)]; };
    // Row r of the block on grid coordinate t (a row coordinate): its point there, r
    // itself, or with two row coordinates r's inner (r % tile) or outer (r / tile) part.
    auto rowAt = [&](int t, const std::string& r) {
      const std::string inner = std::to_string(kp.tile[size_t(tl.rowCoord)]);
      const std::string part = tl.outerCoord < 0 ? r : t == tl.rowCoord ? r + " % " + inner : r + " / " + inner;
      return "(pf_b" + std::to_string(t) + " + " + part + ")";
    };
    // Whether row r lies inside the grid (the last tile's rows past its end do not).
    auto rowInside = [&](const std::string& r) {
      std::string c = rowAt(tl.rowCoord, r) + " < " + std::to_string(hiOf(tl.rowCoord));
      if (tl.outerCoord >= 0) c += " && " + rowAt(tl.outerCoord, r) + " < " + std::to_string(hiOf(tl.outerCoord));
      return c;
    };
    size_t maxM = 0;
    for (size_t k = 0; k < kp.statements.size(); ++k)
      if (tl.roles[k] == StreamRole::Maximum) maxM = k;
    const Statement& M = prog.statements[size_t(kp.statements[maxM])];
    const SizedStatement& Ms = at_.statement(M.id);
    const int64_t keyLo = Ms.lo[size_t(M.numParallel)], keyHi = Ms.hi[size_t(M.numParallel)];
    auto stmtOf = [&](size_t k) -> const Statement& { return prog.statements[size_t(kp.statements[k])]; };
    auto tileName = [&](int t) { return "pf_tile_" + cName(prog.tensors[size_t(t)].name); };
    os << "  // A streamed tile: " << rows << " rows a block, " << G << " thread(s) a row, " << R << " row(s) a thread; "
       << M.label() << "'s reduction in steps of " << step << " points through shared memory\n";
    // CUDA: one dynamic allocation (the launch asks for more than 48 KB where needed),
    // each array 16-byte aligned; OpenCL: local arrays of their own.
    int64_t offset = 0;
    auto declare = [&](const std::string& name, int64_t elements, const std::string& what) {
      if (cuda) {
        if (offset == 0) os << "  extern __shared__ __align__(16) unsigned char pf_smem[];\n";
        os << "  " << T << "* " << name << " = (" << T << "*)(pf_smem + " << offset << ");  // " << what << "\n";
        offset += (elements * (sp_.f32 ? 4 : 8) + 15) / 16 * 16;
      } else {
        os << "  __local " << T << " " << name << "[" << elements << "];  // " << what << "\n";
      }
    };
    const int64_t pitch = tl.tilePitch();
    for (int t : tl.tiled) declare(tileName(t), rows * pitch, "the step's values of " + prog.tensors[size_t(t)].name);
    declare("pf_factor", rows * pitch, "the step's factors exp(E - m) of the sums' terms, each computed once");
    for (size_t i = 0; i < tl.staged.size(); ++i) {
      const StagedRead& sr = tl.staged[i];
      declare("pf_stage" + std::to_string(i), tl.stagedElements(i, rows),
              prog.tensors[size_t(stagedAccess(sr).tensor)].name + (sr.perStep ? " at the step's points" : " at the block's rows"));
    }
    const int64_t E = tl.extraHi - tl.extraLo;
    if (tl.mmaScores()) declare("pf_mma_s", rows * pitch, "the step's scores of " + stmtOf(size_t(tl.mmaScore)).label() + " from the tensor cores");
    if (tl.mmaSums()) {
      declare("pf_row_scale", rows, "each row's rescale of the step");
      const std::string what = stmtOf(size_t(tl.mmaSum)).label() + "'s partials from the tensor cores, finished";
      if (const int in = tl.mmaSumsIn(rows); in >= 0)
        os << "  " << (cuda ? "" : "__local ") << T << "* pf_mma_o = pf_stage" << in << ";  // " << what << " (in "
           << prog.tensors[size_t(stagedAccess(tl.staged[size_t(in)]).tensor)].name << "'s lines: no step reads them after the last)\n";
      else
        declare("pf_mma_o", rows * (E + 1), what);
    }
    const bool mma = tl.mmaScores() || tl.mmaSums();
    if (mma && !cuda) os << "  __local uint pf_mma_x[" << kp.threadsPerBlock * 6 << "];  // each lane's fragment words (emulated mma.sync)\n";
    os << "  const int pf_tid = " << sp_.tid() << ", pf_nthreads = " << kp.threadsPerBlock << ";\n"
       << "  const int pf_g = pf_tid % " << G << ", pf_rg = pf_tid / " << G << ";  // its thread of the row, its rows\n";
    const int64_t warps = kp.threadsPerBlock / 32;
    if (mma)
      os << "  const int pf_mw = pf_tid >> 5, pf_wg = (pf_tid & 31) >> 2, pf_wt = pf_tid & 3;  // its warp; its lane's group and thread in it (mma.sync's fragments)\n";
    printGridOrigins(os);
    os << "  (void)pf_nthreads; (void)pf_g;\n";
    // A member's dimensions as C names, at row a, step point `key` and extra point `x`.
    auto rowOf = [&](int64_t a) { return "(pf_rg + " + std::to_string(a * groups) + ")"; };
    auto bind = [&](size_t k, int64_t a, const std::string& key, const std::string& x, const std::string& ind) {
      const Statement& st = stmtOf(k);
      std::string out;
      for (int t = 0; t < kp.gridRank(); ++t) {
        const std::string v = tl.isRowCoord(t) ? "pf_min(" + rowAt(t, rowOf(a)) + ", " + std::to_string(hiOf(t) - 1) + ")" : "pf_b" + std::to_string(t);
        out += ind + "const " + I + " " + cName(st.dims[size_t(kp.gridDims[k][size_t(t)])]) + " = " + v + ";\n";
      }
      if (tl.keyDim[k] >= 0 && !key.empty()) out += ind + "const " + I + " " + cName(st.dims[size_t(tl.keyDim[k])]) + " = " + key + ";\n";
      if (tl.extraDim[k] >= 0 && !x.empty()) out += ind + "const " + I + " " + cName(st.dims[size_t(tl.extraDim[k])]) + " = " + x + ";\n";
      return out;
    };
    auto writerOf = [&](int tensor) {
      for (size_t k = 0; k < kp.statements.size(); ++k)
        if (stmtOf(k).write.tensor == tensor) return int(k);
      return -1;
    };
    // What member k's reads are, in a phase: a score's register, the step's tile, a
    // staged slice, a row's register, or global memory.
    auto reader = [&](size_t k, const Statement& st, int64_t a, const std::string& b, const std::string& q, const std::string& kk) {
      return [&, k, a, b, q, kk](const Access& acc) -> std::string {
        if (acc.subscripts.empty() && acc.tensor == M.write.tensor)  // a step's factor (factoredTerms)
          return "pf_factor[(pf_rg + " + std::to_string(a * groups) + ") * " + std::to_string(pitch) + " + " + kk + "]";
        const size_t r = size_t(&acc - st.reads.data());
        for (size_t i = 0; i < tl.staged.size(); ++i) {
          const StagedRead& sr = tl.staged[i];
          if (size_t(sr.member) != k || size_t(sr.read) != r) continue;
          const std::string inner = sr.innerDim >= 0 ? "(" + cName(st.dims[size_t(sr.innerDim)]) + " - " + std::to_string(sr.innerLo) + ")" : "0";
          const std::string line = sr.perStep ? "(" + kk + ")" : "(pf_rg + " + std::to_string(a * groups) + ")";
          return "pf_stage" + std::to_string(i) + "[" + line + " * " + std::to_string(tl.linePitch(i)) + " + " + inner + "]";
        }
        const int w = writerOf(acc.tensor);
        if (w < 0) return globalC(acc, &st);
        const std::string ra = "[" + std::to_string(a) + "]";
        switch (tl.roles[size_t(w)]) {
          case StreamRole::Score:
            if (tl.roles[k] == StreamRole::Score) return "pf_v" + std::to_string(w) + ra + "[" + b + "]";
            return tileName(acc.tensor) + "[(pf_rg + " + std::to_string(a * groups) + ") * " + std::to_string(pitch) + " + " + kk + "]";
          case StreamRole::Maximum: return "pf_m" + ra;
          case StreamRole::Sum:
            // In a sum's terms, a factor it takes out (applied once it is finished).
            if (inTerms_) return sp_.literal("1");
            return "pf_s" + std::to_string(w) + ra + (tl.extraDim[size_t(w)] >= 0 ? "[" + q + "]" : "");
          case StreamRole::Epilogue: return "pf_e" + std::to_string(w);
          case StreamRole::Inlined: break;
        }
        throw InternalError("a streamed tile reads an inlined producer's value");
      };
    };
    auto value = [&](size_t k, const Statement& st, int64_t a, const std::string& b, const std::string& q, const std::string& kk) {
      return valueText(st, *st.rhs, sp_, at_.sizes(), reader(k, st, a, b, q, kk));
    };
    auto laneOf = [&](const std::string& q) { return "pf_min(" + std::to_string(tl.extraLo) + " + pf_g + " + q + " * " + std::to_string(G) + ", " + std::to_string(tl.extraHi - 1) + ")"; };
    auto laneValid = [&](const std::string& q) { return "pf_g + " + q + " * " + std::to_string(G) + " < " + std::to_string(tl.extraHi - tl.extraLo); };
    // Registers: the rows' running maxima and partial sums.
    os << "  " << T << " pf_m[" << R << "];\n";
    for (size_t k = 0; k < kp.statements.size(); ++k)
      if (tl.roles[k] == StreamRole::Sum)
        os << "  " << T << " pf_s" << k << "[" << R << "]" << (tl.extraDim[k] >= 0 ? "[" + std::to_string(L) + "]" : "") << ";  // "
           << stmtOf(k).label() << "'s partial" << (tl.extraDim[k] >= 0 ? "s, a lane each" : "") << "\n";
    os << "  for (int pf_a = 0; pf_a < " << R << "; ++pf_a) {\n    pf_m[pf_a] = " << identity(M.op, sp_) << ";\n";
    for (size_t k = 0; k < kp.statements.size(); ++k)
      if (tl.roles[k] == StreamRole::Sum) {
        if (tl.extraDim[k] >= 0) os << "    for (int pf_q = 0; pf_q < " << L << "; ++pf_q) pf_s" << k << "[pf_a][pf_q] = " << sp_.literal("0") << ";\n";
        else os << "    pf_s" << k << "[pf_a] = " << sp_.literal("0") << ";\n";
      }
    os << "  }\n";
    if (tl.mmaSums())
      os << "  float pf_o[" << tl.mmaSumTiles(rows) / warps << "][4];  // " << stmtOf(size_t(tl.mmaSum)).label()
         << "'s partials: the warp's m16n8 tiles, as mma.sync holds them\n"
         << "  for (int pf_i = 0; pf_i < " << tl.mmaSumTiles(rows) / warps << "; ++pf_i) pf_o[pf_i][0] = pf_o[pf_i][1] = pf_o[pf_i][2] = pf_o[pf_i][3] = 0.0f;\n";
    // The block's rows of what is staged once.
    auto stageLoop = [&](size_t i, const std::string& ind) {
      const StagedRead& sr = tl.staged[i];
      const size_t k = size_t(sr.member);
      const Statement& st = stagedStatement(sr);
      const int64_t lines = sr.perStep ? step : rows, w = sr.width, vectors = sr.inner / w;
      // Consecutive threads along what memory holds side by side, a vector each where
      // the plan aligned one.
      os << ind << "for (int pf_e = pf_tid; pf_e < " << lines * vectors << "; pf_e += " << kp.threadsPerBlock << ") {\n"
         << ind << (sr.linesContiguous ? "  const int pf_line = pf_e % " + std::to_string(lines) + ", pf_x = pf_e / " + std::to_string(lines) + ";\n"
                                       : "  const int pf_line = pf_e / " + std::to_string(vectors) + ", pf_x = pf_e % " + std::to_string(vectors) +
                                             (w > 1 ? " * " + std::to_string(w) : "") + ";\n")
         << ind << "  if (" << (sr.perStep ? std::string("pf_line < pf_n") : rowInside("pf_line")) << ") {\n";
      std::string dims;
      for (int t = 0; t < kp.gridRank(); ++t) {
        // A step's values are the block's row's (one row: pf_line walks the points).
        const std::string v = tl.isRowCoord(t) && !sr.perStep ? rowAt(t, "pf_line") : "pf_b" + std::to_string(t);
        dims += ind + "    const " + I + " " + cName(st.dims[size_t(kp.gridDims[k][size_t(t)])]) + " = " + v + ";\n";
      }
      if (sr.perStep) dims += ind + "    const " + I + " " + cName(st.dims[size_t(tl.keyDim[k])]) + " = pf_j0 + pf_line;\n";
      if (sr.innerDim >= 0) dims += ind + "    const " + I + " " + cName(st.dims[size_t(sr.innerDim)]) + " = " + std::to_string(sr.innerLo) + " + pf_x;\n";
      const std::string slot = "pf_stage" + std::to_string(i) + "[pf_line * " + std::to_string(tl.linePitch(i)) + " + pf_x";
      const bool tf32 = tl.stagedTf32(i);
      const char* lane[] = {"x", "y", "z", "w"};
      if (w == 1) {
        const std::string v = globalC(stagedAccess(sr), &st);
        os << dims << ind << "    " << slot << "] = " << (tf32 ? "pf_tf32(" + v + ")" : v) << ";\n";
      } else {
        const std::string vec = T + std::to_string(w), element = globalC(stagedAccess(sr), &st);
        os << dims << ind << "    " << (tf32 ? "" : "const ") << vec << " pf_w = "
           << (cuda ? "*reinterpret_cast<const " + vec + "*>(&" + element + ")" : "vload" + std::to_string(w) + "(0, &" + element + ")") << ";\n";
        if (tf32)
          for (int64_t q = 0; q < w; ++q) os << ind << "    pf_w." << lane[q] << " = pf_tf32(pf_w." << lane[q] << ");\n";
        if (tl.linePitch(i) % w == 0) {  // lines whole vectors apart (a tensor-core operand's): one store
          os << ind << "    " << (cuda ? "*reinterpret_cast<" + vec + "*>(&" + slot + "]) = pf_w;\n" : "vstore" + std::to_string(w) + "(pf_w, 0, &" + slot + "]);\n");
        } else {  // the padded line breaks the vector's alignment in shared memory: stored a lane each
          for (int64_t q = 0; q < w; ++q) os << ind << "    " << slot << (q ? " + " + std::to_string(q) : "") << "] = pf_w." << lane[q] << ";\n";
        }
      }
      os << ind << "  }\n" << ind << "}\n";
    };
    for (size_t i = 0; i < tl.staged.size(); ++i)
      if (!tl.staged[i].perStep) stageLoop(i, "  ");
    // A split: the block's chunk of the reduction (pf_c), its partials left for the combine.
    const bool split = kp.splitChunks > 1;
    std::string jLo = std::to_string(keyLo), jHi = std::to_string(keyHi);
    if (split) {
      os << "  const " << I << " pf_jlo = " << keyLo << " + pf_c * " << kp.splitChunk << ", pf_jhi = pf_min((" << I << ")" << keyHi
         << ", pf_jlo + " << kp.splitChunk << ");  // the block's chunk of " << M.label() << "'s reduction\n";
      jLo = "pf_jlo";
      jHi = "pf_jhi";
    }
    os << "  for (" << I << " pf_j0 = " << jLo << "; pf_j0 < " << jHi << "; pf_j0 += " << step << ") {\n"
       << "    const int pf_n = (int)pf_min((" << I << ")" << step << ", " << jHi << " - pf_j0);\n"
       << "    " << sp_.barrier() << "  // the step before is read (and the rows are staged)\n";
    for (size_t i = 0; i < tl.staged.size(); ++i)
      if (tl.staged[i].perStep) stageLoop(i, "    ");
    os << "    " << sp_.barrier() << "\n";
    if (tl.mmaScores()) {
      printMmaScores(os, rows, warps);
      os << "    " << sp_.barrier() << "  // the tensor cores' scores are in shared memory\n";
    }
    // Scores: each thread its rows at its points of the step, a contraction's loop
    // outermost so that a row's operand serves every point and a point's every row.
    os << "    {\n";
    const std::string keyAt = "pf_j0 + pf_min(pf_g + pf_kb * " + std::to_string(G) + ", pf_n - 1)";
    const std::string kkAt = "pf_min(pf_g + pf_kb * " + std::to_string(G) + ", pf_n - 1)";
    for (size_t k = 0; k < kp.statements.size(); ++k) {
      if (tl.roles[k] != StreamRole::Score) continue;
      const Statement& st = stmtOf(k);
      os << "      " << T << " pf_v" << k << "[" << R << "][" << KT << "];  // " << st.label() << ": " << statementText(prog, st) << "\n";
      if (int(k) == tl.mmaScore && tl.mmaScores()) {
        os << "      for (int pf_a = 0; pf_a < " << R << "; ++pf_a) for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) pf_v" << k
           << "[pf_a][pf_kb] = " << roundedTo(st.write.tensor, "pf_mma_s[(pf_rg + pf_a * " + std::to_string(groups) + ") * " + std::to_string(pitch) + " + " + kkAt + "]") << ";\n";
      } else if (tl.innerDim[k] >= 0) {
        const SizedStatement& ss = at_.statement(st.id);
        const int d = tl.innerDim[k];
        os << "      for (int pf_a = 0; pf_a < " << R << "; ++pf_a) for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) pf_v" << k << "[pf_a][pf_kb] = " << identity(st.op, sp_) << ";\n"
           << "      for (" << I << " " << cName(st.dims[size_t(d)]) << " = " << ss.lo[size_t(d)] << "; " << cName(st.dims[size_t(d)]) << " < "
           << ss.hi[size_t(d)] << "; ++" << cName(st.dims[size_t(d)]) << ") {\n";
        for (int64_t a = 0; a < R; ++a)
          os << "        for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) {\n" << bind(k, a, keyAt, "", "          ")
             << "          pf_v" << k << "[" << a << "][pf_kb] = " << combine(st.op, "pf_v" + std::to_string(k) + "[" + std::to_string(a) + "][pf_kb]", value(k, st, a, "pf_kb", "", kkAt), sp_) << ";\n        }\n";
        os << "      }\n";
        // The finished score as the program stores it (a narrower type rounds once, here).
        if (const std::string r = roundedTo(st.write.tensor, "pf_v" + std::to_string(k) + "[pf_a][pf_kb]"); r != "pf_v" + std::to_string(k) + "[pf_a][pf_kb]")
          os << "      for (int pf_a = 0; pf_a < " << R << "; ++pf_a) for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) pf_v" << k << "[pf_a][pf_kb] = " << r << ";\n";
      } else {
        for (int64_t a = 0; a < R; ++a)
          os << "      for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) {\n" << bind(k, a, keyAt, "", "        ")
             << "        pf_v" << k << "[" << a << "][pf_kb] = " << roundedTo(st.write.tensor, value(k, st, a, "pf_kb", "", kkAt)) << ";\n      }\n";
      }
    }
    for (int t : tl.tiled)
      os << "      for (int pf_a = 0; pf_a < " << R << "; ++pf_a) for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb)\n"
         << "        if (pf_g + pf_kb * " << G << " < pf_n) " << tileName(t) << "[(pf_rg + pf_a * " << groups << ") * " << pitch << " + pf_g + pf_kb * " << G
         << "] = pf_v" << writerOf(t) << "[pf_a][pf_kb];\n";
    os << "    }\n    " << sp_.barrier() << "\n";
    // The step's maximum of each row and one rescale of its partials; then each thread
    // the factors exp(E - m) of the sums' terms at its own points, once (a row's maximum
    // still -inf makes them 0, as every E is -inf); then the terms.
    os << "    " << T << " pf_ms[" << R << "];  // the rows' running maxima, 0 for a row all -inf so far\n";
    for (int64_t a = 0; a < R; ++a) {
      os << "    {\n      " << T << " pf_run = pf_m[" << a << "];\n      for (int pf_k = 0; pf_k < pf_n; ++pf_k) {\n"
         << bind(maxM, a, "pf_j0 + pf_k", "", "        ")
         << "        pf_run = " << combine(M.op, "pf_run", value(maxM, M, a, "", "", "pf_k"), sp_) << ";\n      }\n"
         << "      const " << T << " pf_scale = pf_rescale(pf_m[" << a << "], pf_run);\n      pf_m[" << a << "] = pf_run;\n"
         << "      pf_ms[" << a << "] = pf_run == -INFINITY ? " << sp_.literal("0") << " : pf_run;\n";
      for (size_t k = 0; k < kp.statements.size(); ++k)
        if (tl.roles[k] == StreamRole::Sum && !(int(k) == tl.mmaSum && tl.mmaSums()))
          os << "      " << (tl.extraDim[k] >= 0 ? "for (int pf_q = 0; pf_q < " + std::to_string(L) + "; ++pf_q) pf_s" + std::to_string(k) + "[" + std::to_string(a) + "][pf_q]"
                                                  : "pf_s" + std::to_string(k) + "[" + std::to_string(a) + "]")
             << " *= pf_scale;\n";
      if (tl.mmaSums()) os << "      if (pf_g == 0) pf_row_scale[" << rowOf(a) << "] = pf_scale;\n";
      os << "    }\n";
    }
    const std::string own = "pf_g + pf_kb * " + std::to_string(G);
    for (int64_t a = 0; a < R; ++a)
      os << "    for (int pf_kb = 0; pf_kb < " << KT << "; ++pf_kb) {\n      if (" << own << " >= pf_n) continue;\n"
         << bind(maxM, a, "pf_j0 + " + own, "", "      ") << "      pf_factor[(pf_rg + " << a * groups << ") * " << pitch << " + " << own
         << "] = " << sp_.fn("exp") << "(" << value(maxM, M, a, "", "", own) << " - pf_ms[" << a << "]);\n    }\n";
    os << "    " << sp_.barrier() << "\n";
    if (tl.mmaSums()) printMmaSums(os, rows, warps);
    os << "    for (int pf_k = 0; pf_k < pf_n; ++pf_k) {\n";
    inTerms_ = true;
    for (int64_t a = 0; a < R; ++a) {
      for (size_t k = 0; k < kp.statements.size(); ++k) {
        if (tl.roles[k] != StreamRole::Sum || (int(k) == tl.mmaSum && tl.mmaSums())) continue;
        const Statement& in = factoredTerms(k);
        const std::string acc = "pf_s" + std::to_string(k) + "[" + std::to_string(a) + "]";
        if (tl.extraDim[k] >= 0)
          os << "      for (int pf_q = 0; pf_q < " << L << "; ++pf_q) {\n" << bind(k, a, "pf_j0 + pf_k", laneOf("pf_q"), "        ")
             << "        " << acc << "[pf_q] += " << value(k, in, a, "", "pf_q", "pf_k") << ";\n      }\n";
        else
          os << "      {\n" << bind(k, a, "pf_j0 + pf_k", "", "        ") << "        " << acc << " += " << value(k, in, a, "", "", "pf_k") << ";\n      }\n";
      }
    }
    inTerms_ = false;
    os << "    }\n  }\n";
    if (tl.mmaSums()) {
      // The tensor cores' partials to the rows' threads, lane by lane as they hold them.
      const std::string e = std::to_string(E + 1);
      os << "  for (int pf_i = 0; pf_i < " << tl.mmaSumTiles(rows) / warps << "; ++pf_i) {\n"
         << "    const int pf_tile = pf_mw + pf_i * " << warps << ", pf_r0 = pf_tile / " << (E + 7) / 8
         << " * 16, pf_e0 = pf_tile % " << (E + 7) / 8 << " * 8 + 2 * pf_wt;\n"
         << "    for (int pf_h = 0; pf_h < 4; ++pf_h)\n"
         << "      if (pf_e0 + (pf_h & 1) < " << E << ") pf_mma_o[(pf_r0 + pf_wg + (pf_h >> 1) * 8) * " << e
         << " + pf_e0 + (pf_h & 1)] = pf_o[pf_i][pf_h];\n  }\n"
         << "  " << sp_.barrier() << "\n";
      for (int64_t a = 0; a < R; ++a)
        os << "  for (int pf_q = 0; pf_q < " << L << "; ++pf_q) pf_s" << tl.mmaSum << "[" << a << "][pf_q] = pf_mma_o[" << rowOf(a) << " * " << e
           << " + pf_min(pf_g + pf_q * " << G << ", " << E - 1 << ")];\n";
    }
    // The factors the sums took out of their terms, in member order (a factor is a sum
    // before them, finished here; in a split, in the combine).
    for (size_t k = 0; k < kp.statements.size() && !split; ++k) {
      if (tl.roles[k] != StreamRole::Sum) continue;
      for (auto& [factor, divides] : takenOutFactors(k))
        for (int64_t a = 0; a < R; ++a) {
          const std::string f = "pf_s" + std::to_string(factor) + "[" + std::to_string(a) + "]";
          const std::string acc = "pf_s" + std::to_string(k) + "[" + std::to_string(a) + "]" + (tl.extraDim[k] >= 0 ? "[pf_q]" : "");
          os << "  " << (tl.extraDim[k] >= 0 ? "for (int pf_q = 0; pf_q < " + std::to_string(L) + "; ++pf_q) " : "") << acc << " = " << acc
             << (divides ? " / " : " * ") << f << ";  // a factor " << stmtOf(k).label() << "'s terms had\n";
        }
    }
    // The rows' results, and what follows from them; a split's partials.
    auto stored = [&](int tensor) { return split || std::find(kp.globalWrites.begin(), kp.globalWrites.end(), tensor) != kp.globalWrites.end(); };
    auto result = [&](const Statement& st) { return split ? partialC(st) : globalC(st.write, &st); };
    for (int64_t a = 0; a < R; ++a) {
      os << "  if (" << rowInside(rowOf(a)) << ") {\n";
      const std::string ra = "[" + std::to_string(a) + "]";
      for (size_t k = 0; k < kp.statements.size(); ++k) {
        const Statement& st = stmtOf(k);
        const StreamRole role = tl.roles[k];
        if (tl.extraDim[k] >= 0) continue;
        if (role == StreamRole::Maximum || role == StreamRole::Sum) {
          if (stored(st.write.tensor))
            os << "    if (pf_g == 0) {\n" << bind(k, a, "", "", "      ") << "      "
               << assign(result(st), (role == StreamRole::Maximum ? "pf_m" : "pf_s" + std::to_string(k)) + ra, st.write.tensor) << ";\n    }\n";
        } else if (role == StreamRole::Epilogue) {
          os << "    " << T << " pf_e" << k << ";\n    {\n" << bind(k, a, "", "", "      ") << "      pf_e" << k << " = "
             << roundedTo(st.write.tensor, value(k, st, a, "", "", "")) << ";\n";
          if (stored(st.write.tensor))
            os << "      if (pf_g == 0) " << assign(globalC(st.write, &st), "pf_e" + std::to_string(k), st.write.tensor) << ";\n";
          os << "    }\n";
        }
      }
      if (L > 0) {
        os << "    for (int pf_q = 0; pf_q < " << L << "; ++pf_q) {\n      if (!(" << laneValid("pf_q") << ")) continue;\n";
        for (size_t k = 0; k < kp.statements.size(); ++k)
          if (tl.extraDim[k] >= 0 && tl.roles[k] == StreamRole::Epilogue) os << "      " << T << " pf_e" << k << ";\n";
        for (size_t k = 0; k < kp.statements.size(); ++k) {
          const Statement& st = stmtOf(k);
          const StreamRole role = tl.roles[k];
          if (tl.extraDim[k] < 0 || (role != StreamRole::Sum && role != StreamRole::Epilogue)) continue;
          if (role == StreamRole::Sum && !stored(st.write.tensor)) continue;
          os << "      {\n" << bind(k, a, "", laneOf("pf_q"), "        ");
          if (role == StreamRole::Sum) {
            os << "        " << assign(result(st), "pf_s" + std::to_string(k) + ra + "[pf_q]", st.write.tensor) << ";\n";
          } else {
            os << "        pf_e" << k << " = " << roundedTo(st.write.tensor, value(k, st, a, "", "pf_q", "")) << ";\n";
            if (stored(st.write.tensor)) os << "        " << assign(globalC(st.write, &st), "pf_e" + std::to_string(k), st.write.tensor) << ";\n";
          }
          os << "      }\n";
        }
        os << "    }\n";
      }
      os << "  }\n";
    }
  }

  // A streamed tile's scores on tensor cores (StreamTile::scoreEngine): the step's
  // [rows x step] scores in m16n8 tiles, each warp its share, the fragments loaded from
  // the staged lines (zeros past the reduction's end) and the results left in pf_mma_s.
  void printMmaScores(std::ostream& os, int64_t rows, int64_t warps) const {
    const StreamTile& tl = k_.plan.streamTile;
    const StagedRead& ra = tl.staged[size_t(tl.mmaRowRead)];
    const int64_t inner = ra.inner, ks = mmaSteps(tl.scoreEngine), tiles = tl.mmaTiles(rows), across = tl.step / 8;
    const bool halves = halfOperands(tl.scoreEngine);
    auto at = [&](int i, const std::string& line, const std::string& d) {
      const std::string v = "pf_stage" + std::to_string(i) + "[(" + line + ") * " + std::to_string(tl.linePitch(size_t(i))) + " + " + d + "]";
      return inner % ks == 0 ? v : "(" + d + " < " + std::to_string(inner) + " ? " + v + " : 0.0f)";
    };
    auto a = [&](const std::string& r, const std::string& d) { return at(tl.mmaRowRead, "pf_r0 + " + r, "pf_d + " + d); };
    auto b = [&](const std::string& d) { return at(tl.mmaKeyRead, "pf_k0 + pf_wg", "pf_d + " + d); };
    const std::string pack = tl.scoreEngine == ContractionEngine::TensorCoresF16 ? "pf_pack_half" : "pf_pack_bf16";
    os << "    // tensor cores: " << prog_.statements[size_t(k_.plan.statements[size_t(tl.mmaScore)])].label() << "'s " << rows << " x " << tl.step << " scores of the step, "
       << tiles << " m16n8 tiles, " << tiles / warps << " a warp (mma.sync m16n8k" << ks << ", " << contractionEngineName(tl.scoreEngine) << ")\n"
       << "    for (int pf_i = 0; pf_i < " << tiles / warps << "; ++pf_i) {\n"
       << "      const int pf_tile = pf_mw + pf_i * " << warps << ", pf_r0 = pf_tile / " << across << " * 16, pf_k0 = pf_tile % " << across << " * 8;\n"
       << "      float pf_c[4] = {0.0f, 0.0f, 0.0f, 0.0f};\n"
       << "      for (int pf_d = 0; pf_d < " << inner << "; pf_d += " << ks << ") {\n";
    if (halves) {
      // Registers of two consecutive d: A's rows g and g + 8 at 2t and 2t + 8; B's at 2t, 2t + 8.
      os << "        " << (sp_.d == Dialect::Cuda ? "unsigned" : "uint") << " pf_fa[4], pf_fb[2];\n";
      for (int h = 0; h < 4; ++h) {
        const std::string r = h & 1 ? "pf_wg + 8" : "pf_wg", d = "2 * pf_wt" + std::string(h & 2 ? " + 8" : "");
        os << "        pf_fa[" << h << "] = " << pack << "(" << a(r, d) << ", " << a(r, d + " + 1") << ");\n";
      }
      for (int h = 0; h < 2; ++h) {
        const std::string d = "2 * pf_wt" + std::string(h ? " + 8" : "");
        os << "        pf_fb[" << h << "] = " << pack << "(" << b(d) << ", " << b(d + " + 1") << ");\n";
      }
      os << "        " << (tl.scoreEngine == ContractionEngine::TensorCoresF16 ? "pf_mma_f16" : "pf_mma_bf16");
    } else {
      // A's rows g and g + 8 at t and t + 4; B's at t and t + 4 (its column: the point g).
      os << "        float pf_fa[4], pf_fb[2];\n";
      // (Rounded to TF32 as staged: StreamTile::stagedTf32.)
      for (int h = 0; h < 4; ++h)
        os << "        pf_fa[" << h << "] = " << a(h & 1 ? "pf_wg + 8" : "pf_wg", h & 2 ? "pf_wt + 4" : "pf_wt") << ";\n";
      for (int h = 0; h < 2; ++h) os << "        pf_fb[" << h << "] = " << b(h ? "pf_wt + 4" : "pf_wt") << ";\n";
      os << "        pf_mma_tf32";
    }
    os << "(pf_c[0], pf_c[1], pf_c[2], pf_c[3], pf_fa, pf_fb);\n      }\n";
    const std::string pitch = std::to_string(tl.tilePitch());
    os << "      for (int pf_h = 0; pf_h < 4; ++pf_h)\n"
       << "        pf_mma_s[(pf_r0 + pf_wg + (pf_h >> 1) * 8) * " << pitch << " + pf_k0 + 2 * pf_wt + (pf_h & 1)] = pf_c[pf_h];\n"
       << "    }\n";
  }

  // A streamed tile's weighted sum on tensor cores (StreamTile::sumEngine): each warp's
  // accumulator tiles rescaled by their rows' step scales, then the step's factors times
  // the staged lines, an mma.sync each 8 points (zeros past the step's end and the extra
  // dimension's).
  void printMmaSums(std::ostream& os, int64_t rows, int64_t warps) const {
    const StreamTile& tl = k_.plan.streamTile;
    const StagedRead& sv = tl.staged[size_t(tl.mmaValueRead)];
    const int64_t E = tl.extraHi - tl.extraLo, tiles = tl.mmaSumTiles(rows), across = (E + 7) / 8;
    const std::string pitch = std::to_string(tl.tilePitch());
    auto f = [&](const std::string& r, const std::string& kk) {
      return "pf_tf32(pf_kk + " + kk + " < pf_n ? pf_factor[(pf_r0 + " + r + ") * " + pitch + " + pf_kk + " + kk + "] : 0.0f)";
    };
    auto v = [&](const std::string& kk) {
      const std::string e = "pf_e0 + pf_wg";
      return "(pf_kk + " + kk + " < pf_n" + (E % 8 ? " && " + e + " < " + std::to_string(E) : std::string()) + " ? pf_stage" +
             std::to_string(tl.mmaValueRead) + "[(pf_kk + " + kk + ") * " + std::to_string(tl.linePitch(size_t(tl.mmaValueRead))) + " + " + e +
             "] : 0.0f)";  // rounded to TF32 as staged
    };
    os << "    // tensor cores: " << prog_.statements[size_t(k_.plan.statements[size_t(tl.mmaSum)])].label() << "'s partials, " << tiles << " m16n8 tiles of " << rows << " x " << E
       << ", " << tiles / warps << " a warp, rescaled, then += the step's factors x "
       << prog_.tensors[size_t(stagedAccess(sv).tensor)].name << " (mma.sync m16n8k8, mma-tf32)\n"
       << "    for (int pf_i = 0; pf_i < " << tiles / warps << "; ++pf_i) {\n"
       << "      const int pf_tile = pf_mw + pf_i * " << warps << ", pf_r0 = pf_tile / " << across << " * 16, pf_e0 = pf_tile % " << across << " * 8;\n"
       << "      const float pf_up = pf_row_scale[pf_r0 + pf_wg], pf_down = pf_row_scale[pf_r0 + pf_wg + 8];\n"
       << "      pf_o[pf_i][0] *= pf_up; pf_o[pf_i][1] *= pf_up; pf_o[pf_i][2] *= pf_down; pf_o[pf_i][3] *= pf_down;\n"
       << "      for (int pf_kk = 0; pf_kk < " << tl.step << "; pf_kk += 8) {\n"
       << "        float pf_fa[4], pf_fb[2];\n";
    for (int h = 0; h < 4; ++h)
      os << "        pf_fa[" << h << "] = " << f(h & 1 ? "pf_wg + 8" : "pf_wg", h & 2 ? "pf_wt + 4" : "pf_wt") << ";\n";
    for (int h = 0; h < 2; ++h) os << "        pf_fb[" << h << "] = " << v(h ? "pf_wt + 4" : "pf_wt") << ";\n";
    os << "        pf_mma_tf32(pf_o[pf_i][0], pf_o[pf_i][1], pf_o[pf_i][2], pf_o[pf_i][3], pf_fa, pf_fb);\n      }\n    }\n";
  }

  // The block's origin on each grid coordinate (pf_b0, ...), and its chunk of a split.
  void printGridOrigins(std::ostream& os) const {
    const KernelPlan& kp = k_.plan;
    if (kp.gridRank() > 0 || kp.splitChunks > 1) {
      // Block and chunk indices take the index type: a chunk start (chunk * pf_c)
      // passes 2^31 in a wide split reduction.
      os << "  " << sp_.index << " pf_bid = " << sp_.bid() << ";\n";
      if (kp.splitChunks > 1)
        os << "  const " << sp_.index << " pf_c = pf_bid % " << kp.splitChunks << "; pf_bid /= " << kp.splitChunks
           << ";  // chunk of the split reduction\n";
      for (int t = kp.gridRank() - 1; t >= 0; --t) {
        os << "  const " << sp_.index << " pf_b" << t << " = " << kp.gridLo[t] << " + (pf_bid % " << k_.numBlocks[t] << ") * " << kp.tile[t]
           << ";";
        if (t > 0) os << " pf_bid /= " << k_.numBlocks[t] << ";";
        os << "  // origin of " << gridDimName(t) << "\n";
      }
    }
  }

  // A staged read's statement: the member as written, a sum's inlined form.
  const Statement& stagedStatement(const StagedRead& sr) const {
    const KernelPlan& kp = k_.plan;
    const size_t k = size_t(sr.member);
    if (kp.streamTile.roles[k] != StreamRole::Sum) return prog_.statements[size_t(kp.statements[k])];
    auto it = chains_.find(k);
    if (it == chains_.end()) it = chains_.emplace(k, streamChain(prog_, prog_.statements[size_t(kp.statements[k])])).first;
    return it->second.inlined;
  }
  const Access& stagedAccess(const StagedRead& sr) const { return stagedStatement(sr).reads[size_t(sr.read)]; }
  // Member k's terms (a streamed tile's sum, inlined) with each factor exp(E - m) read from
  // the step's factors: an access of the maximum's result with no subscripts.
  const Statement& factoredTerms(size_t k) const {
    auto it = factored_.find(k);
    if (it != factored_.end()) return it->second;
    StagedRead whole;
    whole.member = int(k);
    Statement out = cloneStatement(stagedStatement(whole));
    const int m = chains_.at(k).tensor;
    const int ref = int(out.reads.size());
    Access factor;
    factor.tensor = m;
    out.reads.push_back(factor);
    std::function<void(ExprPtr&)> walk = [&](ExprPtr& e) {
      if (isShiftedExp(out, *e, m)) {
        auto read = std::make_unique<Expr>(ExprKind::Access, e->loc);
        read->ref = ref;
        e = std::move(read);
        return;
      }
      for (auto& x : e->args) walk(x);
    };
    walk(out.rhs);
    return factored_.emplace(k, std::move(out)).first->second;
  }
  mutable std::map<size_t, Statement> factored_;
  mutable std::map<size_t, StreamChain> chains_;
  mutable bool inTerms_ = false;  // printing a streamed tile's terms (a sum's factors read as 1)

  // The factors streamed-tile sum k took out of its terms (polyir/Rescale.h,
  // invariantFactors): each the member index of another sum of the tile, and whether the
  // terms divide by it. Applied once the sums are finished: after the last step, or in a
  // split's combine.
  std::vector<std::pair<size_t, bool>> takenOutFactors(size_t k) const {
    const KernelPlan& kp = k_.plan;
    auto tensorOf = [&](size_t m) { return prog_.statements[size_t(kp.statements[m])].write.tensor; };
    std::vector<int> others;
    for (size_t m = 0; m < kp.statements.size(); ++m)
      if (m != k && kp.streamTile.roles[m] == StreamRole::Sum) others.push_back(tensorOf(m));
    StagedRead whole;
    whole.member = int(k);
    const Statement& in = stagedStatement(whole);
    const auto factors = invariantFactors(in, others);
    if (!factors) throw InternalError("a streamed tile's sum has a factor it cannot take out");
    std::vector<std::pair<size_t, bool>> out;
    for (auto& [r, divides] : *factors)
      for (size_t m = 0; m < kp.statements.size(); ++m)
        if (kp.streamTile.roles[m] == StreamRole::Sum && tensorOf(m) == in.reads[size_t(r)].tensor) out.push_back({m, divides});
    return out;
  }

  // The combine of a split streamed tile: at each point of the rows (and of the sums'
  // extra dimension), the rows' maximum over the chunks first, then each sum's chunks
  // rescaled to it, in member order, then the factors the sums took out of their terms
  // (earlier sums, finished here). A row's maximum and row sums are written by the
  // thread at the extra dimension's first point.
  std::string printStreamedCombine() const {
    const KernelPlan& kp = k_.plan;
    const StreamTile& tl = kp.streamTile;
    const std::string& T = sp_.real, &I = sp_.index;
    auto stmtOf = [&](size_t k) -> const Statement& { return prog_.statements[size_t(kp.statements[k])]; };
    const std::vector<int> outs = kp.splitMembers();
    const size_t maxM = size_t(kp.splitMember());
    const Statement& M = stmtOf(maxM);
    const SizedStatement& Ms = at_.statement(M.id);
    std::ostringstream os;
    const int64_t extra = tl.extraHi - tl.extraLo;
    os << combineOpening(", a split streamed tile): each chunk's sums rescaled to the rows' maximum.", kp.combinePoints());
    std::string rem = "pf_o";
    if (extra > 0) {
      os << "    const " << I << " pf_x = " << tl.extraLo << " + (" << I << ")(pf_o % " << extra << ");\n";
      rem = "(pf_o / " + std::to_string(extra) + ")";
    }
    for (int t = kp.gridRank() - 1; t >= 0; --t) {
      const int d = kp.gridDims[maxM][size_t(t)];
      const int64_t ext = Ms.hi[size_t(d)] - Ms.lo[size_t(d)];
      os << "    const " << I << " pf_r" << t << " = " << Ms.lo[size_t(d)] << " + (" << I << ")(" << rem
         << (t > 0 ? " % " + std::to_string(ext) : "") << ");\n";
      rem = "(" + rem + " / " + std::to_string(ext) + ")";
    }
    // Member k's dims bound to this point, in a scope of its own (members name them alike).
    auto bind = [&](size_t k) {
      const Statement& st = stmtOf(k);
      std::string out;
      for (int t = 0; t < kp.gridRank(); ++t)
        out += "const " + I + " " + cName(st.dims[size_t(kp.gridDims[k][size_t(t)])]) + " = pf_r" + std::to_string(t) + "; ";
      if (tl.extraDim[k] >= 0) out += "const " + I + " " + cName(st.dims[size_t(tl.extraDim[k])]) + " = pf_x; ";
      return out;
    };
    const std::string first = extra > 0 ? "pf_x == " + std::to_string(tl.extraLo) : "1";
    os << "    " << T << " pf_m = " << identity(M.op, sp_) << ";\n"
       << "    { " << bind(maxM) << "\n      " << chunkLoop() << " pf_m = " << combine(M.op, "pf_m", partialC(M), sp_)
       << ";\n      " << foldLanes(M.op, "pf_m") << writer(first) << assign(globalC(M.write), "pf_m", M.write.tensor)
       << ";\n    }\n";
    // Row sums first (a factor is one), then the sums along the extra dimension.
    for (bool lanes : {false, true})
      for (int m : outs) {
        const size_t k = size_t(m);
        if (k == maxM || (tl.extraDim[k] >= 0) != lanes) continue;
        const Statement& st = stmtOf(k);
        const std::string sk = "pf_s" + std::to_string(k);
        os << "    " << T << " " << sk << " = " << sp_.literal("0") << ";  // " << st.label() << "\n    { " << bind(k) << "\n"
           << "      " << chunkLoop() << " {\n"
           << "        " << T << " pf_mc;\n        { " << bind(maxM) << "pf_mc = " << partialC(M) << "; }\n"
           << "        " << sk << " += " << partialC(st) << " * pf_rescale(pf_mc, pf_m);\n      }\n";
        if (sp_.d == Dialect::Cuda) os << "      " << foldLanes(ReduceOp::Add, sk) << "\n";
        for (auto& [factor, divides] : takenOutFactors(k))
          os << "      pf_s" << k << " = pf_s" << k << (divides ? " / " : " * ") << "pf_s" << factor << ";  // a factor "
             << st.label() << "'s terms had\n";
        os << "      " << writer(lanes ? "1" : first) << assign(globalC(st.write), sk, st.write.tensor) << ";\n    }\n";
      }
    os << "  }\n}\n";
    return os.str();
  }

  // A combine launch's comment, signature (the split members' result tensors, then the
  // partials) and grid-stride loop over `points` outputs (pf_o), left open. `how` ends
  // the comment after the kernel's name.
  std::string combineOpening(const std::string& how, int64_t points) const {
    const KernelPlan& kp = k_.plan;
    const bool cuda = sp_.d == Dialect::Cuda;
    std::string labels, list;
    for (int m : kp.splitMembers()) {
      const Statement& o = prog_.statements[size_t(kp.statements[size_t(m)])];
      const Tensor& T = prog_.tensors[o.write.tensor];
      labels += (labels.empty() ? "" : " and ") + o.label();
      list += (list.empty() ? "" : ", ") + std::string(cuda ? "" : "__global ") + cTypeName(T.type, sp_.d) + "* " +
              (cuda ? "__restrict__ " : "restrict ") + cName(T.name);
    }
    list += cuda ? ", const " + sp_.real + "* __restrict__ pf_partial" : ", __global const " + sp_.real + "* restrict pf_partial";
    const std::string n = std::to_string(points);
    return "// Combines the " + std::to_string(kp.splitChunks) + " partial results of " + labels + " (K" + std::to_string(k_.id) +
           how + (cuda ? "\n// A warp a point: its lanes take every 32nd chunk and fold their shares by shuffles." : "") +
           "\n" + (cuda ? "__global__ void " : "__kernel void ") + k_.name + "_combine(" + list + ") {\n" +
           (cuda ? "  const int pf_lane = threadIdx.x & 31;\n"
                   "  for (long pf_o = (blockIdx.x * (long)blockDim.x + threadIdx.x) >> 5; pf_o < " + n +
                       "; pf_o += ((long)gridDim.x * blockDim.x) >> 5) {\n"
                 : "  for (long pf_o = get_global_id(0); pf_o < " + n + "; pf_o += get_global_size(0)) {\n");
  }

  // A combine's loop over the chunks, and what follows it: in CUDA each lane takes every
  // 32nd chunk and the warp folds the lanes' shares (a thread walking all the chunks
  // alone waited on one load after another: 160 us for a decode step's 256 chunks, twice
  // its first launch, on an H200); a CPU device runs the work-items one after another,
  // so there a work-item takes them all, in chunk order.
  std::string chunkLoop() const {
    const std::string c = std::to_string(k_.plan.splitChunks);
    return sp_.d == Dialect::Cuda ? "for (int pf_c = pf_lane; pf_c < " + c + "; pf_c += 32)"
                                  : "for (int pf_c = 0; pf_c < " + c + "; ++pf_c)";
  }
  std::string foldLanes(ReduceOp op, const std::string& v) const {
    if (sp_.d != Dialect::Cuda) return "";
    return v + " = pf_warp_reduce_" + std::string(reduceKind(op).name) + "(" + v + "); ";
  }
  // The condition under which a combined value is written: one lane, at `first`.
  std::string writer(const std::string& first) const {
    if (sp_.d != Dialect::Cuda) return first == "1" ? "" : "if (" + first + ") ";
    return "if (pf_lane == 0" + (first == "1" ? std::string() : " && " + first) + ") ";
  }

  std::string printCombine() const {
    const KernelPlan& kp = k_.plan;
    if (kp.streamedTile()) return printStreamedCombine();
    std::vector<const Statement*> outs;
    for (int m : kp.splitMembers()) outs.push_back(&prog_.statements[size_t(kp.statements[size_t(m)])]);
    const Statement& st = *outs.front();
    const SizedStatement& ss = at_.statement(st.id);
    std::ostringstream os;
    os << combineOpening(sp_.d == Dialect::Cuda ? ") in a fixed order, the same every run." : ") in chunk order.",
                         kp.combinePoints());
    std::string rem = "pf_o";
    for (int d = st.numParallel - 1; d >= 0; --d) {
      int64_t ext = ss.hi[d] - ss.lo[d];
      os << "    const " << sp_.index << " " << cName(st.dims[d]) << " = " << ss.lo[d] << " + (" << sp_.index << ")(" << rem << (d > 0 ? " % " + std::to_string(ext) : "") << ");\n";
      rem = "(" + rem + " / " + std::to_string(ext) + ")";
    }
    std::string lhs = globalC(st.write);
    const bool cuda = sp_.d == Dialect::Cuda;
    // In CUDA the lanes start from the identity, and the output's value joins the fold.
    os << "    " << sp_.real << " pf_acc = " << (st.init || cuda ? identity(st.op, sp_) : lhs) << ";\n"
       << "    " << chunkLoop() << " pf_acc = " << combine(st.op, "pf_acc", partialC(st), sp_) << ";\n";
    if (cuda) {
      os << "    " << foldLanes(st.op, "pf_acc") << "\n";
      if (!st.init) os << "    pf_acc = " << combine(st.op, lhs, "pf_acc", sp_) << ";\n";
    }
    os << "    " << writer("1") << assign(lhs, "pf_acc", st.write.tensor) << ";\n";
    if (outs.size() > 1) {
      // The streamed sum: its dims are the maximum's (the plan aligned them), named apart.
      const Statement& sum = *outs[1];
      const StreamChain rp = streamChain(prog_, sum);
      auto [decl, inner] = sumAliases(st, sum, rp, false);
      std::string mPart = partialC(st);
      os << "    " << sp_.real << " pf_sum = " << sp_.literal("0") << ";\n"
         << "    { " << decl << "{ " << inner << "\n"
         << "      " << chunkLoop() << " pf_sum += " << partialC(sum) << " * pf_rescale(" << mPart << ", pf_acc);\n"
         << (cuda ? "      " + foldLanes(ReduceOp::Add, "pf_sum") + "\n" : std::string())
         << "      " << writer("1") << assign(globalC(sum.write), "pf_sum", sum.write.tensor) << ";\n    } }\n";
    }
    os << "  }\n}\n";
    return os.str();
  }

 private:

  std::string valueC(const Statement& st, const Expr& e) const {
    return valueText(st, e, sp_, at_.sizes(), [&](const Access& a) { return accessC(a, &st); });
  }

  // Declares loop extents and decomposes a linear index into the loops' variables.
  static void decompose(std::ostream& os, const std::vector<const LoopIR*>& loops, const std::string& linear,
                        const std::string& indent, const std::string& index) {
    std::string rem = linear;
    for (int q = int(loops.size()) - 1; q >= 0; --q) {
      const LoopIR& l = *loops[q];
      if (q == 0) os << indent << "const " << index << " " << l.var << " = " << indexC(l.lo) << " + " << rem << ";\n";
      else os << indent << "const " << index << " " << l.var << " = " << indexC(l.lo) << " + " << rem << " % pf_ext_" << l.var << ";\n";
      if (q > 0) rem = "(" + rem + " / pf_ext_" + l.var + ")";
    }
  }

  // The threads that share a statement's points: the block's, or under WarpPerRow one
  // warp's lanes, while `live` (the block's last tile may hold fewer rows than warps;
  // such a warp still reaches OpenCL's barriers, idle).
  struct Lanes {
    std::string tid = "pf_tid", count = "pf_nthreads", live;
    std::string when(const std::string& cond) const { return live.empty() ? cond : live + " && " + cond; }
  };
  // The loop of a thread's steps over `count` points: strided by the threads, or, running
  // a row in registers, the plan's steps unrolled (a step past the end does nothing).
  std::string stepLoop(const std::string& var, const std::string& count, const Lanes& lanes, bool unrolled,
                       const std::string& ind) const {
    if (!unrolled)
      return ind + "for (" + sp_.index + " " + var + " = " + lanes.tid + "; " + lanes.when(var + " < " + count) + "; " +
             var + " += " + lanes.count + ") {\n";
    return ind + "#pragma unroll\n" + ind + "for (int pf_s = 0; pf_s < " + std::to_string(k_.plan.registerSteps) +
           "; ++pf_s) {\n" + ind + "  const " + sp_.index + " " + var + " = " + lanes.tid + " + pf_s * " + lanes.count + ";\n" +
           ind + "  if (!(" + lanes.when(var + " < " + count) + ")) continue;\n";
  }

  // One reduction of pf_part across the threads of `lanes`. CUDA's block reduction takes
  // one barrier: consecutive reductions alternate halves of pf_red, so none overwrites
  // the partials another warp still reads; its warp reduction is shuffles alone.
  std::string blockReduce(ReduceOp op, const Lanes& lanes) const {
    const std::string name = reduceKind(op).name;
    if (!lanes.live.empty())
      return sp_.d == Dialect::Cuda ? "pf_warp_reduce_" + name + "(pf_part)"
                                    : "pf_warp_reduce_" + name + "(pf_part, pf_red + 32 * pf_warp)";
    const std::string call = "pf_block_reduce_" + name;
    if (sp_.d != Dialect::Cuda) return call + "(pf_part, pf_red)";
    return call + "(pf_part, pf_red + 32 * pf_red_half); pf_red_half ^= 1";
  }

  // A reduction down the block's columns (the plan's ColumnTile): thread pf_col of each
  // group holds the tile's columns from pf_col x lanes (one, or a 16-byte vector of
  // adjacent ones: columnLanes), and the groups split the reduction in turn (pf_r =
  // group, group + groups, ...), so that each step's loads along a row of the column tile
  // are consecutive; each column's partials combine in shared memory, and group 0 writes
  // the column's result.
  void printColumnReduce(std::ostream& os, const StmtIR& s, const Statement& st, const std::vector<const LoopIR*>& par,
                         const std::vector<const LoopIR*>& red, const std::string& fixed, const std::string& value,
                         const std::string& lhs) const {
    const KernelPlan& kp = k_.plan;
    const std::string column = cName(st.dims[size_t(s.threadDim)]), idx = sp_.index;
    const int lanes = kp.columnLanes;
    const LoopIR* col = nullptr;
    std::vector<const LoopIR*> others;
    for (const LoopIR* l : par) {
      if (l->var == column) col = l;
      else others.push_back(l);
    }
    if (lanes > 1 && !col) throw InternalError("the plan gives " + st.label() + " vector lanes along a column isl fixed");
    std::string P = "1", R = "1";
    for (auto* l : others) P += " * pf_ext_" + l->var;
    for (auto* l : red) R += " * pf_ext_" + l->var;
    if (P.size() > 2) P = P.substr(4);
    if (R.size() > 2) R = R.substr(4);
    // A column that isl fixed (a block holding one) is group thread 0's alone; vector
    // lanes split every block's columns into whole vectors (CostModel::vectorize).
    const std::string first = lanes > 1 ? std::to_string(lanes) + " * pf_col" : "pf_col";
    const std::string live = col ? first + " < pf_ext_" + column : "pf_col == 0";
    os << "    for (" << idx << " pf_p = 0; pf_p < " << P << "; ++pf_p) {\n";
    decompose(os, others, "pf_p", "      ", idx);
    if (!fixed.empty()) os << "      " << fixed << "\n";
    if (lanes == 1) {
      if (col) os << "      const " << idx << " " << column << " = " << indexC(col->lo) << " + pf_col;\n";
      os << "      " << sp_.real << " pf_part = " << identity(st.op, sp_) << ";\n";
    } else {
      os << "      const " << idx << " pf_vb = " << indexC(col->lo) << " + " << first << ";  // the thread's first column\n";
      os << "      " << sp_.real << " pf_part[" << lanes << "] = {";
      for (int k = 0; k < lanes; ++k) os << (k ? ", " : "") << identity(st.op, sp_);
      os << "};\n";
    }
    os << "      if (" << live << ") {\n";
    os << "        for (" << idx << " pf_r = pf_grp; pf_r < " << R << "; pf_r += " << kp.reduceGroups() << ") {\n";
    const std::string ind = "          ";
    decompose(os, red, "pf_r", ind, idx);
    if (lanes == 1) {
      if (const std::string copies = cacheCopies(st); !copies.empty()) os << ind << copies << "\n";
      os << ind << "pf_part = " << combine(st.op, "pf_part", value, sp_) << ";\n";
    } else {
      const std::vector<bool> vectorRead = printVectorLoads(os, s.member, st, lanes, column, ind);
      printCachedLanes(os, st, vectorRead, lanes, column, ind, [](int) {});
      for (int k = 0; k < lanes; ++k) {
        const std::string part = "pf_part[" + std::to_string(k) + "]";
        printLane(os, ind, column, k, part + " = " + combine(st.op, part, laneValue(st, vectorRead, k), sp_) + ";");
      }
    }
    os << "        }\n      }\n";
    const std::string call = "pf_column_reduce_" + std::string(reduceKind(st.op).name) + "(" +
                             (lanes == 1 ? "&pf_part" : "pf_part") + ", " + std::to_string(lanes) + ", pf_red";
    const std::string shape = ", " + std::to_string(kp.groupThreads()) + ", " + std::to_string(kp.threadsPerBlock) + ")";
    if (sp_.d == Dialect::Cuda)
      os << "      " << call << " + " << kp.columnScratchSlots() / 2 << " * pf_red_half" << shape << "; pf_red_half ^= 1;\n";
    else
      os << "      " << call << shape << ";\n";
    if (lanes == 1) {
      const std::string v = st.init ? "pf_part" : combine(st.op, lhs, "pf_part", sp_);
      os << "      if (" << live << " && pf_grp == 0) " << assign(lhs, v, st.write.tensor) << ";\n";
    } else {
      os << "      if (" << live << " && pf_grp == 0) {\n";
      for (int k = 0; k < lanes; ++k) {
        const std::string part = "pf_part[" + std::to_string(k) + "]";
        printLane(os, "        ", column, k, assign(lhs, st.init ? part : combine(st.op, lhs, part, sp_), st.write.tensor) + ";");
      }
      os << "      }\n";
    }
    os << "    }\n";
  }

  // Whether access a (of st) reads other elements along dimension `dim` of st.
  static bool accessUses(const Statement& st, const Access& a, const std::string& dim) {
    for (size_t p = 0; p < a.subscripts.size(); ++p)
      if (a.subscripts[p].coefficient(dim) != 0 || (a.indirectAt(p) >= 0 && accessUses(st, st.reads[size_t(a.indirect[p])], dim)))
        return true;
    return false;
  }
  // Whether e's value changes along dimension `dim` of st (indexOnly: through the index
  // itself used as a value).
  static bool dependsOn(const Statement& st, const Expr& e, const std::string& dim, bool indexOnly = false) {
    if (e.kind == ExprKind::Index && e.name == dim) return true;
    if (e.kind == ExprKind::Access) return !indexOnly && accessUses(st, st.reads[size_t(e.ref)], dim);
    for (auto& a : e.args)
      if (dependsOn(st, *a, dim, indexOnly)) return true;
    return false;
  }
  static void invariantDivisors(const Statement& st, const Expr& e, const std::string& dim, std::vector<const Expr*>& out) {
    if (e.kind == ExprKind::Div && !dependsOn(st, *e.args[1], dim)) out.push_back(&e);
    for (auto& a : e.args) invariantDivisors(st, *a, dim, out);
  }

  static constexpr const char* kLane[] = {".x", ".y", ".z", ".w"};

  // A vector step's first element, pf_vb, along the innermost of `loops` (the thread
  // dimension, pf_vext_<var> vectors long), and the outer loops' variables, from the
  // step's linear index `linear`.
  void printVectorStep(std::ostream& os, const std::vector<const LoopIR*>& loops, std::string linear, int width,
                       const std::string& ind) const {
    const std::string& in = loops.back()->var;
    os << ind << "const " << sp_.index << " pf_vb = " << indexC(loops.back()->lo) << " + " << width << " * ("
       << (loops.size() > 1 ? linear + " % pf_vext_" + in : linear) << ");\n";
    if (loops.size() > 1) linear = "(" + linear + " / pf_vext_" + in + ")";
    for (int q = int(loops.size()) - 2; q >= 0; --q) {
      const LoopIR& l = *loops[size_t(q)];
      os << ind << "const " << sp_.index << " " << l.var << " = " << indexC(l.lo) << " + " << (q > 0 ? linear + " % pf_ext_" + l.var : linear)
         << ";\n";
      if (q > 0) linear = "(" + linear + " / pf_ext_" + l.var + ")";
    }
  }

  // The step's 128-bit loads (pf_v<r>) of member m's reads that the plan aligns for them;
  // which reads they are.
  std::vector<bool> printVectorLoads(std::ostream& os, size_t m, const Statement& st, int width, const std::string& in,
                                     const std::string& ind) const {
    const std::string vec = sp_.real + std::to_string(width);
    const SizedStatement& ss = at_.statement(st.id);
    std::vector<bool> vectorRead(st.reads.size(), false);
    for (size_t r = 0; r < st.reads.size(); ++r) {
      if (!k_.plan.vectorAccess(prog_, at_.sizes(), m, ss.reads[r], width)) continue;
      vectorRead[r] = true;
      const std::string element = accessC(st.reads[r], &st);
      os << ind << vec << " pf_v" << r << ";\n";
      os << ind << "{ const " << sp_.index << " " << in << " = pf_vb; pf_v" << r << " = "
         << (sp_.d == Dialect::Cuda ? "*reinterpret_cast<const " + vec + "*>(&" + element + ")"
                                    : "vload" + std::to_string(width) + "(0, &" + element + ")")
         << "; }\n";
    }
    return vectorRead;
  }

  // Lane k's scope in a vector step: `in`, the thread dimension's variable, is the lane's
  // element where the body still names it.
  void printLane(std::ostream& os, const std::string& ind, const std::string& in, int k, const std::string& body) const {
    const bool named = std::regex_search(body, std::regex("\\b" + in + "\\b"));
    os << ind << "{ " << (named ? "const " + sp_.index + " " + in + " = pf_vb + " + std::to_string(k) + "; " : "") << body
       << " }\n";
  }
  // Lane k's value of st in a vector step: the reads the step loaded as vectors (pf_v<r>)
  // give their lane, the others are read as they are.
  std::string laneValue(const Statement& st, const std::vector<bool>& vectorRead, int k,
                        const Reciprocals* reciprocal = nullptr) const {
    auto access = [&](const Access& a) {
      const ptrdiff_t r = &a - st.reads.data();
      if (r >= 0 && size_t(r) < st.reads.size() && vectorRead[size_t(r)]) return "pf_v" + std::to_string(r) + kLane[k];
      return accessC(a, &st);
    };
    return valueText(st, *st.rhs, sp_, at_.sizes(), access, reciprocal);
  }

  // In a vector step of the first reader of an input cached on chip: each loaded vector's
  // lanes go on chip, and the elements of its other reads of it. `atLane(k)` readies lane
  // k (its register slot, where the step runs a row in registers).
  void printCachedLanes(std::ostream& os, const Statement& st, const std::vector<bool>& vectorRead, int width,
                        const std::string& in, const std::string& ind, const std::function<void(int)>& atLane) const {
    for (size_t r = 0; r < st.reads.size(); ++r)
      if (const OnChipArray* c = cachedInput(st.reads[r].tensor); vectorRead[r] && c)
        for (int k = 0; k < width; ++k) {
          atLane(k);
          printLane(os, ind, in, k, localC(st.reads[r], *c, &st) + " = pf_v" + std::to_string(r) + kLane[k] + ";");
        }
    for (int k = 0; k < width; ++k) {
      atLane(k);
      if (const std::string copies = cacheCopies(st, vectorRead); !copies.empty()) printLane(os, ind, in, k, copies);
    }
  }


  // A statement whose threads take `width` consecutive elements a step (the plan's
  // vectorWidth): the aligned global accesses move as one 128-bit vector, the lanes
  // compute one after another in registers, and a divisor that does not change along
  // the thread dimension is inverted once a step.
  void printVectorized(std::ostream& os, const StmtIR& s, const Statement& st, const std::vector<const LoopIR*>& par,
                       const std::vector<const LoopIR*>& red, const std::string& P, const std::string& fixed,
                       const std::string& lhs, const std::string& init, int width, const Lanes& lanes) const {
    const bool pointwise = s.mode == StmtMode::Pointwise;
    const std::vector<const LoopIR*>& loops = pointwise ? par : red;
    const int x = s.threadDim;
    if (loops.empty() || x < 0 || loops.back()->var != cName(st.dims[size_t(x)]))
      throw InternalError("the plan vectorizes " + st.label() + " along a dimension its innermost thread loop does not run");
    const std::string& in = loops.back()->var;
    const std::string vec = sp_.real + std::to_string(width);
    const SizedStatement& ss = at_.statement(st.id);
    auto aligned = [&](const SizedAccess& a) { return k_.plan.vectorAccess(prog_, at_.sizes(), s.member, a, width); };
    os << "    const " << sp_.index << " pf_vext_" << in << " = pf_ext_" << in << " / " << width << ";  // "
       << width << "-wide vectors\n";
    std::string count = "pf_vext_" + in;
    for (size_t q = 0; q + 1 < loops.size(); ++q) count += " * pf_ext_" + loops[q]->var;
    const std::string ind = pointwise ? "      " : "        ";
    const bool unrolled = k_.plan.runsRegisterRow(prog_, s.member);
    if (pointwise) {
      os << stepLoop("pf_p", count, lanes, unrolled, "    ");
    } else {
      os << "    for (" << sp_.index << " pf_p = 0; pf_p < " << P << "; ++pf_p) {\n";
      decompose(os, par, "pf_p", "      ", sp_.index);
      if (!fixed.empty()) os << "      " << fixed << "\n";
      os << "      " << sp_.real << " pf_part = " << identity(st.op, sp_) << ";\n";
      os << stepLoop("pf_r", count, lanes, unrolled, "      ");
    }
    // Lane k of the step: its register slot, where the statement runs a row there.
    auto atLane = [&](int k) {
      if (unrolled) slot_ = width == 1 ? "pf_s" : "pf_s * " + std::to_string(width) + " + " + std::to_string(k);
    };
    printVectorStep(os, loops, pointwise ? "pf_p" : "pf_r", width, ind);
    if (pointwise && !fixed.empty()) os << ind << fixed << "\n";
    const std::vector<bool> vectorRead = printVectorLoads(os, s.member, st, width, in, ind);
    Reciprocals reciprocal;
    std::vector<const Expr*> divisions;
    invariantDivisors(st, *st.rhs, st.dims[size_t(x)], divisions);
    for (const Expr* d : divisions) {
      const std::string name = "pf_rcp" + std::to_string(reciprocal.size());
      os << ind << "const " << sp_.real << " " << name << " = " << sp_.literal("1") << " / "
         << valueText(st, *d->args[1], sp_, at_.sizes(), [&](const Access& a) { return accessC(a, &st); }) << ";\n";
      reciprocal[d] = name;
    }
    const bool vectorWrite = pointwise && st.op == ReduceOp::Assign && aligned(ss.write);
    if (vectorWrite) os << ind << vec << " pf_w;\n";
    auto laneScope = [&](int k, const std::string& body) { printLane(os, ind, in, k, body); };
    printCachedLanes(os, st, vectorRead, width, in, ind, atLane);
    // Where the step's value lands: in the reduction's partial, the vector to store, or lhs
    // (a register's, named per lane).
    auto result = [&](int k, const std::string& value) {
      atLane(k);
      const std::string out = unrolled ? accessC(st.write) : lhs;
      if (!pointwise) laneScope(k, "pf_part = " + combine(st.op, "pf_part", value, sp_) + ";");
      else if (vectorWrite) laneScope(k, std::string("pf_w") + kLane[k] + " = " + value + ";");
      else laneScope(k, assign(out, st.op == ReduceOp::Assign ? value : combine(st.op, init, value, sp_), st.write.tensor) + ";");
    };
    const bool guarded = std::any_of(st.reads.begin(), st.reads.end(), [](const Access& a) { return a.guarded(); });
    if (sp_.d == Dialect::OpenCL && !dependsOn(st, *st.rhs, st.dims[size_t(x)], true) && !scalarOnly(*st.rhs) && !guarded) {
      // OpenCL computes the step as one vector expression (its builtins take vectors): a
      // CPU device keeps its math vectorized, where four scalar expf calls a step halved
      // PoCL's fused softmax. Reads that change along the row but are not one vector load
      // gather their lanes first; the others are the same in every lane. A vector select
      // evaluates both sides: a guarded read keeps its lanes scalar, read where taken.
      std::vector<bool> lanesRead(st.reads.size(), false);
      for (size_t r = 0; r < st.reads.size(); ++r) {
        if (vectorRead[r] || !accessUses(st, st.reads[r], st.dims[size_t(x)])) continue;
        lanesRead[r] = true;
        os << ind << vec << " pf_g" << r << ";\n";
        for (int k = 0; k < width; ++k) {
          atLane(k);
          laneScope(k, "pf_g" + std::to_string(r) + kLane[k] + " = " + accessC(st.reads[r], &st) + ";");
        }
      }
      auto access = [&](const Access& a) {
        const ptrdiff_t r = &a - st.reads.data();
        if (r >= 0 && size_t(r) < st.reads.size() && vectorRead[size_t(r)]) return "pf_v" + std::to_string(r);
        if (r >= 0 && size_t(r) < st.reads.size() && lanesRead[size_t(r)]) return "pf_g" + std::to_string(r);
        return "((" + vec + ")(" + accessC(a, &st) + "))";
      };
      Spelling vsp = sp_;
      vsp.vector = vec;
      os << ind << vec << " pf_val = " << valueText(st, *st.rhs, vsp, at_.sizes(), access, &reciprocal) << ";\n";
      if (vectorWrite) os << ind << "pf_w = pf_val;\n";
      else
        for (int k = 0; k < width; ++k) result(k, std::string("pf_val") + kLane[k]);
    } else {
      for (int k = 0; k < width; ++k) {
        atLane(k);
        result(k, laneValue(st, vectorRead, k, &reciprocal));
      }
    }
    if (vectorWrite) {
      // CUDA's store is __stwb (st.global.wb, the default policy) rather than an
      // assignment through the cast pointer: nvcc split that assignment into four scalar
      // stores in kernels with 64-bit indices (the 16384 x 151936 softmax's Y).
      const std::string element = accessC(st.write);
      os << ind << "{ const " << sp_.index << " " << in << " = pf_vb; "
         << (sp_.d == Dialect::Cuda ? "__stwb(reinterpret_cast<" + vec + "*>(&" + element + "), pf_w);"
                                    : "vstore" + std::to_string(width) + "(pf_w, 0, &" + element + ");")
         << " }\n";
    }
    // The range's last elements, fewer than a vector: one a thread (the plan vectorizes a
    // range that is no multiple of the width only when it is the member's one loop).
    const int64_t extent = ss.hi[size_t(x)] - ss.lo[size_t(x)];
    auto tail = [&](const std::string& var, const std::string& in2) {
      if (extent % width == 0) return;
      if (loops.size() != 1) throw InternalError("a scalar tail after the vectors of a loop nest in " + st.label());
      os << in2 << "for (" << sp_.index << " " << var << " = pf_vext_" << in << " * " << width << " + " << lanes.tid << "; "
         << lanes.when(var + " < pf_ext_" + in) << "; " << var << " += " << lanes.count << ") {  // the scalar tail\n";
      os << in2 << "  const " << sp_.index << " " << in << " = " << indexC(loops.back()->lo) << " + " << var << ";\n";
      if (pointwise && !fixed.empty()) os << in2 << "  " << fixed << "\n";
      if (const std::string copies = cacheCopies(st); !copies.empty()) os << in2 << "  " << copies << "\n";
      const std::string value = valueC(st, *st.rhs);
      if (!pointwise) os << in2 << "  pf_part = " << combine(st.op, "pf_part", value, sp_) << ";\n";
      else os << in2 << "  " << assign(lhs, st.op == ReduceOp::Assign ? value : combine(st.op, init, value, sp_), st.write.tensor) << ";\n";
      os << in2 << "}\n";
    };
    if (!pointwise) {
      os << "      }\n";
      tail("pf_r", "      ");
      os << "      pf_part = " << blockReduce(st.op, lanes) << ";\n";
      os << "      " << reductionResult(st, s.mode, lhs, lanes) << "\n";
    }
    os << "    }\n";
    if (pointwise) tail("pf_p", "    ");
  }

  // Whether this piece of the plan's tiled contraction has the loops the tiling runs: p
  // and q parallel, r the reduction, no dimension fixed. (Another piece runs the plain
  // loops, with the same threads.)
  bool tiledPiece(const StmtIR& s, const Statement& st, const PieceIR& piece) const {
    const ContractionTile* t = k_.plan.contractionOf(s.member);
    if (!t || piece.loops.size() != 3) return false;
    const ContractionTile& c = *t;
    return piece.loops[size_t(c.p)].var == cName(st.dims[size_t(c.p)]) && !piece.loops[size_t(c.p)].reduction &&
           piece.loops[size_t(c.q)].var == cName(st.dims[size_t(c.q)]) && !piece.loops[size_t(c.q)].reduction &&
           piece.loops[2].var == cName(st.dims[2]) && piece.loops[2].reduction;
  }

  // The plan's tiled contraction (ContractionTile): per step of r, the block stages each
  // read's slice in shared memory, then each thread runs its micro x micro outputs from
  // registers, or each warp its warp tile on tensor cores; the accumulators meet the
  // output once, after the last step. (OpenCL has no tensor cores: there a tensor-core
  // tile runs on the FMA units, its padded slices as planned.)
  void printTiledContraction(std::ostream& os, const ContractionTile& c, const Statement& st, const PieceIR& piece,
                             const std::string& lhs) const {
    const bool mma = c.tensorCores() && sp_.d == Dialect::Cuda;
    // 16-bit operands are staged as stored (ContractionTile::stageBytes): the buffer read
    // as 16-bit words, decoded where the FMA units read them (OpenCL).
    const bool halves = c.halfOperands();
    const std::string narrow = c.engine == ContractionEngine::TensorCoresF16 ? "half" : "bf16";
    const std::string buffer = halves ? "pf_stage16" : "pf_stage";
    if (halves)
      os << (sp_.d == Dialect::Cuda ? "    unsigned short* pf_stage16 = reinterpret_cast<unsigned short*>(pf_stage);"
                                    : "    __local ushort* pf_stage16 = (__local ushort*)pf_stage;")
         << "  // " << narrow << " operands, staged as stored\n";
    auto staged = [&](const std::string& element) { return halves ? "pf_value_" + narrow + "(" + element + ")" : element; };
    // Read r's slice starts at stage[r] in the shared buffer.
    std::vector<int64_t> stage{0};
    for (size_t r = 0; r < c.alongP.size(); ++r) stage.push_back(stage.back() + c.lines(r) * c.lineElements(r));
    // Read r's slice in the buffer at `buf` (empty: the first); the steps compute from
    // pf_cb's.
    auto slice = [&](size_t r, const std::string& buf) {
      return buffer + "[" + (buf.empty() ? std::string() : buf + " + ") + (stage[r] ? std::to_string(stage[r]) + " + " : std::string());
    };
    const std::string current = c.stages > 1 ? "pf_cb" : "";
    const LoopIR &lp = piece.loops[size_t(c.p)], &lq = piece.loops[size_t(c.q)], &lr = piece.loops[2];
    const int64_t threadsP = c.tileP / c.micro, threadsQ = c.tileQ / c.micro;
    const int64_t warpsQ = c.tileQ / c.warpQ();
    const std::string& ix = sp_.index;
    const std::string unroll = "#pragma unroll\n";
    // A thread's accumulators are micro x micro either way (on tensor cores, warpP / 8 x warpQ / 4).
    const std::string m = std::to_string(c.micro);
    if (mma) {
      // A thread's accumulators pf_acc[a][b], as mma.sync's fragment of each m16n8 tile
      // lays them out: a = 2 x (16-row tile) + (upper or lower 8 rows), rows pf_g;
      // b = 2 x (8-column tile) + (even or odd column), columns 2 pf_t and 2 pf_t + 1.
      os << (c.halfOperands() ? std::string("    // tensor cores: mma.sync m16n8k16 on ") +
                                    (c.engine == ContractionEngine::TensorCoresF16 ? "f16" : "bf16") +
                                    " operands (staged as stored, fragments by ldmatrix), f32 accumulators;\n"
                              : std::string("    // tensor cores: mma.sync m16n8k8 on TF32 operands (rounded to nearest as fragments "
                                            "load them), f32 accumulators;\n"))
         << "    // warps of " << c.warpP() << " x " << c.warpQ() << " outputs (" << lp.var
         << " x " << lq.var << "), " << warpsQ << " along " << lq.var << "; " << lr.var << " staged " << c.kStep
         << " steps at a time\n";
      os << "    const int pf_g = (pf_tid & 31) >> 2, pf_t = pf_tid & 3, pf_wp = (pf_tid >> 5) / " << warpsQ
         << ", pf_wq = (pf_tid >> 5) % " << warpsQ << ";\n";
    } else {
      os << "    // " << c.micro << " x " << c.micro << " consecutive outputs a thread (" << threadsP << " x " << threadsQ
         << " threads along " << lp.var << " and " << lq.var << "), " << lr.var << " staged " << c.kStep << " steps at a time\n";
      os << "    const int pf_tp = pf_tid / " << threadsQ << ", pf_tq = pf_tid % " << threadsQ << ";\n";
    }
    os << "    " << sp_.real << " pf_acc[" << m << "][" << m << "];\n";
    // Strict numerics: an update of a value computed before (a bias) continues from it,
    // as the serial loop does, instead of adding the tile's sum to it at the end.
    const bool continues = sp_.strict && !st.init && !accumulatorOnly(st.write.tensor);
    const std::string offP = mma ? "pf_wp * " + std::to_string(c.warpP()) + " + (pf_a >> 1) * 16 + (pf_a & 1) * 8 + pf_g"
                                 : "pf_tp * " + m + " + pf_a";
    const std::string offQ = mma ? "pf_wq * " + std::to_string(c.warpQ()) + " + (pf_b >> 1) * 8 + pf_t * 2 + (pf_b & 1)"
                                 : "pf_tq * " + m + " + pf_b";
    auto outputs = [&](const std::string& ind) {
      return ind + "const " + ix + " " + lp.var + " = " + indexC(lp.lo) + " + " + offP + ", " + lq.var + " = " + indexC(lq.lo) + " + " + offQ + ";\n";
    };
    os << unroll << "    for (int pf_a = 0; pf_a < " << m << "; ++pf_a)\n" << unroll << "      for (int pf_b = 0; pf_b < " << m;
    if (continues) {
      os << "; ++pf_b) {\n" << outputs("        ") << "        pf_acc[pf_a][pf_b] = " << lp.var << " < " << indexC(lp.hi) << " && "
         << lq.var << " < " << indexC(lq.hi) << " ? " << lhs << " : " << identity(st.op, sp_) << ";\n      }\n";
    } else {
      os << "; ++pf_b) pf_acc[pf_a][pf_b] = " << identity(st.op, sp_) << ";\n";
    }
    // Stages the step whose first r is `ks` (C text) into the buffer that starts at `buf`
    // (empty: the only one). Zeros pad the slices past the extents; the copies of a
    // pipelined tile go by cp.async where the element is one of global memory as is.
    auto stageStep = [&](const std::string& ks, const std::string& buf, const std::string& ind) {
      for (size_t r = 0; r < c.alongP.size(); ++r) {
        // Consecutive threads take consecutive elements of the slice's rows: along r for a
        // [tileP x kStep] or [tileQ x kStep] slice, along q for a [kStep x tileQ] one.
        const LoopIR& other = c.alongP[r] ? lp : lq;
        const bool byR = c.alongP[r] || c.alongR(r);
        const int64_t rows = byR ? c.across(r) : c.kStep, cols = byR ? c.kStep : c.tileQ;
        const std::string rowIdx = "(pf_e / " + std::to_string(cols) + ")", colIdx = "(pf_e % " + std::to_string(cols) + ")";
        const std::string otherOff = byR ? rowIdx : colIdx, rOff = byR ? colIdx : rowIdx;
        // Where element (other, r) of the slice lies: line r, or line `other` where the
        // slice's lines run along r.
        const std::string line = std::to_string(c.lineElements(r));
        const std::string at = c.alongR(r) ? otherOff + " * " + line + " + " + rOff
                               : !c.alongP[r] && c.lineElements(r) == cols ? "pf_e"
                                                                           : rOff + " * " + line + " + " + otherOff;
        const std::string dst = slice(r, buf) + at + "]";
        const std::string inside = otherOff + " < pf_ext_" + other.var + " && " + ks + " + " + rOff + " < pf_ext_" + lr.var;
        // A copy of 16 bytes takes 4 consecutive elements of a slice row (8 halves), where
        // the row lies in global memory as it does in the slice.
        const bool async = c.stages > 1 && copiesAsync(c, r, st);
        const int w = async ? copyWidth(c, r, st) : 1;
        if (w > 1)
          os << ind << "for (int pf_e = pf_tid * " << w << "; pf_e < " << rows * cols << "; pf_e += pf_nthreads * " << w << ") {\n";
        else
          os << ind << "for (int pf_e = pf_tid; pf_e < " << rows * cols << "; pf_e += pf_nthreads) {\n";
        if (async) {
          // Out of the extents: a valid address (the block's first line), nothing read.
          os << ind << "  const bool pf_in = " << inside << ";\n"
             << ind << "  const " << ix << " " << other.var << " = " << indexC(other.lo) << " + (pf_in ? " << otherOff << " : 0), "
             << lr.var << " = " << indexC(lr.lo) << " + " << ks << " + (pf_in ? " << rOff << " : 0);\n"
             << ind << "  pf_copy_async<" << w * c.stageBytes(sp_.realBytes()) << ">(&" << dst << ", &"
             << globalElement(st.reads[r], &st) << ", pf_in);\n";
        } else {
          os << ind << "  " << sp_.real << " pf_x = " << sp_.literal("0") << ";\n"
             << ind << "  if (" << inside << ") { const " << ix << " " << other.var << " = " << indexC(other.lo) << " + " << otherOff
             << "; const " << ix << " " << lr.var << " = " << indexC(lr.lo) << " + " << ks << " + " << rOff
             << "; pf_x = " << accessC(st.reads[r], &st) << "; }\n"
             << ind << "  " << dst << " = " << (halves ? "pf_bits_" + narrow + "(pf_x)" : "pf_x") << ";\n";
        }
        os << ind << "}\n";
      }
    };
    const std::string kStep = std::to_string(c.kStep);
    if (c.stages == 1) {
      os << "    for (" << ix << " pf_k0 = 0; pf_k0 < pf_ext_" << lr.var << "; pf_k0 += " << kStep << ") {\n";
      stageStep("pf_k0", "", "      ");
      os << "      " << sp_.barrier() << "\n";
    } else {
      // The first stages - 1 steps go ahead; then each step stages the one stages - 1
      // later into the buffer the step before it read (the barrier says all are done).
      bool async = false;
      for (size_t r = 0; r < c.alongP.size(); ++r) async = async || copiesAsync(c, r, st);
      const int64_t S = c.stages, stride = c.stageElements();
      os << "    // " << S << " buffers of " << stride << " elements: each step's slices are copied " << S - 1
         << (S == 2 ? " step" : " steps") << " ahead" << (async ? ", by cp.async while the block computes" : "") << "\n";
      for (int64_t k = 0; k + 1 < S; ++k) {
        os << "    {\n      const " << ix << " pf_ks = " << k * c.kStep << ";\n      if (pf_ks < pf_ext_" << lr.var << ") {\n";
        stageStep("pf_ks", k ? std::to_string(k * stride) : "", "        ");
        os << "      }\n" << (async ? "      pf_copy_commit();\n" : "") << "    }\n";
      }
      os << "    for (" << ix << " pf_k0 = 0, pf_it = 0; pf_k0 < pf_ext_" << lr.var << "; pf_k0 += " << kStep << ", ++pf_it) {\n";
      if (async) os << "      pf_copy_wait<" << S - 2 << ">();  // this thread's copies of step pf_it have landed\n";
      os << "      " << sp_.barrier() << "  // every thread's have, and the buffer staged next is read no more\n"
         << "      {\n        const " << ix << " pf_ks = pf_k0 + " << (S - 1) * c.kStep << ";\n        if (pf_ks < pf_ext_"
         << lr.var << ") {\n";
      stageStep("pf_ks", "(pf_it + " + std::to_string(S - 1) + ") % " + std::to_string(S) + " * " + std::to_string(stride),
                "          ");
      os << "        }\n" << (async ? "        pf_copy_commit();\n" : "") << "      }\n"
         << "      const " << ix << " pf_cb = pf_it % " << S << " * " << stride << ";  // step pf_it's buffer\n";
    }
    if (mma) {
      // Each 8 steps: the warp's A fragments (a 16 x 8 tile of the [tileP x kStep] slice
      // per 16 rows), B fragments (8 x 8 of the [kStep x tileQ] slice per 8 columns), and
      // an mma per pair; the padded lines put a fragment's 32 loads in 32 banks. Operands
      // round to TF32 here, not as staged: cp.async copies bits as they are (a pass that
      // rounded each copied element once in place measured 18% slower on the H200).
      const size_t ra = c.alongP[0] ? 0 : 1, rb = 1 - ra;
      const int64_t tilesP = c.warpP() / 16, tilesQ = c.warpQ() / 8;
      if (halves) {
        // Each 16 steps, from the 16-bit words as staged: an A fragment is four 8 x 8 blocks
        // of the [tileP x kStep] slice (rows g and g + 8, r from 0 and 8), one ldmatrix.x4,
        // lane l giving row l % 8 of block l / 8; a B fragment two 8 x 8 blocks of the
        // [kStep x tileQ] one (r from 0 and 8), transposed as they load (.trans), so that
        // a register holds (r, column g) and (r + 1, column g); two B fragments a load (a
        // warp tile is 16 or 32 columns: kMicroTile, kWideMicroTile).
        const std::string la = std::to_string(c.lineElements(ra)), lb = std::to_string(c.lineElements(rb));
        const std::string row = "(((pf_tid >> 3) & 1) * 8 + (pf_tid & 7))";
        os << unroll << "      for (int pf_r = 0; pf_r < " << c.kStep << "; pf_r += 16) {\n";
        os << "        unsigned pf_fa[" << tilesP << "][4], pf_fb[" << 2 * tilesQ << "];  // B fragment b: pf_fb[2 b], pf_fb[2 b + 1]\n";
        os << unroll << "        for (int pf_a = 0; pf_a < " << tilesP << "; ++pf_a)\n"
           << "          pf_ldmatrix_x4_b16(pf_fa[pf_a], &" << slice(ra, current) << "(pf_wp * " << c.warpP() << " + pf_a * 16 + "
           << row << ") * " << la << " + pf_r + ((pf_tid >> 4) & 1) * 8]);\n";
        if (tilesQ % 2) throw InternalError("a warp tile of an odd number of 8-column tiles on 16-bit tensor cores");
        os << unroll << "        for (int pf_b = 0; pf_b < " << tilesQ << "; pf_b += 2)\n";
        if (c.alongR(rb))  // [tileQ x kStep]: blocks (columns b, r from 0), (b, r from 8), (b + 1, 0), (b + 1, 8)
          os << "          pf_ldmatrix_x4_b16(pf_fb + 2 * pf_b, &" << slice(rb, current) << "(pf_wq * " << c.warpQ()
             << " + (pf_b + ((pf_tid >> 4) & 1)) * 8 + (pf_tid & 7)) * " << lb << " + pf_r + ((pf_tid >> 3) & 1) * 8]);\n";
        else
          os << "          pf_ldmatrix_x4_trans_b16(pf_fb + 2 * pf_b, &" << slice(rb, current) << "(pf_r + " << row << ") * " << lb
             << " + pf_wq * " << c.warpQ() << " + (pf_b + ((pf_tid >> 4) & 1)) * 8]);\n";
        os << unroll << "        for (int pf_a = 0; pf_a < " << tilesP << "; ++pf_a)\n" << unroll
           << "          for (int pf_b = 0; pf_b < " << tilesQ << "; ++pf_b)\n"
           << "            " << (c.engine == ContractionEngine::TensorCoresF16 ? "pf_mma_f16" : "pf_mma_bf16")
           << "(pf_acc[2 * pf_a][2 * pf_b], pf_acc[2 * pf_a][2 * pf_b + 1], pf_acc[2 * pf_a + 1][2 * pf_b],\n"
           << "                        pf_acc[2 * pf_a + 1][2 * pf_b + 1], pf_fa[pf_a], pf_fb + 2 * pf_b);\n";
      } else {
      os << unroll << "      for (int pf_r = 0; pf_r < " << c.kStep << "; pf_r += 8) {\n";
      os << "        float pf_fa[" << tilesP << "][4], pf_fb[" << 2 * tilesQ << "];  // B fragment b: pf_fb[2 b], pf_fb[2 b + 1]\n";
      // An A fragment is four 8 x 4 blocks of 32-bit words (rows g and g + 8, columns t
      // and t + 4): one ldmatrix.x4, each lane giving one block row's address.
      os << unroll << "        for (int pf_a = 0; pf_a < " << tilesP << "; ++pf_a) {\n"
         << "          pf_ldmatrix_x4(pf_fa[pf_a], &" << slice(ra, current) << "(pf_wp * " << c.warpP()
         << " + pf_a * 16 + ((pf_tid >> 3) & 1) * 8 + (pf_tid & 7)) * " << c.lineElements(ra)
         << " + pf_r + ((pf_tid >> 4) & 1) * 4]);\n"
         << unroll << "          for (int pf_h = 0; pf_h < 4; ++pf_h) pf_fa[pf_a][pf_h] = pf_tf32(pf_fa[pf_a][pf_h]);\n"
         << "        }\n";
      if (c.alongR(rb)) {
        // [tileQ x kStep]: a B fragment is two 8 x 4 blocks of words (columns b, r from 0
        // and 4), two fragments one ldmatrix.x4.
        if (tilesQ % 2) throw InternalError("a warp tile of an odd number of 8-column tiles on tensor cores");
        os << unroll << "        for (int pf_b = 0; pf_b < " << tilesQ << "; pf_b += 2) {\n"
           << "          pf_ldmatrix_x4(pf_fb + 2 * pf_b, &" << slice(rb, current) << "(pf_wq * " << c.warpQ()
           << " + (pf_b + ((pf_tid >> 4) & 1)) * 8 + (pf_tid & 7)) * " << c.lineElements(rb) << " + pf_r + ((pf_tid >> 3) & 1) * 4]);\n"
           << unroll << "          for (int pf_h = 0; pf_h < 4; ++pf_h) pf_fb[2 * pf_b + pf_h] = pf_tf32(pf_fb[2 * pf_b + pf_h]);\n"
           << "        }\n";
      } else {
        os << unroll << "        for (int pf_b = 0; pf_b < " << tilesQ << "; ++pf_b)\n" << unroll
           << "          for (int pf_h = 0; pf_h < 2; ++pf_h)\n"
           << "            pf_fb[2 * pf_b + pf_h] = pf_tf32(" << slice(rb, current) << "(pf_r + pf_h * 4 + pf_t) * " << c.lineElements(rb)
           << " + pf_wq * " << c.warpQ() << " + pf_b * 8 + pf_g]);\n";
      }
      os << unroll << "        for (int pf_a = 0; pf_a < " << tilesP << "; ++pf_a)\n" << unroll
         << "          for (int pf_b = 0; pf_b < " << tilesQ << "; ++pf_b)\n"
         << "            pf_mma_tf32(pf_acc[2 * pf_a][2 * pf_b], pf_acc[2 * pf_a][2 * pf_b + 1], pf_acc[2 * pf_a + 1][2 * pf_b],\n"
         << "                        pf_acc[2 * pf_a + 1][2 * pf_b + 1], pf_fa[pf_a], pf_fb + 2 * pf_b);\n";
      }
    } else {
      // A product of its reads adds nothing where a staged operand is the slices' zero
      // padding: every step runs the whole slice, a loop the compiler unrolls.
      // Strict numerics add no padding: a zero term can turn -0 into +0.
      // (128-bit loads only in those whole, unrolled steps: in a loop that stops at the
      // reduction's end nvcc spilled them, bias_matmul's strict update at 80 registers.)
      const bool wholeSteps = isProduct(*st.rhs) && !sp_.strict;
      if (wholeSteps) {
        os << unroll << "      for (int pf_r = 0; pf_r < " << c.kStep << "; ++pf_r) {\n";
      } else {
        os << "      const " << ix << " pf_kn = pf_ext_" << lr.var << " - pf_k0 < " << c.kStep << " ? pf_ext_" << lr.var
           << " - pf_k0 : " << c.kStep << ";\n";
        os << "      for (int pf_r = 0; pf_r < pf_kn; ++pf_r) {\n";
      }
      for (size_t r = 0; r < c.alongP.size(); ++r) {
        // The thread's micro consecutive values of line pf_r, 4 to a 128-bit load.
        const std::string f = "pf_f" + std::to_string(r), line = std::to_string(c.lineElements(r));
        const std::string first = c.alongP[r] ? "pf_tp * " + m : "pf_tq * " + m;
        os << "        " << sp_.real << " " << f << "[" << m << "];\n";
        if (c.alongR(r)) {
          os << unroll << "        for (int pf_a = 0; pf_a < " << m << "; ++pf_a) " << f << "[pf_a] = "
             << staged(slice(r, current) + "(" + first + " + pf_a) * " + line + " + pf_r]") << ";\n";
        } else if (sp_.f32 && c.micro % 4 == 0 && wholeSteps && !halves) {
          const std::string at = slice(r, current).substr(std::string("pf_stage[").size()) + "pf_r * " + line + " + " + first + " + pf_v]";
          os << unroll << "        for (int pf_v = 0; pf_v < " << m << "; pf_v += 4) {\n          const float4 pf_q4 = "
             << (sp_.d == Dialect::Cuda ? "*reinterpret_cast<const float4*>(&pf_stage[" + at + ")" : "vload4(0, &pf_stage[" + at + ")")
             << ";\n          " << f << "[pf_v] = pf_q4.x; " << f << "[pf_v + 1] = pf_q4.y; " << f << "[pf_v + 2] = pf_q4.z; " << f
             << "[pf_v + 3] = pf_q4.w;\n        }\n";
        } else {
          os << unroll << "        for (int pf_a = 0; pf_a < " << m << "; ++pf_a) " << f << "[pf_a] = "
             << staged(slice(r, current) + "pf_r * " + line + " + " + first + " + pf_a]") << ";\n";
        }
        // A TF32 plan's tile here is OpenCL's, without tensor cores: its operands round as
        // the CUDA kernel's fragments round them, so PoCL computes the plan's products.
        if (c.engine == ContractionEngine::TensorCoresTf32)
          os << unroll << "        for (int pf_a = 0; pf_a < " << m << "; ++pf_a) " << f << "[pf_a] = pf_tf32(" << f << "[pf_a]);\n";
      }
      auto fragment = [&](const Access& a) {
        const size_t r = size_t(&a - st.reads.data());
        return "pf_f" + std::to_string(r) + (c.alongP[r] ? "[pf_a]" : "[pf_b]");
      };
      const std::string value = valueText(st, *st.rhs, sp_, at_.sizes(), fragment);
      os << unroll << "        for (int pf_a = 0; pf_a < " << m << "; ++pf_a)\n" << unroll << "          for (int pf_b = 0; pf_b < "
         << m << "; ++pf_b) {\n";
      if (dependsOn(st, *st.rhs, st.dims[size_t(c.p)], true) || dependsOn(st, *st.rhs, st.dims[size_t(c.q)], true) ||
          dependsOn(st, *st.rhs, st.dims[size_t(c.r)], true))
        os << "            const " << ix << " " << lp.var << " = " << indexC(lp.lo) << " + " << offP << ", " << lq.var << " = " << indexC(lq.lo)
           << " + " << offQ << ", " << lr.var << " = " << indexC(lr.lo) << " + pf_k0 + pf_r;\n";
      os << "            pf_acc[pf_a][pf_b] = " << combine(st.op, "pf_acc[pf_a][pf_b]", value, sp_) << ";\n          }\n";
    }
    if (c.stages == 1)
      os << "      }\n      " << sp_.barrier() << "\n    }\n";
    else  // the next contraction's first steps reuse the buffers
      os << "      }\n    }\n    " << sp_.barrier() << "\n";
    os << unroll << "    for (int pf_a = 0; pf_a < " << m << "; ++pf_a)\n" << unroll << "      for (int pf_b = 0; pf_b < " << m
       << "; ++pf_b) {\n"
       << outputs("        ") << "        if (" << lp.var << " < " << indexC(lp.hi) << " && " << lq.var << " < " << indexC(lq.hi) << ") {\n";
    // Split-K leaves the chunk's sums, in the computing type, for the combine launch.
    if (k_.plan.splitsK())
      os << "          " << lhs << " = pf_acc[pf_a][pf_b];\n";
    else if (!accumulatorOnly(st.write.tensor))
      os << "          "
         << assign(lhs, st.init || continues ? "pf_acc[pf_a][pf_b]" : combine(st.op, lhs, "pf_acc[pf_a][pf_b]", sp_),
                   st.write.tensor)
         << ";\n";
    printEpilogue(os, c, st, lp.var, lq.var);
    os << "        }\n      }\n";
  }

  // The elements a copy of read r's slice takes at once: 4 (16 bytes) where a slice row
  // runs along the same dimension as the tensor's rows in memory (the last subscript is
  // that dimension, alone, at a multiple of 4; rows of a multiple of 4 elements; the
  // dimension's range starts at and spans a multiple of 4, so a copy is wholly inside or
  // wholly out), else 1. Only f32: 16 bytes of f64 is 2 elements.
  int copyWidth(const ContractionTile& c, size_t r, const Statement& st) const {
    const int64_t w = 16 / c.stageBytes(sp_.realBytes());
    if (w < 4) return 1;
    // The dimension along a slice row: r's in the p-major slice along p, q's in the slice
    // along q; the r-major slice along p runs across A's rows.
    int along = -1;
    if (c.alongR(r)) along = c.r;
    else if (!c.alongP[r]) along = c.q;
    if (along < 0) return 1;
    const std::string& dim = st.dims[size_t(along)];
    const Access& a = st.reads[r];
    const Tensor& T = prog_.tensors[size_t(a.tensor)];
    if (T.shape.size() != a.subscripts.size() || !a.runsAlong(dim) || a.subscripts.back().constant % w) return 1;
    for (size_t s = 0; s + 1 < a.subscripts.size(); ++s)
      if (a.subscripts[s].coefficient(dim) != 0) return 1;
    const SizedStatement& ss = at_.statement(st.id);
    const int64_t lo = ss.lo[size_t(along)], span = ss.hi[size_t(along)] - lo;
    const int64_t cols = along == c.r ? c.kStep : c.tileQ;
    if (T.shape.back().eval(at_.sizes()) % w || lo % w || span % w || cols % w) return 1;
    return int(w);
  }

  // Whether a pipelined tile copies read r by cp.async: an element of global memory of
  // the type the slice holds (the computing type, or the 16-bit operand's own), bit for
  // bit, at least 4 bytes a copy (cp.async's smallest: halves go 8 at a time or not).
  bool copiesAsync(const ContractionTile& c, size_t r, const Statement& st) const {
    const Access& a = st.reads[r];
    const ElemType t = prog_.tensors[size_t(a.tensor)].type;
    const bool asStaged = c.halfOperands() ? isNarrowFloat(t) : t == (sp_.f32 ? ElemType::F32 : ElemType::F64);
    return sp_.d == Dialect::Cuda && !local(a.tensor, &st) && asStaged && copyWidth(c, r, st) * c.stageBytes(sp_.realBytes()) >= 4;
  }

  // A value the plan keeps in a tiled contraction's accumulators (its result, or its
  // epilogue's), which no memory holds.
  bool accumulatorOnly(int tensor) const {
    const OnChipArray* a = k_.plan.arrayOf(tensor);
    if (!a || !a->inRegisters()) return false;
    for (size_t m = 0; m < k_.plan.statements.size(); ++m)
      if (prog_.statements[size_t(k_.plan.statements[m])].write.tensor == tensor && k_.plan.tiledWith(m)) return true;
    return false;
  }

  // The contraction's epilogue at one output of the micro-tile (p, q: the C names of its
  // coordinates): each member's value from the accumulator and the earlier values, in
  // registers; stored only where memory must hold it.
  void printEpilogue(std::ostream& os, const ContractionTile& c, const Statement& st, const std::string& p,
                     const std::string& q) const {
    if (c.epilogue.empty()) return;
    const KernelPlan& kp = k_.plan;
    std::vector<int> chain{st.write.tensor};
    os << "          const " << sp_.real << " pf_ep0 = " << roundedTo(st.write.tensor, "pf_acc[pf_a][pf_b]") << ";\n";
    os << "          const " << sp_.index << " pf_op = " << p << ", pf_oq = " << q << ";\n";
    const int tp = kp.gridCoordOf(size_t(c.member), c.p);
    for (int e : c.epilogue) {
      const Statement& es = prog_.statements[size_t(kp.statements[size_t(e)])];
      const std::string v = "pf_ep" + std::to_string(chain.size());
      os << "          // " << es.label() << " (line " << es.loc.line << "): " << statementText(prog_, es)
         << ", from registers\n";
      auto access = [&](const Access& a) {
        for (size_t i = 0; i < chain.size(); ++i)
          if (chain[i] == a.tensor) return "pf_ep" + std::to_string(i);
        return accessC(a, &es);
      };
      std::string body =
          "            " + v + " = " + roundedTo(es.write.tensor, valueText(es, *es.rhs, sp_, at_.sizes(), access)) + ";\n";
      if (!accumulatorOnly(es.write.tensor)) body += "            " + assign(accessC(es.write), v, es.write.tensor) + ";\n";
      os << "          " << sp_.real << " " << v << ";\n          {\n";
      for (size_t d = 0; d < es.dims.size(); ++d)  // the member's dims, where it names them
        if (std::regex_search(body, std::regex("\\b" + cName(es.dims[d]) + "\\b")))
          os << "            const " << sp_.index << " " << cName(es.dims[d]) << " = "
             << (kp.gridCoordOf(size_t(e), int(d)) == tp ? "pf_op" : "pf_oq") << ";\n";
      os << body << "          }\n";
      chain.push_back(es.write.tensor);
    }
  }
  // Declarations that name a streamed sum's dims (all, or its parallel ones) after the
  // maximum's values, where the names differ: `decl` in the maximum's scope, `inner` in
  // a nested one (a name may be the maximum's for another dim).
  std::pair<std::string, std::string> sumAliases(const Statement& max, const Statement& sum, const StreamChain& chain,
                                                 bool reduction) const {
    std::string decl, inner;
    for (size_t d = 0; d < max.dims.size(); ++d) {
      if (!reduction && int(d) >= max.numParallel) continue;
      const std::string& name = sum.dims[size_t(chain.sumDimOf[d])];
      if (name == max.dims[d]) continue;
      decl += "const " + sp_.index + " pf_al_" + cName(name) + " = " + cName(max.dims[d]) + "; ";
      inner += "const " + sp_.index + " " + cName(name) + " = pf_al_" + cName(name) + "; ";
    }
    return {decl, inner};
  }

  // A maximum M and the sum streamed into its loop (KernelPlan::streams): one pass over
  // their common points keeps the running maximum in pf_part and the sum against it in
  // pf_sum, rescaled by pf_rescale(old, new) = exp(old - new) each time the maximum
  // grows. Threads' partial pairs combine by the maximum first, then by the sums, each
  // rescaled to that maximum. A term is 0 while the running maximum is -inf (every
  // element so far -inf), as exp(-inf - m) is for any finite m. The sum's dims read the
  // maximum's, aliased by name inside its own scopes.
  void printStreamed(std::ostream& os, const StmtIR& s, const Statement& st, const std::vector<const LoopIR*>& par,
                     const std::vector<const LoopIR*>& red, const std::string& P, const std::string& R,
                     const std::string& fixed, const std::string& lhs, const Lanes& lanes, bool unrolled,
                     size_t sumMember) const {
    const StreamChain rp = streamChain(prog_, prog_.statements[size_t(k_.plan.statements[sumMember])]);
    if (rp.max != st.id) throw InternalError(prog_.statements[size_t(k_.plan.statements[sumMember])].label() +
                                             " is streamed into " + st.label() + ", not its maximum");
    // The sum with its producers inlined: it reads the maximum, which is the running one.
    const Statement& sum = rp.inlined;
    const bool across = reducesAcrossThreads(s.mode);
    if (s.vectorWidth > 1 && (!across || unrolled))
      throw InternalError("the plan vectorizes " + st.label() + "'s streamed loop outside a block reduction");
    const std::string zero = sp_.literal("0");
    auto [decl, inner] = sumAliases(st, sum, rp, true);
    // One element: the running maximum meets it, the sum is rescaled to the new maximum
    // and adds the element's term against it.
    auto step = [&](const std::string& ind) {
      if (const std::string copies = cacheCopies(st); !copies.empty()) os << ind << copies << "\n";
      printRunningMaximum(os, st.op, valueC(st, *st.rhs), ind);
      const std::string value = valueText(sum, *sum.rhs, sp_, at_.sizes(), [&](const Access& a) {
        return a.tensor == rp.tensor ? std::string("pf_part") : accessC(a, &sum);
      });
      os << ind << "{ " << decl << "{ " << inner << "pf_sum += pf_part == -INFINITY ? " << zero << " : " << value << "; } }\n";
    };
    os << "    for (" << sp_.index << " pf_p = " << (across ? "0" : lanes.tid) << "; "
       << (across ? "pf_p < " + P : lanes.when("pf_p < " + P)) << "; pf_p += " << (across ? "1" : lanes.count) << ") {\n";
    decompose(os, par, "pf_p", "      ", sp_.index);
    if (!fixed.empty()) os << "      " << fixed << "\n";
    os << "      " << sp_.real << " pf_part = " << identity(st.op, sp_) << ", pf_sum = " << zero << ";\n";
    if (across && s.vectorWidth > 1) {
      printStreamedVectors(os, s, st, rp, red, lanes, step);
    } else if (across) {
      os << stepLoop("pf_r", R, lanes, unrolled, "      ");
      decompose(os, red, "pf_r", "        ", sp_.index);
      step("        ");
      os << "      }\n";
    } else {
      std::string ind = "      ";
      for (auto* l : red) {
        os << ind << "for (" << sp_.index << " " << l->var << " = " << indexC(l->lo) << "; " << l->var << " < " << indexC(l->hi) << "; ++" << l->var << ") {\n";
        ind += "  ";
      }
      step(ind);
      for (size_t q = 0; q < red.size(); ++q) {
        ind = ind.substr(2);
        os << ind << "}\n";
      }
    }
    if (across) {
      os << "      const " << sp_.real << " pf_own = pf_part;\n";
      os << "      pf_part = " << blockReduce(st.op, lanes) << ";\n";
      os << "      " << reductionResult(st, s.mode, lhs, lanes) << "\n";
      os << "      pf_part = pf_sum * pf_rescale(pf_own, pf_part);\n";
      os << "      pf_part = " << blockReduce(ReduceOp::Add, lanes) << ";\n";
    } else {
      os << "      " << assign(lhs, "pf_part", st.write.tensor) << ";\n";
      os << "      pf_part = pf_sum;\n";
    }
    auto [pdecl, pinner] = sumAliases(st, sum, rp, false);
    const std::string sumLhs = s.mode == StmtMode::SplitReduce ? partialC(sum) : accessC(sum.write);
    os << "      { " << pdecl << "{ " << pinner
       << (across ? reductionResult(sum, s.mode, sumLhs, lanes) : assign(sumLhs, "pf_part", sum.write.tensor) + ";") << " } }\n";
    os << "    }\n";
  }

  // The running maximum meets `value` (an element's, or a vector step's); the sum is
  // rescaled to the new maximum.
  void printRunningMaximum(std::ostream& os, ReduceOp op, const std::string& value, const std::string& ind) const {
    os << ind << "const " << sp_.real << " pf_run = " << combine(op, "pf_part", value, sp_) << ";\n";
    os << ind << "pf_sum *= pf_rescale(pf_part, pf_run);\n";
    os << ind << "pf_part = pf_run;\n";
  }

  // The streamed loop of a block reduction, a vector a step (the plan's vectorWidth of
  // the maximum): the step's lanes meet the running maximum together, so the sum is
  // rescaled once a step, and its lanes add their terms against the new maximum. The
  // sum reads what the maximum's vector loads hold from them; on OpenCL its lanes are
  // one vector expression, so a CPU device keeps exp vectorized. Elements past the last
  // whole vector run `step`, one a thread.
  void printStreamedVectors(std::ostream& os, const StmtIR& s, const Statement& st, const StreamChain& rp,
                            const std::vector<const LoopIR*>& red, const Lanes& lanes,
                            const std::function<void(const std::string&)>& step) const {
    const int width = s.vectorWidth, x = s.threadDim;
    if (red.empty() || x < 0 || red.back()->var != cName(st.dims[size_t(x)]))
      throw InternalError("the plan vectorizes " + st.label() + " along a dimension its innermost thread loop does not run");
    const Statement& sum = rp.inlined;
    const std::string& in = red.back()->var;
    const std::string& sumIn = cName(sum.dims[size_t(rp.sumDimOf[size_t(x)])]);
    const std::string vec = sp_.real + std::to_string(width), zero = sp_.literal("0");
    const std::string ind = "        ";
    os << "      const " << sp_.index << " pf_vext_" << in << " = pf_ext_" << in << " / " << width << ";  // " << width
       << "-wide vectors\n";
    std::string count = "pf_vext_" + in;
    for (size_t q = 0; q + 1 < red.size(); ++q) count += " * pf_ext_" + red[q]->var;
    os << stepLoop("pf_r", count, lanes, false, "      ");
    printVectorStep(os, red, "pf_r", width, ind);
    const std::vector<bool> vectorRead = printVectorLoads(os, s.member, st, width, in, ind);
    // The maximum's lanes, then the step's maximum.
    os << ind << sp_.real << " pf_e[" << width << "];\n";
    std::string stepMax;
    for (int k = 0; k < width; ++k) {
      std::string body = cacheCopies(st);
      body += (body.empty() ? "" : " ") + std::string("pf_e[") + std::to_string(k) + "] = " +
              valueText(st, *st.rhs, sp_, at_.sizes(), [&](const Access& a) {
                const size_t r = size_t(&a - st.reads.data());
                return r < st.reads.size() && vectorRead[r] ? "pf_v" + std::to_string(r) + kLane[k] : accessC(a, &st);
              }) + ";";
      printLane(os, ind, in, k, body);
      const std::string e = "pf_e[" + std::to_string(k) + "]";
      stepMax = k == 0 ? e : combine(st.op, stepMax, e, sp_);
    }
    printRunningMaximum(os, st.op, stepMax, ind);
    auto [decl, inner] = sumAliases(st, sum, rp, true);
    // A read of the sum that one of the maximum's vector loads holds: the same element,
    // spelled alike where the two name their dims alike.
    auto heldBy = [&, renamed = !decl.empty()](const Access& a) -> int {
      if (renamed) return -1;
      const std::string element = accessC(a, &sum);
      for (size_t r = 0; r < st.reads.size(); ++r)
        if (vectorRead[r] && accessC(st.reads[r], &st) == element) return int(r);
      return -1;
    };
    auto inSum = [&, d = decl, i = inner](const std::string& body) {
      return d.empty() ? body : "{ " + d + "{ " + i + body + " } }";
    };
    std::string terms;
    if (sp_.d == Dialect::OpenCL && !dependsOn(sum, *sum.rhs, sumIn, true) && !scalarOnly(*sum.rhs)) {
      // Reads along the row that no vector load holds gather their lanes; the others are
      // the same in every lane.
      std::map<const Access*, std::string> gathered;
      for (size_t r = 0; r < sum.reads.size(); ++r) {
        const Access& a = sum.reads[r];
        if (a.tensor == rp.tensor || heldBy(a) >= 0 || !accessUses(sum, a, sumIn)) continue;
        const std::string g = "pf_g" + std::to_string(r);
        os << ind << vec << " " << g << ";\n";
        for (int k = 0; k < width; ++k) printLane(os, ind, in, k, inSum(g + kLane[k] + " = " + accessC(a, &sum) + ";"));
        gathered[&a] = g;
      }
      Spelling vsp = sp_;
      vsp.vector = vec;
      const std::string value = valueText(sum, *sum.rhs, vsp, at_.sizes(), [&](const Access& a) {
        if (a.tensor == rp.tensor) return "((" + vec + ")(pf_part))";
        if (const int r = heldBy(a); r >= 0) return "pf_v" + std::to_string(r);
        if (auto g = gathered.find(&a); g != gathered.end()) return g->second;
        return "((" + vec + ")(" + accessC(a, &sum) + "))";
      });
      os << ind << vec << " pf_terms;\n";
      printLane(os, ind, in, 0, inSum("pf_terms = " + value + ";"));
      for (int k = 0; k < width; ++k) terms += (k ? " + " : "") + std::string("pf_terms") + kLane[k];
    } else {
      os << ind << sp_.real << " pf_terms[" << width << "];\n";
      for (int k = 0; k < width; ++k) {
        const std::string value = valueText(sum, *sum.rhs, sp_, at_.sizes(), [&](const Access& a) {
          if (a.tensor == rp.tensor) return std::string("pf_part");
          if (const int r = heldBy(a); r >= 0) return "pf_v" + std::to_string(r) + kLane[k];
          return accessC(a, &sum);
        });
        printLane(os, ind, in, k, inSum("pf_terms[" + std::to_string(k) + "] = " + value + ";"));
        terms += (k ? " + " : "") + std::string("pf_terms[") + std::to_string(k) + "]";
      }
    }
    os << ind << "if (pf_part != -INFINITY) pf_sum += " << terms << ";\n";
    os << "      }\n";
    // The row's last elements, fewer than a vector (the plan vectorizes a range that is no
    // multiple of the width only when it is the one reduction loop).
    const SizedStatement& ss = at_.statement(st.id);
    if ((ss.hi[size_t(x)] - ss.lo[size_t(x)]) % width == 0) return;
    if (red.size() != 1) throw InternalError("a scalar tail after the vectors of a loop nest in " + st.label());
    os << "      for (" << sp_.index << " pf_r = pf_vext_" << in << " * " << width << " + " << lanes.tid << "; "
       << lanes.when("pf_r < pf_ext_" + in) << "; pf_r += " << lanes.count << ") {  // the scalar tail\n";
    os << ind << "const " << sp_.index << " " << in << " = " << indexC(red.back()->lo) << " + pf_r;\n";
    step(ind);
    os << "      }\n";
  }

  // Whether e is a product of accesses, scalars and numbers: zero when an access is.
  static bool isProduct(const Expr& e) {
    if (e.kind == ExprKind::Mul) return isProduct(*e.args[0]) && isProduct(*e.args[1]);
    return e.kind == ExprKind::Access || e.kind == ExprKind::Scalar || e.kind == ExprKind::Number || e.kind == ExprKind::Size;
  }

  void printStatement(std::ostream& os, const StmtIR& s) const {
    const Statement& st = prog_.statements[s.stmt];
    os << "  // " << st.label() << " (line " << st.loc.line << "): " << statementText(prog_, st) << "\n";
    if (const int into = k_.plan.streamedInto(s.member); into >= 0) {
      os << "  // streamed: computed in " << prog_.statements[size_t(k_.plan.statements[size_t(into)])].label()
         << "'s loop above\n";
      return;
    }
    if (k_.plan.inlinedInStream(s.member)) {
      os << "  // inlined into the streamed sum above: no loop or storage of its own\n";
      return;
    }
    // A row in registers: the unrolled steps name their registers (a scalar step's slot is
    // its step, a vector step's lane sets its own).
    const bool unrolled = k_.plan.runsRegisterRow(prog_, s.member);
    slot_ = unrolled ? "pf_s" : "";
    std::string lhs = accessC(st.write);
    for (auto& piece : s.pieces) {
      slot_ = unrolled ? "pf_s" : "";
      os << "  " << (piece.guards.empty() ? "" : "if " + piece.guardC() + " ") << "{\n";
      std::vector<const LoopIR*> par, red, rows;
      std::ostringstream body;  // the piece, so that only the extents it reads are declared
      for (auto& l : piece.loops) {
        bool row = false;
        for (size_t d = 0; d < st.dims.size() && !l.reduction; ++d)
          row |= l.var == cName(st.dims[d]) && k_.plan.rowOfWarp(s.member, int(d));
        (l.reduction ? red : row ? rows : par).push_back(&l);
      }
      Lanes lanes;
      if (k_.plan.warpPerRow()) {
        // This warp's row: the block's tile points, one per warp.
        std::string count = "1";
        for (auto* l : rows) count += " * pf_ext_" + l->var;
        body << "    const bool pf_live = pf_warp < " << (rows.empty() ? "1" : count.substr(4)) << ";\n";
        decompose(body, rows, "(pf_live ? pf_warp : 0)", "    ", sp_.index);
        lanes = {"pf_lane", "32", "pf_live"};
      }
      std::string P = "1", R = "1";
      for (auto* l : par) P += " * pf_ext_" + l->var;
      for (auto* l : red) R += " * pf_ext_" + l->var;
      if (P.size() > 2) P = P.substr(4);
      if (R.size() > 2) R = R.substr(4);
      // Dimensions without a loop are fixed by the block origin or a constant.
      std::string fixed;
      for (size_t d = 0; d < st.dims.size(); ++d)
        if (!piece.dimValue[d].isName(cName(st.dims[d])))
          fixed += std::string(fixed.empty() ? "" : " ") + "const " + sp_.index + " " + cName(st.dims[d]) + " = " + indexC(piece.dimValue[d]) + ";";
      std::string value = valueC(st, *st.rhs);
      std::string init = st.init ? identity(st.op, sp_) : lhs;
      const bool split = reducesAChunk(s.mode);
      if (split) {
        // Each chunk starts from the identity; the combining launch applies the rest.
        lhs = partialC(st);
        init = identity(st.op, sp_);
      }
      const int width = s.vectorWidth;
      if (tiledPiece(s, st, piece)) {
        printTiledContraction(body, *k_.plan.contractionOf(s.member), st, piece, lhs);
      } else if (const int sum = k_.plan.streamedSum(s.member); sum >= 0) {
        printStreamed(body, s, st, par, red, P, R, fixed, lhs, lanes, unrolled, size_t(sum));
      } else if (s.mode == StmtMode::ColumnReduce) {
        printColumnReduce(body, s, st, par, red, fixed, value, lhs);
      } else if (width > 1) {
        printVectorized(body, s, st, par, red, P, fixed, lhs, init, width, lanes);
      } else if (reducesAcrossThreads(s.mode)) {
        body << "    for (" << sp_.index << " pf_p = 0; pf_p < " << P << "; ++pf_p) {\n";
        decompose(body, par, "pf_p", "      ", sp_.index);
        if (!fixed.empty()) body << "      " << fixed << "\n";
        body << "      " << sp_.real << " pf_part = " << identity(st.op, sp_) << ";\n";
        body << stepLoop("pf_r", R, lanes, unrolled, "      ");
        decompose(body, red, "pf_r", "        ", sp_.index);
        if (const std::string copies = cacheCopies(st); !copies.empty()) body << "        " << copies << "\n";
        body << "        pf_part = " << combine(st.op, "pf_part", value, sp_) << ";\n";
        body << "      }\n";
        body << "      pf_part = " << blockReduce(st.op, lanes) << ";\n";
        body << "      " << reductionResult(st, s.mode, lhs, lanes) << "\n";
        body << "    }\n";
      } else {
        body << stepLoop("pf_p", P, lanes, unrolled, "    ");
        decompose(body, par, "pf_p", "      ", sp_.index);
        if (!fixed.empty()) body << "      " << fixed << "\n";
        if (s.mode == StmtMode::Pointwise) {
          if (const std::string copies = cacheCopies(st); !copies.empty()) body << "      " << copies << "\n";
          body << "      " << assign(lhs, st.op == ReduceOp::Assign ? value : combine(st.op, init, value, sp_), st.write.tensor) << ";\n";
        } else {
          body << "      " << sp_.real << " pf_acc = " << init << ";\n";
          std::string ind = "      ";
          for (auto* l : red) {
            body << ind << "for (" << sp_.index << " " << l->var << " = " << indexC(l->lo) << "; " << l->var << " < " << indexC(l->hi) << "; ++" << l->var << ") {\n";
            ind += "  ";
          }
          if (const std::string copies = cacheCopies(st); !copies.empty()) body << ind << copies << "\n";
          body << ind << "pf_acc = " << combine(st.op, "pf_acc", value, sp_) << ";\n";
          for (size_t q = 0; q < red.size(); ++q) {
            ind = ind.substr(2);
            body << ind << "}\n";
          }
          body << "      " << assign(lhs, "pf_acc", st.write.tensor) << ";\n";
        }
        body << "    }\n";
      }
      // A loop index that a register row reads through its slot instead, and the extents
      // no code reads, are not declared (nvcc warns of each).
      std::string code = body.str();
      for (auto& l : piece.loops) code = withoutUnreadIndex(code, l.var, sp_.index);
      for (auto& dim : st.dims) code = withoutUnreadIndex(code, cName(dim), sp_.index);  // fixed by the tile
      for (auto& l : piece.loops)
        if (readsName(code, "pf_ext_" + l.var))
          os << "    const " << sp_.index << " pf_ext_" << l.var << " = " << indexC(l.hi) << " - " << indexC(l.lo) << ";\n";
      os << code << "  }\n";
    }
    slot_.clear();
  }

  // Where a cross-thread reduction's result goes: to memory by one thread, or, for a value
  // per row in registers, to every thread's register (each received the combined value).
  std::string reductionResult(const Statement& st, StmtMode mode, const std::string& lhs, const Lanes& lanes) const {
    const bool split = mode == StmtMode::SplitReduce;
    const std::string v = st.init || split ? "pf_part" : combine(st.op, lhs, "pf_part", sp_);
    const OnChipArray* a = k_.plan.arrayOf(st.write.tensor);
    if (a && a->inRegisters() && !split) return assign(lhs, v, st.write.tensor) + ";";
    return "if (" + lanes.when(lanes.tid + " == 0") + ") " + (split ? lhs + " = " + v : assign(lhs, v, st.write.tensor)) + ";";
  }
};

// Reads and writes of 16-bit float tensors in global memory: a load widens to the
// computing type, a store rounds to nearest even (pf_load_half(X, i), pf_store_half(X,
// i, v); the same for bf16).
std::string narrowAccessors(const Spelling& sp, const Program& prog) {
  std::set<ElemType> types;
  for (auto& t : prog.tensors)
    if (isNarrowFloat(t.type)) types.insert(t.type);
  std::ostringstream os;
  const std::string& R = sp.real;
  const bool cuda = sp.d == Dialect::Cuda;
  const std::string head = cuda ? "__device__ __forceinline__ " : "", global = cuda ? "" : "__global ";
  const std::string index = cuda ? "long long" : "long";
  for (ElemType t : types) {
    const std::string name = t == ElemType::Half ? "half" : "bf16", ty = cTypeName(t, sp.d);
    std::string load, store;
    if (cuda) {
      os << (t == ElemType::Half ? "#include <cuda_fp16.h>\n" : "#include <cuda_bf16.h>\n");
      load = t == ElemType::Half ? "__half2float(p[i])" : "__bfloat162float(p[i])";
      store = std::string("p[i] = ") + (t == ElemType::Half ? (sp.f32 ? "__float2half_rn" : "__double2half")
                                                            : (sp.f32 ? "__float2bfloat16_rn" : "__double2bfloat16")) + "(v);";
    } else if (t == ElemType::Half) {
      load = "vload_half(i, p)";
      store = "vstore_half_rte(v, i, p);";
    } else {
      // bfloat16 is a float's upper half: rounded first, then cut (exactly).
      load = "as_float((uint)p[i] << 16)";
      store = "p[i] = (ushort)(as_uint((float)" + narrowRounded(ElemType::BF16, "v", sp) + ") >> 16);";
    }
    os << head << R << " pf_load_" << name << "(" << global << "const " << ty << "* p, " << index << " i) { return " << load
       << "; }\n";
    os << head << "void pf_store_" << name << "(" << global << ty << "* p, " << index << " i, " << R << " v) { " << store
       << " }\n";
    // A value's 16 bits and back, as a tensor-core tile stages its operands (the values
    // are the type's already: the rounding is exact).
    const std::string u16 = cuda ? "unsigned short" : "ushort";
    std::string bits, value;  // the bodies' statements
    if (cuda && t == ElemType::Half) {
      bits = std::string("return __half_as_ushort(") + (sp.f32 ? "__float2half_rn" : "__double2half") + "(v));";
      value = "__half2float(__ushort_as_half(u))";
    } else if (cuda) {
      bits = std::string("return __bfloat16_as_ushort(") + (sp.f32 ? "__float2bfloat16_rn" : "__double2bfloat16") + "(v));";
      value = "__bfloat162float(__ushort_as_bfloat16(u))";
    } else if (t == ElemType::Half) {  // no half values without cl_khr_fp16: through memory
      bits = "ushort pf_u; vstore_half_rte(v, 0, (half*)&pf_u); return pf_u;";
      value = "vload_half(0, (const half*)&u)";
    } else {
      bits = "return (ushort)(as_uint((float)" + narrowRounded(ElemType::BF16, "v", sp) + ") >> 16);";
      value = "as_float((uint)u << 16)";
    }
    os << head << u16 << " pf_bits_" << name << "(" << R << " v) { " << bits << " }\n";
    os << head << R << " pf_value_" << name << "(" << u16 << " u) { return " << value << "; }\n";
  }
  return os.str();
}

// A tensor-core tile's two instructions: the rounding of an f32 operand to TF32 (to
// nearest, ties away, as cuBLAS rounds it), and one warp's m16n8k8 product-accumulate,
// D = A B + D, on fragments as PTX's mma.m16n8k8 .tf32 lays them out.
std::string mmaHelpers() {
  // The 16-bit form: one warp's m16n8k16 product-accumulate on f16 or bf16 fragments, a
  // register holding two consecutive r (the first in its low half), as staged.
  std::string half;
  for (const char* t : {"f16", "bf16"})
    half += std::string("__device__ __forceinline__ void pf_mma_") + t + "(float& d0, float& d1, float& d2, float& d3, const unsigned* a, "
            "const unsigned* b) {\n"
            "  asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32." + t + "." + t + ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
            "{%8, %9}, \"\n"
            "               \"{%0, %1, %2, %3};\"\n"
            "               : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3)\n"
            "               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]));\n}\n";
  return half + "__device__ __forceinline__ float pf_tf32(float x) {\n"
         "  unsigned u;\n  asm(\"cvt.rna.tf32.f32 %0, %1;\" : \"=r\"(u) : \"f\"(x));\n  return __uint_as_float(u);\n}\n"
         "__device__ __forceinline__ void pf_mma_tf32(float& d0, float& d1, float& d2, float& d3, const float* a, const float* b) {\n"
         "  asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, \"\n"
         "               \"{%0, %1, %2, %3};\"\n"
         "               : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3)\n"
         "               : \"r\"(__float_as_uint(a[0])), \"r\"(__float_as_uint(a[1])), \"r\"(__float_as_uint(a[2])),\n"
         "                 \"r\"(__float_as_uint(a[3])), \"r\"(__float_as_uint(b[0])), \"r\"(__float_as_uint(b[1])));\n"
         "}\n"
         // Four 8 x 8 blocks of 16-bit words are four 8 x 4 blocks of 32-bit ones: lane l
         // gets word l % 4 of row l / 4 of each, an A fragment's layout.
         // The same from 16-bit words, as fragments of m16n8k16 take them; .trans gives lane
         // l words 2 (l % 4) and 2 (l % 4) + 1 of column l / 4 of each block.
         "__device__ __forceinline__ void pf_ldmatrix_x4_b16(unsigned* f, const unsigned short* row) {\n"
         "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
         "               : \"=r\"(f[0]), \"=r\"(f[1]), \"=r\"(f[2]), \"=r\"(f[3]) : \"r\"((unsigned)__cvta_generic_to_shared(row)) : \"memory\");\n"
         "}\n"
         "__device__ __forceinline__ void pf_ldmatrix_x4_trans_b16(unsigned* f, const unsigned short* row) {\n"
         "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
         "               : \"=r\"(f[0]), \"=r\"(f[1]), \"=r\"(f[2]), \"=r\"(f[3]) : \"r\"((unsigned)__cvta_generic_to_shared(row)) : \"memory\");\n"
         "}\n"

         "__device__ __forceinline__ void pf_ldmatrix_x4(float* f, const float* row) {\n"
         "  unsigned u0, u1, u2, u3;\n"
         "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
         "               : \"=r\"(u0), \"=r\"(u1), \"=r\"(u2), \"=r\"(u3) : \"r\"((unsigned)__cvta_generic_to_shared(row)) : \"memory\");\n"
         "  f[0] = __uint_as_float(u0); f[1] = __uint_as_float(u1); f[2] = __uint_as_float(u2); f[3] = __uint_as_float(u3);\n"
         "}\n\n";
}

// Two values of a 16-bit type (exactly so) in one fragment register, the first in its
// low half: a streamed tile's scores take their operands from f32 staging.
std::string mmaPackHelpers(const Spelling& sp, const std::set<ContractionEngine>& engines) {
  std::string out;
  for (ContractionEngine e : engines) {
    if (!halfOperands(e)) continue;
    const std::string name = e == ContractionEngine::TensorCoresF16 ? "half" : "bf16";
    const std::string u = sp.d == Dialect::Cuda ? "unsigned" : "uint";
    out += std::string(sp.d == Dialect::Cuda ? "__device__ __forceinline__ " : "inline ") + u + " pf_pack_" + name + "(" + sp.real +
           " lo, " + sp.real + " hi) { return (" + u + ")pf_bits_" + name + "(lo) | ((" + u + ")pf_bits_" + name + "(hi) << 16); }\n";
  }
  return out;
}

// OpenCL's TF32 rounding, as the CUDA kernels' cvt.rna.tf32.f32 rounds: to nearest,
// ties away, 10 bits of mantissa kept.
const char* const kOpenClTf32 =
    "inline float pf_tf32(float x) {\n"
    "  uint u = as_uint(x);\n"
    "  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;\n"
    "  return as_float(u);\n}\n";

// OpenCL has no tensor cores: a streamed tile's mma.sync runs as PTX defines it on the
// fragments the warp's 32 lanes hold, so that PoCL checks what the CUDA kernel computes,
// fragment layouts included. Each lane leaves its fragment words in the warp's part of
// `pf_mma_x` (6 words a lane), then takes its four outputs' rows of A and columns of B
// from the lanes PTX gives them to. The whole work-group meets at each barrier: every
// warp runs the same number of products (the plan's tiles divide among the warps).
std::string mmaEmulationHelpers(const std::set<ContractionEngine>& engines) {
  std::string out;
  auto product = [&](const std::string& name, const std::string& word, const std::string& rowK, const std::string& colK,
                     int ks, const std::string& value) {
    out += "void pf_mma_" + name + "_emu(float* d0, float* d1, float* d2, float* d3, const " + word + "* a, const " + word +
           "* b, __local uint* x, int tid) {\n"
           "  __local uint* w = x + (tid & ~31) * 6;\n"
           "  const int l = tid & 31, g = l >> 2, t = l & 3;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);  // the last product's words are read\n"
           "  for (int i = 0; i < 4; ++i) w[l * 6 + i] = " + (word == "float" ? "as_uint(a[i])" : "a[i]") + ";\n"
           "  w[l * 6 + 4] = " + (word == "float" ? "as_uint(b[0])" : "b[0]") + "; w[l * 6 + 5] = " +
           (word == "float" ? "as_uint(b[1])" : "b[1]") + ";\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  float c[4] = {*d0, *d1, *d2, *d3};\n"
           "  for (int i = 0; i < 4; ++i) {\n"
           "    const int row = g + (i >> 1) * 8, col = 2 * t + (i & 1);\n"
           "    for (int k = 0; k < " + std::to_string(ks) + "; ++k) {\n"
           "      const uint av = w[" + rowK + "], bv = w[" + colK + "];\n"
           "      c[i] += " + value + ";\n"
           "    }\n  }\n"
           "  *d0 = c[0]; *d1 = c[1]; *d2 = c[2]; *d3 = c[3];\n}\n"
           "#define pf_mma_" + name + "(d0, d1, d2, d3, a, b) pf_mma_" + name + "_emu(&(d0), &(d1), &(d2), &(d3), a, b, pf_mma_x, pf_tid)\n";
  };
  // m16n8k8 .tf32: A[row][k] in lane (row % 8) * 4 + k % 4, register row / 8 + 2 (k / 4);
  // B[k][col] in lane col * 4 + k % 4, register k / 4.
  if (engines.count(ContractionEngine::TensorCoresTf32))
    product("tf32", "float", "((row & 7) * 4 + (k & 3)) * 6 + (row >> 3) + 2 * (k >> 2)", "(col * 4 + (k & 3)) * 6 + 4 + (k >> 2)", 8,
            "as_float(av) * as_float(bv)");
  // m16n8k16 on 16-bit pairs: A[row][k] in lane (row % 8) * 4 + (k % 8) / 2, register
  // row / 8 + 2 (k / 8), half k % 2; B[k][col] in lane col * 4 + (k % 8) / 2, register
  // k / 8, half k % 2.
  for (ContractionEngine e : {ContractionEngine::TensorCoresF16, ContractionEngine::TensorCoresBf16}) {
    if (!engines.count(e)) continue;
    const std::string name = e == ContractionEngine::TensorCoresF16 ? "half" : "bf16";
    product(e == ContractionEngine::TensorCoresF16 ? "f16" : "bf16", "uint",
            "((row & 7) * 4 + ((k & 7) >> 1)) * 6 + (row >> 3) + 2 * (k >> 3)", "(col * 4 + ((k & 7) >> 1)) * 6 + 4 + (k >> 3)", 16,
            "pf_value_" + name + "((ushort)(av >> ((k & 1) * 16))) * pf_value_" + name + "((ushort)(bv >> ((k & 1) * 16)))");
  }
  return out;
}

// A pipelined tile's copies (ContractionTile::stages), sm_80's cp.async: B bytes from
// global to shared memory that land while the block computes, zeros where `full` is
// false (the slice's edge); a thread's copies commit as one group a step, and waiting for
// all but the newest N groups leaves the next steps' copies in flight.
std::string copyHelpers() {
  return "template <int B> __device__ __forceinline__ void pf_copy_async(void* dst, const void* src, bool full) {\n"
         "  const unsigned s = (unsigned)__cvta_generic_to_shared(dst);\n"
         "  if (B == 16)  // through L2 alone: the block's own copy is in shared memory\n"
         "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" ::\"r\"(s), \"l\"(src), \"r\"(full ? 16 : 0) : \"memory\");\n"
         "  else\n"
         "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\" ::\"r\"(s), \"l\"(src), \"n\"(B), \"r\"(full ? B : 0) : \"memory\");\n}\n"
         "__device__ __forceinline__ void pf_copy_commit() { asm volatile(\"cp.async.commit_group;\" ::: \"memory\"); }\n"
         "template <int N> __device__ __forceinline__ void pf_copy_wait() {\n"
         "  asm volatile(\"cp.async.wait_group %0;\" ::\"n\"(N) : \"memory\");\n}\n\n";
}

// `warpRows`: some kernel runs a row per warp (OpenCL needs its 32-lane reduction);
// `blockRows`: some kernel reduces across a whole block.
std::string helpers(const Spelling& sp, const Program& prog, const std::set<ReduceOp>& used, bool warpRows, bool blockRows,
                    bool columnRows, bool streams) {
  std::ostringstream os;
  if (sp.d == Dialect::OpenCL && !sp.f32) os << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  os << mathHelpers(sp, usedHelpers(prog));
  os << narrowAccessors(sp, prog);
  os << "#define pf_floord(a, b) ((a) < 0 ? -((-(a) + (b) - 1) / (b)) : (a) / (b))\n";
  // isl's bounds mix int literals with 64-bit block origins under wide indices, where
  // OpenCL's min(int, long) is ambiguous: a comparison takes the wider type.
  os << "#define pf_min(a, b) ((a) < (b) ? (a) : (b))\n#define pf_max(a, b) ((a) > (b) ? (a) : (b))\n";
  // A streamed sum's rescale as its running maximum grows from `from` to `to` (1 while it
  // stays, -inf to -inf included).
  if (streams)
    os << (sp.d == Dialect::Cuda ? "__device__ __forceinline__ " : "inline ") << sp.real << " pf_rescale(" << sp.real
       << " from, " << sp.real << " to) { return from == to ? " << sp.literal("1") << " : " << sp.fn("exp") << "(from - to); }\n";
  for (const ReduceKind* k = reductionsBegin(); k != reductionsEnd(); ++k) {
    if (!used.count(k->op)) continue;
    std::string c = combine(k->op, "v", "o", sp);
    if (columnRows) {
      // A column tile's reduction of a thread's `lanes` partials (its columns), in place:
      // group 0's threads end with their columns' results, which they alone write. In
      // CUDA a warp holding several groups folds them by shuffles first (its threads of
      // one column are `columns` apart); each warp's first group leaves its partials in
      // `scratch` (a thread's lanes side by side, one 128-bit store for four), one
      // barrier, and group 0 folds the warps' partials. `lanes`, `columns` and `threads`
      // are literals at each call: the branches and loops fold.
      const std::string T = sp.real, c0 = combine(k->op, "v[k]", "o", sp);
      if (sp.d == Dialect::Cuda)
        os << "__device__ __forceinline__ void pf_column_reduce_" << k->name << "(" << T << "* v, int lanes, " << T
           << "* scratch, int columns, int threads) {\n"
           << "  const int col = threadIdx.x % columns;\n  int units = threads / columns, slot = threadIdx.x;\n"
           << "  bool leaves = true;\n"
           << "  if (columns < 32 && 32 % columns == 0) {\n"
           << "    for (int k = 0; k < lanes; ++k)\n"
           << "      for (int d = 16; d >= columns; d >>= 1) { " << T << " o = __shfl_xor_sync(0xffffffffu, v[k], d); v[k] = "
           << c0 << "; }\n"
           << "    leaves = (threadIdx.x & 31) < columns;\n    slot = (threadIdx.x >> 5) * columns + col;\n"
           << "    units = threads >> 5;\n  }\n"
           << "  if (leaves)\n    for (int k = 0; k < lanes; ++k) scratch[slot * lanes + k] = v[k];\n"
           << "  __syncthreads();\n"
           << "  if (threadIdx.x < columns)\n"
           << "    for (int u = 1; u < units; ++u)\n"
           << "      for (int k = 0; k < lanes; ++k) { " << T << " o = scratch[(u * columns + col) * lanes + k]; v[k] = " << c0
           << "; }\n}\n";
      else
        // Two levels, as the block reduction: the first 32 groups each fold every 32nd
        // group's partials into their own slots, then group 0 folds those 32 (a CPU device
        // runs the work-items one after another: 1,024 work-items folding 512 groups each
        // made the column softmax ten times slower than its two kernels).
        os << "void pf_column_reduce_" << k->name << "(" << T << "* v, int lanes, __local " << T
           << "* scratch, int columns, int threads) {\n"
           << "  const int t = get_local_id(0), col = t % columns, group = t / columns, units = threads / columns;\n"
           << "  for (int k = 0; k < lanes; ++k) scratch[t * lanes + k] = v[k];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           << "  if (group < 32) {\n"
           << "    for (int u = group + 32; u < units; u += 32)\n"
           << "      for (int k = 0; k < lanes; ++k) { " << T << " o = scratch[(u * columns + col) * lanes + k]; v[k] = " << c0
           << "; }\n"
           << "    for (int k = 0; k < lanes; ++k) scratch[t * lanes + k] = v[k];\n  }\n"
           << "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           << "  if (group == 0)\n"
           << "    for (int u = 1; u < units && u < 32; ++u)\n"
           << "      for (int k = 0; k < lanes; ++k) { " << T << " o = scratch[(u * columns + col) * lanes + k]; v[k] = " << c0
           << "; }\n"
           << "  barrier(CLK_LOCAL_MEM_FENCE);\n}\n";
    }
    if (sp.d == Dialect::Cuda) {
      // Every thread gets the block's result after one barrier: shuffles within each warp,
      // the warps' partials through `scratch` (32 slots the caller alternates with the
      // next reduction's, so no second barrier guards them), then every warp combines
      // all the partials itself with butterfly shuffles.
      os << "__device__ __forceinline__ " << sp.real << " pf_warp_reduce_" << k->name << "(" << sp.real << " v) {\n"
         << "  for (int d = 16; d > 0; d >>= 1) { " << sp.real << " o = __shfl_xor_sync(0xffffffffu, v, d); v = " << c << "; }\n"
         << "  return v;\n}\n";
      if (blockRows)
        os << "__device__ __forceinline__ " << sp.real << " pf_block_reduce_" << k->name << "(" << sp.real << " v, "
         << sp.real << "* scratch) {\n"
         << "  v = pf_warp_reduce_" << k->name << "(v);\n"
         << "  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;\n"
         << "  if (lane == 0) scratch[warp] = v;\n"
         << "  __syncthreads();\n"
         << "  return pf_warp_reduce_" << k->name << "(lane < warps ? scratch[lane] : " << identity(k->op, sp) << ");\n}\n";
    } else {
      // Over `scratch` in local memory, which every work-item of the group calls
      // (barriers): the block's, whose size need not be a power of two, in two levels
      // (32 work-items each fold a strided share, then one folds the 32), and, for a row
      // per warp, each warp's 32 work-items over their own 32 slots (those of a warp
      // without a row too). No barrier stands inside a loop: PoCL's kernel compiler
      // handles such a loop (a pairwise tree's) at a cost that grows faster than the
      // barriers do: one encoder layer's kernel of 13 block reductions took 61 s to
      // compile as a tree, 0.7 s so.
      const std::string T = sp.real;
      auto fold = [&](const std::string& loop) { return "for (" + loop + ") { " + T + " o = scratch[i]; v = " + c + "; }"; };
      auto finish = [&] {
        os << "  barrier(CLK_LOCAL_MEM_FENCE);\n  v = scratch[0];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  return v;\n}\n";
      };
      if (blockRows) {
        os << T << " pf_block_reduce_" << k->name << "(" << T << " v, __local " << T << "* scratch) {\n"
           << "  const int t = get_local_id(0), n = get_local_size(0);\n"
           << "  scratch[t] = v;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           << "  if (t < 32) { " << fold("int i = t + 32; i < n; i += 32") << " scratch[t] = v; }\n"
           << "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           << "  if (t == 0) { " << fold("int i = 1; i < 32 && i < n; ++i") << " scratch[0] = v; }\n";
        finish();
      }
      if (warpRows) {
        os << T << " pf_warp_reduce_" << k->name << "(" << T << " v, __local " << T << "* scratch) {\n"
           << "  const int t = get_local_id(0) & 31;\n"
           << "  scratch[t] = v;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           << "  if (t == 0) { " << fold("int i = 1; i < 32; ++i") << " scratch[0] = v; }\n";
        finish();
      }
    }
  }
  return os.str();
}

}  // namespace

std::string referenceRounding(ElemType t, const std::string& v) {
  const Spelling c{Dialect::C, true, "float", "int", {}, true, {}};
  return narrowRounded(t, v, c);
}

static std::string indexType(const SizedProgram& at, Dialect d) {
  if (!at.needsWideIndices()) return "int";
  return d == Dialect::Cuda ? "long long" : "long";  // OpenCL's long and C's long are 64-bit here
}

GeneratedCode generate(const PolyProgram& pp, const Partition& p, Dialect d) {
  const Program& prog = pp.program();
  std::vector<int> kernelsOf(prog.statements.size(), 0);
  for (auto& k : p.kernels)
    for (int s : k.statements)
      if (++kernelsOf[s] > 1)
        throw InternalError("S" + std::to_string(s) + " runs in two kernels: make the plan's copies explicit "
                            "(fusion/Recompute.h) before generating code");
  SizedProgram at(prog, p.sizes);
  PlanSchedule sched = buildSchedule(pp, at, p);
  verifySchedule(pp, p, sched);
  GeneratedCode out;
  out.kernels = lowerPartition(pp, at, p, sched);
  Spelling sp{d, realType(prog) == "float", realType(prog), indexType(at, d), {}, false, widenedReads(prog)};
  sp.strict = p.numerics == Numerics::Strict;
  std::ostringstream os;
  std::string sizes;
  for (auto& n : prog.sizeParams) sizes += (sizes.empty() ? "" : ", ") + n + "=" + std::to_string(p.sizes.at(n));
  os << "// Generated by polyfuse from program '" << prog.name << "' (strategy " << strategyName(p.strategy) << ", device "
     << p.device << ", sizes " << sizes << ").\n";
  os << "// " << p.kernels.size() << " kernel(s); every kernel's schedule was verified by isl against all dependences.\n";
  if (sp.strict) {
    os << "// Numerics strict: each statement rounds where the reference interpreter does (serial reductions in\n"
          "// loop order, no FMA contraction), so every plan of this program computes the same bits.\n";
    if (d == Dialect::OpenCL) os << "#pragma OPENCL FP_CONTRACT OFF\n";
  }
  std::set<ReduceOp> used;  // block combines the kernels need
  bool warpRows = false, blockRows = false, columnRows = false, streams = false, mma = false, pipelined = false;
  bool tf32Tiles = false;  // contraction tiles on mma-tf32: OpenCL rounds their operands too
  std::set<ContractionEngine> streamEngines;  // a streamed tile's on tensor cores
  for (auto& k : out.kernels) {
    streams |= !k.plan.streams.empty();
    if (k.plan.streamedTile()) {
      const StreamTile& tl = k.plan.streamTile;
      if (tl.mmaScores()) streamEngines.insert(tl.scoreEngine);
      if (tl.mmaSums()) streamEngines.insert(tl.sumEngine);
    }
    for (const ContractionTile& c : k.plan.contractions) {
      mma |= c.tensorCores() && d == Dialect::Cuda;
      tf32Tiles |= c.engine == ContractionEngine::TensorCoresTf32;
      pipelined |= c.stages > 1 && d == Dialect::Cuda;
    }
    warpRows |= k.plan.warpPerRow();
    columnRows |= k.plan.columnTile();
    blockRows |= k.plan.usesBlockReduce() && !k.plan.warpPerRow() && !k.plan.columnTile();
    for (auto& s : k.stmts)
      if (reducesAcrossThreads(s.mode)) used.insert(prog.statements[s.stmt].op);
    if (k.plan.splitChunks > 1 && d == Dialect::Cuda) used.insert(ReduceOp::Add);  // a combine's streamed sums fold by +
  }
  os << helpers(sp, prog, used, warpRows, blockRows, columnRows, streams) << "\n";
  if (mma || (!streamEngines.empty() && d == Dialect::Cuda)) os << mmaHelpers();
  if ((tf32Tiles || !streamEngines.empty()) && d == Dialect::OpenCL) os << kOpenClTf32;
  if (!streamEngines.empty() && d == Dialect::OpenCL) os << mmaEmulationHelpers(streamEngines);
  os << mmaPackHelpers(sp, streamEngines);
  if (pipelined) os << copyHelpers();
  for (auto& k : out.kernels) {
    KernelPrinter kp(at, k, sp);
    os << kp.print() << "\n";
    if (k.plan.splitChunks > 1) os << kp.printCombine() << "\n";
  }
  out.kernelSource = os.str();
  return out;
}

std::string emitReference(const SizedProgram& at, const Tf32Reads& tf32) {
  const Program& prog = at.program();
  std::ostringstream os;
  // An f32 program's reference computes in float, rounding each operation as the
  // interpreter's default precision does (polyir/Interpreter.h); arrays stay double.
  const bool f32 = prog.computeType() == ElemType::F32;
  os << "// The program as plain C loops in " << (f32 ? "float" : "double")
     << " precision, on arrays of doubles: the harness's oracle.\n";
  os << "#include <math.h>\n";
  // Each statement's outermost parallel loop on every core where the host compiler has
  // OpenMP (-fopenmp), and nothing (not even a warning) where it has not.
  os << "#ifdef _OPENMP\n#define PF_PARALLEL_FOR _Pragma(\"omp parallel for\")\n#else\n#define PF_PARALLEL_FOR\n#endif\n";
  const Spelling sp{Dialect::C, f32, f32 ? "float" : "double", indexType(at, Dialect::C), {}, f32, {}};
  os << mathHelpers(sp, usedHelpers(prog));
  // Not pf_tf32: the harness's CUDA kernels define that one. The harness turns the
  // rounding off for a run that measures what it does (pf_ref_tf32_on).
  if (!tf32.empty())
    os << "#include <string.h>\n"
          "#define PF_REF_TF32 1\n"
          "static int pf_ref_tf32_on = 1;\n"
          "static float pf_ref_tf32(float x) {  /* cvt.rna.tf32.f32 */\n"
          "  unsigned u;\n  if (!pf_ref_tf32_on) return x;\n  memcpy(&u, &x, 4);\n"
          "  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;\n"
          "  memcpy(&x, &u, 4);\n  return x;\n}\n";
  os << "static void " << referenceName(prog) << "(";
  std::vector<std::string> args;
  for (auto& t : prog.tensors) args.push_back("double* " + cName(t.name));
  for (auto& s : prog.scalars) args.push_back("double " + cName(s.name));
  for (size_t i = 0; i < args.size(); ++i) os << (i ? ", " : "") << args[i];
  os << ") {\n";
  for (auto& st : prog.statements) {
    const SizedStatement& ss = at.statement(st.id);
    os << "  // " << st.label() << " (line " << st.loc.line << "): " << statementText(prog, st) << "\n";
    std::function<std::string(const Access&)> idx = [&](const Access& a) {
      const Tensor& T = prog.tensors[a.tensor];
      std::string s;
      int64_t stride = 1;
      for (int p = int(a.subscripts.size()) - 1; p >= 0; --p) {
        if (a.indirectAt(size_t(p)) >= 0) {  // a gather: the subscript is an index tensor's element
          s = "(" + sp.index + ")" + idx(st.reads[size_t(a.indirect[p])]) + " * " + std::to_string(stride) + (s.empty() ? "" : " + " + s);
          stride *= T.shape[p].eval(at.sizes());
          continue;
        }
        s = "(" + std::to_string(a.subscripts[p].constant) + [&] {
          std::string r;
          for (auto& [n, c] : a.subscripts[p].coef) {
            auto sz = at.sizes().find(n);
            r += " + " + std::to_string(c) + " * " + (sz != at.sizes().end() ? std::to_string(sz->second) : cName(n));
          }
          return r;
        }() + ") * " + std::to_string(stride) + (s.empty() ? "" : " + " + s);
        stride *= T.shape[p].eval(at.sizes());
      }
      return cName(T.name) + "[" + (s.empty() ? "0" : s) + "]";
    };
    std::string ind = "  ";
    // Points of the outermost parallel dimension write distinct outputs and read only
    // what earlier statements wrote (unless the statement reads its own tensor): a host
    // built with OpenMP (the CUDA harness's) runs them on every core, each point's
    // arithmetic as serial. A contraction's reference at 4096 x 3072 x 768 took minutes on one.
    bool readsItself = false;
    for (const Access& r : st.reads) readsItself |= r.tensor == st.write.tensor;
    const std::string parallel = st.numParallel > 0 && !readsItself ? "  PF_PARALLEL_FOR\n" : "";
    if (st.init && ss.points > 0) {  // an empty domain executes nothing, its initialization included
      os << parallel;
      for (int d = 0; d < st.numParallel; ++d) {
        os << ind << "for (" << sp.index << " " << cName(st.dims[d]) << " = " << ss.lo[d] << "; " << cName(st.dims[d]) << " < " << ss.hi[d] << "; ++" << cName(st.dims[d]) << ")\n";
        ind += "  ";
      }
      os << ind << idx(st.write) << " = " << identity(st.op, sp) << ";\n";
      ind = "  ";
    }
    os << parallel;
    for (size_t d = 0; d < st.dims.size(); ++d) {
      os << ind << "for (" << sp.index << " " << cName(st.dims[d]) << " = " << ss.lo[d] << "; " << cName(st.dims[d]) << " < " << ss.hi[d] << "; ++" << cName(st.dims[d]) << ")\n";
      ind += "  ";
    }
    auto tf32Reads = tf32.find(st.id);
    auto operand = [&](const Access& a) {
      const bool rounded = tf32Reads != tf32.end() && tf32Reads->second.count(int(&a - st.reads.data()));
      return rounded ? "pf_ref_tf32((float)" + idx(a) + ")" : idx(a);
    };
    std::string lhs = idx(st.write), v = valueText(st, *st.rhs, sp, at.sizes(), operand);
    std::string rhs = combine(st.op, f32 ? "(float)" + lhs : lhs, v, sp);
    os << ind << lhs << " = " << (f32 ? "(float)(" + rhs + ")" : rhs) << ";\n";
    // A 16-bit float holds its final values rounded (a reduction's after its last step):
    // the whole tensor, whose other elements are rounded already.
    const Tensor& W = prog.tensors[st.write.tensor];
    if (isNarrowFloat(W.type))
      os << "  for (long pf_i = 0; pf_i < " << W.elements(at.sizes()) << "; ++pf_i) " << cName(W.name) << "[pf_i] = "
         << narrowRounded(W.type, cName(W.name) + "[pf_i]", sp) << ";\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace polyfuse

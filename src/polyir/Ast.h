// The syntax tree of a TC definition, as written; names are resolved by Sema.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "polyir/Diagnostic.h"

namespace polyfuse {

// Integer tensors are inputs: they hold subscripts (a gather reads E(ids(i), j)) or
// values (a mask), read as their value in the computing type. Bool is MLIR's i1, one
// byte holding 0 or 1. Half and BF16 (IEEE binary16, bfloat16) are storage types: read
// into the computing type, rounded to nearest even when a final value is stored.
enum class ElemType { F32, F64, I8, I16, I32, I64, Bool, Half, BF16 };
// The TC spelling; codegen spells the C types (codegen/Emit.h).
inline const char* elemTypeName(ElemType t) {
  switch (t) {
    case ElemType::F32: return "float";
    case ElemType::F64: return "double";
    case ElemType::I8: return "int8";
    case ElemType::I16: return "int16";
    case ElemType::I32: return "int32";
    case ElemType::I64: return "int64";
    case ElemType::Bool: return "bool";
    case ElemType::Half: return "half";
    case ElemType::BF16: return "bfloat16";
  }
  return "?";
}
inline constexpr ElemType kElemTypes[] = {ElemType::F32,  ElemType::F64,  ElemType::I8,   ElemType::I16, ElemType::I32,
                                          ElemType::I64,  ElemType::Bool, ElemType::Half, ElemType::BF16};
inline int elemBytes(ElemType t) {
  switch (t) {
    case ElemType::Bool: case ElemType::I8: return 1;
    case ElemType::Half: case ElemType::BF16: case ElemType::I16: return 2;
    case ElemType::F32: case ElemType::I32: return 4;
    case ElemType::F64: case ElemType::I64: return 8;
  }
  return 8;
}
// A float type stored narrower than any computing type.
inline bool isNarrowFloat(ElemType t) { return t == ElemType::Half || t == ElemType::BF16; }
inline bool isInteger(ElemType t) {
  return t == ElemType::I8 || t == ElemType::I16 || t == ElemType::I32 || t == ElemType::I64 || t == ElemType::Bool;
}

enum class ExprKind {
  Number,     // literal
  Name,       // unresolved identifier (parser)
  Size,       // size parameter used as a value
  Scalar,     // scalar parameter
  Index,      // index variable used as a value
  Access,     // tensor element
  Call,       // intrinsic (or, before Sema, a tensor access in call syntax)
  Neg, Add, Sub, Mul, Div,
  Lt, Le, Gt, Ge, Eq, Ne,  // comparisons: only as the condition of a Select
  Select                   // args: condition, value if true, value if false
};

// Fmax/Fmin ignore a NaN operand (C's fmax, MLIR's maxnumf); Maximum/Minimum propagate
// it and order -0 below +0 (IEEE 754-2019 maximum, MLIR's maximumf).
// The casts MLIR bodies contain: RoundF32/F16/BF16 round to that type's precision (truncf,
// then extf back to the computing type); RoundFloat(x, fraction, minQuantum, maxFinite,
// nanOnOverflow) to any binary format's (the f8 kinds), its parameters literals; Wrap(x, n) is x reduced to a signed n-bit integer
// (trunci, index_cast), Zext(x, n) the unsigned value of the n-bit integer x (extui,
// uitofp, unsigned compares); Trunc rounds toward zero (fptosi); Fma(a, b, c) rounds
// a * b + c once (math.fma). IDiv/IRem truncate like C; FloorDiv/CeilDiv round down, up.
// BitAnd/BitOr/BitXor and Shl/AShr act on the 64-bit two's complement of integer values
// (a shift by 64 or more: 0, or the sign for AShr); Clz(x, n) counts the leading zeros of
// the n-bit integer x (math.ctlz).
enum class Intrinsic {
  Exp, Log, Sqrt, Rsqrt, Tanh, Erf, Fabs, Fmax, Fmin, Pow, Sigmoid,
  // C's math library, as CUDA (f-suffixed in float) and OpenCL spell it too.
  Sin, Cos, Tan, Atan, Atan2, Floor, Ceil, Round, Rint, Log1p, Log2, Log10, Exp2, Expm1, Copysign, Fmod,
  Asin, Acos, Sinh, Cosh, Asinh, Acosh, Atanh, Cbrt, Erfc,
  Fma, Trunc, Maximum, Minimum, RoundF32, RoundF16, RoundBF16, RoundFloat, Wrap, Zext, IDiv, IRem, FloorDiv, CeilDiv,
  BitAnd, BitOr, BitXor, Shl, AShr, Clz
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind;
  SourceLoc loc;
  double number = 0;
  std::string name;         // identifier, tensor or function name
  int ref = -1;             // tensor id (Access) or scalar id (Scalar)
  Intrinsic fn = Intrinsic::Exp;
  std::vector<ExprPtr> args;  // operands, subscripts or call arguments
  int height = 1;             // of the tree below: every walk over it recurses this deep

  Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
};

// A literal's value: a number, or the negation of one (as the parser reads -3); none for
// any other expression.
inline std::optional<double> literalValue(const Expr& e) {
  if (e.kind == ExprKind::Number) return e.number;
  if (e.kind == ExprKind::Neg && e.args.size() == 1 && e.args[0]->kind == ExprKind::Number) return -e.args[0]->number;
  return std::nullopt;
}

struct TensorDecl {
  std::string name;
  SourceLoc loc;
  ElemType type = ElemType::F32;
  bool hasShape = false;                 // scalars and bare outputs have none
  std::vector<std::string> dims;         // size names, or integer literals
  std::vector<SourceLoc> dimLocs;
  // An input whose elements the source states (an imported constant), row-major: exec
  // reads these where it would draw random ones. Empty for every other parameter.
  std::vector<double> values;
};

// Max/Min propagate NaN (MLIR's maximumf); FMax/FMin ignore it (maxnumf, C's fmax).
enum class ReduceOp { Assign, Add, Mul, Max, Min, FMax, FMin };

struct WhereRange {
  std::string index;
  SourceLoc loc;
  ExprPtr lo, hi;
};

struct StmtDecl {
  SourceLoc loc;
  std::string lhs;
  std::vector<std::string> lhsIndices;
  std::vector<SourceLoc> lhsIndexLocs;
  std::vector<ExprPtr> lhsSubscripts;  // kept to report non-variable subscripts
  ReduceOp op = ReduceOp::Assign;
  bool init = false;
  SourceLoc opLoc;
  ExprPtr rhs;
  std::vector<WhereRange> where;
};

// Sizes a front end knows to be bounded: sum of coefficient * size, + offset <= limit (a
// slice that takes `size` elements from `offset` of a dimension of extent `limit`, a size
// name or an integer; a window that reads output + filter - 1 elements of its input).
// Checked where sizes are given; isl's context assumes it.
struct SizeBoundDecl {
  std::vector<std::pair<std::string, int64_t>> terms;  // size name, coefficient
  int64_t offset = 0;
  std::string limit;
  SourceLoc loc;
  std::string what;  // the op that needs it, for messages
};

struct DefDecl {
  std::string name;
  SourceLoc loc;
  std::vector<SizeBoundDecl> sizeBounds;
  // Sizes the signature declares by name (`size N`): sizes no input's shape has, which an
  // output's shape or an expression uses (an imported function's `index` arguments).
  std::vector<std::pair<std::string, SourceLoc>> sizes;
  std::vector<TensorDecl> params;   // tensors and scalars in signature order
  std::vector<TensorDecl> outputs;
  std::vector<StmtDecl> stmts;
  // Element types of temporaries that a front end knows (TC itself gives a temporary
  // the first float parameter's type).
  std::vector<std::pair<std::string, ElemType>> temporaryTypes;
};

}  // namespace polyfuse

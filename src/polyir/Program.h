// The checked program: tensors with shapes, statements with index ranges and
// affine accesses. Everything downstream (isl form, interpreter, fusion) reads this.
#pragma once
#include <string>
#include <vector>

#include "polyir/Affine.h"
#include "polyir/Ast.h"

namespace polyfuse {

enum class TensorRole { Input, Output, Temporary };
inline const char* roleName(TensorRole r) {
  return r == TensorRole::Input ? "input" : r == TensorRole::Output ? "output" : "temporary";
}

struct Tensor {
  std::string name;
  SourceLoc loc;
  ElemType type = ElemType::F32;
  TensorRole role = TensorRole::Input;
  std::vector<Affine> shape;  // affine in the size parameters
  std::vector<double> values;  // an input's stated elements (TensorDecl::values), else empty
  int64_t elements(const Sizes& sizes) const;
  int64_t bytes(const Sizes& sizes) const { return elements(sizes) * elemBytes(type); }
};

struct ScalarParam {
  std::string name;
  SourceLoc loc;
  ElemType type = ElemType::F32;
};

// Range::origin of a range a where clause set (others name the accesses they came from).
inline constexpr const char* kWhereOrigin = "its where clause";

struct Range {
  Affine lo, hi;       // half-open [lo, hi), affine in size parameters
  std::string origin;  // what set it, for messages: "where clause" or the accesses it came from
};

// An affine condition of a select around a read: `expr cmp 0`, cmp one of the
// comparisons of ExprKind (Lt .. Ne), expr affine in the statement's indices and sizes.
struct Guard {
  Affine expr;
  ExprKind cmp = ExprKind::Lt;
};

struct Access {
  int tensor = -1;
  std::vector<Affine> subscripts;  // affine in the statement's index variables and sizes
  // A gather, E(ids(s), d): per subscript, -1 or the statement's read (of an integer
  // input) whose value the subscript is; that subscript's affine form is then 0.
  // Empty when every subscript is affine.
  std::vector<int> indirect;
  // The affine conditions of the selects whose taken branch holds the read: it is made
  // only where all of them hold (`k + 1 < N ? X(k + 1) : 0` reads X(N) never), so its
  // access relation is cut to them and its subscripts bound no index they name.
  std::vector<Guard> guards;
  SourceLoc loc;

  bool gathers() const { return !indirect.empty(); }
  bool guarded() const { return !guards.empty(); }
  int indirectAt(size_t p) const { return indirect.empty() ? -1 : indirect[p]; }
  // Whether consecutive values of index `dim` read consecutive elements: the last
  // subscript is `dim` alone, plus a constant. The cost model's slice layout and
  // codegen's copy width ask it of the same access.
  bool runsAlong(const std::string& dim) const {
    if (subscripts.empty()) return false;
    const Affine& last = subscripts.back();
    return last.div == 1 && last.coef.size() == 1 && last.coefficient(dim) == 1;
  }
};

struct Statement {
  int id = 0;                        // S<id>, program order
  SourceLoc loc;
  std::string tensorName;
  ReduceOp op = ReduceOp::Assign;
  bool init = false;                 // the `!` forms start from the operator's identity
  std::vector<std::string> dims;     // parallel (lhs) dims first, then reduction dims
  int numParallel = 0;
  std::vector<Range> ranges;         // one per dim
  Access write;
  std::vector<Access> reads;         // right-hand side reads, in source order
  ExprPtr rhs;                       // resolved expression tree
  // Set by rewrites of the program (recomputation copies a statement into a kernel):
  // the label the user knows it by; empty: S<id>.
  std::string name;

  int numReduction() const { return int(dims.size()) - numParallel; }
  bool isReduction() const { return op != ReduceOp::Assign; }
  // An update that reads the old value of its own lhs (`+=`, or `+=!` past the first step).
  bool readsLhs() const { return op != ReduceOp::Assign; }
  std::string label() const { return name.empty() ? "S" + std::to_string(id) : name; }
};

// used <= limit, for every size the program may be given (SizeBoundDecl).
struct SizeBound {
  Affine used;
  Affine limit;
  SourceLoc loc;
  std::string what;
};

struct Program {
  std::string name;
  std::vector<std::string> sizeParams;  // in order of first appearance
  std::vector<SizeBound> sizeBounds;
  std::vector<ScalarParam> scalars;
  std::vector<Tensor> tensors;          // inputs (signature order), outputs, temporaries
  std::vector<Statement> statements;

  int findTensor(const std::string& n) const;
  std::vector<int> tensorsWithRole(TensorRole r) const;
  // Every size parameter bound, every value >= 1, every sizeBounds held.
  void checkSizes(const Sizes& sizes) const;
  // The type generated kernels compute in: double when any tensor or scalar is double.
  ElemType computeType() const;
  // The values drawn for an integer input, uniform over [low, high): [0, extent) keeps
  // every gather through it in bounds (the least extent it indexes); a mask read as a
  // value is 0 or 1; a narrow integer read as a value (quantized data) spans both signs.
  struct IntegerDraw { int64_t low, high; };
  IntegerDraw integerDraw(int tensor, const Sizes& sizes) const;
};

std::string reduceOpText(ReduceOp op, bool init);  // "+=!": see polyir/Reduction.h
const char* intrinsicName(Intrinsic f);
// TC's literal for positive infinity, where no tensor or parameter takes the name.
inline constexpr const char* kInfinityName = "inf";
// Whether `name` is a TC intrinsic (exp, fmax, wrap, ..) or `inf`: a name a tensor must
// not take where the program is written by a tool.
bool isIntrinsicName(const std::string& name);

// Sema: resolves names, infers ranges, checks the program. Throws SourceError.
Program analyze(const DefDecl& def);
// Deep copies (expressions are owned by their statement), for rewrites of a program.
ExprPtr cloneExpr(const Expr& e);
Statement cloneStatement(const Statement& st);

// Parses `N=4096,M=4096`; throws UsageError.
Sizes parseSizes(const std::string& text);

}  // namespace polyfuse

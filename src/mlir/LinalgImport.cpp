// linalg on tensors -> TC syntax tree. Every linalg.generic (named ops are generalized
// first) becomes one TC statement per result: the loops become index variables d0, d1..
// (as in the op's affine maps), the indexing maps become subscripts, the reduction
// iterators become the statement's reduction dimensions with the combiner read off the
// body, and linalg.fill inits become the `!` forms when they hold the combiner's identity.
// Extents are symbols: a dynamic dimension of an argument %x is the size x_<dim>, and two
// extents a generic's loop ranges over together are one size (linalg requires them equal).
#include "mlir/LinalgImport.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "llvm/Support/SourceMgr.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/IndexRanges.h"
#include "mlir/LoopFunction.h"
#include "mlir/IreeBoundary.h"
#include "mlir/Upgrade.h"
#include "polyir/Parser.h"
#include "polyir/Reduction.h"

namespace polyfuse {
namespace {

using mlir::Operation;
using mlir::Value;

SourceLoc locOf(mlir::Location l) {
  if (auto f = mlir::dyn_cast<mlir::FileLineColLoc>(l)) return {int(f.getLine()), int(f.getColumn())};
  if (auto n = mlir::dyn_cast<mlir::NameLoc>(l)) return locOf(n.getChildLoc());
  if (auto c = mlir::dyn_cast<mlir::CallSiteLoc>(l)) return locOf(c.getCallee());
  if (auto fu = mlir::dyn_cast<mlir::FusedLoc>(l))
    for (auto x : fu.getLocations())
      if (SourceLoc s = locOf(x); s.line) return s;
  return {};
}
SourceLoc locOf(Operation* op) { return locOf(op->getLoc()); }

std::string opName(Operation* op) { return op->getName().getStringRef().str(); }

// ---- extents ---------------------------------------------------------------------

// A union-find of loop and tensor extents: each is a literal or a named size.
class Extents {
 public:
  int literal(int64_t v) { return add(v, ""); }
  int named(const std::string& n) { return add(-1, n); }
  int find(int s) {
    while (syms_[s].parent != s) s = syms_[s].parent = syms_[syms_[s].parent].parent;
    return s;
  }
  void unite(int a, int b, SourceLoc where) {
    a = find(a), b = find(b);
    if (a == b) return;
    Sym &x = syms_[a], &y = syms_[b];
    if (x.value >= 0 && y.value >= 0 && x.value != y.value)
      throw SourceError(where, "extents " + std::to_string(x.value) + " and " + std::to_string(y.value) +
                                   " meet in one loop of this op");
    // A literal absorbs a size; of two sizes the first declared stays.
    if (y.value >= 0 || (x.value < 0 && b < a)) std::swap(a, b);
    syms_[b].parent = a;
  }
  std::string text(int s) {
    const Sym& x = syms_[find(s)];
    return x.value >= 0 ? std::to_string(x.value) : x.name;
  }
  std::optional<int64_t> value(int s) {  // the literal, if it is one
    const Sym& x = syms_[find(s)];
    return x.value >= 0 ? std::optional<int64_t>(x.value) : std::nullopt;
  }

 private:
  struct Sym {
    int parent;
    int64_t value;
    std::string name;
  };
  std::vector<Sym> syms_;
  int add(int64_t v, const std::string& n) {
    syms_.push_back({int(syms_.size()), v, n});
    return int(syms_.size()) - 1;
  }
};

using Shape = std::vector<int>;

// ---- expressions -----------------------------------------------------------------

constexpr int kMaxBodyNodes = 100000;  // a body's DAG unfolds into a tree: keep it bounded

ExprPtr node(ExprKind k, SourceLoc loc, std::vector<ExprPtr> args = {}) {
  auto e = std::make_unique<Expr>(k, loc);
  for (auto& a : args) e->height = std::max(e->height, a->height + 1);
  e->args = std::move(args);
  if (e->height > kMaxExprHeight) throw SourceError(loc, "this op's body is nested too deeply once unfolded");
  return e;
}

ExprPtr binary(ExprKind k, ExprPtr a, ExprPtr b, SourceLoc loc) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return node(k, loc, std::move(args));
}

ExprPtr name(const std::string& n, SourceLoc loc) {
  auto e = node(ExprKind::Name, loc);
  e->name = n;
  return e;
}

// The shortest decimal spelling that reads back as the same value of `bits` width.
std::string decimal(double v, int bits) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
  }
  for (int p = 6; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    double back = std::strtod(buf, nullptr);
    if (bits == 32 ? float(back) == float(v) : back == v) break;
  }
  return buf;
}

ExprPtr number(double v, int bits, SourceLoc loc) {
  if (std::isnan(v)) throw SourceError(loc, "constant NaN is not supported in an expression");
  if (v < 0) {
    std::vector<ExprPtr> a;
    a.push_back(number(-v, bits, loc));
    return node(ExprKind::Neg, loc, std::move(a));
  }
  auto e = node(ExprKind::Number, loc);
  e->number = v;
  e->name = std::isinf(v) ? kInfinityName : decimal(v, bits);
  return e;
}

ExprPtr integer(int64_t v, SourceLoc loc) {
  if (v < 0) {
    std::vector<ExprPtr> a;
    a.push_back(integer(-v, loc));
    return node(ExprKind::Neg, loc, std::move(a));
  }
  auto e = node(ExprKind::Number, loc);
  e->number = double(v);
  e->name = std::to_string(v);
  return e;
}

ExprPtr call(const std::string& fn, SourceLoc loc, std::vector<ExprPtr> args) {
  auto e = node(ExprKind::Call, loc, std::move(args));
  e->name = fn;
  return e;
}

// An integer attribute as a body holds it: its signed value, an i1 as 0 or 1 (the casts
// read it so: `sitofp` of an i1 is -x). IntegerAttr::getInt would give -1 for true.
int64_t integerValue(const llvm::APInt& i, bool isBool) { return isBool ? int64_t(!i.isZero()) : i.getSExtValue(); }
int64_t integerValue(mlir::IntegerAttr i) { return integerValue(i.getValue(), i.getType().isInteger(1)); }

// A constant defined by arith.constant (scalar, or the splat of a tensor): a float, or
// an integer as integerValue reads it.
std::optional<double> constantValue(Value v) {
  auto c = v.getDefiningOp<mlir::arith::ConstantOp>();
  if (!c) return std::nullopt;
  mlir::Attribute a = c.getValue();
  if (auto s = mlir::dyn_cast<mlir::SplatElementsAttr>(a)) a = s.getSplatValue<mlir::Attribute>();
  if (auto f = mlir::dyn_cast<mlir::FloatAttr>(a)) return f.getValueAsDouble();
  if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(a); i && !i.getType().isIndex()) return double(integerValue(i));
  return std::nullopt;
}

// A float of any width MLIR has, as a double (exact: every such float is one).
double toDouble(llvm::APFloat f) {
  bool lost = false;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

// The elements a tensor constant states, row-major, as the program reads them (integers
// as integerValue does); none where the file leaves them out (`dense_resource<__elided__>`).
std::optional<std::vector<double>> constantElements(mlir::Attribute a) {
  auto type = mlir::dyn_cast<mlir::ShapedType>(mlir::cast<mlir::TypedAttr>(a).getType());
  const mlir::Type elem = type.getElementType();
  std::vector<double> out;
  out.reserve(size_t(type.getNumElements()));
  if (auto dense = mlir::dyn_cast<mlir::DenseElementsAttr>(a)) {
    if (mlir::isa<mlir::FloatType>(elem))
      for (const llvm::APFloat& f : dense.getValues<llvm::APFloat>()) out.push_back(toDouble(f));
    else
      for (const llvm::APInt& i : dense.getValues<llvm::APInt>()) out.push_back(double(integerValue(i, elem.isInteger(1))));
    return out;
  }
  auto resource = mlir::dyn_cast<mlir::DenseResourceElementsAttr>(a);
  mlir::AsmResourceBlob* blob = resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob) return std::nullopt;
  const llvm::ArrayRef<char> bytes = blob->getData();
  const unsigned width = elem.isInteger(1) ? 8 : elem.getIntOrFloatBitWidth();
  if (width % 8 || bytes.size() != size_t(type.getNumElements()) * (width / 8)) return std::nullopt;
  for (size_t k = 0; k < size_t(type.getNumElements()); ++k) {
    uint64_t bits = 0;
    std::memcpy(&bits, bytes.data() + k * (width / 8), width / 8);  // little-endian, as MLIR writes blobs
    const llvm::APInt i(width, bits);
    if (auto f = mlir::dyn_cast<mlir::FloatType>(elem)) out.push_back(toDouble(llvm::APFloat(f.getFloatSemantics(), i)));
    else out.push_back(double(integerValue(i, elem.isInteger(1))));
  }
  return out;
}

int floatBits(mlir::Type t) {
  if (auto s = mlir::dyn_cast<mlir::ShapedType>(t)) t = s.getElementType();
  return t.isF64() ? 64 : 32;
}

// The TC element type of a float or of a tensor's elements (checked f32, f64, i32 or
// i64 before).
ElemType elemType(mlir::Type t) {
  if (auto s = mlir::dyn_cast<mlir::ShapedType>(t)) t = s.getElementType();
  if (t.isF16()) return ElemType::Half;
  if (t.isBF16()) return ElemType::BF16;
  if (t.isInteger(1)) return ElemType::Bool;
  if (t.isInteger(64)) return ElemType::I64;
  if (t.isInteger(32)) return ElemType::I32;
  if (t.isInteger(16)) return ElemType::I16;
  if (t.isInteger(8)) return ElemType::I8;
  return floatBits(t) == 64 ? ElemType::F64 : ElemType::F32;
}

// ---- what a generic computes -----------------------------------------------------

struct ResultForm {
  ReduceOp op = ReduceOp::Assign;
  Value value;        // the reduced value, or the assigned one
  bool readsInit = false;  // an elementwise result that reads its init operand
  bool dropped = false;    // never used, nor read by the results kept: not computed
  // A select-combined update, select(c, acc op x, acc): acc op select(c, x, identity).
  // `keepWhen` is the condition under which the accumulator stays as it is.
  Value keepWhen{};
  bool keepWhenTrue = false;
  // The index of another result's max or min (torch's max.dim with its indices used):
  // select(x beats acc_m, index, acc) where result `argOf` reduces x. `value` is x,
  // `index` the reduction loop it records; `op` Min picks the first position where x
  // equals the extreme (a strict compare), Max the last (a non-strict one).
  int argOf = -1;
  unsigned index = 0;
};

// Whether v is computed from `on` within the body: a walk over the body's DAG that
// visits each op once (a body whose ops each use the two before would otherwise take
// time exponential in its length), without recursion.
bool dependsOn(Value v, Value on, mlir::Block* body) {
  llvm::DenseSet<Operation*> seen;
  llvm::SmallVector<Value, 16> work{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == on) return true;
    Operation* d = x.getDefiningOp();
    if (!d || d->getBlock() != body || !seen.insert(d).second) continue;
    for (Value o : d->getOperands()) work.push_back(o);
  }
  return false;
}

const char* iteratorWord(mlir::utils::IteratorType t) {
  return t == mlir::utils::IteratorType::reduction ? "reduction" : "parallel";
}

// The combiner of a reduction result: `acc op x`, or max/min spelled cmpf + select.
ResultForm combiner(mlir::linalg::GenericOp g, Value y, mlir::BlockArgument acc) {
  Operation* d = y.getDefiningOp();
  SourceLoc loc = locOf(d ? d : g.getOperation());
  auto fail = [&]() -> ResultForm {
    throw SourceError(loc, "cannot read the combiner of this reduction: expected addf, mulf, maximumf, minimumf "
                           "(or cmpf with select) of the accumulator and one value");
  };
  if (!d || d->getBlock() != acc.getOwner()) fail();
  auto other = [&](Value a, Value b) -> Value {
    if (a == acc && b != acc) return b;
    if (b == acc && a != acc) return a;
    return {};
  };
  ResultForm f;
  if (d->getNumOperands() == 2) {
    Value x = other(d->getOperand(0), d->getOperand(1));
    if (mlir::isa<mlir::arith::AddFOp, mlir::arith::AddIOp>(d)) f = {ReduceOp::Add, x};
    else if (mlir::isa<mlir::arith::MulFOp, mlir::arith::MulIOp>(d)) f = {ReduceOp::Mul, x};
    else if (mlir::isa<mlir::arith::MaximumFOp>(d)) f = {ReduceOp::Max, x};
    else if (mlir::isa<mlir::arith::MinimumFOp>(d)) f = {ReduceOp::Min, x};
    else if (mlir::isa<mlir::arith::MaxNumFOp>(d)) f = {ReduceOp::FMax, x};
    else if (mlir::isa<mlir::arith::MinNumFOp>(d)) f = {ReduceOp::FMin, x};
  } else if (auto sel = mlir::dyn_cast<mlir::arith::SelectOp>(d)) {
    auto cmp = sel.getCondition().getDefiningOp<mlir::arith::CmpFOp>();
    Value x = other(sel.getTrueValue(), sel.getFalseValue());
    if (cmp && x && other(cmp.getLhs(), cmp.getRhs()) == x) {
      using P = mlir::arith::CmpFPredicate;
      P p = cmp.getPredicate();
      // An ordered compare never picks a NaN over the accumulator, nor keeps one (the
      // accumulator starts from a number): fmax and fmin. An unordered one picks by
      // position in the row, which no reduction tree reproduces.
      bool gt = p == P::OGT || p == P::OGE, lt = p == P::OLT || p == P::OLE;
      if (p == P::UGT || p == P::UGE || p == P::ULT || p == P::ULE)
        throw SourceError(loc, "this reduction selects with an unordered compare: with a NaN its result depends on "
                               "the order of the elements, which a parallel reduction does not keep; use an ordered "
                               "predicate, maximumf or maxnumf");
      if (gt || lt) {
        bool xGreater = (cmp.getLhs() == x) == gt;       // the condition reads "x > acc"
        bool picksX = sel.getTrueValue() == x;
        f = {xGreater == picksX ? ReduceOp::FMax : ReduceOp::FMin, x};
      }
    }
  }
  // select(c, acc op x, acc), or with the branches swapped (an embedding bag's masked
  // sum): the element not taken contributes the operator's identity instead, which
  // leaves the accumulator as it was.
  if (!f.value)
    if (auto sel = mlir::dyn_cast<mlir::arith::SelectOp>(d)) {
      const bool keepTrue = sel.getTrueValue() == acc, keepFalse = sel.getFalseValue() == acc;
      Value update = keepTrue ? sel.getFalseValue() : sel.getTrueValue();
      Operation* u = update.getDefiningOp();
      if (keepTrue != keepFalse && u && u->getBlock() == acc.getOwner() && u->getNumOperands() == 2 &&
          !dependsOn(sel.getCondition(), acc, acc.getOwner())) {
        f = combiner(g, update, acc);
        f.keepWhen = sel.getCondition();
        f.keepWhenTrue = keepTrue;
      }
    }
  if (!f.value) fail();
  if (dependsOn(f.value, acc, acc.getOwner()))
    throw SourceError(loc, "this reduction uses its accumulator other than through its combiner");
  return f;
}

// A cast that keeps an integer's value (to index, or wider): ids and positions are read
// through them.
bool keepsIntegerValue(Operation* d) {
  return mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp>(d);
}

// Result k's yield as an arg-reduction of another result (ResultForm::argOf), its
// combiner to be checked once every result's form is known; none for another form.
std::optional<ResultForm> argReduction(mlir::linalg::GenericOp g, unsigned k, Value y) {
  mlir::Block* body = g.getBody();
  auto sel = y.getDefiningOp<mlir::arith::SelectOp>();
  auto cmp = sel ? sel.getCondition().getDefiningOp<mlir::arith::CmpFOp>() : nullptr;
  if (!cmp || sel->getBlock() != body) return std::nullopt;
  const mlir::BlockArgument acc = g.getMatchingBlockArgument(g.getDpsInitOperand(k));
  const bool keepTrue = sel.getTrueValue() == acc;
  if (keepTrue == (sel.getFalseValue() == acc)) return std::nullopt;
  Value index = keepTrue ? sel.getFalseValue() : sel.getTrueValue();
  // The other result's accumulator among the compare's operands, and the value x.
  int m = -1;
  bool accOnLeft = false;
  for (unsigned j = 0; j < g.getNumResults(); ++j)
    for (int side = 0; side < 2; ++side)
      if (j != k && (side ? cmp.getRhs() : cmp.getLhs()) == g.getMatchingBlockArgument(g.getDpsInitOperand(j)))
        m = int(j), accOnLeft = side == 0;
  if (m < 0) return std::nullopt;
  Value x = accOnLeft ? cmp.getRhs() : cmp.getLhs();
  // The index recorded: a reduction loop's, through casts.
  while (Operation* d = index.getDefiningOp()) {
    if (!keepsIntegerValue(d) && !mlir::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp>(d)) break;
    index = d->getOperand(0);
  }
  auto loop = index.getDefiningOp<mlir::linalg::IndexOp>();
  auto iters = g.getIteratorTypesArray();
  if (!loop || loop.getDim() >= iters.size() || iters[loop.getDim()] != mlir::utils::IteratorType::reduction ||
      g.getNumReductionLoops() != 1)
    return std::nullopt;
  for (unsigned j = 0; j < g.getNumResults(); ++j)
    if (dependsOn(x, g.getMatchingBlockArgument(g.getDpsInitOperand(j)), body)) return std::nullopt;
  // The update condition as "x OP acc": the compare read with x on the left, negated when
  // the select keeps the accumulator on true.
  using P = mlir::arith::CmpFPredicate;
  P p = cmp.getPredicate();
  const std::map<P, P> swapped = {{P::OGT, P::OLT}, {P::OLT, P::OGT}, {P::OGE, P::OLE}, {P::OLE, P::OGE}};
  const std::map<P, P> negated = {{P::OGT, P::OLE}, {P::OLE, P::OGT}, {P::OGE, P::OLT}, {P::OLT, P::OGE}};
  if (!swapped.count(p)) return std::nullopt;  // unordered or equality compares: not an arg-reduction
  if (accOnLeft) p = swapped.at(p);
  if (keepTrue) p = negated.at(p);
  ResultForm f;
  f.value = x;
  f.argOf = m;
  f.index = loop.getDim();
  // Strict: the first position of the extreme; non-strict: the last. The sign of the
  // extreme (max or min) is checked against result m's combiner afterwards.
  f.op = p == P::OGT || p == P::OLT ? ReduceOp::Min : ReduceOp::Max;
  f.keepWhenTrue = p == P::OGT || p == P::OGE;  // x beats acc by being greater: an argmax
  return f;
}

// The SSA names the file gives, as MLIR's parser recorded them (AsmParserState), keyed
// by where they stand: an op's by its name's line and column (ops that rewriting
// replaces, such as generalized named ops, keep their location, so they keep their
// names), a block argument's by its own.
struct SsaNames {
  std::map<std::pair<int, int>, std::vector<std::string>> results;
  std::map<std::pair<int, int>, std::string> arguments;

  SsaNames(const mlir::AsmParserState& state, const llvm::SourceMgr& sm) {
    auto at = [&](llvm::SMLoc l) {
      auto [line, col] = sm.getLineAndColumn(l);
      return std::make_pair(int(line), int(col));
    };
    // "%name" (a group of several results, "%name:2", is read by the group's size).
    auto text = [](llvm::SMRange r) {
      std::string t(r.Start.getPointer(), r.End.getPointer());
      return t.empty() || t[0] != '%' ? t : t.substr(1);
    };
    for (const mlir::AsmParserState::OperationDefinition& op : state.getOpDefs()) {
      std::vector<std::string>& names = results[at(op.loc.Start)];
      const unsigned n = op.op->getNumResults();
      for (size_t g = 0; g < op.resultGroups.size(); ++g) {
        const unsigned first = op.resultGroups[g].startIndex;
        const unsigned end = g + 1 < op.resultGroups.size() ? op.resultGroups[g + 1].startIndex : n;
        const std::string name = text(op.resultGroups[g].definition.loc);
        if (end - first == 1) names.push_back(name);
        else
          for (unsigned k = first; k < end; ++k) names.push_back(name + "_" + std::to_string(k - first));
      }
    }
    for (const mlir::AsmParserState::BlockDefinition& b : state.getBlockDefs())
      for (const mlir::AsmParserState::SMDefinition& a : b.arguments) arguments[at(a.loc.Start)] = text(a.loc);
  }
};

// ---- the importer ----------------------------------------------------------------

// View: a reshape or a slice, read through to its source (no copy, as in IREE).
enum class Kind { Input, Empty, Fill, Computed, View };

struct TensorValue {
  explicit TensorValue(Kind k = Kind::Computed, Shape s = {}) : kind(k), shape(std::move(s)) {}
  Kind kind;
  std::string name;
  Shape shape;
  Value fill;            // Fill: the scalar it holds
  Value source;          // View: the tensor it re-indexes
  mlir::AffineMap view;  // View: its indices -> the source's
  // Computed along a parallel loop that a collapse split: the tensor is stored with that
  // dimension as its parts (the same elements in the same order), `split` taking the
  // indices of `shape` to those of `stored`. Null when stored as it is.
  mlir::AffineMap split;
  Shape stored;
};

class Importer {
 public:
  Importer(const SsaNames& names, LinalgImport& out) : names_(names), out_(out) {}

  void run(mlir::func::FuncOp fn) {
    fn_ = fn;
    if (!fn.getBody().hasOneBlock())
      throw SourceError(locOf(fn), "function '" + fn.getSymName().str() + "' has more than one block");
    out_.def.name = identifier(fn.getSymName().str());
    out_.def.loc = locOf(fn);
    arguments();
    mlir::Block& body = fn.getBody().front();
    for (Operation& op : body) shapes(&op);
    nameSizes();
    sizeBounds();
    for (Operation& op : body) statements(&op);
    dropSubstitutedIds();
    // Computed f16, bf16 and f64 tensors keep their types (TC would give them the first
    // float parameter's). An f64 one makes the program compute in double, where MLIR
    // computes only its own ops so: the truncf after it rounds to f32 all the same.
    std::set<std::pair<std::string, ElemType>> typed;
    for (auto& [v, tv] : tensors_) {
      const ElemType t = elemType(v.getType());
      if (tv.kind == Kind::Computed && !tv.name.empty() && (isNarrowFloat(t) || t == ElemType::F64)) typed.insert({tv.name, t});
    }
    for (auto& [n, t] : integerIds_) typed.insert({n, t});
    out_.def.temporaryTypes.assign(typed.begin(), typed.end());
    for (auto& [n, t] : typed)
      if (t == ElemType::F64 && out_.def.params.end() == std::find_if(out_.def.params.begin(), out_.def.params.end(),
                                                                          [](const TensorDecl& d) { return d.type == ElemType::F64; })) {
        out_.notes.push_back("'" + n + "' is computed in f64: the program computes in double");
        break;
      }
    if (out_.def.outputs.empty())
      throw SourceError(locOf(fn), "function '" + fn.getSymName().str() + "' returns no tensor: polyfuse computes a function's results");
  }

 private:
  const SsaNames& names_;
  LinalgImport& out_;
  mlir::func::FuncOp fn_;
  Extents ext_;
  llvm::DenseMap<Value, TensorValue> tensors_;
  llvm::DenseMap<Value, int> indexSyms_;     // index values that are extents
  llvm::DenseMap<Value, std::string> scalars_;
  std::map<Operation*, std::vector<ResultForm>> forms_;
  std::set<std::string> taken_;
  std::vector<Shape> paramShapes_;  // beside out_.def.params (empty for scalars)
  // Slices of a dynamic size: size + offset <= limit, as extents (named once all are).
  struct PendingBound {
    int size;
    int64_t offset;
    int limit;
    SourceLoc loc;
    std::string what;
  };
  std::vector<PendingBound> bounds_;

  // The bounds the slices need, on the program's sizes: a static one is checked here; a
  // size that is the limit itself, from offset 0, needs none.
  void sizeBounds() {
    std::set<std::tuple<std::string, int64_t, std::string>> seen;
    for (const PendingBound& b : bounds_) {
      std::optional<int64_t> n = ext_.value(b.size), limit = ext_.value(b.limit);
      if (ext_.find(b.size) == ext_.find(b.limit) && b.offset == 0) continue;
      if (n) {
        if (limit && *n + b.offset > *limit)
          throw SourceError(b.loc, b.what + " takes " + std::to_string(*n) + " elements from " + std::to_string(b.offset) +
                                       " of a dimension of " + std::to_string(*limit));
        continue;  // a literal against a size: the size's own check (>= 1) cannot say; MLIR's verifier did
      }
      const std::string size = ext_.text(b.size), lim = ext_.text(b.limit);
      if (!seen.insert({size, b.offset, lim}).second) continue;
      out_.def.sizeBounds.push_back({size, b.offset, lim, b.loc, b.what});
    }
  }
  int bodyNodes_ = 0;

  // -- names --

  // A TC identifier for an MLIR name, distinct from every name given so far.
  // `boundary`: an argument's name, which the user passes inputs by: a renaming is said.
  std::string identifier(std::string n, bool boundary = false) {
    for (char& c : n)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "v" + n;
    // TC's keywords, its reduction words and every intrinsic (Sema's one table).
    static const std::set<std::string> keywords = {"def", "where", "in", "float", "double", "max", "min", "fmax", "fmin"};
    auto reserved = [](const std::string& w) { return keywords.count(w) > 0 || isIntrinsicName(w); };
    bool loopName = n.size() > 1 && n[0] == 'd' && n.find_first_not_of("0123456789", 1) == std::string::npos;
    std::string base = n;
    for (int k = 1; reserved(n) || taken_.count(n) || loopName; ++k) {
      n = base + "_" + std::to_string(k);
      loopName = false;
    }
    if (n != base && boundary)
      out_.notes.push_back("'" + base + "' is named '" + n + "' in the TC program ('" + base + "' is " +
                           (reserved(base) ? "a TC keyword or function" : taken_.count(base) ? "taken" : "a loop's name") + ")");
    taken_.insert(n);
    return n;
  }

  std::string argName(SourceLoc loc) const {
    auto it = names_.arguments.find({loc.line, loc.col});
    return it == names_.arguments.end() ? "" : it->second;
  }
  std::string resultName(Operation* op, unsigned k) {
    const SourceLoc loc = locOf(op);
    auto it = names_.results.find({loc.line, loc.col});
    if (it != names_.results.end() && k < it->second.size()) return identifier(it->second[k]);
    return identifier("t" + std::to_string(out_.def.stmts.size()));
  }

  // -- types and shapes --

  mlir::RankedTensorType tensorType(Value v, Operation* at) {
    auto t = mlir::dyn_cast<mlir::RankedTensorType>(v.getType());
    if (!t) throw SourceError(locOf(at), "expected a ranked tensor, found an operand of another type");
    mlir::Type e = t.getElementType();
    if (!e.isF32() && !e.isF64() && !e.isF16() && !e.isBF16() && !e.isSignlessInteger(1) && !e.isSignlessInteger(8) &&
        !e.isSignlessInteger(16) && !e.isSignlessInteger(32) && !e.isSignlessInteger(64)) {
      std::string s;
      llvm::raw_string_ostream os(s);
      e.print(os);
      throw SourceError(locOf(at), "element type " + os.str() + " is not supported (f32, f64, f16, bf16, i1, i8, i16, i32 and i64 are)");
    }
    return t;
  }

  TensorValue& tensorOf(Value v, Operation* at) {
    auto it = tensors_.find(v);
    if (it == tensors_.end()) throw InternalError("an operand of '" + opName(at) + "' is a tensor the importer did not read");  // every op giving a tensor is read or refused
    return it->second;
  }

  void arguments() {
    mlir::Block& body = fn_.getBody().front();
    for (mlir::BlockArgument a : body.getArguments()) {
      SourceLoc loc = locOf(a.getLoc());
      std::string n = argName(loc);
      std::string nm = identifier(n.empty() ? "arg" + std::to_string(a.getArgNumber()) : n, true);
      TensorDecl d;
      d.name = nm;
      d.loc = loc;
      if (mlir::isa<mlir::FloatType>(a.getType())) {
        d.type = elemType(a.getType());
        scalars_[a] = nm;
        param(d, {});
        continue;
      }
      if (!mlir::isa<mlir::RankedTensorType>(a.getType()))
        throw SourceError(loc, "argument '" + nm + "' is neither a ranked tensor nor a float");
      auto t = tensorType(a, fn_);
      TensorValue tv(Kind::Input);
      tv.name = nm;
      for (int64_t k = 0; k < t.getRank(); ++k)
        tv.shape.push_back(t.isDynamicDim(k) ? ext_.named(nm + "_" + std::to_string(k)) : ext_.literal(t.getDimSize(k)));
      d.type = elemType(t);
      d.hasShape = true;
      tensors_[a] = tv;
      param(d, tv.shape);
    }
  }

  int indexSym(Value v, Operation* at) {
    if (auto it = indexSyms_.find(v); it != indexSyms_.end()) return it->second;
    if (auto c = v.getDefiningOp<mlir::arith::ConstantIndexOp>()) return indexSyms_[v] = ext_.literal(c.value());
    if (auto a = v.getDefiningOp<mlir::affine::AffineApplyOp>())
      if (std::optional<int> s = appliedExtent(a, at)) return indexSyms_[v] = *s;
    throw SourceError(locOf(at), "an extent here is computed by an op polyfuse does not follow "
                                 "(extents must be constants, tensor.dim of a tensor, or affine.apply of those "
                                 "that is one extent or a constant)");
  }

  // affine.apply over extents (dropping unit loops writes 1 * n): a constant, or exactly
  // one extent; anything else is not one size.
  std::optional<int> appliedExtent(mlir::affine::AffineApplyOp a, Operation* at) {
    mlir::AffineMap m = a.getAffineMap();
    if (m.getNumResults() != 1) return std::nullopt;
    std::vector<mlir::AffineExpr> dims, syms;
    std::optional<int> extent;
    mlir::MLIRContext* ctx = a.getContext();
    for (unsigned i = 0; i < a.getMapOperands().size(); ++i) {
      const int s = indexSym(a.getMapOperands()[i], at);
      mlir::AffineExpr r;
      if (std::optional<int64_t> n = ext_.value(s)) {
        r = mlir::getAffineConstantExpr(*n, ctx);
      } else {
        if (extent && ext_.find(*extent) != ext_.find(s)) return std::nullopt;
        extent = s;
        r = mlir::getAffineSymbolExpr(0, ctx);
      }
      (i < m.getNumDims() ? dims : syms).push_back(r);
    }
    mlir::AffineExpr e = mlir::simplifyAffineExpr(m.getResult(0).replaceDimsAndSymbols(dims, syms), 0, 1);
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return ext_.literal(c.getValue());
    if (extent && e == mlir::getAffineSymbolExpr(0, ctx)) return extent;
    return std::nullopt;
  }

  // A tensor whose every element is `v`: read as the value itself (stored only when
  // returned). The value must be one a body can name outside itself.
  void fillShape(Value result, Value v, Shape shape, Operation* op) {
    if (!outsideScalar(v))
      throw SourceError(locOf(op), opName(op) + " with a computed value is not supported (constants, arguments, their "
                                   "casts and single tensor elements are)");
    TensorValue tv(Kind::Fill, std::move(shape));
    tv.fill = v;
    tensorType(result, op);
    tensors_[result] = tv;
  }

  // Whether scalar() can name v: a constant, an argument, an extent, a cast of one, or an
  // element of a tensor at constant indices.
  bool outsideScalar(Value v) const {
    if (scalars_.count(v) || constantValue(v) || indexSyms_.count(v)) return true;
    if (v.getDefiningOp<mlir::arith::ConstantOp>()) return mlir::isa<mlir::IntegerAttr>(v.getDefiningOp<mlir::arith::ConstantOp>().getValue());
    Operation* d = v.getDefiningOp();
    if (d && isCast(d)) return outsideScalar(d->getOperand(0));
    if (auto x = mlir::dyn_cast_or_null<mlir::tensor::ExtractOp>(d))
      return std::all_of(x.getIndices().begin(), x.getIndices().end(),
                         [](Value i) { return bool(i.getDefiningOp<mlir::arith::ConstantIndexOp>()); });
    return false;
  }

  // First pass: the shape of every tensor value, and the extents generics equate.
  void shapes(Operation* op) {
    SourceLoc loc = locOf(op);
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(op)) {
      // A shape operand of tensor.reshape is no data: the reshape reads its type.
      const bool onlyShape = !c->use_empty() && std::all_of(c->getUses().begin(), c->getUses().end(), [](mlir::OpOperand& u) {
        return mlir::isa<mlir::tensor::ReshapeOp>(u.getOwner()) && u.getOperandNumber() == 1;
      });
      if (onlyShape) return;
      if (auto t = mlir::dyn_cast<mlir::RankedTensorType>(c.getType())) {
        tensorType(c, op);
        TensorValue tv;
        for (int64_t d : t.getShape()) tv.shape.push_back(ext_.literal(d));
        if (mlir::isa<mlir::SplatElementsAttr>(c.getValue()) && !c->hasAttr("polyfuse.unfoldable")) {
          tv.kind = Kind::Fill;
          tv.fill = c;
        } else {  // a weight: an input of the program, filled like the others by exec
          tv.kind = Kind::Input;
          tv.name = resultName(op, 0);
          TensorDecl d;
          d.name = tv.name;
          d.loc = loc;
          d.type = elemType(t);
          d.hasShape = true;
          param(d, tv.shape);
          // exec reads the file's elements (weights, position tables, id maps); a file
          // that leaves them out gets drawn ones, as an argument does.
          if (auto values = constantElements(c.getValue())) out_.def.params.back().values = std::move(*values);
          out_.notes.push_back("constant '" + tv.name + "' (line " + std::to_string(loc.line) + ") becomes an input of the program" +
                               (out_.def.params.back().values.empty() ? ", its elements left out of the file: exec draws them"
                                                                       : ", holding the file's elements"));
        }
        tensors_[c] = tv;
      }
      return;
    }
    if (auto d = mlir::dyn_cast<mlir::tensor::DimOp>(op)) {
      auto k = d.getConstantIndex();
      if (!k) throw SourceError(loc, "tensor.dim with a computed dimension is not supported");
      Shape& s = tensorOf(d.getSource(), op).shape;
      if (*k < 0 || size_t(*k) >= s.size()) throw SourceError(loc, "tensor.dim beyond the tensor's rank");
      indexSyms_[d.getResult()] = s[size_t(*k)];
      return;
    }
    if (auto e = mlir::dyn_cast<mlir::tensor::EmptyOp>(op)) {
      auto t = tensorType(e, op);
      TensorValue tv(Kind::Empty);
      unsigned dyn = 0;
      for (int64_t k = 0; k < t.getRank(); ++k)
        tv.shape.push_back(t.isDynamicDim(k) ? indexSym(e.getDynamicSizes()[dyn++], op) : ext_.literal(t.getDimSize(k)));
      tensors_[e] = tv;
      return;
    }
    if (auto c = mlir::dyn_cast<mlir::tensor::CastOp>(op)) {  // the same elements, the type restated
      auto t = tensorType(c.getResult(), op);
      Shape shape = tensorOf(c.getSource(), op).shape;
      std::vector<mlir::AffineExpr> exprs;
      for (int64_t k = 0; k < t.getRank(); ++k) {
        if (!t.isDynamicDim(k)) ext_.unite(shape[size_t(k)], ext_.literal(t.getDimSize(k)), loc);
        exprs.push_back(mlir::getAffineDimExpr(unsigned(k), op->getContext()));
      }
      return view(op, c.getSource(), shape, exprs);
    }
    if (auto e = mlir::dyn_cast<mlir::tensor::ExpandShapeOp>(op)) return expand(e);
    if (auto c = mlir::dyn_cast<mlir::tensor::CollapseShapeOp>(op)) return collapse(c);
    if (auto r = mlir::dyn_cast<mlir::tensor::ReshapeOp>(op)) return reshape(r);
    if (auto pk = mlir::dyn_cast<mlir::tensor::PackOp>(op))
      return packView(op, pk.getSource(), pk.getInnerDimsPos(), pk.getStaticInnerTiles(), pk.getOuterDimsPerm(), true,
                      bool(pk.getPaddingValue()));
    if (auto u = mlir::dyn_cast<mlir::tensor::UnPackOp>(op))
      return packView(op, u.getSource(), u.getInnerDimsPos(), u.getStaticInnerTiles(), u.getOuterDimsPerm(), false, false);
    if (auto x = mlir::dyn_cast<mlir::tensor::ExtractSliceOp>(op)) return slice(x);
    if (auto p = mlir::dyn_cast<mlir::tensor::PadOp>(op)) return padShape(p);
    if (auto x = mlir::dyn_cast<mlir::tensor::InsertSliceOp>(op)) return insertShape(x);
    if (auto x = mlir::dyn_cast<mlir::tensor::InsertOp>(op)) {
      // One element replaced (IREE's tests plant a value in a fill): its indices constant,
      // its value one a body can name.
      for (Value i : x.getIndices())
        if (!i.getDefiningOp<mlir::arith::ConstantIndexOp>())
          throw SourceError(loc, "tensor.insert at a computed index is not supported (at constant indices it is)");
      if (!outsideScalar(x.getScalar()))
        throw SourceError(loc, "tensor.insert of a computed value is not supported (constants, arguments, their casts and "
                               "single tensor elements are)");
      tensorType(x.getResult(), op);
      tensors_[x.getResult()] = TensorValue(Kind::Computed, tensorOf(x.getDest(), op).shape);
      return;
    }
    if (auto c = mlir::dyn_cast<mlir::tensor::ConcatOp>(op)) return concatShape(c);
    if (auto f = mlir::dyn_cast<mlir::linalg::FillOp>(op))
      return fillShape(f.getResult(0), f.getInputs()[0], tensorOf(f.getOutputs()[0], op).shape, op);
    if (auto sp = mlir::dyn_cast<mlir::tensor::SplatOp>(op)) {  // a fill written as one op
      auto t = tensorType(sp.getResult(), op);
      Shape shape;
      unsigned dyn = 0;
      for (int64_t k = 0; k < t.getRank(); ++k)
        shape.push_back(t.isDynamicDim(k) ? indexSym(sp.getDynamicSizes()[dyn++], op) : ext_.literal(t.getDimSize(k)));
      return fillShape(sp.getResult(), sp.getInput(), shape, op);
    }
    if (auto fe = mlir::dyn_cast<mlir::tensor::FromElementsOp>(op)) {
      // One value in every element (torch-mlir's scalar made a tensor): a fill.
      auto elements = fe.getElements();
      for (Value e : elements)
        if (e != elements.front())
          throw SourceError(loc, "tensor.from_elements of several different values is not supported (of one value, it is a fill)");
      auto t = tensorType(fe.getResult(), op);
      Shape shape;
      for (int64_t d : t.getShape()) shape.push_back(ext_.literal(d));
      return fillShape(fe.getResult(), elements.front(), shape, op);
    }
    if (auto x = mlir::dyn_cast<mlir::tensor::ExtractOp>(op)) {
      // One element outside any body (torch-mlir's .item()): read where a body uses it.
      for (Value i : x.getIndices())
        if (!i.getDefiningOp<mlir::arith::ConstantIndexOp>())
          throw SourceError(loc, "tensor.extract outside a linalg op takes constant indices here");
      tensorType(x.getTensor(), op);
      return;
    }
    if (auto g = mlir::dyn_cast<mlir::linalg::GenericOp>(op)) {
      analyze(g);
      // Extents a loop ranges over together are one size.
      std::vector<int> loopSym(g.getNumLoops(), -1);
      for (mlir::OpOperand& o : g->getOpOperands()) {
        if (!mlir::isa<mlir::RankedTensorType>(o.get().getType())) continue;
        tensorType(o.get(), op);
        Shape& s = tensorOf(o.get(), op).shape;
        mlir::AffineMap m = g.getMatchingIndexingMap(&o);
        for (unsigned r = 0; r < m.getNumResults(); ++r)
          if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(m.getResult(r))) {
            int& l = loopSym[dim.getPosition()];
            if (l < 0) l = s[r];
            else ext_.unite(l, s[r], loc);
          }
      }
      for (unsigned k = 0; k < g.getNumResults(); ++k) {
        tensorType(g.getResult(k), op);
        tensors_[g.getResult(k)] = TensorValue(Kind::Computed, tensorOf(g.getDpsInits()[k], op).shape);
      }
      loops_[op] = loopSym;
      return;
    }
    if (mlir::isa<mlir::func::ReturnOp, mlir::affine::AffineApplyOp>(op)) return;  // an extent: read where used
    if (mlir::isa<mlir::cf::AssertOp>(op)) {  // it checks; it computes nothing
      out_.notes.push_back("cf.assert at line " + std::to_string(loc.line) + " dropped: it checks a condition, it computes nothing");
      return;
    }
    if (op->getDialect() && mlir::isa<mlir::arith::ArithDialect, mlir::math::MathDialect>(op->getDialect()) &&
        op->getNumResults() == 1 && op->getResult(0).getType().isIntOrIndexOrFloat())
      return;  // scalar arithmetic outside a body: read where a body or an extent uses it
    throw SourceError(loc, "unsupported operation '" + opName(op) +
                               "': polyfuse imports linalg ops, linalg.fill, tensor.empty, tensor.dim, reshapes, slices, "
                               "tensor.pad, tensor.insert_slice, tensor.insert, tensor.concat and constants");
  }

  int extentOf(mlir::OpFoldResult r, Operation* at) {
    if (auto a = mlir::dyn_cast<mlir::Attribute>(r)) return ext_.literal(mlir::cast<mlir::IntegerAttr>(a).getInt());
    return indexSym(mlir::cast<Value>(r), at);
  }
  // An extent as a TC value: its literal, or its size's name.
  ExprPtr extent(int sym, SourceLoc loc) {
    if (std::optional<int64_t> n = ext_.value(sym)) return integer(*n, loc);
    return name(ext_.text(sym), loc);
  }
  void view(Operation* op, Value source, Shape shape, const std::vector<mlir::AffineExpr>& exprs) {
    auto t = tensorType(op->getResult(0), op);
    TensorValue tv(Kind::View, std::move(shape));
    tv.source = source;
    tv.view = mlir::AffineMap::get(unsigned(t.getRank()), 0, exprs, op->getContext());
    tensors_[op->getResult(0)] = tv;
  }

  // expand_shape: a source index is the row-major combination of its group's indices.
  void expand(mlir::tensor::ExpandShapeOp e) {
    Operation* op = e;
    Shape src = tensorOf(e.getSrc(), op).shape, shape;
    unsigned dyn = 0;
    for (int64_t n : e.getStaticOutputShape())
      shape.push_back(mlir::ShapedType::isDynamic(n) ? indexSym(e.getOutputShape()[dyn++], op) : ext_.literal(n));
    std::vector<mlir::AffineExpr> exprs;
    auto groups = e.getReassociationIndices();
    for (size_t g = 0; g < groups.size(); ++g) {
      mlir::AffineExpr x = mlir::getAffineConstantExpr(0, op->getContext());
      int nonUnit = -1, count = 0;
      const mlir::AffineExpr zero = x;
      for (int64_t k : groups[g]) {
        std::optional<int64_t> n = ext_.value(shape[size_t(k)]);
        if (n && *n == 1) continue;  // a unit dimension's index is always 0
        if (!n && x != zero)
          throw SourceError(locOf(op), "expand_shape with a dynamic inner extent is not affine; polyfuse needs static ones");
        x = x * (n ? *n : 1) + mlir::getAffineDimExpr(unsigned(k), op->getContext());
        nonUnit = int(k), ++count;
      }
      if (count == 1) ext_.unite(src[g], shape[size_t(nonUnit)], locOf(op));
      exprs.push_back(x);
    }
    view(op, e.getSrc(), shape, exprs);
  }

  // collapse_shape: each source index is its part of the group's index (floordiv and mod
  // unless the group has one dimension that is not 1, which reads only as far as affine).
  void collapse(mlir::tensor::CollapseShapeOp c) {
    Operation* op = c;
    Shape src = tensorOf(c.getSrc(), op).shape, shape;
    std::vector<mlir::AffineExpr> exprs;
    auto groups = c.getReassociationIndices();
    for (size_t g = 0; g < groups.size(); ++g) {
      int dynamic = -1;
      int64_t product = 1;
      for (int64_t k : groups[g]) {
        std::optional<int64_t> n = ext_.value(src[size_t(k)]);
        if (!n && dynamic >= 0)
          throw SourceError(locOf(op), "collapse_shape of two dynamic extents: their product is not one size");
        if (!n) dynamic = int(k);
        else product *= *n;
      }
      if (dynamic >= 0 && product != 1)
        throw SourceError(locOf(op), "collapse_shape of a dynamic extent with others: their product is not one size");
      shape.push_back(dynamic >= 0 ? src[size_t(dynamic)] : ext_.literal(product));
      mlir::AffineExpr v = mlir::getAffineDimExpr(unsigned(g), op->getContext());
      int64_t inner = 1;
      std::vector<mlir::AffineExpr> part(groups[g].size());
      for (size_t i = groups[g].size(); i-- > 0;) {
        int64_t k = groups[g][i];
        std::optional<int64_t> n = ext_.value(src[size_t(k)]);
        if (n && *n == 1) part[i] = mlir::getAffineConstantExpr(0, op->getContext());
        else if (product == (n ? *n : 1) || dynamic == int(k)) part[i] = v;  // the only non-unit one
        else part[i] = (v.floorDiv(inner)) % *n;
        if (n) inner *= *n;
      }
      for (auto& p : part) exprs.push_back(p);
    }
    view(op, c.getSrc(), shape, exprs);
  }

  // A pack whose tiles run past its source: the read of the source, and per tiled index
  // that can leave it, that index and the source's extent.
  struct PaddedPack {
    mlir::AffineMap read;
    std::vector<std::pair<mlir::AffineExpr, int64_t>> bounds;
  };
  std::map<Operation*, PaddedPack> paddedPacks_;

  // tensor.pack and tensor.unpack (tpp-mlir's blocked layouts) with static tiles: views.
  // A packed element (outer o, tile t) is the unpacked element whose tiled dims are
  // o * tile + t (the outer dims in outer_dims_perm's order): a pack reads its source at
  // that affine form, an unpack at its parts, x floordiv tile and x mod tile, which the
  // reading loops are split for. A pack whose tiles run past its source (a padding
  // value) is no view but a tensor of its own (paddedPackStatements).
  void packView(Operation* op, Value source, llvm::ArrayRef<int64_t> innerPos, llvm::ArrayRef<int64_t> tiles,
                llvm::ArrayRef<int64_t> outerPerm, bool pack, bool padded) {
    SourceLoc loc = locOf(op);
    const std::string what = pack ? "tensor.pack" : "tensor.unpack";
    auto t = tensorType(op->getResult(0), op);
    if (!t.hasStaticShape()) throw SourceError(loc, what + " of a dynamic shape is not supported (static ones are views)");
    for (int64_t n : tiles)
      if (mlir::ShapedType::isDynamic(n))  // MLIR's verifier gives a dynamic tile a dynamic result
        throw InternalError(what + " with a dynamic tile has a static shape");
    const Shape src = tensorOf(source, op).shape;
    const int64_t rank = int64_t(pack ? src.size() : size_t(t.getRank()));  // the unpacked rank
    mlir::MLIRContext* ctx = op->getContext();
    // tileOf[d]: dim d's tile, 0 when it is not tiled; outerOf[d]: the outer position of d.
    std::vector<int64_t> tileOf(size_t(rank), 0), outerOf(size_t(rank), 0), innerOf(size_t(rank), -1);
    for (size_t p = 0; p < innerPos.size(); ++p) {
      tileOf[size_t(innerPos[p])] = tiles[p];
      innerOf[size_t(innerPos[p])] = int64_t(p);
    }
    for (int64_t i = 0; i < rank; ++i) outerOf[size_t(outerPerm.empty() ? i : outerPerm[size_t(i)])] = i;
    Shape shape;
    for (int64_t k = 0; k < t.getRank(); ++k) shape.push_back(ext_.literal(t.getDimSize(k)));
    std::vector<mlir::AffineExpr> exprs;
    if (pack) {
      PaddedPack tail;
      for (int64_t d = 0; d < rank; ++d) {
        const mlir::AffineExpr o = mlir::getAffineDimExpr(unsigned(outerOf[size_t(d)]), ctx);
        if (!tileOf[size_t(d)]) { exprs.push_back(o); continue; }
        std::optional<int64_t> n = ext_.value(src[size_t(d)]);
        if (!n) throw SourceError(loc, "tensor.pack of a dynamic dimension is not supported");
        exprs.push_back(o * tileOf[size_t(d)] + mlir::getAffineDimExpr(unsigned(rank + innerOf[size_t(d)]), ctx));
        // The tiles cover the dimension past its end where there are more of them than it
        // needs, not only where the tile does not divide it.
        if (t.getDimSize(outerOf[size_t(d)]) * tileOf[size_t(d)] <= *n) continue;
        if (!padded)
          // MLIR's verifier refuses partial tiles without a padding value.
          throw InternalError("tensor.pack of dimension " + std::to_string(d) + " into tiles that run past it has no padding value");
        tail.bounds.emplace_back(exprs.back(), *n);
      }
      // The last tiles run past the source: a tensor of its own, the source where each
      // tiled index is inside it and the padding value elsewhere.
      if (!tail.bounds.empty()) {
        auto p = mlir::cast<mlir::tensor::PackOp>(op);
        tensorType(p.getResult(), op);
        tensors_[p.getResult()] = TensorValue(Kind::Computed, shape);
        tail.read = mlir::AffineMap::get(unsigned(t.getRank()), 0, exprs, ctx);
        paddedPacks_[op] = tail;
        return;
      }
    } else {
      exprs.resize(size_t(rank + int64_t(innerPos.size())));
      for (int64_t d = 0; d < rank; ++d) {
        const mlir::AffineExpr x = mlir::getAffineDimExpr(unsigned(d), ctx);
        const int64_t tile = tileOf[size_t(d)];
        exprs[size_t(outerOf[size_t(d)])] = tile ? x.floorDiv(tile) : x;
        if (tile) exprs[size_t(rank + innerOf[size_t(d)])] = x % tile;
      }
    }
    view(op, source, shape, exprs);
  }

  // tensor.reshape to a static shape: the elements in the same row-major order, each
  // source index its part of the result's linear index (reads simplify it by their loops'
  // ranges, IndexRanges.h).
  void reshape(mlir::tensor::ReshapeOp r) {
    Operation* op = r;
    auto t = tensorType(r.getResult(), op);
    const Shape src = tensorOf(r.getSource(), op).shape;
    std::vector<int64_t> from;
    for (int sym : src) {
      std::optional<int64_t> n = ext_.value(sym);
      if (!n) throw SourceError(locOf(op), "tensor.reshape of a dynamic shape is not supported (a static one is read as a view)");
      from.push_back(*n);
    }
    if (!t.hasStaticShape()) throw SourceError(locOf(op), "tensor.reshape to a dynamic shape is not supported (a static one is read as a view)");
    mlir::MLIRContext* ctx = op->getContext();
    Shape shape;
    mlir::AffineExpr linear = mlir::getAffineConstantExpr(0, ctx);
    for (int64_t k = 0; k < t.getRank(); ++k) {
      shape.push_back(ext_.literal(t.getDimSize(k)));
      linear = linear * t.getDimSize(k) + mlir::getAffineDimExpr(unsigned(k), ctx);
    }
    std::vector<mlir::AffineExpr> exprs(from.size());
    int64_t inner = 1;
    for (size_t i = from.size(); i-- > 0;) {
      exprs[i] = i == 0 ? linear.floorDiv(inner) : linear.floorDiv(inner) % from[i];
      inner *= from[i];
    }
    view(op, r.getSource(), shape, exprs);
  }

  // extract_slice with static offsets and strides: an affine window of the source.
  void slice(mlir::tensor::ExtractSliceOp x) {
    Operation* op = x;
    if (x.getOffsets().size() || x.getStrides().size())
      throw SourceError(locOf(op), "extract_slice with dynamic offsets or strides is not supported");
    Shape shape;
    llvm::SmallBitVector dropped = x.getDroppedDims();
    auto sizes = x.getMixedSizes();
    std::vector<mlir::AffineExpr> exprs;
    unsigned r = 0;
    for (size_t k = 0; k < sizes.size(); ++k) {
      int64_t off = x.getStaticOffsets()[k], stride = x.getStaticStrides()[k];
      if (dropped.test(unsigned(k))) {
        exprs.push_back(mlir::getAffineConstantExpr(off, op->getContext()));
        continue;
      }
      shape.push_back(extentOf(sizes[k], op));
      exprs.push_back(mlir::getAffineDimExpr(r++, op->getContext()) * stride + off);
      if (mlir::isa<Value>(sizes[k])) {
        if (stride != 1) throw SourceError(locOf(op), "extract_slice of a dynamic size with a stride other than 1 is not supported");
        const Shape& src = tensorOf(x.getSource(), op).shape;
        bounds_.push_back({shape.back(), off, src[k], locOf(op), "the extract_slice"});
      }
    }
    view(op, x.getSource(), shape, exprs);
  }

  // tensor.pad with static padding and a constant (or float argument) value: a tensor of
  // its own, written as two statements (the value everywhere, then the source inside).
  void padShape(mlir::tensor::PadOp p) {
    Operation* op = p;
    SourceLoc loc = locOf(op);
    if (!p.getLow().empty() || !p.getHigh().empty())
      throw SourceError(loc, "tensor.pad with computed padding amounts is not supported (static ones are)");
    Value v = p.getConstantPaddingValue();
    if (!v || (!constantValue(v) && !scalars_.count(v)))
      throw SourceError(loc, "tensor.pad must yield one constant or float argument, the same at every point");
    tensorType(p.getResult(), op);
    const Shape& src = tensorOf(p.getSource(), op).shape;
    Shape shape;
    for (size_t k = 0; k < src.size(); ++k) {
      const int64_t grow = p.getStaticLow()[k] + p.getStaticHigh()[k];
      std::optional<int64_t> n = ext_.value(src[k]);
      if (!n && grow) throw SourceError(loc, "tensor.pad of a dynamic dimension (dimension " + std::to_string(k) + ") is not supported");
      shape.push_back(n ? ext_.literal(*n + grow) : src[k]);
    }
    tensors_[p.getResult()] = TensorValue(Kind::Computed, shape);
  }

  // tensor.insert_slice with static offsets and unit strides: the destination copied (or
  // its fill, or zeros for a tensor.empty), then the source written over the window.
  void insertShape(mlir::tensor::InsertSliceOp x) {
    Operation* op = x;
    SourceLoc loc = locOf(op);
    if (x.getOffsets().size() || x.getStrides().size())
      throw SourceError(loc, "insert_slice with dynamic offsets or strides is not supported");
    for (int64_t st : x.getStaticStrides())
      if (st != 1) throw SourceError(loc, "insert_slice with a stride other than 1 is not supported");
    tensorType(x.getResult(), op);
    tensorType(x.getSource(), op);
    const Shape src = tensorOf(x.getSource(), op).shape;
    const Shape dest = tensorOf(x.getDest(), op).shape;
    auto sizes = x.getMixedSizes();
    // A rank-reducing insert's source lacks the unit dimensions MLIR drops.
    const llvm::SmallBitVector dropped = x.getDroppedDims();
    for (size_t k = 0, j = 0; k < sizes.size(); ++k) {
      if (k < dropped.size() && dropped.test(unsigned(k))) continue;
      ext_.unite(src[j], extentOf(sizes[k], op), loc);
      if (mlir::isa<Value>(sizes[k])) bounds_.push_back({src[j], x.getStaticOffsets()[k], dest[k], loc, "the insert_slice"});
      ++j;
    }
    tensors_[x.getResult()] = TensorValue(Kind::Computed, dest);
  }

  // tensor.concat: the operands side by side along `dim`, each at the offset of those
  // before it; the other extents are one size. The offsets must be static.
  void concatShape(mlir::tensor::ConcatOp c) {
    Operation* op = c;
    SourceLoc loc = locOf(op);
    auto t = tensorType(c.getResult(), op);
    const size_t dim = size_t(c.getDim());
    Shape shape;
    int64_t along = 0;
    for (Value in : c.getInputs()) {
      tensorType(in, op);
      const Shape& s = tensorOf(in, op).shape;
      if (shape.empty()) shape = s;
      for (size_t k = 0; k < s.size(); ++k)
        if (k != dim) ext_.unite(shape[k], s[k], loc);
      std::optional<int64_t> n = ext_.value(s[dim]);
      if (!n) throw SourceError(loc, "tensor.concat along a dynamic dimension (dimension " + std::to_string(dim) + ") is not supported");
      along += *n;
    }
    shape[dim] = ext_.literal(along);
    if (!t.isDynamicDim(int64_t(dim))) ext_.unite(shape[dim], ext_.literal(t.getDimSize(int64_t(dim))), loc);
    tensors_[c.getResult()] = TensorValue(Kind::Computed, shape);
  }

  std::map<Operation*, std::vector<int>> loops_;

  void analyze(mlir::linalg::GenericOp g) {
    SourceLoc loc = locOf(g);
    auto iters = g.getIteratorTypesArray();
    bool reduces = false;
    for (auto t : iters) reduces |= t == mlir::utils::IteratorType::reduction;
    mlir::Block* body = g.getBody();
    auto yield = mlir::cast<mlir::linalg::YieldOp>(body->getTerminator());
    std::vector<ResultForm> forms;
    // Whether result j's yielded value reads another result k's accumulator.
    auto readsAccumulator = [&](unsigned j, unsigned k) {
      return j != k && dependsOn(yield.getOperand(j), g.getMatchingBlockArgument(g.getDpsInitOperand(k)), body);
    };
    for (unsigned k = 0; k < g.getNumResults(); ++k) {
      mlir::OpOperand* init = g.getDpsInitOperand(k);
      mlir::AffineMap m = g.getMatchingIndexingMap(init);
      // A 0 where the result's extent is 1: torch-mlir's keepdim (a returned reduction
      // keeps its loops and the function's shape).
      if (!m.isProjectedPermutation(/*allowZeroInResults=*/true))
        throw SourceError(loc, "result " + std::to_string(k) + " is written through a map that is not a projection "
                               "of the loops; polyfuse needs each result point written by whole loops");
      auto resultType = mlir::cast<mlir::RankedTensorType>(init->get().getType());
      for (unsigned r = 0; r < m.getNumResults(); ++r)
        if (mlir::isa<mlir::AffineConstantExpr>(m.getResult(r)) && resultType.getDimSize(r) != 1)
          throw SourceError(loc, "result " + std::to_string(k) + " is written only at index 0 of its dimension " +
                                     std::to_string(r) + ", whose extent is not 1; polyfuse needs each result point "
                                     "written by whole loops");
      std::vector<bool> inOut(iters.size(), false);
      for (unsigned d : writtenLoops(m)) inOut[d] = true;
      mlir::BlockArgument acc = g.getMatchingBlockArgument(init);
      Value y = yield.getOperand(k);
      // A result indexed by every loop, reductions included, and computed from no
      // accumulator (IREE's fused form: an elementwise value beside a sum) is written once
      // at each point: an elementwise statement of its own.
      const bool everyLoop = std::find(inOut.begin(), inOut.end(), false) == inOut.end();
      if (reduces && everyLoop) {
        bool readsOther = false;
        for (unsigned j = 0; j < g.getNumResults(); ++j) readsOther |= readsAccumulator(k, j);
        if (!readsOther) {
          ResultForm f{ReduceOp::Assign, y};
          f.readsInit = dependsOn(y, acc, body);
          forms.push_back(f);
          continue;
        }
      }
      for (size_t l = 0; l < iters.size(); ++l)
        if (inOut[l] == (iters[l] == mlir::utils::IteratorType::reduction))
          throw SourceError(loc, "loop d" + std::to_string(l) + " is a " + iteratorWord(iters[l]) + " loop but " +
                                     (inOut[l] ? "indexes" : "does not index") + " result " + std::to_string(k) +
                                     (everyLoop ? " from a running accumulator (a scan)" : ""));
      // A result nobody reads (torch-mlir's argmax beside a max) is not computed, unless
      // another result's value reads its accumulator.
      if (unread(g.getResult(k)) && g.getNumResults() > 1) {
        bool read = false;
        for (unsigned j = 0; j < g.getNumResults(); ++j) read |= !unread(g.getResult(j)) && readsAccumulator(j, k);
        if (!read) {
          ResultForm f;
          f.dropped = true;
          forms.push_back(f);
          out_.notes.push_back("result " + std::to_string(k) + " of the op at line " + std::to_string(loc.line) +
                               " is never used: not computed");
          continue;
        }
      }
      if (reduces)
        if (std::optional<ResultForm> a = argReduction(g, k, y)) {
          forms.push_back(*a);
          continue;
        }
      ResultForm f = reduces ? combiner(g, y, acc) : ResultForm{ReduceOp::Assign, y};
      f.readsInit = !reduces && dependsOn(y, acc, body);
      forms.push_back(f);
    }
    // An arg-reduction records the position of its partner's extreme: the partner must
    // reduce the same value, by max for an argmax and by min for an argmin.
    for (unsigned k = 0; k < forms.size(); ++k) {
      const ResultForm& f = forms[k];
      if (f.argOf < 0 || f.dropped) continue;
      const ResultForm& m = forms[size_t(f.argOf)];
      const bool max = m.op == ReduceOp::Max || m.op == ReduceOp::FMax, min = m.op == ReduceOp::Min || m.op == ReduceOp::FMin;
      if (m.dropped || m.argOf >= 0 || m.value != f.value || m.keepWhen || !(f.keepWhenTrue ? max : min))
        throw SourceError(locOf(yield.getOperand(k).getDefiningOp()),
                          "this select records a position, but result " + std::to_string(f.argOf) +
                              " is not the " + (f.keepWhenTrue ? "max" : "min") + " of the value it compares");
      out_.notes.push_back("result " + std::to_string(k) + " of the op at line " + std::to_string(loc.line) + " is the " +
                           (f.op == ReduceOp::Min ? "first" : "last") + " position of result " + std::to_string(f.argOf) +
                           "'s " + (max ? "maximum" : "minimum") + ": a reduction of its own after it (a row holding NaN "
                           "gives no position)");
    }
    forms_[g.getOperation()] = std::move(forms);
  }

  // A parameter's dimensions are written once every op has unified the extents.
  void param(const TensorDecl& d, const Shape& shape) {
    out_.def.params.push_back(d);
    paramShapes_.push_back(shape);
  }
  void nameSizes() {
    for (size_t k = 0; k < out_.def.params.size(); ++k) dims(out_.def.params[k], paramShapes_[k]);
  }
  void dims(TensorDecl& d, const Shape& shape) {
    for (int e : shape) {
      d.dims.push_back(ext_.text(e));
      d.dimLocs.push_back(d.loc);
    }
  }

  // -- second pass: statements --

  struct Body {
    mlir::linalg::GenericOp g;
    std::vector<bool> used;  // which operands the expression reads
  };

  // -- loops split by a collapse_shape --
  //
  // A read through a collapse of several non-unit extents indexes the source with
  // (d floordiv inner) mod n: not affine. The statement runs d as one loop per extent
  // instead (d2 -> d2_0, d2_1, row-major): the collapse's subscripts name those loops and
  // every other subscript of d2 reads their row-major sum. A reduction loop accumulates
  // in the same order. A parallel loop splits the dimensions of the result it indexes
  // too, so every write stays a plain index: the result is stored as its parts (torch's
  // heads folded into a matmul's rows: [H*S, D] stored as [H, S, D], the same bytes), and
  // its readers see it through the collapse, which splits their loops in turn.

  // Per split loop of the statement being built, its bounds, decreasing from the extent
  // to 1: sub-loop k spans bounds[k] / bounds[k + 1].
  std::map<unsigned, std::vector<int64_t>> split_;

  static std::string subLoop(unsigned d, size_t k) { return "d" + std::to_string(d) + "_" + std::to_string(k); }

  // floor(d / inner) mod n (n = 0: no mod) as a row-major sum of d's sub-loops.
  ExprPtr splitPart(unsigned d, int64_t inner, int64_t n, SourceLoc loc) {
    const std::vector<int64_t>& bounds = split_.at(d);
    ExprPtr sum;
    for (size_t k = 0; k + 1 < bounds.size(); ++k) {
      const int64_t below = bounds[k + 1];
      if (below < inner || (n && below >= inner * n)) continue;
      ExprPtr term = name(subLoop(d, k), loc);
      if (below != inner) term = binary(ExprKind::Mul, integer(below / inner, loc), std::move(term), loc);
      sum = sum ? binary(ExprKind::Add, std::move(sum), std::move(term), loc) : std::move(term);
    }
    return sum ? std::move(sum) : integer(0, loc);
  }

  // The (loop, inner, n) a floordiv/mod subscript takes apart: (d floordiv c) mod n,
  // d floordiv c (n = 0) or d mod n (inner = 1); none for any other form.
  static std::optional<std::tuple<unsigned, int64_t, int64_t>> collapsedPart(mlir::AffineExpr e) {
    auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    if (!b) return std::nullopt;
    auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(b.getRHS());
    if (!c || c.getValue() < 1) return std::nullopt;
    if (e.getKind() == mlir::AffineExprKind::FloorDiv)
      if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(b.getLHS())) return std::make_tuple(d.getPosition(), c.getValue(), int64_t(0));
    if (e.getKind() != mlir::AffineExprKind::Mod) return std::nullopt;
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(b.getLHS())) return std::make_tuple(d.getPosition(), int64_t(1), c.getValue());
    auto q = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(b.getLHS());
    if (!q || q.getKind() != mlir::AffineExprKind::FloorDiv) return std::nullopt;
    auto d = mlir::dyn_cast<mlir::AffineDimExpr>(q.getLHS());
    auto qc = mlir::dyn_cast<mlir::AffineConstantExpr>(q.getRHS());
    if (!d || !qc || qc.getValue() < 1) return std::nullopt;
    return std::make_tuple(d.getPosition(), qc.getValue(), c.getValue());
  }

  // Finds the loops a collapse or a division splits: from every operand's map through
  // its views, and from the subscripts of the body's tensor.extract ops. The op's own
  // maps may divide a loop too (tpp-mlir's VNNI layout reads B(k floordiv 2, n, k mod
  // 2)), as may an extract's index arithmetic (a nearest upsample reads X(h floordiv 2)):
  // the same split makes those reads affine.
  void splitLoops(mlir::linalg::GenericOp g, const std::vector<int>& loops) {
    SourceLoc loc = locOf(g);
    std::vector<mlir::AffineMap> maps;
    for (mlir::OpOperand& o : g->getOpOperands())
      if (mlir::isa<mlir::RankedTensorType>(o.get().getType()))
        maps.push_back(throughViews(o.get(), g.getMatchingIndexingMap(&o), g).second);
    g.getBody()->walk([&](mlir::tensor::ExtractOp x) {
      for (Value i : x.getIndices())
        if (std::optional<mlir::AffineExpr> f = indexAffine(i, g)) maps.push_back(mlir::AffineMap::get(g.getNumLoops(), 0, *f));
    });
    splitLoops(maps, loops, loc);
  }
  // The same over reads at `maps` (through views) by loops of extents `loops`.
  void splitLoops(const std::vector<mlir::AffineMap>& maps, const std::vector<int>& loops, SourceLoc loc) {
    split_.clear();
    std::map<unsigned, std::set<int64_t>> bounds;
    for (mlir::AffineMap m : maps)
      for (mlir::AffineExpr r : m.getResults())
        r.walk([&](mlir::AffineExpr sub) {
          if (auto part = collapsedPart(sub)) {
            auto [d, inner, n] = *part;
            bounds[d].insert(inner);
            if (n) bounds[d].insert(inner * n);
          }
        });
    for (auto& [d, b] : bounds) {
      std::optional<int64_t> extent = d < loops.size() && loops[d] >= 0 ? ext_.value(loops[d]) : std::nullopt;
      const std::string what = "loop d" + std::to_string(d) + " is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts)";
      if (!extent) throw SourceError(loc, what + " but has no static extent");
      b.insert(*extent);
      b.insert(1);
      const std::vector<int64_t> bounds(b.rbegin(), b.rend());
      if (bounds.front() != *extent)  // a part over the whole range is constant, and folded before
        throw InternalError(what + " into parts larger than its extent " + std::to_string(*extent));
      for (size_t k = 0; k + 1 < bounds.size(); ++k)
        if (bounds[k] % bounds[k + 1])
          throw SourceError(loc, what + " at " + std::to_string(bounds[k + 1]) + ", which does not divide " +
                                     std::to_string(bounds[k]) + (k == 0 ? ", its extent" : "") +
                                     ": polyfuse splits a loop only into parts that nest");
      split_[d] = bounds;
    }
  }

  // Where a result written at `om` is stored split (a parallel loop it indexes was split
  // into several), the stored shape and the map from its indices to the stored ones.
  void splitResult(TensorValue& tv, mlir::AffineMap om, mlir::MLIRContext* ctx) {
    tv.split = {};
    tv.stored.clear();
    std::vector<mlir::AffineExpr> exprs;
    bool splits = false;
    for (unsigned r = 0; r < om.getNumResults(); ++r) {
      const mlir::AffineExpr i = mlir::getAffineDimExpr(r, ctx);
      auto it = mlir::isa<mlir::AffineDimExpr>(om.getResult(r)) ? split_.find(om.getDimPosition(r)) : split_.end();
      if (it == split_.end() || it->second.size() <= 2) {
        tv.stored.push_back(tv.shape[r]);
        exprs.push_back(i);
        continue;
      }
      splits = true;
      const std::vector<int64_t>& b = it->second;
      for (size_t k = 0; k + 1 < b.size(); ++k) {
        tv.stored.push_back(ext_.literal(b[k] / b[k + 1]));
        mlir::AffineExpr part = b[k + 1] == 1 ? i : i.floorDiv(b[k + 1]);
        exprs.push_back(k == 0 ? part : part % (b[k] / b[k + 1]));
      }
    }
    if (splits) tv.split = mlir::AffineMap::get(om.getNumResults(), 0, exprs, ctx);
    else tv.stored.clear();
  }
  // The stored shape's text, for notes: 12x128x64.
  std::string shapeText(const Shape& shape) {
    std::string t;
    for (int e : shape) t += (t.empty() ? "" : "x") + ext_.text(e);
    return t;
  }

  // The statement's name for loop d (or its row-major sum, once split).
  ExprPtr loopName(unsigned d, SourceLoc loc) {
    if (split_.count(d)) return splitPart(d, 1, 0, loc);
    return name("d" + std::to_string(d), loc);
  }

  ExprPtr subscript(mlir::AffineExpr e, SourceLoc loc) {
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) return loopName(d.getPosition(), loc);
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return integer(c.getValue(), loc);
    if (auto part = collapsedPart(e); part && split_.count(std::get<0>(*part)))
      return splitPart(std::get<0>(*part), std::get<1>(*part), std::get<2>(*part), loc);
    if (auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e)) {
      std::vector<ExprPtr> a;
      a.push_back(subscript(b.getLHS(), loc));
      a.push_back(subscript(b.getRHS(), loc));
      if (e.getKind() == mlir::AffineExprKind::Add) return node(ExprKind::Add, loc, std::move(a));
      if (e.getKind() == mlir::AffineExprKind::Mul) return node(ExprKind::Mul, loc, std::move(a));
      throw SourceError(loc, "a subscript here divides a loop in a form polyfuse cannot split into loops: it splits d floordiv "
                             "c, d mod c and (d floordiv c) mod n of one loop of a linalg op, such as a collapse_shape of "
                             "several non-unit extents read along it (not through a slice or pad of it, nor by a tensor op)");
    }
    throw InternalError("an indexing map with a symbol passed MLIR's verifier");
  }

  // A read of `v` at `map`, followed through views to the tensor that holds the data.
  std::pair<Value, mlir::AffineMap> throughViews(Value v, mlir::AffineMap map, Operation* at) {
    const Value v0 = v;
    const bool identity = map.isIdentity();
    bool viewed = false;
    while (tensorOf(v, at).kind == Kind::View) {
      TensorValue& tv = tensorOf(v, at);
      map = tv.view.compose(map);
      v = tv.source;
      viewed = true;
    }
    if (const TensorValue& tv = tensorOf(v, at); tv.split) map = tv.split.compose(map);
    // A reshape of a reshape reads as parts of loops once the loops' ranges are known: an
    // op's loops, or the viewed tensor's own indices where its identity reads it. So does
    // a division in the op's own map (d floordiv 16 of a loop over 0:8 is 0).
    if (viewed || std::any_of(map.getResults().begin(), map.getResults().end(), divides)) {
      std::vector<std::optional<int64_t>> extents;
      if (auto it = loops_.find(at); it != loops_.end() && it->second.size() == map.getNumDims()) {
        for (int sym : it->second) extents.push_back(sym >= 0 ? ext_.value(sym) : std::nullopt);
      } else if (const Shape& shape = tensorOf(v0, at).shape; identity && map.getNumDims() == shape.size()) {
        for (int sym : shape) extents.push_back(ext_.value(sym));
      }
      map = simplifyByRanges(map, extents);
    }
    return {v, map};
  }

  // The element `v` holds at the points of `map`, or the value a fill holds.
  ExprPtr element(Value v0, mlir::AffineMap map0, SourceLoc loc, Operation* at) {
    auto [v, map] = throughViews(v0, map0, at);
    TensorValue& tv = tensorOf(v, at);
    if (tv.kind == Kind::Empty)
      throw SourceError(loc, "this op reads a tensor.empty, whose elements are undefined");
    if (tv.kind == Kind::Fill) return scalar(tv.fill, loc, at);
    std::vector<ExprPtr> subs;
    for (mlir::AffineExpr r : map.getResults()) subs.push_back(subscript(r, loc));
    return call(tv.name, loc, std::move(subs));
  }

  // A scalar defined outside any body: a constant or a float argument.
  ExprPtr scalar(Value v, SourceLoc loc, Operation* at) {
    if (auto it = scalars_.find(v); it != scalars_.end()) return name(it->second, loc);
    if (auto c = v.getDefiningOp<mlir::arith::ConstantOp>())
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue())) return integer(integerValue(i), loc);
    if (auto f = constantValue(v)) return number(*f, floatBits(v.getType()), loc);
    // An extent used as a value (a mean divides by the row length): the size itself.
    if (auto it = indexSyms_.find(v); it != indexSyms_.end()) return extent(it->second, loc);
    if (Operation* d = v.getDefiningOp(); d && isCast(d)) return cast(d, scalar(d->getOperand(0), loc, at), loc);
    if (auto x = v.getDefiningOp<mlir::tensor::ExtractOp>(); x && outsideScalar(v)) {
      // An element at constant indices: a read of that element wherever it is used.
      llvm::SmallVector<mlir::AffineExpr> at0;
      for (Value i : x.getIndices())
        at0.push_back(mlir::getAffineConstantExpr(i.getDefiningOp<mlir::arith::ConstantIndexOp>().value(), x.getContext()));
      return element(x.getTensor(), mlir::AffineMap::get(0, 0, at0, x.getContext()), loc, at);
    }
    Operation* d = v.getDefiningOp();
    throw SourceError(d ? locOf(d) : loc, "this op uses a value computed outside it" +
                                              (d ? " by '" + opName(d) + "'" : std::string()) +
                                              "; polyfuse takes constants, arguments and extents there");
  }

  // Body recursion follows the use-def chain: bounded so that a long chain of ops is an
  // error, not a stack overflow.
  int depth_ = 0;
  struct Deeper {
    int& d;
    Deeper(int& depth, SourceLoc loc) : d(depth) {
      if (++d > kMaxExprHeight) {
        --d;
        throw SourceError(loc, "this op's body is nested too deeply (a chain of more than " +
                                   std::to_string(kMaxExprHeight) + " operations)");
      }
    }
    ~Deeper() { --d; }
  };

  ExprPtr expr(Value v, Body& b) {
    if (++bodyNodes_ > kMaxBodyNodes)
      throw SourceError(locOf(b.g), "this op's body unfolds into more than 100,000 operations");
    mlir::Block* body = b.g.getBody();
    SourceLoc gloc = locOf(b.g);
    Deeper deeper(depth_, gloc);
    if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) {
      if (a.getOwner() != body) return scalar(v, gloc, b.g);
      mlir::OpOperand* o = b.g.getMatchingOpOperand(a);
      b.used[o->getOperandNumber()] = true;
      if (!mlir::isa<mlir::RankedTensorType>(o->get().getType())) return scalar(o->get(), gloc, b.g);
      return element(o->get(), b.g.getMatchingIndexingMap(o), gloc, b.g);
    }
    Operation* d = v.getDefiningOp();
    if (d->getBlock() != body) return scalar(v, gloc, b.g);
    SourceLoc loc = locOf(d);
    auto args = [&](std::initializer_list<unsigned> idx) {
      std::vector<ExprPtr> a;
      for (unsigned i : idx) a.push_back(expr(d->getOperand(i), b));
      return a;
    };
    // A condition used as a value (extui or select of an i1): 1 or 0.
    if (v.getType().isInteger(1) && mlir::isa<mlir::arith::CmpFOp, mlir::arith::CmpIOp, mlir::arith::AndIOp, mlir::arith::OrIOp,
                                               mlir::arith::XOrIOp, mlir::arith::SelectOp, mlir::arith::ConstantOp>(d))
      return choose(v, [&] { return integer(1, loc); }, [&] { return integer(0, loc); }, b);
    const unsigned width = intWidth(v.getType());
    // Integer arithmetic wraps at its width (index and i64 are taken not to overflow).
    auto wrapped = [&](ExprPtr e) { return width && width < 64 ? widthCall("wrap", std::move(e), width, loc) : std::move(e); };
    auto unsignedArgs = [&]() {
      const unsigned w = intWidth(d->getOperand(0).getType());
      std::vector<ExprPtr> a = args({0, 1});
      if (w < 64)
        for (auto& x : a) x = widthCall("zext", std::move(x), w, loc);
      return a;
    };
    if (mlir::isa<mlir::arith::AddFOp>(d)) return rounded(node(ExprKind::Add, loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::SubFOp>(d)) return rounded(node(ExprKind::Sub, loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::MulFOp>(d)) return rounded(node(ExprKind::Mul, loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::DivFOp>(d)) return rounded(node(ExprKind::Div, loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::AddIOp>(d)) return wrapped(node(ExprKind::Add, loc, args({0, 1})));
    if (mlir::isa<mlir::arith::SubIOp>(d)) return wrapped(node(ExprKind::Sub, loc, args({0, 1})));
    if (mlir::isa<mlir::arith::MulIOp>(d)) return wrapped(node(ExprKind::Mul, loc, args({0, 1})));
    if (mlir::isa<mlir::arith::DivSIOp>(d)) return wrapped(call("idiv", loc, args({0, 1})));
    if (mlir::isa<mlir::arith::RemSIOp>(d)) return call("irem", loc, args({0, 1}));
    if (mlir::isa<mlir::arith::FloorDivSIOp>(d)) return wrapped(call("floordiv", loc, args({0, 1})));
    if (mlir::isa<mlir::arith::CeilDivSIOp>(d)) return wrapped(call("ceildiv", loc, args({0, 1})));
    if (mlir::isa<mlir::arith::DivUIOp>(d)) return wrapped(call("idiv", loc, unsignedArgs()));
    if (mlir::isa<mlir::arith::RemUIOp>(d)) return wrapped(call("irem", loc, unsignedArgs()));
    if (mlir::isa<mlir::arith::CeilDivUIOp>(d)) return wrapped(call("ceildiv", loc, unsignedArgs()));
    if (mlir::isa<mlir::arith::NegFOp>(d)) return node(ExprKind::Neg, loc, args({0}));
    // maximumf/minimumf propagate NaN; maxnumf/minnumf (C's fmax) ignore it.
    if (mlir::isa<mlir::arith::MaximumFOp>(d)) return rounded(call("maximum", loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::MinimumFOp>(d)) return rounded(call("minimum", loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::MaxNumFOp>(d)) return rounded(call("fmax", loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::MinNumFOp>(d)) return rounded(call("fmin", loc, args({0, 1})), v, loc);
    if (mlir::isa<mlir::arith::MaxSIOp, mlir::arith::MinSIOp, mlir::arith::MaxUIOp, mlir::arith::MinUIOp>(d)) {
      const bool isMax = mlir::isa<mlir::arith::MaxSIOp, mlir::arith::MaxUIOp>(d);
      const bool isUnsigned = mlir::isa<mlir::arith::MaxUIOp, mlir::arith::MinUIOp>(d);
      std::vector<ExprPtr> c = isUnsigned ? unsignedArgs() : args({0, 1});
      std::vector<ExprPtr> a;
      a.push_back(node(isMax ? ExprKind::Gt : ExprKind::Lt, loc, std::move(c)));
      a.push_back(expr(d->getOperand(0), b));
      a.push_back(expr(d->getOperand(1), b));
      return node(ExprKind::Select, loc, std::move(a));
    }
    if (isCast(d)) return cast(d, expr(d->getOperand(0), b), loc);
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d)) return scalar(c, loc, d);
    if (auto i = mlir::dyn_cast<mlir::linalg::IndexOp>(d)) return loopName(unsigned(i.getDim()), loc);
    if (auto x = mlir::dyn_cast<mlir::tensor::ExtractOp>(d)) return extract(x, b);
    static const std::map<std::string, const char*> math = {
        {"math.exp", "exp"},   {"math.log", "log"},   {"math.sqrt", "sqrt"}, {"math.rsqrt", "rsqrt"},
        {"math.tanh", "tanh"}, {"math.erf", "erf"},   {"math.absf", "fabs"}, {"math.powf", "pow"},
        {"math.absi", "fabs"},  // integers travel as values of the computing type: exact
        {"math.sin", "sin"},   {"math.cos", "cos"},   {"math.tan", "tan"},   {"math.atan", "atan"},
        {"math.atan2", "atan2"}, {"math.floor", "floor"}, {"math.ceil", "ceil"}, {"math.round", "round"},
        {"math.roundeven", "rint"}, {"math.log1p", "log1p"}, {"math.log2", "log2"}, {"math.log10", "log10"},
        {"math.exp2", "exp2"}, {"math.expm1", "expm1"}, {"math.copysign", "copysign"}, {"arith.remf", "fmod"},
        {"math.fpowi", "pow"}, {"math.trunc", "trunc"}, {"math.asin", "asin"}, {"math.acos", "acos"},
        {"math.sinh", "sinh"}, {"math.cosh", "cosh"}, {"math.asinh", "asinh"}, {"math.acosh", "acosh"},
        {"math.atanh", "atanh"}, {"math.cbrt", "cbrt"}};
    if (auto m = math.find(opName(d)); m != math.end()) {
      std::vector<ExprPtr> a;
      for (Value o : d->getOperands()) a.push_back(expr(o, b));
      return rounded(call(m->second, loc, std::move(a)), v, loc);
    }
    // math.fma rounds once; a*b + c would round twice.
    if (mlir::isa<mlir::math::FmaOp>(d)) return rounded(call("fma", loc, args({0, 1, 2})), v, loc);
    if (auto s = mlir::dyn_cast<mlir::arith::SelectOp>(d))
      return choose(s.getCondition(), [&] { return expr(s.getTrueValue(), b); }, [&] { return expr(s.getFalseValue(), b); }, b);
    throw SourceError(loc, "unsupported operation '" + opName(d) + "' in the body of a linalg op");
  }

  // -- casts --

  // The width of an integer or index type (index: 64); 0 for a float.
  static unsigned intWidth(mlir::Type t) {
    if (t.isIndex()) return 64;
    if (auto i = mlir::dyn_cast<mlir::IntegerType>(t)) return i.getWidth();
    return 0;
  }
  static bool isCast(Operation* d) {
    return mlir::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp, mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp,
                     mlir::arith::ExtFOp, mlir::arith::TruncFOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp,
                     mlir::arith::TruncIOp, mlir::arith::FPToSIOp, mlir::arith::FPToUIOp>(d);
  }
  static ExprPtr widthCall(const char* fn, ExprPtr x, unsigned width, SourceLoc loc) {
    if (width != 1 && width != 8 && width != 16 && width != 32 && width != 64)
      throw SourceError(loc, "integers of " + std::to_string(width) + " bits are not supported (i1, i8, i16, i32, i64 and index are)");
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    a.push_back(integer(width, loc));
    return call(fn, loc, std::move(a));
  }
  static ExprPtr negated(ExprPtr x, SourceLoc loc) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    return node(ExprKind::Neg, loc, std::move(a));
  }
  // A value of a float type narrower than the program computes in is rounded to it
  // after every op, as MLIR's f16 and bf16 arithmetic is; `from` is the width of the
  // integer it was converted from, if any (an i64 above 2^24 is not exact in f32).
  static ExprPtr rounded(ExprPtr x, Value v, SourceLoc loc, unsigned from = 0) {
    mlir::Type t = v.getType();
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    if (t.isF16()) return call("round_f16", loc, std::move(a));
    if (t.isBF16()) return call("round_bf16", loc, std::move(a));
    // An extent or a literal converted is exact below 2^24, as every size it takes is
    // in practice; only a computed integer is rounded.
    const bool exactInt = a[0]->kind == ExprKind::Name || a[0]->kind == ExprKind::Number;
    if (t.isF32() && from > 24 && !exactInt) return call("round_f32", loc, std::move(a));
    if (!t.isF32() && !t.isF64() && mlir::isa<mlir::FloatType>(t)) {
      std::string s;
      llvm::raw_string_ostream os(s);
      t.print(os);
      throw SourceError(loc, "float type " + os.str() + " is not supported (f16, bf16, f32 and f64 are)");
    }
    return std::move(a[0]);
  }
  // MLIR's conversions, on integers held as their signed value (i1 as 0 or 1).
  static ExprPtr cast(Operation* d, ExprPtr x, SourceLoc loc) {
    Value to = d->getResult(0);
    const unsigned fw = intWidth(d->getOperand(0).getType()), tw = intWidth(to.getType());
    if (mlir::isa<mlir::arith::ExtFOp>(d)) return x;
    if (mlir::isa<mlir::arith::FPToSIOp, mlir::arith::FPToUIOp>(d)) {  // out of range: poison in MLIR
      std::vector<ExprPtr> a;
      a.push_back(std::move(x));
      ExprPtr t = call("trunc", loc, std::move(a));
      return tw < 64 ? widthCall(tw == 1 ? "zext" : "wrap", std::move(t), tw, loc) : std::move(t);
    }
    if (mlir::isa<mlir::arith::TruncFOp>(d)) {
      if (to.getType().isF32()) {
        std::vector<ExprPtr> a;
        a.push_back(std::move(x));
        return call("round_f32", loc, std::move(a));
      }
      return rounded(std::move(x), to, loc);
    }
    if (mlir::isa<mlir::arith::SIToFPOp>(d)) return rounded(fw == 1 ? negated(std::move(x), loc) : std::move(x), to, loc, fw);
    if (mlir::isa<mlir::arith::UIToFPOp>(d))
      return rounded(fw == 1 ? std::move(x) : widthCall("zext", std::move(x), fw, loc), to, loc, fw);
    if (mlir::isa<mlir::arith::ExtSIOp>(d)) return fw == 1 ? negated(std::move(x), loc) : std::move(x);
    if (mlir::isa<mlir::arith::ExtUIOp>(d)) return fw == 1 ? std::move(x) : widthCall("zext", std::move(x), fw, loc);
    // trunci and index casts: narrower keeps the low bits; wider extends by sign
    // (index_cast) or by zero (index_castui).
    if (tw < fw) return tw == 1 ? widthCall("zext", std::move(x), 1, loc) : widthCall("wrap", std::move(x), tw, loc);
    if (tw == fw) return x;
    if (mlir::isa<mlir::arith::IndexCastUIOp>(d)) return fw == 1 ? std::move(x) : widthCall("zext", std::move(x), fw, loc);
    return fw == 1 ? negated(std::move(x), loc) : std::move(x);
  }

  // -- conditions --

  using Build = std::function<ExprPtr()>;
  static ExprPtr selectNode(ExprPtr c, ExprPtr x, ExprPtr y, SourceLoc loc) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(c));
    a.push_back(std::move(x));
    a.push_back(std::move(y));
    return node(ExprKind::Select, loc, std::move(a));
  }

  // `c ? x : y` for an i1 value c. TC's comparisons are C's: ordered, except != (true
  // on NaN, as une is); the other unordered predicates are the negated ordered ones
  // (the branches swapped), and one, ueq, ord and uno nest two selects. Conjunctions
  // and disjunctions of conditions nest too.
  ExprPtr choose(Value c, const Build& x, const Build& y, Body& b) {
    Operation* d = c.getDefiningOp();
    SourceLoc loc = d ? locOf(d) : locOf(b.g);
    Deeper deeper(depth_, loc);
    auto cmp = [&](ExprKind k, unsigned i, unsigned j, bool zext = false, bool neg = false) {
      std::vector<ExprPtr> a;
      for (unsigned o : {i, j}) {
        ExprPtr e = expr(d->getOperand(o), b);
        const unsigned w = intWidth(d->getOperand(o).getType());
        if (zext && w > 1 && w < 64) e = widthCall("zext", std::move(e), w, loc);
        if (neg && w == 1) e = negated(std::move(e), loc);  // an i1 is -1 or 0 signed
        a.push_back(std::move(e));
      }
      return node(k, loc, std::move(a));
    };
    if (auto k = d ? mlir::dyn_cast<mlir::arith::ConstantOp>(d) : nullptr)
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(k.getValue())) return i.getValue().isZero() ? y() : x();
    if (auto f = d ? mlir::dyn_cast<mlir::arith::CmpFOp>(d) : nullptr) {
      using P = mlir::arith::CmpFPredicate;
      switch (f.getPredicate()) {
        case P::OGT: return selectNode(cmp(ExprKind::Gt, 0, 1), x(), y(), loc);
        case P::OGE: return selectNode(cmp(ExprKind::Ge, 0, 1), x(), y(), loc);
        case P::OLT: return selectNode(cmp(ExprKind::Lt, 0, 1), x(), y(), loc);
        case P::OLE: return selectNode(cmp(ExprKind::Le, 0, 1), x(), y(), loc);
        case P::OEQ: return selectNode(cmp(ExprKind::Eq, 0, 1), x(), y(), loc);
        case P::UNE: return selectNode(cmp(ExprKind::Ne, 0, 1), x(), y(), loc);
        case P::UGT: return selectNode(cmp(ExprKind::Le, 0, 1), y(), x(), loc);
        case P::UGE: return selectNode(cmp(ExprKind::Lt, 0, 1), y(), x(), loc);
        case P::ULT: return selectNode(cmp(ExprKind::Ge, 0, 1), y(), x(), loc);
        case P::ULE: return selectNode(cmp(ExprKind::Gt, 0, 1), y(), x(), loc);
        case P::ONE: return selectNode(cmp(ExprKind::Lt, 0, 1), x(), selectNode(cmp(ExprKind::Gt, 0, 1), x(), y(), loc), loc);
        case P::UEQ: return selectNode(cmp(ExprKind::Lt, 0, 1), y(), selectNode(cmp(ExprKind::Gt, 0, 1), y(), x(), loc), loc);
        case P::ORD: return selectNode(cmp(ExprKind::Eq, 0, 0), selectNode(cmp(ExprKind::Eq, 1, 1), x(), y(), loc), y(), loc);
        case P::UNO: return selectNode(cmp(ExprKind::Eq, 0, 0), selectNode(cmp(ExprKind::Eq, 1, 1), y(), x(), loc), x(), loc);
        case P::AlwaysTrue: return x();
        case P::AlwaysFalse: return y();
      }
    }
    if (auto i = d ? mlir::dyn_cast<mlir::arith::CmpIOp>(d) : nullptr) {
      using P = mlir::arith::CmpIPredicate;
      switch (i.getPredicate()) {
        case P::eq: return selectNode(cmp(ExprKind::Eq, 0, 1), x(), y(), loc);
        case P::ne: return selectNode(cmp(ExprKind::Ne, 0, 1), x(), y(), loc);
        case P::slt: return selectNode(cmp(ExprKind::Lt, 0, 1, false, true), x(), y(), loc);
        case P::sle: return selectNode(cmp(ExprKind::Le, 0, 1, false, true), x(), y(), loc);
        case P::sgt: return selectNode(cmp(ExprKind::Gt, 0, 1, false, true), x(), y(), loc);
        case P::sge: return selectNode(cmp(ExprKind::Ge, 0, 1, false, true), x(), y(), loc);
        case P::ult: return selectNode(cmp(ExprKind::Lt, 0, 1, true), x(), y(), loc);
        case P::ule: return selectNode(cmp(ExprKind::Le, 0, 1, true), x(), y(), loc);
        case P::ugt: return selectNode(cmp(ExprKind::Gt, 0, 1, true), x(), y(), loc);
        case P::uge: return selectNode(cmp(ExprKind::Ge, 0, 1, true), x(), y(), loc);
      }
    }
    if (d && c.getType().isInteger(1)) {
      Value l = d->getNumOperands() == 2 ? d->getOperand(0) : Value(), r = d->getNumOperands() == 2 ? d->getOperand(1) : Value();
      if (mlir::isa<mlir::arith::AndIOp>(d)) return choose(l, [&] { return choose(r, x, y, b); }, y, b);
      if (mlir::isa<mlir::arith::OrIOp>(d)) return choose(l, x, [&] { return choose(r, x, y, b); }, b);
      if (mlir::isa<mlir::arith::XOrIOp>(d))
        return choose(l, [&] { return choose(r, y, x, b); }, [&] { return choose(r, x, y, b); }, b);
      if (auto s = mlir::dyn_cast<mlir::arith::SelectOp>(d))
        return choose(s.getCondition(), [&] { return choose(s.getTrueValue(), x, y, b); },
                      [&] { return choose(s.getFalseValue(), x, y, b); }, b);
    }
    // Any other i1 (a truncation, an argument): true when not 0.
    std::vector<ExprPtr> a;
    a.push_back(expr(c, b));
    a.push_back(integer(0, loc));
    return selectNode(node(ExprKind::Ne, loc, std::move(a)), x(), y(), loc);
  }

  // tensor.extract in a body: the element of a tensor the op captures, at subscripts the
  // body computes (loop indices, constants, or an integer operand's element: a gather,
  // which Sema turns into a may-read of the dimensions it indexes).
  ExprPtr extract(mlir::tensor::ExtractOp x, Body& b) {
    Operation* op = x;
    SourceLoc loc = locOf(op);
    TensorValue& tv = tensorOf(x.getTensor(), op);
    if (tv.kind == Kind::Fill) return scalar(tv.fill, loc, op);
    if (tv.kind == Kind::View)
      throw SourceError(loc, "tensor.extract from a reshaped or sliced tensor is not supported; extract from the tensor itself");
    if (tv.kind == Kind::Empty) throw SourceError(loc, "this op reads a tensor.empty, whose elements are undefined");
    std::vector<ExprPtr> subs;
    bool gathers = false;
    const std::vector<int>& loops = loops_[b.g.getOperation()];
    for (unsigned k = 0; k < x.getIndices().size(); ++k) {
      Value i = x.getIndices()[k];
      if (auto ids = computedLoopIds(i, b, tv.name, loc)) {
        std::optional<int64_t> extent = k < tv.shape.size() ? ext_.value(tv.shape[k]) : std::nullopt;
        if (auto r = span(ids->second, loops); r && extent && (r->first < 0 || r->second >= *extent))
          throw SourceError(loc, "tensor.extract reads '" + tv.name + "' at ids from " + std::to_string(r->first) + " to " +
                                     std::to_string(r->second) + " in dimension " + std::to_string(k) + ", outside 0:" +
                                     std::to_string(*extent));
        subs.push_back(std::move(ids->first));
        continue;
      }
      // Index arithmetic that divides loops (h floordiv 2), or a float computation of one
      // loop that takes the values of such a form: the loops are split for it
      // (splitLoops), and the subscript names their parts. isl checks its bounds.
      const std::optional<mlir::AffineExpr> plain = loopAffine(i, b.g, noArgs);
      if (std::optional<mlir::AffineExpr> f = indexAffine(i, b.g); f && (!plain || divides(*plain))) {
        subs.push_back(subscript(mlir::simplifyAffineExpr(*f, b.g.getNumLoops(), 0), loc));
        continue;
      }
      subs.push_back(expr(i, b));
      gathers |= subs.back()->kind == ExprKind::Call;
      if (subs.back()->kind == ExprKind::Call) computedIds(i, subs.back()->name);
      // An index known here to leave the tensor is undefined behaviour in MLIR; TC would
      // instead shrink the loop to the accesses' bounds. Refused, as a dynamic one is.
      std::optional<int64_t> extent = k < tv.shape.size() ? ext_.value(tv.shape[k]) : std::nullopt;
      std::optional<int64_t> at, upTo;
      if (auto c = i.getDefiningOp<mlir::arith::ConstantIndexOp>()) at = c.value();
      if (auto l = i.getDefiningOp<mlir::linalg::IndexOp>(); l && l.getDim() < loops.size() && loops[l.getDim()] >= 0)
        upTo = ext_.value(loops[l.getDim()]);
      if (extent && ((at && (*at < 0 || *at >= *extent)) || (upTo && *upTo > *extent)))
        throw SourceError(loc, "tensor.extract reads '" + tv.name + "' at " +
                                   (at ? std::to_string(*at) : "indices up to " + std::to_string(*upTo - 1)) + " in dimension " +
                                   std::to_string(k) + ", outside 0:" + std::to_string(*extent));
    }
    if (gathers && gatherNoted_.insert(op).second) {
      gatherNote_[b.g.getOperation()] = out_.notes.size();
      out_.notes.push_back("tensor.extract at line " + std::to_string(loc.line) + " reads '" + tv.name +
                           "' at data-dependent subscripts: a may-read of the dimensions they index");
    }
    return call(tv.name, loc, std::move(subs));
  }
  std::set<Operation*> gatherNoted_;
  std::map<Operation*, size_t> gatherNote_;  // per linalg op, its gather note (pushPieces rewrites it)

  // -- ids computed from loop indices --
  //
  // torch's arange (GPT-2's position ids) is a generic whose element is an affine function
  // of its own loop indices. A tensor.extract at such an id reads the table at that
  // function of the reading op's loops: an affine read, not a gather, so the search sees
  // exactly which rows move, and the ids tensor is dropped when nothing else reads it.

  // The subscript the extract index `i` is (and its affine form over the reading op's
  // loops), when it is an element of such a tensor; none otherwise (then it is read as a
  // value: a gather through it).
  std::optional<std::pair<ExprPtr, mlir::AffineExpr>> computedLoopIds(Value i, Body& b, const std::string& table, SourceLoc loc) {
    Operation* producer = nullptr;
    std::vector<std::string> ids;
    // An element the op reads of a tensor computed by an all-parallel generic whose element
    // is an affine function of its loops: that function at the read's subscripts.
    auto element = [&](mlir::BlockArgument arg) -> std::optional<mlir::AffineExpr> {
      if (arg.getOwner() != b.g.getBody() || arg.getArgNumber() >= unsigned(b.g.getNumDpsInputs())) return std::nullopt;
      mlir::OpOperand* in = b.g.getDpsInputOperand(arg.getArgNumber());
      auto [src, m] = throughViews(in->get(), b.g.getMatchingIndexingMap(in), b.g);
      auto p = src.getDefiningOp<mlir::linalg::GenericOp>();
      if (!p || tensorOf(src, b.g).split || p.getNumReductionLoops() != 0) return std::nullopt;
      const unsigned k = mlir::cast<mlir::OpResult>(src).getResultNumber();
      mlir::AffineMap om = p.getMatchingIndexingMap(p.getDpsInitOperand(k));
      if (!om.isPermutation()) return std::nullopt;
      auto yield = mlir::cast<mlir::linalg::YieldOp>(p.getBody()->getTerminator());
      std::optional<mlir::AffineExpr> f = loopAffine(yield.getOperand(k), p, noArgs);
      if (!f) return std::nullopt;
      // The producer's loop om[r] is the reading op's m[r].
      llvm::SmallVector<mlir::AffineExpr> loops(p.getNumLoops());
      for (unsigned r = 0; r < om.getNumResults(); ++r) loops[om.getDimPosition(r)] = m.getResult(r);
      producer = p;
      ids.push_back(tensorOf(src, b.g).name);
      return f->replaceDims(loops);
    };
    std::optional<mlir::AffineExpr> f = loopAffine(i, b.g, element);
    if (!f || !producer) return std::nullopt;
    const mlir::AffineExpr at = mlir::simplifyAffineExpr(*f, b.g.getNumLoops(), 0);
    // Ids that divide the reading op's loops (a producer's h floordiv 2) were not seen when
    // its loops were split: read as a gather instead, as before such ids were followed.
    if (divides(at)) return std::nullopt;
    ExprPtr sub = subscript(at, loc);
    if (idsNoted_.insert(b.g.getOperation()).second)
      out_.notes.push_back("tensor.extract at line " + std::to_string(loc.line) + " reads '" + table + "' at ids that line " +
                           std::to_string(locOf(producer).line) + " computes from its loop indices: an affine read, not a gather");
    substituted_.insert(ids.begin(), ids.end());
    return std::make_pair(std::move(sub), at);
  }
  std::set<Operation*> idsNoted_;

  // Ids a body computes (T5's relative position buckets) are stored as the integers they
  // are, so that a gather may read through them (Sema takes subscripts from integer
  // tensors only): the tensor keeps its MLIR integer type, where other computed integers
  // travel as values of the computing type.
  void computedIds(Value i, const std::string& tensor) {
    while (Operation* d = i.getDefiningOp()) {
      if (!keepsIntegerValue(d)) return;
      i = d->getOperand(0);
    }
    for (auto& [v, tv] : tensors_)
      if (tv.name == tensor && tv.kind == Kind::Computed) {
        const ElemType t = elemType(v.getType());
        integerIds_[tensor] = t == ElemType::I32 ? ElemType::I32 : ElemType::I64;
      }
  }
  std::map<std::string, ElemType> integerIds_;
  std::set<std::string> substituted_;  // ids tensors read only through such subscripts may be dropped

  // The least and greatest value of an affine `e` over loops of extents `loops`; none when
  // a loop it depends on has no static extent.
  std::optional<std::pair<int64_t, int64_t>> span(mlir::AffineExpr e, const std::vector<int>& loops) {
    const unsigned n = unsigned(loops.size());
    auto at = [&](const std::vector<int64_t>& point) -> std::optional<int64_t> {
      llvm::SmallVector<mlir::AffineExpr> c;
      for (int64_t x : point) c.push_back(mlir::getAffineConstantExpr(x, e.getContext()));
      auto v = mlir::dyn_cast<mlir::AffineConstantExpr>(mlir::simplifyAffineExpr(e.replaceDims(c), n, 0));
      return v ? std::optional<int64_t>(v.getValue()) : std::nullopt;
    };
    std::optional<int64_t> base = at(std::vector<int64_t>(n, 0));
    if (!base) return std::nullopt;
    int64_t lo = *base, hi = *base;
    for (unsigned d = 0; d < n; ++d) {
      if (!e.isFunctionOfDim(d)) continue;
      std::optional<int64_t> extent = loops[d] >= 0 ? ext_.value(loops[d]) : std::nullopt;
      if (!extent) return std::nullopt;
      std::vector<int64_t> point(n, 0);
      point[d] = *extent - 1;
      std::optional<int64_t> v = at(point);
      if (!v) return std::nullopt;
      lo += std::min<int64_t>(0, *v - *base);
      hi += std::max<int64_t>(0, *v - *base);
    }
    return std::make_pair(lo, hi);
  }

  static std::optional<mlir::AffineExpr> noArgs(mlir::BlockArgument) { return std::nullopt; }
  // An extract index as an affine form of the loops: integer index arithmetic, else a
  // function of one loop fitted over its range (mlir/LoopFunction.h).
  // Computed once per value: splitLoops and extract() both ask, and a fit evaluates the
  // whole loop range.
  std::optional<mlir::AffineExpr> indexAffine(Value i, mlir::linalg::GenericOp g) {
    if (auto it = indexAffine_.find(i); it != indexAffine_.end()) return it->second;
    return indexAffine_[i] = computeIndexAffine(i, g);
  }
  llvm::DenseMap<Value, std::optional<mlir::AffineExpr>> indexAffine_;
  std::optional<mlir::AffineExpr> computeIndexAffine(Value i, mlir::linalg::GenericOp g) {
    const std::vector<int>& loops = loops_[g.getOperation()];
    if (std::optional<mlir::AffineExpr> f = loopAffine(i, g, noArgs)) {
      if (!divides(*f)) return f;
      std::vector<std::optional<int64_t>> extents;
      for (int sym : loops) extents.push_back(sym >= 0 ? ext_.value(sym) : std::nullopt);
      return simplifyByRanges(mlir::AffineMap::get(g.getNumLoops(), 0, *f), extents).getResult(0);
    }
    std::optional<mlir::AffineExpr> f = fitLoopFunction(i, g.getBody(), [&](unsigned d) -> std::optional<int64_t> {
      return d < loops.size() && loops[d] >= 0 ? ext_.value(loops[d]) : std::nullopt;
    });
    if (f && fittedNoted_.insert(g.getOperation()).second)
      out_.notes.push_back("line " + std::to_string(locOf(g).line) + " computes a subscript in floating point from one loop; over " +
                           "the loop's range it equals an affine form of it, checked at every point, and is read as that");
    return f;
  }
  std::set<Operation*> fittedNoted_;
  static bool divides(mlir::AffineExpr e) {
    bool any = false;
    e.walk([&](mlir::AffineExpr sub) {
      any |= sub.getKind() == mlir::AffineExprKind::FloorDiv || sub.getKind() == mlir::AffineExprKind::CeilDiv ||
             sub.getKind() == mlir::AffineExprKind::Mod;
    });
    return any;
  }
  static bool nonNegative(mlir::AffineExpr e) {
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return c.getValue() >= 0;
    if (mlir::isa<mlir::AffineDimExpr>(e)) return true;
    auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
    return b && e.getKind() != mlir::AffineExprKind::CeilDiv && nonNegative(b.getLHS()) && nonNegative(b.getRHS());
  }
  // An integer value of generic `g`'s body as an affine function of its loop indices,
  // with `arg` giving the body's arguments where it can.
  using ArgAffine = std::function<std::optional<mlir::AffineExpr>(mlir::BlockArgument)>;
  static std::optional<mlir::AffineExpr> loopAffine(Value v, mlir::linalg::GenericOp g, const ArgAffine& arg) {
    if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) return arg(a);
    Operation* d = v.getDefiningOp();
    if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d))
      if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue())) return mlir::getAffineConstantExpr(i.getInt(), g.getContext());
    if (d->getBlock() != g.getBody()) return std::nullopt;
    if (auto i = mlir::dyn_cast<mlir::linalg::IndexOp>(d)) return mlir::getAffineDimExpr(unsigned(i.getDim()), g.getContext());
    if (keepsIntegerValue(d)) return loopAffine(d->getOperand(0), g, arg);
    if (!mlir::isa<mlir::arith::AddIOp, mlir::arith::SubIOp, mlir::arith::MulIOp, mlir::arith::FloorDivSIOp, mlir::arith::DivSIOp,
                   mlir::arith::DivUIOp, mlir::arith::RemSIOp, mlir::arith::RemUIOp>(d))
      return std::nullopt;
    std::optional<mlir::AffineExpr> x = loopAffine(d->getOperand(0), g, arg), y = loopAffine(d->getOperand(1), g, arg);
    if (!x || !y) return std::nullopt;
    if (mlir::isa<mlir::arith::FloorDivSIOp, mlir::arith::DivSIOp, mlir::arith::DivUIOp, mlir::arith::RemSIOp, mlir::arith::RemUIOp>(d)) {
      // By a positive constant; C's truncating forms agree with floor and mod where the
      // dividend cannot be negative (a sum of loops and non-negative constants).
      auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(*y);
      if (!c || c.getValue() < 1) return std::nullopt;
      if (!mlir::isa<mlir::arith::FloorDivSIOp>(d) && !nonNegative(*x)) return std::nullopt;
      return mlir::isa<mlir::arith::RemSIOp, mlir::arith::RemUIOp>(d) ? *x % c.getValue() : x->floorDiv(c.getValue());
    }
    if (mlir::isa<mlir::arith::AddIOp>(d)) return *x + *y;
    if (mlir::isa<mlir::arith::SubIOp>(d)) return *x - *y;
    if (!x->isSymbolicOrConstant() && !y->isSymbolicOrConstant()) return std::nullopt;  // a product of loops
    return *x * *y;
  }

  // A fill is read as its value wherever an op reads it; it is stored only when returned.
  // Returned, directly or through tensor.cast (which only restates the type).
  // Whether nothing reads v's elements: its only uses are views (the reshapes that
  // dropping unit loops adds) that nothing reads either.
  static bool unread(Value v) {
    for (Operation* u : v.getUsers()) {
      if (!mlir::isa<mlir::tensor::ExpandShapeOp, mlir::tensor::CollapseShapeOp, mlir::tensor::CastOp>(u)) return false;
      if (!unread(u->getResult(0))) return false;
    }
    return true;
  }
  static bool returned(Value v) {
    for (mlir::OpOperand& u : v.getUses()) {
      if (mlir::isa<mlir::func::ReturnOp>(u.getOwner())) return true;
      if (auto c = mlir::dyn_cast<mlir::tensor::CastOp>(u.getOwner()); c && returned(c.getResult())) return true;
    }
    return false;
  }
  static Value castSource(Value v) {
    while (auto c = v.getDefiningOp<mlir::tensor::CastOp>()) v = c.getSource();
    return v;
  }

  static bool isIdentity(ReduceOp op, double c) {
    switch (op) {
      case ReduceOp::Add: return c == 0;
      case ReduceOp::Mul: return c == 1;
      case ReduceOp::Max: case ReduceOp::FMax: return std::isinf(c) && c < 0;
      case ReduceOp::Min: case ReduceOp::FMin: return std::isinf(c) && c > 0;
      default: return false;
    }
  }

  void where(StmtDecl& s, const std::string& dim, int sym, SourceLoc loc) {
    WhereRange w;
    w.index = dim;
    w.loc = loc;
    w.lo = integer(0, loc);
    w.hi = extent(sym, loc);
    s.where.push_back(std::move(w));
  }

  // The loops an output map indexes its result by (a 0 of a unit extent indexes none).
  static std::vector<unsigned> writtenLoops(mlir::AffineMap om) {
    std::vector<unsigned> out;
    for (mlir::AffineExpr e : om.getResults())
      if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) out.push_back(d.getPosition());
    return out;
  }

  // The written indices: a split loop's parts in place of the loop; at a 0 of a unit
  // extent, an index of its own over 0:1, named after no loop of the op.
  void lhs(StmtDecl& s, mlir::AffineMap m, SourceLoc loc) {
    for (unsigned r = 0; r < m.getNumResults(); ++r) {
      if (mlir::isa<mlir::AffineConstantExpr>(m.getResult(r))) {
        const std::string n = "d" + std::to_string(m.getNumDims() + r);
        s.lhsIndices.push_back(n);
        s.lhsIndexLocs.push_back(loc);
        s.lhsSubscripts.push_back(name(n, loc));
        where(s, n, ext_.literal(1), loc);
        continue;
      }
      const unsigned d = m.getDimPosition(r);
      std::vector<std::string> names;
      if (auto it = split_.find(d); it != split_.end())
        for (size_t k = 0; k + 1 < it->second.size(); ++k) names.push_back(subLoop(d, k));
      else
        names.push_back("d" + std::to_string(d));
      for (std::string& n : names) {
        s.lhsIndices.push_back(n);
        s.lhsIndexLocs.push_back(loc);
        s.lhsSubscripts.push_back(name(n, loc));
      }
    }
  }
  // The ranges of the parts of the split loops, of those `only` names where given.
  void splitWheres(StmtDecl& s, SourceLoc loc, const std::set<unsigned>* only = nullptr) {
    for (auto& [d, bounds] : split_) {
      if (only && !only->count(d)) continue;
      for (size_t k = 0; k + 1 < bounds.size(); ++k) {
        WhereRange w;
        w.index = subLoop(d, k);
        w.loc = loc;
        w.lo = integer(0, loc);
        w.hi = integer(bounds[k] / bounds[k + 1], loc);
        s.where.push_back(std::move(w));
      }
    }
  }
  // A loop's range: its extent, or its parts' where it is split.
  void loopWhere(StmtDecl& s, unsigned d, int sym, SourceLoc loc) {
    if (!split_.count(d)) return where(s, "d" + std::to_string(d), sym, loc);
    const std::set<unsigned> one{d};
    splitWheres(s, loc, &one);
  }

  void statements(Operation* op) {
    SourceLoc loc = locOf(op);
    split_.clear();  // set again below for a generic: other ops' subscripts read loops as they are
    if (mlir::isa<mlir::linalg::FillOp, mlir::tensor::SplatOp, mlir::tensor::FromElementsOp>(op)) {
      Value r = op->getResult(0);
      if (!returned(r)) return;
      TensorValue& tv = tensors_[r];
      tv.name = resultName(op, 0);
      out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, scalar(tv.fill, loc, op), op));
      tv.kind = Kind::Computed;
      return;
    }
    if (auto p = mlir::dyn_cast<mlir::tensor::PadOp>(op)) return padStatements(p);
    if (auto x = mlir::dyn_cast<mlir::tensor::InsertSliceOp>(op)) return insertStatements(x);
    if (auto x = mlir::dyn_cast<mlir::tensor::InsertOp>(op)) return insertElementStatements(x);
    if (auto it = paddedPacks_.find(op); it != paddedPacks_.end()) return paddedPackStatements(mlir::cast<mlir::tensor::PackOp>(op), it->second);
    if (auto c = mlir::dyn_cast<mlir::tensor::ConcatOp>(op)) return concatStatements(c);
    if (auto ret = mlir::dyn_cast<mlir::func::ReturnOp>(op)) {
      std::set<std::string> seen;
      for (Value returnedValue : ret.getOperands()) {
        const Value v = castSource(returnedValue);
        if (tensorOf(v, op).kind == Kind::View) {
          // A returned view (a result expanded back once its unit loops were dropped):
          // the output is a copy of what it shows.
          // Its loops split where the view reads a collapse, as a generic's would.
          Operation* vop = v.getDefiningOp();
          const std::string nm = resultName(vop ? vop : op, 0);
          const Shape shape = tensorOf(v, op).shape;
          const mlir::AffineMap id = mlir::AffineMap::getMultiDimIdentityMap(unsigned(shape.size()), op->getContext());
          splitLoops({throughViews(v, id, op).second}, std::vector<int>(shape.begin(), shape.end()), loc);
          ExprPtr value = element(v, id, loc, op);
          StmtDecl s = assignment(nm, shape.size(), op);
          for (size_t k = 0; k < shape.size(); ++k) loopWhere(s, unsigned(k), shape[k], loc);
          s.rhs = std::move(value);
          out_.def.stmts.push_back(std::move(s));
          TensorValue copy(Kind::Computed, shape);
          copy.name = nm;
          splitResult(copy, id, op->getContext());
          split_.clear();
          tensors_[v] = copy;
        }
        TensorValue& tv = tensorOf(v, op);
        if (tv.kind == Kind::Input) throw SourceError(loc, "the function returns '" + tv.name + "' unchanged; polyfuse outputs must be computed");
        if (tv.kind != Kind::Computed) throw SourceError(loc, "the function returns a tensor it never computes");
        std::string outName = tv.name;
        if (!seen.insert(tv.name).second) {
          // Returned again (torch-mlir's `return x, x`): a copy of its own.
          if (tv.split) throw SourceError(loc, "the function returns '" + tv.name + "' twice");
          for (int n = 1; !seen.insert(outName = tv.name + "_copy" + (n > 1 ? std::to_string(n) : "")).second; ++n) {}
          const mlir::AffineMap id = mlir::AffineMap::getMultiDimIdentityMap(unsigned(tv.shape.size()), op->getContext());
          const Shape shape = tv.shape;
          ExprPtr value = element(v, id, loc, op);
          out_.def.stmts.push_back(wholeWrite(outName, shape, std::move(value), op));
          out_.notes.push_back("'" + tv.name + "' is returned more than once; output '" + outName + "' is a copy of it");
        }
        TensorDecl d;
        d.name = outName;
        d.loc = loc;
        d.type = elemType(v.getType());
        if (isInteger(d.type)) {  // computed integers are values of the computing type
          d.type = ElemType::F32;
          out_.notes.push_back("output '" + d.name + "' (line " + std::to_string(loc.line) +
                               ") holds integers; it is stored as f32, exact up to 2^24");
        }
        d.hasShape = true;
        dims(d, tv.split ? tv.stored : tv.shape);
        if (tv.split)
          out_.notes.push_back("output '" + d.name + "' (line " + std::to_string(loc.line) + ") is stored as " +
                               shapeText(tv.stored) + ", the same elements in the same order as its " + shapeText(tv.shape) +
                               ": a read through a view (collapse_shape, reshape, unpack) or a floordiv or mod of a loop split the parallel loop that writes it");
        out_.def.outputs.push_back(d);
      }
      return;
    }
    auto g = mlir::dyn_cast<mlir::linalg::GenericOp>(op);
    if (!g) return;
    const std::vector<int>& loops = loops_[op];
    splitLoops(g, loops);
    // Arg-reductions read their partner's result: after every other result.
    std::vector<unsigned> order;
    for (int arg = 0; arg < 2; ++arg)
      for (unsigned k = 0; k < g.getNumResults(); ++k)
        if ((forms_[op][k].argOf >= 0) == bool(arg)) order.push_back(k);
    for (unsigned k : order) {
      const ResultForm& f = forms_[op][k];
      if (f.dropped) continue;
      mlir::OpOperand* init = g.getDpsInitOperand(k);
      mlir::AffineMap om = g.getMatchingIndexingMap(init);
      TensorValue& tv = tensors_[g.getResult(k)];
      tv.name = resultName(op, k);
      splitResult(tv, om, op->getContext());
      // A fill seen through views (a fill whose unit dimensions were dropped) is still one value.
      const TensorValue& base = tensorOf(throughViews(init->get(), om, op).first, op);
      std::optional<double> c = base.kind == Kind::Fill ? constantValue(base.fill) : std::nullopt;
      bool bang = f.argOf >= 0 || (f.op != ReduceOp::Assign && c && isIdentity(f.op, *c));
      if (f.op != ReduceOp::Assign && !bang) {
        // Start from the init's values: a copy, then the update.
        if (base.kind == Kind::Empty) throw SourceError(loc, "this reduction starts from a tensor.empty, whose elements are undefined");
        StmtDecl c;
        c.loc = loc;
        c.lhs = tv.name;
        c.opLoc = loc;
        lhs(c, om, loc);
        c.rhs = element(init->get(), om, loc, op);
        std::set<unsigned> written;
        for (unsigned d : writtenLoops(om)) written.insert(d);
        if (base.kind == Kind::Fill)
          for (unsigned d : written) loopWhere(c, d, loops[d], loc);
        else
          splitWheres(c, loc, &written);  // the init's read of a split loop is a sum: no range from it
        out_.def.stmts.push_back(std::move(c));
      }
      StmtDecl s;
      s.loc = loc;
      s.lhs = tv.name;
      s.op = f.op;
      s.init = bang;
      s.opLoc = loc;
      lhs(s, om, loc);
      Body b{g, std::vector<bool>(op->getNumOperands(), false)};
      bodyNodes_ = 0;
      if (f.argOf >= 0) {
        // index where x equals the extreme, else the identity of the position's min or max.
        const unsigned m = unsigned(f.argOf);
        std::vector<ExprPtr> eq;
        eq.push_back(expr(f.value, b));
        eq.push_back(element(g.getResult(m), g.getMatchingIndexingMap(g.getDpsInitOperand(m)), loc, op));
        s.rhs = selectNode(node(ExprKind::Eq, loc, std::move(eq)), loopName(f.index, loc),
                           number(reduceKind(f.op).identity, 32, loc), loc);
      } else if (f.keepWhen) {
        auto value = [&] { return expr(f.value, b); };
        auto identity = [&] { return number(reduceKind(f.op).identity, floatBits(f.value.getType()), loc); };
        s.rhs = f.keepWhenTrue ? choose(f.keepWhen, identity, value, b) : choose(f.keepWhen, value, identity, b);
      } else {
        s.rhs = expr(f.value, b);
      }
      // Ranges: TC infers a loop's range from a read that indexes it alone; give the
      // others (broadcasts, loops in compound subscripts) as where clauses.
      std::vector<bool> inferable(loops.size(), false), partial(loops.size(), false);
      for (mlir::OpOperand* in : g.getDpsInputOperands()) {
        if (!b.used[in->getOperandNumber()] || !mlir::isa<mlir::RankedTensorType>(in->get().getType())) continue;
        auto [src, m] = throughViews(in->get(), g.getMatchingIndexingMap(in), op);
        const TensorValue& read = tensors_[src];
        if (read.kind == Kind::Fill) continue;
        // TC infers a loop's range from each read at d + c, and takes the tightest where
        // they differ by constants. A slice of a dynamic size reads part of its source,
        // whose extent differs from the loop's by a size: there the loop's range is given.
        const Shape& extents = read.split ? read.stored : read.shape;
        for (unsigned r = 0; r < m.getNumResults(); ++r) {
          mlir::AffineExpr e = m.getResult(r);
          int64_t c = 0;
          if (auto sum = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e); sum && e.getKind() == mlir::AffineExprKind::Add)
            if (auto k = mlir::dyn_cast<mlir::AffineConstantExpr>(sum.getRHS())) e = sum.getLHS(), c = k.getValue();
          auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e);
          if (!d) continue;
          const unsigned l = d.getPosition();
          const bool apart = r < extents.size() && loops[l] >= 0 && ext_.find(extents[r]) != ext_.find(loops[l]) &&
                             !(ext_.value(extents[r]) && ext_.value(loops[l]));
          if (apart) partial[l] = true;
          else if (c == 0) inferable[l] = true;
        }
      }
      if (f.readsInit && base.kind != Kind::Fill)
        for (unsigned d : writtenLoops(om)) inferable[d] = true;
      splitWheres(s, loc);
      for (size_t l = 0; l < loops.size(); ++l) {
        if ((inferable[l] && !partial[l]) || split_.count(unsigned(l))) continue;
        if (loops[l] < 0)
          throw InternalError("loop d" + std::to_string(l) + " is the extent of no operand, which MLIR's verifier requires");
        where(s, "d" + std::to_string(l), loops[l], loc);
      }
      for (auto& w : s.where)
        if (f.op != ReduceOp::Assign && std::find(s.lhsIndices.begin(), s.lhsIndices.end(), w.index) == s.lhsIndices.end() &&
            !mentions(*s.rhs, w.index))
          throw SourceError(loc, "the reduced value does not depend on loop " + w.index + "; polyfuse cannot express that");
      tv.kind = Kind::Computed;
      pushPieces(std::move(s), op);
    }
  }

  // -- gathers at ids from a constant table --
  //
  // DLRM's pairwise interactions read T(b, li(p), lj(p)) with li, lj constant tables (a
  // triangle's row and column of each pair): a gather, and of a computed tensor, which
  // polyfuse does not take. The ids are known, so the loop p runs in pieces over which
  // every table is affine in p (li = 2, lj = p - 1 over p in 1:3), each piece a statement
  // writing its window of the result with affine reads: no gather is left, and the search
  // sees exactly which elements move.

  // The statement as it is, or in such pieces when it reads constant integer tables at a
  // parallel loop, some of them as subscripts.
  static constexpr size_t kMaxPieces = 64;
  void pushPieces(StmtDecl s, Operation* op) {
    std::string loop;
    bool subscript = false, usable = true, otherGather = false;
    std::map<std::string, const std::vector<double>*> tables;
    auto table = [&](const Expr& e) -> const TensorDecl* {
      if (e.kind != ExprKind::Call || e.args.size() != 1 || e.args[0]->kind != ExprKind::Name) return nullptr;
      for (const TensorDecl& p : out_.def.params)
        if (p.name == e.name && !p.values.empty() && isInteger(p.type) && p.dims.size() == 1) return &p;
      return nullptr;
    };
    auto integerParam = [&](const std::string& n) {
      for (const TensorDecl& p : out_.def.params)
        if (p.name == n && isInteger(p.type)) return true;
      return false;
    };
    std::function<void(const Expr&, bool)> walk = [&](const Expr& e, bool inSubscript) {
      if (const TensorDecl* t = table(e)) {
        if (!loop.empty() && loop != e.args[0]->name) usable = false;
        loop = e.args[0]->name;
        tables[t->name] = &t->values;
        subscript |= inSubscript;
        return;
      }
      otherGather |= inSubscript && e.kind == ExprKind::Call && integerParam(e.name);
      for (auto& a : e.args) walk(*a, e.kind == ExprKind::Call);
    };
    walk(*s.rhs, false);
    const bool parallel = std::find(s.lhsIndices.begin(), s.lhsIndices.end(), loop) != s.lhsIndices.end();
    if (!subscript || !usable || !parallel) {
      out_.def.stmts.push_back(std::move(s));
      return;
    }
    // The loop's range: its where clause, else the tables' length.
    int64_t lo = 0, hi = int64_t(tables.begin()->second->size());
    for (auto& [n, v] : tables) hi = std::min(hi, int64_t(v->size()));
    for (const WhereRange& w : s.where)
      if (w.index == loop) {
        if (w.lo->kind != ExprKind::Number || w.hi->kind != ExprKind::Number) {
          out_.def.stmts.push_back(std::move(s));
          return;
        }
        lo = int64_t(w.lo->number), hi = std::min(hi, int64_t(w.hi->number));
      }
    // Maximal runs [a, b) over which every table is c + slope * p.
    std::vector<std::pair<int64_t, int64_t>> runs;
    for (int64_t a = lo; a < hi;) {
      int64_t b = a + 1;
      for (; b < hi; ++b) {  // two points are always affine; a third must keep the slope
        bool affine = true;
        if (b - a >= 2)
          for (auto& [n, v] : tables) affine &= (*v)[size_t(b)] - (*v)[size_t(b - 1)] == (*v)[size_t(a + 1)] - (*v)[size_t(a)];
        if (!affine) break;
      }
      runs.emplace_back(a, b);
      a = b;
    }
    // Ids without such structure (a thousand token ids) would be as many statements: left
    // a gather, which reads the table at run time.
    if (runs.size() > kMaxPieces) {
      out_.def.stmts.push_back(std::move(s));
      return;
    }
    std::string note = "line " + std::to_string(s.loc.line) + " reads constant id tables at loop " + loop + ": " +
                       std::to_string(runs.size()) + " piece(s) over which each id is affine in it, no gather";
    if (auto it = gatherNote_.find(op); it != gatherNote_.end() && !otherGather)
      out_.notes[it->second] = std::move(note);  // not a gather after all
    else
      out_.notes.push_back(std::move(note));
    // The last piece first: TC gives a tensor the extents of its first writer.
    for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
      const auto [a, b] = *r;
      std::function<ExprPtr(const Expr&)> substitute = [&](const Expr& e) -> ExprPtr {
        if (table(e) && tables.count(e.name)) {
          const std::vector<double>& v = *tables.at(e.name);
          const int64_t slope = b - a >= 2 ? int64_t(v[size_t(a + 1)] - v[size_t(a)]) : 0, at0 = int64_t(v[size_t(a)]) - slope * a;
          if (slope == 0) return integer(at0, e.loc);
          ExprPtr x = name(loop, e.loc);
          if (slope != 1) x = binary(ExprKind::Mul, integer(slope, e.loc), std::move(x), e.loc);
          return at0 == 0 ? std::move(x) : binary(ExprKind::Add, integer(at0, e.loc), std::move(x), e.loc);
        }
        ExprPtr c = cloneExpr(e);
        for (size_t i = 0; i < e.args.size(); ++i) c->args[i] = substitute(*e.args[i]);
        return c;
      };
      StmtDecl piece;
      piece.loc = s.loc, piece.lhs = s.lhs, piece.lhsIndices = s.lhsIndices, piece.lhsIndexLocs = s.lhsIndexLocs;
      for (auto& x : s.lhsSubscripts) piece.lhsSubscripts.push_back(cloneExpr(*x));
      piece.op = s.op, piece.init = s.init, piece.opLoc = s.opLoc;
      piece.rhs = substitute(*s.rhs);
      for (const WhereRange& w : s.where)
        if (w.index != loop) piece.where.push_back(WhereRange{w.index, w.loc, cloneExpr(*w.lo), cloneExpr(*w.hi)});
      piece.where.push_back(WhereRange{loop, s.loc, integer(a, s.loc), integer(b, s.loc)});
      out_.def.stmts.push_back(std::move(piece));
    }
  }

  // `tensor(d0, .., d<rank-1>) = ..` at the op, its right side still to give.
  StmtDecl assignment(const std::string& tensor, size_t rank, Operation* op) {
    SourceLoc loc = locOf(op);
    StmtDecl s;
    s.loc = loc;
    s.lhs = tensor;
    s.opLoc = loc;
    lhs(s, mlir::AffineMap::getMultiDimIdentityMap(unsigned(rank), op->getContext()), loc);
    return s;
  }

  // R(d0, ..) = value over the whole of R: the first write of a tensor two ops build.
  StmtDecl wholeWrite(const std::string& tensor, const Shape& shape, ExprPtr value, Operation* op) {
    SourceLoc loc = locOf(op);
    StmtDecl s = assignment(tensor, shape.size(), op);
    for (size_t k = 0; k < shape.size(); ++k) loopWhere(s, unsigned(k), shape[k], loc);
    s.rhs = std::move(value);
    return s;
  }

  // A source a tensor op writes over its result R: at `offsets`, over `extents` (both in
  // R's rank); `dropped` marks R's dimensions a rank-reducing insert_slice's source lacks
  // (each of extent 1).
  struct Window {
    Value source;
    std::vector<int64_t> offsets;
    Shape extents;
    llvm::SmallBitVector dropped;
    // R's indices to the source's: d - offset, for the dimensions the source has.
    mlir::AffineMap read(mlir::MLIRContext* ctx) const {
      std::vector<mlir::AffineExpr> exprs;
      for (size_t k = 0; k < offsets.size(); ++k)
        if (!isDropped(k)) exprs.push_back(mlir::getAffineDimExpr(unsigned(k), ctx) - offsets[k]);
      return mlir::AffineMap::get(unsigned(offsets.size()), 0, exprs, ctx);
    }
    bool isDropped(size_t k) const { return k < dropped.size() && dropped.test(unsigned(k)); }
  };
  Window window(Value source, std::vector<int64_t> offsets, Operation* op) {
    return Window{source, std::move(offsets), tensorOf(source, op).shape, {}};
  }

  // R(d0, ..) = source(d0 - o0, ..) where dk in ok:ok + extent_k: a window written over R.
  StmtDecl windowWrite(const std::string& tensor, const Window& w, Operation* op) {
    SourceLoc loc = locOf(op);
    StmtDecl s = assignment(tensor, w.offsets.size(), op);
    for (size_t k = 0; k < w.offsets.size(); ++k) {
      if (split_.count(unsigned(k))) {  // a whole dimension (windowSplits)
        loopWhere(s, unsigned(k), w.extents[k], loc);
        continue;
      }
      WhereRange range;
      range.index = "d" + std::to_string(k);
      range.loc = loc;
      range.lo = integer(w.offsets[k], loc);
      range.hi = w.offsets[k] == 0 ? extent(w.extents[k], loc)
                                   : binary(ExprKind::Add, integer(w.offsets[k], loc), extent(w.extents[k], loc), loc);
      s.where.push_back(std::move(range));
    }
    s.rhs = element(w.source, w.read(op->getContext()), loc, op);
    return s;
  }

  // A tensor op reads its sources as windows of its result. Where a source is a
  // collapse (or a result stored split) read along a whole dimension of the result (a
  // GroupNorm's output, its channels split into groups, padded in height and width), the
  // loop over that dimension splits as a generic's does, and the result is stored split
  // too, so every statement writing it names the same parts. Along a window's offset
  // (a concatenation along the collapsed dimension) nothing splits: subscript() refuses.
  void windowSplits(const std::vector<Window>& windows, TensorValue& result, Operation* op) {
    std::vector<mlir::AffineMap> maps;
    for (const Window& w : windows) maps.push_back(throughViews(w.source, w.read(op->getContext()), op).second);
    splitLoops(maps, std::vector<int>(result.shape.begin(), result.shape.end()), locOf(op));
    for (const Window& w : windows)
      for (auto& [d, bounds] : split_)
        if (w.offsets[d] != 0 || !sameExtent(w.extents[d], result.shape[d]))
          throw SourceError(locOf(op), "this op reads a collapse_shape of several non-unit extents along dimension " +
                                           std::to_string(d) + ", which it writes in windows; polyfuse splits only a whole dimension");
    splitResult(result, mlir::AffineMap::getMultiDimIdentityMap(unsigned(result.shape.size()), op->getContext()), op->getContext());
  }

  bool sameExtent(int a, int b) { return ext_.find(a) == ext_.find(b) || (ext_.value(a) && ext_.value(a) == ext_.value(b)); }

  void padStatements(mlir::tensor::PadOp p) {
    Operation* op = p;
    TensorValue& tv = tensors_[p.getResult()];
    tv.name = resultName(op, 0);
    const Window source = window(p.getSource(), std::vector<int64_t>(p.getStaticLow().begin(), p.getStaticLow().end()), op);
    windowSplits({source}, tv, op);
    out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, scalar(p.getConstantPaddingValue(), locOf(op), op), op));
    out_.def.stmts.push_back(windowWrite(tv.name, source, op));
  }

  // A rank-reducing insert (tpp-mlir's tiles: an 8x8 block into [2, 2, 8, 8]) writes its
  // source along the dimensions it keeps.
  void insertStatements(mlir::tensor::InsertSliceOp x) {
    Operation* op = x;
    TensorValue& tv = tensors_[x.getResult()];
    tv.name = resultName(op, 0);
    TensorValue& dest = tensorOf(x.getDest(), op);
    Window source{x.getSource(), std::vector<int64_t>(x.getStaticOffsets().begin(), x.getStaticOffsets().end()), {}, x.getDroppedDims()};
    for (mlir::OpFoldResult r : x.getMixedSizes()) source.extents.push_back(extentOf(r, op));
    std::vector<Window> windows{source};
    if (dest.kind != Kind::Empty) windows.push_back(window(x.getDest(), std::vector<int64_t>(source.offsets.size(), 0), op));
    windowSplits(windows, tv, op);
    out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, destination(x.getDest(), tv.shape.size(), op), op));
    out_.def.stmts.push_back(windowWrite(tv.name, source, op));
  }

  // The destination copied, then the one element: a write over a window of one point.
  void insertElementStatements(mlir::tensor::InsertOp x) {
    Operation* op = x;
    SourceLoc loc = locOf(op);
    TensorValue& tv = tensors_[x.getResult()];
    tv.name = resultName(op, 0);
    const size_t rank = tv.shape.size();
    out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, destination(x.getDest(), rank, op), op));
    StmtDecl s = assignment(tv.name, rank, op);
    for (size_t k = 0; k < rank; ++k) {
      const int64_t at = x.getIndices()[k].getDefiningOp<mlir::arith::ConstantIndexOp>().value();
      const std::optional<int64_t> extent = ext_.value(tv.shape[k]);
      if (at < 0 || (extent && at >= *extent))
        throw SourceError(loc, "tensor.insert writes at " + std::to_string(at) + " in dimension " + std::to_string(k) +
                                   ", outside 0:" + ext_.text(tv.shape[k]));
      s.where.push_back(WhereRange{"d" + std::to_string(k), loc, integer(at, loc), integer(at + 1, loc)});
    }
    s.rhs = scalar(x.getScalar(), loc, op);
    out_.def.stmts.push_back(std::move(s));
  }

  // R(o.., i..) = o*tile + i < extent && .. ? S(o*tile + i, ..) : padding: a select whose
  // condition is affine, so the read is made only inside the source (a guarded read).
  void paddedPackStatements(mlir::tensor::PackOp p, const PaddedPack& pp) {
    Operation* op = p;
    SourceLoc loc = locOf(op);
    TensorValue& tv = tensors_[p.getResult()];
    tv.name = resultName(op, 0);
    StmtDecl s = assignment(tv.name, tv.shape.size(), op);
    for (size_t k = 0; k < tv.shape.size(); ++k) where(s, "d" + std::to_string(k), tv.shape[k], loc);
    ExprPtr value = element(p.getSource(), pp.read, loc, op);
    for (auto it = pp.bounds.rbegin(); it != pp.bounds.rend(); ++it) {
      std::vector<ExprPtr> sel;
      sel.push_back(binary(ExprKind::Lt, subscript(it->first, loc), integer(it->second, loc), loc));
      sel.push_back(std::move(value));
      sel.push_back(scalar(p.getPaddingValue(), loc, op));
      value = node(ExprKind::Select, loc, std::move(sel));
    }
    s.rhs = std::move(value);
    out_.def.stmts.push_back(std::move(s));
  }

  // What an insert starts from: its destination's elements, or zeros over a tensor.empty
  // (whose elements MLIR leaves undefined), with a note.
  ExprPtr destination(Value dest, size_t rank, Operation* op) {
    SourceLoc loc = locOf(op);
    if (tensorOf(dest, op).kind != Kind::Empty)
      return element(dest, mlir::AffineMap::getMultiDimIdentityMap(unsigned(rank), op->getContext()), loc, op);
    out_.notes.push_back("the tensor.empty that " + opName(op) + " at line " + std::to_string(loc.line) +
                         " writes into starts as zeros (its other elements are undefined in MLIR)");
    return number(0.0, floatBits(mlir::cast<mlir::RankedTensorType>(dest.getType()).getElementType()), loc);
  }

  // One window write per operand: together they cover the result, each element once.
  // The last operand's is written first: TC gives a temporary the extents of its first
  // writer, and that one reaches the end of every dimension.
  void concatStatements(mlir::tensor::ConcatOp c) {
    Operation* op = c;
    TensorValue& tv = tensors_[c.getResult()];
    tv.name = resultName(op, 0);
    const std::string name = tv.name;
    const size_t dim = size_t(c.getDim());
    std::vector<int64_t> offsets(tv.shape.size(), 0);
    offsets[dim] = *ext_.value(tv.shape[dim]);
    const auto inputs = c.getInputs();
    std::vector<Window> windows;
    for (size_t i = inputs.size(); i-- > 0;) {
      offsets[dim] -= *ext_.value(tensorOf(inputs[i], op).shape[dim]);
      windows.push_back(window(inputs[i], offsets, op));
    }
    windowSplits(windows, tv, op);
    for (const Window& w : windows) out_.def.stmts.push_back(windowWrite(name, w, op));
  }

  static bool reads(const Expr& e, const std::string& tensor) {
    if (e.kind == ExprKind::Call && e.name == tensor) return true;
    for (auto& a : e.args)
      if (reads(*a, tensor)) return true;
    return false;
  }
  // An ids tensor that every reader read through its loop indices is computed for nothing.
  void dropSubstitutedIds() {
    for (const std::string& t : substituted_) {
      bool used = false;
      for (const TensorDecl& o : out_.def.outputs) used |= o.name == t;
      for (const StmtDecl& st : out_.def.stmts) used |= reads(*st.rhs, t);
      if (used) continue;
      auto& stmts = out_.def.stmts;
      stmts.erase(std::remove_if(stmts.begin(), stmts.end(), [&](const StmtDecl& st) { return st.lhs == t; }), stmts.end());
      out_.notes.push_back("'" + t + "' dropped: it was read only as ids computed from loop indices");
    }
  }
  static bool mentions(const Expr& e, const std::string& n) {
    if (e.kind == ExprKind::Name && e.name == n) return true;
    for (auto& a : e.args)
      if (mentions(*a, n)) return true;
    return false;
  }
};

// MLIR's parser recurses once per nested bracket, region or type parameter list and
// overflows the stack on deep nesting (mlir-opt too): the text is measured first.
// Strings and comments are skipped; '<' counts where it opens a type's parameters.
constexpr int kMaxNesting = 256;
void checkNesting(const std::string& text) {
  int depth = 0, line = 1, col = 0;
  std::vector<char> open;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    const bool typeList = c == '<' && i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (c == '(' || c == '[' || c == '{' || typeList) {
      open.push_back(c);
      if (++depth > kMaxNesting)
        throw SourceError({line, col}, "nested more than " + std::to_string(kMaxNesting) +
                                           " brackets, regions or type parameter lists deep (MLIR's parser would overflow its stack)");
    } else if ((c == ')' || c == ']' || c == '}' || (c == '>' && text[i - 1] != '-' && !open.empty() && open.back() == '<')) &&
               depth > 0) {
      open.pop_back();
      --depth;
    }
  }
}

// linalg.map as the generic it means (MLIR 19's generalization refuses it): identity
// maps, parallel loops, its body with the init's block argument added.
void generalizeMap(mlir::IRRewriter& rewriter, mlir::linalg::MapOp m) {
  const unsigned rank = unsigned(mlir::cast<mlir::ShapedType>(m.getInit().getType()).getRank());
  mlir::MLIRContext* ctx = m.getContext();
  llvm::SmallVector<mlir::AffineMap> maps(m.getInputs().size() + 1, mlir::AffineMap::getMultiDimIdentityMap(rank, ctx));
  llvm::SmallVector<mlir::utils::IteratorType> iters(rank, mlir::utils::IteratorType::parallel);
  mlir::Block& body = m.getMapper().front();
  auto g = rewriter.create<mlir::linalg::GenericOp>(
      m.getLoc(), m->getResultTypes(), m.getInputs(), mlir::ValueRange{m.getInit()}, maps, iters,
      [&](mlir::OpBuilder& b, mlir::Location loc, mlir::ValueRange args) {
        mlir::IRMapping map;
        for (unsigned i = 0; i < body.getNumArguments(); ++i) map.map(body.getArgument(i), args[i]);
        for (Operation& o : body.without_terminator()) b.clone(o, map);
        llvm::SmallVector<Value> yielded;
        for (Value v : body.getTerminator()->getOperands()) yielded.push_back(map.lookupOrDefault(v));
        b.create<mlir::linalg::YieldOp>(loc, yielded);
      });
  rewriter.replaceOp(m, g->getResults());
}

// ml_program: torch-mlir writes an unused `ml_program.global @global_seed` beside every
// function; cf: its bounds checks (cf.assert). Both must parse for the module to load.
void dialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::func::FuncDialect, mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect, mlir::ml_program::MLProgramDialect,
                  mlir::cf::ControlFlowDialect>();
  mlir::func::registerInlinerExtension(registry);  // func.call and func.return, for inlineCalls
}

// Calls from the entry function (a file's helpers, a model's layers written once)
// inlined, callees' calls in turn, with MLIR's own inliner utility: one function on
// tensors is what the importer reads. The callees stay in the module, unread.
constexpr int kMaxInlinedCalls = 10000;
void inlineCalls(mlir::func::FuncOp entry, std::vector<std::string>& notes) {
  // A cycle of calls (a function reaching itself through others) would unfold forever:
  // found first, by a walk of the call graph from the entry, and refused at the call
  // that closes it.
  std::map<Operation*, int> state;  // 1 on the walk's path, 2 done
  std::function<void(mlir::func::FuncOp)> walk = [&](mlir::func::FuncOp f) {
    state[f] = 1;
    f.walk([&](mlir::func::CallOp call) {
      auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(call, call.getCalleeAttr());
      if (!callee || callee.isExternal()) return;  // said at the call below
      if (state[callee] == 1)
        throw SourceError(locOf(call), "'@" + call.getCallee().str() + "' calls itself" +
                                           (callee == f ? "" : " through '@" + f.getSymName().str() + "'") +
                                           ": recursion cannot be inlined");
      if (state[callee] == 0) walk(callee);
    });
    state[f] = 2;
  };
  walk(entry);
  mlir::InlinerInterface inliner(entry.getContext());
  int inlined = 0;
  while (true) {
    std::vector<mlir::func::CallOp> calls;
    entry.walk([&](mlir::func::CallOp c) { calls.push_back(c); });
    if (calls.empty()) break;
    for (mlir::func::CallOp call : calls) {
      const std::string name = call.getCallee().str();
      if (++inlined > kMaxInlinedCalls)
        throw SourceError(locOf(call), "more than " + std::to_string(kMaxInlinedCalls) +
                                           " calls to inline (a recursive call to '@" + name + "'?)");
      auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(call, call.getCalleeAttr());
      if (!callee || callee.isExternal())
        throw SourceError(locOf(call), "call to '@" + name + "', which has no body in this file");
      if (mlir::failed(mlir::inlineCall(inliner, call, callee, &callee.getBody())))
        throw InternalError("MLIR cannot inline the call to '@" + name + "'");
      call.erase();
    }
  }
  if (inlined)
    notes.push_back(std::to_string(inlined) + " call(s) inlined into '@" + entry.getSymName().str() + "'");
}

// MLIR 19's own parser crashes on some malformed input (linalg.transpose's custom
// parser on a bad `permutation`, found by polyfuse-fuzz; mlir-opt-19 crashes too). The
// file is parsed first in a child process, so that such a crash is the file's error,
// not polyfuse's. A child that cannot be made leaves the parse to the process itself.
void parseInChild(const std::string& text, const std::string& path) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return;
  if (pid == 0) {
    // Silent: a crash is reported by the parent (a sanitizer's report would be noise).
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    mlir::DialectRegistry registry;
    dialects(registry);
    mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
    ctx.loadAllAvailableDialects();
    ctx.allowUnregisteredDialects(true);
    mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic&) { return mlir::success(); });
    mlir::ParserConfig config(&ctx);
    (void)mlir::parseSourceString<mlir::ModuleOp>(text, config, path);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A signal, or under a sanitizer its report's exit status.
  if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
    throw SourceError({1, 1}, "MLIR's parser crashes on this file (" +
                                  (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                       : "exit status " + std::to_string(WEXITSTATUS(status))) +
                                  "), as mlir-opt-19 does: malformed syntax of some op that MLIR 19 does not catch");
}

struct Diagnostics {
  SourceLoc loc;
  std::string message;
  bool any = false;
};

}  // namespace

// The importer follows a body's use-def chains recursively, up to kMaxExprHeight ops
// deep; a sanitizer's frames are several times larger, so the whole import runs on a
// thread with a stack of its own, large enough for that depth in any build.
template <class F>
static void onLargeStack(F& f) {
  struct Job {
    F* f;
    std::exception_ptr error;
  } job{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(512) << 20);
  pthread_t thread;
  auto run = [](void* p) -> void* {
    Job* j = static_cast<Job*>(p);
    try {
      (*j->f)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  const bool started = pthread_create(&thread, &attr, run, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {  // no thread to be had: the import runs here
    f();
    return;
  }
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

static LinalgImport importHere(const SourceFile& src, const std::string& entry);

LinalgImport importLinalg(const SourceFile& src, const std::string& entry) {
  LinalgImport out;
  auto work = [&] { out = importHere(src, entry); };
  onLargeStack(work);
  return out;
}

static LinalgImport importHere(const SourceFile& src, const std::string& entry) {
  if (src.text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw SourceError({1, 1}, "file is empty: expected a func.func on tensors");
  LinalgImport out;
  std::string text = readIreeBoundary(upgradeMlir(src.text, out.notes), out.notes);
  checkNesting(text);

  parseInChild(text, src.path);
  mlir::DialectRegistry registry;
  dialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.allowUnregisteredDialects(true);  // wrappers such as IREE's hal.executable
  ctx.printOpOnDiagnostic(false);
  Diagnostics diag;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic& d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error && !diag.any) {
      diag.any = true;
      diag.loc = locOf(d.getLocation());
      diag.message = d.str();
    }
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, src.path), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::Block parsed;
  if (mlir::failed(mlir::parseAsmSourceFile(sourceMgr, &parsed, config, &asmState))) {
    if (!diag.any) throw InternalError("MLIR's parser failed without a diagnostic");
    throw SourceError(diag.loc, diag.message);
  }
  const SsaNames names(asmState, sourceMgr);
  // Several top-level functions (without a module) are one implicit module, as mlir-opt reads them.
  mlir::OwningOpRef<mlir::ModuleOp> top = mlir::detail::constructContainerOpForParserIfNecessary<mlir::ModuleOp>(
      &parsed, &ctx, mlir::FileLineColLoc::get(&ctx, src.path, 0, 0));
  if (!top) throw InternalError("the parsed operations could not be put in a module");

  std::vector<mlir::func::FuncOp> fns;
  top->walk([&](mlir::func::FuncOp f) {
    if (!f.isExternal()) fns.push_back(f);
  });
  if (fns.empty()) throw SourceError({1, 1}, "no func.func with a body in this file");
  // The default entry is the first public function (a private one is a helper).
  mlir::func::FuncOp chosen;
  for (auto f : fns)
    if (entry.empty() ? !f.isPrivate() : f.getSymName() == entry) {
      chosen = f;
      break;
    }
  if (!chosen && entry.empty()) chosen = fns.front();
  if (!chosen) {
    std::string names;
    for (auto f : fns) names += (names.empty() ? "" : ", ") + f.getSymName().str();
    throw UsageError("no function named '" + entry + "' in " + src.path + " (it has: " + names + ")");
  }

  inlineCalls(chosen, out.notes);
  // A load of an ml_program global that nothing stores (global_load_const, or a
  // global_load with no global_store of it in the module) is its initial value: the
  // arith.constant it means, read as any constant is (a splat a fill, else an input).
  {
    std::set<std::string> stored;
    top->walk([&](mlir::ml_program::GlobalStoreOp st) { stored.insert(st.getGlobal().getLeafReference().str()); });
    std::vector<Operation*> loads;
    chosen.walk([&](Operation* op) {
      if (mlir::isa<mlir::ml_program::GlobalLoadConstOp, mlir::ml_program::GlobalLoadOp>(op)) loads.push_back(op);
    });
    mlir::IRRewriter rewriter(&ctx);
    for (Operation* op : loads) {
      auto ref = op->getAttrOfType<mlir::SymbolRefAttr>("global");
      const std::string name = ref ? ref.getLeafReference().str() : "";
      if (mlir::isa<mlir::ml_program::GlobalLoadOp>(op) && stored.count(name))
        throw SourceError(locOf(op), "ml_program.global_load of '@" + name + "', which the module stores to: a mutable global is not supported");
      auto global = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::ml_program::GlobalOp>(op, ref);
      std::optional<mlir::Attribute> value = global ? global.getValue() : std::nullopt;
      auto elements = value ? mlir::dyn_cast<mlir::ElementsAttr>(*value) : nullptr;
      if (!elements || elements.getType() != op->getResult(0).getType())
        throw SourceError(locOf(op), "'" + opName(op) + "' of '@" + name + "', which has no initial value of the loaded type");
      rewriter.setInsertionPoint(op);
      auto c = rewriter.create<mlir::arith::ConstantOp>(op->getLoc(), mlir::cast<mlir::TypedAttr>(elements));
      rewriter.replaceOp(op, c.getResult());
    }
  }
  // Aggregated ops (linalg.softmax) become the ops MLIR itself decomposes them into.
  {
    std::vector<mlir::linalg::AggregatedOpInterface> aggregated;
    chosen.walk([&](mlir::linalg::AggregatedOpInterface op) { aggregated.push_back(op); });
    mlir::IRRewriter rewriter(&ctx);
    for (auto op : aggregated) {
      rewriter.setInsertionPoint(op);
      mlir::FailureOr<llvm::SmallVector<Value>> parts = op.decomposeOperation(rewriter);
      if (mlir::failed(parts)) throw InternalError("MLIR cannot decompose '" + opName(op.getOperation()) + "'");
      rewriter.replaceOp(op, *parts);
    }
  }
  // Named ops (matmul, reduce, transpose, conv..) become generics; fills stay, to be
  // read as reduction inits.
  std::vector<mlir::linalg::LinalgOp> linalgOps;
  chosen.walk([&](mlir::linalg::LinalgOp op) { linalgOps.push_back(op); });
  mlir::IRRewriter rewriter(&ctx);
  for (auto op : linalgOps) {
    SourceLoc loc = locOf(op.getOperation());
    std::string what = opName(op.getOperation());
    if (!op.hasPureTensorSemantics()) throw SourceError(loc, "'" + what + "' works on memrefs; polyfuse imports tensors");
    if (mlir::isa<mlir::linalg::GenericOp, mlir::linalg::FillOp>(op.getOperation())) continue;
    rewriter.setInsertionPoint(op);
    if (auto m = mlir::dyn_cast<mlir::linalg::MapOp>(op.getOperation())) {
      generalizeMap(rewriter, m);
      continue;
    }
    if (mlir::failed(mlir::linalg::generalizeNamedOp(rewriter, op)))
      throw InternalError("MLIR cannot generalize '" + what + "'");
  }
  // Loops of extent 1 (a batch of one) dropped, as IREE does before forming dispatches:
  // the generics run on views (collapse_shape, expand_shape) of the same tensors.
  // Only the ops as written are rewritten (the greedy driver would also fold and reorder
  // the arithmetic in bodies, which must reach the TC program as written).
  {
    std::vector<Operation*> ops;
    chosen.walk([&](Operation* op) {
      if (mlir::isa<mlir::linalg::GenericOp, mlir::tensor::PadOp>(op)) ops.push_back(op);
    });
    mlir::RewritePatternSet patterns(&ctx);
    mlir::linalg::ControlDropUnitDims options;
    // An op whose result the function returns keeps its loops: the result has the
    // function's shape, and its name stays the output's.
    options.controlFn = [dropAll = options.controlFn](Operation* op) -> llvm::SmallVector<unsigned> {
      for (Value r : op->getResults())
        for (mlir::OpOperand& u : r.getUses())
          if (mlir::isa<mlir::func::ReturnOp>(u.getOwner())) return {};
      return dropAll(op);
    };
    mlir::linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    mlir::GreedyRewriteConfig config;
    config.strictMode = mlir::GreedyRewriteStrictness::ExistingOps;
    config.enableRegionSimplification = mlir::GreedySimplifyRegionLevel::Disabled;
    (void)mlir::applyOpPatternsAndFold(ops, mlir::FrozenRewritePatternSet(std::move(patterns)), config);
  }

  Importer(names, out).run(chosen);
  return out;
}

}  // namespace polyfuse

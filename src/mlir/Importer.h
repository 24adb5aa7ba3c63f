// The linalg importer's internals (src/mlir only): the state of one import, held in one
// place, and the converters that read each op family into TC statements, one file a
// family, found through one table (LinalgImport.cpp):
//   ConvertValues.cpp     the function's arguments and results, constants, fills, extents;
//   ConvertTensorOps.cpp  tensor views (reshapes, slices, packs) and writes (pad, insert, concat);
//   ConvertGeneric.cpp    linalg.generic (named ops are generalized first): statements per result;
//   BodyExpressions.cpp   the scalar ops of a generic's body, as TC expressions;
//   ImportSupport.cpp     names, subscripts and writes the families share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IndexRanges.h"
#include "mlir/LinalgImport.h"
#include "mlir/LoopFunction.h"
#include "polyir/Parser.h"
#include "polyir/Reduction.h"

namespace polyfuse::linalg_import {

using mlir::Operation;
using mlir::Value;

SourceLoc locOf(mlir::Location l);

SourceLoc locOf(Operation* op);

std::string opName(Operation* op);

// A union-find of loop and tensor extents, weighted: each is a multiple of its root, a
// literal or a named size (a collapse of N rows by 4 has extent 4 * N; an expand of it
// back to N x 4 unites N with the first extent again).
class Extents {
 public:
  int literal(int64_t v) { return add(v, ""); }
  int named(const std::string& n) { return add(-1, n); }
  // k * s, k >= 1.
  int scaled(int s, int64_t k) {
    const int t = add(-1, "");
    syms_[size_t(t)].parent = s;
    syms_[size_t(t)].weight = k;
    return t;
  }
  // Whether a and b are the same extent: the same root at the same weight (4 * N is not N).
  bool same(int a, int b) { return resolve(a) == resolve(b); }
  // The root r and weight w with s = w * r.
  std::pair<int, int64_t> resolve(int s) {
    int64_t w = 1;
    int r = s;
    while (syms_[size_t(r)].parent != r) {
      w *= syms_[size_t(r)].weight;
      r = syms_[size_t(r)].parent;
    }
    // Path compression: each sym on the path points at the root with its own weight.
    for (int64_t ws = w; s != r;) {
      Sym& x = syms_[size_t(s)];
      const int next = x.parent;
      const int64_t rest = ws / x.weight;
      x.parent = r;
      x.weight = ws;
      ws = rest, s = next;
    }
    return {r, w};
  }
  // a = b.
  void unite(int a, int b, SourceLoc where) { uniteScaled(a, b, 1, where); }
  // a = k * b.
  void uniteScaled(int a, int b, int64_t k, SourceLoc where) {
    auto [ra, wa] = resolve(a);
    auto [rb, wb] = resolve(b);
    wb *= k;
    const int64_t g = std::gcd(wa, wb);
    wa /= g, wb /= g;  // wa * ra = wb * rb
    Sym &x = syms_[size_t(ra)], &y = syms_[size_t(rb)];
    auto meet = [&] {
      return SourceError(where, "extents " + text(a) + " and " + (k == 1 ? "" : std::to_string(k) + " times ") + text(b) +
                                    " meet in one loop of this op");
    };
    if (ra == rb) {
      if (wa != wb) throw meet();
      return;
    }
    if (x.value >= 0 && y.value >= 0) {
      if (wa * x.value != wb * y.value) throw meet();
      return;  // the same number: nothing to merge (two literal roots stay apart)
    }
    // A literal absorbs a size, where it is a whole multiple of it.
    if (x.value >= 0 || y.value >= 0) {
      const bool litA = x.value >= 0;
      const int64_t num = litA ? wa * x.value : wb * y.value, den = litA ? wb : wa;
      if (num % den) throw meet();
      return link(litA ? rb : ra, literal(num / den), 1);
    }
    // Of two sizes, the one the other is a multiple of is the root; of equals the first
    // declared stays.
    if (wa == 1 && wb == 1) return ra < rb ? link(rb, ra, 1) : link(ra, rb, 1);
    if (wa == 1) return link(ra, rb, wb);
    if (wb == 1) return link(rb, ra, wa);
    throw SourceError(where, "extents " + text(a) + " and " + text(b) +
                                 " meet in one loop of this op, as multiples of two sizes neither is a multiple of");
  }
  std::string text(int s) {
    auto [r, w] = resolve(s);
    const Sym& x = syms_[size_t(r)];
    if (x.value >= 0) return std::to_string(w * x.value);
    return w == 1 ? x.name : std::to_string(w) + "*" + x.name;
  }
  std::optional<int64_t> value(int s) {  // the literal, if it is one
    auto [r, w] = resolve(s);
    const Sym& x = syms_[size_t(r)];
    return x.value >= 0 ? std::optional<int64_t>(w * x.value) : std::nullopt;
  }
  // The size s is a multiple of, and by how much; none for a literal.
  std::optional<std::pair<std::string, int64_t>> term(int s) {
    auto [r, w] = resolve(s);
    const Sym& x = syms_[size_t(r)];
    return x.value >= 0 ? std::nullopt : std::optional<std::pair<std::string, int64_t>>({x.name, w});
  }

 private:
  struct Sym {
    int parent;
    int64_t value;
    std::string name;
    int64_t weight = 1;  // this = weight * parent
  };
  std::vector<Sym> syms_;
  int add(int64_t v, const std::string& n) {
    syms_.push_back({int(syms_.size()), v, n});
    return int(syms_.size()) - 1;
  }
  void link(int child, int parent, int64_t weight) {
    syms_[size_t(child)].parent = parent;
    syms_[size_t(child)].weight = weight;
  }
};

using Shape = std::vector<int>;

constexpr int kMaxBodyNodes = 100000;  // a body's DAG unfolds into a tree: keep it bounded

ExprPtr node(ExprKind k, SourceLoc loc, std::vector<ExprPtr> args = {});

ExprPtr binary(ExprKind k, ExprPtr a, ExprPtr b, SourceLoc loc);

ExprPtr name(const std::string& n, SourceLoc loc);

// The shortest decimal spelling that reads back as the same value of `bits` width.
std::string decimal(double v, int bits);

ExprPtr number(double v, int bits, SourceLoc loc);

ExprPtr integer(int64_t v, SourceLoc loc);

ExprPtr call(const std::string& fn, SourceLoc loc, std::vector<ExprPtr> args);

// An integer attribute as a body holds it: its signed value, an i1 as 0 or 1 (the casts
// read it so: `sitofp` of an i1 is -x). IntegerAttr::getInt would give -1 for true.
int64_t integerValue(const llvm::APInt& i, bool isBool);

int64_t integerValue(mlir::IntegerAttr i);

// A constant defined by arith.constant (scalar, or the splat of a tensor): a float, or
// an integer as integerValue reads it.
std::optional<double> constantValue(Value v);

// A float of any width MLIR has, as a double (exact: every such float is one).
double toDouble(llvm::APFloat f);

// The elements a tensor constant states, row-major, as the program reads them (integers
// as integerValue does); none where the file leaves them out (`dense_resource<__elided__>`).
std::optional<std::vector<double>> constantElements(mlir::Attribute a);

int floatBits(mlir::Type t);
// A float format narrower than 16 bits (MLIR's f8 kinds), of a type or a tensor's elements.
bool isSmallFloat(mlir::Type t);

// The TC element type of a float or of a tensor's elements (checked f32, f64, i32 or
// i64 before).
ElemType elemType(mlir::Type t);

struct ResultForm {
  ReduceOp op = ReduceOp::Assign;
  Value value;        // the reduced value, or the assigned one
  bool readsInit = false;  // an elementwise result that reads its init operand
  bool dropped = false;    // never used, nor read by the results kept: not computed
  // An elementwise result whose map leaves out loops its value does not depend on: the
  // same value at every iteration of those, a statement over the loops it is indexed by.
  bool ownLoopsOnly = false;
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
  int64_t indexOffset = 0;  // a constant added to the position (IREE's arg_compare index_base)
  // A max or min in the unsigned order (maxui, minui, an unsigned cmpi with select) of
  // integers of this width held as their signed values (genericStatements reduces each
  // sign apart). 0: the values' own order.
  unsigned unsignedWidth = 0;
};

// Whether v is computed from `on` within the body: a walk over the body's DAG that
// visits each op once (a body whose ops each use the two before would otherwise take
// time exponential in its length), without recursion.
bool dependsOn(Value v, Value on, mlir::Block* body);
// The loops of generic g that v, a value of its body, depends on: through linalg.index,
// an operand's block argument (the loops its map reads), or ops of the body between.
std::vector<bool> loopsRead(Value v, mlir::linalg::GenericOp g);



// A cast that keeps an integer's value (to index, or wider): ids and positions are read
// through them.
bool keepsIntegerValue(Operation* d);


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

// Refuses (`message` at `loc`) indices that are not all arith.constant.
void requireConstantIndices(mlir::ValueRange indices, SourceLoc loc, const std::string& message);

class Importer {
 public:
  Importer(const SsaNames& names, LinalgImport& out) : names_(names), out_(out) {}
  void run(mlir::func::FuncOp fn);

 private:
  // What the importer does with one op: its first pass (the shapes of the tensors it
  // gives, the extents it equates) and its second (the statements it writes). Either may
  // be null. The table, by op name, is in LinalgImport.cpp.
  struct OpConverter {
    void (Importer::*shape)(Operation*) = nullptr;
    void (Importer::*statements)(Operation*) = nullptr;
  };
  static const OpConverter& converter(Operation* op);

  // ---- the state of one import ----

  const SsaNames& names_;
  LinalgImport& out_;
  mlir::func::FuncOp fn_;
  Extents ext_;
  llvm::DenseMap<Value, TensorValue> tensors_;
  llvm::DenseMap<Value, int> indexSyms_;     // index values that are extents
  std::vector<std::pair<int, SourceLoc>> indexArguments_;  // their extents, where declared
  llvm::DenseMap<Value, std::string> scalars_;
  std::map<Operation*, std::vector<ResultForm>> forms_;
  std::set<std::string> taken_;
  bool smallFloatNoted_ = false;  // the note on f8 storage is given once
  std::vector<Shape> paramShapes_;  // beside out_.def.params (empty for scalars)
  // Slices of a dynamic size: size + offset <= limit, as extents (named once all are).
  // sum of coefficient * extent, + offset <= limit (extents as ext_ numbers them).
  struct PendingBound {
    std::vector<std::pair<int, int64_t>> terms;
    int64_t offset;
    int limit;
    SourceLoc loc;
    std::string what;
  };
  std::vector<PendingBound> bounds_;
  int bodyNodes_ = 0;
  // A pack whose tiles run past its source: the read of the source, and per tiled index
  // that can leave it, that index and the source's extent.
  struct PaddedPack {
    mlir::AffineMap read;
    std::vector<std::pair<mlir::AffineExpr, int64_t>> bounds;
  };
  std::map<Operation*, PaddedPack> paddedPacks_;
  std::map<Operation*, std::vector<int>> loops_;  // per generic, the extent each loop ranges over
  struct Body {
    mlir::linalg::GenericOp g;  // null for scalar arithmetic outside any body
    std::vector<bool> used;     // which operands the expression reads
    Operation* at = nullptr;    // outside a body: the op whose reading needs the value
  };
  // Per split loop of the statement being built, its bounds, decreasing from the extent
  // to 1: sub-loop k spans bounds[k] / bounds[k + 1].
  std::map<unsigned, std::vector<int64_t>> split_;
  // A split loop whose extent is a multiple of a size (a collapse of `?x128`): that extent;
  // its bounds start from the multiple (128), and sub-loop 0 spans a multiple of the size.
  std::map<unsigned, int> splitExtent_;
  // Per parallel loop whose divisions do not nest in its extent (an unpack of 100 rows from
  // tiles of 32): the size of the aligned pieces it runs in instead, over each of which
  // every division of it is a constant or a shift (pieceLoops).
  struct Pieces {
    int64_t size, extent;
  };
  std::map<unsigned, Pieces> pieced_;
  std::string piecedError_;  // the error a pieced loop gives where pieces are not made
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
  using Build = std::function<ExprPtr()>;
  std::set<Operation*> gatherNoted_;  // the notes said once per op: gathers, computed ids, fitted subscripts
  std::map<Operation*, size_t> gatherNote_;  // per linalg op, its gather note (pushPieces rewrites it)
  std::set<Operation*> idsNoted_;
  std::map<std::string, ElemType> integerIds_;
  // Subscripts a body computes from its operands (a lookup table's index), each stored
  // first as an id tensor over the op's loops: the tensor's name, by the index value.
  std::map<const void*, std::string> computedSubscripts_;
  // Per op and subscript a division of several loops, the id tensor that holds it.
  std::map<std::pair<Operation*, const void*>, std::string> divisionIds_;
  std::set<std::string> substituted_;  // ids tensors read only through such subscripts may be dropped
  llvm::DenseMap<Value, std::optional<mlir::AffineExpr>> indexAffine_;  // indexAffine's answers
  std::set<Operation*> fittedNoted_;
  using ArgAffine = std::function<std::optional<mlir::AffineExpr>(mlir::BlockArgument)>;
  static constexpr size_t kMaxPieces = 64;
  static constexpr const char* kPiecePart = "pf_piece_part";  // floor(d / inner) [mod n] of a pieced loop  // pieces a statement over constant id tables runs in, at most
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

  int pieceExtent(unsigned d, size_t k);
  static std::string subLoop(unsigned d, size_t k) { return "d" + std::to_string(d) + "_" + std::to_string(k); }
  static std::optional<mlir::AffineExpr> noArgs(mlir::BlockArgument) { return std::nullopt; }
  bool sameExtent(int a, int b) { return ext_.same(a, b) || (ext_.value(a) && ext_.value(a) == ext_.value(b)); }

  // ---- ConvertValues.cpp: the function's arguments and results, constants, fills and extents ----
  void sizeBounds();
  void windowBounds(mlir::linalg::GenericOp g, const std::vector<int>& loops, SourceLoc loc);
  void arguments();
  int indexSym(Value v, Operation* at);
  // (at most kMaxFoldOps ops are followed: a longer computation does not fold)
  static constexpr int kMaxFoldOps = 1024;
  static std::optional<int64_t> foldedInteger(Value v);
  static std::optional<int64_t> foldedInteger(Value v, int& budget);
  static std::optional<std::vector<int64_t>> foldedList(llvm::ArrayRef<mlir::OpFoldResult> list);
  std::vector<int64_t> padAmounts(mlir::tensor::PadOp p, bool low);
  void checkWindow(Operation* op, const std::string& what, size_t k, int64_t offset, int64_t stride, int size, int of);
  std::optional<int64_t> arithOfKnownExtents(Value v, Operation* at);
  std::optional<int> dividedExtent(Value v, Operation* at);
  static std::optional<int64_t> foldedNumber(mlir::OpFoldResult r);
  std::vector<int64_t> knownTiles(Operation* op, llvm::ArrayRef<mlir::OpFoldResult> mixed);
  std::optional<int> appliedExtent(mlir::affine::AffineApplyOp a, Operation* at);
  void fillShape(Value result, Value v, Shape shape, Operation* op);
  bool outsideScalar(Value v) const;
  bool integerArgument(Value v) const;
  static bool scalarArith(Operation* d);
  void dropSubstitutedIds();
  void constantShape(Operation* op);
  void dimShape(Operation* op);
  void emptyShape(Operation* op);
  void fillOpShape(Operation* op);
  void splatShape(Operation* op);
  void fromElementsShape(Operation* op);
  void extractShape(Operation* op);
  void assertShape(Operation* op);
  void fillStatements(Operation* op);
  void returnStatements(Operation* op);
  TensorDecl outputDecl(const std::string& name, mlir::Type type, const Shape& shape, SourceLoc loc);

  // ---- ConvertTensorOps.cpp: tensor views and writes ----
  void expand(Operation* op);
  void collapse(Operation* op);
  void packView(Operation* op, Value source, llvm::ArrayRef<int64_t> innerPos, llvm::ArrayRef<int64_t> tiles,
                llvm::ArrayRef<int64_t> outerPerm, bool pack, bool padded);
  void reshape(Operation* op);
  void slice(Operation* op);
  void padShape(Operation* op);
  void insertShape(Operation* op);
  void concatShape(Operation* op);
  Window window(Value source, std::vector<int64_t> offsets, Operation* op);
  // A window read divided along a dimension it covers only in part (a concatenation
  // after a collapse_shape: ViT's class token before its patches) is written in pieces,
  // at most this many, over each of which the division is constant.
  static constexpr size_t kMaxWindowPieces = 64;
  std::vector<StmtDecl> windowWrites(const std::string& tensor, const Window& w, const std::set<unsigned>& pieced,
                                     Operation* op);
  std::set<unsigned> windowSplits(const std::vector<Window>& windows, TensorValue& result, Operation* op);
  void padStatements(Operation* op);
  void insertStatements(Operation* op);
  void insertElementStatements(Operation* op);
  void paddedPackStatements(Operation* op, const PaddedPack& pp);
  ExprPtr destination(Value dest, size_t rank, Operation* op);
  void concatStatements(Operation* op);
  void castShape(Operation* op);
  void packShape(Operation* op);
  void unpackShape(Operation* op);
  void insertElementShape(Operation* op);
  void packStatements(Operation* op);

  // ---- ConvertGeneric.cpp: linalg.generic ----
  void analyze(mlir::linalg::GenericOp g);
  void computedIds(Value i, const std::string& tensor);
  static bool isIdentity(ReduceOp op, double c);
  void pushPieces(StmtDecl s, Operation* op);
  std::vector<StmtDecl> pieceLoops(StmtDecl s);
  void genericShape(Operation* op);
  void genericStatements(Operation* op);

  // ---- BodyExpressions.cpp: a generic's body as expressions ----
  ExprPtr expr(Value v, Body& b);
  static unsigned intWidth(mlir::Type t);
  static bool isCast(Operation* d);
  static ExprPtr widthCall(const char* fn, ExprPtr x, unsigned width, SourceLoc loc);
  static ExprPtr negated(ExprPtr x, SourceLoc loc);
  static ExprPtr rounded(ExprPtr x, Value v, SourceLoc loc, unsigned from = 0);
  static ExprPtr cast(Operation* d, ExprPtr x, SourceLoc loc);
  static ExprPtr selectNode(ExprPtr c, ExprPtr x, ExprPtr y, SourceLoc loc);
  static ExprPtr unsignedOrder64(ExprKind k, const ExprPtr& a, const ExprPtr& b, SourceLoc loc);
  ExprPtr choose(Value c, const Build& x, const Build& y, Body& b);
  ExprPtr extract(mlir::tensor::ExtractOp x, Body& b);
  std::optional<std::pair<ExprPtr, mlir::AffineExpr>> computedLoopIds(Value i, Body& b, const std::string& table, SourceLoc loc);
  ExprPtr computedSubscript(Value i, ExprPtr value, Body& b, SourceLoc loc);
  std::optional<std::pair<int64_t, int64_t>> span(mlir::AffineExpr e, const std::vector<int>& loops);
  std::optional<mlir::AffineExpr> indexAffine(Value i, mlir::linalg::GenericOp g);
  std::optional<mlir::AffineExpr> computeIndexAffine(Value i, mlir::linalg::GenericOp g);
  static bool divides(mlir::AffineExpr e);
  static bool splitsLoops(mlir::AffineExpr e);
  static bool nonNegative(mlir::AffineExpr e);
  static std::optional<mlir::AffineExpr> loopAffine(Value v, mlir::linalg::GenericOp g, const ArgAffine& arg);

  // ---- ImportSupport.cpp: names, subscripts and writes shared by the families ----
  std::string identifier(std::string n, bool boundary = false);
  std::string argName(SourceLoc loc) const;
  std::string ssaName(Value v) const;  // as the file spells it, without %; "" when it has none
  std::string resultName(Operation* op, unsigned k);
  mlir::RankedTensorType tensorType(Value v, Operation* at);
  TensorValue& tensorOf(Value v, Operation* at);
  int extentOf(mlir::OpFoldResult r, Operation* at);
  ExprPtr extent(int sym, SourceLoc loc);
  void view(Operation* op, Value source, Shape shape, const std::vector<mlir::AffineExpr>& exprs);
  void param(const TensorDecl& d, const Shape& shape);
  void nameSizes();
  void declareSizes();
  void dims(TensorDecl& d, const Shape& shape);
  ExprPtr splitPart(unsigned d, int64_t inner, int64_t n, SourceLoc loc);
  static std::optional<std::tuple<unsigned, int64_t, int64_t>> collapsedPart(mlir::AffineExpr e);
  void splitLoops(mlir::linalg::GenericOp g, const std::vector<int>& loops);
  void splitLoops(const std::vector<mlir::AffineMap>& maps, const std::vector<int>& loops, SourceLoc loc);
  void splitResult(TensorValue& tv, mlir::AffineMap om, mlir::MLIRContext* ctx);
  std::string shapeText(const Shape& shape);
  ExprPtr loopName(unsigned d, SourceLoc loc);
  ExprPtr subscript(mlir::AffineExpr e, SourceLoc loc);
  ExprPtr affineValue(mlir::AffineExpr e, mlir::ValueRange operands, unsigned dims, Body& b, SourceLoc loc);
  ExprPtr affineInteger(mlir::AffineExpr e, SourceLoc loc, const std::function<ExprPtr(mlir::AffineExpr)>& leaf);
  bool nameable(mlir::AffineExpr e);
  std::string idTensor(mlir::linalg::GenericOp g, ExprPtr value, ElemType type, SourceLoc loc,
                       std::vector<unsigned> dims = {});
  std::pair<Value, mlir::AffineMap> throughViews(Value v, mlir::AffineMap map, Operation* at);
  ExprPtr element(Value v0, mlir::AffineMap map0, SourceLoc loc, Operation* at);
  ExprPtr dataElement(Value v, mlir::AffineMap map, SourceLoc loc, Operation* at);
  ExprPtr scalar(Value v, SourceLoc loc, Operation* at);
  static bool unread(Value v);
  static bool returned(Value v);
  static Value castSource(Value v);
  void where(StmtDecl& s, const std::string& dim, int sym, SourceLoc loc);
  static std::vector<unsigned> writtenLoops(mlir::AffineMap om);
  void lhs(StmtDecl& s, mlir::AffineMap m, SourceLoc loc);
  void splitWheres(StmtDecl& s, SourceLoc loc, const std::set<unsigned>* only = nullptr);
  void loopWhere(StmtDecl& s, unsigned d, int sym, SourceLoc loc);
  StmtDecl assignment(const std::string& tensor, size_t rank, Operation* op);
  StmtDecl wholeWrite(const std::string& tensor, const Shape& shape, ExprPtr value, Operation* op);
  static bool reads(const Expr& e, const std::string& tensor);
};

}  // namespace polyfuse::linalg_import

// The function around the computation: its arguments and results, constants, fills,
// empties and the extents index values name.
#include "mlir/Importer.h"
#include "mlir/TensorBuilders.h"

#include <functional>
#include <limits>
#include <set>

namespace polyfuse::linalg_import {

void Importer::run(mlir::func::FuncOp fn) {
  fn_ = fn;
  if (!fn.getBody().hasOneBlock())
    throw SourceError(locOf(fn), "function '" + fn.getSymName().str() + "' has more than one block");
  out_.def.name = identifier(fn.getSymName().str());
  out_.def.loc = locOf(fn);
  arguments();
  mlir::Block& body = fn.getBody().front();
  for (Operation& op : body)
    if (auto shape = converter(&op).shape) (this->*shape)(&op);
  nameSizes();
  declareSizes();
  sizeBounds();
  for (Operation& op : body) {
    split_.clear();  // a generic sets the loops a collapse splits; other ops read loops as they are
    splitExtent_.clear();
    pieced_.clear();
    if (auto statements = converter(&op).statements) (this->*statements)(&op);
  }
  dropSubstitutedIds();
  // Every computed float tensor keeps its type: TC would give it the first float tensor
  // parameter's (an f16 input's attention would store its f32 state as half). An f64 one
  // makes the program compute in double, where MLIR computes only its own ops so: the
  // truncf after it rounds to f32 all the same.
  std::set<std::pair<std::string, ElemType>> typed;
  for (auto& [v, tv] : tensors_) {
    const ElemType t = elemType(v.getType());
    const bool isFloat = t == ElemType::F32 || t == ElemType::F64 || isNarrowFloat(t);
    if (tv.kind == Kind::Computed && !tv.name.empty() && isFloat) typed.insert({tv.name, t});
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

// An index argument's extent that no input's shape names (`tensor.empty(%n)` of an
// output) is a size the signature declares.
void Importer::declareSizes() {
  std::set<std::string> shaped;
  for (const Shape& shape : paramShapes_)
    for (int e : shape)
      if (auto t = ext_.term(e)) shaped.insert(t->first);
  for (auto [s, loc] : indexArguments_)
    if (auto t = ext_.term(s); t && shaped.insert(t->first).second) out_.def.sizes.push_back({t->first, loc});
}

// The bounds the slices and windows need, on the program's sizes: static extents folded
// into the offset; a static bound is checked here; a size that is the limit itself, from
// offset 0 or below, needs none.
void Importer::sizeBounds() {
  std::set<std::tuple<std::vector<std::pair<std::string, int64_t>>, int64_t, std::string>> seen;
  for (const PendingBound& b : bounds_) {
    int64_t offset = b.offset;
    std::map<std::string, int64_t> named;
    for (auto [e, k] : b.terms) {
      if (std::optional<int64_t> n = ext_.value(e)) {
        offset += k * *n;
      } else {
        auto [size, w] = *ext_.term(e);
        named[size] += k * w;
      }
    }
    std::optional<int64_t> limit = ext_.value(b.limit);
    std::vector<std::pair<std::string, int64_t>> terms;
    for (auto& [n, k] : named)
      if (k) terms.push_back({n, k});
    if (terms.size() == 1 && offset <= 0 && ext_.term(b.limit) == terms[0]) continue;
    if (terms.empty()) {
      // A window of static extents is checked by Sema, as every access is.
      if (limit && offset > *limit && b.terms.size() == 1)
        throw SourceError(b.loc, b.what + " takes " + std::to_string(offset - b.offset) + " elements from " +
                                     std::to_string(b.offset) + " of a dimension of " + std::to_string(*limit));
      continue;  // a literal against a size: the size's own check (>= 1) cannot say; MLIR's verifier did
    }
    const std::string lim = ext_.text(b.limit);
    if (!seen.insert({terms, offset, lim}).second) continue;
    out_.def.sizeBounds.push_back({terms, offset, lim, b.loc, b.what});
  }
}

void Importer::arguments() {
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
    // An index argument is a size (MLIR's tests and hand-written kernels pass extents as
    // `index` values to `tensor.empty`): a named size of the program, given with --size
    // where no tensor's shape implies it, read where a body uses it.
    if (a.getType().isIndex()) {
      if (!a.use_empty()) indexArguments_.push_back({indexSyms_[a] = ext_.named(nm), loc});
      continue;
    }
    // An integer argument (torch-mlir passes an op's number operands, `dim`, `keepdim`, as
    // i64 arguments, most of them already folded into the ops) is a rank-0 integer input,
    // read where used as its one element.
    if (mlir::isa<mlir::IntegerType>(a.getType())) {
      d.type = elemType(a.getType());
      d.hasShape = true;
      TensorValue tv(Kind::Input);
      tv.name = nm;
      tensors_[a] = tv;
      param(d, {});
      continue;
    }
    if (!mlir::isa<mlir::RankedTensorType>(a.getType()))
      throw SourceError(loc, "argument '" + nm + "' is neither a ranked tensor, a number nor an index");
    auto t = tensorType(a, fn_);
    TensorValue tv(Kind::Input);
    tv.name = nm;
    // A dynamic extent's size is named after its argument; the name is taken, so that no
    // tensor named later (a buffer's next value, `arg2_1`) is named as a size.
    for (int64_t k = 0; k < t.getRank(); ++k) {
      if (!t.isDynamicDim(k)) {
        tv.shape.push_back(ext_.literal(t.getDimSize(k)));
        continue;
      }
      // (an index argument named so before it keeps its name: this size takes another)
      const std::string size = identifier(nm + "_" + std::to_string(k));
      tv.shape.push_back(ext_.named(size));
    }
    d.type = elemType(t);
    d.hasShape = true;
    tensors_[a] = tv;
    param(d, tv.shape);
  }
}

namespace {

// n as a value of `type`: an integer narrower than 64 bits holds it only where it fits
// (MLIR wraps what does not, and leaves such an op unfolded here); an index is 64 bits.
std::optional<int64_t> fitsWidth(int64_t n, mlir::Type type) {
  const unsigned width = type.isIntOrIndex() && !type.isIndex() ? type.getIntOrFloatBitWidth() : 64;
  if (width >= 64 || width <= 1) return n;
  const int64_t lim = int64_t(1) << (width - 1);
  return n >= -lim && n < lim ? std::optional<int64_t>(n) : std::nullopt;
}

// What MLIR's folder makes of an integer arith op (addi .. minui) of two known operands;
// nothing where it leaves the op: an unknown op, an unsigned op of a negative, a division
// by zero, or a result that overflows 64 bits or wraps in the result's narrower type.
std::optional<int64_t> foldedArith(Operation* d, int64_t a, int64_t b) {
  if (d->getNumOperands() != 2 || d->getNumResults() != 1 || d->getName().getDialectNamespace() != "arith")
    return std::nullopt;
  const mlir::Type type = d->getResult(0).getType();
  if (!type.isIntOrIndex()) return std::nullopt;
  const std::string name = d->getName().stripDialect().str();
  static const std::set<std::string> known = {"addi",       "subi",  "muli",  "divsi", "divui", "ceildivsi", "ceildivui",
                                              "floordivsi", "remsi", "remui", "maxsi", "maxui", "minsi",     "minui"};
  if (!known.count(name)) return std::nullopt;
  const bool isUnsigned = name[name.size() - 2] == 'u';
  const bool divides = name.find("div") != std::string::npos || name.find("rem") != std::string::npos;
  if ((isUnsigned && (a < 0 || b < 0)) || (divides && b == 0)) return std::nullopt;
  int64_t r = 0;
  if (name == "addi" && __builtin_add_overflow(a, b, &r)) return std::nullopt;
  if (name == "subi" && __builtin_sub_overflow(a, b, &r)) return std::nullopt;
  if (name == "muli" && __builtin_mul_overflow(a, b, &r)) return std::nullopt;
  if (divides && a == std::numeric_limits<int64_t>::min() && b == -1) return std::nullopt;
  if (name == "divsi" || name == "divui") r = a / b;
  if (name == "remsi" || name == "remui") r = a % b;
  if (name == "ceildivsi" || name == "ceildivui") r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
  if (name == "floordivsi") r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
  if (name == "maxsi" || name == "maxui") r = std::max(a, b);
  if (name == "minsi" || name == "minui") r = std::min(a, b);
  return fitsWidth(r, type);
}

}  // namespace

// An integer or index value that folds to a constant: arith.constant, the casts between
// integer widths and index (torch-mlir computes sizes and pads in i64, then casts them),
// the integer arith ops of such (+ - * / rem max min: foldedArith), affine.apply of such, a
// static dimension's tensor.dim, and cmpi and select of such (the clamps of a slice's
// bounds); nothing else (a dynamic dimension's tensor.dim stays an extent).
std::optional<int64_t> Importer::foldedInteger(Value v) {
  int budget = kMaxFoldOps;
  return foldedInteger(v, budget);
}
std::optional<int64_t> Importer::foldedInteger(Value v, int& budget) {
  Operation* d = v ? v.getDefiningOp() : nullptr;
  if (!d || --budget < 0) return std::nullopt;
  // A value of an integer type narrower than 64 bits folds only where it fits it: MLIR
  // wraps what does not (an index is 64 bits here).
  auto fits = [&](std::optional<int64_t> n) { return n ? fitsWidth(*n, v.getType()) : n; };
  if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d)) {
    auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue());
    if (!i) return std::nullopt;
    return i.getType().isInteger(1) ? int64_t(i.getValue().getZExtValue()) : i.getValue().getSExtValue();
  }
  if (mlir::isa<mlir::arith::IndexCastOp, mlir::arith::ExtSIOp>(d)) return fits(foldedInteger(d->getOperand(0), budget));
  if (mlir::isa<mlir::arith::IndexCastUIOp, mlir::arith::ExtUIOp>(d)) {
    const std::optional<int64_t> n = foldedInteger(d->getOperand(0), budget);
    return n && *n >= 0 ? fits(n) : std::nullopt;
  }
  if (d->getNumOperands() == 2 && mlir::isa<mlir::arith::ArithDialect>(d->getDialect()) && !mlir::isa<mlir::arith::CmpIOp>(d)) {
    const std::optional<int64_t> a = foldedInteger(d->getOperand(0), budget), b = foldedInteger(d->getOperand(1), budget);
    return a && b ? foldedArith(d, *a, *b) : std::nullopt;
  }
  // A static dimension's tensor.dim, and the clamps torch-mlir and IREE's tests build from
  // it with cmpi and select (a slice's bounds): what MLIR's folder makes of them.
  if (auto dim = mlir::dyn_cast<mlir::tensor::DimOp>(d)) {
    auto t = mlir::dyn_cast<mlir::RankedTensorType>(dim.getSource().getType());
    const std::optional<int64_t> k = foldedInteger(dim.getIndex(), budget);
    if (!t || !k || *k < 0 || *k >= t.getRank() || t.isDynamicDim(*k)) return std::nullopt;
    return t.getDimSize(*k);
  }
  if (auto c = mlir::dyn_cast<mlir::arith::CmpIOp>(d)) {
    const std::optional<int64_t> a = foldedInteger(c.getLhs(), budget), b = foldedInteger(c.getRhs(), budget);
    if (!a || !b) return std::nullopt;
    using P = mlir::arith::CmpIPredicate;
    const uint64_t ua = uint64_t(*a), ub = uint64_t(*b);
    switch (c.getPredicate()) {
      case P::eq: return int64_t(*a == *b);
      case P::ne: return int64_t(*a != *b);
      case P::slt: return int64_t(*a < *b);
      case P::sle: return int64_t(*a <= *b);
      case P::sgt: return int64_t(*a > *b);
      case P::sge: return int64_t(*a >= *b);
      default: break;
    }
    if (*a < 0 || *b < 0) return std::nullopt;  // unsigned order of a negative: its width decides
    switch (c.getPredicate()) {
      case P::ult: return int64_t(ua < ub);
      case P::ule: return int64_t(ua <= ub);
      case P::ugt: return int64_t(ua > ub);
      case P::uge: return int64_t(ua >= ub);
      default: return std::nullopt;
    }
  }
  if (auto s = mlir::dyn_cast<mlir::arith::SelectOp>(d)) {
    if (!s.getCondition().getType().isInteger(1)) return std::nullopt;
    const std::optional<int64_t> c = foldedInteger(s.getCondition(), budget);
    if (!c) return std::nullopt;
    return foldedInteger(*c ? s.getTrueValue() : s.getFalseValue(), budget);
  }
  if (auto a = mlir::dyn_cast<mlir::affine::AffineApplyOp>(d)) {
    std::vector<mlir::AffineExpr> dims, syms;
    for (unsigned i = 0; i < a.getMapOperands().size(); ++i) {
      const std::optional<int64_t> n = foldedInteger(a.getMapOperands()[i], budget);
      if (!n) return std::nullopt;
      (i < a.getAffineMap().getNumDims() ? dims : syms).push_back(mlir::getAffineConstantExpr(*n, a.getContext()));
    }
    mlir::AffineExpr e = mlir::simplifyAffineExpr(a.getAffineMap().getResult(0).replaceDimsAndSymbols(dims, syms), 0, 0);
    if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return c.getValue();
  }
  return std::nullopt;
}

// An offset, stride, pad amount or tile given as an attribute or as a value that folds.
std::optional<int64_t> Importer::foldedNumber(mlir::OpFoldResult r) {
  if (auto a = mlir::dyn_cast<mlir::Attribute>(r)) {
    if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(a)) return i.getInt();
    return std::nullopt;
  }
  return foldedInteger(mlir::cast<Value>(r));
}

std::optional<std::vector<int64_t>> Importer::foldedList(llvm::ArrayRef<mlir::OpFoldResult> list) {
  std::vector<int64_t> out;
  for (mlir::OpFoldResult r : list) {
    const std::optional<int64_t> n = foldedNumber(r);
    if (!n) return std::nullopt;
    out.push_back(*n);
  }
  return out;
}

int Importer::indexSym(Value v, Operation* at) {
  if (auto it = indexSyms_.find(v); it != indexSyms_.end()) return it->second;
  if (std::optional<int64_t> n = foldedInteger(v)) {
    // MLIR's verifiers let a constant size or offset be negative (canonicalization tests
    // write them); no tensor has such an extent.
    if (*n < 0) throw SourceError(locOf(at), "an extent or offset here is negative (" + std::to_string(*n) + ")");
    return indexSyms_[v] = ext_.literal(*n);
  }
  // An extent through i64 and back (torch-mlir's sizes are torch ints), plus 0 or times 1
  // (what a shape computation leaves after folding): the same extent. Followed as a loop,
  // so that no chain of them runs the stack out.
  Value w = v;
  for (int steps = 0; steps < kMaxFoldOps && w.getDefiningOp() && !indexSyms_.count(w); ++steps) {
    Operation* d = w.getDefiningOp();
    if (mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp>(d)) {
      w = d->getOperand(0);
      continue;
    }
    if (!mlir::isa<mlir::arith::AddIOp, mlir::arith::SubIOp, mlir::arith::MulIOp>(d) || foldedInteger(w)) break;
    const int64_t unit = mlir::isa<mlir::arith::MulIOp>(d) ? 1 : 0;
    if (foldedInteger(d->getOperand(1)) == unit) w = d->getOperand(0);
    else if (!mlir::isa<mlir::arith::SubIOp>(d) && foldedInteger(d->getOperand(0)) == unit) w = d->getOperand(1);
    else break;
  }
  if (w != v) return indexSyms_[v] = indexSym(w, at);
  if (auto a = v.getDefiningOp<mlir::affine::AffineApplyOp>())
    if (std::optional<int> s = appliedExtent(a, at)) return indexSyms_[v] = *s;
  if (std::optional<int> s = dividedExtent(v, at)) return indexSyms_[v] = *s;
  if (std::optional<int64_t> n = arithOfKnownExtents(v, at)) return indexSyms_[v] = ext_.literal(*n);
  throw SourceError(locOf(at), "an extent here is computed by an op polyfuse does not follow "
                               "(extents must be constants, tensor.dim of a tensor, or affine.apply of those "
                               "that is one extent or a constant)");
}

// A size divided by a constant k (an expand's output_shape computed as `dim / 384`, a
// reshape to `2x?`): a multiple of a size where the size is one of k already, else the size
// is taken to be a multiple of k, a new size times k, with a note (the division is exact
// only so, as the expand that uses it requires; a floor division elsewhere would have
// other values at other sizes).
std::optional<int> Importer::dividedExtent(Value v, Operation* at) {
  Operation* d = v.getDefiningOp();
  if (!d || !mlir::isa<mlir::arith::DivUIOp, mlir::arith::DivSIOp, mlir::arith::FloorDivSIOp, mlir::arith::CeilDivUIOp,
                       mlir::arith::CeilDivSIOp>(d))
    return std::nullopt;
  const std::optional<int64_t> k = foldedInteger(d->getOperand(1));
  if (!k || *k <= 0) return std::nullopt;
  const int n = indexSym(d->getOperand(0), at);
  if (ext_.value(n)) return std::nullopt;  // a literal: arithOfKnownExtents folds it
  auto [root, w] = ext_.resolve(n);
  if (w % *k == 0) return w == *k ? root : ext_.scaled(root, w / *k);
  // w * root = k * q: root = (k / g) * t and q = (w / g) * t for a new size t.
  const int64_t g = std::gcd(w, *k);
  const std::string rootName = ext_.text(root);
  const std::string name = identifier(rootName + "_d" + std::to_string(*k / g));
  const int t = ext_.named(name);
  ext_.uniteScaled(root, t, *k / g, locOf(at));
  out_.notes.push_back("size '" + rootName + "' is read as " + std::to_string(*k / g) + " * '" + name + "': the division by " +
                       std::to_string(*k) + " at line " + std::to_string(locOf(d).line) + " is exact only so");
  return w / g == 1 ? t : ext_.scaled(t, w / g);
}

// Integer arithmetic on extents whose values are known (a dynamic constant's, a tensor.dim
// of a tensor cast from a static shape): the number it gives, as MLIR's folder computes it.
// IREE's tests size a pack's destination as `arith.ceildivui %dim, %tile`.
std::optional<int64_t> Importer::arithOfKnownExtents(Value v, Operation* at) {
  Operation* d = v.getDefiningOp();
  if (!d || d->getNumOperands() != 2 || !mlir::isa<mlir::arith::ArithDialect>(d->getDialect()) || mlir::isa<mlir::arith::CmpIOp>(d))
    return std::nullopt;
  const std::optional<int64_t> a = ext_.value(indexSym(d->getOperand(0), at)), b = ext_.value(indexSym(d->getOperand(1), at));
  return a && b ? foldedArith(d, *a, *b) : std::nullopt;
}

// affine.apply over extents (dropping unit loops writes 1 * n): a constant, or exactly
// one extent; anything else is not one size.
std::optional<int> Importer::appliedExtent(mlir::affine::AffineApplyOp a, Operation* at) {
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
      if (extent && !ext_.same(*extent, s)) return std::nullopt;
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
void Importer::fillShape(Value result, Value v, Shape shape, Operation* op) {
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
bool Importer::outsideScalar(Value v) const {
  std::set<Operation*> seen;  // arithmetic shares operands: each op is looked at once
  std::function<bool(Value)> named = [&](Value u) {
    if (scalars_.count(u) || constantValue(u) || indexSyms_.count(u) || integerArgument(u)) return true;
    Operation* d = u.getDefiningOp();
    if (auto c = mlir::dyn_cast_or_null<mlir::arith::ConstantOp>(d)) return mlir::isa<mlir::IntegerAttr>(c.getValue());
    if (d && (isCast(d) || scalarArith(d)))
      return !seen.insert(d).second || std::all_of(d->operand_begin(), d->operand_end(), named);
    if (auto x = mlir::dyn_cast_or_null<mlir::tensor::ExtractOp>(d))
      return std::all_of(x.getIndices().begin(), x.getIndices().end(),
                         [](Value i) { return bool(i.getDefiningOp<mlir::arith::ConstantIndexOp>()); });
    return false;
  };
  return named(v);
}

// An ids tensor that every reader read through its loop indices is computed for nothing.
void Importer::dropSubstitutedIds() {
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

// A tensor constant: a fill when a splat, else an input holding the file's elements.
void Importer::constantShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto c = mlir::cast<mlir::arith::ConstantOp>(op);
  if (onlyReshapeShape(c)) return;
  if (auto t = mlir::dyn_cast<mlir::RankedTensorType>(c.getType())) {
    tensorType(c, op);
    TensorValue tv;
    for (int64_t d : t.getShape()) tv.shape.push_back(ext_.literal(d));
    if (mlir::isa<mlir::SplatElementsAttr>(c.getValue()) && !c->hasAttr("polyfuse.unfoldable")) {
      tv.kind = Kind::Fill;
      tv.fill = c;
    } else {  // a weight: an input of the program, filled like the others by exec
      tv.kind = Kind::Input;
      auto external = c->getAttrOfType<mlir::StringAttr>("polyfuse.external");  // a global's load: its name
      tv.name = external ? identifier(external.str()) : resultName(op, 0);
      TensorDecl d;
      d.name = tv.name;
      d.loc = loc;
      d.type = elemType(t);
      d.hasShape = true;
      param(d, tv.shape);
      // exec reads the file's elements (weights, position tables, id maps); a file
      // that leaves them out gets drawn ones, as an argument does.
      if (auto values = constantElements(c.getValue()); values && !external)
        out_.def.params.back().values = std::move(*values);
      if (!external)  // said where the global is read (readGlobals)
        out_.notes.push_back("constant '" + tv.name + "' (line " + std::to_string(loc.line) + ") becomes an input of the program" +
                             (out_.def.params.back().values.empty() ? ", its elements left out of the file: exec draws them"
                                                                     : ", holding the file's elements"));
    }
    tensors_[c] = tv;
  }
}

void Importer::dimShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto d = mlir::cast<mlir::tensor::DimOp>(op);
  auto k = d.getConstantIndex();
  if (!k) throw SourceError(loc, "tensor.dim with a computed dimension is not supported");
  Shape& s = tensorOf(d.getSource(), op).shape;
  if (*k < 0 || size_t(*k) >= s.size()) throw SourceError(loc, "tensor.dim beyond the tensor's rank");
  indexSyms_[d.getResult()] = s[size_t(*k)];
}

void Importer::emptyShape(Operation* op) {
  auto e = mlir::cast<mlir::tensor::EmptyOp>(op);
  auto t = tensorType(e, op);
  TensorValue tv(Kind::Empty);
  unsigned dyn = 0;
  for (int64_t k = 0; k < t.getRank(); ++k)
    tv.shape.push_back(t.isDynamicDim(k) ? indexSym(e.getDynamicSizes()[dyn++], op) : ext_.literal(t.getDimSize(k)));
  tensors_[e] = tv;
}

void Importer::fillOpShape(Operation* op) {
  auto f = mlir::cast<mlir::linalg::FillOp>(op);
  fillShape(f.getResult(0), f.getInputs()[0], tensorOf(f.getOutputs()[0], op).shape, op);
}

// A fill written as one op.
void Importer::splatShape(Operation* op) {
  auto sp = mlir::cast<mlir::tensor::SplatOp>(op);
  auto t = tensorType(sp.getResult(), op);
  Shape shape;
  unsigned dyn = 0;
  for (int64_t k = 0; k < t.getRank(); ++k)
    shape.push_back(t.isDynamicDim(k) ? indexSym(sp.getDynamicSizes()[dyn++], op) : ext_.literal(t.getDimSize(k)));
  return fillShape(sp.getResult(), sp.getInput(), shape, op);
}

void Importer::fromElementsShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto fe = mlir::cast<mlir::tensor::FromElementsOp>(op);
  if (onlyReshapeShape(fe)) return;
  // One value in every element (torch-mlir's scalar made a tensor): a fill. Several
  // values were written as a fill and inserts before (tensorBuilders).
  auto elements = fe.getElements();
  for (Value e : elements)
    if (e != elements.front())
      throw InternalError("tensor.from_elements of several values at line " + std::to_string(loc.line) + " was not rewritten");
  auto t = tensorType(fe.getResult(), op);
  Shape shape;
  for (int64_t d : t.getShape()) shape.push_back(ext_.literal(d));
  return fillShape(fe.getResult(), elements.front(), shape, op);
}

void Importer::extractShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto x = mlir::cast<mlir::tensor::ExtractOp>(op);
  // One element outside any body (torch-mlir's .item()): read where a body uses it.
  requireConstantIndices(x.getIndices(), loc, "tensor.extract outside a linalg op takes constant indices here");
  tensorType(x.getTensor(), op);
}

// It checks; it computes nothing.
void Importer::assertShape(Operation* op) {
  SourceLoc loc = locOf(op);
  out_.notes.push_back("cf.assert at line " + std::to_string(loc.line) + " dropped: it checks a condition, it computes nothing");
}

// A fill the function returns is written out.
void Importer::fillStatements(Operation* op) {
  SourceLoc loc = locOf(op);
  Value r = op->getResult(0);
  if (!returned(r)) return;
  TensorValue& tv = tensors_[r];
  tv.name = resultName(op, 0);
  out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, scalar(tv.fill, loc, op), op));
  tv.kind = Kind::Computed;
}

// An output of the program: computed integers are values of the computing type.
TensorDecl Importer::outputDecl(const std::string& name, mlir::Type type, const Shape& shape, SourceLoc loc) {
  TensorDecl d;
  d.name = name;
  d.loc = loc;
  d.type = elemType(type);
  if (isInteger(d.type)) {
    d.type = ElemType::F32;
    out_.notes.push_back("output '" + d.name + "' (line " + std::to_string(loc.line) +
                         ") holds integers; it is stored as f32, exact up to 2^24");
  }
  d.hasShape = true;
  dims(d, shape);
  return d;
}

// The function's results become the program's outputs.
void Importer::returnStatements(Operation* op) {
  SourceLoc loc = locOf(op);
  auto ret = mlir::cast<mlir::func::ReturnOp>(op);
  std::set<std::string> seen;
  for (Value returnedValue : ret.getOperands()) {
    if (returnedValue.getType().isIntOrFloat()) {
      // A scalar result (IREE's tests return an i32): the tensor of rank 0 holding it.
      Operation* def = returnedValue.getDefiningOp();
      const std::string nm = def ? resultName(def, 0) : identifier("result");
      out_.def.stmts.push_back(wholeWrite(nm, {}, scalar(returnedValue, loc, op), op));
      out_.notes.push_back("the function returns a scalar (line " + std::to_string(loc.line) + "): output '" + nm +
                           "' is the tensor of rank 0 that holds it");
      out_.def.outputs.push_back(outputDecl(nm, returnedValue.getType(), {}, loc));
      continue;
    }
    if (!mlir::isa<mlir::RankedTensorType>(returnedValue.getType())) {
      std::string type;
      llvm::raw_string_ostream os(type);
      returnedValue.getType().print(os);
      throw SourceError(loc, "the function returns a value of type " + os.str() +
                                 ": polyfuse computes tensors (a scalar result is a tensor of rank 0)");
    }
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
      for (StmtDecl& piece : pieceLoops(std::move(s))) out_.def.stmts.push_back(std::move(piece));
      TensorValue copy(Kind::Computed, shape);
      copy.name = nm;
      splitResult(copy, id, op->getContext());
      split_.clear();
      splitExtent_.clear();
      pieced_.clear();
      tensors_[v] = copy;
    }
    // An output written whole from what is returned, in its place from here on.
    auto writeWhole = [&](const std::string& name, const std::string& note) {
      const Shape shape = tensorOf(v, op).shape;
      const mlir::AffineMap id = mlir::AffineMap::getMultiDimIdentityMap(unsigned(shape.size()), op->getContext());
      out_.def.stmts.push_back(wholeWrite(name, shape, element(v, id, loc, op), op));
      out_.notes.push_back(note);
      TensorValue t(Kind::Computed, shape);
      t.name = name;
      tensors_[v] = t;
    };
    if (const TensorValue& in = tensorOf(v, op); in.kind == Kind::Input) {
      // An input returned as it is (IREE's tests of a cast, a reshape that MLIR folds
      // into a constant): the output is its copy.
      const std::string copy = identifier(in.name + "_copy");
      writeWhole(copy, "the function returns '" + in.name + "' (line " + std::to_string(loc.line) + ") as it is; output '" +
                           copy + "' is a copy of it");
    } else if (in.kind == Kind::Fill) {
      // A tensor of one value returned as it is (a splat constant): the output is written
      // with that value.
      Operation* def = v.getDefiningOp();
      const std::string name = identifier(def ? resultName(def, 0) : std::string("filled"));
      writeWhole(name, "the function returns a tensor of one value (line " + std::to_string(loc.line) + "); output '" + name +
                           "' is written with it");
    }
    TensorValue& tv = tensorOf(v, op);
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
    TensorDecl d = outputDecl(outName, v.getType(), tv.split ? tv.stored : tv.shape, loc);
    if (tv.split)
      out_.notes.push_back("output '" + d.name + "' (line " + std::to_string(loc.line) + ") is stored as " +
                           shapeText(tv.stored) + ", the same elements in the same order as its " + shapeText(tv.shape) +
                           ": a read through a view (collapse_shape, reshape, unpack) or a floordiv or mod of a loop split the parallel loop that writes it");
    out_.def.outputs.push_back(d);
  }
}

}  // namespace polyfuse::linalg_import

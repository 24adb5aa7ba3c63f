// What the converters share: helpers on MLIR values and attributes, the TC names given
// to MLIR's (from the parser's state), subscripts through views, and whole writes.
#include "mlir/Importer.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace polyfuse::linalg_import {

SourceLoc locOf(mlir::Location l) {
  if (auto f = mlir::dyn_cast<mlir::FileLineColLoc>(l)) return {int(f.getLine()), int(f.getColumn())};
  if (auto n = mlir::dyn_cast<mlir::NameLoc>(l)) return locOf(n.getChildLoc());
  if (auto c = mlir::dyn_cast<mlir::CallSiteLoc>(l)) return locOf(c.getCallee());
  if (auto fu = mlir::dyn_cast<mlir::FusedLoc>(l))
    for (auto x : fu.getLocations())
      if (SourceLoc s = locOf(x); s.line) return s;
  return {};
}

// An op MLIR's own rewrites made without a location (a body op of a generalized
// pooling) is reported at the nearest enclosing op that has one.
SourceLoc locOf(Operation* op) {
  for (Operation* at = op; at; at = at->getParentOp())
    if (SourceLoc s = locOf(at->getLoc()); s.line) return s;
  return {};
}

std::string opName(Operation* op) { return op->getName().getStringRef().str(); }

ExprPtr node(ExprKind k, SourceLoc loc, std::vector<ExprPtr> args) {
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
  // The magnitude unsigned: -v of INT64_MIN (an i64 max's identity fill) overflows.
  const uint64_t magnitude = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  auto e = node(ExprKind::Number, loc);
  e->number = double(magnitude);
  e->name = std::to_string(magnitude);
  if (v >= 0) return e;
  std::vector<ExprPtr> a;
  a.push_back(std::move(e));
  return node(ExprKind::Neg, loc, std::move(a));
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

bool isSmallFloat(mlir::Type t) {
  if (auto s = mlir::dyn_cast<mlir::ShapedType>(t)) t = s.getElementType();
  return mlir::isa<mlir::FloatType>(t) && t.getIntOrFloatBitWidth() < 16;
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
  // Integers of other widths (IREE's i2, i4) are stored in the next wider type; the body
  // wraps each result at the type's own width, so a stored value is always one of them.
  if (t.isSignlessInteger()) {
    const unsigned w = t.getIntOrFloatBitWidth();
    return w <= 8 ? ElemType::I8 : w <= 16 ? ElemType::I16 : w <= 32 ? ElemType::I32 : ElemType::I64;
  }
  return floatBits(t) == 64 ? ElemType::F64 : ElemType::F32;
}

// Each value v is computed from within the body, v first: a walk over the body's DAG that
// visits each op once (a body whose ops each use the two before would otherwise take time
// exponential in its length), without recursion. Stops when `reached` returns true, and
// says so.
template <class Reached>
static bool walkBody(Value v, mlir::Block* body, Reached reached) {
  llvm::DenseSet<Value> seen;
  llvm::SmallVector<Value, 16> work{v};
  Operation* op = body->getParentOp();
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (reached(x)) return true;
    Operation* d = x.getDefiningOp();
    if (!d || !op->isProperAncestor(d) || !seen.insert(x).second) continue;
    // A result of an scf.if: its condition and what each branch yields for it (the
    // branches' ops are walked in turn).
    if (auto f = mlir::dyn_cast<mlir::scf::IfOp>(d); f && f.elseBlock()) {
      const unsigned k = mlir::cast<mlir::OpResult>(x).getResultNumber();
      work.append({f.getCondition(), f.thenYield()->getOperand(k), f.elseYield()->getOperand(k)});
      continue;
    }
    for (Value o : d->getOperands()) work.push_back(o);
  }
  return false;
}

bool dependsOn(Value v, Value on, mlir::Block* body) {
  return walkBody(v, body, [&](Value x) { return x == on; });
}

std::vector<bool> loopsRead(Value v, mlir::linalg::GenericOp g) {
  mlir::Block* body = g.getBody();
  std::vector<bool> used(g.getNumLoops(), false);
  walkBody(v, body, [&](Value x) {
    if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(x); arg && arg.getOwner() == body) {
      for (mlir::AffineExpr e : g.getMatchingIndexingMap(&g->getOpOperand(arg.getArgNumber())).getResults())
        e.walk([&](mlir::AffineExpr sub) {
          if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(sub)) used[dim.getPosition()] = true;
        });
    } else if (auto index = x.getDefiningOp<mlir::linalg::IndexOp>(); index && index->getBlock() == body) {
      used[index.getDim()] = true;
    }
    return false;
  });
  return used;
}

// A cast that keeps an integer's value (to index, or wider): ids and positions are read
// through them.
bool keepsIntegerValue(Operation* d) {
  return mlir::isa<mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp>(d);
}

// A TC identifier for an MLIR name, distinct from every name given so far.
// `boundary`: an argument's name, which the user passes inputs by: a renaming is said.
std::string Importer::identifier(std::string n, bool boundary) {
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

std::string Importer::argName(SourceLoc loc) const {
  auto it = names_.arguments.find({loc.line, loc.col});
  return it == names_.arguments.end() ? "" : it->second;
}

std::string Importer::resultName(Operation* op, unsigned k) {
  const SourceLoc loc = locOf(op);
  auto it = names_.results.find({loc.line, loc.col});
  if (it != names_.results.end() && k < it->second.size()) return identifier(it->second[k]);
  // An op the file writes without results (linalg on buffers, Buffers.h): named after
  // the buffer its result replaces.
  if (auto dps = mlir::dyn_cast<mlir::DestinationStyleOpInterface>(op); dps && k < unsigned(dps.getNumDpsInits()))
    if (std::string buffer = ssaName(dps.getDpsInits()[k]); !buffer.empty()) return identifier(buffer);
  return identifier("t" + std::to_string(out_.def.stmts.size()));
}

std::string Importer::ssaName(Value v) const {
  if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) return argName(locOf(a.getLoc()));
  Operation* def = v.getDefiningOp();
  if (!def) return "";
  const SourceLoc loc = locOf(def);
  auto it = names_.results.find({loc.line, loc.col});
  const unsigned k = mlir::cast<mlir::OpResult>(v).getResultNumber();
  if (it != names_.results.end() && k < it->second.size()) return it->second[k];
  if (auto dps = mlir::dyn_cast<mlir::DestinationStyleOpInterface>(def); dps && k < unsigned(dps.getNumDpsInits()))
    return ssaName(dps.getDpsInits()[k]);
  return "";
}

mlir::RankedTensorType Importer::tensorType(Value v, Operation* at) {
  auto t = mlir::dyn_cast<mlir::RankedTensorType>(v.getType());
  if (!t) throw SourceError(locOf(at), "expected a ranked tensor, found an operand of another type");
  mlir::Type e = t.getElementType();
  if (!e.isF32() && !e.isF64() && !e.isF16() && !e.isBF16() && !isSmallFloat(e) &&
      !(e.isSignlessInteger() && e.getIntOrFloatBitWidth() <= 64)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    e.print(os);
    throw SourceError(locOf(at), "element type " + os.str() + " is not supported (f32, f64, f16, bf16, the f8 kinds, and signless integers i1 to i64 are)");
  }
  if (isSmallFloat(e) && !smallFloatNoted_) {
    smallFloatNoted_ = true;
    out_.notes.push_back("values of the f8 kinds are held as float (exactly: every f8 value is one), each result rounded "
                         "to its type; their bytes are counted at 4 an element");
  }
  return t;
}

TensorValue& Importer::tensorOf(Value v, Operation* at) {
  auto it = tensors_.find(v);
  if (it == tensors_.end()) throw InternalError("an operand of '" + opName(at) + "' is a tensor the importer did not read");  // every op giving a tensor is read or refused
  return it->second;
}

int Importer::extentOf(mlir::OpFoldResult r, Operation* at) {
  if (auto a = mlir::dyn_cast<mlir::Attribute>(r)) {
    const int64_t n = mlir::cast<mlir::IntegerAttr>(a).getInt();
    if (n < 0) throw SourceError(locOf(at), "an extent or offset here is negative (" + std::to_string(n) + ")");
    return ext_.literal(n);
  }
  return indexSym(mlir::cast<Value>(r), at);
}

// An extent as a TC value: its literal, or its size's name.
ExprPtr Importer::extent(int sym, SourceLoc loc) {
  if (std::optional<int64_t> n = ext_.value(sym)) return integer(*n, loc);
  auto [size, k] = *ext_.term(sym);
  return k == 1 ? name(size, loc) : binary(ExprKind::Mul, integer(k, loc), name(size, loc), loc);
}

void Importer::view(Operation* op, Value source, Shape shape, const std::vector<mlir::AffineExpr>& exprs) {
  auto t = tensorType(op->getResult(0), op);
  TensorValue tv(Kind::View, std::move(shape));
  tv.source = source;
  tv.view = mlir::AffineMap::get(unsigned(t.getRank()), 0, exprs, op->getContext());
  tensors_[op->getResult(0)] = tv;
}

// A parameter's dimensions are written once every op has unified the extents.
void Importer::param(const TensorDecl& d, const Shape& shape) {
  out_.def.params.push_back(d);
  paramShapes_.push_back(shape);
}

void Importer::nameSizes() {
  for (size_t k = 0; k < out_.def.params.size(); ++k) dims(out_.def.params[k], paramShapes_[k]);
}

void Importer::dims(TensorDecl& d, const Shape& shape) {
  for (int e : shape) {
    d.dims.push_back(ext_.text(e));
    d.dimLocs.push_back(d.loc);
  }
}

// floor(d / inner) mod n (n = 0: no mod) as a row-major sum of d's sub-loops.
ExprPtr Importer::splitPart(unsigned d, int64_t inner, int64_t n, SourceLoc loc) {
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
std::optional<std::tuple<unsigned, int64_t, int64_t>> Importer::collapsedPart(mlir::AffineExpr e) {
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
void Importer::splitLoops(mlir::linalg::GenericOp g, const std::vector<int>& loops) {
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
void Importer::splitLoops(const std::vector<mlir::AffineMap>& maps, const std::vector<int>& loops, SourceLoc loc) {
  split_.clear();
  splitExtent_.clear();
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
  pieced_.clear();
  piecedError_.clear();
  for (auto& [d, b] : bounds) {
    std::optional<int64_t> extent = d < loops.size() && loops[d] >= 0 ? ext_.value(loops[d]) : std::nullopt;
    const std::string what = "loop d" + std::to_string(d) + " is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts)";
    // An extent k * N splits where every division of it divides k: sub-loop 0 spans a
    // multiple of N (its bounds k, then the divisions, k among them where one is k), the
    // others constants.
    const auto term = d < loops.size() && loops[d] >= 0 ? ext_.term(loops[d]) : std::nullopt;
    if (!extent && term) {
      for (int64_t x : b)
        if (term->second % x)
          throw SourceError(loc, what + " at " + std::to_string(x) + ", which does not divide its extent " + ext_.text(loops[d]));
      b.insert(1);
      std::vector<int64_t> parts{term->second};  // stands for k * N, above every division
      parts.insert(parts.end(), b.rbegin(), b.rend());
      for (size_t i = 1; i + 1 < parts.size(); ++i)
        if (parts[i] % parts[i + 1])
          throw SourceError(loc, what + " at " + std::to_string(parts[i + 1]) + ", which does not divide " +
                                     std::to_string(parts[i]) + ": polyfuse splits a loop of extent " +
                                     ext_.text(loops[d]) + " only into parts that nest");
      split_[d] = parts;
      splitExtent_[d] = loops[d];
      continue;
    }
    if (!extent) throw InternalError(what + " but has no extent");  // every extent is a literal or a multiple of a size
    // Every division of d is a constant or a shift over aligned pieces of their gcd.
    int64_t piece = 0;
    for (int64_t x : b)
      if (x > 1) piece = std::gcd(piece, x);
    b.insert(*extent);
    b.insert(1);
    const std::vector<int64_t> bounds(b.rbegin(), b.rend());
    if (bounds.front() != *extent)  // a part over the whole range is constant, and folded before
      throw InternalError(what + " into parts larger than its extent " + std::to_string(*extent));
    std::string nests;
    for (size_t k = 0; k + 1 < bounds.size() && nests.empty(); ++k)
      if (bounds[k] % bounds[k + 1])
        nests = what + " at " + std::to_string(bounds[k + 1]) + ", which does not divide " + std::to_string(bounds[k]) +
                (k == 0 ? ", its extent" : "");
    if (nests.empty()) {
      split_[d] = bounds;
      continue;
    }
    const int64_t pieces = piece > 1 ? (*extent + piece - 1) / piece : *extent;
    if (piece <= 1 || size_t(pieces) > kMaxPieces)
      throw SourceError(loc, nests + ": polyfuse splits a loop into parts that nest, or runs a parallel loop in at most " +
                                 std::to_string(kMaxPieces) + " aligned pieces (here " + std::to_string(pieces) + ")");
    pieced_[d] = Pieces{piece, *extent};
    piecedError_ = nests + ": polyfuse runs such a loop in pieces only in a linalg op's statements";
  }
}

// Where a result written at `om` is stored split (a parallel loop it indexes was split
// into several), the stored shape and the map from its indices to the stored ones.
void Importer::splitResult(TensorValue& tv, mlir::AffineMap om, mlir::MLIRContext* ctx) {
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
      tv.stored.push_back(pieceExtent(it->first, k));
      mlir::AffineExpr part = b[k + 1] == 1 ? i : i.floorDiv(b[k + 1]);
      exprs.push_back(k == 0 ? part : part % (b[k] / b[k + 1]));
    }
  }
  if (splits) tv.split = mlir::AffineMap::get(om.getNumResults(), 0, exprs, ctx);
  else tv.stored.clear();
}

// The extent of sub-loop k of split loop d.
int Importer::pieceExtent(unsigned d, size_t k) {
  const std::vector<int64_t>& b = split_.at(d);
  if (auto it = splitExtent_.find(d); k == 0 && it != splitExtent_.end()) {
    auto [root, w] = ext_.resolve(it->second);
    return b[1] == w ? root : ext_.scaled(root, w / b[1]);
  }
  return ext_.literal(b[k] / b[k + 1]);
}

// The stored shape's text, for notes: 12x128x64.
std::string Importer::shapeText(const Shape& shape) {
  std::string t;
  for (int e : shape) t += (t.empty() ? "" : "x") + ext_.text(e);
  return t;
}

// The statement's name for loop d (or its row-major sum, once split).
ExprPtr Importer::loopName(unsigned d, SourceLoc loc) {
  if (split_.count(d)) return splitPart(d, 1, 0, loc);
  return name("d" + std::to_string(d), loc);
}

ExprPtr Importer::subscript(mlir::AffineExpr e, SourceLoc loc) {
  if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) return loopName(d.getPosition(), loc);
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return integer(c.getValue(), loc);
  if (auto part = collapsedPart(e); part && split_.count(std::get<0>(*part)))
    return splitPart(std::get<0>(*part), std::get<1>(*part), std::get<2>(*part), loc);
  if (auto part = collapsedPart(e); part && pieced_.count(std::get<0>(*part))) {
    // A placeholder, made a constant or a shift by pieceLoops.
    const auto [d, inner, n] = *part;
    std::vector<ExprPtr> a;
    a.push_back(name("d" + std::to_string(d), loc));
    a.push_back(integer(inner, loc));
    a.push_back(integer(n, loc));
    return call(kPiecePart, loc, std::move(a));
  }
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
std::pair<Value, mlir::AffineMap> Importer::throughViews(Value v, mlir::AffineMap map, Operation* at) {
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
ExprPtr Importer::element(Value v0, mlir::AffineMap map0, SourceLoc loc, Operation* at) {
  auto [v, map] = throughViews(v0, map0, at);
  return dataElement(v, map, loc, at);
}

// The same where `v` holds the data and `map` reads it (views already followed).
ExprPtr Importer::dataElement(Value v, mlir::AffineMap map, SourceLoc loc, Operation* at) {
  TensorValue& tv = tensorOf(v, at);
  if (tv.kind == Kind::Empty)
    throw SourceError(loc, "this op reads a tensor.empty, whose elements are undefined");
  if (tv.kind == Kind::Fill) return scalar(tv.fill, loc, at);
  std::vector<ExprPtr> subs;
  auto g = mlir::dyn_cast_or_null<mlir::linalg::GenericOp>(at);
  for (mlir::AffineExpr r : map.getResults()) {
    // A division of several loops (a reshape between shapes that no collapse and expand
    // relate: 5x7 read as 7x5 divides 5 * i + j by 7) names no loop split: its value,
    // computed over the op's loops, is the subscript of a gather.
    if (!nameable(r) && g && g.getNumLoops() > 0 && split_.empty()) {
      // Over the loops the subscript uses alone: the statement reading it may not run
      // over the others (a reduction's initial copy).
      std::vector<unsigned> dims;
      for (unsigned d = 0; d < g.getNumLoops(); ++d)
        if (r.isFunctionOfDim(d)) dims.push_back(d);
      std::string& ids = divisionIds_[{at, r.getAsOpaquePointer()}];
      if (ids.empty()) {
        ExprPtr value = affineInteger(r, loc, [&](mlir::AffineExpr d) {
          if (auto dim = mlir::dyn_cast<mlir::AffineDimExpr>(d)) return loopName(dim.getPosition(), loc);
          throw InternalError("an indexing map with a symbol passed MLIR's verifier");
        });
        ids = idTensor(g, std::move(value), ElemType::I64, loc, dims);
      }
      if (gatherNoted_.insert(at).second)
        out_.notes.push_back("line " + std::to_string(loc.line) + ": '" + tv.name + "' is read at a division of a sum " +
                             "of loops (a reshape between shapes no regrouping relates, or a map that divides so), stored " +
                             "first as the id tensor '" + ids + "': a gather");
      std::vector<ExprPtr> loopsAt;
      for (unsigned d : dims) loopsAt.push_back(loopName(d, loc));
      subs.push_back(call(ids, loc, std::move(loopsAt)));
      continue;
    }
    subs.push_back(subscript(r, loc));
  }
  return call(tv.name, loc, std::move(subs));
}

// Whether subscript() names e: loops, constants, sums and products of them, and the
// parts of split or pieced loops.
bool Importer::nameable(mlir::AffineExpr e) {
  if (mlir::isa<mlir::AffineDimExpr, mlir::AffineConstantExpr>(e)) return true;
  if (auto part = collapsedPart(e); part && (split_.count(std::get<0>(*part)) || pieced_.count(std::get<0>(*part))))
    return true;
  auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
  return b && (e.getKind() == mlir::AffineExprKind::Add || e.getKind() == mlir::AffineExprKind::Mul) &&
         nameable(b.getLHS()) && nameable(b.getRHS());
}

// An affine expression as an integer value, its dimensions and symbols what `leaf` makes
// of them: floordiv and ceildiv as MLIR rounds them, mod the non-negative remainder.
ExprPtr Importer::affineInteger(mlir::AffineExpr e, SourceLoc loc, const std::function<ExprPtr(mlir::AffineExpr)>& leaf) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return integer(c.getValue(), loc);
  auto bin = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
  if (!bin) return leaf(e);
  auto two = [](ExprPtr x, ExprPtr y) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    a.push_back(std::move(y));
    return a;
  };
  ExprPtr l = affineInteger(bin.getLHS(), loc, leaf), r = affineInteger(bin.getRHS(), loc, leaf);
  switch (e.getKind()) {
    case mlir::AffineExprKind::Add: return node(ExprKind::Add, loc, two(std::move(l), std::move(r)));
    case mlir::AffineExprKind::Mul: return node(ExprKind::Mul, loc, two(std::move(l), std::move(r)));
    case mlir::AffineExprKind::FloorDiv: return call("floordiv", loc, two(std::move(l), std::move(r)));
    case mlir::AffineExprKind::CeilDiv: return call("ceildiv", loc, two(std::move(l), std::move(r)));
    default: {  // mod: l - floordiv(l, r) * r
      ExprPtr q = call("floordiv", loc, two(cloneExpr(*l), cloneExpr(*r)));
      return node(ExprKind::Sub, loc, two(std::move(l), node(ExprKind::Mul, loc, two(std::move(q), std::move(r)))));
    }
  }
}

// Whether v is an integer argument of the entry, held as a rank-0 input.
bool Importer::integerArgument(Value v) const {
  auto a = mlir::dyn_cast<mlir::BlockArgument>(v);
  return a && mlir::isa<mlir::IntegerType>(a.getType()) && tensors_.count(v);
}

// A scalar defined outside any body: a constant or a number argument.
ExprPtr Importer::scalar(Value v, SourceLoc loc, Operation* at) {
  if (auto it = scalars_.find(v); it != scalars_.end()) return name(it->second, loc);
  if (integerArgument(v)) return call(tensors_.at(v).name, loc, {});
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
  // Arithmetic on such values (IREE's tests linearize with `%wd = arith.muli %w, %d` of two
  // extents; torch-mlir scales its `alpha` in f64): the body's converter reads it, its
  // operands named as above.
  if (d && scalarArith(d)) {
    Body outside{nullptr, {}, at};
    return expr(v, outside);
  }
  throw SourceError(d ? locOf(d) : loc, "this op uses a value computed outside it" +
                                            (d ? " by '" + opName(d) + "'" : std::string()) +
                                            "; polyfuse takes constants, arguments and extents there");
}

// A fill is read as its value wherever an op reads it; it is stored only when returned.
// Returned, directly or through tensor.cast (which only restates the type).
// Whether nothing reads v's elements: its only uses are views (the reshapes that
// dropping unit loops adds) that nothing reads either.
bool Importer::unread(Value v) {
  for (Operation* u : v.getUsers()) {
    if (!mlir::isa<mlir::tensor::ExpandShapeOp, mlir::tensor::CollapseShapeOp, mlir::tensor::CastOp>(u)) return false;
    if (!unread(u->getResult(0))) return false;
  }
  return true;
}

bool Importer::returned(Value v) {
  for (mlir::OpOperand& u : v.getUses()) {
    if (mlir::isa<mlir::func::ReturnOp>(u.getOwner())) return true;
    if (auto c = mlir::dyn_cast<mlir::tensor::CastOp>(u.getOwner()); c && returned(c.getResult())) return true;
  }
  return false;
}

Value Importer::castSource(Value v) {
  while (auto c = v.getDefiningOp<mlir::tensor::CastOp>()) v = c.getSource();
  return v;
}

void Importer::where(StmtDecl& s, const std::string& dim, int sym, SourceLoc loc) {
  WhereRange w;
  w.index = dim;
  w.loc = loc;
  w.lo = integer(0, loc);
  w.hi = extent(sym, loc);
  s.where.push_back(std::move(w));
}

// The loops an output map indexes its result by (a 0 of a unit extent indexes none).
std::vector<unsigned> Importer::writtenLoops(mlir::AffineMap om) {
  std::vector<unsigned> out;
  for (mlir::AffineExpr e : om.getResults())
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(e)) out.push_back(d.getPosition());
  return out;
}

// The written indices: a split loop's parts in place of the loop; at a 0 of a unit
// extent, an index of its own over 0:1, named after no loop of the op.
void Importer::lhs(StmtDecl& s, mlir::AffineMap m, SourceLoc loc) {
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
void Importer::splitWheres(StmtDecl& s, SourceLoc loc, const std::set<unsigned>* only) {
  for (auto& [d, bounds] : split_) {
    if (only && !only->count(d)) continue;
    for (size_t k = 0; k + 1 < bounds.size(); ++k) {
      WhereRange w;
      w.index = subLoop(d, k);
      w.loc = loc;
      w.lo = integer(0, loc);
      w.hi = extent(pieceExtent(d, k), loc);
      s.where.push_back(std::move(w));
    }
  }
}

// A loop's range: its extent, or its parts' where it is split.
void Importer::loopWhere(StmtDecl& s, unsigned d, int sym, SourceLoc loc) {
  if (!split_.count(d)) return where(s, "d" + std::to_string(d), sym, loc);
  const std::set<unsigned> one{d};
  splitWheres(s, loc, &one);
}

// `tensor(d0, .., d<rank-1>) = ..` at the op, its right side still to give.
StmtDecl Importer::assignment(const std::string& tensor, size_t rank, Operation* op) {
  SourceLoc loc = locOf(op);
  StmtDecl s;
  s.loc = loc;
  s.lhs = tensor;
  s.opLoc = loc;
  lhs(s, mlir::AffineMap::getMultiDimIdentityMap(unsigned(rank), op->getContext()), loc);
  return s;
}

// R(d0, ..) = value over the whole of R: the first write of a tensor two ops build.
StmtDecl Importer::wholeWrite(const std::string& tensor, const Shape& shape, ExprPtr value, Operation* op) {
  SourceLoc loc = locOf(op);
  StmtDecl s = assignment(tensor, shape.size(), op);
  for (size_t k = 0; k < shape.size(); ++k) loopWhere(s, unsigned(k), shape[k], loc);
  s.rhs = std::move(value);
  return s;
}

bool Importer::reads(const Expr& e, const std::string& tensor) {
  if (e.kind == ExprKind::Call && e.name == tensor) return true;
  for (auto& a : e.args)
    if (reads(*a, tensor)) return true;
  return false;
}

void requireConstantIndices(mlir::ValueRange indices, SourceLoc loc, const std::string& message) {
  for (Value i : indices)
    if (!i.getDefiningOp<mlir::arith::ConstantIndexOp>()) throw SourceError(loc, message);
}

}  // namespace polyfuse::linalg_import

// The scalar ops of a generic's body, as TC expressions: arithmetic, casts between
// integer and float widths, selects, and reads of other tensors (tensor.extract).
#include "mlir/Importer.h"

#include <cmath>

namespace polyfuse::linalg_import {

ExprPtr Importer::expr(Value v, Body& b) {
  if (++bodyNodes_ > kMaxBodyNodes)
    throw SourceError(locOf(b.g), "this op's body unfolds into more than 100,000 operations");
  mlir::Block* body = b.g ? b.g.getBody() : nullptr;
  SourceLoc gloc = b.g ? locOf(b.g) : locOf(v.getLoc());
  Operation* at = b.g ? b.g.getOperation() : b.at;
  Deeper deeper(depth_, gloc);
  if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) {
    if (a.getOwner() != body) return scalar(v, gloc, at);
    mlir::OpOperand* o = b.g.getMatchingOpOperand(a);
    b.used[o->getOperandNumber()] = true;
    if (!mlir::isa<mlir::RankedTensorType>(o->get().getType())) return scalar(o->get(), gloc, b.g);
    return element(o->get(), b.g.getMatchingIndexingMap(o), gloc, b.g);
  }
  Operation* d = v.getDefiningOp();
  // Scalar arithmetic outside the body (torch-mlir advances its random seed with an
  // `arith.muli` and `addi` before the op that uses it) is the same expression inlined:
  // the ops are pure, so computing it at each point gives the value computed once.
  const bool inBody = body && (d->getBlock() == body || b.g->isProperAncestor(d));  // an scf.if's branches too
  if (!inBody && !scalarArith(d)) return scalar(v, gloc, at);
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
  if (width > 64) throw SourceError(loc, "integers of " + std::to_string(width) + " bits are not supported (i1 to i64 and index are)");
  // Integer arithmetic wraps at its width (index and i64 are taken not to overflow).
  // An i1 holds 0 or 1 (as conditions used as values do), so it wraps to those.
  auto wrapped = [&](ExprPtr e) {
    return width && width < 64 ? widthCall(width == 1 ? "zext" : "wrap", std::move(e), width, loc) : std::move(e);
  };
  auto unsignedArgs = [&]() {
    const unsigned w = intWidth(d->getOperand(0).getType());
    std::vector<ExprPtr> a = args({0, 1});
    if (w < 64)
      for (auto& x : a) x = widthCall("zext", std::move(x), w, loc);
    return a;
  };
  // Integers travel as values of the computing type, exact only below 2^53 in f64: an
  // operand beyond that in arithmetic (a random number generator's 64-bit multiplier) would
  // give other values than MLIR's wrapping arithmetic, so it is refused, not approximated.
  // (A compare, min, max or select with such a bound, INT64_MAX as a clamp, orders the
  // values below 2^53 as MLIR does.)
  const bool arithmetic = mlir::isa<mlir::arith::AddIOp, mlir::arith::SubIOp, mlir::arith::MulIOp, mlir::arith::DivSIOp,
                                    mlir::arith::DivUIOp, mlir::arith::RemSIOp, mlir::arith::RemUIOp,
                                    mlir::arith::FloorDivSIOp, mlir::arith::CeilDivSIOp, mlir::arith::CeilDivUIOp,
                                    mlir::arith::AndIOp, mlir::arith::OrIOp, mlir::arith::XOrIOp, mlir::arith::ShLIOp,
                                    mlir::arith::ShRSIOp, mlir::arith::ShRUIOp>(d);
  if (arithmetic)
    for (Value o : d->getOperands())
      if (auto c = o.getDefiningOp<mlir::arith::ConstantOp>())
        if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue()); i && std::abs(double(integerValue(i))) > 0x1p53)
          throw SourceError(loc, "integer arithmetic on " + std::to_string(integerValue(i)) +
                                     ", beyond 2^53: polyfuse computes integers exactly only below it, and MLIR's would "
                                     "wrap at 64 bits (a random number generator?)");
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
  // Bitwise: on N-bit signed values, and/or/xor stay N-bit; a left shift wraps at N, and
  // a logical right shift shifts the N bits' unsigned value (an arithmetic shift of it).
  if (mlir::isa<mlir::arith::AndIOp>(d)) return call("bitand", loc, args({0, 1}));
  if (mlir::isa<mlir::arith::OrIOp>(d)) return call("bitor", loc, args({0, 1}));
  if (mlir::isa<mlir::arith::XOrIOp>(d)) return call("bitxor", loc, args({0, 1}));
  if (mlir::isa<mlir::arith::ShLIOp>(d)) return wrapped(call("shl", loc, args({0, 1})));
  if (mlir::isa<mlir::arith::ShRSIOp>(d)) return call("ashr", loc, args({0, 1}));
  if (mlir::isa<mlir::arith::ShRUIOp>(d)) {
    std::vector<ExprPtr> a = args({0, 1});
    if (width && width < 64) a[0] = widthCall("zext", std::move(a[0]), width, loc);
    return wrapped(call("ashr", loc, std::move(a)));
  }
  if (mlir::isa<mlir::math::CountLeadingZerosOp>(d)) {
    std::vector<ExprPtr> a = args({0});
    a.push_back(integer(width ? width : 64, loc));
    return call("clz", loc, std::move(a));
  }
  if (mlir::isa<mlir::arith::NegFOp>(d)) return node(ExprKind::Neg, loc, args({0}));
  // maximumf/minimumf propagate NaN; maxnumf/minnumf (C's fmax) ignore it.
  if (mlir::isa<mlir::arith::MaximumFOp>(d)) return rounded(call("maximum", loc, args({0, 1})), v, loc);
  if (mlir::isa<mlir::arith::MinimumFOp>(d)) return rounded(call("minimum", loc, args({0, 1})), v, loc);
  if (mlir::isa<mlir::arith::MaxNumFOp>(d)) return rounded(call("fmax", loc, args({0, 1})), v, loc);
  if (mlir::isa<mlir::arith::MinNumFOp>(d)) return rounded(call("fmin", loc, args({0, 1})), v, loc);
  if (mlir::isa<mlir::arith::MaxSIOp, mlir::arith::MinSIOp, mlir::arith::MaxUIOp, mlir::arith::MinUIOp>(d)) {
    const bool isUnsigned = mlir::isa<mlir::arith::MaxUIOp, mlir::arith::MinUIOp>(d);
    // An i1 holds 0 or 1, where the signed order has true (-1) below false.
    const bool isMax = mlir::isa<mlir::arith::MaxSIOp, mlir::arith::MaxUIOp>(d) !=
                       (!isUnsigned && intWidth(d->getOperand(0).getType()) == 1);
    std::vector<ExprPtr> c = isUnsigned ? unsignedArgs() : args({0, 1});
    std::vector<ExprPtr> a;
    const ExprKind order = isMax ? ExprKind::Gt : ExprKind::Lt;
    if (isUnsigned && intWidth(d->getOperand(0).getType()) == 64) a.push_back(unsignedOrder64(order, c[0], c[1], loc));
    else a.push_back(node(order, loc, std::move(c)));
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
      {"math.sin", "sin"},   {"math.cos", "cos"},   {"math.tan", "tan"},   {"math.atan", "atan"},
      {"math.atan2", "atan2"}, {"math.floor", "floor"}, {"math.ceil", "ceil"}, {"math.round", "round"},
      {"math.roundeven", "rint"}, {"math.log1p", "log1p"}, {"math.log2", "log2"}, {"math.log10", "log10"},
      {"math.exp2", "exp2"}, {"math.expm1", "expm1"}, {"math.copysign", "copysign"}, {"arith.remf", "fmod"},
      {"math.fpowi", "pow"}, {"math.trunc", "trunc"}, {"math.asin", "asin"}, {"math.acos", "acos"},
      {"math.sinh", "sinh"}, {"math.cosh", "cosh"}, {"math.asinh", "asinh"}, {"math.acosh", "acosh"},
      {"math.atanh", "atanh"}, {"math.cbrt", "cbrt"}};
  // absi wraps as MLIR's does: the most negative value is its own absolute value.
  if (mlir::isa<mlir::math::AbsIOp>(d)) return wrapped(call("fabs", loc, args({0})));
  if (auto m = math.find(opName(d)); m != math.end()) {
    std::vector<ExprPtr> a;
    for (Value o : d->getOperands()) a.push_back(expr(o, b));
    return rounded(call(m->second, loc, std::move(a)), v, loc);
  }
  // math.ipowi by a constant exponent (x ** 2 on integer tensors): the product, wrapped at
  // the width after each step as MLIR's multiplications are. A negative exponent is an
  // integer reciprocal: 1 for a base of 1, +-1 for -1 by parity, else 0.
  if (mlir::isa<mlir::math::IPowIOp>(d)) {
    std::optional<int64_t> n = foldedInteger(d->getOperand(1));
    if (!n || *n > 64)
      throw SourceError(loc, "math.ipowi by an exponent that is not a constant of at most 64 is not supported");
    auto equals = [&](int64_t k) {
      std::vector<ExprPtr> a;
      a.push_back(expr(d->getOperand(0), b));
      a.push_back(integer(k, loc));
      return node(ExprKind::Eq, loc, std::move(a));
    };
    if (*n < 0)
      return selectNode(equals(1), integer(1, loc), selectNode(equals(-1), integer(*n % 2 ? -1 : 1, loc), integer(0, loc), loc), loc);
    if (*n == 0) return integer(1, loc);
    ExprPtr p = expr(d->getOperand(0), b);
    for (int64_t k = 1; k < *n; ++k) {
      std::vector<ExprPtr> a;
      a.push_back(std::move(p));
      a.push_back(expr(d->getOperand(0), b));
      p = wrapped(node(ExprKind::Mul, loc, std::move(a)));
    }
    return p;
  }
  // math.fma rounds once; a*b + c would round twice.
  if (mlir::isa<mlir::math::FmaOp>(d)) return rounded(call("fma", loc, args({0, 1, 2})), v, loc);
  if (auto s = mlir::dyn_cast<mlir::arith::SelectOp>(d))
    return choose(s.getCondition(), [&] { return expr(s.getTrueValue(), b); }, [&] { return expr(s.getFalseValue(), b); }, b);
  // An scf.if yielding values: the select of what each branch yields. Its branches hold
  // pure ops on scalars (a body has no other), so computing only the one taken, as `?:`
  // does, gives the same value.
  if (auto f = mlir::dyn_cast<mlir::scf::IfOp>(d); f && f.elseBlock()) {
    const unsigned k = mlir::cast<mlir::OpResult>(v).getResultNumber();
    Value then = f.thenYield()->getOperand(k), otherwise = f.elseYield()->getOperand(k);
    return choose(f.getCondition(), [&] { return expr(then, b); }, [&] { return expr(otherwise, b); }, b);
  }
  // affine.apply, min and max on index values (a window's clipped bound): the map's
  // arithmetic, and nested selects of its results.
  if (auto a = mlir::dyn_cast<mlir::affine::AffineApplyOp>(d))
    return affineValue(a.getAffineMap().getResult(0), a.getMapOperands(), a.getAffineMap().getNumDims(), b, loc);
  if (mlir::isa<mlir::affine::AffineMinOp, mlir::affine::AffineMaxOp>(d)) {
    auto min = mlir::dyn_cast<mlir::affine::AffineMinOp>(d);
    auto max = mlir::dyn_cast<mlir::affine::AffineMaxOp>(d);
    const mlir::AffineMap m = min ? min.getAffineMap() : max.getAffineMap();
    const mlir::ValueRange operands = min ? min.getMapOperands() : max.getMapOperands();
    ExprPtr best = affineValue(m.getResult(0), operands, m.getNumDims(), b, loc);
    for (unsigned r = 1; r < m.getNumResults(); ++r) {
      ExprPtr x = affineValue(m.getResult(r), operands, m.getNumDims(), b, loc);
      std::vector<ExprPtr> c;
      c.push_back(cloneExpr(*x));
      c.push_back(cloneExpr(*best));
      best = selectNode(node(min ? ExprKind::Lt : ExprKind::Gt, loc, std::move(c)), std::move(x), std::move(best), loc);
    }
    return best;
  }
  throw SourceError(loc, "unsupported operation '" + opName(d) + "' in the body of a linalg op");
}

// An affine expression of index values (the first `dims` operands its dimensions, the
// rest its symbols) in integer arithmetic (affineInteger).
ExprPtr Importer::affineValue(mlir::AffineExpr e, mlir::ValueRange operands, unsigned dims, Body& b, SourceLoc loc) {
  return affineInteger(e, loc, [&](mlir::AffineExpr leaf) {
    if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(leaf)) return expr(operands[d.getPosition()], b);
    return expr(operands[dims + mlir::cast<mlir::AffineSymbolExpr>(leaf).getPosition()], b);
  });
}

// Whether d is arithmetic on scalars (arith or math, not a constant), which expr()
// converts wherever it stands.
bool Importer::scalarArith(Operation* d) {
  const llvm::StringRef dialect = d->getName().getDialectNamespace();
  if ((dialect != "arith" && dialect != "math") || mlir::isa<mlir::arith::ConstantOp>(d) || d->getNumResults() != 1) return false;
  auto number = [](mlir::Type t) { return t.isIntOrIndexOrFloat(); };
  return number(d->getResult(0).getType()) &&
         std::all_of(d->operand_type_begin(), d->operand_type_end(), number);
}

// The width of an integer or index type (index: 64); 0 for a float.
unsigned Importer::intWidth(mlir::Type t) {
  if (t.isIndex()) return 64;
  if (auto i = mlir::dyn_cast<mlir::IntegerType>(t)) return i.getWidth();
  return 0;
}

bool Importer::isCast(Operation* d) {
  return mlir::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp, mlir::arith::IndexCastOp, mlir::arith::IndexCastUIOp,
                   mlir::arith::ExtFOp, mlir::arith::TruncFOp, mlir::arith::ExtSIOp, mlir::arith::ExtUIOp,
                   mlir::arith::TruncIOp, mlir::arith::FPToSIOp, mlir::arith::FPToUIOp>(d);
}

ExprPtr Importer::widthCall(const char* fn, ExprPtr x, unsigned width, SourceLoc loc) {
  if (width < 1 || width > 64)
    throw SourceError(loc, "integers of " + std::to_string(width) + " bits are not supported (i1 to i64 and index are)");
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  a.push_back(integer(width, loc));
  return call(fn, loc, std::move(a));
}

ExprPtr Importer::negated(ExprPtr x, SourceLoc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  return node(ExprKind::Neg, loc, std::move(a));
}

// A value of a float type narrower than the program computes in is rounded to it
// after every op, as MLIR's f16 and bf16 arithmetic is; `from` is the width of the
// integer it was converted from, if any (an i64 above 2^24 is not exact in f32).
ExprPtr Importer::rounded(ExprPtr x, Value v, SourceLoc loc, unsigned from) {
  mlir::Type t = v.getType();
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  if (t.isF16()) return call("round_f16", loc, std::move(a));
  if (t.isBF16()) return call("round_bf16", loc, std::move(a));
  // An extent or a literal converted is exact below 2^24, as every size it takes is
  // in practice; only a computed integer is rounded.
  const bool exactInt = a[0]->kind == ExprKind::Name || a[0]->kind == ExprKind::Number;
  if (t.isF32() && from > 24 && !exactInt) return call("round_f32", loc, std::move(a));
  if (isSmallFloat(t)) {
    // A format narrower than 16 bits (MLIR's f8 kinds): its parameters, from the type's
    // own semantics, so that every format MLIR knows rounds as its APFloat does.
    const llvm::fltSemantics& sem = mlir::cast<mlir::FloatType>(t).getFloatSemantics();
    const int fraction = int(llvm::APFloat::semanticsPrecision(sem)) - 1;
    a.push_back(integer(fraction, loc));
    a.push_back(integer(llvm::APFloat::semanticsMinExponent(sem) - fraction, loc));
    a.push_back(number(toDouble(llvm::APFloat::getLargest(sem)), 64, loc));
    a.push_back(integer(llvm::APFloat::getInf(sem).isInfinity() ? 0 : 1, loc));
    return call("round_float", loc, std::move(a));
  }
  if (!t.isF32() && !t.isF64() && mlir::isa<mlir::FloatType>(t)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t.print(os);
    throw SourceError(loc, "float type " + os.str() + " is not supported (f16, bf16, f32 and f64 are)");
  }
  return std::move(a[0]);
}

// MLIR's conversions, on integers held as their signed value (i1 as 0 or 1).
ExprPtr Importer::cast(Operation* d, ExprPtr x, SourceLoc loc) {
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

ExprPtr Importer::selectNode(ExprPtr c, ExprPtr x, ExprPtr y, SourceLoc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(c));
  a.push_back(std::move(x));
  a.push_back(std::move(y));
  return node(ExprKind::Select, loc, std::move(a));
}

// `a k b` (k one of < <= > >=) as a comparison of 64-bit unsigned values held as their
// signed ones: where the signs agree the signed order is the unsigned one; where they
// differ, the negative one is the larger (2^64 added, which a double cannot hold exactly
// beside a small value). TC's `?:` takes a comparison, hence `(..) != 0`.
ExprPtr Importer::unsignedOrder64(ExprKind k, const ExprPtr& a, const ExprPtr& b, SourceLoc loc) {
  auto pair = [&](ExprKind kind, ExprPtr x, ExprPtr y) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(x));
    v.push_back(std::move(y));
    return node(kind, loc, std::move(v));
  };
  auto negative = [&](const ExprPtr& x) { return pair(ExprKind::Lt, cloneExpr(*x), number(0, 64, loc)); };
  auto truth = [&](bool t) { return number(t ? 1 : 0, 32, loc); };
  const bool below = k == ExprKind::Lt || k == ExprKind::Le;
  ExprPtr same = selectNode(pair(k, cloneExpr(*a), cloneExpr(*b)), truth(true), truth(false), loc);
  ExprPtr sameToo = selectNode(pair(k, cloneExpr(*a), cloneExpr(*b)), truth(true), truth(false), loc);
  ExprPtr ifANegative = selectNode(negative(b), std::move(same), truth(!below), loc);
  ExprPtr ifANonNegative = selectNode(negative(b), truth(below), std::move(sameToo), loc);
  ExprPtr order = selectNode(negative(a), std::move(ifANegative), std::move(ifANonNegative), loc);
  return pair(ExprKind::Ne, std::move(order), number(0, 32, loc));
}

// `c ? x : y` for an i1 value c. TC's comparisons are C's: ordered, except != (true
// on NaN, as une is); the other unordered predicates are the negated ordered ones
// (the branches swapped), and one, ueq, ord and uno nest two selects. Conjunctions
// and disjunctions of conditions nest too.
ExprPtr Importer::choose(Value c, const Build& x, const Build& y, Body& b) {
  Operation* d = c.getDefiningOp();
  SourceLoc loc = d ? locOf(d) : b.g ? locOf(b.g) : locOf(c.getLoc());
  Deeper deeper(depth_, loc);
  auto cmp = [&](ExprKind k, unsigned i, unsigned j, bool zext = false, bool neg = false) {
    if (zext && intWidth(d->getOperand(i).getType()) == 64)
      return unsignedOrder64(k, expr(d->getOperand(i), b), expr(d->getOperand(j), b), loc);
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

// A subscript the body computes from its operands' values (tosa.table's lookup: the
// input shifted and masked): stored first, over the op's loops, as an id tensor of the
// index's integer type, which the gather then reads (Sema takes subscripts from integer
// tensors only). Loops a collapse splits, or an op without loops, keep the subscript as
// it was (refused by Sema).
ExprPtr Importer::computedSubscript(Value i, ExprPtr value, Body& b, SourceLoc loc) {
  if (!split_.empty() || b.g.getNumLoops() == 0) return value;
  if (auto it = computedSubscripts_.find(i.getAsOpaquePointer()); it != computedSubscripts_.end()) {
    std::vector<ExprPtr> at;
    for (unsigned d = 0; d < b.g.getNumLoops(); ++d) at.push_back(loopName(d, loc));
    return call(it->second, loc, std::move(at));
  }
  Value from = i;
  while (Operation* d = from.getDefiningOp()) {
    if (!keepsIntegerValue(d)) break;
    from = d->getOperand(0);
  }
  const std::string name = idTensor(b.g, std::move(value), intWidth(from.getType()) <= 32 ? ElemType::I32 : ElemType::I64, loc);
  computedSubscripts_[i.getAsOpaquePointer()] = name;
  if (gatherNoted_.insert(b.g.getOperation()).second)
    out_.notes.push_back("line " + std::to_string(loc.line) + ": a subscript computed from the op's operands is stored "
                         "first, as the id tensor '" + name + "', which the gather reads");
  std::vector<ExprPtr> at;
  for (unsigned d = 0; d < b.g.getNumLoops(); ++d) at.push_back(loopName(d, loc));
  return call(name, loc, std::move(at));
}

// A statement over g's loops `dims` (all, when empty) storing `value` as an id tensor of
// integer type `type`, for a gather to read; its name.
std::string Importer::idTensor(mlir::linalg::GenericOp g, ExprPtr value, ElemType type, SourceLoc loc,
                               std::vector<unsigned> dims) {
  const std::vector<int>& loops = loops_[g.getOperation()];
  if (dims.empty())
    for (unsigned d = 0; d < g.getNumLoops(); ++d) dims.push_back(d);
  const std::string name = identifier("pf_ids");
  StmtDecl s;
  s.loc = s.opLoc = locOf(g);
  s.lhs = name;
  std::vector<mlir::AffineExpr> at;
  for (unsigned d : dims) at.push_back(mlir::getAffineDimExpr(d, g.getContext()));
  lhs(s, mlir::AffineMap::get(g.getNumLoops(), 0, at, g.getContext()), loc);
  for (unsigned d : dims)
    if (d < loops.size() && loops[d] >= 0) loopWhere(s, d, loops[d], loc);
  s.rhs = std::move(value);
  out_.def.stmts.push_back(std::move(s));
  integerIds_[name] = type;
  return name;
}

// tensor.extract in a body: the element of a tensor the op captures, at subscripts the
// body computes (loop indices, constants, or an integer operand's element: a gather,
// which Sema turns into a may-read of the dimensions it indexes).
ExprPtr Importer::extract(mlir::tensor::ExtractOp x, Body& b) {
  Operation* op = x;
  SourceLoc loc = locOf(op);
  // A tensor.cast (to a dynamic type: IREE's dynamic constants) holds its source's
  // elements, in its source's extents.
  Value read = x.getTensor();
  while (auto c = read.getDefiningOp<mlir::tensor::CastOp>()) read = c.getSource();
  if (Operation* def = read.getDefiningOp(); def && b.g && b.g->isProperAncestor(def))
    throw SourceError(locOf(def), "'" + opName(def) + "' builds a tensor inside a linalg body: polyfuse reads tensors "
                                  "built outside the op, and scalars inside it");
  TensorValue& tv = tensorOf(read, op);
  if (tv.kind == Kind::Fill) return scalar(tv.fill, loc, op);
  if (tv.kind == Kind::View)
    throw SourceError(loc, "tensor.extract from this view is not supported (polyfuse reads through expand_shape, "
                           "extract_slice of static offsets and strides, and collapse_shape of groups with one extent "
                           "other than 1); extract from the tensor itself");
  if (tv.kind == Kind::Empty) throw SourceError(loc, "this op reads a tensor.empty, whose elements are undefined");
  std::vector<ExprPtr> subs;
  bool gathers = false;
  const std::vector<int>& loops = loops_[b.g.getOperation()];
  const bool guarded = op->getBlock() != b.g.getBody();  // in a branch of an scf.if
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
    // Loops, constants, sums and constant multiples of them (a linearized position,
    // `4 * i + j`; `0 * 7 + i` where a unit loop was folded to 0) are an affine read like
    // any other where they stay inside the tensor. One that may leave it (torch-mlir's
    // embedding bag reads offsets[b + 1] under a select that discards the last) stays a
    // gather, which reads any element.
    if (plain && !divides(*plain)) {
      const mlir::AffineExpr at = mlir::simplifyAffineExpr(*plain, b.g.getNumLoops(), 0);
      const std::optional<int64_t> extent = k < tv.shape.size() ? ext_.value(tv.shape[k]) : std::nullopt;
      if (auto r = span(at, loops); r && extent && r->first >= 0 && r->second < *extent) {
        subs.push_back(subscript(at, loc));
        continue;
      }
    }
    if (std::optional<mlir::AffineExpr> f = indexAffine(i, b.g); f && (!plain || divides(*plain))) {
      const mlir::AffineExpr at = mlir::simplifyAffineExpr(*f, b.g.getNumLoops(), 0);
      if (splitsLoops(at)) {
        subs.push_back(subscript(at, loc));
        continue;
      }
    }
    subs.push_back(expr(i, b));
    // An index that folds to a number (a splat of ids: a harness's positions all 7) is
    // that integer, as a constant index is.
    std::optional<int64_t> folded;
    if (Expr& n = *subs.back(); n.kind == ExprKind::Number && std::floor(n.number) == n.number && std::fabs(n.number) < 0x1p53) {
      folded = int64_t(n.number);
      subs.back() = integer(*folded, loc);
    }
    const Expr& sub = *subs.back();
    const bool readsTensor =
        sub.kind == ExprKind::Call &&
        (std::any_of(out_.def.params.begin(), out_.def.params.end(), [&](const TensorDecl& p) { return p.name == sub.name; }) ||
         std::any_of(out_.def.stmts.begin(), out_.def.stmts.end(), [&](const StmtDecl& st) { return st.lhs == sub.name; }));
    // Under an scf.if the read runs only where its branch is taken: an index that may
    // leave the tensor elsewhere is a gather too (a loop index included), checked when read.
    if (!readsTensor && (!sub.args.empty() || (guarded && sub.kind != ExprKind::Number)))
      subs.back() = computedSubscript(i, std::move(subs.back()), b, loc);
    gathers |= subs.back()->kind == ExprKind::Call;
    if (subs.back()->kind == ExprKind::Call) computedIds(i, subs.back()->name);
    // An index known here to leave the tensor is undefined behaviour in MLIR; TC would
    // instead shrink the loop to the accesses' bounds. Refused, as a dynamic one is.
    std::optional<int64_t> extent = k < tv.shape.size() ? ext_.value(tv.shape[k]) : std::nullopt;
    std::optional<int64_t> at, upTo;
    if (auto c = i.getDefiningOp<mlir::arith::ConstantIndexOp>()) at = c.value();
    else if (folded) at = folded;
    if (auto l = i.getDefiningOp<mlir::linalg::IndexOp>(); l && l.getDim() < loops.size() && loops[l.getDim()] >= 0)
      upTo = ext_.value(loops[l.getDim()]);
    if (!(guarded && subs.back()->kind == ExprKind::Call) && extent &&
        ((at && (*at < 0 || *at >= *extent)) || (upTo && *upTo > *extent)))
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

// The subscript the extract index `i` is (and its affine form over the reading op's
// loops), when it is an element of such a tensor; none otherwise (then it is read as a
// value: a gather through it).
std::optional<std::pair<ExprPtr, mlir::AffineExpr>> Importer::computedLoopIds(Value i, Body& b, const std::string& table, SourceLoc loc) {
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

// The least and greatest value of an affine `e` over loops of extents `loops`; none when
// a loop it depends on has no static extent.
std::optional<std::pair<int64_t, int64_t>> Importer::span(mlir::AffineExpr e, const std::vector<int>& loops) {
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

// An extract index as an affine form of the loops: integer index arithmetic, else a
// function of one loop fitted over its range (mlir/LoopFunction.h).
// Computed once per value: splitLoops and extract() both ask, and a fit evaluates the
// whole loop range.
std::optional<mlir::AffineExpr> Importer::indexAffine(Value i, mlir::linalg::GenericOp g) {
  if (auto it = indexAffine_.find(i); it != indexAffine_.end()) return it->second;
  return indexAffine_[i] = computeIndexAffine(i, g);
}

std::optional<mlir::AffineExpr> Importer::computeIndexAffine(Value i, mlir::linalg::GenericOp g) {
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

// Whether each division in e is one the loops' split names (collapsedPart): d floordiv c,
// d mod n, (d floordiv c) mod n. Others ((5 * d) floordiv 3: the windows of an adaptive
// pool over 5 rows to 3) are read as computed subscripts.
bool Importer::splitsLoops(mlir::AffineExpr e) {
  bool all = true;
  e.walk([&](mlir::AffineExpr sub) {
    const bool division = sub.getKind() == mlir::AffineExprKind::FloorDiv || sub.getKind() == mlir::AffineExprKind::CeilDiv ||
                          sub.getKind() == mlir::AffineExprKind::Mod;
    all &= !division || collapsedPart(sub).has_value();
  });
  return all;
}

bool Importer::divides(mlir::AffineExpr e) {
  bool any = false;
  e.walk([&](mlir::AffineExpr sub) {
    any |= sub.getKind() == mlir::AffineExprKind::FloorDiv || sub.getKind() == mlir::AffineExprKind::CeilDiv ||
           sub.getKind() == mlir::AffineExprKind::Mod;
  });
  return any;
}

bool Importer::nonNegative(mlir::AffineExpr e) {
  if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(e)) return c.getValue() >= 0;
  if (mlir::isa<mlir::AffineDimExpr>(e)) return true;
  auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
  return b && e.getKind() != mlir::AffineExprKind::CeilDiv && nonNegative(b.getLHS()) && nonNegative(b.getRHS());
}

// An integer value of generic `g`'s body as an affine function of its loop indices,
// with `arg` giving the body's arguments where it can.
std::optional<mlir::AffineExpr> Importer::loopAffine(Value v, mlir::linalg::GenericOp g, const ArgAffine& arg) {
  if (auto a = mlir::dyn_cast<mlir::BlockArgument>(v)) return arg(a);
  Operation* d = v.getDefiningOp();
  if (auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(d))
    if (auto i = mlir::dyn_cast<mlir::IntegerAttr>(c.getValue())) return mlir::getAffineConstantExpr(i.getInt(), g.getContext());
  if (d->getBlock() != g.getBody()) return std::nullopt;
  if (auto i = mlir::dyn_cast<mlir::linalg::IndexOp>(d)) return mlir::getAffineDimExpr(unsigned(i.getDim()), g.getContext());
  if (keepsIntegerValue(d)) return loopAffine(d->getOperand(0), g, arg);
  if (auto a = mlir::dyn_cast<mlir::affine::AffineApplyOp>(d)) {
    llvm::SmallVector<mlir::AffineExpr> dims, syms;
    for (auto [k, o] : llvm::enumerate(a.getMapOperands())) {
      std::optional<mlir::AffineExpr> x = loopAffine(o, g, arg);
      if (!x) return std::nullopt;
      (k < a.getAffineMap().getNumDims() ? dims : syms).push_back(*x);
    }
    const mlir::AffineExpr e = a.getAffineMap().getResult(0).replaceDimsAndSymbols(dims, syms);
    return e.isPureAffine() ? std::optional(e) : std::nullopt;
  }
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

}  // namespace polyfuse::linalg_import

// linalg.generic: the form of each result (elementwise, a reduction with its combiner,
// an arg-reduction) and one TC statement per result, in pieces where constant id
// tables make a gather affine.
#include "mlir/Importer.h"

#include <functional>

namespace polyfuse::linalg_import {

static const char* iteratorWord(mlir::utils::IteratorType t) {
  return t == mlir::utils::IteratorType::reduction ? "reduction" : "parallel";
}

// An integer value's width (index: 64).
static unsigned bitsOf(Value v) {
  const mlir::Type t = v.getType();
  return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
}

// A compare as an order: a cmpf's predicate, or a cmpi's read as the ordered one it
// means (integers hold their signed values here, and have no NaN); an unsigned cmpi's
// width says its order is the unsigned one.
struct Compare {
  Value lhs, rhs;
  mlir::arith::CmpFPredicate p;
  unsigned unsignedWidth = 0;
};
static std::optional<Compare> compareOf(Value c) {
  if (auto f = c.getDefiningOp<mlir::arith::CmpFOp>()) return Compare{f.getLhs(), f.getRhs(), f.getPredicate()};
  if (auto i = c.getDefiningOp<mlir::arith::CmpIOp>()) {
    using I = mlir::arith::CmpIPredicate;
    using P = mlir::arith::CmpFPredicate;
    static const std::map<I, P> ordered = {{I::sgt, P::OGT}, {I::sge, P::OGE}, {I::slt, P::OLT}, {I::sle, P::OLE},
                                           {I::ugt, P::OGT}, {I::uge, P::OGE}, {I::ult, P::OLT}, {I::ule, P::OLE}};
    const I p = i.getPredicate();
    const bool isUnsigned = p == I::ugt || p == I::uge || p == I::ult || p == I::ule;
    if (auto it = ordered.find(p); it != ordered.end()) {
      // An i1 holds 0 or 1 here, where the signed order has true (-1) below false.
      static const std::map<P, P> reversed = {{P::OGT, P::OLT}, {P::OLT, P::OGT}, {P::OGE, P::OLE}, {P::OLE, P::OGE}};
      const bool flip = !isUnsigned && bitsOf(i.getLhs()) == 1;
      return Compare{i.getLhs(), i.getRhs(), flip ? reversed.at(it->second) : it->second, isUnsigned ? bitsOf(i.getLhs()) : 0};
    }
  }
  return std::nullopt;
}

// The combiner of a reduction result: `acc op x`, or max/min spelled cmpf (or a signed
// cmpi) + select.
static ResultForm combiner(mlir::linalg::GenericOp g, Value y, mlir::BlockArgument acc) {
  Operation* d = y.getDefiningOp();
  SourceLoc loc = locOf(d ? d : g.getOperation());
  auto fail = [&]() -> ResultForm {
    throw SourceError(loc, "cannot read the combiner of this reduction: expected addf, mulf, maximumf, minimumf, "
                           "their integer forms (addi, muli, maxsi, minsi, maxui, minui), or cmpf (a cmpi) with "
                           "select, of the accumulator and one value");
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
    // Signed integers are their values here (no NaN): an integer max pool's maxsi. An i1
    // holds 0 or 1, where the signed order has true (-1) below false.
    else if (mlir::isa<mlir::arith::MaxSIOp>(d)) f = {bitsOf(x) == 1 ? ReduceOp::Min : ReduceOp::Max, x};
    else if (mlir::isa<mlir::arith::MinSIOp>(d)) f = {bitsOf(x) == 1 ? ReduceOp::Max : ReduceOp::Min, x};
    else if (mlir::isa<mlir::arith::MaxUIOp>(d)) f = {ReduceOp::Max, x}, f.unsignedWidth = bitsOf(x);
    else if (mlir::isa<mlir::arith::MinUIOp>(d)) f = {ReduceOp::Min, x}, f.unsignedWidth = bitsOf(x);
  } else if (auto sel = mlir::dyn_cast<mlir::arith::SelectOp>(d)) {
    const std::optional<Compare> cmp = compareOf(sel.getCondition());
    Value x = other(sel.getTrueValue(), sel.getFalseValue());
    if (cmp && x && other(cmp->lhs, cmp->rhs) == x) {
      using P = mlir::arith::CmpFPredicate;
      P p = cmp->p;
      // An ordered compare never picks a NaN over the accumulator, nor keeps one (the
      // accumulator starts from a number): fmax and fmin. An unordered one picks by
      // position in the row, which no reduction tree reproduces.
      bool gt = p == P::OGT || p == P::OGE, lt = p == P::OLT || p == P::OLE;
      if (p == P::UGT || p == P::UGE || p == P::ULT || p == P::ULE)
        throw SourceError(loc, "this reduction selects with an unordered compare: with a NaN its result depends on "
                               "the order of the elements, which a parallel reduction does not keep; use an ordered "
                               "predicate, maximumf or maxnumf");
      if (gt || lt) {
        bool xGreater = (cmp->lhs == x) == gt;       // the condition reads "x > acc"
        bool picksX = sel.getTrueValue() == x;
        f = {xGreater == picksX ? ReduceOp::FMax : ReduceOp::FMin, x};
        f.unsignedWidth = cmp->unsignedWidth;
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
  if (f.unsignedWidth == 1) f.unsignedWidth = 0;  // an i1 holds 0 or 1: both orders agree
  if (dependsOn(f.value, acc, acc.getOwner()))
    throw SourceError(loc, "this reduction uses its accumulator other than through its combiner");
  return f;
}

// Result k's yield as an arg-reduction of another result (ResultForm::argOf), its
// combiner to be checked once every result's form is known; none for another form.
static std::optional<ResultForm> argReduction(mlir::linalg::GenericOp g, unsigned k, Value y) {
  mlir::Block* body = g.getBody();
  auto sel = y.getDefiningOp<mlir::arith::SelectOp>();
  const std::optional<Compare> cmp = sel ? compareOf(sel.getCondition()) : std::nullopt;
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
      if (j != k && (side ? cmp->rhs : cmp->lhs) == g.getMatchingBlockArgument(g.getDpsInitOperand(j)))
        m = int(j), accOnLeft = side == 0;
  if (m < 0) return std::nullopt;
  Value x = accOnLeft ? cmp->rhs : cmp->lhs;
  // The index recorded: a reduction loop's, through casts, with constants added to it.
  int64_t offset = 0;
  while (Operation* d = index.getDefiningOp()) {
    if (auto add = mlir::dyn_cast<mlir::arith::AddIOp>(d)) {
      auto constant = [](Value v) {
        auto k = v.getDefiningOp<mlir::arith::ConstantOp>();
        return k ? mlir::dyn_cast<mlir::IntegerAttr>(k.getValue()) : mlir::IntegerAttr();
      };
      mlir::IntegerAttr c = constant(add.getRhs());
      const int side = c ? 1 : (c = constant(add.getLhs())) ? 0 : -1;
      if (side < 0 || c.getValue().getSignificantBits() > 32) break;
      offset += c.getValue().getSExtValue();
      index = side ? add.getLhs() : add.getRhs();
      continue;
    }
    if (!keepsIntegerValue(d) && !mlir::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp>(d)) break;
    index = d->getOperand(0);
  }
  if (offset < -(int64_t(1) << 24) || offset > (int64_t(1) << 24)) return std::nullopt;
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
  P p = cmp->p;
  const std::map<P, P> swapped = {{P::OGT, P::OLT}, {P::OLT, P::OGT}, {P::OGE, P::OLE}, {P::OLE, P::OGE}};
  const std::map<P, P> negated = {{P::OGT, P::OLE}, {P::OLE, P::OGT}, {P::OGE, P::OLT}, {P::OLT, P::OGE}};
  if (!swapped.count(p)) return std::nullopt;  // unordered or equality compares: not an arg-reduction
  if (accOnLeft) p = swapped.at(p);
  if (keepTrue) p = negated.at(p);
  ResultForm f;
  f.value = x;
  f.argOf = m;
  f.index = loop.getDim();
  f.indexOffset = offset;
  // Strict: the first position of the extreme; non-strict: the last. The sign of the
  // extreme (max or min) is checked against result m's combiner afterwards.
  f.op = p == P::OGT || p == P::OLT ? ReduceOp::Min : ReduceOp::Max;
  f.keepWhenTrue = p == P::OGT || p == P::OGE;  // x beats acc by being greater: an argmax
  f.unsignedWidth = cmp->unsignedWidth == 1 ? 0 : cmp->unsignedWidth;  // the order its partner reduces in (an i1: either)
  return f;
}

void Importer::analyze(mlir::linalg::GenericOp g) {
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
    // A value read from no accumulator and from none of the loops the result's map leaves
    // out is the same at every iteration of those loops (torch-mlir's adaptive pooling
    // writes each window's size beside the window's sum, indexed by the output's spatial
    // loops alone): a statement over the loops the result is indexed by.
    bool ownLoopsOnly = !everyLoop;
    for (unsigned j = 0; j < g.getNumResults() && ownLoopsOnly; ++j)
      ownLoopsOnly = !dependsOn(y, g.getMatchingBlockArgument(g.getDpsInitOperand(j)), body);
    if (ownLoopsOnly) {
      const std::vector<bool> read = loopsRead(y, g);
      for (size_t l = 0; l < iters.size(); ++l) ownLoopsOnly &= inOut[l] || !read[l];
    }
    for (size_t l = 0; l < iters.size() && !ownLoopsOnly; ++l)
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
    if (ownLoopsOnly) {
      ResultForm f{ReduceOp::Assign, y};
      f.ownLoopsOnly = true;
      forms.push_back(f);
      continue;
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
  // A result that reads another's accumulator reads its running value, which no statement
  // holds: only an arg-reduction may (it reads its partner's extreme, checked below).
  for (unsigned j = 0; j < forms.size(); ++j)
    for (unsigned k = 0; k < forms.size(); ++k)
      if (!forms[j].dropped && int(k) != forms[j].argOf && readsAccumulator(j, k))
        throw SourceError(loc, "result " + std::to_string(j) + " reads the running value of result " + std::to_string(k) +
                                   " (its accumulator) inside the loops; polyfuse reads a result computed from its own "
                                   "accumulator only, or an arg-reduction beside its max or min");
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
    // The position is where x equals the extreme, whichever the order; but the extreme
    // must be the one the compare means.
    if (bool(m.unsignedWidth) != bool(f.unsignedWidth))
      throw SourceError(locOf(yield.getOperand(k).getDefiningOp()),
                        std::string("this select records a position in the ") + (f.unsignedWidth ? "unsigned" : "signed") +
                            " order, but result " + std::to_string(f.argOf) + " reduces in the " +
                            (m.unsignedWidth ? "unsigned" : "signed") + " order");
    out_.notes.push_back("result " + std::to_string(k) + " of the op at line " + std::to_string(loc.line) + " is the " +
                         (f.op == ReduceOp::Min ? "first" : "last") + " position of result " + std::to_string(f.argOf) +
                         "'s " + (max ? "maximum" : "minimum") + ": a reduction of its own after it (a row holding NaN "
                         "gives no position)");
  }
  forms_[g.getOperation()] = std::move(forms);
}

// Ids a body computes (T5's relative position buckets) are stored as the integers they
// are, so that a gather may read through them (Sema takes subscripts from integer
// tensors only): the tensor keeps its MLIR integer type, where other computed integers
// travel as values of the computing type.
void Importer::computedIds(Value i, const std::string& tensor) {
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

bool Importer::isIdentity(ReduceOp op, double c) {
  switch (op) {
    case ReduceOp::Add: return c == 0;
    case ReduceOp::Mul: return c == 1;
    case ReduceOp::Max: case ReduceOp::FMax: return std::isinf(c) && c < 0;
    case ReduceOp::Min: case ReduceOp::FMin: return std::isinf(c) && c > 0;
    default: return false;
  }
}

namespace {

// `s` with another right-hand side and ranges: one piece of it.
StmtDecl piece(const StmtDecl& s, ExprPtr rhs, std::vector<WhereRange> where) {
  StmtDecl p;
  p.loc = s.loc, p.lhs = s.lhs, p.lhsIndices = s.lhsIndices, p.lhsIndexLocs = s.lhsIndexLocs;
  for (auto& x : s.lhsSubscripts) p.lhsSubscripts.push_back(cloneExpr(*x));
  p.op = s.op, p.init = s.init, p.opLoc = s.opLoc;
  p.rhs = std::move(rhs);
  p.where = std::move(where);
  return p;
}

}  // namespace

// A statement over loops whose divisions do not nest in their extents (pieced_): one
// statement a piece, the last first, where each division of such a loop is a constant, or
// a shift of it (d mod n over [lo, lo + size) is d - lo + lo mod n). Over a loop that
// indexes the result, each piece writes its own part of it; over a reduction loop, each
// adds its part, the first emitted in each part of the result starting the reduction
// (`+=!`) where the statement did.
std::vector<StmtDecl> Importer::pieceLoops(StmtDecl s) {
  std::vector<StmtDecl> out;
  if (pieced_.empty()) {
    out.push_back(std::move(s));
    return out;
  }
  std::vector<std::pair<std::string, Pieces>> loops;
  size_t total = 1;
  for (const auto& [d, p] : pieced_) {
    loops.emplace_back("d" + std::to_string(d), p);
    total *= size_t((p.extent + p.size - 1) / p.size);
  }
  if (total > kMaxPieces) throw SourceError(s.loc, piecedError_);
  std::set<std::vector<int64_t>> started;
  for (size_t c = total; c-- > 0;) {
    std::map<std::string, int64_t> lo;
    size_t rest = c;
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      const size_t count = size_t((it->second.extent + it->second.size - 1) / it->second.size);
      lo[it->first] = int64_t(rest % count) * it->second.size;
      rest /= count;
    }
    std::function<ExprPtr(const Expr&)> substitute = [&](const Expr& e) -> ExprPtr {
      if (e.kind == ExprKind::Call && e.name == kPiecePart) {
        const std::string& loop = e.args[0]->name;
        const int64_t at = lo.at(loop), inner = int64_t(e.args[1]->number), n = int64_t(e.args[2]->number);
        if (inner > 1 || n == 0) return integer(n ? (at / inner) % n : at / inner, e.loc);
        const int64_t shift = at - at % n;  // d mod n, the piece inside one period
        ExprPtr d = name(loop, e.loc);
        return shift ? binary(ExprKind::Sub, std::move(d), integer(shift, e.loc), e.loc) : std::move(d);
      }
      ExprPtr x = cloneExpr(e);
      for (size_t i = 0; i < e.args.size(); ++i) x->args[i] = substitute(*e.args[i]);
      return x;
    };
    std::vector<WhereRange> where;
    for (const WhereRange& w : s.where)
      if (!lo.count(w.index)) where.push_back(WhereRange{w.index, w.loc, cloneExpr(*w.lo), cloneExpr(*w.hi)});
    for (const auto& [loop, p] : loops)
      where.push_back(WhereRange{loop, s.loc, integer(lo[loop], s.loc), integer(std::min(lo[loop] + p.size, p.extent), s.loc)});
    out.push_back(piece(s, substitute(*s.rhs), std::move(where)));
    // The reduction starts once in each part of the result: in the part's first piece.
    std::vector<int64_t> part;
    for (const auto& [loop, p] : loops)
      if (std::find(s.lhsIndices.begin(), s.lhsIndices.end(), loop) != s.lhsIndices.end()) part.push_back(lo[loop]);
    out.back().init = s.init && started.insert(part).second;
  }
  return out;
}

// The statement as it is, or in such pieces when it reads constant integer tables at a
// parallel loop, some of them as subscripts.
void Importer::pushPieces(StmtDecl s, Operation* op) {
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
    std::vector<WhereRange> where;
    for (const WhereRange& w : s.where)
      if (w.index != loop) where.push_back(WhereRange{w.index, w.loc, cloneExpr(*w.lo), cloneExpr(*w.hi)});
    where.push_back(WhereRange{loop, s.loc, integer(a, s.loc), integer(b, s.loc)});
    out_.def.stmts.push_back(piece(s, substitute(*s.rhs), std::move(where)));
  }
}

void Importer::genericShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto g = mlir::cast<mlir::linalg::GenericOp>(op);
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
  windowBounds(g, loopSym, loc);
}

// A subscript that sums loops (a convolution's window, `d0 + d2`) reaches past each
// loop's extent: of dynamic extents, the operand holds it only if the sizes say so
// (output + filter - 1 <= input), which MLIR leaves to the caller. Each such subscript,
// c_i * d_i + c with every c_i >= 0, at its largest is below the operand's extent:
// sum c_i * extent_i + (c - sum c_i + 1) <= extent, a bound on the sizes the program
// states (static extents are checked by Sema as every access is).
void Importer::windowBounds(mlir::linalg::GenericOp g, const std::vector<int>& loops, SourceLoc loc) {
  for (mlir::OpOperand& o : g->getOpOperands()) {
    if (!mlir::isa<mlir::RankedTensorType>(o.get().getType())) continue;
    const Shape& s = tensorOf(o.get(), g).shape;
    mlir::AffineMap m = g.getMatchingIndexingMap(&o);
    for (unsigned r = 0; r < m.getNumResults() && r < s.size(); ++r) {
      if (mlir::isa<mlir::AffineDimExpr, mlir::AffineConstantExpr>(m.getResult(r))) continue;
      std::optional<LoopSum> sum = loopSum(m.getResult(r));
      if (!sum) continue;
      PendingBound bound{{}, sum->constant + 1, s[r], loc, "the window of " + opName(g)};
      bool dynamic = !ext_.value(s[r]), usable = true;
      for (auto [l, k] : sum->coefficients) {
        if (k == 0) continue;
        if (k < 0 || l >= loops.size() || loops[l] < 0) usable = false;
        else bound.terms.push_back({loops[l], k}), bound.offset -= k, dynamic |= !ext_.value(loops[l]);
      }
      if (usable && dynamic) bounds_.push_back(std::move(bound));
    }
  }
}

// One statement per result kept (a copy of the init first where it is read).
void Importer::genericStatements(Operation* op) {
  SourceLoc loc = locOf(op);
  auto g = mlir::cast<mlir::linalg::GenericOp>(op);
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
    // A sum or product of N-bit integers wraps at N bits. Wrapping is a ring morphism, so
    // the reduction runs unwrapped into a temporary and its result is wrapped once.
    const unsigned width = intWidth(mlir::cast<mlir::RankedTensorType>(g.getResult(k).getType()).getElementType());
    const bool wraps = (f.op == ReduceOp::Add || f.op == ReduceOp::Mul) && width > 0 && width < 64 && f.argOf < 0;
    // A max or min in the unsigned order, of integers held as their signed values: the
    // negative ones are above the others (their bits read as unsigned are 2^w more), and
    // within each sign the two orders agree. So it is two reductions in the signed order,
    // over the negative elements and over the others (the operator's identity standing for
    // the rest), and the extreme of the side that has any: the negatives' for a max, the
    // others' for a min. Every value stays the value it was, exact as integers are.
    const bool bySign = f.unsignedWidth > 0 && f.argOf < 0;
    std::vector<std::string> targets;
    if (bySign) targets = {identifier(tv.name + "_negative"), identifier(tv.name + "_nonnegative")};
    else targets = {wraps ? identifier(tv.name + "_unwrapped") : tv.name};
    const double identityValue = reduceKind(f.op).identity;
    for (size_t part = 0; part < targets.size(); ++part) {
      const std::string& target = targets[part];
      // The element where it is on this part's side, else the identity.
      auto ordered = [&](ExprPtr x) -> ExprPtr {
        if (!bySign) return x;
        std::vector<ExprPtr> a;
        a.push_back(cloneExpr(*x));
        a.push_back(integer(0, loc));
        ExprPtr negative = node(ExprKind::Lt, loc, std::move(a));
        ExprPtr identity = number(identityValue, floatBits(f.value.getType()), loc);
        return part == 0 ? selectNode(std::move(negative), std::move(x), std::move(identity), loc)
                         : selectNode(std::move(negative), std::move(identity), std::move(x), loc);
      };
      // A fill seen through views (a fill whose unit dimensions were dropped) is still one value.
      const TensorValue& base = tensorOf(throughViews(init->get(), om, op).first, op);
      std::optional<double> c = base.kind == Kind::Fill ? constantValue(base.fill) : std::nullopt;
      bool bang = f.argOf >= 0 || (f.op != ReduceOp::Assign && c && isIdentity(f.op, *c));
      if (f.op != ReduceOp::Assign && !bang) {
        // Start from the init's values: a copy, then the update.
        if (base.kind == Kind::Empty) throw SourceError(loc, "this reduction starts from a tensor.empty, whose elements are undefined");
        StmtDecl c;
        c.loc = loc;
        c.lhs = target;
        c.opLoc = loc;
        lhs(c, om, loc);
        c.rhs = ordered(element(init->get(), om, loc, op));
        std::set<unsigned> written;
        for (unsigned d : writtenLoops(om)) written.insert(d);
        if (base.kind == Kind::Fill) {
          for (unsigned d : written) loopWhere(c, d, loops[d], loc);
        } else {
          splitWheres(c, loc, &written);  // the init's read of a split loop is a sum: no range from it
          // The others from the loops too: an init read through a slice at an offset (a
          // tile of the running result, tpp-mlir's tiled loops) would give the whole tensor's.
          for (unsigned d : written)
            if (!split_.count(d)) loopWhere(c, d, loops[d], loc);
        }
        for (StmtDecl& piece : pieceLoops(std::move(c))) out_.def.stmts.push_back(std::move(piece));
      }
      StmtDecl s;
      s.loc = loc;
      s.lhs = target;
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
        ExprPtr position = loopName(f.index, loc);
        if (f.indexOffset) {
          std::vector<ExprPtr> sum;
          sum.push_back(std::move(position));
          sum.push_back(number(double(f.indexOffset), 32, loc));
          position = node(ExprKind::Add, loc, std::move(sum));
        }
        s.rhs = selectNode(node(ExprKind::Eq, loc, std::move(eq)), std::move(position),
                           number(reduceKind(f.op).identity, 32, loc), loc);
      } else if (f.keepWhen) {
        auto value = [&] { return ordered(expr(f.value, b)); };
        auto identity = [&] { return number(reduceKind(f.op).identity, floatBits(f.value.getType()), loc); };
        s.rhs = f.keepWhenTrue ? choose(f.keepWhen, identity, value, b) : choose(f.keepWhen, value, identity, b);
      } else {
        s.rhs = ordered(expr(f.value, b));
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
          // Static extents are apart where they differ (a slice of 4 of 8 columns, at
          // offset 0, reads its source at d + 0 too).
          const std::optional<int64_t> readExtent = r < extents.size() ? ext_.value(extents[r]) : std::nullopt;
          const std::optional<int64_t> loopExtent = loops[l] >= 0 ? ext_.value(loops[l]) : std::nullopt;
          const bool apart = r < extents.size() && loops[l] >= 0 &&
                             (readExtent && loopExtent ? *readExtent != *loopExtent
                                                       : !ext_.same(extents[r], loops[l]));
          if (apart) partial[l] = true;
          else if (c == 0) inferable[l] = true;
        }
      }
      if (f.readsInit && base.kind != Kind::Fill)
        for (unsigned d : writtenLoops(om)) inferable[d] = true;
      // A result over its own loops ranges over those alone.
      const std::vector<unsigned> own = writtenLoops(om);
      const std::set<unsigned> ownLoops(own.begin(), own.end());
      splitWheres(s, loc, f.ownLoopsOnly ? &ownLoops : nullptr);
      for (size_t l = 0; l < loops.size(); ++l) {
        if ((inferable[l] && !partial[l]) || split_.count(unsigned(l)) || (f.ownLoopsOnly && !ownLoops.count(unsigned(l))))
          continue;
        if (loops[l] < 0)
          throw InternalError("loop d" + std::to_string(l) + " is the extent of no operand, which MLIR's verifier requires");
        where(s, "d" + std::to_string(l), loops[l], loc);
      }
      tv.kind = Kind::Computed;
      for (StmtDecl& piece : pieceLoops(std::move(s))) pushPieces(std::move(piece), op);
    }
    // The result written whole from the temporaries, `value` reading them at its point.
    auto writeResult = [&](const std::function<ExprPtr(const std::function<ExprPtr(const std::string&)>&)>& value) {
      StmtDecl w;
      w.loc = w.opLoc = loc;
      w.lhs = tv.name;
      lhs(w, om, loc);
      w.rhs = value([&](const std::string& t) {
        std::vector<ExprPtr> at;
        for (const ExprPtr& i : w.lhsSubscripts) at.push_back(cloneExpr(*i));
        return call(t, loc, std::move(at));
      });
      std::set<unsigned> written;
      for (unsigned d : writtenLoops(om)) written.insert(d);
      splitWheres(w, loc, &written);
      for (StmtDecl& piece : pieceLoops(std::move(w))) out_.def.stmts.push_back(std::move(piece));
    };
    if (bySign)
      // The side above in the order asked for, where it has an element (its reduction is
      // not the identity), else the other.
      writeResult([&](const auto& at) {
        const bool max = f.op == ReduceOp::Max || f.op == ReduceOp::FMax;
        const std::string &above = targets[max ? 0 : 1], &below = targets[max ? 1 : 0];
        std::vector<ExprPtr> some;
        some.push_back(at(above));
        some.push_back(number(identityValue, floatBits(f.value.getType()), loc));
        return selectNode(node(ExprKind::Ne, loc, std::move(some)), at(above), at(below), loc);
      });
    if (wraps) writeResult([&](const auto& at) { return widthCall(width == 1 ? "zext" : "wrap", at(targets[0]), width, loc); });
  }
}

}  // namespace polyfuse::linalg_import

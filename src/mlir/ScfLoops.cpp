#include "mlir/ScfLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Importer.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace polyfuse::linalg_import {

namespace {

// The constant trip counts of a loop, one per induction variable; none where a bound
// or step is not a constant (or a step is not positive).
std::optional<std::vector<int64_t>> tripCounts(Operation* op) {
  llvm::SmallVector<mlir::OpFoldResult> lbs, ubs, steps;
  if (auto f = mlir::dyn_cast<mlir::scf::ForOp>(op)) {
    lbs = {f.getLowerBound()};
    ubs = {f.getUpperBound()};
    steps = {f.getStep()};
  } else {
    auto a = mlir::cast<mlir::scf::ForallOp>(op);
    lbs = a.getMixedLowerBound();
    ubs = a.getMixedUpperBound();
    steps = a.getMixedStep();
  }
  std::vector<int64_t> trips;
  for (size_t k = 0; k < lbs.size(); ++k) {
    std::optional<int64_t> lb = mlir::getConstantIntValue(lbs[k]), ub = mlir::getConstantIntValue(ubs[k]),
                           st = mlir::getConstantIntValue(steps[k]);
    if (!lb || !ub || !st || *st <= 0) return std::nullopt;
    trips.push_back(*ub > *lb ? (*ub - *lb + *st - 1) / *st : 0);
  }
  return trips;
}

bool isLoop(Operation* op) { return mlir::isa<mlir::scf::ForOp, mlir::scf::ForallOp>(op); }

// Each iteration of a forall, in order: its body cloned with the indices as constants and
// the shared outputs as the values the inserts so far made; the parallel inserts become
// inserts into those values.
void unrollForall(mlir::scf::ForallOp loop, const std::vector<int64_t>& trips, mlir::IRRewriter& rewriter) {
  mlir::Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  std::vector<int64_t> lb, step;
  for (mlir::OpFoldResult r : loop.getMixedLowerBound()) lb.push_back(*mlir::getConstantIntValue(r));
  for (mlir::OpFoldResult r : loop.getMixedStep()) step.push_back(*mlir::getConstantIntValue(r));
  llvm::SmallVector<Value> current(loop.getOutputs().begin(), loop.getOutputs().end());
  int64_t total = 1;
  for (int64_t t : trips) total *= t;
  mlir::Block* body = loop.getBody();
  for (int64_t n = 0; n < total; ++n) {
    mlir::IRMapping map;
    for (size_t k = trips.size(), rest = size_t(n); k-- > 0;) {
      const int64_t i = int64_t(rest % size_t(trips[k]));
      rest /= size_t(trips[k]);
      map.map(loop.getInductionVar(unsigned(k)), rewriter.create<mlir::arith::ConstantIndexOp>(loc, lb[k] + i * step[k]));
    }
    for (size_t k = 0; k < current.size(); ++k) map.map(loop.getRegionIterArgs()[k], current[k]);
    for (Operation& op : body->without_terminator()) rewriter.clone(op, map);
    for (Operation& op : loop.getTerminator().getYieldingOps()) {
      auto insert = mlir::cast<mlir::tensor::ParallelInsertSliceOp>(&op);
      auto arg = mlir::cast<mlir::BlockArgument>(insert.getDest());
      const size_t k = arg.getArgNumber() - trips.size();
      auto mapped = [&](llvm::SmallVector<mlir::OpFoldResult> list) {
        for (mlir::OpFoldResult& r : list)
          if (auto v = mlir::dyn_cast<Value>(r)) r = map.lookupOrDefault(v);
        return list;
      };
      const auto offsets = mapped(insert.getMixedOffsets()), sizes = mapped(insert.getMixedSizes()),
                 strides = mapped(insert.getMixedStrides());
      current[k] = rewriter.create<mlir::tensor::InsertSliceOp>(insert.getLoc(), map.lookupOrDefault(insert.getSource()),
                                                                current[k], offsets, sizes, strides);
    }
  }
  rewriter.replaceOp(loop, current);
}

// Each iteration of a for, in order: its body cloned with the index as a constant and the
// iteration arguments as what the one before yielded.
void unrollFor(mlir::scf::ForOp loop, int64_t trips, mlir::IRRewriter& rewriter) {
  rewriter.setInsertionPoint(loop);
  const int64_t lb = *mlir::getConstantIntValue(loop.getLowerBound()), step = *mlir::getConstantIntValue(loop.getStep());
  llvm::SmallVector<Value> current(loop.getInitArgs().begin(), loop.getInitArgs().end());
  for (int64_t i = 0; i < trips; ++i) {
    mlir::IRMapping map;
    map.map(loop.getInductionVar(), rewriter.create<mlir::arith::ConstantIndexOp>(loop.getLoc(), lb + i * step));
    for (size_t k = 0; k < current.size(); ++k) map.map(loop.getRegionIterArgs()[k], current[k]);
    for (Operation& op : loop.getBody()->without_terminator()) rewriter.clone(op, map);
    auto yield = mlir::cast<mlir::scf::YieldOp>(loop.getBody()->getTerminator());
    for (size_t k = 0; k < current.size(); ++k) current[k] = map.lookupOrDefault(yield.getOperand(unsigned(k)));
  }
  rewriter.replaceOp(loop, current);
}

}  // namespace

void unrollLoops(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  // A loop that computes nothing (a test's print loop, its prints read as results) goes
  // without being run; the loops inside a dead one go with it.
  std::vector<Operation*> deadLoops;
  f.walk<mlir::WalkOrder::PreOrder>([&](Operation* op) {
    if (!isLoop(op) || !mlir::isOpTriviallyDead(op)) return mlir::WalkResult::advance();
    deadLoops.push_back(op);
    return mlir::WalkResult::skip();
  });
  for (Operation* op : deadLoops) op->erase();
  const size_t dead = deadLoops.size();
  std::vector<Operation*> loops;
  f.walk([&](Operation* op) {
    if (isLoop(op)) loops.push_back(op);
  });
  if (dead) notes.push_back(std::to_string(dead) + " scf loop(s) compute nothing (no result, no effect): dropped");
  if (loops.empty()) return;
  // Within the bound on copies of bodies in all, before any loop is touched.
  int64_t copies = 0;
  for (Operation* op : loops) {
    std::optional<std::vector<int64_t>> trips = tripCounts(op);
    if (!trips)
      throw SourceError(locOf(op), "'" + opName(op) + "' with bounds or steps that are not constants is not read: polyfuse "
                                   "unrolls loops of constant bounds");
    int64_t nest = 1;
    for (Operation* p = op; p && p != f.getOperation(); p = p->getParentOp()) {
      if (!isLoop(p)) continue;
      const std::optional<std::vector<int64_t>> outer = tripCounts(p);
      for (int64_t t : outer.value_or(std::vector<int64_t>{})) nest = std::min<int64_t>(nest * t, 1LL << 40);
    }
    copies += nest;
    if (copies > kMaxUnrolledIterations)
      throw SourceError(locOf(op), "'" + opName(op) + "' runs its body " + std::to_string(nest) + " times in its nest, " +
                                       std::to_string(copies) + " bodies in all so far; polyfuse reads a loop as one copy " +
                                       "of its body per iteration, up to " + std::to_string(kMaxUnrolledIterations) +
                                       " in a function");
  }
  mlir::IRRewriter rewriter(f.getContext());
  // Innermost first: a loop's body holds no loop when it is unrolled.
  const size_t count = loops.size();
  while (!loops.empty()) {
    Operation* op = nullptr;
    for (Operation* l : loops) {
      bool inner = true;
      l->walk([&](Operation* x) {
        if (x != l && isLoop(x)) inner = false;
      });
      if (inner) {
        op = l;
        break;
      }
    }
    loops.erase(std::find(loops.begin(), loops.end(), op));
    const std::vector<int64_t> trips = *tripCounts(op);
    if (auto a = mlir::dyn_cast<mlir::scf::ForallOp>(op)) {
      unrollForall(a, trips, rewriter);
      continue;
    }
    unrollFor(mlir::cast<mlir::scf::ForOp>(op), trips[0], rewriter);
  }
  // The offsets the copies compute from their constant indices, folded to constants (the
  // arithmetic in linalg bodies stays as written).
  std::vector<Operation*> index;
  f.walk([&](Operation* op) {
    if (op->getParentOfType<mlir::linalg::LinalgOp>() || op->getNumRegions() || op->getNumResults() != 1) return;
    if (op->getDialect() && (op->getDialect()->getNamespace() == "arith" || op->getDialect()->getNamespace() == "affine") &&
        op->getResult(0).getType().isIndex())
      index.push_back(op);
  });
  mlir::GreedyRewriteConfig config;
  config.strictMode = mlir::GreedyRewriteStrictness::ExistingAndNewOps;
  (void)mlir::applyOpPatternsAndFold(index, mlir::FrozenRewritePatternSet(mlir::RewritePatternSet(f.getContext())), config);
  notes.push_back("read " + std::to_string(count) + " scf loop(s) of constant bounds as one copy of the body per iteration");
}

}  // namespace polyfuse::linalg_import

#include "mlir/TensorBuilders.h"

#include <functional>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Importer.h"

namespace polyfuse::linalg_import {

bool onlyReshapeShape(mlir::Value v) {
  return !v.use_empty() && std::all_of(v.getUses().begin(), v.getUses().end(), [](mlir::OpOperand& u) {
    return mlir::isa<mlir::tensor::ReshapeOp>(u.getOwner()) && u.getOperandNumber() == 1;
  });
}

namespace {

// `op`, whose one result is a ranked tensor, replaced by a linalg.generic of parallel
// loops over it (a tensor.empty of its extents as the init) whose body `fill` writes.
void replaceByGeneric(mlir::IRRewriter& rewriter, mlir::Operation* op, mlir::ValueRange dynamicExtents,
                      const std::function<void(mlir::OpBuilder&, mlir::Location)>& fill) {
  auto type = mlir::cast<mlir::RankedTensorType>(op->getResult(0).getType());
  const unsigned rank = unsigned(type.getRank());
  rewriter.setInsertionPoint(op);
  mlir::Value init = rewriter.create<mlir::tensor::EmptyOp>(op->getLoc(), type, dynamicExtents);
  llvm::SmallVector<mlir::AffineMap> maps{mlir::AffineMap::getMultiDimIdentityMap(rank, op->getContext())};
  llvm::SmallVector<mlir::utils::IteratorType> iters(rank, mlir::utils::IteratorType::parallel);
  auto g = rewriter.create<mlir::linalg::GenericOp>(op->getLoc(), mlir::TypeRange{type}, mlir::ValueRange{},
                                                    mlir::ValueRange{init}, maps, iters,
                                                    [&](mlir::OpBuilder& b, mlir::Location loc, mlir::ValueRange) { fill(b, loc); });
  rewriter.replaceOp(op, g->getResults());
}

// One generic over the result: each point selects its element by its row-major position,
// through a balanced tree of compares (depth log2 of the count; a chain 1,024 selects deep
// would be an expression as deep). The elements are scalars of the function (constants,
// arguments, single elements and arithmetic on them), read as they are wherever a body
// uses them.
void fromElements(mlir::IRRewriter& rewriter, mlir::tensor::FromElementsOp fe) {
  auto type = mlir::cast<mlir::RankedTensorType>(fe.getType());
  const unsigned rank = unsigned(type.getRank());
  const llvm::SmallVector<mlir::Value> elements(fe.getElements().begin(), fe.getElements().end());
  replaceByGeneric(rewriter, fe, {}, [&](mlir::OpBuilder& b, mlir::Location loc) {
    mlir::Value position = b.create<mlir::arith::ConstantIndexOp>(loc, 0);
    for (unsigned k = 0; k < rank; ++k) {
      mlir::Value extent = b.create<mlir::arith::ConstantIndexOp>(loc, type.getDimSize(k));
      mlir::Value scaled = b.create<mlir::arith::MulIOp>(loc, position, extent);
      position = b.create<mlir::arith::AddIOp>(loc, scaled, b.create<mlir::linalg::IndexOp>(loc, k));
    }
    // Elements [lo, hi): the lower half where position < mid.
    std::function<mlir::Value(size_t, size_t)> pick = [&](size_t lo, size_t hi) -> mlir::Value {
      if (hi - lo == 1) return elements[lo];
      const size_t mid = lo + (hi - lo) / 2;
      mlir::Value below = b.create<mlir::arith::CmpIOp>(loc, mlir::arith::CmpIPredicate::slt, position,
                                                         b.create<mlir::arith::ConstantIndexOp>(loc, int64_t(mid)));
      return b.create<mlir::arith::SelectOp>(loc, below, pick(lo, mid), pick(mid, hi));
    };
    b.create<mlir::linalg::YieldOp>(loc, pick(0, elements.size()));
  });
}

void generate(mlir::IRRewriter& rewriter, mlir::tensor::GenerateOp gen) {
  mlir::Block& body = gen.getBody().front();
  replaceByGeneric(rewriter, gen, gen.getDynamicExtents(), [&](mlir::OpBuilder& b, mlir::Location loc) {
    mlir::IRMapping map;
    for (unsigned k = 0; k < body.getNumArguments(); ++k) map.map(body.getArgument(k), b.create<mlir::linalg::IndexOp>(loc, k));
    for (mlir::Operation& o : body.without_terminator()) b.clone(o, map);
    b.create<mlir::linalg::YieldOp>(loc, map.lookupOrDefault(body.getTerminator()->getOperand(0)));
  });
}

}  // namespace

void tensorBuilders(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  std::vector<mlir::Operation*> ops;
  f.walk([&](mlir::Operation* op) {
    // In a linalg body they would build a tensor per point: the body's converter refuses them.
    if (op->getParentOfType<mlir::linalg::LinalgOp>()) return;
    if (auto fe = mlir::dyn_cast<mlir::tensor::FromElementsOp>(op)) {
      // One value everywhere is a fill as it stands; a reshape's sizes are no data.
      const auto elements = fe.getElements();
      const bool one = std::all_of(elements.begin(), elements.end(), [&](mlir::Value e) { return e == elements.front(); });
      if (!one && !onlyReshapeShape(fe.getResult())) ops.push_back(op);
    } else if (mlir::isa<mlir::tensor::GenerateOp>(op)) {
      ops.push_back(op);
    }
  });
  if (ops.empty()) return;
  mlir::IRRewriter rewriter(f.getContext());
  int elements = 0, generates = 0;
  for (mlir::Operation* op : ops) {
    if (auto fe = mlir::dyn_cast<mlir::tensor::FromElementsOp>(op)) {
      if (long(fe.getElements().size()) > kMaxFromElements)
        throw SourceError(locOf(op), "tensor.from_elements of " + std::to_string(fe.getElements().size()) +
                                         " elements: polyfuse selects among at most " + std::to_string(kMaxFromElements) +
                                         " (a constant of that many is an input)");
      fromElements(rewriter, fe);
      ++elements;
    } else {
      generate(rewriter, mlir::cast<mlir::tensor::GenerateOp>(op));
      ++generates;
    }
  }
  std::string what;
  if (elements) what = std::to_string(elements) + " tensor.from_elements as a generic selecting each element by its position";
  if (generates)
    what += (what.empty() ? "" : "; ") + std::to_string(generates) + " tensor.generate as the linalg.generic it means";
  notes.push_back(what);
}

}  // namespace polyfuse::linalg_import

#include "mlir/TensorBuilders.h"

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

// The elements in row-major order, as a fill of the first constant among them (or of
// zero) and an insert of each other one: every element is written, so no element keeps
// the fill unless it is the fill's value.
void fromElements(mlir::IRRewriter& rewriter, mlir::tensor::FromElementsOp fe) {
  auto type = mlir::cast<mlir::RankedTensorType>(fe.getType());
  const mlir::Location loc = fe.getLoc();
  rewriter.setInsertionPoint(fe);
  mlir::Value fill;
  for (mlir::Value e : fe.getElements())
    if (e.getDefiningOp<mlir::arith::ConstantOp>()) {
      fill = e;
      break;
    }
  if (!fill)
    fill = rewriter.create<mlir::arith::ConstantOp>(loc, mlir::cast<mlir::TypedAttr>(rewriter.getZeroAttr(type.getElementType())));
  mlir::Value t = rewriter.create<mlir::tensor::EmptyOp>(loc, type.getShape(), type.getElementType());
  t = rewriter.create<mlir::linalg::FillOp>(loc, fill, t).getResult(0);
  const llvm::ArrayRef<int64_t> shape = type.getShape();
  for (auto [n, e] : llvm::enumerate(fe.getElements())) {
    if (e == fill) continue;
    llvm::SmallVector<mlir::Value> at(shape.size());
    int64_t rest = int64_t(n);
    for (size_t k = shape.size(); k-- > 0;) {
      at[k] = rewriter.create<mlir::arith::ConstantIndexOp>(loc, rest % shape[k]);
      rest /= shape[k];
    }
    t = rewriter.create<mlir::tensor::InsertOp>(loc, e, t, at);
  }
  rewriter.replaceOp(fe, t);
}

void generate(mlir::IRRewriter& rewriter, mlir::tensor::GenerateOp gen) {
  auto type = mlir::cast<mlir::RankedTensorType>(gen.getType());
  const unsigned rank = unsigned(type.getRank());
  rewriter.setInsertionPoint(gen);
  mlir::Value init = rewriter.create<mlir::tensor::EmptyOp>(gen.getLoc(), type, gen.getDynamicExtents());
  mlir::MLIRContext* ctx = gen.getContext();
  llvm::SmallVector<mlir::AffineMap> maps{mlir::AffineMap::getMultiDimIdentityMap(rank, ctx)};
  llvm::SmallVector<mlir::utils::IteratorType> iters(rank, mlir::utils::IteratorType::parallel);
  mlir::Block& body = gen.getBody().front();
  auto g = rewriter.create<mlir::linalg::GenericOp>(
      gen.getLoc(), mlir::TypeRange{type}, mlir::ValueRange{}, mlir::ValueRange{init}, maps, iters,
      [&](mlir::OpBuilder& b, mlir::Location loc, mlir::ValueRange) {
        mlir::IRMapping map;
        for (unsigned k = 0; k < rank; ++k) map.map(body.getArgument(k), b.create<mlir::linalg::IndexOp>(loc, k));
        for (mlir::Operation& o : body.without_terminator()) b.clone(o, map);
        b.create<mlir::linalg::YieldOp>(loc, map.lookupOrDefault(body.getTerminator()->getOperand(0)));
      });
  rewriter.replaceOp(gen, g->getResults());
}

}  // namespace

void tensorBuilders(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  std::vector<mlir::Operation*> ops;
  f.walk([&](mlir::Operation* op) {
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
                                         " elements: polyfuse writes at most " + std::to_string(kMaxFromElements) +
                                         " one by one (a constant of that many is an input)");
      fromElements(rewriter, fe);
      ++elements;
    } else {
      generate(rewriter, mlir::cast<mlir::tensor::GenerateOp>(op));
      ++generates;
    }
  }
  std::string what;
  if (elements) what = std::to_string(elements) + " tensor.from_elements as a fill and an insert of each other element";
  if (generates)
    what += (what.empty() ? "" : "; ") + std::to_string(generates) + " tensor.generate as the linalg.generic it means";
  notes.push_back(what);
}

}  // namespace polyfuse::linalg_import

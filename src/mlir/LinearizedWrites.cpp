#include "mlir/LinearizedWrites.h"

#include <algorithm>
#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Importer.h"

namespace polyfuse::linalg_import {

namespace {

// The loops of `e`, outermost first, when it is sum_k d_k * stride_k with each stride the
// product of the extents of the loops after it (a row-major linearization) spanning
// exactly `extent`; none otherwise.
std::optional<std::vector<unsigned>> linearization(mlir::AffineExpr e, int64_t extent, const llvm::SmallVector<int64_t>& loops) {
  std::vector<std::pair<int64_t, unsigned>> terms;  // (stride, loop)
  std::vector<mlir::AffineExpr> todo{e};
  while (!todo.empty()) {
    mlir::AffineExpr x = todo.back();
    todo.pop_back();
    if (x.getKind() == mlir::AffineExprKind::Add) {
      auto b = mlir::cast<mlir::AffineBinaryOpExpr>(x);
      todo.push_back(b.getLHS());
      todo.push_back(b.getRHS());
    } else if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(x)) {
      terms.push_back({1, d.getPosition()});
    } else if (x.getKind() == mlir::AffineExprKind::Mul) {
      auto b = mlir::cast<mlir::AffineBinaryOpExpr>(x);
      auto d = mlir::dyn_cast<mlir::AffineDimExpr>(b.getLHS());
      auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(b.getRHS());
      if (!d || !c || c.getValue() < 1) return std::nullopt;
      terms.push_back({c.getValue(), d.getPosition()});
    } else {
      return std::nullopt;
    }
  }
  std::sort(terms.begin(), terms.end(), [](auto& a, auto& b) { return a.first > b.first; });
  int64_t stride = 1;
  std::vector<unsigned> order;
  for (size_t k = terms.size(); k-- > 0;) {
    const unsigned loop = terms[k].second;
    if (terms[k].first != stride || loop >= loops.size() || mlir::ShapedType::isDynamic(loops[loop]) ||
        std::find(order.begin(), order.end(), loop) != order.end())
      return std::nullopt;
    order.insert(order.begin(), loop);
    stride *= loops[loop];
  }
  if (stride != extent) return std::nullopt;
  return order;
}

}  // namespace

void expandLinearizedWrites(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  std::vector<mlir::linalg::GenericOp> generics;
  f.walk([&](mlir::linalg::GenericOp g) { generics.push_back(g); });
  mlir::IRRewriter rewriter(f.getContext());
  int count = 0;
  for (mlir::linalg::GenericOp g : generics) {
    if (!g.hasPureTensorSemantics()) continue;
    const llvm::SmallVector<int64_t> loops = g.getStaticLoopRanges();
    llvm::SmallVector<mlir::AffineMap> maps = g.getIndexingMapsArray();
    struct Expanded {
      unsigned init;
      llvm::SmallVector<mlir::ReassociationIndices> groups;
      llvm::SmallVector<int64_t> shape;
    };
    std::vector<Expanded> expanded;
    bool readable = true;
    for (mlir::OpOperand& init : g.getDpsInitsMutable()) {
      const unsigned operand = init.getOperandNumber();
      mlir::AffineMap m = maps[operand];
      if (m.isProjectedPermutation(/*allowZeroInResults=*/true)) continue;
      auto type = mlir::cast<mlir::RankedTensorType>(init.get().getType());
      Expanded x{operand, {}, {}};
      llvm::SmallVector<mlir::AffineExpr> results;
      for (unsigned r = 0; r < m.getNumResults() && readable; ++r) {
        std::optional<std::vector<unsigned>> order =
            type.isDynamicDim(r) ? std::nullopt : linearization(m.getResult(r), type.getDimSize(r), loops);
        if (!order) {
          readable = false;
          break;
        }
        mlir::ReassociationIndices group;
        for (unsigned loop : *order) {
          group.push_back(int64_t(x.shape.size()));
          x.shape.push_back(loops[loop]);
          results.push_back(mlir::getAffineDimExpr(loop, f.getContext()));
        }
        x.groups.push_back(group);
      }
      if (!readable) break;
      maps[operand] = mlir::AffineMap::get(m.getNumDims(), 0, results, f.getContext());
      expanded.push_back(std::move(x));
    }
    if (!readable || expanded.empty()) continue;
    rewriter.setInsertionPoint(g);
    llvm::SmallVector<Value> outs(g.getDpsInits().begin(), g.getDpsInits().end());
    llvm::SmallVector<mlir::Type> types(g.getResultTypes().begin(), g.getResultTypes().end());
    const unsigned firstInit = g.getDpsInits().getBeginOperandIndex();
    for (const Expanded& x : expanded) {
      auto type = mlir::cast<mlir::RankedTensorType>(outs[x.init - firstInit].getType());
      auto wide = mlir::RankedTensorType::get(x.shape, type.getElementType());
      outs[x.init - firstInit] =
          rewriter.create<mlir::tensor::ExpandShapeOp>(g.getLoc(), wide, outs[x.init - firstInit], x.groups);
      types[x.init - firstInit] = wide;
    }
    auto wide = rewriter.create<mlir::linalg::GenericOp>(g.getLoc(), types, g.getDpsInputs(), outs, maps,
                                                         g.getIteratorTypesArray());
    rewriter.inlineRegionBefore(g.getRegion(), wide.getRegion(), wide.getRegion().end());
    llvm::SmallVector<Value> results(wide->getResults().begin(), wide->getResults().end());
    for (const Expanded& x : expanded) {
      const unsigned k = x.init - firstInit;
      results[k] = rewriter.create<mlir::tensor::CollapseShapeOp>(g.getLoc(), g.getResultTypes()[k], results[k], x.groups);
    }
    rewriter.replaceOp(g, results);
    ++count;
  }
  if (count)
    notes.push_back(std::to_string(count) + " generic(s) write a result through a linearization of loops (n1 * 2 + n2): " +
                    "read as writing its expansion, then the collapse back");
}

}  // namespace polyfuse::linalg_import

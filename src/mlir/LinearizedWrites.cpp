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

void expandStridedInserts(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  std::vector<mlir::tensor::InsertSliceOp> inserts;
  f.walk([&](mlir::tensor::InsertSliceOp x) {
    if (!x.hasUnitStride()) inserts.push_back(x);
  });
  mlir::IRRewriter rewriter(f.getContext());
  int count = 0;
  for (mlir::tensor::InsertSliceOp x : inserts) {
    auto dest = x.getDestType();
    auto src = x.getSourceType();
    if (!dest.hasStaticShape() || !src.hasStaticShape() || src.getRank() != dest.getRank() || x.getDroppedDims().any())
      continue;
    const llvm::ArrayRef<int64_t> offsets = x.getStaticOffsets(), sizes = x.getStaticSizes(), strides = x.getStaticStrides();
    bool readable = true;
    llvm::SmallVector<mlir::ReassociationIndices> groups;
    llvm::SmallVector<int64_t> wideDest, wideSrc, wideOffsets, wideSizes;
    for (int64_t k = 0; k < dest.getRank() && readable; ++k) {
      const int64_t o = offsets[size_t(k)], n = sizes[size_t(k)], s = strides[size_t(k)], e = dest.getDimSize(k);
      if (mlir::ShapedType::isDynamic(o) || mlir::ShapedType::isDynamic(n) || mlir::ShapedType::isDynamic(s) || s < 1) {
        readable = false;
        break;
      }
      const int64_t at = int64_t(wideDest.size());
      if (s == 1) {
        groups.push_back({at});
        wideDest.push_back(e), wideSrc.push_back(n), wideOffsets.push_back(o), wideSizes.push_back(n);
        continue;
      }
      // Dimension e as (e / s, s): position o + s i is (o / s + i, o mod s).
      if (e % s != 0 || o < 0 || o + s * (n - 1) >= e) {
        readable = false;
        break;
      }
      groups.push_back({at, at + 1});
      wideDest.push_back(e / s), wideDest.push_back(s);
      wideSrc.push_back(n), wideSrc.push_back(1);
      wideOffsets.push_back(o / s), wideOffsets.push_back(o % s);
      wideSizes.push_back(n), wideSizes.push_back(1);
    }
    if (!readable) continue;
    rewriter.setInsertionPoint(x);
    mlir::Location loc = x.getLoc();
    auto wideDestType = mlir::RankedTensorType::get(wideDest, dest.getElementType());
    auto wideSrcType = mlir::RankedTensorType::get(wideSrc, src.getElementType());
    Value d = rewriter.create<mlir::tensor::ExpandShapeOp>(loc, wideDestType, x.getDest(), groups);
    Value s = rewriter.create<mlir::tensor::ExpandShapeOp>(loc, wideSrcType, x.getSource(), groups);
    llvm::SmallVector<int64_t> ones(wideDest.size(), 1);
    Value inserted = rewriter.create<mlir::tensor::InsertSliceOp>(
        loc, s, d, mlir::ValueRange{}, mlir::ValueRange{}, mlir::ValueRange{}, rewriter.getDenseI64ArrayAttr(wideOffsets),
        rewriter.getDenseI64ArrayAttr(wideSizes), rewriter.getDenseI64ArrayAttr(ones));
    rewriter.replaceOpWithNewOp<mlir::tensor::CollapseShapeOp>(x, dest, inserted, groups);
    ++count;
  }
  if (count)
    notes.push_back(std::to_string(count) + " insert_slice(s) with strides: each strided dimension of e viewed as " +
                    "(e / stride, stride), the slice inserted there with unit strides");
}

namespace {

// The viewed tensor's subscripts for an extract of `view` at `at`, built before `x`; none
// where the view is not one this reads through.
std::optional<std::pair<Value, llvm::SmallVector<Value>>> viewedSubscripts(mlir::RewriterBase& rw, mlir::Location loc,
                                                                           Value view, mlir::ValueRange at) {
  auto constant = [&](int64_t c) -> Value { return rw.create<mlir::arith::ConstantIndexOp>(loc, c); };
  llvm::SmallVector<Value> out;
  if (auto e = view.getDefiningOp<mlir::tensor::ExpandShapeOp>()) {
    auto type = e.getResultType();
    if (!type.hasStaticShape()) return std::nullopt;
    for (const mlir::ReassociationIndices& group : e.getReassociationIndices()) {
      // Row-major within the group; a unit extent's subscript is 0 (MLIR: in bounds).
      Value sum;
      int64_t stride = 1;
      for (auto it = group.rbegin(); it != group.rend(); ++it) {
        const int64_t extent = type.getDimSize(*it);
        if (extent != 1) {
          Value term = at[size_t(*it)];
          if (stride != 1) term = rw.create<mlir::arith::MulIOp>(loc, term, constant(stride));
          sum = sum ? Value(rw.create<mlir::arith::AddIOp>(loc, term, sum)) : term;
        }
        stride *= extent;
      }
      out.push_back(sum ? sum : constant(0));
    }
    return std::make_pair(e.getSrc(), out);
  }
  if (auto c = view.getDefiningOp<mlir::tensor::CollapseShapeOp>()) {
    auto src = c.getSrcType();
    if (!src.hasStaticShape()) return std::nullopt;
    const auto groups = c.getReassociationIndices();
    for (const mlir::ReassociationIndices& group : groups)
      if (llvm::count_if(group, [&](int64_t k) { return src.getDimSize(k) != 1; }) > 1) return std::nullopt;
    for (size_t g = 0; g < groups.size(); ++g)
      for (int64_t k : groups[g]) out.push_back(src.getDimSize(k) != 1 ? at[g] : constant(0));
    // A collapse to rank 0 has no groups: every source extent is 1.
    while (out.size() < size_t(src.getRank())) out.push_back(constant(0));
    return std::make_pair(c.getSrc(), out);
  }
  if (auto c = view.getDefiningOp<mlir::tensor::CastOp>()) {
    out.assign(at.begin(), at.end());
    return std::make_pair(c.getSource(), out);
  }
  if (auto s = view.getDefiningOp<mlir::tensor::ExtractSliceOp>()) {
    const llvm::ArrayRef<int64_t> offsets = s.getStaticOffsets(), strides = s.getStaticStrides();
    const llvm::SmallBitVector dropped = s.getDroppedDims();
    if (llvm::any_of(offsets, mlir::ShapedType::isDynamic) || llvm::any_of(strides, mlir::ShapedType::isDynamic))
      return std::nullopt;
    for (size_t k = 0, j = 0; k < offsets.size(); ++k) {
      if (dropped.test(unsigned(k))) {
        out.push_back(constant(offsets[k]));
        continue;
      }
      Value i = at[j++];
      if (strides[k] != 1) i = rw.create<mlir::arith::MulIOp>(loc, i, constant(strides[k]));
      if (offsets[k] != 0) i = rw.create<mlir::arith::AddIOp>(loc, i, constant(offsets[k]));
      out.push_back(i);
    }
    return std::make_pair(s.getSource(), out);
  }
  return std::nullopt;
}

}  // namespace

void extractsThroughViews(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  std::vector<mlir::tensor::ExtractOp> extracts;
  // In linalg bodies only: an extract outside one (torch-mlir's `.item()`) takes constant
  // indices, which the importer reads through views itself.
  f.walk([&](mlir::tensor::ExtractOp x) {
    if (x->getParentOfType<mlir::linalg::LinalgOp>()) extracts.push_back(x);
  });
  mlir::IRRewriter rewriter(f.getContext());
  int count = 0;
  for (mlir::tensor::ExtractOp x : extracts) {
    Value tensor = x.getTensor();
    llvm::SmallVector<Value> at(x.getIndices().begin(), x.getIndices().end());
    bool moved = false;
    rewriter.setInsertionPoint(x);
    while (auto next = viewedSubscripts(rewriter, x.getLoc(), tensor, at)) {
      moved = moved || !tensor.getDefiningOp<mlir::tensor::CastOp>();  // a cast alone the importer reads itself
      std::tie(tensor, at) = *next;
    }
    if (!moved) continue;
    rewriter.replaceOpWithNewOp<mlir::tensor::ExtractOp>(x, tensor, at);
    ++count;
  }
  if (count)
    notes.push_back(std::to_string(count) + " tensor.extract(s) from a reshape or slice read from the tensor it views, " +
                    "at the subscripts the view maps theirs to");
}

}  // namespace polyfuse::linalg_import

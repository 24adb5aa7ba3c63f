#include "mlir/InsertChains.h"

#include <algorithm>
#include <optional>

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace polyfuse::linalg_import {

namespace {

struct Piece {
  int64_t offset = 0, size = 0;
  mlir::Value source;
};

// The dimension the chain's pieces split and the pieces along it, in offset order; none
// where the chain is not one concatenation.
std::optional<std::pair<int64_t, std::vector<Piece>>> concatenation(mlir::RankedTensorType type,
                                                                    const std::vector<mlir::tensor::InsertSliceOp>& chain) {
  if (!type.hasStaticShape()) return std::nullopt;
  const llvm::ArrayRef<int64_t> shape = type.getShape();
  int64_t dim = -1;
  std::vector<Piece> pieces;
  for (mlir::tensor::InsertSliceOp x : chain) {
    if (x.getSourceType().getRank() != type.getRank() || !x.hasUnitStride() ||
        mlir::ShapedType::isDynamicShape(x.getStaticOffsets()) || mlir::ShapedType::isDynamicShape(x.getStaticSizes()))
      return std::nullopt;
    Piece p{0, 0, x.getSource()};
    for (int64_t d = 0; d < type.getRank(); ++d) {
      const int64_t off = x.getStaticOffsets()[size_t(d)], size = x.getStaticSizes()[size_t(d)];
      if (off == 0 && size == shape[size_t(d)]) {
        if (d != dim) continue;
      } else if (dim < 0) {
        dim = d;
      } else if (d != dim) {
        return std::nullopt;  // pieces of a grid, not of a row
      }
      p.offset = off;
      p.size = size;
    }
    pieces.push_back(p);
  }
  if (dim < 0) return std::nullopt;  // each insert overwrites the whole: not pieces
  // A piece full along `dim` that came before `dim` was named has its extent there.
  for (size_t k = 0; k < chain.size(); ++k)
    if (pieces[k].size == 0) pieces[k] = {0, shape[size_t(dim)], pieces[k].source};
  std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
  int64_t at = 0;
  for (const Piece& p : pieces) {
    if (p.offset != at || p.size <= 0) return std::nullopt;
    at += p.size;
  }
  if (at != shape[size_t(dim)]) return std::nullopt;
  return std::make_pair(dim, pieces);
}

}  // namespace

void insertChainsAsConcat(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  // Each chain starts at an insert into a tensor.empty (an empty's other uses, as a
  // generic's init, hold no values and stay).
  std::vector<mlir::tensor::InsertSliceOp> starts;
  f.walk([&](mlir::tensor::InsertSliceOp x) {
    if (x.getDest().getDefiningOp<mlir::tensor::EmptyOp>() && x.getSource() != x.getDest()) starts.push_back(x);
  });
  mlir::IRRewriter rewriter(f.getContext());
  int rewritten = 0;
  for (mlir::tensor::InsertSliceOp first : starts) {
    std::vector<mlir::tensor::InsertSliceOp> chain{first};
    for (mlir::Value at = first.getResult(); at.hasOneUse();) {
      auto x = mlir::dyn_cast<mlir::tensor::InsertSliceOp>(*at.getUsers().begin());
      if (!x || x.getDest() != at || x.getSource() == at) break;
      chain.push_back(x);
      at = x.getResult();
    }
    if (chain.size() < 2) continue;
    auto empty = first.getDest().getDefiningOp<mlir::tensor::EmptyOp>();
    const auto found = concatenation(empty.getType(), chain);
    if (!found) continue;
    std::vector<mlir::Value> inputs;
    for (const Piece& p : found->second) inputs.push_back(p.source);
    rewriter.setInsertionPoint(chain.back());
    auto c = rewriter.create<mlir::tensor::ConcatOp>(chain.back().getLoc(), empty.getType(), uint64_t(found->first), inputs);
    rewriter.replaceOp(chain.back(), c.getResult());
    for (size_t k = chain.size() - 1; k-- > 0;) rewriter.eraseOp(chain[k]);
    if (empty->use_empty()) rewriter.eraseOp(empty);
    ++rewritten;
  }
  if (rewritten)
    notes.push_back(std::to_string(rewritten) +
                    " chain(s) of tensor.insert_slice filling a tensor.empty side by side along one dimension "
                    "read as the tensor.concat of their pieces");
}

}  // namespace polyfuse::linalg_import

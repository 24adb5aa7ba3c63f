// Tensor ops: views read through to their sources (cast, expand/collapse_shape, reshape,
// extract_slice, pack/unpack) and ops that write tensors of their own (pad, insert_slice,
// insert, concat, a pack with padding).
#include <iterator>
#include <numeric>

#include "mlir/Importer.h"

namespace polyfuse::linalg_import {

// expand_shape: a source index is the row-major combination of its group's indices.
void Importer::expand(Operation* op) {
  auto e = mlir::cast<mlir::tensor::ExpandShapeOp>(op);
  Shape src = tensorOf(e.getSrc(), op).shape, shape;
  unsigned dyn = 0;
  for (int64_t n : e.getStaticOutputShape())
    shape.push_back(mlir::ShapedType::isDynamic(n) ? indexSym(e.getOutputShape()[dyn++], op) : ext_.literal(n));
  std::vector<mlir::AffineExpr> exprs;
  auto groups = e.getReassociationIndices();
  for (size_t g = 0; g < groups.size(); ++g) {
    mlir::AffineExpr x = mlir::getAffineConstantExpr(0, op->getContext());
    int dynamic = -1;
    int64_t product = 1;
    const mlir::AffineExpr zero = x;
    for (int64_t k : groups[g]) {
      std::optional<int64_t> n = ext_.value(shape[size_t(k)]);
      if (n && *n == 1) continue;  // a unit dimension's index is always 0
      if (!n && x != zero)
        throw SourceError(locOf(op), "expand_shape with a dynamic inner extent is not affine; polyfuse needs static ones");
      x = x * (n ? *n : 1) + mlir::getAffineDimExpr(unsigned(k), op->getContext());
      if (n) product *= *n;
      else dynamic = int(k);
    }
    // The source's extent is the group's product: a multiple of the dynamic extent in it.
    if (dynamic >= 0) ext_.uniteScaled(src[g], shape[size_t(dynamic)], product, locOf(op));
    else ext_.unite(src[g], ext_.literal(product), locOf(op));
    exprs.push_back(x);
  }
  view(op, e.getSrc(), shape, exprs);
}

// collapse_shape: each source index is its part of the group's index (floordiv and mod
// unless the group has one dimension that is not 1, which reads only as far as affine).
// A dynamic extent outermost in its group with static ones inside it collapses to a
// multiple of its size (`?x128` to 128 * N), read at (i floordiv 128, i mod 128).
void Importer::collapse(Operation* op) {
  auto c = mlir::cast<mlir::tensor::CollapseShapeOp>(op);
  Shape src = tensorOf(c.getSrc(), op).shape, shape;
  std::vector<mlir::AffineExpr> exprs;
  auto groups = c.getReassociationIndices();
  for (size_t g = 0; g < groups.size(); ++g) {
    int dynamic = -1;
    int64_t product = 1;
    for (int64_t k : groups[g]) {
      std::optional<int64_t> n = ext_.value(src[size_t(k)]);
      if (!n && dynamic >= 0)
        throw SourceError(locOf(op), "collapse_shape of two dynamic extents: their product is not one size");
      if (!n && product != 1)
        throw SourceError(locOf(op), "collapse_shape of a dynamic extent inside static ones (" + ext_.text(src[size_t(k)]) +
                                         " within " + std::to_string(product) + "): its index would be divided by a size");
      if (!n) dynamic = int(k);
      else product *= *n;
    }
    shape.push_back(dynamic < 0 ? ext_.literal(product)
                    : product == 1 ? src[size_t(dynamic)] : ext_.scaled(src[size_t(dynamic)], product));
    mlir::AffineExpr v = mlir::getAffineDimExpr(unsigned(g), op->getContext());
    int64_t inner = 1;
    std::vector<mlir::AffineExpr> part(groups[g].size());
    for (size_t i = groups[g].size(); i-- > 0;) {
      int64_t k = groups[g][i];
      std::optional<int64_t> n = ext_.value(src[size_t(k)]);
      if (n && *n == 1) part[i] = mlir::getAffineConstantExpr(0, op->getContext());
      else if (dynamic == int(k)) part[i] = product == 1 ? v : v.floorDiv(inner);  // outermost: inner is the product
      else if (dynamic < 0 && product == *n) part[i] = v;  // the only non-unit one
      else part[i] = (v.floorDiv(inner)) % *n;
      if (n) inner *= *n;
    }
    for (auto& p : part) exprs.push_back(p);
  }
  // To rank 0 (no groups): every source dimension is a unit one, read at 0 (MLIR's
  // unit-extent folding makes these of a tensor<1xf32> read at a constant).
  if (groups.empty())
    for (size_t k = 0; k < src.size(); ++k) exprs.push_back(mlir::getAffineConstantExpr(0, op->getContext()));
  view(op, c.getSrc(), shape, exprs);
}

// tensor.pack and tensor.unpack (tpp-mlir's blocked layouts) with static tiles: views.
// A packed element (outer o, tile t) is the unpacked element whose tiled dims are
// o * tile + t (the outer dims in outer_dims_perm's order): a pack reads its source at
// that affine form, an unpack at its parts, x floordiv tile and x mod tile, which the
// reading loops are split for. A pack whose tiles run past its source (a padding
// value) is no view but a tensor of its own (paddedPackStatements).
void Importer::packView(Operation* op, Value source, llvm::ArrayRef<int64_t> innerPos, llvm::ArrayRef<int64_t> tiles,
              llvm::ArrayRef<int64_t> outerPerm, bool pack, bool padded) {
  SourceLoc loc = locOf(op);
  const std::string what = pack ? "tensor.pack" : "tensor.unpack";
  auto t = tensorType(op->getResult(0), op);
  // A dynamic extent is the destination's (a known number where IREE's tests write it as a
  // dim of a dynamic constant); a dynamic tile must be a known number.
  const Shape dest = tensorOf(op->getOperand(1), op).shape;  // both ops: source, then destination
  std::vector<int64_t> extents;  // -1: a size's multiple, the destination's extent
  for (int64_t k = 0; k < t.getRank(); ++k) {
    const std::optional<int64_t> n = t.isDynamicDim(k) ? ext_.value(dest[size_t(k)]) : t.getDimSize(k);
    extents.push_back(n ? *n : -1);
  }
  for (int64_t n : tiles)
    if (n <= 0) throw SourceError(loc, what + " with a tile not known to be positive is not supported (constant tiles are)");
  const Shape src = tensorOf(source, op).shape;
  const int64_t rank = int64_t(pack ? src.size() : size_t(t.getRank()));  // the unpacked rank
  mlir::MLIRContext* ctx = op->getContext();
  // tileOf[d]: dim d's tile, 0 when it is not tiled; outerOf[d]: the outer position of d.
  std::vector<int64_t> tileOf(size_t(rank), 0), outerOf(size_t(rank), 0), innerOf(size_t(rank), -1);
  for (size_t p = 0; p < innerPos.size(); ++p) {
    tileOf[size_t(innerPos[p])] = tiles[p];
    innerOf[size_t(innerPos[p])] = int64_t(p);
  }
  for (int64_t i = 0; i < rank; ++i) outerOf[size_t(outerPerm.empty() ? i : outerPerm[size_t(i)])] = i;
  Shape shape;
  for (size_t k = 0; k < extents.size(); ++k) shape.push_back(extents[k] >= 0 ? ext_.literal(extents[k]) : dest[k]);
  // Dynamic extents: an untiled dimension keeps its extent; a tiled one of a static unpacked
  // extent n has ceil(n / tile) tiles (read as static below); of a dynamic one, the tiles
  // cover it exactly, the tile times the outer extent (a pack's source needs no padding
  // value so; an unpack is read as dropping none, with a note where both are dynamic).
  const Shape& unpacked = pack ? src : shape;
  const Shape& packed = pack ? shape : src;
  for (int64_t d = 0; d < rank; ++d) {
    const int u = unpacked[size_t(d)], o = packed[size_t(outerOf[size_t(d)])];
    const int64_t tile = tileOf[size_t(d)];
    if (!tile) {
      ext_.unite(u, o, loc);
      continue;
    }
    const std::optional<int64_t> n = ext_.value(u);
    if (n && ext_.value(o)) continue;  // static: as before
    if (n) {
      ext_.unite(o, ext_.literal((*n + tile - 1) / tile), loc);
      continue;
    }
    if (padded) throw SourceError(loc, "tensor.pack of a dynamic dimension with a padding value is not supported");
    if (!pack)
      out_.notes.push_back("line " + std::to_string(loc.line) + ": the tensor.unpack is read as dropping no padding: its dimension " +
                           std::to_string(d) + " is " + std::to_string(tile) + " times its tiles' " + ext_.text(o));
    ext_.uniteScaled(u, o, tile, loc);
  }
  for (size_t k = 0; k < shape.size(); ++k)
    if (extents[k] < 0) extents[k] = ext_.value(shape[k]).value_or(-1);
  std::vector<mlir::AffineExpr> exprs;
  if (pack) {
    PaddedPack tail;
    for (int64_t d = 0; d < rank; ++d) {
      const mlir::AffineExpr o = mlir::getAffineDimExpr(unsigned(outerOf[size_t(d)]), ctx);
      if (!tileOf[size_t(d)]) { exprs.push_back(o); continue; }
      exprs.push_back(o * tileOf[size_t(d)] + mlir::getAffineDimExpr(unsigned(rank + innerOf[size_t(d)]), ctx));
      std::optional<int64_t> n = ext_.value(src[size_t(d)]);
      if (!n || extents[size_t(outerOf[size_t(d)])] < 0) continue;  // a multiple of its tile (above)
      // The tiles cover the dimension past its end where there are more of them than it
      // needs, not only where the tile does not divide it.
      if (extents[size_t(outerOf[size_t(d)])] * tileOf[size_t(d)] <= *n) continue;
      if (!padded)
        // MLIR's verifier refuses partial tiles without a padding value, but lets a
        // destination hold more whole tiles than the source fills: undefined elements.
        throw SourceError(loc, "tensor.pack into more tiles than dimension " + std::to_string(d) +
                                   " fills, with no padding value: their elements are undefined");
      tail.bounds.emplace_back(exprs.back(), *n);
    }
    // The last tiles run past the source: a tensor of its own, the source where each
    // tiled index is inside it and the padding value elsewhere.
    if (!tail.bounds.empty()) {
      auto p = mlir::cast<mlir::tensor::PackOp>(op);
      tensorType(p.getResult(), op);
      tensors_[p.getResult()] = TensorValue(Kind::Computed, shape);
      tail.read = mlir::AffineMap::get(unsigned(t.getRank()), 0, exprs, ctx);
      paddedPacks_[op] = tail;
      return;
    }
  } else {
    exprs.resize(size_t(rank + int64_t(innerPos.size())));
    for (int64_t d = 0; d < rank; ++d) {
      const mlir::AffineExpr x = mlir::getAffineDimExpr(unsigned(d), ctx);
      const int64_t tile = tileOf[size_t(d)];
      exprs[size_t(outerOf[size_t(d)])] = tile ? x.floorDiv(tile) : x;
      if (tile) exprs[size_t(rank + innerOf[size_t(d)])] = x % tile;
    }
  }
  view(op, source, shape, exprs);
}

// tensor.reshape to a static shape: the elements in the same row-major order, each
// source index its part of the result's linear index (reads simplify it by their loops'
// ranges, IndexRanges.h).
void Importer::reshape(Operation* op) {
  auto r = mlir::cast<mlir::tensor::ReshapeOp>(op);
  auto t = tensorType(r.getResult(), op);
  const Shape src = tensorOf(r.getSource(), op).shape;
  std::vector<int64_t> from;
  for (int sym : src) {
    std::optional<int64_t> n = ext_.value(sym);
    if (!n) throw SourceError(locOf(op), "tensor.reshape of a dynamic shape is not supported (a static one is read as a view)");
    from.push_back(*n);
  }
  if (!t.hasStaticShape()) throw SourceError(locOf(op), "tensor.reshape to a dynamic shape is not supported (a static one is read as a view)");
  mlir::MLIRContext* ctx = op->getContext();
  Shape shape;
  mlir::AffineExpr linear = mlir::getAffineConstantExpr(0, ctx);
  for (int64_t k = 0; k < t.getRank(); ++k) {
    shape.push_back(ext_.literal(t.getDimSize(k)));
    linear = linear * t.getDimSize(k) + mlir::getAffineDimExpr(unsigned(k), ctx);
  }
  std::vector<mlir::AffineExpr> exprs(from.size());
  int64_t inner = 1;
  for (size_t i = from.size(); i-- > 0;) {
    exprs[i] = i == 0 ? linear.floorDiv(inner) : linear.floorDiv(inner) % from[i];
    inner *= from[i];
  }
  view(op, r.getSource(), shape, exprs);
}

// A slice's window in dimension k of a tensor of extent `of`: MLIR's verifier checks
// static offsets, not those that fold from values.
void Importer::checkWindow(Operation* op, const std::string& what, size_t k, int64_t offset, int64_t stride, int size,
                           int of) {
  const std::optional<int64_t> n = ext_.value(size), extent = ext_.value(of);
  if (offset < 0 || stride < 1 || (n && extent && *n > 0 && offset + (*n - 1) * stride >= *extent))
    throw SourceError(locOf(op), what + " in dimension " + std::to_string(k) + " at offset " + std::to_string(offset) +
                                     (stride != 1 ? ", stride " + std::to_string(stride) : std::string()) +
                                     (n ? ", size " + std::to_string(*n) : std::string()) + " leaves the tensor (extent " +
                                     ext_.text(of) + ")");
}

// extract_slice with static offsets and strides: an affine window of the source.
void Importer::slice(Operation* op) {
  auto x = mlir::cast<mlir::tensor::ExtractSliceOp>(op);
  const auto offsets = foldedList(x.getMixedOffsets()), strides = foldedList(x.getMixedStrides());
  if (!offsets || !strides)
    throw SourceError(locOf(op), "extract_slice with computed offsets or strides is not supported (constants, and values that fold to them, are)");
  Shape shape;
  llvm::SmallBitVector dropped = x.getDroppedDims();
  auto sizes = x.getMixedSizes();
  std::vector<mlir::AffineExpr> exprs;
  unsigned r = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    int64_t off = (*offsets)[k], stride = (*strides)[k];
    if (dropped.test(unsigned(k))) {
      checkWindow(op, "extract_slice", k, off, 1, ext_.literal(1), tensorOf(x.getSource(), op).shape[k]);
      exprs.push_back(mlir::getAffineConstantExpr(off, op->getContext()));
      continue;
    }
    shape.push_back(extentOf(sizes[k], op));
    checkWindow(op, "extract_slice", k, off, stride, shape.back(), tensorOf(x.getSource(), op).shape[k]);
    exprs.push_back(mlir::getAffineDimExpr(r++, op->getContext()) * stride + off);
    if (mlir::isa<Value>(sizes[k])) {
      if (stride != 1) throw SourceError(locOf(op), "extract_slice of a dynamic size with a stride other than 1 is not supported");
      const Shape& src = tensorOf(x.getSource(), op).shape;
      bounds_.push_back({{{shape.back(), 1}}, off, src[k], locOf(op), "the extract_slice"});
    }
  }
  view(op, x.getSource(), shape, exprs);
}

// A pad's amounts on one side: static, or values that fold to constants.
std::vector<int64_t> Importer::padAmounts(mlir::tensor::PadOp p, bool low) {
  const std::optional<std::vector<int64_t>> n = foldedList(low ? p.getMixedLowPad() : p.getMixedHighPad());
  if (!n) throw SourceError(locOf(p), "tensor.pad with computed padding amounts is not supported (constants, and values that fold to them, are)");
  for (int64_t a : *n)
    if (a < 0) throw SourceError(locOf(p), "tensor.pad by a negative amount (" + std::to_string(a) + ") is not supported");
  return *n;
}

// tensor.pad with static padding and a constant (or float argument) value: a tensor of
// its own, written as two statements (the value everywhere, then the source inside).
void Importer::padShape(Operation* op) {
  auto p = mlir::cast<mlir::tensor::PadOp>(op);
  SourceLoc loc = locOf(op);
  const std::vector<int64_t> low = padAmounts(p, true), high = padAmounts(p, false);
  Value v = p.getConstantPaddingValue();
  if (!v || (!constantValue(v) && !scalars_.count(v)))
    throw SourceError(loc, "tensor.pad must yield one constant or float argument, the same at every point");
  tensorType(p.getResult(), op);
  const Shape& src = tensorOf(p.getSource(), op).shape;
  Shape shape;
  for (size_t k = 0; k < src.size(); ++k) {
    const int64_t grow = low[k] + high[k];
    std::optional<int64_t> n = ext_.value(src[k]);
    if (!n && grow) throw SourceError(loc, "tensor.pad of a dynamic dimension (dimension " + std::to_string(k) + ") is not supported");
    shape.push_back(n ? ext_.literal(*n + grow) : src[k]);
  }
  tensors_[p.getResult()] = TensorValue(Kind::Computed, shape);
}

// tensor.insert_slice with static offsets and unit strides: the destination copied (or
// its fill, or zeros for a tensor.empty), then the source written over the window.
void Importer::insertShape(Operation* op) {
  auto x = mlir::cast<mlir::tensor::InsertSliceOp>(op);
  SourceLoc loc = locOf(op);
  const auto offsets = foldedList(x.getMixedOffsets()), strides = foldedList(x.getMixedStrides());
  if (!offsets || !strides)
    throw SourceError(loc, "insert_slice with computed offsets or strides is not supported (constants, and values that fold to them, are)");
  for (int64_t st : *strides)
    if (st != 1) throw SourceError(loc, "insert_slice with a stride other than 1 is not supported");
  tensorType(x.getResult(), op);
  tensorType(x.getSource(), op);
  const Shape src = tensorOf(x.getSource(), op).shape;
  const Shape dest = tensorOf(x.getDest(), op).shape;
  auto sizes = x.getMixedSizes();
  // A rank-reducing insert's source lacks the unit dimensions MLIR drops.
  const llvm::SmallBitVector dropped = x.getDroppedDims();
  for (size_t k = 0, j = 0; k < sizes.size(); ++k) {
    if (k < dropped.size() && dropped.test(unsigned(k))) {
      checkWindow(op, "insert_slice", k, (*offsets)[k], 1, ext_.literal(1), dest[k]);
      continue;
    }
    ext_.unite(src[j], extentOf(sizes[k], op), loc);
    checkWindow(op, "insert_slice", k, (*offsets)[k], 1, src[j], dest[k]);
    if (mlir::isa<Value>(sizes[k])) bounds_.push_back({{{src[j], 1}}, (*offsets)[k], dest[k], loc, "the insert_slice"});
    ++j;
  }
  tensors_[x.getResult()] = TensorValue(Kind::Computed, dest);
}

// tensor.concat: the operands side by side along `dim`, each at the offset of those
// before it; the other extents are one size. The offsets must be static.
void Importer::concatShape(Operation* op) {
  auto c = mlir::cast<mlir::tensor::ConcatOp>(op);
  SourceLoc loc = locOf(op);
  auto t = tensorType(c.getResult(), op);
  const size_t dim = size_t(c.getDim());
  Shape shape;
  int64_t along = 0;
  for (Value in : c.getInputs()) {
    tensorType(in, op);
    const Shape& s = tensorOf(in, op).shape;
    if (shape.empty()) shape = s;
    for (size_t k = 0; k < s.size(); ++k)
      if (k != dim) ext_.unite(shape[k], s[k], loc);
    std::optional<int64_t> n = ext_.value(s[dim]);
    if (!n) throw SourceError(loc, "tensor.concat along a dynamic dimension (dimension " + std::to_string(dim) + ") is not supported");
    along += *n;
  }
  shape[dim] = ext_.literal(along);
  if (!t.isDynamicDim(int64_t(dim))) ext_.unite(shape[dim], ext_.literal(t.getDimSize(int64_t(dim))), loc);
  tensors_[c.getResult()] = TensorValue(Kind::Computed, shape);
}

Importer::Window Importer::window(Value source, std::vector<int64_t> offsets, Operation* op) {
  return Window{source, std::move(offsets), tensorOf(source, op).shape, {}};
}

namespace {

// The dimensions that a division (floordiv, mod) in `map` takes apart.
std::set<unsigned> dividedDims(mlir::AffineMap map) {
  std::set<unsigned> dims;
  for (mlir::AffineExpr r : map.getResults())
    r.walk([&](mlir::AffineExpr e) {
      auto b = mlir::dyn_cast<mlir::AffineBinaryOpExpr>(e);
      if (!b || (e.getKind() != mlir::AffineExprKind::FloorDiv && e.getKind() != mlir::AffineExprKind::Mod &&
                 e.getKind() != mlir::AffineExprKind::CeilDiv))
        return;
      b.getLHS().walk([&](mlir::AffineExpr x) {
        if (auto d = mlir::dyn_cast<mlir::AffineDimExpr>(x)) dims.insert(d.getPosition());
      });
    });
  return dims;
}

// d_k -> d_k + by_k.
mlir::AffineMap shiftMap(const std::vector<int64_t>& by, mlir::MLIRContext* ctx) {
  std::vector<mlir::AffineExpr> exprs;
  for (size_t k = 0; k < by.size(); ++k) exprs.push_back(mlir::getAffineDimExpr(unsigned(k), ctx) + by[k]);
  return mlir::AffineMap::get(unsigned(by.size()), 0, exprs, ctx);
}

std::vector<int64_t> minus(std::vector<int64_t> v) {
  for (int64_t& x : v) x = -x;
  return v;
}

}  // namespace

// R(d0, ..) = source(d0 - o0, ..) where dk in ok:ok + extent_k: a window written over R.
// Along a dimension in `pieced` that the read divides (the source a collapse of
// [14, 14] read at R's 1:197), the window is written in pieces aligned to the
// divisions: over each, a floordiv is a constant and a mod a shifted loop, so the
// reads stay affine with no split of R's loop, which the other windows cross. The
// last piece comes first, as the last window does (concatStatements).
std::vector<StmtDecl> Importer::windowWrites(const std::string& tensor, const Window& w,
                                             const std::set<unsigned>& pieced, Operation* op) {
  SourceLoc loc = locOf(op);
  mlir::MLIRContext* ctx = op->getContext();
  auto [data, map] = throughViews(w.source, w.read(ctx), op);
  const mlir::AffineMap fromOrigin = map.compose(shiftMap(w.offsets, ctx));
  struct Cut {
    unsigned dim;
    int64_t size, extent;
  };
  std::vector<Cut> cuts;
  size_t pieces = 1;
  for (unsigned d : dividedDims(fromOrigin)) {
    if (!pieced.count(d)) continue;
    const std::optional<int64_t> extent = ext_.value(w.extents[d]);
    if (!extent)  // the pieces below are counted over a static extent
      throw SourceError(loc, "this op writes a window of dynamic extent " + ext_.text(w.extents[d]) + " along dimension " +
                                 std::to_string(d) + " read through a collapse_shape; polyfuse writes such a window over static extents");
    int64_t size = 0;
    for (mlir::AffineExpr r : fromOrigin.getResults())
      r.walk([&](mlir::AffineExpr e) {
        if (auto part = collapsedPart(e); part && std::get<0>(*part) == d)
          for (int64_t b : {std::get<1>(*part), std::get<1>(*part) * std::get<2>(*part)})
            if (b > 1) size = std::gcd(size, b);
      });
    size = std::max<int64_t>(size, 1);
    cuts.push_back({d, size, *extent});
    pieces *= size_t((*extent + size - 1) / size);
    if (pieces > kMaxWindowPieces)
      throw SourceError(loc, "this op writes a window read through a collapse_shape of several extents along dimension " +
                                 std::to_string(d) + " in " + std::to_string(pieces) + " or more pieces; polyfuse writes at most " +
                                 std::to_string(kMaxWindowPieces));
  }
  std::vector<StmtDecl> out;
  for (size_t p = pieces; p-- > 0;) {
    std::vector<int64_t> lo = w.offsets;
    std::vector<std::optional<int64_t>> extents;
    for (size_t k = 0; k < w.offsets.size(); ++k) extents.push_back(ext_.value(w.extents[k]));
    size_t rest = p;
    for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
      const int64_t count = (it->extent + it->size - 1) / it->size, at = int64_t(rest % size_t(count));
      rest /= size_t(count);
      lo[it->dim] += at * it->size;
      extents[it->dim] = std::min(it->size, it->extent - at * it->size);
    }
    StmtDecl s = assignment(tensor, w.offsets.size(), op);
    for (size_t k = 0; k < w.offsets.size(); ++k) {
      if (split_.count(unsigned(k))) {  // a whole dimension (windowSplits)
        loopWhere(s, unsigned(k), w.extents[k], loc);
        continue;
      }
      WhereRange range;
      range.index = "d" + std::to_string(k);
      range.loc = loc;
      range.lo = integer(lo[k], loc);
      if (cuts.empty()) {
        range.hi = lo[k] == 0 ? extent(w.extents[k], loc)
                              : binary(ExprKind::Add, integer(lo[k], loc), extent(w.extents[k], loc), loc);
      } else {
        range.hi = extents[k] ? integer(lo[k] + *extents[k], loc)
                              : binary(ExprKind::Add, integer(lo[k], loc), extent(w.extents[k], loc), loc);
      }
      s.where.push_back(std::move(range));
    }
    if (cuts.empty()) {
      s.rhs = dataElement(data, map, loc, op);
    } else {
      // Each loop counted from its piece's start, the divisions resolved by its range.
      const mlir::AffineMap piece = simplifyByRanges(map.compose(shiftMap(lo, ctx)), extents);
      s.rhs = dataElement(data, piece.compose(shiftMap(minus(lo), ctx)), loc, op);
    }
    out.push_back(std::move(s));
  }
  return out;
}

// A tensor op reads its sources as windows of its result. Where a source is a
// collapse (or a result stored split) read along a whole dimension of the result (a
// GroupNorm's output, its channels split into groups, padded in height and width), the
// loop over that dimension splits as a generic's does, and the result is stored split
// too, so every statement writing it names the same parts. Along a dimension that some
// window covers only in part (a concatenation along the collapsed dimension) no loop
// splits: the windows divided along it are written in pieces (windowWrites). Returns
// those dimensions.
std::set<unsigned> Importer::windowSplits(const std::vector<Window>& windows, TensorValue& result, Operation* op) {
  mlir::MLIRContext* ctx = op->getContext();
  std::vector<mlir::AffineMap> maps;
  std::set<unsigned> divided, partial;
  for (const Window& w : windows) {
    maps.push_back(throughViews(w.source, w.read(ctx), op).second);
    for (unsigned d : dividedDims(maps.back())) divided.insert(d);
    for (size_t d = 0; d < w.offsets.size(); ++d)
      if (w.offsets[d] != 0 || !sameExtent(w.extents[d], result.shape[d])) partial.insert(unsigned(d));
  }
  std::set<unsigned> pieced;
  std::set_intersection(divided.begin(), divided.end(), partial.begin(), partial.end(),
                        std::inserter(pieced, pieced.begin()));
  // The pieced dimensions out of the search for loops to split.
  for (mlir::AffineMap& m : maps)
    for (unsigned d : pieced) m = m.replace(mlir::getAffineDimExpr(d, ctx), mlir::getAffineConstantExpr(0, ctx), m.getNumDims(), 0);
  splitLoops(maps, std::vector<int>(result.shape.begin(), result.shape.end()), locOf(op));
  if (!pieced_.empty()) throw SourceError(locOf(op), piecedError_);
  for (const Window& w : windows)
    for (auto& [d, bounds] : split_)
      if (w.offsets[d] != 0 || !sameExtent(w.extents[d], result.shape[d]))
        throw InternalError("a window over part of dimension " + std::to_string(d) + " splits its loop");
  splitResult(result, mlir::AffineMap::getMultiDimIdentityMap(unsigned(result.shape.size()), ctx), ctx);
  return pieced;
}

void Importer::padStatements(Operation* op) {
  auto p = mlir::cast<mlir::tensor::PadOp>(op);
  TensorValue& tv = tensors_[p.getResult()];
  tv.name = resultName(op, 0);
  const Window source = window(p.getSource(), padAmounts(p, true), op);
  const std::set<unsigned> pieced = windowSplits({source}, tv, op);
  out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, scalar(p.getConstantPaddingValue(), locOf(op), op), op));
  for (StmtDecl& s : windowWrites(tv.name, source, pieced, op)) out_.def.stmts.push_back(std::move(s));
}

// A rank-reducing insert (tpp-mlir's tiles: an 8x8 block into [2, 2, 8, 8]) writes its
// source along the dimensions it keeps.
void Importer::insertStatements(Operation* op) {
  auto x = mlir::cast<mlir::tensor::InsertSliceOp>(op);
  TensorValue& tv = tensors_[x.getResult()];
  tv.name = resultName(op, 0);
  TensorValue& dest = tensorOf(x.getDest(), op);
  Window source{x.getSource(), *foldedList(x.getMixedOffsets()), {}, x.getDroppedDims()};
  for (mlir::OpFoldResult r : x.getMixedSizes()) source.extents.push_back(extentOf(r, op));
  std::vector<Window> windows{source};
  if (dest.kind != Kind::Empty) windows.push_back(window(x.getDest(), std::vector<int64_t>(source.offsets.size(), 0), op));
  const std::set<unsigned> pieced = windowSplits(windows, tv, op);
  out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, destination(x.getDest(), tv.shape.size(), op), op));
  for (StmtDecl& s : windowWrites(tv.name, source, pieced, op)) out_.def.stmts.push_back(std::move(s));
}

// The destination copied, then the one element: a write over a window of one point.
void Importer::insertElementStatements(Operation* op) {
  auto x = mlir::cast<mlir::tensor::InsertOp>(op);
  SourceLoc loc = locOf(op);
  TensorValue& tv = tensors_[x.getResult()];
  tv.name = resultName(op, 0);
  const size_t rank = tv.shape.size();
  out_.def.stmts.push_back(wholeWrite(tv.name, tv.shape, destination(x.getDest(), rank, op), op));
  StmtDecl s = assignment(tv.name, rank, op);
  for (size_t k = 0; k < rank; ++k) {
    const int64_t at = x.getIndices()[k].getDefiningOp<mlir::arith::ConstantIndexOp>().value();
    const std::optional<int64_t> extent = ext_.value(tv.shape[k]);
    if (at < 0 || (extent && at >= *extent))
      throw SourceError(loc, "tensor.insert writes at " + std::to_string(at) + " in dimension " + std::to_string(k) +
                                 ", outside 0:" + ext_.text(tv.shape[k]));
    s.where.push_back(WhereRange{"d" + std::to_string(k), loc, integer(at, loc), integer(at + 1, loc)});
  }
  s.rhs = scalar(x.getScalar(), loc, op);
  out_.def.stmts.push_back(std::move(s));
}

// R(o.., i..) = o*tile + i < extent && .. ? S(o*tile + i, ..) : padding: a select whose
// condition is affine, so the read is made only inside the source (a guarded read).
void Importer::paddedPackStatements(Operation* op, const PaddedPack& pp) {
  auto p = mlir::cast<mlir::tensor::PackOp>(op);
  SourceLoc loc = locOf(op);
  TensorValue& tv = tensors_[p.getResult()];
  tv.name = resultName(op, 0);
  StmtDecl s = assignment(tv.name, tv.shape.size(), op);
  for (size_t k = 0; k < tv.shape.size(); ++k) where(s, "d" + std::to_string(k), tv.shape[k], loc);
  ExprPtr value = element(p.getSource(), pp.read, loc, op);
  for (auto it = pp.bounds.rbegin(); it != pp.bounds.rend(); ++it) {
    std::vector<ExprPtr> sel;
    sel.push_back(binary(ExprKind::Lt, subscript(it->first, loc), integer(it->second, loc), loc));
    sel.push_back(std::move(value));
    sel.push_back(scalar(p.getPaddingValue(), loc, op));
    value = node(ExprKind::Select, loc, std::move(sel));
  }
  s.rhs = std::move(value);
  out_.def.stmts.push_back(std::move(s));
}

// What an insert starts from: its destination's elements, or zeros over a tensor.empty
// (whose elements MLIR leaves undefined), with a note.
ExprPtr Importer::destination(Value dest, size_t rank, Operation* op) {
  SourceLoc loc = locOf(op);
  if (tensorOf(dest, op).kind != Kind::Empty)
    return element(dest, mlir::AffineMap::getMultiDimIdentityMap(unsigned(rank), op->getContext()), loc, op);
  out_.notes.push_back("the tensor.empty that " + opName(op) + " at line " + std::to_string(loc.line) +
                       " writes into starts as zeros (its other elements are undefined in MLIR)");
  return number(0.0, floatBits(mlir::cast<mlir::RankedTensorType>(dest.getType()).getElementType()), loc);
}

// One window write per operand: together they cover the result, each element once.
// The last operand's is written first: TC gives a temporary the extents of its first
// writer, and that one reaches the end of every dimension.
void Importer::concatStatements(Operation* op) {
  auto c = mlir::cast<mlir::tensor::ConcatOp>(op);
  TensorValue& tv = tensors_[c.getResult()];
  tv.name = resultName(op, 0);
  const std::string name = tv.name;
  const size_t dim = size_t(c.getDim());
  std::vector<int64_t> offsets(tv.shape.size(), 0);
  offsets[dim] = *ext_.value(tv.shape[dim]);
  const auto inputs = c.getInputs();
  std::vector<Window> windows;
  for (size_t i = inputs.size(); i-- > 0;) {
    offsets[dim] -= *ext_.value(tensorOf(inputs[i], op).shape[dim]);
    windows.push_back(window(inputs[i], offsets, op));
  }
  const std::set<unsigned> pieced = windowSplits(windows, tv, op);
  for (const Window& w : windows)
    for (StmtDecl& s : windowWrites(name, w, pieced, op)) out_.def.stmts.push_back(std::move(s));
}

// The same elements, the type restated.
void Importer::castShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto c = mlir::cast<mlir::tensor::CastOp>(op);
  auto t = tensorType(c.getResult(), op);
  Shape shape = tensorOf(c.getSource(), op).shape;
  std::vector<mlir::AffineExpr> exprs;
  for (int64_t k = 0; k < t.getRank(); ++k) {
    if (!t.isDynamicDim(k)) ext_.unite(shape[size_t(k)], ext_.literal(t.getDimSize(k)), loc);
    exprs.push_back(mlir::getAffineDimExpr(unsigned(k), op->getContext()));
  }
  return view(op, c.getSource(), shape, exprs);
}

void Importer::packShape(Operation* op) {
  auto pk = mlir::cast<mlir::tensor::PackOp>(op);
  packView(op, pk.getSource(), pk.getInnerDimsPos(), knownTiles(op, pk.getMixedTiles()), pk.getOuterDimsPerm(), true,
           bool(pk.getPaddingValue()));
}

// A pack's tiles as numbers: attributes, or values that are known extents; 0 for another.
std::vector<int64_t> Importer::knownTiles(Operation* op, llvm::ArrayRef<mlir::OpFoldResult> mixed) {
  std::vector<int64_t> tiles;
  for (mlir::OpFoldResult r : mixed) {
    std::optional<int64_t> n = foldedNumber(r);
    if (!n && mlir::isa<Value>(r)) n = ext_.value(indexSym(mlir::cast<Value>(r), op));
    tiles.push_back(n.value_or(0));
  }
  return tiles;
}

void Importer::unpackShape(Operation* op) {
  auto u = mlir::cast<mlir::tensor::UnPackOp>(op);
  packView(op, u.getSource(), u.getInnerDimsPos(), knownTiles(op, u.getMixedTiles()), u.getOuterDimsPerm(), false, false);
}

void Importer::insertElementShape(Operation* op) {
  SourceLoc loc = locOf(op);
  auto x = mlir::cast<mlir::tensor::InsertOp>(op);
  // One element replaced (IREE's tests plant a value in a fill): its indices constant,
  // its value one a body can name.
  requireConstantIndices(x.getIndices(), loc, "tensor.insert at a computed index is not supported (at constant indices it is)");
  if (!outsideScalar(x.getScalar()))
    throw SourceError(loc, "tensor.insert of a computed value is not supported (constants, arguments, single "
                           "tensor elements, and arithmetic on them are)");
  tensorType(x.getResult(), op);
  tensors_[x.getResult()] = TensorValue(Kind::Computed, tensorOf(x.getDest(), op).shape);
}

void Importer::packStatements(Operation* op) {
  if (auto it = paddedPacks_.find(op); it != paddedPacks_.end()) paddedPackStatements(op, it->second);
}

}  // namespace polyfuse::linalg_import

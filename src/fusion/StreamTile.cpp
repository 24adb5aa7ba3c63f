// Streamed tiles (KernelPlan::streamTile, docs/streaming.md "Streamed tiles"): a kernel
// that holds a maximum, the sums streamed against it (polyir/Rescale.h) and what the
// maximum reduces, computed point by point, runs the maximum's reduction in steps
// through shared memory with a tile of rows a block. Whether a group can is read off its
// statements' roles and access relations; no layer is named.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "fusion/Barriers.h"
#include "fusion/CostModel.h"
#include "polyir/Checked.h"

namespace polyfuse {

namespace {

// The dimension of `st` that subscript row `coef` names alone, with coefficient 1 and no
// constant; -1 otherwise.
int plainDim(const std::vector<int64_t>& coef, int64_t constant) {
  int d = -1;
  for (size_t k = 0; k < coef.size(); ++k) {
    if (coef[k] == 0) continue;
    if (coef[k] != 1 || d >= 0) return -1;
    d = int(k);
  }
  return constant == 0 ? d : -1;
}

// The dims of `st` that an access's subscripts name.
std::set<int> dimsRead(const Statement& st, const Access& a) {
  std::set<int> out;
  for (auto& sub : a.subscripts)
    for (auto& [name, c] : sub.coef) {
      if (c == 0) continue;
      auto it = std::find(st.dims.begin(), st.dims.end(), name);
      if (it != st.dims.end()) out.insert(int(it - st.dims.begin()));
    }
  return out;
}

}  // namespace

std::optional<KernelPlan> CostModel::streamedTile(const std::vector<int>& members, const GridCandidate& c,
                                                  const std::vector<int>& recomputed, bool splits) const {
  if (!streams_ || strict() || c.tile.empty()) return std::nullopt;
  const Program& prog = fg_.program();
  const size_t n = members.size();
  const int g = int(c.tile.size());
  auto stmt = [&](size_t k) -> const Statement& { return prog.statements[size_t(members[k])]; };
  auto indexOf = [&](int s) { return size_t(std::find(members.begin(), members.end(), s) - members.begin()); };
  // The block's rows: one tiled grid coordinate, or two (query heads that share keys
  // and values, and their queries), the block fixing every other; or one row a block (a
  // decode step's single query), its threads sharing each step's points.
  int rowCoord = -1, outerCoord = -1;
  for (int t = 0; t < g; ++t)
    if (c.tile[size_t(t)] > 1) {
      if (outerCoord >= 0) return std::nullopt;
      outerCoord = rowCoord;
      rowCoord = t;
    }
  const bool oneRow = rowCoord < 0;
  if (oneRow) rowCoord = g - 1;
  const int64_t rows = c.tile[size_t(rowCoord)] * (outerCoord >= 0 ? c.tile[size_t(outerCoord)] : 1);
  if (!oneRow && rows < kMinStreamRows) return std::nullopt;

  StreamTile st;
  st.rowCoord = rowCoord;
  st.outerCoord = outerCoord;
  st.roles.assign(n, StreamRole::Epilogue);
  st.keyDim.assign(n, -1);
  st.extraDim.assign(n, -1);
  st.innerDim.assign(n, -1);
  std::vector<bool> assigned(n, false);
  // The maximum: the one the group's streamed sums run against.
  size_t max = n;
  for (size_t k = 0; k < n; ++k) {
    const StreamChain& sc = stream_[size_t(members[k])];
    if (!sc.streams()) continue;
    const size_t m = indexOf(sc.max);
    if (m == n || (max < n && m != max)) return std::nullopt;
    max = m;
    st.roles[k] = StreamRole::Sum;
    assigned[k] = true;
  }
  if (max == n) return std::nullopt;
  const Statement& M = stmt(max);
  if (M.numReduction() != 1 || M.numParallel != g) return std::nullopt;
  st.roles[max] = StreamRole::Maximum;
  assigned[max] = true;
  st.keyDim[max] = M.numParallel;
  const int64_t keyLo = sized(M.id).lo[size_t(M.numParallel)], keyHi = sized(M.id).hi[size_t(M.numParallel)];
  // Worth a tile only where a row kernel cannot stream: a sum with an extra dimension,
  // or a score that is itself a reduction (computed point by point, never stored).
  bool worthIt = false;
  auto onGrid = [&](size_t k, int d) { return std::find(c.dims[k].begin(), c.dims[k].end(), d) != c.dims[k].end(); };
  // The one parallel dim of member k off the grid; -1 when none, -2 when several.
  auto offGrid = [&](size_t k) {
    int found = -1;
    for (int d = 0; d < stmt(k).numParallel; ++d)
      if (!onGrid(k, d)) found = found == -1 ? d : -2;
    return found;
  };
  for (size_t k = 0; k < n; ++k) {
    if (st.roles[k] != StreamRole::Sum) continue;
    const StreamChain& sc = stream_[size_t(members[k])];
    const Statement& s = stmt(k);
    if (k < max || s.numReduction() != 1 || sc.extraDims.size() > 1 || s.numParallel != g + int(sc.extraDims.size()))
      return std::nullopt;
    for (int t = 0; t < g; ++t)
      if (c.dims[k][size_t(t)] != sc.sumDimOf[size_t(c.dims[max][size_t(t)])]) return std::nullopt;
    st.keyDim[k] = sc.sumDimOf[size_t(M.numParallel)];
    if (!sc.extraDims.empty()) {
      const int x = sc.extraDims[0];
      const int64_t lo = sized(s.id).lo[size_t(x)], hi = sized(s.id).hi[size_t(x)];
      if (st.extraHi > st.extraLo && (lo != st.extraLo || hi != st.extraHi)) return std::nullopt;
      st.extraLo = lo;
      st.extraHi = hi;
      st.extraDim[k] = x;
      worthIt = true;
    }
    for (int p : sc.producers) {
      const size_t q = indexOf(p);
      if (q == n || q > k) return std::nullopt;
      st.roles[q] = StreamRole::Inlined;
      assigned[q] = true;
    }
  }
  if (st.extraHi - st.extraLo > kMaxStagedInner) return std::nullopt;
  for (size_t k = 0; k < n; ++k) {
    const Statement& s = stmt(k);
    const SizedStatement& ss = sized(s.id);
    if (st.roles[k] == StreamRole::Inlined || (!assigned[k] && k < max)) {
      // A point of a row and a reduction point: the key, off the grid.
      const int key = offGrid(k);
      if (key < 0 || s.numParallel != g + 1 || ss.lo[size_t(key)] != keyLo || ss.hi[size_t(key)] != keyHi)
        return std::nullopt;
      st.keyDim[k] = key;
      if (st.roles[k] == StreamRole::Inlined) continue;
      st.roles[k] = StreamRole::Score;
      if (s.numReduction() == 1 && s.op == ReduceOp::Add && s.init &&
          ss.hi.back() - ss.lo.back() <= kMaxStagedInner) {
        st.innerDim[k] = s.numParallel;
        worthIt = true;
      } else if (s.numReduction() != 0) {
        return std::nullopt;
      }
    } else if (!assigned[k]) {
      // After the maximum: pointwise on the row, or on the row and the sums' extra points.
      if (s.numReduction() != 0) return std::nullopt;
      const int x = offGrid(k);
      if (x == -2 || s.numParallel > g + 1) return std::nullopt;
      if (x >= 0) {
        if (st.extraHi <= st.extraLo || ss.lo[size_t(x)] != st.extraLo || ss.hi[size_t(x)] != st.extraHi) return std::nullopt;
        st.extraDim[k] = x;
      }
    }
  }
  if (!worthIt) return std::nullopt;
  // Scores and inlined producers live only in the step: nothing outside reads them (a
  // member other kernels recompute has its own copies there), and they alone write them.
  std::vector<int> writerOf(prog.tensors.size(), -1);
  for (size_t k = 0; k < n; ++k) {
    const int t = stmt(k).write.tensor;
    if (writerOf[size_t(t)] >= 0) return std::nullopt;
    writerOf[size_t(t)] = int(k);
  }
  for (size_t k = 0; k < n; ++k) {
    if (st.roles[k] != StreamRole::Score && st.roles[k] != StreamRole::Inlined) continue;
    const int t = stmt(k).write.tensor;
    const bool kept = std::find(recomputed.begin(), recomputed.end(), members[k]) != recomputed.end();
    if (prog.tensors[size_t(t)].role == TensorRole::Output) return std::nullopt;
    for (int reader : consumers_[size_t(t)])
      if (indexOf(reader) == n && !kept) return std::nullopt;
  }
  // What a member's dimension is in the tile: grid coordinate t (0..g-1), or along the
  // reduction, the extra dimension, a score's own reduction.
  enum { kKey = -1, kExtra = -2, kInner = -3, kNone = -4 };
  auto dimRole = [&](size_t k, int d) {
    for (int t = 0; t < g; ++t)
      if (c.dims[k][size_t(t)] == d) return t;
    return d == st.keyDim[k] ? int(kKey) : d == st.extraDim[k] ? int(kExtra) : d == st.innerDim[k] ? int(kInner) : int(kNone);
  };
  // Every read of a value computed here is at the reader's own point: the writer's dims
  // and the reader's line up by role, subscript by subscript.
  auto mayRead = [](StreamRole reader, StreamRole writer) {
    switch (reader) {
      case StreamRole::Score: return writer == StreamRole::Score;
      case StreamRole::Maximum: return writer == StreamRole::Score;
      case StreamRole::Inlined:
      case StreamRole::Sum:
        // A sum's finished value only as a factor the reading sum takes out (below).
        return writer == StreamRole::Score || writer == StreamRole::Maximum || writer == StreamRole::Inlined ||
               writer == StreamRole::Sum;
      case StreamRole::Epilogue:
        return writer == StreamRole::Maximum || writer == StreamRole::Sum || writer == StreamRole::Epilogue;
    }
    return false;
  };
  std::set<int> tiled;
  for (size_t k = 0; k < n; ++k) {
    const SizedStatement& ss = sized(members[k]);
    for (auto& r : ss.reads) {
      const int w = writerOf[size_t(r.tensor)];
      if (w < 0) continue;
      if (size_t(w) >= k || !mayRead(st.roles[k], st.roles[size_t(w)]) || !r.indirect.empty()) return std::nullopt;
      const SizedAccess& wa = sized(members[size_t(w)]).write;
      if (wa.coef.size() != r.coef.size()) return std::nullopt;
      for (size_t q = 0; q < r.coef.size(); ++q) {
        const int wd = plainDim(wa.coef[q], wa.constant[q]), rd = plainDim(r.coef[q], r.constant[q]);
        if (wd < 0 || rd < 0 || dimRole(size_t(w), wd) != dimRole(k, rd) || dimRole(k, rd) == kNone) return std::nullopt;
      }
      if (st.roles[size_t(w)] == StreamRole::Score && st.roles[k] != StreamRole::Score) tiled.insert(r.tensor);
    }
  }
  st.tiled.assign(tiled.begin(), tiled.end());
  // A sum whose terms read another sum's finished value (a softmax divided by its sum
  // before the weighted sum) takes it out as a factor, applied after the last step.
  std::vector<int> rowSums;
  for (size_t k = 0; k < n; ++k)
    if (st.roles[k] == StreamRole::Sum && st.extraDim[k] < 0) rowSums.push_back(stmt(k).write.tensor);
  for (size_t k = 0; k < n; ++k) {
    if (st.roles[k] != StreamRole::Sum) continue;
    const Statement& in = stream_[size_t(members[k])].inlined;
    std::vector<int> others;
    for (size_t w = 0; w < n; ++w)
      if (st.roles[w] == StreamRole::Sum && w != k) others.push_back(stmt(w).write.tensor);
    const auto factors = invariantFactors(in, others);
    if (!factors) return std::nullopt;
    for (auto& [r, divides] : *factors)
      if (std::find(rowSums.begin(), rowSums.end(), in.reads[size_t(r)].tensor) == rowSums.end() ||
          size_t(writerOf[size_t(in.reads[size_t(r)].tensor)]) >= k)
        return std::nullopt;
  }
  // Staged reads: of tensors computed elsewhere, by the members that run in the steps.
  for (size_t k = 0; k < n; ++k) {
    const StreamRole role = st.roles[k];
    if (role != StreamRole::Score && role != StreamRole::Maximum && role != StreamRole::Sum) continue;
    const StreamChain& sc = stream_[size_t(members[k])];
    const Statement& s = role == StreamRole::Sum ? sc.inlined : stmt(k);
    const SizedStatement& ss = sized(members[k]);
    for (size_t r = 0; r < s.reads.size(); ++r) {
      const Access& a = s.reads[r];
      if (writerOf[size_t(a.tensor)] >= 0 || a.tensor == sc.tensor || a.gathers() || a.guarded()) continue;
      const std::set<int> used = dimsRead(s, a);
      bool key = false, row = false, ok = true;
      int inner = -1;
      for (int d : used) {
        const int dr = dimRole(k, d);
        if (dr == kKey) key = true;
        else if (st.isRowCoord(dr)) row = true;
        else if (dr == kExtra || dr == kInner) ok = ok && inner < 0, inner = d;
        else if (dr < 0) ok = false;  // fixed grid coordinates are the block's
      }
      if (oneRow) row = !key;  // the block's one row holds every point off the key
      // A read along the key, a row and an inner dimension (keys of a head, with rows
      // across heads) would be loaded inside the steps' loops, a point a thread, lines
      // apart: the model prices staged reads, not those. Rows across two coordinates
      // only where the steps' reads are all the block's rows' in common (grouped-query
      // heads' keys and values); a mask over (row, key) is read from memory.
      if (key && row && (outerCoord >= 0 || inner >= 0)) return std::nullopt;
      if (!ok || key == row) continue;  // along both (a mask) or neither: read from memory
      StagedRead sr;
      sr.member = int(k);
      sr.read = int(r);
      sr.perStep = key;
      sr.innerDim = inner;
      if (inner >= 0) {
        sr.innerLo = ss.lo[size_t(inner)];
        sr.inner = ss.hi[size_t(inner)] - ss.lo[size_t(inner)];
      }
      // Lines side by side in memory: the last subscript walks the line's dim, not the inner.
      const int lineDim = key ? st.keyDim[k] : outerCoord >= 0 ? -1 : c.dims[k][size_t(rowCoord)];
      auto coefOf = [&](const Affine& sub, int d) {
        auto it = d < 0 ? sub.coef.end() : sub.coef.find(s.dims[size_t(d)]);
        return it == sub.coef.end() ? int64_t(0) : int64_t(it->second);
      };
      if (!a.subscripts.empty()) {
        const Affine& last = a.subscripts.back();
        sr.linesContiguous = (coefOf(last, lineDim) == 1 || coefOf(last, lineDim) == -1) && coefOf(last, inner) == 0;
      }
      // 128-bit loads along the inner dimension where it is what memory holds side by side.
      const Tensor& T = prog.tensors[size_t(a.tensor)];
      const int width = int(16 / computeBytes_);
      if (!sr.linesContiguous && inner >= 0 && elemBytes(T.type) == computeBytes_ && !isInteger(T.type) &&
          sr.innerLo % width == 0 && sr.inner % width == 0 &&
          vectorAligned(sizeAccess(prog, a, s, sizes()), inner, width, T.shape.back().eval(sizes())))
        sr.width = width;
      st.staged.push_back(sr);
    }
  }

  // A score that is Q K^T: a sum over its own reduction of a row's staged line times a
  // point's, on the tensor cores its operands allow (the only such score of the tile).
  for (size_t k = 0; k < n && !oneRow; ++k) {
    if (st.roles[k] != StreamRole::Score || st.innerDim[k] < 0) continue;
    const ContractionEngine e = productEngine(stmt(k));
    if (e == ContractionEngine::FmaUnits) continue;
    int rowRead = -1, keyRead = -1;
    for (const Expr* arg : {stmt(k).rhs->args[0].get(), stmt(k).rhs->args[1].get()}) {
      if (arg->kind != ExprKind::Access) break;
      for (size_t i = 0; i < st.staged.size(); ++i) {
        const StagedRead& sr = st.staged[i];
        if (sr.member != int(k) || sr.read != arg->ref || sr.innerDim != st.innerDim[k]) continue;
        (sr.perStep ? keyRead : rowRead) = int(i);
      }
    }
    if (rowRead < 0 || keyRead < 0 || st.mmaScores()) {
      st.scoreEngine = ContractionEngine::FmaUnits;
      st.mmaScore = st.mmaRowRead = st.mmaKeyRead = -1;
      break;
    }
    st.scoreEngine = e;
    st.mmaScore = int(k);
    st.mmaRowRead = rowRead;
    st.mmaKeyRead = keyRead;
  }

  // A sum whose terms are the step's factor times a staged line along its extra
  // dimension, beside factors it takes out (P V, P V / l): TF32 tensor cores where the
  // numerics allow them and the line is f32.
  std::vector<int> sumTensors;
  for (size_t k = 0; k < n; ++k)
    if (st.roles[k] == StreamRole::Sum) sumTensors.push_back(stmt(k).write.tensor);
  for (size_t k = 0; k < n && !oneRow && tensorCoresAllowed() && prog.computeType() == ElemType::F32; ++k) {
    if (st.roles[k] != StreamRole::Sum || st.extraDim[k] < 0) continue;
    const StreamChain& sc = stream_[size_t(members[k])];
    const Statement& in = sc.inlined;
    bool factor = false, ok = true;
    int value = -1;
    std::function<void(const Expr&)> walk = [&](const Expr& e) {
      auto takenOut = [&](const Expr& x) {
        return x.kind == ExprKind::Access && std::find(sumTensors.begin(), sumTensors.end(), in.reads[size_t(x.ref)].tensor) != sumTensors.end();
      };
      if (e.kind == ExprKind::Mul && e.args.size() == 2) {
        walk(*e.args[0]);
        walk(*e.args[1]);
      } else if (e.kind == ExprKind::Div && e.args.size() == 2 && takenOut(*e.args[1])) {
        walk(*e.args[0]);
      } else if (isShiftedExp(in, e, sc.tensor) && !factor) {
        factor = true;
      } else if (takenOut(e)) {
      } else if (e.kind == ExprKind::Access && value < 0) {
        value = e.ref;
      } else {
        ok = false;
      }
    };
    walk(*in.rhs);
    if (!ok || !factor || value < 0 || prog.tensors[size_t(in.reads[size_t(value)].tensor)].type != ElemType::F32) continue;
    for (size_t i = 0; i < st.staged.size(); ++i) {
      const StagedRead& sr = st.staged[i];
      if (sr.member == int(k) && sr.read == value && sr.perStep && sr.innerDim == st.extraDim[k]) st.mmaValueRead = int(i);
    }
    if (st.mmaValueRead < 0) continue;
    st.mmaValueTensor = in.reads[size_t(value)].tensor;
    st.sumEngine = ContractionEngine::TensorCoresTf32;
    st.mmaSum = int(k);
    break;
  }

  // The maximum's reduction split across blocks (KernelPlan::splitChunks): each block
  // streams one chunk of every row's points and leaves the maximum and the sums as
  // partials, which the combining launch rescales to the rows' maximum (docs/streaming.md,
  // "Split streamed tiles"). Only where nothing runs after the sums: an epilogue needs
  // the finished row. A plan that names its chunk count (a replan) keeps it.
  std::vector<int64_t> chunkOptions{c.chunks};
  const bool epilogue = std::find(st.roles.begin(), st.roles.end(), StreamRole::Epilogue) != st.roles.end();
  if (c.chunks > 1 && epilogue) return std::nullopt;
  // Split only where the rows alone leave SMs idle (split-K's rule): fewer blocks than SMs.
  int64_t rowBlocks = 1;
  for (int t = 0; t < g; ++t) {
    const int d = c.dims[max][size_t(t)];
    rowBlocks *= (sized(M.id).hi[size_t(d)] - sized(M.id).lo[size_t(d)] + c.tile[size_t(t)] - 1) / c.tile[size_t(t)];
  }
  if (splits && streamSplits_ && !epilogue && rowBlocks < dev_.smCount) {
    for (int64_t chunks = 2; chunks <= kMaxStreamChunks && (keyHi - keyLo) / chunks >= kMinStreamChunk; chunks *= 2)
      chunkOptions.push_back(chunks);
  }

  // The kernel's traffic, on the group's own grid: inputs once from DRAM, each block's
  // slice of them again from L2; results that leave the kernel written once.
  auto planFor = [&](int64_t chunks) {
    KernelPlan base;
    base.recomputed = recomputed;
    BlockShape shape = shapeGrid(members, {c.dims, c.tile, 1}, base);
    base.rowMapping = RowMapping::StreamedTile;
    base.threadDims.assign(n, -1);
    base.vectorWidth.assign(n, 1);
    for (size_t k = 0; k < n; ++k) {
      base.threadDims[k] = c.dims[k][size_t(rowCoord)];
      base.modes.push_back(stmt(k).numReduction() == 0 ? StmtMode::Pointwise : StmtMode::SerialReduce);
    }
    if (chunks > 1) {
      base.splitChunk = (keyHi - keyLo + chunks - 1) / chunks;
      base.splitChunks = (keyHi - keyLo + base.splitChunk - 1) / base.splitChunk;
      base.blocks *= base.splitChunks;
      base.chunkDims = st.keyDim;  // every member runs along the key (no epilogue)
      for (size_t k = 0; k < n; ++k) {
        const int d = st.keyDim[k];
        shape.hi[k][size_t(d)] = std::min(shape.hi[k][size_t(d)], shape.lo[k][size_t(d)] + base.splitChunk);
        if (st.roles[k] == StreamRole::Maximum || st.roles[k] == StreamRole::Sum) base.modes[k] = StmtMode::SplitReduce;
      }
    }
    for (size_t k = 0; k < n; ++k)
      if (st.roles[k] == StreamRole::Sum) {
        StreamPair sp{int(max), int(k), {}};
        for (int p : stream_[size_t(members[k])].producers) sp.inlined.push_back(int(indexOf(p)));
        base.streams.push_back(sp);
      }
    std::map<int, std::pair<Box, Box>> external;  // tensor: the whole footprint, a block's
    for (size_t k = 0; k < n; ++k) {
      const SizedStatement& ss = sized(members[k]);
      for (auto& r : ss.reads) {
        if (writerOf[size_t(r.tensor)] >= 0) continue;
        auto& [full, block] = external[r.tensor];
        full.hull(footprint(ss, r, ss.lo, ss.hi));
        block.hull(footprint(ss, r, shape.lo[k], shape.hi[k]));
      }
    }
    for (auto& [t, boxes] : external) {
      const int64_t eb = elemBytes_[size_t(t)], first = boxes.first.volume() * eb;
      const int64_t again = checkedMul(base.blocks, boxes.second.volume() * eb, "a kernel's re-read bytes") - first;
      base.dramBytes += first;
      if (again > 0) (double(tensorBytes(t)) > dev_.l2Bytes ? base.dramBytes : base.l2Bytes) += again;
      base.globalReads.push_back(t);
      base.inputPasses.push_back(1);
    }
    const StmtSet group = StmtSet::of(fg_.size(), members);
    const StmtSet recomputedSet = recomputed.empty() ? StmtSet() : StmtSet::of(fg_.size(), recomputed);
    for (size_t k = 0; k < n; ++k) {
      const Statement& s = stmt(k);
      const SizedStatement& ss = sized(s.id);
      const int t = s.write.tensor;
      const bool kept = std::find(recomputed.begin(), recomputed.end(), members[k]) != recomputed.end();
      bool escapes = prog.tensors[size_t(t)].role == TensorRole::Output;
      for (int reader : consumers_[size_t(t)]) escapes |= !group.contains(reader) && !kept;
      escapes |= !kept && fg_.storesValue(group, recomputedSet, members[k]);
      // A split's maximum and sums: the combine writes what it finishes.
      const bool split = chunks > 1 && (st.roles[k] == StreamRole::Maximum || st.roles[k] == StreamRole::Sum);
      if (split) addPartials(members[k], base);
      if (escapes || split) {
        base.dramBytes += footprint(ss, ss.write, ss.lo, ss.hi).volume() * elemBytes_[size_t(t)];
        base.globalWrites.push_back(t);
        continue;
      }
      // Values kept: a score read after its step, in shared memory; the rest in registers.
      OnChipArray a = onChipSlice(members, base, k);
      if (st.keyDim[k] >= 0 && st.roles[k] != StreamRole::Maximum && st.roles[k] != StreamRole::Sum) {
        a.extent[size_t(st.keyDim[k])] = 0;  // set per variant: the step
        a.lo[size_t(st.keyDim[k])] = keyLo;
      }
      a.place = tiled.count(t) ? OnChipPlace::SharedMemory : OnChipPlace::Registers;
      a.registerSlots = 1;
      base.onChip.push_back(a);
    }
    std::sort(base.onChip.begin(), base.onChip.end(), [](const OnChipArray& a, const OnChipArray& b) { return a.tensor < b.tensor; });
    std::sort(base.globalWrites.begin(), base.globalWrites.end());
    return base;
  };

  // The step, the threads a row and the rows a thread: every variant whose block fits,
  // the fastest (the first of equals).
  std::optional<KernelPlan> best;
  const int64_t extra = st.extraHi - st.extraLo;
  int extraSums = 0;
  for (size_t k = 0; k < n; ++k) extraSums += st.roles[k] == StreamRole::Sum && st.extraDim[k] >= 0;
  // One row a block: its threads share each step's points (a warp or two a row).
  const std::vector<int> rowThreadOptions = oneRow ? std::vector<int>{32, 64} : std::vector<int>{1, 2, 4, 8, 16};
  // Scores on tensor cores where the operands allow it and some variant's block runs
  // whole m16n8 tiles, an equal number a warp (as a contraction tile's engine, not a
  // choice the model weighs); else every score on the FMA units.
  if (rows % 16 != 0) st.scoreEngine = st.sumEngine = ContractionEngine::FmaUnits;
  std::vector<bool> isFactor(n);  // an inlined producer that is the step's factor exp(E - m)
  for (size_t k = 0; k < n; ++k) isFactor[k] = st.roles[k] == StreamRole::Inlined && isShiftedExp(stmt(k), *stmt(k).rhs, M.write.tensor);
  for (int attempt = 0; attempt < 2 && !best; ++attempt) {
  if (attempt == 1) {
    if (!st.mmaScores() && !st.mmaSums()) break;
    st.scoreEngine = st.sumEngine = ContractionEngine::FmaUnits;
  }
  for (int64_t chunks : chunkOptions) {
    const KernelPlan base = planFor(chunks);
    for (int64_t step : {16, 32, 64}) {
      for (int threadsARow : rowThreadOptions) {
        for (int rowsAThread : {1, 2, 4}) {
          if (rows % rowsAThread != 0 || step % threadsARow != 0) continue;
          const int64_t threads = rows / rowsAThread * threadsARow;
          if (threads % kWarp != 0 || threads > kMaxBlockThreads) continue;
          if (st.mmaScores() && (step % 8 != 0 || rows / 16 * (step / 8) % (threads / kWarp) != 0)) continue;
          if (st.mmaSums() && (step % 8 != 0 || st.mmaSumTiles(rows) % (threads / kWarp) != 0)) continue;
          const int64_t lanes = extra > 0 ? (extra + threadsARow - 1) / threadsARow : 0;
          const int64_t keys = step / threadsARow;
          // A thread's registers: its rows' partial sums' lanes, a step's scores, and the
          // row's running values, within what a thread holds of a row elsewhere.
          if (rowsAThread * (lanes * extraSums + keys) > 4 * kMaxRegisterRow) continue;
          KernelPlan kp = base;
          StreamTile& tile = kp.streamTile;
          tile = st;
          tile.step = step;
          tile.rowThreads = threadsARow;
          tile.rowsAThread = rowsAThread;
          tile.lanes = lanes;
          const int64_t shared = tile.sharedBytes(rows, computeBytes_);
          if (double(shared) > dev_.onchipBytesPerBlock) continue;
          kp.sharedBytes = shared;  // dynamic: beyond 48 KB, the launch asks for it
          kp.threadsPerBlock = int(threads);
          kp.wideBlock = threads > dev_.threadsPerBlock;
          // The tensor cores' scores and weighted sum meet the rows' threads through shared
          // memory (their fragments are the warp's, not a row's thread's), and a producer
          // that is the step's factor exp(E - m) lies in its tile, each point's computed by
          // one thread and read by the rows'.
          for (auto& a : kp.onChip) {
            const int w = writerOf[size_t(a.tensor)];
            if ((st.mmaScores() && w == st.mmaScore) || (st.mmaSums() && w == st.mmaSum) || isFactor[size_t(w)])
              a.place = OnChipPlace::SharedMemory;
            for (size_t d = 0; d < a.extent.size(); ++d)
              if (a.extent[d] == 0) a.extent[d] = a.inRegisters() ? 1 : step;
          }
          kp.onchipBytesPerBlock = shared;
          // Operands from shared memory. A thread's loops reuse each load: a row's operand
          // across its keys, a key's across its rows (a score's contraction); a step's
          // factor across its lanes, a staged value across its rows (a sum with lanes).
          // What every thread of a row computes alike (the step's maximum, sums without
          // lanes) it computes threadsARow times; the factors exp(E - m) (the inlined
          // producers' work) each point's own thread computes once, from the tile.
          double loads = 0, redundantFlops = 0;
          for (size_t k = 0; k < n; ++k) {
            const SizedStatement& ss = sized(members[k]);
            const StreamRole role = st.roles[k];
            const bool perRow = role == StreamRole::Maximum || (role == StreamRole::Sum && st.extraDim[k] < 0);
            if (perRow) redundantFlops += double(ss.points) * double(ss.flopsPerPoint) * (threadsARow - 1);
            double perPoint = 0;
            if (int(k) == st.mmaScore) {
              // A warp's m16n8 tile loads 6 fragment words a lane for 16 x 8 x 8 points
              // (TF32; halves: 12 for 16 x 8 x 16), and each score is stored and read back once.
              perPoint = 6.0 * kWarp / (16 * 8 * 8) + 2.0 / double(st.staged[size_t(st.mmaRowRead)].inner);
              const int64_t f = checkedMul(ss.points, ss.flopsPerPoint, "a kernel's flops");
              kp.tensorFlops = checkedAdd(kp.tensorFlops, f, "a kernel's flops");
              if (halfOperands(st.scoreEngine)) kp.halfTensorFlops = checkedAdd(kp.halfTensorFlops, f, "a kernel's flops");
            } else if (int(k) == st.mmaSum) {
              // A lane's 6 fragment words for 16 x 8 x 8 terms; the partials rescaled (4 a
              // lane) and, at the end, met through shared memory.
              perPoint = 6.0 * kWarp / (16 * 8 * 8);
              const int64_t f = checkedMul(ss.points, ss.flopsPerPoint, "a kernel's flops");
              kp.tensorFlops = checkedAdd(kp.tensorFlops, f, "a kernel's flops");
            } else {
              for (auto& sr : st.staged)
                if (sr.member == int(k)) perPoint += sr.perStep ? 1.0 / rowsAThread : 1.0 / double(keys);
            }
            if (role == StreamRole::Maximum || role == StreamRole::Inlined) perPoint += 1;  // the score tile
            if (role == StreamRole::Sum && int(k) != st.mmaSum) perPoint += st.extraDim[k] >= 0 ? 1.0 / double(lanes) : 1.0;  // the factors
            loads += double(ss.points) * perPoint * (perRow ? threadsARow : 1);
          }
          kp.onchipLoadBytes = int64_t(loads * computeBytes_);
          kp.flops = checkedAdd(kp.flops, int64_t(redundantFlops), "a kernel's flops");
          // The rescale: an exp and a multiply of each partial once a step.
          for (auto& sp : kp.streams)
            kp.flops = checkedAdd(kp.flops, 2 * (sized(members[size_t(sp.sum)]).points / step), "a kernel's flops");
          // (On tensor cores a lane also holds an m16n8 tile's 4 accumulators and 6 fragment words.)
          kp.registersPerThread = kEstimatedRegisters + int(rowsAThread * (lanes * extraSums + 2 * keys + 2)) + (st.mmaScores() ? 10 : 0) +
                                 (st.mmaSums() ? int(4 * st.mmaSumTiles(rows) / (threads / kWarp)) + 6 : 0);
          occupy(kp);
          if (kp.blocksPerSM < 1 && !dev_.arch.empty()) continue;
          // Little's law: the block's staged loads of a step, a few a thread at once, each
          // the width of the step's largest staged read.
          int64_t perStep = 0, largest = 0, loadBytes = computeBytes_;
          for (size_t i = 0; i < tile.staged.size(); ++i) {
            const StagedRead& sr = tile.staged[i];
            const int64_t bytes = tile.stagedElements(i, rows) * computeBytes_;
            perStep += bytes;
            if (bytes > largest) largest = bytes, loadBytes = sr.width * computeBytes_;
          }
          kp.bytesInFlightPerBlock = std::min<int64_t>(perStep, threads * dev_.loadsInFlight * loadBytes);
          kp.latencyShare = 1;
          if (kp.blocksPerSM > 0 && kp.bytesInFlightPerBlock > 0) {
            // The blocks an SM holds at once: what occupancy allows, or what the grid has
            // (a split tile of few blocks keeps few loads in flight).
            const double needed = dev_.dramBytesPerSec / dev_.smCount * dev_.dramLatencyNs * 1e-9;
            const int64_t resident = std::min<int64_t>(kp.blocksPerSM, (kp.blocks + dev_.smCount - 1) / dev_.smCount);
            kp.latencyShare = std::min(1.0, double(resident) * double(kp.bytesInFlightPerBlock) / needed);
          }
          placeBarriers(fg_.program(), at_, kp);
          timeKernel(0, kp);
          if (!best || kp.modeledUs < best->modeledUs - 1e-12) best = std::move(kp);
        }
      }
    }
  }
  }
  return best;
}

}  // namespace polyfuse

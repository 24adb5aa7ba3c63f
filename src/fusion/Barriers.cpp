#include "fusion/Barriers.h"

#include <algorithm>

#include "polyir/Rescale.h"

namespace polyfuse {

// Whether members a and b touch tensor t only at the point each thread owns: the same
// parallel dims over the same ranges on the same grid coordinates, threads along the same
// dim with the same step, and every access of t's storage the identity of that point.
// Then a thread reads only what it wrote itself and no barrier is needed between them.
static bool sameThread(const Program& prog, const SizedProgram& at, const KernelPlan& kp, size_t a, size_t b, int t) {
  if (reducesAcrossThreads(kp.modes[a]) || reducesAcrossThreads(kp.modes[b])) return false;
  // A tiled contraction's thread (its epilogue's too) owns a strided micro-tile, not a
  // point of the plain order.
  if (kp.tiledWith(a) || kp.tiledWith(b)) return false;
  // A vector step gives a thread other points than a scalar one (or a narrower step).
  if (kp.vectorWidth[a] != kp.vectorWidth[b] || kp.threadDims[a] != kp.threadDims[b]) return false;
  const Statement &sa = prog.statements[size_t(kp.statements[a])], &sb = prog.statements[size_t(kp.statements[b])];
  if (sa.numParallel != sb.numParallel || sa.numParallel == 0) return false;
  const SizedStatement &za = at.statement(sa.id), &zb = at.statement(sb.id);
  for (int d = 0; d < sa.numParallel; ++d)
    if (sa.dims[size_t(d)] != sb.dims[size_t(d)] || za.lo[size_t(d)] != zb.lo[size_t(d)] ||
        za.hi[size_t(d)] != zb.hi[size_t(d)] || kp.gridCoordOf(a, d) != kp.gridCoordOf(b, d))
      return false;
  return accessesOwnPoint(kp, sa, t) && accessesOwnPoint(kp, sb, t);
}

bool accessesOwnPoint(const KernelPlan& kp, const Statement& s, int t) {
  std::vector<Affine> point;
  for (int d = 0; d < s.numParallel; ++d) point.push_back(Affine::var(s.dims[size_t(d)]));
  if (kp.storageOf(s.write.tensor) == kp.storageOf(t) && s.write.subscripts != point) return false;
  for (auto& r : s.reads)
    if (kp.storageOf(r.tensor) == kp.storageOf(t) && r.subscripts != point) return false;
  return true;
}

// Whether member m's range along some grid coordinate is not the grid's: isl then guards
// its loops by the block's origin, a condition only some blocks take.
static bool guarded(const Program& prog, const SizedProgram& at, const KernelPlan& kp, size_t m) {
  const Statement& st = prog.statements[size_t(kp.statements[m])];
  const SizedStatement& ss = at.statement(st.id);
  for (int d = 0; d < st.numParallel; ++d) {
    const int t = kp.gridCoordOf(m, d);
    if (t >= 0 && (ss.lo[size_t(d)] != kp.gridLo[size_t(t)] || ss.hi[size_t(d)] != kp.gridLo[size_t(t)] + kp.gridExtent[size_t(t)]))
      return true;
  }
  return false;
}

void walkBarriers(const Program& prog, const KernelPlan& kp, const BarrierQuestions& q) {
  struct Pending {
    size_t member;
    int tensor;
    bool write;
  };
  std::vector<Pending> pending;
  for (size_t m = 0; m < kp.statements.size(); ++m) {
    const Statement& st = prog.statements[size_t(kp.statements[m])];
    // A streamed sum runs in its maximum's loop: what it touches, the maximum's loop
    // touches (its running maximum is a register, no read of memory).
    if (kp.streamLoopOf(m) >= 0) continue;
    std::vector<const Access*> touched;
    for (auto& r : st.reads) touched.push_back(&r);
    std::vector<int> written = {st.write.tensor};
    StreamChain chain;
    if (const int sum = kp.streamedSum(m); sum >= 0) {
      chain = streamChain(prog, prog.statements[size_t(kp.statements[size_t(sum)])]);
      for (auto& r : chain.inlined.reads)
        if (r.tensor != chain.tensor) touched.push_back(&r);
      written.push_back(chain.inlined.write.tensor);
    }
    // An epilogue runs inside its contraction, after the staging barriers: it waits for
    // nothing of its own (what it touches stays pending).
    const bool epilogue = kp.tiledWith(m) && !kp.contractionOf(m);
    bool needed = false;
    for (auto& pd : pending) {
      if (epilogue) break;
      // A thread's registers hold only what it wrote itself (CostModel::registerRows).
      if (const OnChipArray* a = kp.arrayOf(pd.tensor); a && a->inRegisters()) continue;
      // Tensors sharing on-chip storage are one buffer here.
      const int buffer = kp.storageOf(pd.tensor);
      const bool reads = std::any_of(touched.begin(), touched.end(), [&](const Access* a) { return kp.storageOf(a->tensor) == buffer; });
      const bool writes = std::any_of(written.begin(), written.end(), [&](int t) { return kp.storageOf(t) == buffer; });
      if (!(writes || (reads && pd.write))) continue;
      if (!q.sameThread(pd.member, m, pd.tensor)) needed = true;
    }
    // A block reduction (or contraction) under a guard holds barriers inside a branch
    // that only some blocks take. That is legal (the guard is uniform over the block),
    // but PoCL miscompiles the code after such a branch unless a barrier closes it (bicg
    // at N > M summed garbage); one barrier per block is cheap on every device.
    if (m > 0 && !epilogue && q.guardedSync(m - 1)) needed = true;
    if (m > 0 && q.barrierBefore(m, needed)) pending.clear();
    for (int t : written) pending.push_back({m, t, true});
    for (const Access* r : touched) {
      // The first reader of an input cached on chip writes the on-chip copy.
      const bool fills = kp.cachesInput(r->tensor) && kp.firstReader(prog, r->tensor) == st.id;
      pending.push_back({m, r->tensor, fills});
    }
  }
}

void placeBarriers(const Program& prog, const SizedProgram& at, KernelPlan& kp) {
  const size_t n = kp.statements.size();
  kp.barrierAfter.assign(n, false);
  kp.barriersPerBlock = 0;
  kp.reductionsPerBlock = 0;
  if (kp.streamedTile()) {
    // Its own loop (codegen's streamed tile): four barriers a step, before and after the
    // staging, after the scores and after the step's factors; and after the tensor cores'
    // scores where they run, and once after the last step where the weighted sum's
    // accumulators meet the rows' threads.
    const auto mx = std::find(kp.streamTile.roles.begin(), kp.streamTile.roles.end(), StreamRole::Maximum);
    const SizedStatement& ms = at.statement(kp.statements[size_t(mx - kp.streamTile.roles.begin())]);
    const int64_t keys = kp.splitChunks > 1 ? kp.splitChunk : ms.hi.back() - ms.lo.back();  // a split block's chunk
    kp.barriersPerBlock = (kp.streamTile.mmaScores() ? 5 : 4) * ((keys + kp.streamTile.step - 1) / kp.streamTile.step) +
                          (kp.streamTile.mmaSums() ? 1 : 0);
    return;
  }
  // Between members: where another thread's accesses since the last barrier conflict.
  walkBarriers(prog, kp,
               {[&](size_t a, size_t b, int t) { return sameThread(prog, at, kp, a, b, t); },
                [&](size_t m) {
                  return (reducesAcrossThreads(kp.modes[m]) || kp.contractionOf(m)) && guarded(prog, at, kp, m);
                },
                [&](size_t m, bool needed) {
                  kp.barrierAfter[m - 1] = needed;
                  return needed;
                }});
  kp.barriersPerBlock = std::count(kp.barrierAfter.begin(), kp.barrierAfter.end(), true);
  // A tiled contraction: two a step (staged, then consumed), or, double-buffered, one a
  // step and one after the last.
  for (const ContractionTile& c : kp.contractions) {
    const int64_t steps = c.steps(at.statement(kp.statements[size_t(c.member)]), kp.kChunk());
    kp.barriersPerBlock += c.stages > 1 ? steps + 1 : 2 * steps;
  }
  // The combines across threads: under WarpPerRow one a reducing member (the warps
  // combine side by side), else one a parallel point of the block's for each.
  for (size_t m = 0; m < n; ++m) {
    if (!reducesAcrossThreads(kp.modes[m])) continue;
    if (kp.warpPerRow()) {
      ++kp.reductionsPerBlock;
      continue;
    }
    const Statement& st = prog.statements[size_t(kp.statements[m])];
    const SizedStatement& ss = at.statement(st.id);
    int64_t points = 1;
    for (int d = 0; d < st.numParallel; ++d) {
      if (kp.modes[m] == StmtMode::ColumnReduce && d == kp.threadDims[m]) continue;  // the block's columns reduce together
      const int t = kp.gridCoordOf(m, d);
      points *= t >= 0 ? kp.tile[size_t(t)] : std::max<int64_t>(0, ss.hi[size_t(d)] - ss.lo[size_t(d)]);
    }
    kp.reductionsPerBlock += points;
  }
}

}  // namespace polyfuse

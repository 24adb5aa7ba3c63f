#include "fusion/KernelPlan.h"

#include <algorithm>

#include "polyir/Diagnostic.h"

namespace polyfuse {

Strategy parseStrategy(std::string_view name) {
  if (auto s = parseIn(kStrategyNames, name)) return *s;
  throw UsageError("unknown strategy '" + std::string(name) + "' (" + namesIn(kStrategyNames) + ")");
}

int64_t OnChipArray::elements() const {
  int64_t n = 1;
  for (int64_t e : extent) n *= e;
  return n;
}

int OnChipArray::rowDim() const {
  int row = -1;
  for (size_t p = 0; p < extent.size(); ++p) {
    if (extent[p] == 1 || gridCoord[p] >= 0) continue;  // the block's or the warp's row
    if (row >= 0) return -2;
    row = int(p);
  }
  return row;
}

int64_t ContractionTile::stageElements() const {
  int64_t n = 0;
  for (size_t r = 0; r < alongP.size(); ++r) n += lines(r) * lineElements(r);
  // Each buffer 16-byte aligned, for the 128-bit loads and copies (in f32; 16-bit operands
  // staged as stored: 8 of them).
  const int64_t align = halfOperands() ? 8 : 4;
  return (n + align - 1) / align * align;
}

// Both lists are in tensor order (placeData builds them so): a lookup is a binary search,
// since a kernel of k members asks it about each of its reads, several times a plan.
static const OnChipArray* findArray(const std::vector<OnChipArray>& list, int tensor) {
  auto it = std::lower_bound(list.begin(), list.end(), tensor, [](const OnChipArray& a, int t) { return a.tensor < t; });
  return it != list.end() && it->tensor == tensor ? &*it : nullptr;
}

bool KernelPlan::keepsOnChip(int tensor) const { return findArray(onChip, tensor) != nullptr; }

const OnChipArray* KernelPlan::arrayOf(int tensor) const {
  if (const OnChipArray* a = findArray(onChip, tensor)) return a;
  return findArray(cachedInputs, tensor);
}

int KernelPlan::storageOf(int tensor) const {
  for (int hops = 0; hops <= int(onChip.size() + cachedInputs.size()); ++hops) {
    const OnChipArray* a = arrayOf(tensor);
    if (!a || a->reuses < 0) return tensor;
    tensor = a->reuses;
  }
  throw InternalError("on-chip arrays reuse each other's storage in a cycle");
}

bool KernelPlan::cachesInput(int tensor) const { return findArray(cachedInputs, tensor) != nullptr; }

int KernelPlan::firstReader(const Program& prog, int tensor) const {
  for (int s : statements)
    for (auto& r : prog.statements[size_t(s)].reads)
      if (r.tensor == tensor) return s;
  return -1;
}

bool KernelPlan::vectorAccess(const Program& prog, const Sizes& sizes, size_t m, const SizedAccess& a, int width) const {
  const Tensor& T = prog.tensors[size_t(a.tensor)];
  if (!readsGlobal(prog, m, a.tensor) || a.guarded) return false;
  // The width is 16 bytes of the compute type: the access's elements must be that type
  // (an int32 id tensor has a float's width, but its loads are subscripts, not values).
  return !isInteger(T.type) && elemBytes(T.type) * width == 16 && !T.shape.empty() &&
         vectorAligned(a, threadDims[m], width, T.shape.back().eval(sizes));
}

bool KernelPlan::readsGlobal(const Program& prog, size_t m, int tensor) const {
  return !keepsOnChip(tensor) && !(cachesInput(tensor) && firstReader(prog, tensor) != statements[m]);
}

bool KernelPlan::runsRegisterRow(const Program& prog, size_t m) const {
  auto row = [&](int t) {
    const OnChipArray* a = arrayOf(t);
    return a && a->inRegisters() && a->rowDim() >= 0;
  };
  const Statement& st = prog.statements[size_t(statements[m])];
  return row(st.write.tensor) || std::any_of(st.reads.begin(), st.reads.end(), [&](const Access& r) { return row(r.tensor); });
}

int64_t KernelPlan::columnScratchSlots() const {
  if (!columnTile()) return 0;
  const int64_t group = groupThreads();
  const bool shuffled = group < 32 && 32 % group == 0;
  return 2 * columnLanes * (shuffled ? threadsPerBlock / 32 * group : threadsPerBlock);
}

bool KernelPlan::usesBlockReduce() const { return std::any_of(modes.begin(), modes.end(), reducesAcrossThreads); }

int KernelPlan::gridCoordOf(size_t m, int d) const {
  auto it = std::find(gridDims[m].begin(), gridDims[m].end(), d);
  return it == gridDims[m].end() ? -1 : int(it - gridDims[m].begin());
}

bool vectorAligned(const SizedAccess& a, int x, int width, int64_t lastExtent) {
  if (x < 0 || a.coef.empty() || !a.indirect.empty()) return false;
  // Rows whose length is no multiple of the width start misaligned, all but the first:
  // only an access that stays in the first row (a vector, bias(j)) is aligned then.
  bool firstRow = true;
  for (size_t p = 0; p + 1 < a.coef.size(); ++p) {
    if (a.coef[p][size_t(x)] != 0) return false;
    firstRow = firstRow && a.constant[p] == 0 && std::all_of(a.coef[p].begin(), a.coef[p].end(), [](int64_t c) { return c == 0; });
  }
  if (lastExtent % width && !firstRow) return false;
  const std::vector<int64_t>& last = a.coef.back();
  if (last[size_t(x)] != 1 || a.constant.back() % width) return false;
  for (size_t d = 0; d < last.size(); ++d)
    if (int(d) != x && last[d] % width) return false;
  return true;
}

int KernelPlan::splitMember() const {
  for (size_t m = 0; m < modes.size(); ++m)
    if (reducesAChunk(modes[m])) return int(m);
  return -1;
}

std::vector<int> KernelPlan::splitMembers() const {
  std::vector<int> out;
  for (size_t m = 0; m < modes.size(); ++m)
    if (reducesAChunk(modes[m])) out.push_back(int(m));
  return out;
}

int64_t KernelPlan::combinePoints() const {
  int64_t points = streamedTile() ? std::max<int64_t>(1, streamTile.extraHi - streamTile.extraLo) : 1;
  for (int64_t e : gridExtent) points *= e;
  return points;
}

// The pitch of a line of `inner` words, at least inner + 1, whose mma fragment loads put
// the fewest of a warp's lanes on one of the 32 banks (the first of equals): lane l (g =
// l / 4, t = l % 4) loads word line * pitch + offset of (line, offset) = (g, t) for an
// operand whose fragment runs along the lines (Q's and K's rows in TF32 words), (g, 2 t)
// for one loaded as 16-bit pairs, a load each half, and (t, g) for one whose reduction
// runs across the lines (V's points).
static int64_t fragmentPitch(int64_t inner, bool acrossLines, bool pairs) {
  int64_t best = inner + 1;
  int fewest = 33;
  for (int64_t pitch = inner + 1; pitch <= inner + 32; ++pitch) {
    int lanes[32] = {}, most = 0;
    for (int l = 0; l < 32; ++l) {
      const int64_t g = l >> 2, t = l & 3, word = acrossLines ? t * pitch + g : g * pitch + (pairs ? 2 * t : t);
      most = std::max(most, ++lanes[word % 32]);
    }
    if (most < fewest) best = pitch, fewest = most;
  }
  return best;
}

int64_t StreamTile::linePitch(size_t i) const {
  const StagedRead& sr = staged[i];
  if (sr.linesContiguous) return sr.inner + 1;  // its staging stores walk the lines, a thread each: kept as they were
  if (mmaScores() && (int(i) == mmaRowRead || int(i) == mmaKeyRead)) return fragmentPitch(sr.inner, false, halfOperands(scoreEngine));
  if (mmaSums() && int(i) == mmaValueRead) return fragmentPitch(sr.inner, true, false);
  return sr.inner + 1;
}

Tf32Reads tf32Operands(const Program& prog, const Partition& p) {
  Tf32Reads out;
  for (const KernelPlan& k : p.kernels) {
    for (const ContractionTile& c : k.contractions)
      if (c.engine == ContractionEngine::TensorCoresTf32) {
        const Statement& st = prog.statements[size_t(k.statements[size_t(c.member)])];
        for (size_t r = 0; r < st.reads.size(); ++r) out[st.id].insert(int(r));
      }
    if (!k.streamedTile()) continue;
    const StreamTile& t = k.streamTile;
    if (t.scoreEngine == ContractionEngine::TensorCoresTf32)
      for (int i : {t.mmaRowRead, t.mmaKeyRead}) out[k.statements[size_t(t.mmaScore)]].insert(t.staged[size_t(i)].read);
    if (t.sumEngine == ContractionEngine::TensorCoresTf32) {
      // The staged value (V): its reads in the sum as written. The factor the tensor cores
      // round is exp(E - m') at the running maximum, which no value of the finished one
      // reproduces: the reference keeps it unrounded (its rounding, 2^-11 a term, within
      // the tile's tolerance).
      const Statement& st = prog.statements[size_t(k.statements[size_t(t.mmaSum)])];
      for (size_t r = 0; r < st.reads.size(); ++r)
        if (st.reads[r].tensor == t.mmaValueTensor) out[st.id].insert(int(r));
    }
  }
  return out;
}

}  // namespace polyfuse

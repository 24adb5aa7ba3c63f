// The exact search: choose a set of candidate kernels that covers every statement
// once (set partitioning, as in Korch) at minimum modeled time. Kernels must run in
// some order, so the quotient graph must be acyclic; rather than encode that with
// ordering variables, cycles found in a solution are cut off and the model is
// solved again, which stays exact.
#include <coin/Cbc_C_Interface.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <set>

#include "fusion/Search.h"

namespace polyfuse {

namespace {

// CBC prints some messages with printf whatever its log level ("3 slacks added" when a
// MIP start is loaded), which broke `fuse --json` on stdout. While it solves, stdout is
// stderr: results stay alone on stdout and no message is lost. (polyfuse solves on one
// thread; nothing else writes meanwhile.)
class SolverChatterToStderr {
 public:
  SolverChatterToStderr() {
    std::cout.flush();
    std::fflush(stdout);
    saved_ = dup(STDOUT_FILENO);
    if (saved_ >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  ~SolverChatterToStderr() {
    std::fflush(stdout);
    if (saved_ < 0) return;
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
  }
  SolverChatterToStderr(const SolverChatterToStderr&) = delete;
  SolverChatterToStderr& operator=(const SolverChatterToStderr&) = delete;

 private:
  int saved_ = -1;
};

// What one CBC solve left: its flags, its bound, and its incumbent (none: empty).
struct CbcOutcome {
  bool limit = true, infeasible = false, optimal = false;
  double bound = -std::numeric_limits<double>::infinity();
  std::vector<double> x;
};

CbcOutcome solveHere(Cbc_Model* m, int numCols) {
  {
    SolverChatterToStderr quiet;
    Cbc_solve(m);
  }
  CbcOutcome o;
  o.limit = Cbc_isSecondsLimitReached(m);
  o.infeasible = Cbc_isProvenInfeasible(m);
  o.optimal = Cbc_isProvenOptimal(m);
  // CBC reports -1e50 or so before its root relaxation is solved: no bound then.
  if (const double b = Cbc_getBestPossibleObjValue(m); std::isfinite(b) && b > -1e30) o.bound = b;
  if (const double* x = Cbc_getColSolution(m)) o.x.assign(x, x + numCols);
  return o;
}

// CBC checks its clock between nodes, not inside its root relaxation or preprocessing,
// which on a large model ran 0.7 s past a limit of 0.6 (MiniLM-L12 at --time-limit 3:
// the whole search 28% over). The solve runs in a child process that is stopped at the
// deadline, so the limit holds to the millisecond; the model is the parent's, shared
// copy-on-write, and what the child found comes back through a pipe. A solve stopped
// this way found nothing (the MIP start stands). Where no child can be made, CBC
// solves here.
CbcOutcome solveWithin(Cbc_Model* m, int numCols, double seconds) {
  int fds[2];
  if (pipe(fds) != 0) return solveHere(m, numCols);
  std::cout.flush();
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return solveHere(m, numCols);
  }
  if (pid == 0) {
    close(fds[0]);
    const CbcOutcome o = solveHere(m, numCols);
    std::vector<char> msg;
    auto put = [&](const void* p, size_t n) { msg.insert(msg.end(), static_cast<const char*>(p), static_cast<const char*>(p) + n); };
    const char flags[3] = {char(o.limit), char(o.infeasible), char(o.optimal)};
    const uint64_t count = o.x.size();
    put(flags, 3);
    put(&o.bound, sizeof o.bound);
    put(&count, sizeof count);
    put(o.x.data(), o.x.size() * sizeof(double));
    for (size_t off = 0; off < msg.size();) {
      const ssize_t w = write(fds[1], msg.data() + off, msg.size() - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      off += size_t(w);
    }
    _exit(0);  // no destructor, no atexit, no flush of the parent's buffers
  }
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(seconds, 0.0));
  std::string buf;
  bool stopped = false;
  for (;;) {
    const double rem = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (rem <= 0) {
      kill(pid, SIGKILL);
      stopped = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int r = poll(&p, 1, int(std::ceil(rem * 1000)));
    if (r <= 0) continue;  // the clock, or a signal: checked again above
    char chunk[65536];
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the child is done
    buf.append(chunk, size_t(n));
  }
  close(fds[0]);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  CbcOutcome o;
  const size_t head = 3 + sizeof(double) + sizeof(uint64_t);
  if (stopped || buf.size() < head) return o;  // stopped by the clock (or the child failed): nothing found
  uint64_t count = 0;
  o.limit = buf[0], o.infeasible = buf[1], o.optimal = buf[2];
  std::memcpy(&o.bound, buf.data() + 3, sizeof(double));
  std::memcpy(&count, buf.data() + 3 + sizeof(double), sizeof count);
  if (count != uint64_t(numCols) && count != 0) return CbcOutcome{};
  if (buf.size() != head + count * sizeof(double)) return CbcOutcome{};
  o.x.resize(count);
  if (count > 0)  // an empty vector's data() may be null, which memcpy must not see
    std::memcpy(o.x.data(), buf.data() + head, count * sizeof(double));
  return o;
}

}  // namespace

std::vector<int> findKernelCycle(const FusionGraph& fg, const std::vector<StmtSet>& groups,
                                 const std::vector<StmtSet>& recomputed) {
  std::vector<std::set<int>> succ = fg.kernelSuccessors(groups, recomputed);
  std::vector<int> color(groups.size(), 0), stack;
  std::vector<int> cycle;
  std::function<bool(int)> dfs = [&](int u) {
    color[u] = 1;
    stack.push_back(u);
    for (int v : succ[u]) {
      if (color[v] == 1) {
        cycle.assign(std::find(stack.begin(), stack.end(), v), stack.end());
        return true;
      }
      if (color[v] == 0 && dfs(v)) return true;
    }
    stack.pop_back();
    color[u] = 2;
    return false;
  };
  for (size_t k = 0; k < groups.size(); ++k)
    if (color[k] == 0 && dfs(int(k))) return cycle;
  return {};
}

IlpResult solvePartitionIlp(const CostModel& cm, const std::vector<StmtSet>& cands, const std::vector<double>& cost,
                            int maxKernels, double timeLimitSeconds, const std::vector<int>& start,
                            const std::vector<std::vector<int>>& exclude, const std::vector<StmtSet>& recomputed) {
  auto t0 = std::chrono::steady_clock::now();
  const FusionGraph& fg = cm.graph();
  const int n = fg.size();
  IlpResult res;
  // With recomputation, a recomputable statement is covered at least once (not exactly),
  // and the candidates that store it are the ones its outside readers depend on.
  const bool cover = !recomputed.empty();
  auto copies = [&](int s) { return cover && fg.recomputable(s); };
  // Per statement, the candidates that write its value for other kernels.
  std::vector<std::vector<int>> storers(n);
  if (cover)
    for (size_t c = 0; c < cands.size(); ++c)
      for (int s : cands[c].members())
        if (fg.storesValue(cands[c], recomputed[c], s)) storers[s].push_back(int(c));
  // Cycle cuts and no-good cuts have one form: not all of these candidates at once.
  std::vector<std::vector<int>> cuts = exclude;
  // Microseconds as they are; every gap tolerance is zero so that near-ties between
  // partitions are resolved exactly, as the exhaustive oracle resolves them.
  const double scale = 1.0;
  std::vector<int> bestKnown = start;
  // The rows that do not change between rounds, built once; each round loads the
  // whole model at once (adding rows one at a time copies the matrix each time).
  struct Row {
    std::vector<int> idx;
    std::vector<double> val;
    double lo, hi;
  };
  std::vector<Row> fixedRows;
  const double inf = std::numeric_limits<double>::max();
  auto ones = [](const std::vector<int>& idx) { return std::vector<double>(idx.size(), 1.0); };
  std::vector<std::vector<int>> covering(n);
  for (size_t c = 0; c < cands.size(); ++c)
    for (int s : cands[c].members()) covering[s].push_back(int(c));
  for (int s = 0; s < n; ++s) fixedRows.push_back({covering[s], ones(covering[s]), 1.0, copies(s) ? inf : 1.0});
  // A kernel that reads a value it does not compute needs it stored: x_c <= stored_s,
  // where the column stored_s equals the sum of its storers' x (at most 1: one kernel
  // stores it). Without copies this always holds; with them, a statement whose
  // readers all sit beside it stores nothing, yet a copy of a reader elsewhere needs it.
  const int numCands = int(cands.size());
  std::vector<int> storedCol(n, -1);
  std::vector<std::vector<int>> needers(n);
  int numCols = numCands;
  if (cover)
    for (size_t c = 0; c < cands.size(); ++c) {
      std::set<int> needed;
      for (int t : cands[c].members())
        for (auto e : boost::make_iterator_range(boost::in_edges(t, fg.graph()))) {
          int s = int(boost::source(e, fg.graph()));
          if (fg.graph()[e].kind == DepKind::Flow && !cands[c].contains(s)) needed.insert(s);
        }
      for (int s : needed) {
        needers[s].push_back(int(c));
        if (storedCol[s] < 0) {
          storedCol[s] = numCols++;
          Row r{storers[s], ones(storers[s]), 0.0, 0.0};
          r.idx.push_back(storedCol[s]);
          r.val.push_back(-1.0);
          fixedRows.push_back(r);
        }
        fixedRows.push_back({{int(c), storedCol[s]}, {1.0, -1.0}, -inf, 0.0});
      }
    }
  for (int s = 0; s < n; ++s)
    if (copies(s) && storedCol[s] < 0 && storers[s].size() > 1) fixedRows.push_back({storers[s], ones(storers[s]), -inf, 1.0});
  // A value is stored only when some chosen kernel reads it from memory: code is
  // generated from the program with the copies made explicit, whose kernels store
  // exactly what other kernels read.
  for (int s = 0; s < n; ++s) {
    if (!copies(s) || storers[s].empty()) continue;
    Row r{storers[s], ones(storers[s]), -inf, 0.0};
    for (int c : needers[s]) {
      r.idx.push_back(c);
      r.val.push_back(-1.0);
    }
    fixedRows.push_back(r);
  }
  if (maxKernels > 0) {
    std::vector<int> all(cands.size());
    for (size_t c = 0; c < cands.size(); ++c) all[c] = int(c);
    fixedRows.push_back({all, ones(all), -inf, double(maxKernels)});
  }
  for (int round = 0; round < 500; ++round) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double left = timeLimitSeconds - elapsed;
    if (left <= 0) { res.status = SolverStatus::TimeLimit; break; }
    // Owned for the round: freed on every path, an exception's included.
    std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
    Cbc_Model* m = model.get();
    Cbc_setLogLevel(m, 0);
    Cbc_setParameter(m, "log", "0");
    Cbc_setParameter(m, "slog", "0");
    Cbc_setAllowableGap(m, 0.0);
    Cbc_setAllowableFractionGap(m, 0.0);
    Cbc_setAllowablePercentageGap(m, 0.0);
    Cbc_setParameter(m, "increment", "0");
    // This round's rows: the fixed ones and every cut so far.
    std::vector<Row> rows = fixedRows;
    for (auto& cut : cuts) rows.push_back({cut, ones(cut), -inf, double(cut.size()) - 1});
    // Column-major, as CBC loads it.
    std::vector<std::vector<std::pair<int, double>>> byCol(numCols);
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t i = 0; i < rows[r].idx.size(); ++i) byCol[rows[r].idx[i]].push_back({int(r), rows[r].val[i]});
    std::vector<CoinBigIndex> starts{0};
    std::vector<int> index;
    std::vector<double> value, colLo(numCols, 0.0), colHi(numCols, 1.0), obj(numCols, 0.0), rowLo, rowHi;
    for (auto& col : byCol) {
      for (auto [r, v] : col) {
        index.push_back(r);
        value.push_back(v);
      }
      starts.push_back(CoinBigIndex(index.size()));
    }
    for (int c = 0; c < numCands; ++c) obj[c] = cost[c] * scale;
    for (auto& r : rows) {
      rowLo.push_back(r.lo);
      rowHi.push_back(r.hi);
    }
    Cbc_loadProblem(m, numCols, int(rows.size()), starts.data(), index.data(), value.data(), colLo.data(), colHi.data(),
                    obj.data(), rowLo.data(), rowHi.data());
    for (int c = 0; c < numCands; ++c) Cbc_setInteger(m, c);
    if (!bestKnown.empty()) {
      std::vector<double> vals(bestKnown.size(), 1.0);
      Cbc_setMIPStartI(m, int(bestKnown.size()), bestKnown.data(), vals.data());
    }
    // The limit in wall-clock seconds, as --time-limit is (CBC counts CPU time otherwise).
    Cbc_setParameter(m, "timeMode", "elapsed");
    Cbc_setMaximumSeconds(m, left);
    // What is left once the model is built (on MiniLM-L12, 0.13 s of it).
    left = timeLimitSeconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto solveStart = std::chrono::steady_clock::now();
    const CbcOutcome out = solveWithin(m, numCols, left);
    // CBC stopped by the clock in its preprocessing or root may not say so (it then
    // calls the problem infeasible, a MIP start in hand): a solve that used its whole
    // allowance ran out of time, whatever the flags.
    const bool usedAllowance = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStart).count() >= left;
    bool limit = out.limit || usedAllowance;
    if (std::isfinite(out.bound)) res.bestBound = std::max(res.bestBound, out.bound / scale);
    const double* x = out.x.empty() ? nullptr : out.x.data();
    std::vector<int> chosen;
    if (x && !out.infeasible) {
      for (size_t c = 0; c < cands.size(); ++c)
        if (x[c] > 0.5) chosen.push_back(int(c));
      // Validate coverage: CBC may return no incumbent at a time limit.
      std::vector<int> covered(n, 0);
      for (int c : chosen)
        for (int s : cands[c].members()) covered[s]++;
      for (int s = 0; s < n; ++s)
        if (copies(s) ? covered[s] < 1 : covered[s] != 1) chosen.clear();
    }
    const bool infeasible = out.infeasible, optimal = out.optimal;
    if (chosen.empty()) {
      // CBC stopped by the clock may call an unexplored problem infeasible: only a
      // search that ran to its end may say so.
      res.status = infeasible && !limit ? SolverStatus::Infeasible : SolverStatus::TimeLimit;
      break;
    }
    std::vector<StmtSet> groups, kept;
    for (int c : chosen) {
      groups.push_back(cands[c]);
      if (cover) kept.push_back(recomputed[c]);
    }
    // Cut every shortest cycle through each edge of the quotient, not just one: a solve
    // then removes many cyclic solutions (recomputation makes them common). None found:
    // the kernels run in some order, and the solution stands.
    std::vector<std::set<int>> succ = fg.kernelSuccessors(groups, kept);
    std::set<std::vector<int>> found;
    for (size_t a = 0; a < groups.size(); ++a)
      for (int b : succ[a]) {
        // Shortest path b -> a, breadth first.
        std::vector<int> prev(groups.size(), -2);
        std::vector<int> queue{b};
        prev[b] = -1;
        for (size_t q = 0; q < queue.size() && prev[a] == -2; ++q)
          for (int v : succ[queue[q]])
            if (prev[v] == -2) {
              prev[v] = queue[q];
              queue.push_back(v);
            }
        if (prev[a] == -2) continue;
        std::vector<int> cut;
        for (int v = int(a); v != -1; v = prev[v]) cut.push_back(chosen[v]);
        std::sort(cut.begin(), cut.end());
        cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
        found.insert(cut);
      }
    if (found.empty()) {
      res.chosen = chosen;
      res.status = optimal && !limit ? SolverStatus::Optimal : SolverStatus::TimeLimit;
      break;
    }
    for (auto& cut : found) cuts.push_back(cut);
    res.cycleCuts += int(found.size());
    if (limit) { res.status = SolverStatus::TimeLimit; break; }
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace polyfuse

#include "driver/Experiment.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "driver/Execute.h"
#include "driver/Validate.h"
#include "driver/ExperimentConfig.h"
#include "driver/FileIO.h"
#include "driver/Report.h"
#include "fusion/Explain.h"
#include "fusion/PlanOutput.h"
#include "mlir/LoadProgram.h"
#include "polyir/Frontend.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace polyfuse {

namespace {

// FNV-1a of a file's bytes, in hex; "" when it cannot be read.
std::string fileFingerprint(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  uint64_t h = 1469598103934665603ull;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    if (!in) break;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

// A fingerprint of the polyfuse code running: results of another build are recomputed.
// The object that holds this function: the polyfuse executable, or the Python module
// (whose process is python3, so /proc/self/exe would name the interpreter).
const std::string& binaryFingerprint() {
  static const std::string fp = [] {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&fileFingerprint), &info) && info.dli_fname && *info.dli_fname) {
      std::string own = fileFingerprint(info.dli_fname);
      if (!own.empty()) return own;
    }
    return fileFingerprint("/proc/self/exe");
  }();
  return fp;
}

// A file the point reads, as the key records it: where it is, however the configuration
// spelled the way there, and what it holds (an edited program is computed again).
json fileKey(const std::string& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec || !fs::is_regular_file(canonical)) return path;  // a preset name ("h100"), or missing: the point says
  return json{{"path", canonical.string()}, {"content", fileFingerprint(canonical)}};
}

// Kernels as lists of statement labels, recomputed ones marked: [["S0", "S1"], ["S1'", "S2"]].
json kernelsJson(const std::vector<std::vector<int>>& kernels, const std::vector<std::vector<int>>& recomputed) {
  json out = json::array();
  for (size_t i = 0; i < kernels.size(); ++i) {
    json sts = json::array();
    for (int s : kernels[i]) sts.push_back(memberLabel("S" + std::to_string(s), recomputed[i], s));
    out.push_back(sts);
  }
  return out;
}

// Validation is per program, sizes and device, not per strategy: the ilp point carries it
// (or the first strategy's, when ilp is not swept).
bool validates(const ExperimentConfig& cfg, const Point& pt) {
  if (!cfg.validate) return false;
  bool ilp = std::find(cfg.strategies.begin(), cfg.strategies.end(), "ilp") != cfg.strategies.end();
  return pt.strategy == (ilp ? std::string("ilp") : cfg.strategies.front());
}

// What a finished point must have been computed from: its inputs and the binary that
// computed it. A change redoes the point.
json pointKey(const ExperimentConfig& cfg, const Point& pt) {
  json k;
  k["polyfuse"] = binaryFingerprint();
  k["program"] = fileKey(cfg.programs[pt.program].path);
  k["entry"] = cfg.programs[pt.program].entry;
  k["sizes"] = pt.sizes;
  k["strategy"] = pt.strategy;
  const DeviceSpec& dev = cfg.devices[pt.device];
  k["device"] = dev.overrides.empty() ? fileKey(dev.base) : json{{"base", fileKey(dev.base)}, {"overrides", dev.overrides}};
  k["weights"] = cfg.weights[pt.weights].values;
  k["execute"] = cfg.execute.enabled ? json{{"backend", backendName(cfg.execute.backend)}, {"repeat", cfg.execute.repeat},
                                            {"sizes", cfg.execute.sizes}, {"verify", cfg.execute.verify}}
                                     : json();
  k["emit"] = cfg.emit;
  if (validates(cfg, pt)) k["validate"] = {{"top", cfg.validateTop}};
  if (!cfg.recompute) k["recompute"] = false;
  if (!cfg.stream) k["stream"] = false;
  if (!cfg.columnTiles) k["column_tiles"] = false;
  if (!cfg.streamSplit) k["stream_split"] = false;
  if (!cfg.splitK) k["split_k"] = false;
  if (cfg.wideFmaTiles) k["wide_fma_tiles"] = true;
  if (!cfg.readThrough) k["read_through"] = false;
  if (cfg.stages != CostModel::kDefaultContractionStages) k["stages"] = cfg.stages;
  if (pt.numerics != Numerics::Default) k["numerics"] = numericsName(pt.numerics);
  return k;
}

Sizes executionSizes(const ExperimentConfig& cfg, const Program& prog, const Point& pt) {
  if (cfg.execute.sizes.empty()) return pt.sizes;
  // Each program takes the names it has from the first execution size that binds them all.
  for (auto& s : cfg.execute.sizes) {
    Sizes mine;
    for (auto& n : prog.sizeParams)
      if (s.count(n)) mine[n] = s.at(n);
    if (mine.size() == prog.sizeParams.size()) return mine;
  }
  // Name a size that no entry gives (the first entry's gap, for a precise message).
  for (auto& n : prog.sizeParams)
    if (!cfg.execute.sizes.front().count(n))
      throw UsageError(cfg.file + ": execute.sizes gives no value for size '" + n + "' of program '" + prog.name +
                       "'");
  throw UsageError(cfg.file + ": no entry of execute.sizes gives every size of program '" + prog.name + "'");
}

std::string sizesInOrder(const Program& prog, const Sizes& s) {
  std::string t;
  for (auto& n : prog.sizeParams) t += (t.empty() ? "" : ",") + n + "=" + std::to_string(s.at(n));
  return t;
}

// The fields every result row has, whether the point succeeded or not.
json pointHeader(const ExperimentConfig& cfg, const Point& pt) {
  json r;
  r["point"] = pt.id;
  r["key"] = pointKey(cfg, pt);
  r["program"] = fs::path(cfg.programs[pt.program].path).stem().string();
  r["sizes"] = sizesText(pt.sizes);
  r["strategy"] = pt.strategy;
  r["numerics"] = numericsName(pt.numerics);
  const DeviceSpec& dev = cfg.devices[pt.device];
  r["device"] = dev.label;
  if (!dev.swept.empty()) {
    r["swept_param"] = dev.swept;
    r["swept_value"] = dev.sweptValue;
  }
  r["weights"] = cfg.weights[pt.weights].name;
  return r;
}

// A readers-writer lock across the sweep's workers, preferring the writer: a point that
// times generated code holds it exclusively, a point that plans holds it shared, so no
// two points time at once and nothing is planned beside a timing (on a machine of two
// cores, a planner beside the timed code is half its noise). A waiting timer holds the
// turnstile, so new planners wait behind it instead of starving it. Flocks: a killed
// worker releases them.
class DeviceLock {
 public:
  enum Mode { Plan, Time };
  DeviceLock(const fs::path& folder, Mode mode)
      : turnstile_(open(folder / ".turnstile.lock")), device_(open(folder / ".device.lock")) {
    lock(turnstile_, LOCK_EX);
    lock(device_, mode == Time ? LOCK_EX : LOCK_SH);
    if (turnstile_ >= 0) ::flock(turnstile_, LOCK_UN);
  }
  ~DeviceLock() {
    if (device_ >= 0) ::close(device_);
    if (turnstile_ >= 0) ::close(turnstile_);
  }
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

 private:
  static int open(const fs::path& file) { return ::open(file.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644); }
  static void lock(int fd, int how) {
    if (fd >= 0)
      while (::flock(fd, how) != 0 && errno == EINTR) {
      }
  }
  int turnstile_, device_;
};

// Computes one point into `dir` (a fresh folder, out/points/ID.tmp). Never throws:
// errors are recorded.
json computePoint(const ExperimentConfig& cfg, const Point& pt, const fs::path& dir) {
  json r = pointHeader(cfg, pt);
  const ProgramSpec& ps = cfg.programs[pt.program];
  const fs::path sweepFolder = dir.parent_path().parent_path();
  auto planning = std::make_unique<DeviceLock>(sweepFolder, DeviceLock::Plan);
  try {
    SourceFile src = readSource(ps.path);
    LoadedProgram lp;
    try {
      lp = loadProgramFile(src, ps.entry, std::make_shared<IslContext>(), {cfg.readThrough});
    } catch (const SourceError& e) {
      throw UsageError(formatSourceError(ps.path, src.text, e));
    }
    r["program"] = lp.program->name;
    r["sizes"] = sizesInOrder(*lp.program, pt.sizes);
    Device dev = loadDevice(cfg.devices[pt.device].base);
    applyDeviceOverrides(dev, cfg.devices[pt.device].overrides);
    applyDeviceOverrides(dev, cfg.weights[pt.weights].values);
    FusionGraph fg(*lp.poly);
    CostModel cm(fg, pt.sizes, dev);
    cm.setStreams(cfg.stream);
    cm.setColumnTiles(cfg.columnTiles);
    cm.setStreamSplits(cfg.streamSplit);
    cm.setSplitK(cfg.splitK);
    cm.setWideFmaTiles(cfg.wideFmaTiles);
    cm.setMaxStages(cfg.stages);
    cm.setNumerics(pt.numerics);
    SearchOptions opt;
    opt.strategy = parseStrategy(pt.strategy);
    opt.timeLimitSeconds = cfg.timeLimitSeconds;
    opt.recompute = cfg.recompute;
    // The exact search also finds the runner-up: how far it is says how robust the
    // optimum is to the model's errors.
    if (opt.strategy == Strategy::Ilp) opt.topK = 2;
    Partition p = search(cm, opt);
    json plan = partitionJson(cm, p);
    plan["decisions"] = decisionsJson(*lp.program, explain(cm, p, opt));
    writeAtomically(dir / "plan.json", plan.dump(2) + "\n");
    {
      std::ostringstream dot;
      writeDot(dot, cm, p);
      writeAtomically(dir / "plan.dot", dot.str());
    }
    for (auto& target : cfg.emit) writeCode(cm, p, target, (dir / target).string());
    r["num_kernels"] = p.kernels.size();
    r["dram_bytes"] = p.dramBytes;
    r["lower_bound_bytes"] = cm.lowerBoundBytes();
    r["l2_bytes"] = p.l2Bytes;
    r["modeled_us"] = p.modeledUs;
    r["solve_seconds"] = p.solver.seconds;
    r["solver_status"] = solverStatusName(p.solver.status);
    if (p.solver.hasBound) {
      r["best_bound_us"] = p.solver.bestBoundUs;
      r["solver_gap"] = p.solver.gap;
    }
    std::vector<std::vector<int>> kernels, recomputed;
    for (auto& k : p.kernels) {
      kernels.push_back(k.statements);
      recomputed.push_back(k.recomputed);
    }
    r["kernels"] = kernelsJson(kernels, recomputed);
    if (p.alternatives.size() >= 2) {
      r["second_best_us"] = p.alternatives[1].modeledUs;
      r["second_best_kernels"] = kernelsJson(p.alternatives[1].kernels, p.alternatives[1].recomputed);
    }
    if (cfg.execute.enabled) {
      // The plan chosen at the modeled sizes runs at the execution sizes as it is:
      // kernels, grids, tiles and thread mappings; only a tile larger than its extent
      // there is clamped, and the row says so.
      Sizes es = executionSizes(cfg, *lp.program, pt);
      CostModel ecm(fg, es, dev);
      ecm.setStreams(cfg.stream);
      ecm.setNumerics(pt.numerics);
      std::vector<std::string> clamps;
      Partition ep = ecm.replan(p, clamps);
      r["exec_plan_clamps"] = clamps;
      r["exec_modeled_us"] = ep.modeledUs;
      checkMemoryFits(*lp.program, es, cfg.execute.backend);
      Bindings in = makeInputs(*lp.program, es, 1);
      planning.reset();  // a timer waits for the planners, so it must not be one
      DeviceLock timing(sweepFolder, DeviceLock::Time);
      auto wallNow = [] { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); };
      const double timedFrom = wallNow();
      ExecOutcome x = executePartition(ecm, ep, cfg.execute.backend, in, 1, cfg.execute.repeat);
      r["exec_backend"] = backendName(cfg.execute.backend);
      r["exec_device"] = x.device;
      r["exec_flushed_bytes"] = x.flushedBytes;
      r["exec_sizes"] = sizesInOrder(*lp.program, es);
      r["exec_repeat"] = cfg.execute.repeat;
      r["measured_ms"] = x.totalMs;
      r["measured_min_ms"] = x.totalMinMs;
      r["measured_max_ms"] = x.totalMaxMs;
      r["kernel_ms"] = x.kernelMs;
      r["verified"] = cfg.execute.verify ? json(x.verified) : json();
      r["max_rel_error"] = x.maxRelError;
      r["max_error_f64"] = x.maxErrorF64;
      if (validates(cfg, pt)) {
        // The model against measurement, at the execution sizes: every legal partition
        // (or the K best) modeled there and run there.
        Validation v = validatePartitions(ecm, cfg.execute.backend, in, cfg.execute.repeat, cfg.validateTop, cfg.recompute);
        json parts = json::array();
        for (auto& vp : v.partitions)
          parts.push_back({{"kernels", kernelsText(vp.kernels, vp.recomputed)}, {"modeled_us", vp.modeledUs},
                           {"measured_ms", vp.run.totalMs}, {"verified", vp.run.verified}});
        r["validation"] = {{"source", v.source}, {"device", v.device}, {"partitions", parts}};
        r["kendall_tau"] = v.kendallTau;
        r["spearman_rho"] = v.spearmanRho;
        r["regret"] = v.regret;
        if (!v.allVerified) r["error"] = "validation: a partition failed verification (see validation.partitions)";
      }
      // When the device was held (seconds since the epoch): results.jsonl shows that no
      // two points' timed windows overlap.
      r["exec_window"] = {timedFrom, wallNow()};
    }
  } catch (const std::exception& e) {
    r["error"] = e.what();
  }
  return r;
}

// Progress on stderr: a bar on a terminal; otherwise (a batch job, a pipe) one line per
// finished point, so that a log shows how far a long sweep got.
void progress(size_t done, size_t total, std::chrono::steady_clock::time_point t0, const std::string& id,
              const std::string& outcome) {
  if (total == 0) return;
  double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double eta = done ? el / double(done) * double(total - done) : 0;
  if (!isatty(STDERR_FILENO)) {
    std::fprintf(stderr, "[%zu/%zu] %s: %s (elapsed %.1f s, ETA %d:%02d)\n", done, total, id.c_str(), outcome.c_str(), el,
                 int(eta) / 60, int(eta) % 60);
    std::fflush(stderr);
    return;
  }
  int width = 30, fill = int(width * double(done) / double(total));
  std::fprintf(stderr, "\r[%s%s] %zu/%zu points  ETA %d:%02d ", std::string(fill, '#').c_str(),
               std::string(width - fill, '.').c_str(), done, total, int(eta) / 60, int(eta) % 60);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

// Ctrl-C (or SIGTERM) stops launching points; running workers get the signal too.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void onInterrupt(int) { interrupted = 1; }

// Whole reads and writes on a pipe, through interruptions; false at its end or on error.
template <typename Byte, typename Transfer>
bool wholly(int fd, Byte* at, size_t size, Transfer transfer) {
  while (size > 0) {
    const ssize_t n = transfer(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= size_t(n);
  }
  return true;
}
bool readFully(int fd, void* data, size_t size) { return wholly(fd, static_cast<char*>(data), size, ::read); }
bool writeFully(int fd, const void* data, size_t size) {
  return wholly(fd, static_cast<const char*>(data), size, ::write);
}

// Runs that would compute the same points never share an output folder: a whole run
// holds `.lock` exclusively; a shard holds it shared (shards compute disjoint points, so
// a Slurm array may run them at once) and its own `.lock-shard-I-of-N` exclusively; a
// merge holds `.lock` shared. The locks are flocks, so a killed run releases them.
void lockOutput(const fs::path& out, const ExperimentOptions& opt) {
  auto take = [&](const fs::path& lock, int how) {
    int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw WriteError("cannot create '" + lock.string() + "': " + std::strerror(errno));
    if (::flock(fd, how | LOCK_NB) != 0)
      throw UsageError("another polyfuse experiment is writing into '" + out.string() + "' (it holds " + lock.string() +
                       "); wait for it to finish or choose another -o");
    // The descriptor stays open until the process exits: that is the lock.
  };
  const bool shard = opt.shardCount > 1 && !opt.mergeOnly;
  take(out / ".lock", shard || opt.mergeOnly ? LOCK_SH : LOCK_EX);
  if (shard)
    take(out / (".lock-shard-" + std::to_string(opt.shardIndex) + "-of-" + std::to_string(opt.shardCount)), LOCK_EX);
}

// Every point's program, sizes and execution sizes are checked before any work, so a
// mistake in the configuration exits 2 at once instead of failing every point.
void validatePoints(const ExperimentConfig& cfg, const std::vector<Point>& points) {
  std::map<int, LoadedProgram> loaded;
  for (auto& pt : points) {
    const ProgramSpec& ps = cfg.programs[pt.program];
    if (!loaded.count(pt.program)) {
      SourceFile src = readSource(ps.path);
      try {
        loaded[pt.program] = loadProgramFile(src, ps.entry, std::make_shared<IslContext>(), {cfg.readThrough});
      } catch (const SourceError& e) {
        throw UsageError(formatSourceError(ps.path, src.text, e));
      }
    }
    const Program& prog = *loaded[pt.program].program;
    try {
      prog.checkSizes(pt.sizes);
    } catch (const UsageError& e) {
      throw UsageError(cfg.file + ": program '" + ps.path + "', sizes " + sizesText(pt.sizes) + ": " + e.what());
    }
    if (cfg.execute.enabled) executionSizes(cfg, prog, pt);
  }
}

}  // namespace

int runExperiment(const ExperimentOptions& opt) {
  ExperimentConfig cfg = loadExperimentConfig(opt.config);
  std::vector<Point> points = expandPoints(cfg);
  if (opt.shardCount < 1 || opt.shardIndex < 0 || opt.shardIndex >= opt.shardCount)
    throw UsageError("--shard I/N needs 0 <= I < N");
  validatePoints(cfg, points);
  fs::path out = opt.out.empty() ? fs::path("results") / fs::path(opt.config).stem() : fs::path(opt.out);
  fs::create_directories(out / "points");
  lockOutput(out, opt);
  // A folder belongs to the configuration that first wrote it (named in `.config`):
  // another one's run or merge would replace or mix results, so it is refused unless
  // asked for. A folder that predates the mark is taken by whoever runs in it next.
  {
    const fs::path mark = out / ".config";
    const std::string mine = cfg.name + "\n";
    std::ifstream in(mark);
    std::stringstream had;
    had << in.rdbuf();
    if (in && had.str() != mine && !opt.force)
      throw UsageError("output directory '" + out.string() + "' holds the results of experiment '" +
                       had.str().substr(0, had.str().find('\n')) + "', not '" + cfg.name +
                       "': choose another with -o, or pass --force to replace them");
    if (!opt.mergeOnly && had.str() != mine) writeAtomically(mark, mine);
  }
  // The log keeps every point's error: a failed point is recomputed on resume, and its
  // result.json is then replaced.
  std::ofstream log(out / "experiment.log", std::ios::app);
  auto logLine = [&](const std::string& line) {
    log << line << "\n";
    log.flush();
    if (!log) throw WriteError("cannot write '" + (out / "experiment.log").string() + "'");
  };
  std::vector<Point> todo;
  size_t kept = 0;
  for (auto& pt : points) {
    if (!opt.mergeOnly && pt.index % opt.shardCount != opt.shardIndex) continue;
    fs::path res = out / "points" / pt.id / "result.json";
    if (fs::exists(res)) {
      try {
        json old = json::parse(std::ifstream(res));
        // Only finished points are kept: one that recorded an error is done again.
        if (old["key"] == pointKey(cfg, pt) && !old.contains("error")) {
          ++kept;
          continue;
        }
      } catch (const std::exception&) {
      }
    }
    if (!opt.mergeOnly) todo.push_back(pt);
  }
  auto t0 = std::chrono::steady_clock::now();
  size_t done = 0;
  // `status` is the worker's wait status when it died, 0 when it finished the point.
  auto finish = [&](const Point& pt, int status) {
    fs::path tmp = out / "points" / (pt.id + ".tmp");
    fs::path final = out / "points" / pt.id;
    std::string outcome = "ok";
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || !fs::exists(tmp / "result.json")) {
      // The worker died: record it so that the sweep goes on (and the next run redoes it).
      fs::create_directories(tmp);
      json r = pointHeader(cfg, pt);
      r["error"] = WIFSIGNALED(status) ? "worker killed by signal " + std::to_string(WTERMSIG(status))
                                       : "worker failed with status " + std::to_string(WEXITSTATUS(status));
      writeAtomically(tmp / "result.json", r.dump(2) + "\n");
    }
    try {
      json r = json::parse(std::ifstream(tmp / "result.json"));
      if (r.contains("error")) {
        outcome = "error: " + r["error"].get<std::string>();
        logLine("point " + pt.id + ": " + r["error"].get<std::string>());
      }
    } catch (const json::exception&) {
      throw WriteError("the worker of point " + pt.id + " left an unreadable result.json");
    }
    fs::remove_all(final);
    fs::rename(tmp, final);  // the point appears whole or not at all
    progress(++done, todo.size(), t0, pt.id, outcome);
  };
  std::cout.flush();
  interrupted = 0;
  struct sigaction sa = {}, oldInt = {}, oldTerm = {}, ignore = {}, oldPipe = {};
  sa.sa_handler = onInterrupt;
  sigaction(SIGINT, &sa, &oldInt);
  sigaction(SIGTERM, &sa, &oldTerm);
  ignore.sa_handler = SIG_IGN;  // a worker that died is seen at its pipe, not by a signal
  sigaction(SIGPIPE, &ignore, &oldPipe);
  // Workers are forked before this process touches a device, and each computes points
  // in turn as they are handed out: a worker pays a backend's start once (PoCL parses
  // its 10 MB kernel library at a process's first build, 0.5 s of CPU here), where a
  // process a point paid it for every point. A worker that dies costs its point an
  // error, and a new one takes its place.
  struct Worker {
    pid_t pid = -1;
    int work = -1, done = -1;  // pipes: point indices to it, finished indices from it
    std::optional<size_t> busy;
  };
  std::vector<Worker> workers;
  auto spawn = [&]() {
    int down[2], up[2];
    if (pipe(down) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
    if (pipe(up) != 0) {
      ::close(down[0]);
      ::close(down[1]);
      throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      sigaction(SIGINT, &oldInt, nullptr);
      sigaction(SIGTERM, &oldTerm, nullptr);
      sigaction(SIGPIPE, &oldPipe, nullptr);
      ::close(down[1]);
      ::close(up[0]);
      for (const Worker& w : workers) {  // so that each worker alone holds its pipes
        ::close(w.work);
        ::close(w.done);
      }
      for (uint64_t i; readFully(down[0], &i, sizeof i);) {
        const Point& pt = todo.at(i);
        const fs::path tmp = out / "points" / (pt.id + ".tmp");
        json r = computePoint(cfg, pt, tmp);
        try {
          writeAtomically(tmp / "result.json", r.dump(2) + "\n");
        } catch (const std::exception& e) {
          std::fprintf(stderr, "polyfuse: error: point %s: %s\n", pt.id.c_str(), e.what());
          _exit(3);
        }
        std::fflush(nullptr);
        if (!writeFully(up[1], &i, sizeof i)) break;
      }
      _exit(0);
    }
    ::close(down[0]);
    ::close(up[1]);
    Worker w;
    w.pid = pid;
    w.work = down[1];
    w.done = up[0];
    return w;
  };
  // The worker is gone: its point, if it had one, records how it ended.
  auto bury = [&](Worker& w) {
    ::close(w.work);
    ::close(w.done);
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    // One that exited cleanly without reporting its point failed it all the same: status 1.
    if (w.busy) finish(todo[*w.busy], status == 0 ? W_EXITCODE(1, 0) : status);
    w.pid = -1;
  };
  size_t next = 0;
  for (;;) {
    workers.erase(std::remove_if(workers.begin(), workers.end(), [](const Worker& w) { return w.pid < 0; }),
                  workers.end());
    if (!interrupted) {
      for (size_t k = 0; next < todo.size(); ++k) {
        if (k == workers.size()) {
          if (int(workers.size()) >= std::max(1, opt.jobs)) break;
          workers.push_back(spawn());
        }
        Worker& w = workers[k];
        if (w.busy) continue;
        const fs::path tmp = out / "points" / (todo[next].id + ".tmp");
        fs::remove_all(tmp);
        fs::create_directories(tmp);
        const uint64_t i = next++;
        w.busy = i;
        if (!writeFully(w.work, &i, sizeof i)) bury(w);  // it died while idle
      }
    }
    std::vector<pollfd> fds;
    std::vector<Worker*> waiting;
    for (Worker& w : workers)
      if (w.pid >= 0 && w.busy) {
        fds.push_back({w.done, POLLIN, 0});
        waiting.push_back(&w);
      }
    if (fds.empty()) {
      if (interrupted || next >= todo.size()) break;
      continue;  // a worker was replaced: hand out again
    }
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
    }
    for (size_t f = 0; f < fds.size(); ++f) {
      if (!fds[f].revents) continue;
      Worker& w = *waiting[f];
      uint64_t i = 0;
      if (readFully(w.done, &i, sizeof i) && w.busy && i == *w.busy) {
        w.busy.reset();
        finish(todo[i], 0);
      } else {
        bury(w);
      }
    }
  }
  for (Worker& w : workers)  // no more work: each ends when its pipe closes
    if (w.pid >= 0) bury(w);
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);
  sigaction(SIGPIPE, &oldPipe, nullptr);
  if (interrupted) {
    size_t finished = 0;  // what a resume keeps: results without an error
    for (auto& pt : points) {
      try {
        json r = json::parse(std::ifstream(out / "points" / pt.id / "result.json"));
        finished += !r.contains("error");
      } catch (const std::exception&) {
      }
    }
    std::cerr << "\npolyfuse: interrupted: " << finished << " of " << points.size() << " points are finished in '"
              << out.string() << "'; run the same command again to resume (finished points are kept)\n";
    return 130;
  }
  // Gather every finished point of the configuration (all shards) and report.
  std::vector<json> results;
  std::vector<std::string> missing;
  for (auto& pt : points) {
    fs::path res = out / "points" / pt.id / "result.json";
    if (!fs::exists(res)) {
      missing.push_back(pt.id);
      continue;
    }
    try {
      results.push_back(json::parse(std::ifstream(res)));
    } catch (const json::exception&) {
      missing.push_back(pt.id);  // damaged (by hand, or a disk that filled): redone on the next run
      logLine("point " + pt.id + ": unreadable result.json, left for the next run");
    }
  }
  if (opt.mergeOnly && !missing.empty()) {
    // A merge is meant to be complete: say which points no shard has produced yet, and
    // leave the results that are there as they are.
    std::string names;
    for (size_t i = 0; i < missing.size() && i < 20; ++i) names += (i ? ", " : "") + missing[i];
    if (missing.size() > 20) names += " and " + std::to_string(missing.size() - 20) + " more";
    std::cerr << "polyfuse: error: --merge: " << missing.size() << " point(s) missing, their shards have not run: "
              << names << "; results.csv and the report are unchanged\n";
    return 1;
  }
  writeResults(cfg, results, out);
  int failed = 0, errors = 0;
  for (auto& r : results) {
    if (r.contains("error")) ++errors;
    if (r.contains("verified") && r["verified"].is_boolean() && !r["verified"].get<bool>()) ++failed;
  }
  std::cout << "experiment '" << cfg.name << "': " << points.size() << " points, " << todo.size() << " computed, " << kept
            << " kept from an earlier run";
  if (!missing.empty()) std::cout << ", " << missing.size() << " not yet computed (other shards)";
  std::cout << "\n";
  if (errors) std::cout << errors << " point(s) recorded an error (see results.csv and experiment.log)\n";
  if (failed) std::cout << failed << " executed point(s) failed verification\n";
  std::cout << "results: " << (out / "results.csv").string() << ", " << (out / "results.jsonl").string() << "\n";
  std::cout << "report: " << (out / "report.html").string() << " and " << (out / "report.md").string() << "\n";
  return failed || errors ? 1 : 0;
}

}  // namespace polyfuse

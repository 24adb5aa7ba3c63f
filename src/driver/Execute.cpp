#include "driver/Execute.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runtime/CudaTools.h"
#include "codegen/Lower.h"
#include "runtime/Process.h"
#include "driver/FileIO.h"
#include "runtime/OpenCLRunner.h"
#include "fusion/PlanOutput.h"
#include "fusion/Recompute.h"
#include "polyir/Npy.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

std::vector<std::string> writeCode(const CostModel& cm, const Partition& p, const std::string& target,
                                   const std::string& dir) {
  // Recomputed statements become statements of their own: generate from that program.
  if (auto explicitCopies = makeCopiesExplicit(cm, p)) return writeCode(*explicitCopies->cm, explicitCopies->plan, target, dir);
  std::filesystem::create_directories(dir);
  std::vector<std::string> files;
  auto write = [&](const std::string& name, const std::string& text) {
    std::string path = dir + "/" + name;
    writeAtomically(path, text);
    files.push_back(path);
  };
  GeneratedCode code = generate(cm.graph().poly(), p, target == "cuda" ? Dialect::Cuda : Dialect::OpenCL);
  if (target == "cuda") {
    write("kernels.cu", code.kernelSource);
    write("reference.h", emitReference(cm.at(), tf32Operands(cm.graph().program(), p)));
    write("reference_main.c", emitReferenceMain(cm.at()));
    write("harness.cu", emitCudaHarness(cm.graph().program(), p, code));
  } else {
    write("kernels.cl", code.kernelSource);
  }
  // The plan, with what the code generator named and counted for each kernel.
  nlohmann::ordered_json plan = partitionJson(cm, p);
  for (size_t i = 0; i < code.kernels.size(); ++i) {
    plan["kernels"][i]["function"] = code.kernels[i].name;
    plan["kernels"][i]["barriers_per_block"] = code.kernels[i].barriersPerBlock;
    if (code.kernels[i].warpBarriers > 0) plan["kernels"][i]["warp_barriers"] = code.kernels[i].warpBarriers;
  }
  write("plan.json", plan.dump(2) + "\n");
  return files;
}

// MemAvailable from /proc/meminfo, in bytes; 0 when unknown.
static int64_t availableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

void checkMemoryFits(const Program& prog, const Sizes& sizes, Backend backend) {
  prog.checkSizes(sizes);
  double doubles = 0, device = 0;
  for (auto& t : prog.tensors) {
    double n = double(t.elements(sizes));
    doubles += n * 8;
    device += n * elemBytes(t.type);
  }
  // The interpreter's bindings; a second copy and the device buffers when a backend is checked.
  double need = backend == Backend::Ref ? doubles : 2 * doubles + 2 * device;
  int64_t avail = availableMemory();
  if (avail > 0 && need > 0.9 * double(avail)) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "exec needs about %.1f GiB at these sizes (every tensor in double for the reference "
                  "interpreter%s) but %.1f GiB are available; use smaller --size values",
                  need / double(1 << 30), backend == Backend::Ref ? "" : ", plus the backend's buffers", double(avail) / double(1 << 30));
    throw UsageError(buf);
  }
}

Bindings interpretF64(const Program& prog, const Bindings& inputs) {
  Bindings exact = inputs;
  interpret(prog, exact, Precision::F64);
  return exact;
}

namespace {

// The largest normwise error of any output against the interpreter run in float64.
double errorAgainstF64(const Program& prog, const Bindings& inputs, const std::map<std::string, TensorData>& outputs,
                       const Bindings* known) {
  const Bindings exact = known ? Bindings() : interpretF64(prog, inputs);
  const Bindings& ref = known ? *known : exact;
  double worst = 0;
  for (int t : prog.tensorsWithRole(TensorRole::Output)) {
    const std::string& name = prog.tensors[t].name;
    auto got = outputs.find(name);
    if (got == outputs.end()) continue;
    double e = maxRelativeError(got->second.values, ref.tensors.at(name).values);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

// Where the cuda backend writes its harnesses: one folder a process.
std::string cudaScratch() {
  return (std::filesystem::temp_directory_path() / ("polyfuse-cuda-" + std::to_string(::getpid()))).string();
}

}  // namespace

std::vector<std::string> buildCudaHarnesses(const CostModel& cm, const std::vector<Partition>& partitions) {
  if (!hasCudaGpu())
    throw std::runtime_error("no CUDA GPU on this machine: the cuda backend needs one "
                             "(polyfuse codegen --target cuda writes harness.cu to run elsewhere)");
  const std::string nvcc = nvccPath();
  if (nvcc.empty()) throw std::runtime_error("nvcc not found: the cuda backend needs the CUDA toolkit");
  // Code generation goes through the one isl context: it stays on this thread; only the
  // nvcc processes run side by side.
  const std::string root = cudaScratch();
  std::vector<std::string> dirs;
  for (size_t i = 0; i < partitions.size(); ++i) {
    dirs.push_back(partitions.size() == 1 ? root : root + "/p" + std::to_string(i));
    writeCode(cm, partitions[i], "cuda", dirs.back());
  }
  std::vector<int> status(dirs.size(), 0);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < dirs.size();)
      status[i] = runProcess({nvcc, "-O3", "-arch=native", "-Xcompiler", "-fopenmp", "-o", dirs[i] + "/harness", dirs[i] + "/harness.cu"},
                             {"", dirs[i] + "/nvcc.log", "=stdout"});
  };
  std::vector<std::thread> pool;
  const size_t jobs = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), dirs.size());
  for (size_t t = 1; t < jobs; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (size_t i = 0; i < dirs.size(); ++i)
    if (status[i] != 0) throw InternalError("nvcc failed on the generated code; see " + dirs[i] + "/nvcc.log");
  return dirs;
}

ExecOutcome executePartition(const CostModel& cm, const Partition& p, Backend backend,
                             const Bindings& inputs, uint64_t seed, int repeat, const std::string& dumpDir,
                             const SharedRun& shared) {
  if (auto explicitCopies = makeCopiesExplicit(cm, p))
    return executePartition(*explicitCopies->cm, explicitCopies->plan, backend, inputs, seed, repeat, dumpDir, shared);
  const Program& prog = cm.graph().program();
  const double tolerance = verificationTolerance(prog, p);
  ExecOutcome out;
  out.backend = backend;
  out.tolerance = tolerance;
  if (backend == Backend::Ref) throw InternalError("executePartition runs generated code, not the interpreter");
  if (backend == Backend::OpenCL) {
    GeneratedCode code = generate(cm.graph().poly(), p, Dialect::OpenCL);
    RunResult r = runOpenCL(prog, p, code, inputs, repeat, tolerance);
    out.device = r.device;
    out.verified = r.verified;
    out.maxRelError = r.maxRelError;
    out.tf32Effect = r.tf32Effect;
    out.worst = r.worst;
    for (auto& k : code.kernels) out.kernelNames.push_back(k.name);
    out.kernelMs = r.kernelMs;
    out.totalMs = r.totalMs;
    out.totalMinMs = r.totalMinMs;
    out.totalMaxMs = r.totalMaxMs;
    out.flushedBytes = r.flushedBytes;
    out.outputs = r.outputs;
    out.maxErrorF64 = errorAgainstF64(prog, inputs, out.outputs, shared.exactF64);
    if (!dumpDir.empty()) {
      std::filesystem::create_directories(dumpDir);
      for (auto& [name, t] : out.outputs) writeNpy(dumpDir + "/" + name + ".npy", t);
    }
    return out;
  }
  const std::string dir = shared.cudaHarness.empty() ? buildCudaHarnesses(cm, {p}).front() : shared.cudaHarness;
  // The harness hands every output back as .npy: in the caller's folder, or in ours.
  const std::string outDir = dumpDir.empty() ? dir + "/outputs" : dumpDir;
  std::filesystem::create_directories(outDir);
  std::vector<std::string> run = {dir + "/harness", std::to_string(seed), std::to_string(std::max(1, repeat)), outDir};
  const int status = runProcess(run, {"", dir + "/run.log", "=stdout"});
  std::ifstream log(dir + "/run.log");
  std::string line, first;
  bool reported = false;
  while (std::getline(log, line)) {
    if (first.empty()) first = line;
    if (line.rfind("JSON ", 0) == 0) {
      reported = true;
      auto j = nlohmann::json::parse(line.substr(5));
      out.verified = j["verified"];
      out.maxRelError = j["max_rel_error"];
      if (j.contains("tf32_effect")) out.tf32Effect = j["tf32_effect"];
      out.totalMs = j["run_median_ms"];
      out.totalMinMs = j["run_min_ms"];
      out.totalMaxMs = j["run_max_ms"];
      out.device = "CUDA " + j["device"].get<std::string>();
      out.flushedBytes = j["flushed_bytes"];
    } else {
      // The harness prints one row per kernel of the plan: "NAME ms GB/s".
      std::istringstream row(line);
      std::string name;
      double ms = 0, gbs = 0;
      if (!(row >> name >> ms >> gbs)) continue;
      for (auto& k : p.kernels)
        if (name == kernelFunction(prog, k.id)) {
          out.kernelNames.push_back(name);
          out.kernelMs.push_back(ms);
        }
    }
  }
  // A harness that could not run (no device, out of memory) has no verdict to give.
  if (!reported)
    throw std::runtime_error("the CUDA harness in " + dir + " gave no result (exit status " + std::to_string(status) +
                             (first.empty() ? ")" : "): " + first));
  for (int t : prog.tensorsWithRole(TensorRole::Output)) {
    const std::string& name = prog.tensors[t].name;
    if (std::filesystem::exists(outDir + "/" + name + ".npy")) out.outputs[name] = readNpy(outDir + "/" + name + ".npy");
  }
  out.maxErrorF64 = errorAgainstF64(prog, inputs, out.outputs, shared.exactF64);
  return out;
}

}  // namespace polyfuse

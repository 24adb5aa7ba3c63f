#include "driver/Inspect.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "runtime/CudaTools.h"
#include "runtime/Process.h"
#include "fusion/Occupancy.h"
#include "polyir/Diagnostic.h"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace polyfuse {

namespace {

struct PtxasInfo {
  int registers = -1;
  long smem = -1, spillStores = -1, spillLoads = -1, stack = -1;
};

// nvcc runs its own steps through a shell: a path with shell syntax in it (a folder named
// "X$(touch F)") would run as a command, although polyfuse hands nvcc an argument vector.
// So nvcc only ever sees a copy of the source in a fresh temporary folder of its own
// naming, and the output is copied back.
int runNvccOnCopy(const std::string& nvcc, const std::vector<std::string>& flags, const fs::path& source,
                  const fs::path& output, const ProcessOptions& io = {}) {
  std::string pattern = (fs::temp_directory_path() / "polyfuse-nvcc-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) return 127;
  const fs::path dir = pattern;
  std::error_code ec;
  fs::copy_file(source, dir / "kernels.cu", ec);
  int rc = 127;
  if (!ec) {
    std::vector<std::string> argv = {nvcc};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {(dir / "kernels.cu").string(), "-o", (dir / "out").string()});
    rc = runProcess(argv, io);
    if (rc == 0) fs::copy_file(dir / "out", output, fs::copy_options::overwrite_existing, ec);
    if (ec) rc = 127;
  }
  fs::remove_all(dir, ec);
  return rc;
}

// Whether a cached result exists and is no older than the source it came from (codegen
// into the same folder again writes a new kernels.cu beside the old caches).
bool fresh(const fs::path& cache, const fs::path& source) {
  std::error_code ec;
  return fs::exists(cache) && fs::last_write_time(cache, ec) >= fs::last_write_time(source, ec);
}

// The PTX of kernels.cu for `arch`, compiled once and cached beside it; empty when nvcc
// is missing or fails (`note` says which).
fs::path ptxOf(const fs::path& cudaDir, const std::string& arch, std::string& note) {
  const fs::path ptx = cudaDir / ("kernels-" + arch + ".ptx");
  if (fresh(ptx, cudaDir / "kernels.cu")) return ptx;
  const std::string nvcc = nvccPath();
  if (nvcc.empty()) {
    note = "nvcc not found: no register or spill counts";
    return {};
  }
  // cicc takes seconds a point: say what runs (stderr, so the report on stdout stays clean).
  std::cerr << "inspect: nvcc -arch=" << arch << " -ptx on " << (cudaDir / "kernels.cu").string() << "\n";
  const fs::path log = cudaDir / ("nvcc-" + arch + ".log");
  if (runNvccOnCopy(nvcc, {"-arch=" + arch, "-ptx"}, cudaDir / "kernels.cu", ptx.string() + ".part",
                    {"", log.string(), "=stdout"}) != 0) {
    note = "nvcc failed; see " + log.string();
    return {};
  }
  fs::rename(ptx.string() + ".part", ptx);
  return ptx;
}

// ptxas -v for every entry function of kernels.cu, run on its PTX (what nvcc -c would hand
// ptxas, without compiling the host side); cached beside it.
std::map<std::string, PtxasInfo> ptxas(const fs::path& cudaDir, const std::string& arch, std::string& note) {
  std::map<std::string, PtxasInfo> out;
  fs::path cache = cudaDir / ("ptxas-" + arch + ".txt");
  if (!fresh(cache, cudaDir / "kernels.cu")) {
    const fs::path ptx = ptxOf(cudaDir, arch, note);
    if (ptx.empty()) return out;
    const std::string tool = ptxasPath();
    if (tool.empty()) {
      note = "ptxas not found beside nvcc: no register or spill counts";
      return out;
    }
    if (runProcess({tool, "-arch=" + arch, "-v", ptx.string(), "-o", (cudaDir / ("kernels-" + arch + ".cubin")).string()},
                   {"", cache.string() + ".part", "=stdout"}) != 0) {
      note = "ptxas failed; see " + cache.string() + ".part";
      return out;
    }
    fs::rename(cache.string() + ".part", cache);
  }
  std::ifstream in(cache);
  std::string line, current;
  std::regex entry("Compiling entry function '([^']+)'"), frame("(\\d+) bytes stack frame, (\\d+) bytes spill stores, (\\d+) bytes spill loads"),
      used("Used (\\d+) registers(.*)"), smem("(\\d+) bytes smem");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) current = m[1];
    else if (!current.empty() && std::regex_search(line, m, frame)) {
      out[current].stack = std::stol(m[1]);
      out[current].spillStores = std::stol(m[2]);
      out[current].spillLoads = std::stol(m[3]);
    } else if (!current.empty() && std::regex_search(line, m, used)) {
      out[current].registers = std::stoi(m[1]);
      std::string rest = m[2];
      std::smatch s;
      out[current].smem = std::regex_search(rest, s, smem) ? std::stol(s[1]) : 0;
    }
  }
  return out;
}

// Global loads and stores in the PTX of each entry function, and how many of them move
// 128 bits (ld.global.v4.f32, .v2.f64: one LDG.E.128 each); the PTX is cached beside.
struct VectorCounts {
  int loads = 0, wideLoads = 0, stores = 0, wideStores = 0;
  int asyncCopies = 0, wideAsyncCopies = 0;  // cp.async: global loads that land in shared memory by themselves
  int fmas = 0;  // fused multiply-adds (fma.rn): a contraction's arithmetic beside its loads
  int mmas = 0;      // tensor-core products on TF32 (mma.sync m16n8k8: 1,024 multiply-adds a warp, 32 a thread)
  int halfMmas = 0;  // on f16 or bf16 (mma.sync m16n8k16: 2,048 a warp, 64 a thread)
  int sharedLoads = 0, wideSharedLoads = 0;  // ld.shared: what feeds a tiled contraction's registers
  int matrixLoads = 0;                       // ldmatrix .x4: a warp's four 8 x 8 blocks, 128 bits a lane
  // Multiply-adds a thread's shared-memory load feeds: the measure of a contraction's
  // register tiling (a thread's instructions against a thread's instructions).
  double madsPerSharedLoad() const {
    return double(fmas + 32.0 * mmas + 64.0 * halfMmas) / std::max(1, sharedLoads + matrixLoads);
  }
};
std::map<std::string, VectorCounts> ptxVectors(const fs::path& cudaDir, const std::string& arch) {
  std::map<std::string, VectorCounts> out;
  std::string ignored;  // ptxas, run first, has said why when there is no PTX
  const fs::path ptx = ptxOf(cudaDir, arch, ignored);
  if (ptx.empty()) return out;
  std::ifstream in(ptx);
  std::string line, current;
  std::regex entry("\\.entry\\s+([A-Za-z0-9_]+)"), wide("\\.v4\\.(f32|b32|u32)|\\.v2\\.(f64|b64|u64)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) current = m[1];
    if (current.empty()) continue;
    if (line.find("fma.rn.") != std::string::npos) out[current].fmas++;
    if (line.find("mma.sync.aligned.m16n8k8") != std::string::npos) out[current].mmas++;
    if (line.find("mma.sync.aligned.m16n8k16") != std::string::npos) out[current].halfMmas++;
    if (line.find("ldmatrix.sync") != std::string::npos) out[current].matrixLoads++;
    if (line.find("ld.shared") != std::string::npos) {
      out[current].sharedLoads++;
      out[current].wideSharedLoads += std::regex_search(line, wide);
    }
    // (16 bytes go by .cg, the smaller copies by .ca: the helper's two forms)
    if (line.find("cp.async.ca.shared.global") != std::string::npos) out[current].asyncCopies++;
    if (line.find("cp.async.cg.shared.global") != std::string::npos) out[current].asyncCopies++, out[current].wideAsyncCopies++;
    const bool load = line.find("ld.global") != std::string::npos, store = line.find("st.global") != std::string::npos;
    if (!load && !store) continue;
    const bool v = std::regex_search(line, wide);
    VectorCounts& c = out[current];
    if (load) c.loads++, c.wideLoads += v;
    else c.stores++, c.wideStores += v;
  }
  return out;
}

void inspectPoint(std::ostream& os, const fs::path& dir, const std::string& arch) {
  fs::path planPath = dir / "plan.json";
  if (!fs::exists(planPath)) return;
  json plan = json::parse(std::ifstream(planPath));
  std::map<std::string, json> stmts;
  for (auto& s : plan["statements"]) stmts[s["id"]] = s;
  os << "== " << dir.filename().string() << ": " << plan["program"].get<std::string>() << ", "
     << plan["strategy"].get<std::string>() << ", " << plan["num_kernels"].get<int>() << " kernel(s), modeled "
     << fmt::format("{:.3f}", plan["modeled_us"].get<double>()) << " us\n";
  std::string note;
  std::map<std::string, PtxasInfo> info;
  // An experiment point keeps its CUDA in cuda/; a `codegen --target cuda` folder is the
  // CUDA folder itself.
  const fs::path cudaDir = fs::exists(dir / "cuda" / "kernels.cu") ? dir / "cuda" : dir;
  const bool hasCuda = fs::exists(cudaDir / "kernels.cu");
  std::map<std::string, VectorCounts> vectors;
  if (hasCuda) {
    info = ptxas(cudaDir, arch, note);
    if (!info.empty()) vectors = ptxVectors(cudaDir, arch);
  } else {
    note = "no CUDA emitted for this point (add cuda to emit)";
  }
  // What the code generator named and counted: the plan written beside the CUDA sources.
  json emitted;
  if (hasCuda && fs::exists(cudaDir / "plan.json")) emitted = json::parse(std::ifstream(cudaDir / "plan.json"));
  std::map<std::string, int64_t> dynamicSmem;  // per kernel: the shared memory its launch asks for
  if (plan.contains("launches"))
    for (auto& l : plan["launches"])
      if (l["kind"] == "kernel") dynamicSmem[l["kernel"]] = l["shared_bytes"].get<int64_t>();
  for (size_t ki = 0; ki < plan["kernels"].size(); ++ki) {
    const json& k = plan["kernels"][ki];
    const json* code = emitted.is_null() ? nullptr : &emitted["kernels"][ki];
    std::string id = k["id"];
    std::string name = code && code->contains("function") ? code->at("function").get<std::string>()
                                                           : plan["program"].get<std::string>() + "_k" + id.substr(1);
    os << fmt::format("  {} {}  grid {} tile {}  {} blocks x {} threads  dram {} B  on-chip {} B/block\n", id, name,
                      k["grid"].get<std::string>(), k["tile"].dump(), k["blocks"].get<long>(),
                      k["threads_per_block"].get<int>(), k["dram_bytes"].get<long>(), k["onchip_bytes_per_block"].get<long>());
    for (auto& [mangled, pi] : info) {
      // The kernel's own entry, not its split reduction's combine.
      if (mangled.find(name) == std::string::npos || mangled.find(name + "_combine") != std::string::npos) continue;
      os << fmt::format("     ptxas ({}): {} registers, {} B smem (static), {} B spill stores, {} B spill loads, {} B stack\n",
                        arch, pi.registers, pi.smem, pi.spillStores, pi.spillLoads, pi.stack);
      const int64_t smem = pi.smem + dynamicSmem[id];
      Occupancy o = cudaOccupancy(arch, k["threads_per_block"].get<int>(), pi.registers, smem);
      os << fmt::format("     occupancy: compiled {} block(s)/SM x {} warps = {:.0f}% of {} warps (limited by {}; {} B "
                        "shared memory per block); modeled {:.0f}%, grid fill {:.2f}\n",
                        o.blocksPerSM, o.warpsPerSM / std::max(1, o.blocksPerSM), 100 * o.fraction, o.maxWarpsPerSM,
                        o.limiter, smem, 100 * k["occupancy"].get<double>(), k.value("grid_fill", 1.0));
    }
    if (k.contains("vector_width") && !k["vector_width"].empty()) {
      std::string widths;
      for (size_t m = 0; m < k["statements"].size() && m < k["vector_width"].size(); ++m)
        widths += fmt::format("{}{} {}", widths.empty() ? "" : ", ", k["statements"][m].get<std::string>(),
                              k["vector_width"][m].get<int>());
      os << "     vector width (elements a thread takes a step): " << widths << "\n";
    }
    for (auto& [entryName, c] : vectors) {
      if (entryName.find(name) == std::string::npos || entryName.find(name + "_combine") != std::string::npos) continue;
      os << fmt::format("     global memory in PTX: {} loads, {} of them 128-bit; {} stores, {} of them 128-bit", c.loads,
                        c.wideLoads, c.stores, c.wideStores)
         << (c.asyncCopies ? fmt::format("; {} cp.async copies to shared memory, {} of them 128-bit", c.asyncCopies, c.wideAsyncCopies)
                           : std::string())
         << "\n";
      // A contraction's (a serial reduction's) arithmetic against its loads.
      bool contraction = false;
      for (auto& m : k.value("modes", json::array())) contraction |= m == "serial-reduce";
      if (contraction)
        os << fmt::format("     arithmetic in PTX: {} FMAs, {:.1f} per global load", c.fmas, double(c.fmas) / std::max(1, c.loads))
           << (c.mmas ? fmt::format("; {} mma.sync m16n8k8 (32 multiply-adds a thread each)", c.mmas) : std::string())
           << (c.halfMmas ? fmt::format("; {} mma.sync m16n8k16 (64 multiply-adds a thread each)", c.halfMmas) : std::string())
           << fmt::format("; {:.1f} multiply-adds per shared-memory load ({} loads, {} of them 128-bit{})\n",
                          c.madsPerSharedLoad(), c.sharedLoads + c.matrixLoads, c.wideSharedLoads + c.matrixLoads,
                          c.matrixLoads ? fmt::format(", {} ldmatrix.x4", c.matrixLoads) : std::string());
    }
    if (k.contains("cached_inputs") && !k["cached_inputs"].empty()) {
      std::string names;
      for (auto& n : k["cached_inputs"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
      os << "     cached on chip after their first pass: " << names << "\n";
    }
    if (k.contains("input_passes") && !k["input_passes"].empty()) {
      std::string passes;
      for (auto& [t, n] : k["input_passes"].items()) passes += fmt::format("{}{} {}", passes.empty() ? "" : ", ", t, n.get<int>());
      os << "     passes over global inputs: " << passes << "\n";
    }
    if (k.contains("row_mapping")) {
      os << "     rows: " << k["row_mapping"].get<std::string>();
      if (k.value("register_steps", int64_t(0)) > 0)
        os << ", each thread's part in registers (" << k["register_steps"].get<int64_t>() << (k["register_steps"].get<int64_t>() == 1 ? " unrolled step)" : " unrolled steps)");
      os << "\n";
    }
    if (k.contains("in_registers") && !k["in_registers"].empty()) {
      std::string names;
      for (auto& n : k["in_registers"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
      os << "     in registers (no thread reads another's): " << names << "\n";
    }
    for (const json& c : k.value("contraction_tiles", json::array())) {
      const int micro = c["micro_tile"].get<int>(), stages = c.value("stages", 1);
      const std::string staging =
          fmt::format("staged in shared memory {} steps at a time{}: {}", c["k_step"].get<int>(),
                      stages > 1 ? fmt::format(", {} buffers (copies run {} step{} ahead)", stages, stages - 1, stages > 2 ? "s" : "")
                                 : std::string(),
                      c["staged"].dump());
      if (c.value("engine", "fma") == "fma")
        os << fmt::format("     tiled contraction {}: {}x{} outputs a thread, {}\n", c["statement"].get<std::string>(), micro,
                          micro, staging);
      else {
        const std::string engine = c["engine"].get<std::string>();
        const std::string instruction = engine == "mma-tf32" ? "m16n8k8, TF32" : engine == "mma-f16" ? "m16n8k16, f16" : "m16n8k16, bf16";
        os << fmt::format("     tiled contraction {} on tensor cores (mma.sync {} operands, f32 accumulators): "
                          "warp tiles {}x{}, {} outputs a thread, {}\n",
                          c["statement"].get<std::string>(), instruction, c["warp_tile"][0].get<int>(),
                          c["warp_tile"][1].get<int>(), micro * micro, staging);
      }
      std::string epilogue;
      for (auto& e : c.value("epilogue", json::array())) epilogue += (epilogue.empty() ? "" : ", ") + e.get<std::string>();
      if (!epilogue.empty()) os << "     its epilogue, applied to the accumulators in registers: " << epilogue << "\n";
    }
    if (code && code->contains("barriers_per_block"))
      os << "     barriers per block: " << code->at("barriers_per_block").get<int64_t>()
         << (code->value("warp_barriers", int64_t(0)) > 0
                 ? fmt::format(" (and {} warp barriers)", code->at("warp_barriers").get<int64_t>())
                 : std::string())
         << "\n";
    for (auto& s : k["statements"]) {
      const json& st = stmts[s];
      os << "     " << s.get<std::string>() << " (line " << st["line"].get<int>() << "): " << st["text"].get<std::string>() << "\n";
    }
    if (!k["scratch"].empty()) os << "     global scratch: " << k["scratch"].dump() << "\n";
  }
  if (!note.empty()) os << "  (" << note << ")\n";
  if (plan.contains("decisions")) {
    os << "  decisions:\n";
    for (auto& d : plan["decisions"])
      os << fmt::format("    {:<10} {} -> {} via {}: {}: {}\n", d["kind"].get<std::string>(), d["a"].get<std::string>(),
                        d["b"].get<std::string>(), d["tensors"].get<std::string>(), d["verdict"].get<std::string>(),
                        d["reason"].get<std::string>());
  }
}

}  // namespace

int inspect(std::ostream& os, const std::string& dir, const std::string& point, const std::string& arch) {
  fs::path root(dir);
  if (!fs::is_directory(root)) throw UsageError("cannot read '" + dir + "': not a directory");
  std::vector<fs::path> points;
  if (fs::exists(root / "plan.json")) points.push_back(root);
  else if (fs::is_directory(root / "points"))
    for (auto& e : fs::directory_iterator(root / "points"))
      if (e.is_directory() && e.path().extension() != ".tmp") points.push_back(e.path());
  std::sort(points.begin(), points.end());
  if (!point.empty()) {
    points.erase(std::remove_if(points.begin(), points.end(), [&](const fs::path& p) { return p.filename() != point; }),
                 points.end());
    if (points.empty()) throw UsageError("no point '" + point + "' in " + dir);
  }
  if (points.empty()) throw UsageError(dir + " holds no experiment points (expected points/*/plan.json)");
  for (auto& p : points) inspectPoint(os, p, arch);
  return 0;
}

}  // namespace polyfuse

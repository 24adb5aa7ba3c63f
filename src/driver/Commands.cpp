#include "driver/Commands.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "codegen/Emit.h"
#include "codegen/OpenCLRunner.h"
#include "fusion/PlanOutput.h"
#include "polyir/Frontend.h"
#include "polyir/Interpreter.h"
#include "polyir/Npy.h"
#include "polyir/Printer.h"

namespace polyfuse {

int guarded(const std::string& file, const std::string* source, const std::function<int()>& body) {
  try {
    return body();
  } catch (const SourceError& e) {
    std::cerr << "polyfuse: error: " << formatSourceError(file, source ? *source : "", e) << "\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "polyfuse: error: " << e.what() << "\n";
    return 2;
  } catch (const isl::exception& e) {
    std::cerr << "polyfuse: internal error: isl: " << e.what() << "\n";
    return 1;
  } catch (const InternalError& e) {
    std::cerr << "polyfuse: internal error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "polyfuse: error: out of memory (are the sizes too large?)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "polyfuse: error: " << e.what() << "\n";
    return 1;
  }
}

namespace {

struct Common {
  std::string file, entry, sizes;
};

void addCommon(CLI::App* cmd, Common& c, bool sizesRequired) {
  cmd->add_option("file", c.file, "TC source file")->required();
  cmd->add_option("--entry", c.entry, "definition to use (default: the first)");
  auto* s = cmd->add_option("--size", c.sizes, "sizes, e.g. N=4096,M=4096");
  if (sizesRequired) s->required();
}

// Loads the program with located errors; `then` receives it.
int withProgram(const Common& c, const std::function<int(LoadedProgram&)>& then) {
  std::unique_ptr<SourceFile> src;
  int rc = guarded(c.file, nullptr, [&] {
    src = std::make_unique<SourceFile>(readSource(c.file));
    return 0;
  });
  if (rc) return rc;
  return guarded(c.file, &src->text, [&] {
    LoadedProgram lp = loadProgram(*src, c.entry, std::make_shared<IslContext>());
    return then(lp);
  });
}

std::pair<int, int> parsePair(const std::string& text, int n, const std::string& flag) {
  auto id = [&](const std::string& t) {
    std::string x = t;
    if (!x.empty() && (x[0] == 'S' || x[0] == 's')) x = x.substr(1);
    if (x.empty() || x.size() > 6 || x.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(flag + " '" + text + "': expected two statement ids like S0,S1");
    int v = std::stoi(x);
    if (v >= n) throw UsageError(flag + " '" + text + "': the program has statements S0..S" + std::to_string(n - 1));
    return v;
  };
  size_t c = text.find(',');
  if (c == std::string::npos) throw UsageError(flag + " '" + text + "': expected two statement ids like S0,S1");
  int a = id(text.substr(0, c)), b = id(text.substr(c + 1));
  if (a == b) throw UsageError(flag + " '" + text + "': the two statements must differ");
  return {std::min(a, b), std::max(a, b)};
}

}  // namespace

// Writes the generated sources of a partition into `dir`; returns the paths.
std::vector<std::string> writeCode(const CostModel& cm, const Partition& p, const std::string& target,
                                   const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> files;
  auto write = [&](const std::string& name, const std::string& text) {
    std::string path = dir + "/" + name;
    std::ofstream out(path);
    if (!out) throw UsageError("cannot write '" + path + "'");
    out << text;
    files.push_back(path);
  };
  GeneratedCode code = generate(cm, p, target == "cuda" ? Dialect::Cuda : Dialect::OpenCL);
  if (target == "cuda") {
    write("kernels.cu", code.kernelSource);
    write("reference.h", emitReference(cm));
    write("harness.cu", emitCudaHarness(cm, p, code));
  } else {
    write("kernels.cl", code.kernelSource);
  }
  write("plan.json", partitionJson(cm, p).dump(2) + "\n");
  return files;
}

struct FusionCli {
  std::string strategy = "ilp", device = "h100";
  std::vector<std::string> neverFuse, fuse;
  int maxKernels = 0;
  double timeLimit = 60;

  void add(CLI::App* cmd) {
    cmd->add_option("--strategy", strategy, "nofuse | greedy | bytes-greedy | maxfuse | typed | ilp | exhaustive");
    cmd->add_option("--device", device, "a100 | h100 | h200 | FILE.yaml");
    cmd->add_option("--never-fuse", neverFuse, "S1,S3: never put these two statements in one kernel");
    cmd->add_option("--fuse", fuse, "S0,S1: put these two statements in one kernel");
    cmd->add_option("--max-kernels", maxKernels, "at most this many kernels");
    cmd->add_option("--time-limit", timeLimit, "solver time limit in seconds (best solution found is kept)");
  }
  SearchOptions options(int n) const {
    SearchOptions o;
    o.strategy = strategy;
    for (auto& t : neverFuse) o.neverFuse.push_back(parsePair(t, n, "--never-fuse"));
    for (auto& t : fuse) o.mustFuse.push_back(parsePair(t, n, "--fuse"));
    if (maxKernels < 0) throw UsageError("--max-kernels must be positive");
    o.maxKernels = maxKernels;
    if (!(timeLimit > 0)) throw UsageError("--time-limit must be positive");
    o.timeLimitSeconds = timeLimit;
    return o;
  }
};

// Runs the generated code of the chosen partition and verifies it against the reference.
int execGenerated(LoadedProgram& lp, const std::string& backend, const FusionCli& fusion, int repeat, bool json,
                  const Sizes& sizes, const Bindings& b, uint64_t seed) {
  const Program& prog = *lp.program;
  FusionGraph fg(*lp.poly);
  CostModel cm(fg, sizes, loadDevice(fusion.device));
  Partition p = search(cm, fusion.options(fg.size()));
  const double tolerance = realType(prog) == "float" ? 1e-4 : 1e-10;
  nlohmann::ordered_json j;
  j["program"] = prog.name;
  j["backend"] = backend;
  j["strategy"] = p.strategy;
  j["sizes"] = sizes;
  j["seed"] = seed;
  if (backend == "opencl") {
    GeneratedCode code = generate(cm, p, Dialect::OpenCL);
    RunResult r = runOpenCL(cm, code, b, repeat, tolerance);
    j["device"] = r.device;
    j["verified"] = r.verified;
    j["max_rel_error"] = r.maxRelError;
    j["kernels"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < code.kernels.size(); ++i)
      j["kernels"].push_back({{"id", "K" + std::to_string(code.kernels[i].id)}, {"name", code.kernels[i].name},
                              {"ms", r.kernelMs[i]}});
    j["total_ms"] = r.totalMs;
    if (json) {
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << fmt::format("program {}  backend opencl ({})  strategy {}  {} kernel(s)\n", prog.name, r.device,
                               p.strategy, code.kernels.size());
      for (size_t i = 0; i < code.kernels.size(); ++i)
        std::cout << fmt::format("  {:<28} {:10.4f} ms\n", code.kernels[i].name, r.kernelMs[i]);
      std::cout << fmt::format("  {:<28} {:10.4f} ms\n", "total (wall)", r.totalMs);
      std::cout << fmt::format("verified: {} (max_rel_error {:.3g}{}{})\n", r.verified ? "yes" : "NO", r.maxRelError,
                               r.worst.empty() ? "" : " in ", r.worst);
    }
    return r.verified ? 0 : 1;
  }
  // CUDA: compile the harness with nvcc and run it on the GPU.
  if (std::system("nvidia-smi -L > /dev/null 2>&1") != 0)
    throw std::runtime_error("no CUDA GPU on this machine: the cuda backend needs one "
                             "(polyfuse codegen --target cuda writes harness.cu to run elsewhere)");
  std::string dir = (std::filesystem::temp_directory_path() / ("polyfuse-cuda-" + std::to_string(::getpid()))).string();
  writeCode(cm, p, "cuda", dir);
  std::string nvcc = std::filesystem::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "nvcc";
  if (std::system((nvcc + " -O3 -arch=native -o " + dir + "/harness " + dir + "/harness.cu > " + dir + "/nvcc.log 2>&1").c_str()) != 0)
    throw InternalError("nvcc failed on the generated code; see " + dir + "/nvcc.log");
  int rc = std::system((dir + "/harness " + std::to_string(seed) + " " + std::to_string(std::max(1, repeat)) + " > " + dir + "/run.log 2>&1").c_str());
  std::ifstream log(dir + "/run.log");
  std::string line, text;
  while (std::getline(log, line)) {
    if (line.rfind("JSON ", 0) == 0 && json) {
      auto r = nlohmann::ordered_json::parse(line.substr(5));
      for (auto& [k, v] : r.items()) j[k] = v;
    } else if (!json) {
      text += line + "\n";
    }
  }
  if (json) std::cout << j.dump(2) << "\n";
  else std::cout << text;
  return rc == 0 ? 0 : 1;
}

void registerCommands(CLI::App& app, CommandRegistry& reg) {
  // check
  {
    auto c = std::make_shared<Common>();
    auto* cmd = app.add_subcommand("check", "Show statements, domains, accesses and dependences");
    addCommon(cmd, *c, false);
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          if (c->sizes.empty()) {
            printCheck(std::cout, *lp.poly, nullptr);
          } else {
            Sizes s = parseSizes(c->sizes);
            lp.program->checkSizes(s);
            printCheck(std::cout, *lp.poly, &s);
          }
          return 0;
        });
      };
    });
  }
  // fuse
  {
    struct FuseOpts : Common {
      FusionCli fusion;
      bool json = false, explainFlag = false, timing = false;
      std::string dot;
    };
    auto c = std::make_shared<FuseOpts>();
    auto* cmd = app.add_subcommand("fuse", "Choose a fusion partition and show its modeled cost");
    addCommon(cmd, *c, true);
    c->fusion.add(cmd);
    cmd->add_flag("--json", c->json, "print the plan as one JSON object");
    cmd->add_flag("--explain", c->explainFlag, "say why each dependence edge and sibling pair is fused or not");
    cmd->add_option("--dot", c->dot, "write the graph with kernels as clusters to this file");
    cmd->add_flag("--timing", c->timing, "show solver seconds in the table (JSON always has them)");
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          Sizes sizes = parseSizes(c->sizes);
          Device dev = loadDevice(c->fusion.device);
          FusionGraph fg(*lp.poly);
          CostModel cm(fg, sizes, dev);
          SearchOptions opt = c->fusion.options(fg.size());
          Partition p = search(cm, opt);
          std::vector<Decision> ds;
          if (c->explainFlag) ds = explain(cm, p, opt);
          if (!c->dot.empty()) {
            std::ofstream out(c->dot);
            if (!out) throw UsageError("cannot write '" + c->dot + "'");
            writeDot(out, cm, p);
          }
          if (c->json) {
            nlohmann::ordered_json j = partitionJson(cm, p);
            if (c->explainFlag) j["decisions"] = decisionsJson(*lp.program, ds);
            std::cout << j.dump(2) << "\n";
          } else {
            printPartitionTable(std::cout, cm, p, c->timing);
            if (c->explainFlag) printDecisions(std::cout, *lp.program, ds);
          }
          return 0;
        });
      };
    });
  }
  // codegen
  {
    struct CodegenOpts : Common {
      FusionCli fusion;
      std::string target = "cuda", out;
    };
    auto c = std::make_shared<CodegenOpts>();
    auto* cmd = app.add_subcommand("codegen", "Write CUDA or OpenCL kernels, host harness and reference");
    addCommon(cmd, *c, true);
    c->fusion.add(cmd);
    cmd->add_option("--target", c->target, "cuda | opencl")->check(CLI::IsMember({"cuda", "opencl"}));
    cmd->add_option("-o,--output", c->out, "output directory")->required();
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          Sizes sizes = parseSizes(c->sizes);
          FusionGraph fg(*lp.poly);
          CostModel cm(fg, sizes, loadDevice(c->fusion.device));
          Partition p = search(cm, c->fusion.options(fg.size()));
          std::vector<std::string> files = writeCode(cm, p, c->target, c->out);
          for (auto& f : files) std::cout << f << "\n";
          return 0;
        });
      };
    });
  }
  // exec
  {
    struct ExecOpts : Common {
      std::string backend = "ref", dump;
      uint64_t seed = 1;
      std::vector<std::string> inputs, scalars;
      bool json = false;
      FusionCli fusion;
      int repeat = 3;
    };
    auto c = std::make_shared<ExecOpts>();
    auto* cmd = app.add_subcommand("exec", "Run the program and verify it against the reference interpreter");
    addCommon(cmd, *c, true);
    cmd->add_option("--backend", c->backend, "ref | opencl | cuda")->check(CLI::IsMember({"ref", "opencl", "cuda"}));
    cmd->add_option("--seed", c->seed, "seed of the random inputs (uniform in [-1, 1])");
    cmd->add_option("--input", c->inputs, "NAME=FILE.npy: read an input from a .npy file");
    cmd->add_option("--scalar", c->scalars, "NAME=VALUE: a scalar parameter (default: random in [0.5, 1.5])");
    cmd->add_option("--dump", c->dump, "write every output to DIR/NAME.npy");
    cmd->add_flag("--json", c->json, "print a JSON object");
    c->fusion.add(cmd);
    cmd->add_option("--repeat", c->repeat, "timed runs (the median is reported)");
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          const Program& prog = *lp.program;
          Sizes sizes = parseSizes(c->sizes);
          std::map<std::string, double> scalars;
          for (auto& kv : c->scalars) {
            size_t eq = kv.find('=');
            if (eq == std::string::npos) throw UsageError("bad --scalar '" + kv + "': expected NAME=VALUE");
            try {
              scalars[kv.substr(0, eq)] = std::stod(kv.substr(eq + 1));
            } catch (const std::exception&) {
              throw UsageError("bad --scalar '" + kv + "': the value is not a number");
            }
          }
          Bindings b = makeInputs(prog, sizes, c->seed, scalars);
          for (auto& kv : c->inputs) {
            size_t eq = kv.find('=');
            if (eq == std::string::npos) throw UsageError("bad --input '" + kv + "': expected NAME=FILE.npy");
            std::string name = kv.substr(0, eq);
            int t = prog.findTensor(name);
            if (t < 0 || prog.tensors[t].role != TensorRole::Input) throw UsageError("--input: '" + name + "' is not an input");
            TensorData d = readNpy(kv.substr(eq + 1));
            if (d.shape != b.tensors[name].shape) throw UsageError("--input: '" + kv.substr(eq + 1) + "' has the wrong shape for '" + name + "'");
            b.tensors[name] = std::move(d);
          }
          if (c->backend != "ref") return execGenerated(lp, c->backend, c->fusion, c->repeat, c->json, sizes, b, c->seed);
          interpret(prog, b);
          if (!c->dump.empty()) {
            std::filesystem::create_directories(c->dump);
            for (int t : prog.tensorsWithRole(TensorRole::Output))
              writeNpy(c->dump + "/" + prog.tensors[t].name + ".npy", b.tensors[prog.tensors[t].name]);
          }
          nlohmann::ordered_json j;
          j["program"] = prog.name;
          j["backend"] = c->backend;
          j["sizes"] = sizes;
          j["seed"] = c->seed;
          j["verified"] = true;  // the reference is the oracle itself
          j["max_rel_error"] = 0.0;
          for (int t : prog.tensorsWithRole(TensorRole::Output)) {
            const std::string& n = prog.tensors[t].name;
            Checksum cs = checksum(b.tensors[n]);
            j["outputs"][n] = {{"shape", b.tensors[n].shape}, {"sum", cs.sum}, {"abs_sum", cs.absSum}};
            if (!c->json) {
              std::cout << n << ": shape (";
              for (size_t i = 0; i < b.tensors[n].shape.size(); ++i) std::cout << (i ? ", " : "") << b.tensors[n].shape[i];
              char buf[96];
              std::snprintf(buf, sizeof buf, ") sum=%.9g abs_sum=%.9g", cs.sum, cs.absSum);
              std::cout << buf << "\n";
            }
          }
          if (c->json) std::cout << j.dump(2) << "\n";
          return 0;
        });
      };
    });
  }
}

}  // namespace polyfuse

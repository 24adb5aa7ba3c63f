#include "driver/Commands.h"

#include <cctype>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "runtime/Calibrate.h"
#include "driver/Execute.h"
#include "driver/FileIO.h"
#include "driver/Experiment.h"
#include "driver/Inspect.h"
#include "driver/Validate.h"
#include "fusion/Occupancy.h"
#include "fusion/PlanInput.h"
#include "fusion/PlanOutput.h"
#include "mlir/LoadProgram.h"
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
  bool keepCopies = false;
};

// A JSON file (a plan), with a parse error located at its line and column.
nlohmann::json readJsonFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot open the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const size_t lineStart = text.rfind('\n', at == 0 ? 0 : at - 1);
    const int line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
    const size_t col = at - (lineStart == std::string::npos || at == 0 ? 0 : lineStart + 1) + 1;
    std::string msg = e.what();
    if (const size_t p = msg.find("syntax error"); p != std::string::npos) msg = msg.substr(p);
    throw UsageError(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": not JSON: " + msg);
  } catch (const nlohmann::json::exception& e) {  // a number past a double's range, unlocated by the library
    throw UsageError(path + ": not JSON polyfuse can read: " + e.what());
  }
}

// --size is checked against the program once it is loaded ("missing size 'N'"): a
// program whose shapes are all static (an MLIR function, say) takes none.
void addCommon(CLI::App* cmd, Common& c) {
  cmd->add_option("file", c.file, "program: FILE.tc, or FILE.mlir (linalg on tensors)")->required();
  cmd->add_option("--entry", c.entry, "TC definition or MLIR function to use (default: the first)");
  cmd->add_option("--size", c.sizes, "sizes, e.g. N=4096,M=4096 (each size the program has)");
  cmd->add_flag("--keep-copies", c.keepCopies,
                "keep each copy (a permutation, broadcast, slice or gather of another tensor) a statement of its own, instead of "
                "reading it through at its readers (docs/design.md)");
}

// A note's kind: its words, with quoted names and numbers left out.
static std::string noteKind(const std::string& note) {
  std::string kind;
  bool quoted = false;
  for (char ch : note) {
    if (ch == '\'') quoted = !quoted;
    else if (!quoted && !std::isdigit(static_cast<unsigned char>(ch))) kind += ch;
  }
  return kind;
}

// The front end's notes, each kind's first two in full and the rest counted: a model's
// two hundred weights, each "a constant becomes an input", would bury the other notes.
static void printNotes(const std::string& file, const std::vector<std::string>& notes) {
  constexpr int kShown = 2;
  std::map<std::string, int> total, seen;
  for (auto& n : notes) ++total[noteKind(n)];
  for (auto& n : notes) {
    const std::string kind = noteKind(n);
    const int k = ++seen[kind], all = total[kind];
    if (all <= kShown + 1 || k <= kShown) std::cerr << file << ": note: " << n << "\n";
    else if (k == kShown + 1)
      std::cerr << file << ": note: ... and " << all - kShown << " more notes like the one before\n";
  }
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
    LoadedProgram lp = loadProgramFile(*src, c.entry, std::make_shared<IslContext>(), {!c.keepCopies});
    printNotes(c.file, lp.notes);
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

// --numerics, as fuse, exec, codegen and validate take it.
void addNumericsOption(CLI::App* cmd, std::string& numerics) {
  cmd->add_option("--numerics", numerics,
                  "default | strict | tf32: strict rounds as the reference does (serial reductions in loop order, no FMA, no "
                  "reassociation), so every plan computes the same bits; tf32 lets tiled f32 contractions run on tensor "
                  "cores with operands rounded to TF32 (docs/codegen.md)")
      ->check(CLI::IsMember(namesOf(kNumericsNames)));
}

struct FusionCli {
  std::string strategy = "ilp", device = "h100";
  std::vector<std::string> neverFuse, fuse;
  int maxKernels = 0;
  double timeLimit = 60;
  int top = 1;  // fuse --top K
  bool noRecompute = false;
  bool noStream = false;
  bool noColumnTiles = false;
  int stages = CostModel::kDefaultContractionStages;
  bool noStreamSplit = false;
  bool noSplitK = false;
  bool wideFmaTiles = false;
  std::string numerics = "default";

  // `severalStrategies`: --strategy takes a comma-separated list (exec runs each plan).
  void add(CLI::App* cmd, bool severalStrategies = false) {
    cmd->add_option("--strategy", strategy,
                    namesIn(kStrategyNames, " | ") +
                        (severalStrategies ? std::string("; several, comma-separated (nofuse,ilp), run and verified in turn") : ""));
    cmd->add_option("--device", device, "a100 | h100 | h200 | FILE.yaml");
    cmd->add_option("--never-fuse", neverFuse, "S1,S3: never put these two statements in one kernel");
    cmd->add_option("--fuse", fuse, "S0,S1: put these two statements in one kernel");
    cmd->add_option("--max-kernels", maxKernels, "at most this many kernels (0: no limit; a given value must be at least 1)")
        ->check(CLI::Range(1, 1 << 30));
    cmd->add_option("--time-limit", timeLimit, "seconds for the search after import, --explain included (the best plan found is kept)");
    cmd->add_flag("--no-recompute", noRecompute,
                  "ilp, exhaustive: compute every statement once (never recompute an elementwise producer in its consumers' kernels)");
    cmd->add_flag("--no-stream", noStream,
                  "keep every reduction pass: no sum streams beside the maximum it is shifted by (docs/streaming.md)");
    cmd->add_flag("--no-column-tiles", noColumnTiles,
                  "no reduction runs down a tile of columns, its threads along the kept dimension (docs/cost-model.md)");
    cmd->add_flag("--no-stream-split", noStreamSplit,
                  "no streamed tile splits its maximum's reduction across blocks and combines the chunks (docs/streaming.md)");
    cmd->add_flag("--no-split-k", noSplitK,
                  "no tiled contraction splits its reduction across blocks and combines the chunks (split-K, docs/cost-model.md)");
    cmd->add_option("--stages", stages,
                    "at most this many buffers of a tiled contraction's staged slices, whose copies (cp.async) run ahead of the "
                    "step computing (1: stage a step, then compute it; default 2; docs/codegen.md)")
        ->check(CLI::Range(1, CostModel::kMaxContractionStages));
    cmd->add_flag("--wide-fma-tiles", wideFmaTiles,
                  "tiled contractions on the FMA units may take 8 x 8 micro-tiles a thread, not only 4 x 4 (off until "
                  "measured on a GPU; docs/codegen.md)");
    addNumericsOption(cmd, numerics);
  }
  // The cost model's own settings, before it plans anything.
  void configure(CostModel& cm) const {
    cm.setStreams(!noStream);
    cm.setColumnTiles(!noColumnTiles);
    cm.setStreamSplits(!noStreamSplit);
    cm.setSplitK(!noSplitK);
    cm.setMaxStages(stages);
    cm.setWideFmaTiles(wideFmaTiles);
    cm.setNumerics(*parseIn(kNumericsNames, numerics));
  }
  SearchOptions options(int n) const {
    SearchOptions o;
    o.strategy = parseStrategy(strategy);
    for (auto& t : neverFuse) o.neverFuse.push_back(parsePair(t, n, "--never-fuse"));
    for (auto& t : fuse) o.mustFuse.push_back(parsePair(t, n, "--fuse"));
    if (maxKernels < 0) throw UsageError("--max-kernels must be positive");
    o.maxKernels = maxKernels;
    if (!(timeLimit > 0)) throw UsageError("--time-limit must be positive");
    o.timeLimitSeconds = timeLimit;
    o.topK = top;
    o.recompute = !noRecompute;
    return o;
  }
};

// A plan read from a file (codegen and exec --plan; fusion/PlanInput.h): what it was made
// for, and the device model, its own unless --device names the file of one.
struct PlanFile {
  std::string path;
  nlohmann::json plan;
  PlanHeader header;
  Device device;
  // A cost model set as the plan was made: its numerics, streams where it streams.
  void configure(CostModel& cm) const {
    cm.setStreams(header.streams);
    cm.setMaxStages(header.maxStages);
    cm.setWideFmaTiles(header.wideFmaTiles);
    cm.setNumerics(header.numerics);
  }
  Partition read(const CostModel& cm) const { return readPlan(cm, plan, header, path); }
};

PlanFile openPlanFile(const Program& prog, const std::string& path, const std::string& device, bool deviceGiven) {
  PlanFile f{path, readJsonFile(path), {}, {}};
  f.header = readPlanHeader(prog, f.plan, path);
  if (!deviceGiven && !isDevicePreset(f.header.device))
    throw UsageError(path + ": made for device '" + f.header.device + "': give its file with --device FILE.yaml");
  f.device = loadDevice(deviceGiven ? device : f.header.device);
  if (f.device.name != f.header.device)
    throw UsageError(path + ": made for device '" + f.header.device + "', not '" + f.device.name + "'");
  return f;
}

// With --plan, the plan decides what the search options (and `also`) would: the first
// one given, said when the command runs (a callback of the parser must not throw).
std::string givenBesidePlan(CLI::App* cmd, const char* also) {
  for (const char* o : {"--strategy", "--fuse", "--never-fuse", "--max-kernels", "--time-limit", "--no-recompute",
                        "--no-stream", "--no-column-tiles", "--no-stream-split", "--stages", "--wide-fma-tiles", "--numerics", also})
    if (cmd->get_option(o)->count() > 0) return o;
  return "";
}
void refuseBesidePlan(const std::string& option) {
  if (!option.empty()) throw UsageError("--plan gives the kernels, sizes and numerics; " + option + " does not apply to it");
}

// Runs the generated code of the chosen partition and verifies it against the reference.
// With `planSizes`, the plan is chosen at those sizes and run, as it is, at `sizes`
// (a plan for a large size verified at a small one); clamps are reported.
// With `planFile`, its plan is run, as it is, at `sizes` (`planSizes` are its own).
// Returns the run as `exec --json` prints it; prints the text form unless `json`.
nlohmann::ordered_json execGenerated(LoadedProgram& lp, Backend backend, const FusionCli& fusion, int repeat, bool json,
                                     const Sizes& sizes, const Sizes* planSizes, const Bindings& b, uint64_t seed,
                                     const std::string& dump, const PlanFile* planFile = nullptr) {
  const Program& prog = *lp.program;
  FusionGraph fg(*lp.poly);
  const Device dev = planFile ? planFile->device : loadDevice(fusion.device);
  CostModel cm(fg, sizes, dev);
  if (planFile) planFile->configure(cm);
  else fusion.configure(cm);
  std::vector<std::string> clamps;
  Partition p;
  if (planFile) {
    CostModel planner(fg, *planSizes, dev);
    planFile->configure(planner);
    p = cm.replan(planFile->read(planner), clamps);
  } else if (planSizes) {
    CostModel planner(fg, *planSizes, dev);
    fusion.configure(planner);
    p = cm.replan(search(planner, fusion.options(fg.size())), clamps);
  } else {
    p = search(cm, fusion.options(fg.size()));
  }
  ExecOutcome r = executePartition(cm, p, backend, b, seed, repeat, dump);
  nlohmann::ordered_json j;
  j["program"] = prog.name;
  j["backend"] = backendName(backend);
  j["device"] = r.device;
  j["strategy"] = strategyName(p.strategy);
  j["numerics"] = numericsName(p.numerics);
  j["sizes"] = sizes;
  if (planSizes) {
    j["plan_sizes"] = *planSizes;
    j["plan_clamps"] = clamps;
  }
  j["seed"] = seed;
  j["verified"] = r.verified;
  j["max_rel_error"] = r.maxRelError;
  j["tolerance"] = r.tolerance;
  if (r.tf32Effect >= 0) j["tf32_effect"] = r.tf32Effect;
  j["max_error_f64"] = r.maxErrorF64;
  j["kernels"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.kernelMs.size(); ++i)
    j["kernels"].push_back({{"id", "K" + std::to_string(i)}, {"name", r.kernelNames[i]}, {"ms", r.kernelMs[i]}});
  j["total_ms"] = r.totalMs;
  j["total_min_ms"] = r.totalMinMs;
  j["total_max_ms"] = r.totalMaxMs;
  j["repeat"] = repeat;
  j["flushed_bytes"] = r.flushedBytes;
  if (!json) {
    std::cout << fmt::format("program {}  backend {} ({})  strategy {}  {} kernel(s){}\n", prog.name, backendName(backend),
                             r.device, strategyName(p.strategy), r.kernelMs.size(),
                             p.numerics == Numerics::Default ? "" : std::string("  numerics ") + numericsName(p.numerics));
    if (planSizes) {
      std::string ps;
      for (auto& n : prog.sizeParams) ps += (ps.empty() ? "" : ",") + n + "=" + std::to_string(planSizes->at(n));
      std::cout << "plan chosen at " << ps << ", run as it is" << (clamps.empty() ? "" : " except:") << "\n";
      for (auto& c : clamps) std::cout << "  " << c << "\n";
    }
    for (size_t i = 0; i < r.kernelMs.size(); ++i)
      std::cout << fmt::format("  {:<28} {:10.4f} ms\n", r.kernelNames[i], r.kernelMs[i]);
    std::cout << fmt::format("  {:<28} {:10.4f} ms  (median of {} runs; fastest {:.4f}, slowest {:.4f})\n", "total (wall)",
                             r.totalMs, repeat, r.totalMinMs, r.totalMaxMs);
    // A TF32 plan's reference rounds its tensor cores' operands: say so, and what the
    // rounding itself does to these outputs.
    const std::string tf32 =
        r.tf32Effect < 0 ? "" : fmt::format("; reference with TF32 operands, whose rounding moves the outputs {:.3g}", r.tf32Effect);
    std::cout << fmt::format("verified: {} (max_rel_error {:.3g}{}{}{}; against float64 {:.3g})\n", r.verified ? "yes" : "NO",
                             r.maxRelError, r.worst.empty() ? "" : " in ", r.worst, tf32, r.maxErrorF64);
  }
  return j;
}

// `exec --strategy a,b,c`: the names, each checked before anything runs.
std::vector<std::string> strategyList(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  for (std::string n; std::getline(in, n, ',');) {
    parseStrategy(n);
    names.push_back(n);
  }
  if (names.empty() || text.back() == ',') throw UsageError("--strategy '" + text + "': expected NAME or NAME,NAME,...");
  return names;
}

void registerCommands(CLI::App& app, CommandRegistry& reg) {
  // check
  {
    struct CheckOpts : Common {
      bool tc = false;
    };
    auto c = std::make_shared<CheckOpts>();
    auto* cmd = app.add_subcommand("check", "Show statements, domains, accesses and dependences");
    addCommon(cmd, *c);
    cmd->add_flag("--tc", c->tc, "print only the program as a TC definition (what a .mlir file was read as)");
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          if (c->tc || isMlirPath(c->file)) std::cout << programText(*lp.program);
          if (c->tc) return 0;
          if (isMlirPath(c->file)) std::cout << "\n";
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
    addCommon(cmd, *c);
    c->fusion.add(cmd);
    cmd->add_flag("--json", c->json, "print the plan as one JSON object");
    cmd->add_flag("--explain", c->explainFlag, "say why each dependence edge and sibling pair is fused or not");
    cmd->add_option("--dot", c->dot, "write the graph with kernels as clusters to this file");
    cmd->add_flag("--timing", c->timing, "show solver seconds in the table (JSON always has them)");
    cmd->add_option("--top", c->fusion.top, "ilp: also list the K best distinct partitions (JSON: alternatives)")
        ->check(CLI::Range(1, 1000));
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          Sizes sizes = parseSizes(c->sizes);
          Device dev = loadDevice(c->fusion.device);
          FusionGraph fg(*lp.poly);
          CostModel cm(fg, sizes, dev);
          c->fusion.configure(cm);
          SearchOptions opt = c->fusion.options(fg.size());
          // --time-limit bounds everything after import: with --explain, the search gets
          // half of it and the explanations what the search leaves.
          const auto t0 = std::chrono::steady_clock::now();
          auto left = [&] {
            return opt.timeLimitSeconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          };
          SearchOptions searchOpt = opt;
          if (c->explainFlag) searchOpt.timeLimitSeconds = opt.timeLimitSeconds / 2;
          Partition p = search(cm, searchOpt);
          std::vector<Decision> ds;
          if (c->explainFlag) ds = explain(cm, p, opt, left());
          if (!c->dot.empty()) {
            std::ostringstream dot;
            writeDot(dot, cm, p);
            writeAtomically(c->dot, dot.str());
          }
          if (c->json) {
            nlohmann::ordered_json j = partitionJson(cm, p);
            if (c->explainFlag) {
              j["decisions"] = decisionsJson(*lp.program, ds);
              j["recomputation"] = nlohmann::ordered_json::array();
              for (auto& r : explainRecomputation(cm, p, opt, left()))
                j["recomputation"].push_back({{"statement", lp.program->statements[r.stmt].label()},
                                              {"kernels", r.kernels}, {"stored", r.stored}, {"chosen_us", r.chosenUs},
                                              {"stored_once_us", r.storedUs}, {"reason", recomputationText(*lp.program, r)}});
              j["streaming"] = nlohmann::ordered_json::array();
              for (auto& st : explainStreaming(cm, p))
                j["streaming"].push_back({{"kernel", "K" + std::to_string(st.kernel)}, {"sum", lp.program->statements[st.sum].label()},
                                          {"max", lp.program->statements[st.max].label()}, {"chosen_us", st.chosenUs},
                                          {"two_pass_us", st.twoPassUs ? nlohmann::ordered_json(*st.twoPassUs) : nlohmann::ordered_json()}, {"reason", streamingText(*lp.program, st)}});
              j["contractions"] = nlohmann::ordered_json::array();
              for (auto& t : explainContractions(p)) {
                std::vector<std::string> epilogue;
                for (int m : t.epilogue) epilogue.push_back(lp.program->statements[size_t(m)].label());
                j["contractions"].push_back({{"kernel", "K" + std::to_string(t.kernel)},
                                             {"statement", lp.program->statements[size_t(t.stmt)].label()},
                                             {"engine", contractionEngineName(t.tile.engine)}, {"stages", t.tile.stages},
                                             {"epilogue", epilogue}, {"reason", contractionText(*lp.program, t)}});
              }
              j["stream_splits"] = nlohmann::ordered_json::array();
              for (auto& sp : explainStreamSplits(cm, p))
                j["stream_splits"].push_back({{"kernel", "K" + std::to_string(sp.kernel)}, {"max", lp.program->statements[sp.max].label()},
                                              {"chunks", sp.chunks}, {"chosen_us", sp.chosenUs},
                                              {"whole_us", sp.wholeUs ? nlohmann::ordered_json(*sp.wholeUs) : nlohmann::ordered_json()},
                                              {"reason", streamSplitText(*lp.program, sp)}});
            }
            std::cout << j.dump(2) << "\n";
          } else {
            printPartitionTable(std::cout, cm, p, c->timing);
            if (c->explainFlag) {
              printDecisions(std::cout, ds);
              for (auto& r : explainRecomputation(cm, p, opt, left())) std::cout << "  recompute  " << recomputationText(*lp.program, r) << "\n";
              for (auto& st : explainStreaming(cm, p)) std::cout << "  stream     " << streamingText(*lp.program, st) << "\n";
              for (auto& sp : explainStreamSplits(cm, p)) std::cout << "  split      " << streamSplitText(*lp.program, sp) << "\n";
              for (auto& t : explainContractions(p)) std::cout << "  contract   " << contractionText(*lp.program, t) << "\n";
            }
          }
          return 0;
        });
      };
    });
  }
  // experiment
  {
    struct ExperimentCli {
      std::string config, out, shard;
      int jobs = 1;
      bool merge = false, force = false;
    };
    auto c = std::make_shared<ExperimentCli>();
    auto* cmd = app.add_subcommand("experiment", "Run a YAML sweep: fuse, emit, execute, verify, report");
    cmd->add_option("config", c->config, "experiment configuration (YAML)")->required();
    cmd->add_option("-o,--output", c->out, "output directory (default: results/<config name>)");
    cmd->add_option("--jobs", c->jobs, "points computed in parallel")->check(CLI::Range(1, 256));
    cmd->add_option("--shard", c->shard, "I/N, 0-based (0 <= I < N): compute only points with index % N == I (a Slurm array task, I = $SLURM_ARRAY_TASK_ID)");
    cmd->add_flag("--merge", c->merge, "compute nothing: gather the points of all shards into results and report");
    cmd->add_flag("--force", c->force, "use an output directory that another configuration wrote (its results are replaced)");
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return guarded(c->config, nullptr, [&] {
          ExperimentOptions o;
          o.config = c->config;
          o.out = c->out;
          o.jobs = c->jobs;
          o.mergeOnly = c->merge;
          o.force = c->force;
          if (!c->shard.empty()) {
            size_t slash = c->shard.find('/');
            try {
              // Exactly two whole numbers: "0/3/4" and "1x/4" are not shards.
              auto whole = [](const std::string& t) {
                if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos)
                  throw std::invalid_argument("");
                return std::stoi(t);
              };
              if (slash == std::string::npos) throw std::invalid_argument("");
              o.shardIndex = whole(c->shard.substr(0, slash));
              o.shardCount = whole(c->shard.substr(slash + 1));
            } catch (const std::exception&) {
              throw UsageError("--shard '" + c->shard + "': expected I/N, e.g. 0/4");
            }
          }
          return runExperiment(o);
        });
      };
    });
  }
  // calibrate
  {
    struct CalibrateCli {
      std::string backend = "opencl", out, name;
    };
    auto c = std::make_shared<CalibrateCli>();
    auto* cmd = app.add_subcommand("calibrate", "Measure a device and write its cost-model parameters as a device YAML");
    cmd->add_option("--backend", c->backend, "opencl | cuda")->check(CLI::IsMember({"opencl", "cuda"}));
    cmd->add_option("-o,--output", c->out, "write the YAML here (default: stdout)");
    cmd->add_option("--name", c->name, "the device's name in the YAML (default: measured-<backend>)");
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return guarded(c->out, nullptr, [&] {
          Calibration cal = c->backend == "cuda" ? calibrateCuda() : calibrateOpenCL();
          std::string text = cal.yaml(c->name.empty() ? "measured-" + c->backend : c->name);
          if (c->out.empty()) {
            std::cout << text;
          } else {
            writeAtomically(c->out, text);
            std::cerr << "wrote " << c->out << " (use it with --device " << c->out << ")\n";
          }
          return 0;
        });
      };
    });
  }
  // inspect
  {
    struct InspectCli {
      std::string dir, point, arch = "sm_90";
    };
    auto c = std::make_shared<InspectCli>();
    auto* cmd = app.add_subcommand("inspect", "Per generated CUDA kernel: registers, shared memory, spills, statements; per point: the fusion decisions");
    cmd->add_option("dir", c->dir, "experiment output directory, or one point's folder")->required();
    cmd->add_option("--point", c->point, "only this point");
    cmd->add_option("--arch", c->arch, "ptxas target: sm_80, sm_86, sm_89 or sm_90 (default sm_90)")
        ->check([](const std::string& a) {
          return cudaArchKnown(a) ? std::string() : "unknown --arch '" + a + "' (sm_80, sm_86, sm_89, sm_90)";
        });
    cmd->callback([c, &reg] {
      reg.chosen = [c] { return guarded(c->dir, nullptr, [&] { return inspect(std::cout, c->dir, c->point, c->arch); }); };
    });
  }
  // codegen
  {
    struct CodegenOpts : Common {
      FusionCli fusion;
      std::string target = "cuda", out, plan;
    };
    auto c = std::make_shared<CodegenOpts>();
    auto* cmd = app.add_subcommand("codegen", "Write CUDA or OpenCL kernels, host harness and reference");
    addCommon(cmd, *c);
    c->fusion.add(cmd);
    cmd->add_option("--target", c->target, "cuda | opencl")->check(CLI::IsMember({"cuda", "opencl"}));
    cmd->add_option("-o,--output", c->out, "output directory")->required();
    cmd->add_option("--plan", c->plan,
                    "generate this plan (as fuse --json writes it, or edited by hand) instead of searching: its sizes, "
                    "numerics and each kernel's statements, grid, tile and threads (docs/codegen.md)");
    cmd->callback([c, cmd, &reg] {
      const std::string besidePlan = c->plan.empty() ? "" : givenBesidePlan(cmd, "--size");
      const bool deviceGiven = cmd->get_option("--device")->count() > 0;
      reg.chosen = [c, besidePlan, deviceGiven] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          FusionGraph fg(*lp.poly);
          if (!c->plan.empty()) {
            refuseBesidePlan(besidePlan);
            const PlanFile f = openPlanFile(*lp.program, c->plan, c->fusion.device, deviceGiven);
            CostModel cm(fg, f.header.sizes, f.device);
            f.configure(cm);
            for (auto& file : writeCode(cm, f.read(cm), c->target, c->out)) std::cout << file << "\n";
            return 0;
          }
          Sizes sizes = parseSizes(c->sizes);
          CostModel cm(fg, sizes, loadDevice(c->fusion.device));
          c->fusion.configure(cm);
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
    struct ValidateOpts : Common {
      std::string backend = "opencl", device = "h100";
      int top = 0, repeat = 3;
      uint64_t seed = 1;
      bool json = false, noRecompute = false;
      double timeLimit = 0;
      std::string numerics = "default";
    };
    auto c = std::make_shared<ValidateOpts>();
    auto* cmd = app.add_subcommand("validate", "Run every legal partition (or the K best), verify each, and rank modeled against measured time");
    addCommon(cmd, *c);
    cmd->add_option("--backend", c->backend, "opencl | cuda")->check(CLI::IsMember({"opencl", "cuda"}));
    cmd->add_option("--device", c->device, "the device model: a100 | h100 | h200 | FILE.yaml (calibrate writes one)");
    cmd->add_option("--top", c->top, "validate the K best partitions by the exact search instead of all")->check(CLI::Range(1, 1000));
    cmd->add_option("--repeat", c->repeat, "timed runs per partition, the median reported (opencl: in rounds over all partitions, so a drift of the machine slows all alike)")->check(CLI::Range(1, 1000));
    cmd->add_option("--seed", c->seed, "seed of the random inputs");
    cmd->add_flag("--json", c->json, "print a JSON object");
    cmd->add_flag("--no-recompute", c->noRecompute, "only partitions that compute every statement once");
    cmd->add_option("--time-limit", c->timeLimit, "start no partition after this many seconds (0: no limit); those run are ranked")
        ->check(CLI::Range(0.0, 1e7));
    addNumericsOption(cmd, c->numerics);
    cmd->callback([c, &reg] {
      reg.chosen = [c] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          const Program& prog = *lp.program;
          Sizes sizes = parseSizes(c->sizes);
          const Backend backend = *parseIn(kBackendNames, c->backend);
          checkMemoryFits(prog, sizes, backend);
          FusionGraph fg(*lp.poly);
          CostModel cm(fg, sizes, loadDevice(c->device));
          cm.setNumerics(*parseIn(kNumericsNames, c->numerics));
          Validation v = validatePartitions(cm, backend, makeInputs(prog, sizes, c->seed), c->repeat, c->top, !c->noRecompute,
                                            c->timeLimit, &std::cerr);
          nlohmann::ordered_json j;
          j["program"] = prog.name;
          j["backend"] = backendName(backend);
          j["device"] = v.device;
          j["device_model"] = cm.device().name;
          j["sizes"] = sizes;
          j["partitions_validated"] = v.source;
          j["partitions"] = nlohmann::ordered_json::array();
          for (auto& p : v.partitions)
            j["partitions"].push_back({{"kernels", kernelsText(p.kernels, p.recomputed)}, {"modeled_us", p.modeledUs},
                                       {"measured_ms", p.run.totalMs}, {"measured_min_ms", p.run.totalMinMs},
                                       {"measured_max_ms", p.run.totalMaxMs}, {"verified", p.run.verified},
                                       {"max_rel_error", p.run.maxRelError}, {"max_error_f64", p.run.maxErrorF64}});
          j["kendall_tau"] = v.kendallTau;
          j["spearman_rho"] = v.spearmanRho;
          j["regret"] = v.regret;
          j["verified"] = v.allVerified;
          if (c->json) {
            std::cout << j.dump(2) << "\n";
          } else {
            std::cout << fmt::format("program {}  backend {} ({})  device model {}  sizes {}\n", prog.name,
                                     backendName(backend), v.device, cm.device().name, c->sizes)
                      << "validated: " << v.source << ", by modeled time\n"
                      << fmt::format("{:>4}  {:>12}  {:>12}  {:>8}  {}\n", "rank", "modeled_us", "measured_ms", "verified",
                                     "kernels");
            for (size_t i = 0; i < v.partitions.size(); ++i) {
              const ValidatedPartition& p = v.partitions[i];
              std::cout << fmt::format("{:>4}  {:>12.3f}  {:>12.4f}  {:>8}  {}\n", i + 1, p.modeledUs, p.run.totalMs,
                                       p.run.verified ? "yes" : "NO", kernelsText(p.kernels, p.recomputed));
            }
            std::cout << fmt::format("Kendall's tau {:.3f}, Spearman's rho {:.3f} over {} partitions; regret {:.3f} (the "
                                     "model's pick measures {:.3f}x the fastest)\n",
                                     v.kendallTau, v.spearmanRho, v.partitions.size(), v.regret, v.regret);
          }
          return v.allVerified ? 0 : 1;
        });
      };
    });
  }
  {
    struct ExecOpts : Common {
      std::string backend = "ref", dump, planSizes, precision = "program", plan;
      uint64_t seed = 1;
      std::vector<std::string> inputs, scalars;
      bool json = false;
      FusionCli fusion;
      int repeat = 5;
    };
    auto c = std::make_shared<ExecOpts>();
    auto* cmd = app.add_subcommand("exec", "Run the program and verify it against the reference interpreter");
    addCommon(cmd, *c);
    cmd->add_option("--backend", c->backend, namesIn(kBackendNames, " | "))->check(CLI::IsMember({"ref", "opencl", "cuda"}));
    cmd->add_option("--seed", c->seed, "seed of the random inputs (uniform in [-1, 1])");
    cmd->add_option("--input", c->inputs, "NAME=FILE.npy: read an input from a .npy file");
    cmd->add_option("--scalar", c->scalars, "NAME=VALUE: a scalar parameter (default: random in [0.5, 1.5])");
    cmd->add_option("--dump", c->dump,
                    "write every output, as the backend computed it, to DIR/NAME.npy (DIR/STRATEGY/NAME.npy for several "
                    "strategies)");
    cmd->add_option("--plan-size", c->planSizes, "choose the plan at these sizes and run it, as it is, at --size");
    cmd->add_option("--plan", c->plan,
                    "run this plan (as fuse --json writes it, or edited by hand) instead of searching, at --size or at its "
                    "own sizes (docs/codegen.md)");
    cmd->add_option("--precision", c->precision,
                    "the reference's arithmetic, with --backend ref: program (the program's element type, rounded after "
                    "each operation; what generated code is verified against) or f64 (double throughout, for error analysis)")
        ->check(CLI::IsMember({"program", "f64"}));
    cmd->add_flag("--json", c->json, "print a JSON object (an array of them for several strategies)");
    c->fusion.add(cmd, true);
    cmd->add_option("--repeat", c->repeat, "timed runs (the median is reported)");
    cmd->callback([c, cmd, &reg] {
      const std::string besidePlan = c->plan.empty() ? "" : givenBesidePlan(cmd, "--plan-size");
      const bool deviceGiven = cmd->get_option("--device")->count() > 0;
      reg.chosen = [c, besidePlan, deviceGiven] {
        return withProgram(*c, [&](LoadedProgram& lp) {
          const Program& prog = *lp.program;
          refuseBesidePlan(besidePlan);
          std::optional<PlanFile> planFile;
          if (!c->plan.empty()) planFile = openPlanFile(prog, c->plan, c->fusion.device, deviceGiven);
          // A plan runs at its own sizes unless --size gives others.
          Sizes sizes = planFile && c->sizes.empty() ? planFile->header.sizes : parseSizes(c->sizes);
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
          const Backend backend = *parseIn(kBackendNames, c->backend);  // CLI checked the name
          checkMemoryFits(prog, sizes, backend);
          Bindings b = makeInputs(prog, sizes, c->seed, scalars);
          std::set<std::string> given;
          for (auto& kv : c->inputs) {
            size_t eq = kv.find('=');
            if (eq == std::string::npos) throw UsageError("bad --input '" + kv + "': expected NAME=FILE.npy");
            std::string name = kv.substr(0, eq);
            int t = prog.findTensor(name);
            if (t < 0 || prog.tensors[t].role != TensorRole::Input) throw UsageError("--input: '" + name + "' is not an input");
            if (!given.insert(name).second) throw UsageError("--input: '" + name + "' is given twice");
            TensorData d = readNpy(kv.substr(eq + 1));
            if (d.shape != b.tensors[name].shape) throw UsageError("--input: '" + kv.substr(eq + 1) + "' has the wrong shape for '" + name + "'");
            // Non-finite inputs are allowed (MLIR's semantics define them) but said: a
            // NaN that reaches every output still verifies.
            const auto nonFinite = std::count_if(d.values.begin(), d.values.end(), [](double v) { return !std::isfinite(v); });
            if (nonFinite)
              std::cerr << "polyfuse: warning: input '" << name << "' (" << kv.substr(eq + 1) << ") holds " << nonFinite
                        << " NaN or infinite value(s)\n";
            // A half or bfloat16 input holds what its type holds (a float32 .npy for
            // bfloat16, which .npy cannot spell).
            for (double& v : d.values) v = storedValue(prog.tensors[t].type, v);
            b.tensors[name] = std::move(d);
          }
          if (backend != Backend::Ref) {
            if (c->precision != "program")
              throw UsageError("--precision applies to --backend ref; generated code is verified against the program's precision");
            std::optional<Sizes> planSizes;
            if (!c->planSizes.empty()) {
              planSizes = parseSizes(c->planSizes);
              prog.checkSizes(*planSizes);
            }
            if (planFile) planSizes = planFile->header.sizes;
            // Several strategies run in turn in this one process: the inputs are drawn
            // once, and the backend's compiler starts once (PoCL's start, loading its
            // kernel library, costs a small plan more than compiling it).
            const std::vector<std::string> strategies = planFile ? std::vector<std::string>{""} : strategyList(c->fusion.strategy);
            // Several plans' outputs go to DIR/STRATEGY, one folder each.
            const bool dumpEach = strategies.size() > 1 && !c->dump.empty();
            for (size_t i = 0; dumpEach && i < strategies.size(); ++i)
              if (std::count(strategies.begin(), strategies.begin() + long(i), strategies[i]))
                throw UsageError("--dump with several strategies writes DIR/STRATEGY: '" + strategies[i] +
                                 "' is named twice");
            nlohmann::ordered_json runs = nlohmann::ordered_json::array();
            bool verified = true;
            for (const std::string& s : strategies) {
              FusionCli fusion = c->fusion;
              if (!s.empty()) fusion.strategy = s;
              runs.push_back(execGenerated(lp, backend, fusion, c->repeat, c->json, sizes, planSizes ? &*planSizes : nullptr,
                                           b, c->seed, dumpEach ? c->dump + "/" + s : c->dump,
                                           planFile ? &*planFile : nullptr));
              verified = verified && runs.back()["verified"].get<bool>();
            }
            if (c->json) std::cout << (runs.size() == 1 ? runs[0] : runs).dump(2) << "\n";
            return verified ? 0 : 1;
          }
          if (!c->planSizes.empty()) throw UsageError("--plan-size applies to generated code: --backend opencl or cuda");
          if (planFile) throw UsageError("--plan applies to generated code: --backend opencl or cuda");
          interpret(prog, b, c->precision == "f64" ? Precision::F64 : Precision::Program);
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
          // The interpreter is the oracle: there is nothing to verify it against, and the
          // output says so rather than claiming a verification that did not happen.
          j["verified"] = nullptr;
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

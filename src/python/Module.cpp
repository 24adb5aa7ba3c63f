// polyfuse._polyfuse: the Python face of the driver. A Program is a loaded, checked
// file; fuse() gives Plans, each owning the cost model it was made with, so that a plan
// can explain itself, emit its sources and run long after the call that made it.
// Everything heavy releases the GIL; errors arrive as polyfuse.InputError (the user's:
// a located message, exit status 2 on the command line) or polyfuse.InternalError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <filesystem>
#include <memory>

#include "driver/BuildInfo.h"
#include "driver/Execute.h"
#include "driver/Experiment.h"
#include "driver/FileIO.h"
#include "driver/Validate.h"
#include "fusion/Explain.h"
#include "fusion/PlanOutput.h"
#include "fusion/Search.h"
#include "mlir/LoadProgram.h"
#include "polyir/Diagnostic.h"
#include "polyir/Frontend.h"
#include "polyir/Float16.h"
#include "polyir/Interpreter.h"
#include "polyir/Printer.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace polyfuse {
namespace {

// A located source error, already formatted "FILE:L:C: message" with the line shown.
struct LocatedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// nlohmann's JSON handed to Python as Python's own objects.
py::object toPython(const nlohmann::ordered_json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

struct LoadedState {
  LoadedProgram lp;
  std::string path;
};

// One cost model: a program at sizes on a device, with the options of the search.
struct Session {
  std::shared_ptr<LoadedState> program;
  std::unique_ptr<FusionGraph> graph;
  std::unique_ptr<CostModel> model;
  SearchOptions options;
};

struct PyProgram {
  std::shared_ptr<LoadedState> state;
  Sizes sizes;  // the sizes given at load; fuse() and run() may override
};

struct PyPlan {
  std::shared_ptr<Session> session;
  Partition partition;
};

Sizes sizesOr(const PyProgram& p, const std::optional<Sizes>& given) {
  Sizes s = given ? *given : p.sizes;
  p.state->lp.program->checkSizes(s);
  return s;
}

std::string label(int statement, const std::vector<int>& recomputed) {
  std::string s = "S" + std::to_string(statement);
  return std::count(recomputed.begin(), recomputed.end(), statement) ? s + "'" : s;
}

PyProgram load(const std::string& path, const std::optional<Sizes>& sizes, const std::string& entry, bool readThrough) {
  auto state = std::make_shared<LoadedState>();
  state->path = path;
  SourceFile src = readSource(path);
  try {
    state->lp = loadProgramFile(src, entry, std::make_shared<IslContext>(), {readThrough});
  } catch (const SourceError& e) {
    throw LocatedError(formatSourceError(path, src.text, e));
  }
  PyProgram p{state, sizes ? *sizes : Sizes{}};
  if (sizes) state->lp.program->checkSizes(*sizes);
  return p;
}

std::vector<PyPlan> fuse(const PyProgram& prog, const std::string& strategy, const std::string& device, int top,
                         double timeLimit, bool recompute, const std::optional<Sizes>& sizes, bool stream,
                         const std::string& numericsName, bool columnTiles, bool streamSplit, int stages, bool splitK,
                         bool wideFmaTiles) {
  auto s = std::make_shared<Session>();
  const std::optional<Numerics> numerics = parseIn(kNumericsNames, numericsName);
  if (!numerics) throw UsageError("numerics '" + numericsName + "': expected " + namesIn(kNumericsNames, " or "));
  s->program = prog.state;
  Sizes at = sizesOr(prog, sizes);
  if (top < 1) throw UsageError("top must be at least 1");
  if (!(timeLimit > 0)) throw UsageError("time_limit must be positive");
  if (stages < 1 || stages > CostModel::kMaxContractionStages)
    throw UsageError("stages must be 1 to " + std::to_string(CostModel::kMaxContractionStages));
  s->options.strategy = parseStrategy(strategy);
  s->options.topK = top;
  s->options.timeLimitSeconds = timeLimit;
  s->options.recompute = recompute;
  Device dev = loadDevice(device);
  std::vector<PyPlan> plans;
  {
    py::gil_scoped_release unlocked;
    s->graph = std::make_unique<FusionGraph>(*prog.state->lp.poly);
    s->model = std::make_unique<CostModel>(*s->graph, at, dev);
    s->model->setStreams(stream);
    s->model->setColumnTiles(columnTiles);
    s->model->setStreamSplits(streamSplit);
    s->model->setSplitK(splitK);
    s->model->setWideFmaTiles(wideFmaTiles);
    s->model->setMaxStages(stages);
    s->model->setNumerics(*numerics);
    Partition best = search(*s->model, s->options);
    plans.push_back({s, best});
    // The runners-up, each assembled whole (kernels, grids, costs) as the best one is.
    for (size_t a = 1; a < best.alternatives.size(); ++a) {
      const Alternative& alt = best.alternatives[a];
      std::vector<StmtSet> groups, kept;
      for (size_t k = 0; k < alt.kernels.size(); ++k) {
        groups.push_back(StmtSet::of(s->graph->size(), alt.kernels[k]));
        kept.push_back(StmtSet::of(s->graph->size(), alt.recomputed[k]));
      }
      Partition p = s->model->assemble(best.strategy, groups, kept);
      p.solver = best.solver;
      plans.push_back({s, std::move(p)});
    }
  }
  return plans;
}

py::dict solverDict(const SolverInfo& si) {
  py::dict d;
  d["name"] = si.name;
  d["status"] = solverStatusName(si.status);
  d["seconds"] = si.seconds;
  d["note"] = si.note;
  d["priced_groups"] = si.pricedGroups;
  d["shared_groups"] = si.sharedGroups;
  if (si.hasBound) {
    d["best_bound_us"] = si.bestBoundUs;
    d["gap"] = si.gap;
  }
  return d;
}

// Sources as written by `polyfuse codegen`: file name to text.
py::dict codegen(const PyPlan& plan, const std::string& target) {
  if (target != "cuda" && target != "opencl") throw UsageError("target '" + target + "': expected cuda or opencl");
  fs::path dir = fs::temp_directory_path() / ("polyfuse-py-" + std::to_string(::getpid()) + "-" +
                                              std::to_string(reinterpret_cast<uintptr_t>(&plan)));
  std::vector<std::string> paths;
  {
    py::gil_scoped_release unlocked;
    fs::remove_all(dir);
    paths = writeCode(*plan.session->model, plan.partition, target, dir.string());
  }
  py::dict out;
  for (auto& p : paths) {
    out[py::str(fs::path(p).filename().string())] = readWhole(p);
  }
  fs::remove_all(dir);
  return out;
}

// The inputs a run starts from: drawn from `seed`, and those `given` (name -> array of
// the input's shape; a scalar parameter's value) put in their place, each held as the
// input's element type holds it (as exec --input and --scalar do).
Bindings runInputs(const Program& prog, const Sizes& at, uint64_t seed, const py::dict& given) {
  std::map<std::string, double> scalars;
  for (auto& [key, value] : given) {
    const std::string name = py::str(key);
    for (const ScalarParam& sp : prog.scalars)
      if (sp.name == name) scalars[name] = value.cast<double>();
  }
  Bindings b = makeInputs(prog, at, seed, scalars);
  for (auto& [key, value] : given) {
    const std::string name = py::str(key);
    if (scalars.count(name)) continue;
    const int t = prog.findTensor(name);
    if (t < 0 || prog.tensors[t].role != TensorRole::Input)
      throw UsageError("inputs: '" + name + "' is not an input or scalar parameter of " + prog.name);
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!a) throw UsageError("inputs: '" + name + "' is not an array of numbers");
    TensorData& d = b.tensors[name];
    const std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
    if (shape != d.shape) {
      std::string want, got;
      for (auto e : d.shape) want += (want.empty() ? "" : ", ") + std::to_string(e);
      for (auto e : shape) got += (got.empty() ? "" : ", ") + std::to_string(e);
      throw UsageError("inputs: '" + name + "' has shape (" + got + "), the program's is (" + want + ")");
    }
    d.values.assign(a.data(), a.data() + a.size());
    for (double& v : d.values) v = storedValue(prog.tensors[t].type, v);
  }
  return b;
}

// The outputs as numpy arrays of float64, in their shapes.
py::dict outputArrays(const std::map<std::string, TensorData>& tensors) {
  py::dict o;
  for (auto& [name, t] : tensors) {
    py::array_t<double> a(std::vector<py::ssize_t>(t.shape.begin(), t.shape.end()));
    std::copy(t.values.begin(), t.values.end(), a.mutable_data());
    o[py::str(name)] = a;
  }
  return o;
}

// The reference interpreter on the program's inputs (drawn from `seed` unless given): the
// outputs, in the program's precision (as generated code is verified against) or in f64.
py::dict interpretProgram(const PyProgram& p, const std::optional<Sizes>& sizes, const py::dict& inputs, uint64_t seed,
                          const std::string& precision) {
  if (precision != "program" && precision != "f64") throw UsageError("precision '" + precision + "': expected program or f64");
  const Program& prog = *p.state->lp.program;
  const Sizes at = sizesOr(p, sizes);
  checkMemoryFits(prog, at, Backend::Ref);
  Bindings b = runInputs(prog, at, seed, inputs);
  {
    py::gil_scoped_release unlocked;
    interpret(prog, b, precision == "f64" ? Precision::F64 : Precision::Program);
  }
  std::map<std::string, TensorData> outs;
  for (int t : prog.tensorsWithRole(TensorRole::Output)) outs[prog.tensors[t].name] = b.tensors[prog.tensors[t].name];
  return outputArrays(outs);
}

py::dict run(const PyPlan& plan, const std::string& backendName, int repeat, uint64_t seed, const std::optional<Sizes>& sizes,
             const py::dict& inputs, bool outputs) {
  std::optional<Backend> parsed = parseIn(kBackendNames, backendName);
  if (!parsed) throw UsageError("backend '" + backendName + "': expected opencl or cuda");
  Backend backend = *parsed;
  if (backend == Backend::Ref) throw UsageError("run executes generated code: backend 'opencl' or 'cuda'");
  if (repeat < 1) throw UsageError("repeat must be at least 1");
  const Session& s = *plan.session;
  const Program& prog = *s.program->lp.program;
  // At other sizes the plan runs as it is (exec --plan-size): kernels, grids and tiles
  // kept, a tile larger than its extent clamped.
  Sizes at = sizes ? *sizes : plan.partition.sizes;
  prog.checkSizes(at);
  std::vector<std::string> clamps;
  ExecOutcome x;
  checkMemoryFits(prog, at, backend);
  const Bindings start = runInputs(prog, at, seed, inputs);
  {
    py::gil_scoped_release unlocked;
    if (sizes) {  // a cost model at the run's sizes only when they differ from the plan's
      CostModel cm(*s.graph, at, s.model->device());
      cm.setStreams(s.model->streams());
      cm.setNumerics(s.model->numerics());
      x = executePartition(cm, cm.replan(plan.partition, clamps), backend, start, seed, repeat);
    } else {
      x = executePartition(*s.model, plan.partition, backend, start, seed, repeat);
    }
  }
  py::dict d;
  d["backend"] = backendName;
  d["device"] = x.device;
  d["sizes"] = at;
  d["clamps"] = clamps;
  d["verified"] = x.verified;
  d["max_rel_error"] = x.maxRelError;
  d["tolerance"] = x.tolerance;
  d["tf32_effect"] = x.tf32Effect >= 0 ? py::object(py::float_(x.tf32Effect)) : py::object(py::none());
  d["max_error_f64"] = x.maxErrorF64;
  d["worst_output"] = x.worst;
  d["repeat"] = repeat;
  d["median_ms"] = x.totalMs;
  d["min_ms"] = x.totalMinMs;
  d["max_ms"] = x.totalMaxMs;
  d["flushed_bytes"] = x.flushedBytes;
  py::dict kernels;
  for (size_t i = 0; i < x.kernelMs.size(); ++i) kernels[py::str(x.kernelNames[i])] = x.kernelMs[i];
  d["kernel_ms"] = kernels;
  if (outputs) d["outputs"] = outputArrays(x.outputs);  // as the device computed them
  return d;
}

std::string experiment(const std::string& config, const std::string& out, int jobs, bool force) {
  ExperimentOptions o;
  o.config = config;
  o.out = out.empty() ? (fs::path("results") / fs::path(config).stem()).string() : out;
  o.jobs = jobs;
  o.force = force;
  int status;
  {
    py::gil_scoped_release unlocked;
    status = runExperiment(o);
  }
  (void)status;  // a point that failed verification is in the results, as on the command line
  return o.out;
}

}  // namespace
}  // namespace polyfuse

PYBIND11_MODULE(_polyfuse, m) {
  using namespace polyfuse;
  m.doc() = "polyfuse's core: load, fuse, codegen, run (see the polyfuse package)";
  m.attr("__version__") = std::string(kSourceCommit);
  m.attr("build_type") = std::string(kBuildType);

  // User errors (bad input, bad arguments) are ValueErrors too; internal errors are
  // RuntimeErrors. Both derive from polyfuse.Error.
  static py::exception<std::runtime_error> base(m, "Error");
  py::object inputError = py::reinterpret_steal<py::object>(
      PyErr_NewException("polyfuse.InputError", py::make_tuple(base, py::handle(PyExc_ValueError)).ptr(), nullptr));
  py::object internalError = py::reinterpret_steal<py::object>(
      PyErr_NewException("polyfuse.InternalError", py::make_tuple(base, py::handle(PyExc_RuntimeError)).ptr(), nullptr));
  m.attr("InputError") = inputError;
  m.attr("InternalError") = internalError;
  static PyObject* inputType = inputError.ptr();
  static PyObject* internalType = internalError.ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LocatedError& e) {
      PyErr_SetString(inputType, e.what());
    } catch (const UsageError& e) {
      PyErr_SetString(inputType, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(internalType, e.what());
    } catch (const isl::exception& e) {
      PyErr_SetString(internalType, (std::string("isl: ") + e.what()).c_str());
    }
  });

  py::class_<PyPlan>(m, "Plan", "A partition of the program into kernels, with its modeled costs")
      .def_property_readonly("strategy", [](const PyPlan& p) { return std::string(strategyName(p.partition.strategy)); })
      .def_property_readonly("device", [](const PyPlan& p) { return p.partition.device; })
      .def_property_readonly("numerics", [](const PyPlan& p) { return std::string(numericsName(p.partition.numerics)); })
      .def_property_readonly("sizes", [](const PyPlan& p) { return p.partition.sizes; })
      .def_property_readonly("kernels",
                             [](const PyPlan& p) {
                               std::vector<std::vector<std::string>> ks;
                               for (auto& k : p.partition.kernels) {
                                 std::vector<std::string> labels;
                                 for (int s : k.statements) labels.push_back(label(s, k.recomputed));
                                 ks.push_back(labels);
                               }
                               return ks;
                             },
                             "statements per kernel in launch order; S1' is recomputed in that kernel")
      .def_property_readonly("num_kernels", [](const PyPlan& p) { return p.partition.kernels.size(); })
      .def_property_readonly("dram_bytes", [](const PyPlan& p) { return p.partition.dramBytes; })
      .def_property_readonly("l2_bytes", [](const PyPlan& p) { return p.partition.l2Bytes; })
      .def_property_readonly("flops", [](const PyPlan& p) { return p.partition.flops; })
      .def_property_readonly("lower_bound_bytes", [](const PyPlan& p) { return p.session->model->lowerBoundBytes(); })
      .def_property_readonly("modeled_us", [](const PyPlan& p) { return p.partition.modeledUs; })
      .def_property_readonly("solver", [](const PyPlan& p) { return solverDict(p.partition.solver); })
      .def("to_dict", [](const PyPlan& p) { return toPython(partitionJson(*p.session->model, p.partition)); },
           "the plan as `polyfuse fuse --json` prints it")
      .def(
          "explain",
          [](const PyPlan& p) {
            std::vector<Decision> ds;
            {
              py::gil_scoped_release unlocked;
              // The session's time limit bounds the explanations, as it bounds the search.
              ds = explain(*p.session->model, p.partition, p.session->options, p.session->options.timeLimitSeconds);
            }
            return toPython(decisionsJson(*p.session->program->lp.program, ds));
          },
          "why each dependence edge and sibling pair is fused or not, with the cost deltas")
      .def("codegen", &codegen, py::arg("target") = "cuda", "the generated sources: file name to text")
      .def("run", &run, py::arg("backend") = "opencl", py::arg("repeat") = 5, py::arg("seed") = 1,
           py::arg("sizes") = py::none(), py::arg("inputs") = py::dict(), py::arg("outputs") = false,
           "run the generated code, verify it against the reference interpreter and time it; inputs are drawn "
           "from the seed unless given (inputs={'X': array, 'eps': 1e-5}); outputs=True: the outputs as the "
           "device computed them, in result['outputs']")
      .def("__repr__", [](const PyPlan& p) {
        std::string ks;
        for (auto& k : p.partition.kernels) {
          std::string t;
          for (int s : k.statements) t += (t.empty() ? "" : " ") + label(s, k.recomputed);
          ks += (ks.empty() ? "{" : " {") + t + "}";
        }
        return "<polyfuse.Plan " + std::string(strategyName(p.partition.strategy)) + ": " +
               std::to_string(p.partition.kernels.size()) + " kernel(s) " + ks + ", " +
               std::to_string(p.partition.modeledUs) + " us modeled>";
      });

  py::class_<PyProgram>(m, "Program", "A loaded and checked tensor program")
      .def_property_readonly("name", [](const PyProgram& p) { return p.state->lp.program->name; })
      .def_property_readonly("path", [](const PyProgram& p) { return p.state->path; })
      .def_property_readonly("sizes", [](const PyProgram& p) { return p.sizes; })
      .def_property_readonly("size_params", [](const PyProgram& p) { return p.state->lp.program->sizeParams; })
      .def_property_readonly("notes", [](const PyProgram& p) { return p.state->lp.notes; })
      .def_property_readonly("statements",
                             [](const PyProgram& p) {
                               py::list v;
                               for (auto& s : p.state->lp.program->statements) {
                                 py::dict d;
                                 d["id"] = "S" + std::to_string(s.id);
                                 d["label"] = s.label();
                                 v.append(d);
                               }
                               return v;
                             },
                             "each statement's id (as kernels name it) and label")
      .def_property_readonly("tc", [](const PyProgram& p) { return programText(*p.state->lp.program); },
                             "the program as a TC definition (what the linalg importer understood of a .mlir file)")
      .def("interpret", &interpretProgram, py::arg("sizes") = py::none(), py::arg("inputs") = py::dict(),
           py::arg("seed") = 1, py::arg("precision") = "program",
           "the reference interpreter's outputs (name -> array), on inputs drawn from the seed unless given; "
           "precision='f64' computes in double throughout")
      .def("fuse", &fuse, py::arg("strategy") = "ilp", py::arg("device") = "h100", py::arg("top") = 1,
           py::arg("time_limit") = 60.0, py::arg("recompute") = true, py::arg("sizes") = py::none(),
           py::arg("stream") = true, py::arg("numerics") = "default", py::arg("column_tiles") = true,
           py::arg("stream_split") = true, py::arg("stages") = int(CostModel::kDefaultContractionStages), py::arg("split_k") = true,
           py::arg("wide_fma_tiles") = false,
           "partition the program into kernels; with top=K, the K best plans, best first; stream=False: no sum "
           "streams beside its maximum (docs/streaming.md); numerics='strict': every plan rounds as the "
           "reference does and computes the same bits (docs/codegen.md); column_tiles=False: no reduction runs "
           "down a column tile (docs/cost-model.md); stream_split=False: no streamed tile splits its reduction "
           "across blocks (docs/streaming.md); stages=N: a tiled contraction's most staging buffers, 1 to 4 (docs/codegen.md); "
           "split_k=False: no tiled contraction splits its reduction across blocks (docs/cost-model.md); "
           "wide_fma_tiles=True: tiled contractions on the FMA units may take 8 x 8 micro-tiles (docs/codegen.md)")
      .def("__repr__", [](const PyProgram& p) {
        return "<polyfuse.Program " + p.state->lp.program->name + ": " +
               std::to_string(p.state->lp.program->statements.size()) + " statement(s) from " + p.state->path + ">";
      });

  m.def("load", &load, py::arg("path"), py::arg("sizes") = py::none(), py::arg("entry") = "", py::arg("read_through") = true,
        "load a program: FILE.tc or FILE.mlir (linalg on tensors); read_through=False keeps each copy (a permutation "
        "or broadcast of another tensor) a statement of its own (docs/design.md)");
  m.def("_experiment", &experiment, py::arg("config"), py::arg("out") = "", py::arg("jobs") = 1, py::arg("force") = false);
}

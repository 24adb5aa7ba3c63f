// The experiment configuration: a typed schema read from YAML, validated with
// located errors (CONFIG:LINE:COL), and expanded into the cartesian sweep.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "driver/Backend.h"
#include "fusion/CostModel.h"
#include "fusion/KernelPlan.h"
#include "polyir/Affine.h"

namespace polyfuse {

struct ProgramSpec {
  std::string path;   // resolved against the config's folder
  std::string entry;  // optional
  std::vector<Sizes> sizes;
};

struct ExecuteSpec {
  bool enabled = false;
  Backend backend = Backend::OpenCL;
  std::vector<Sizes> sizes;  // empty: the modeled sizes
  int repeat = 5;  // timed runs per point; the median and the spread are reported
  bool verify = true;
};

// One device of the sweep: a preset or YAML file, with cost-model parameters
// overridden. A `devices:` entry that sweeps a parameter ({base: h100, launch_us: [1, 2,
// 5]}) expands into one DeviceSpec per value, each naming the swept parameter.
struct DeviceSpec {
  std::string base;                         // preset name or resolved YAML path
  std::map<std::string, double> overrides;  // fixed and swept parameters
  std::string label;                        // "h100", or "h100 launch_us=5"
  std::string swept;                        // the swept parameter; empty: none
  double sweptValue = 0;
  int entry = 0;                            // which `devices:` entry it came from
};

struct Weights {  // optional overrides of the device's cost-model parameters
  std::string name = "default";
  std::map<std::string, double> values;
};

struct ExperimentConfig {
  std::string file, name;
  std::vector<ProgramSpec> programs;
  std::vector<std::string> strategies, emit;
  std::vector<DeviceSpec> devices;
  std::vector<Weights> weights;
  ExecuteSpec execute;
  double timeLimitSeconds = 60;
  // validate: true runs every legal partition (validate_top: K, the K best) of each
  // program, sizes and device at the execution sizes, once per group of points.
  bool recompute = true;  // ilp and exhaustive may recompute elementwise temporaries
  bool stream = true;     // sums may stream beside their maxima (docs/streaming.md)
  bool columnTiles = true;  // reductions may run down column tiles (docs/cost-model.md)
  int stages = CostModel::kDefaultContractionStages;  // a tiled contraction's most buffers (docs/codegen.md)
  bool streamSplit = true;  // streamed tiles may split their reduction across blocks (docs/streaming.md)
  bool splitK = true;       // tiled contractions may split theirs (split-K, docs/cost-model.md)
  bool wideFmaTiles = false;  // FMA tiles may take 8 x 8 micro-tiles (docs/codegen.md)
  bool readThrough = true;  // copies read through at their readers (docs/design.md); false: --keep-copies
  // Swept like strategies: strict, every plan rounds as the reference does; tf32,
  // contractions may run on tensor cores (KernelPlan.h, Numerics).
  std::vector<Numerics> numerics{Numerics::Default};
  bool validate = false;
  int validateTop = 0;
};

struct Point {
  int index = 0;
  std::string id;  // stable folder name
  int program = 0;
  Sizes sizes;
  std::string strategy;
  int device = 0;  // index into ExperimentConfig::devices
  int weights = 0;
  Numerics numerics = Numerics::Default;
};

// Throws UsageError with "FILE:LINE:COL: message" on any schema violation.
ExperimentConfig loadExperimentConfig(const std::string& path);
std::vector<Point> expandPoints(const ExperimentConfig& cfg);
std::string sizesText(const Sizes& s);  // "N=4096,M=4096"

}  // namespace polyfuse

#include "driver/ExperimentConfig.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "fusion/Device.h"
#include "fusion/Search.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

std::string sizesText(const Sizes& s) {
  std::string t;
  for (auto& [k, v] : s) t += (t.empty() ? "" : ",") + k + "=" + std::to_string(v);
  return t;
}

namespace {

// The keys of a `devices:` map entry: its base, and the cost-model parameters a
// weights entry or a device sweep may set (applyDeviceOverrides).
const std::set<std::string> kDeviceParameters = [] {
  std::set<std::string> k(deviceParameterKeys().begin(), deviceParameterKeys().end());
  k.insert({"base", "saturating_occupancy"});  // the second, to say it is gone
  return k;
}();

// A parameter value in a label: "5", "2.5", "1e+03"; the shortest spelling that reads
// back as the same double, so that two values are two labels (and two points).
std::string fmtNumber(double v) {
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

struct Reader {
  std::string file;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& msg) const {
    YAML::Mark m = n.Mark();
    if (m.line < 0) throw UsageError(file + ": " + msg);
    throw UsageError(file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + msg);
  }
  void keys(const YAML::Node& n, const std::set<std::string>& allowed, const std::string& what) const {
    if (!n.IsMap()) fail(n, what + " must be a mapping");
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string k = key(it->first);
      if (!allowed.count(k)) {
        std::string list;
        for (auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(it->first, "unknown key '" + k + "' in " + what + " (expected one of: " + list + ")");
      }
    }
  }
  // A mapping's key: a plain name, not a list or a mapping.
  std::string key(const YAML::Node& n) const {
    if (!n.IsScalar()) fail(n, "a key must be a name");
    return n.as<std::string>();
  }
  std::string str(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a string");
    return n.as<std::string>();
  }
  int64_t integer(const YAML::Node& n, const std::string& what, int64_t min) const {
    if (!n.IsScalar()) fail(n, what + " must be an integer");
    std::string t = n.as<std::string>();
    if (t.empty() || t.size() > 15 || t.find_first_not_of("0123456789") != std::string::npos)
      fail(n, what + " must be a positive integer, not '" + t + "'");
    int64_t v = std::stoll(t);
    if (v < min) fail(n, what + " must be at least " + std::to_string(min));
    return v;
  }
  bool boolean(const YAML::Node& n, const std::string& what) const {
    std::string v = str(n, what);
    if (v != "true" && v != "false") fail(n, what + " must be true or false");
    return v == "true";
  }

  // A cost-model parameter's value: finite and positive; counts are whole numbers.
  double parameter(const YAML::Node& n, const std::string& k) const {
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, "'" + k + "' must be a number");
    }
    try {
      checkDeviceParameter(k, v);
    } catch (const UsageError& e) {
      fail(n, e.what());
    }
    return v;
  }

  std::vector<std::string> strings(const YAML::Node& n, const std::string& what) const {
    if (!n.IsSequence() || n.size() == 0) fail(n, what + " must be a non-empty list");
    std::vector<std::string> out;
    for (auto x : n) out.push_back(str(x, what + " entries"));
    return out;
  }
  std::vector<Sizes> sizes(const YAML::Node& n) const {
    if (!n.IsSequence() || n.size() == 0) fail(n, "sizes must be a non-empty list of mappings like {N: 4096}");
    std::vector<Sizes> out;
    for (auto m : n) {
      if (!m.IsMap() || m.size() == 0) fail(m, "each size must be a mapping like {N: 4096, M: 4096}");
      Sizes s;
      for (auto it = m.begin(); it != m.end(); ++it) s[key(it->first)] = integer(it->second, "size '" + key(it->first) + "'", 1);
      out.push_back(s);
    }
    return out;
  }
};

}  // namespace

static ExperimentConfig parseConfig(const std::string& path);

ExperimentConfig loadExperimentConfig(const std::string& path) {
  try {
    return parseConfig(path);
  } catch (const YAML::Exception& e) {  // a shape no check above foresaw: still the file's fault
    throw UsageError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
}

static ExperimentConfig parseConfig(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw UsageError("cannot read '" + path + "': no such file");
  Reader r{path};
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw UsageError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  ExperimentConfig cfg;
  cfg.file = path;
  r.keys(root, {"name", "programs", "strategies", "devices", "weights", "execute", "emit", "time_limit", "recompute", "stream", "column_tiles", "stages", "stream_split", "split_k", "wide_fma_tiles", "read_through", "numerics", "validate", "validate_top"}, "the configuration");
  for (const char* required : {"name", "programs", "strategies", "devices"})
    if (!root[required]) r.fail(root, std::string("missing key '") + required + "'");
  cfg.name = r.str(root["name"], "name");
  std::filesystem::path base = std::filesystem::path(path).parent_path();
  const YAML::Node progs = root["programs"];
  if (!progs.IsSequence() || progs.size() == 0) r.fail(progs, "programs must be a non-empty list");
  for (auto p : progs) {
    r.keys(p, {"path", "sizes", "entry"}, "a program");
    if (!p["path"]) r.fail(p, "a program needs 'path'");
    if (!p["sizes"]) r.fail(p, "a program needs 'sizes'");
    ProgramSpec ps;
    std::string rel = r.str(p["path"], "path");
    ps.path = (base / rel).lexically_normal().string();
    if (!std::filesystem::is_regular_file(ps.path)) r.fail(p["path"], "program file '" + rel + "' not found (paths are relative to the configuration)");
    if (p["entry"]) ps.entry = r.str(p["entry"], "entry");
    ps.sizes = r.sizes(p["sizes"]);
    cfg.programs.push_back(ps);
  }
  cfg.strategies = r.strings(root["strategies"], "strategies");
  for (size_t i = 0; i < cfg.strategies.size(); ++i) {
    if (!parseIn(kStrategyNames, cfg.strategies[i]))
      r.fail(root["strategies"][i], "unknown strategy '" + cfg.strategies[i] + "' (" + namesIn(kStrategyNames) + ")");
  }
  const YAML::Node devs = root["devices"];
  if (!devs.IsSequence() || devs.size() == 0) r.fail(devs, "devices must be a non-empty list");
  auto resolveDevice = [&](const YAML::Node& n, const std::string& d) {
    if (d == "a100" || d == "h100" || d == "h200") return d;
    std::string resolved = (base / d).lexically_normal().string();
    if (!std::filesystem::is_regular_file(resolved))
      r.fail(n, "unknown device '" + d + "' (presets: a100, h100, h200; or a YAML file)");
    return resolved;
  };
  for (size_t i = 0; i < devs.size(); ++i) {
    const YAML::Node d = devs[i];
    DeviceSpec spec;
    spec.entry = int(i);
    if (!d.IsMap()) {
      spec.base = resolveDevice(d, r.str(d, "a device"));
      spec.label = std::filesystem::path(spec.base).stem().string();
      cfg.devices.push_back(spec);
      continue;
    }
    // {base: h100, launch_us: [1, 2, 5], dram_gbps: 3000}: fixed values and one sweep.
    r.keys(d, kDeviceParameters, "a devices entry");
    if (!d["base"]) r.fail(d, "a devices entry needs 'base' (a preset or a YAML file)");
    spec.base = resolveDevice(d["base"], r.str(d["base"], "base"));
    std::vector<double> values;
    for (auto it = d.begin(); it != d.end(); ++it) {
      std::string k = r.key(it->first);
      if (k == "base") continue;
      // A copy: `it->second` lives in a temporary of yaml-cpp's iterator, which a loop
      // over it would outlive.
      const YAML::Node value = it->second;
      std::vector<double> vs;
      if (value.IsSequence()) {
        if (!spec.swept.empty()) r.fail(value, "only one parameter of a devices entry may be swept ('" + spec.swept + "' is)");
        if (value.size() == 0) r.fail(value, "'" + k + "' sweeps no values");
        for (const YAML::Node& v : value) vs.push_back(r.parameter(v, k));
        spec.swept = k;
        values = vs;
      } else {
        spec.overrides[k] = r.parameter(value, k);
      }
    }
    std::string fixed;
    for (auto& [k, v] : spec.overrides) fixed += " " + k + "=" + fmtNumber(v);
    const std::string stem = std::filesystem::path(spec.base).stem().string() + fixed;
    if (spec.swept.empty()) {
      spec.label = stem;
      cfg.devices.push_back(spec);
      continue;
    }
    for (double v : values) {
      DeviceSpec one = spec;
      one.overrides[spec.swept] = v;
      one.sweptValue = v;
      one.label = stem + " " + spec.swept + "=" + fmtNumber(v);
      cfg.devices.push_back(one);
    }
  }
  if (root["weights"]) {
    const YAML::Node w = root["weights"];
    if (!w.IsSequence() || w.size() == 0) r.fail(w, "weights must be a non-empty list");
    std::set<std::string> keys = kDeviceParameters;
    keys.erase("base");
    keys.insert("name");
    for (auto x : w) {
      r.keys(x, keys, "a weights entry");
      Weights wt;
      for (auto it = x.begin(); it != x.end(); ++it) {
        std::string k = r.key(it->first);
        if (k == "name") { wt.name = r.str(it->second, "name"); continue; }
        wt.values[k] = r.parameter(it->second, k);
      }
      cfg.weights.push_back(wt);
    }
  } else {
    cfg.weights.push_back(Weights{});
  }
  if (root["execute"]) {
    const YAML::Node e = root["execute"];
    r.keys(e, {"backend", "sizes", "repeat", "verify"}, "execute");
    cfg.execute.enabled = true;
    if (e["backend"]) {
      std::string name = r.str(e["backend"], "backend");
      auto b = parseIn(kBackendNames, name);
      if (!b || *b == Backend::Ref) r.fail(e["backend"], "backend must be opencl or cuda");
      else cfg.execute.backend = *b;
    }
    if (e["sizes"]) cfg.execute.sizes = r.sizes(e["sizes"]);
    if (e["repeat"]) cfg.execute.repeat = int(r.integer(e["repeat"], "repeat", 1));
    if (e["verify"]) cfg.execute.verify = r.boolean(e["verify"], "verify");
  }
  if (root["emit"]) {
    cfg.emit = r.strings(root["emit"], "emit");
    for (size_t i = 0; i < cfg.emit.size(); ++i)
      if (cfg.emit[i] != "cuda" && cfg.emit[i] != "opencl") r.fail(root["emit"][i], "emit entries are cuda or opencl");
  }
  if (root["time_limit"]) cfg.timeLimitSeconds = double(r.integer(root["time_limit"], "time_limit", 1));
  if (root["recompute"]) cfg.recompute = r.boolean(root["recompute"], "recompute");
  if (root["stream"]) cfg.stream = r.boolean(root["stream"], "stream");
  if (root["column_tiles"]) cfg.columnTiles = r.boolean(root["column_tiles"], "column_tiles");
  if (root["stream_split"]) cfg.streamSplit = r.boolean(root["stream_split"], "stream_split");
  if (root["split_k"]) cfg.splitK = r.boolean(root["split_k"], "split_k");
  if (root["wide_fma_tiles"]) cfg.wideFmaTiles = r.boolean(root["wide_fma_tiles"], "wide_fma_tiles");
  if (root["read_through"]) cfg.readThrough = r.boolean(root["read_through"], "read_through");
  if (root["stages"]) {
    cfg.stages = int(r.integer(root["stages"], "stages", 1));
    if (cfg.stages > CostModel::kMaxContractionStages)
      r.fail(root["stages"], "stages is at most " + std::to_string(CostModel::kMaxContractionStages));
  }
  if (root["numerics"]) {  // one value, or a list to sweep
    const YAML::Node nn = root["numerics"];
    cfg.numerics.clear();
    auto take = [&](const YAML::Node& v) {
      const std::optional<Numerics> n = parseIn(kNumericsNames, r.str(v, "numerics"));
      if (!n) r.fail(v, std::string("numerics is ") + namesIn(kNumericsNames, " or "));
      if (std::find(cfg.numerics.begin(), cfg.numerics.end(), *n) == cfg.numerics.end()) cfg.numerics.push_back(*n);
    };
    if (!nn.IsSequence()) take(nn);
    else
      for (const YAML::Node& v : nn) take(v);
    if (cfg.numerics.empty()) r.fail(nn, "numerics sweeps no values");
  }
  if (root["validate"]) {
    cfg.validate = r.boolean(root["validate"], "validate");
    if (cfg.validate && !cfg.execute.enabled) r.fail(root["validate"], "validate needs an execute section (the backend and sizes to run on)");
  }
  if (root["validate_top"]) {
    cfg.validateTop = int(r.integer(root["validate_top"], "validate_top", 1));
    if (!cfg.validate) r.fail(root["validate_top"], "validate_top needs validate: true");
  }
  return cfg;
}

std::vector<Point> expandPoints(const ExperimentConfig& cfg) {
  std::vector<Point> out;
  std::set<std::string> ids;
  auto clean = [](std::string s) {
    for (auto& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    return s;
  };
  for (size_t p = 0; p < cfg.programs.size(); ++p)
    for (auto& sz : cfg.programs[p].sizes)
      for (size_t dev = 0; dev < cfg.devices.size(); ++dev)
        for (size_t w = 0; w < cfg.weights.size(); ++w)
          for (Numerics num : cfg.numerics)
          for (auto& st : cfg.strategies) {
            Point pt;
            pt.numerics = num;
            pt.index = int(out.size());
            pt.program = int(p);
            pt.sizes = sz;
            pt.strategy = st;
            pt.device = int(dev);
            pt.weights = int(w);
            std::string stem = std::filesystem::path(cfg.programs[p].path).stem().string();
            if (!cfg.programs[p].entry.empty()) stem += "-" + cfg.programs[p].entry;
            std::string sizes;
            for (auto& [k, v] : sz) sizes += "_" + k + std::to_string(v);
            pt.id = clean(stem + sizes + "_" + cfg.devices[dev].label +
                          (cfg.weights.size() > 1 ? "_" + cfg.weights[w].name : "") + "_" + st +
                          (cfg.numerics.size() > 1 ? std::string("_") + numericsName(num) : ""));
            // The same point listed twice (a size or a value repeated, 1 and 1.0) is one
            // point: its id names its result file, which two workers must not share.
            if (!ids.insert(pt.id).second) continue;
            pt.index = int(out.size());
            out.push_back(pt);
          }
  return out;
}

}  // namespace polyfuse

// polyfuse-fuzz: an in-process mutation fuzzer for polyfuse's input parsers.
//
//   polyfuse-fuzz TARGET --seconds S [--seed K] [--crashes DIR] CORPUS...
//
// TARGET is `tc` (lexer, parser, Sema, isl form and dependences, and at small sizes the
// cost model, search and code generation), `mlir` (the linalg importer, MLIR's parser
// and verifier under it, then the same later stages), `config` (the experiment YAML),
// `device` (the device YAML) or `plan` (a plan read back, `codegen --plan`, for
// examples/softmax.tc, then code generation). Each iteration mutates an input of the corpus (byte flips,
// insertions and deletions, splices with another input, tokens of the language) and
// feeds it to the target. The contract: the input is accepted, or refused with a user
// error (SourceError, UsageError). Anything else -- an internal error, an isl
// exception, a standard-library exception, or a sanitizer report -- is a bug: the input
// is saved under --crashes and the fuzzer exits 1. Deterministic for a given seed.
// Built with the sanitizers by `make check-sanitize`, which runs it briefly in CI.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/Emit.h"
#include "driver/ExperimentConfig.h"
#include "fusion/Device.h"
#include "fusion/PlanInput.h"
#include "fusion/Recompute.h"
#include "fusion/Search.h"
#include "polyir/DeepStack.h"
#include "polyir/Diagnostic.h"
#include "mlir/LoadProgram.h"
#include "polyir/Frontend.h"

namespace fs = std::filesystem;
using namespace polyfuse;

namespace {

const std::vector<std::string> kTcTokens = {
    "def ", "(", ")", "{", "}", ",", " -> ", "float", "double", "(N)", "(N, M)", " X", " Y", "(i)", "(i, j)", " = ",
    " +=! ", " += ", " max=! ", " min= ", " *=! ", " where ", " in ", "0:N", "1:N-1", "M:0", " + ", " - ", " * ", " / ",
    "exp(", "rsqrt(", "fmax(", "pow(", "sigmoid(", "#", "\n", "-", "2147483648", "4294967296", "0", "1", "j", "k",
    "int", "tid", "floor", "min", "exists", "pf_b0", "\t", "1e30", ".5", " ? ", " : ", " > ", " <= ", " == ",
    " != "};
const std::vector<std::string> kMlirTokens = {
    "%", "%x", "%e", "%r", "%0", " = ", ": f32", ": f64", ": i32", ": i1", ": index", "tensor<4xf32>", "tensor<?x4xf32>",
    "tensor<4x4xf16>", "tensor<4xi64>", "arith.addf ", "arith.mulf ", "arith.maximumf ", "arith.maxnumf ", "arith.truncf ",
    "arith.extf ", "arith.sitofp ", "arith.uitofp ", "arith.trunci ", "arith.index_cast ", "arith.cmpf ugt, ",
    "arith.cmpf one, ", "arith.cmpi ult, ", "arith.select ", "arith.divsi ", "arith.floordivsi ", "arith.constant ",
    "math.exp ", "math.fpowi ", "linalg.index 0 : index", "linalg.yield ", "linalg.fill ", "linalg.map { arith.addf } ",
    "linalg.softmax dimension(1) ", "tensor.empty() ", "tensor.extract ", "tensor.expand_shape ", "tensor.collapse_shape ",
    "affine_map<(d0, d1) -> (d0)>", "affine_map<(d0) -> (d0 floordiv 2)>", "[\"parallel\", \"reduction\"]",
    "ins(", "outs(", " -> ", "{", "}", "(", ")", "[", "]", "<", ">", ",", "\n", "^bb0(%a: f32, %o: f32):", "return ",
    "func.func @f(", "0xFF800000", "0x7FC00000", "-1", "2147483648", "1099511627777", "to f16", "to bf16", "to i8"};
const std::vector<std::string> kJsonTokens = {
    "{", "}", "[", "]", ",", ":", "\"S0\"", "\"S3\"", "\"S9\"", "\"i\"", "\"j\"", "\"k\"", "null", "true", "0", "1", "-1",
    "64", "4096", "2.5", "\"statements\": ", "\"recomputed\": ", "\"grid_dims\": ", "\"thread_dims\": ", "\"tile\": ",
    "\"split_chunks\": ", "\"streams\": [{}]", "\"numerics\": \"strict\"", "\"sizes\": ", "\"kernels\": ", "\"N\"", "\"M\""};
// The program the plan corpus is for (examples/softmax.tc).
const char* const kSoftmax =
    "def softmax(float(N, M) X) -> (Y) {\n  mx(i) max=! X(i, j)\n  e(i, j) = exp(X(i, j) - mx(i))\n"
    "  s(i) +=! e(i, j)\n  Y(i, j) = e(i, j) / s(i)\n}\n";
const std::vector<std::string> kYamlTokens = {
    "name: ", "programs:", "  - path: ", "    sizes: ", "[{N: 4, M: 4}]", "strategies: ", "[ilp, nofuse]", "devices: ",
    "[h100]", "execute:", "  backend: opencl", "  sizes: ", "  repeat: ", "emit: [cuda]", "weights:", "time_limit: ",
    "dram_gbps: ", "launch_us: ", "sm_count: ", "base: ", "- ", ": ", "{", "}", "[", "]", "\n", "  ", "-1", "0", "1e308",
    "nan", "~", "null", "&a", "*a", "!!str", "'", "\"", "#"};

std::string mutate(std::string s, const std::vector<std::string>& corpus, const std::vector<std::string>& tokens,
                   std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  int rounds = 1 + int(rng() % 8);
  for (int r = 0; r < rounds; ++r) {
    switch (rng() % 7) {
      case 0:  // flip a bit
        if (!s.empty()) s[pick(s.size())] ^= char(1 << (rng() % 8));
        break;
      case 1:  // delete a run
        if (!s.empty()) {
          size_t at = pick(s.size());
          s.erase(at, 1 + pick(std::min<size_t>(16, s.size() - at)));
        }
        break;
      case 2:  // insert a token
        s.insert(pick(s.size() + 1), tokens[pick(tokens.size())]);
        break;
      case 3:  // duplicate a run
        if (!s.empty()) {
          size_t at = pick(s.size()), len = 1 + pick(std::min<size_t>(64, s.size() - at));
          s.insert(pick(s.size() + 1), s.substr(at, len));
        }
        break;
      case 4: {  // splice with another input
        const std::string& o = corpus[pick(corpus.size())];
        if (!o.empty() && !s.empty()) s = s.substr(0, pick(s.size())) + o.substr(pick(o.size()));
        break;
      }
      case 5:  // replace a byte with an interesting one
        if (!s.empty()) s[pick(s.size())] = "\0\n\t 0129:-+#{}()[],'\"\xff"[pick(20)];
        break;
      default:  // replace a digit run with a large number
        for (size_t at = pick(s.size()); at < s.size(); ++at)
          if (std::isdigit(static_cast<unsigned char>(s[at]))) {
            size_t end = at;
            while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
            const char* big[] = {"0", "1099511627776", "9223372036854775807", "99999999999999999999", "-3"};
            s.replace(at, end - at, big[pick(5)]);
            break;
          }
    }
  }
  if (s.size() > 1 << 16) s.resize(1 << 16);
  return s;
}

// Front end (TC, or linalg through MLIR by the file's extension), then the later stages
// at small sizes.
void runProgram(const std::string& text, const std::string& path) {
  SourceFile src{path, text};
  LoadedProgram lp = loadProgramFile(src, "", std::make_shared<IslContext>());
  const Program& prog = *lp.program;
  if (prog.statements.size() > 12) return;  // the search's cost grows; the front end was the point
  Sizes sizes;
  int64_t v = 3;
  for (auto& n : prog.sizeParams) sizes[n] = (v += 2);
  FusionGraph fg(*lp.poly);
  CostModel cm(fg, sizes, loadDevice("h100"));
  SearchOptions opt;
  opt.strategy = Strategy::Ilp;
  Partition p = search(cm, opt);
  // As the driver does: a plan that recomputes a producer generates from the program
  // with its copies made explicit.
  if (auto copies = makeCopiesExplicit(cm, p)) {
    generate(copies->cm->graph().poly(), copies->plan, Dialect::OpenCL);
    generate(copies->cm->graph().poly(), copies->plan, Dialect::Cuda);
    return;
  }
  generate(*lp.poly, p, Dialect::OpenCL);
  generate(*lp.poly, p, Dialect::Cuda);
}

// A plan for softmax read back and generated, as `codegen --plan` does.
void runPlan(const std::string& text, const fs::path& scratch) {
  const nlohmann::json plan = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (plan.is_discarded()) throw UsageError("not JSON");  // the driver locates it (readJsonFile)
  SourceFile src{(scratch / "softmax.tc").string(), kSoftmax};
  LoadedProgram lp = loadProgramFile(src, "", std::make_shared<IslContext>());
  const PlanHeader h = readPlanHeader(*lp.program, plan, "plan.json");
  FusionGraph fg(*lp.poly);
  CostModel cm(fg, h.sizes, loadDevice(isDevicePreset(h.device) ? h.device : "h100"));
  cm.setStreams(h.streams);
  cm.setNumerics(h.numerics);
  Partition p = readPlan(cm, plan, h, "plan.json");
  if (auto copies = makeCopiesExplicit(cm, p)) {
    generate(copies->cm->graph().poly(), copies->plan, Dialect::Cuda);
    return;
  }
  generate(*lp.poly, p, Dialect::Cuda);
}

void runTarget(const std::string& target, const std::string& text, const fs::path& scratch) {
  fs::path file = scratch / (target == "tc" ? "input.tc" : target == "mlir" ? "input.mlir" : target == "plan" ? "input.json" : "input.yaml");
  {
    std::ofstream out(file, std::ios::binary);
    out << text;
  }
  if (target == "tc" || target == "mlir") runProgram(text, file.string());
  else if (target == "config") expandPoints(loadExperimentConfig(file.string()));
  else if (target == "plan") runPlan(text, scratch);
  else loadDevice(file.string());
}

int fuzz(int argc, char** argv) {
  std::string target;
  double seconds = 10;
  uint64_t seed = 1;
  fs::path crashes = "fuzz-crashes";
  std::vector<std::string> corpusPaths;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) seconds = std::stod(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
    else if (a == "--crashes" && i + 1 < argc) crashes = argv[++i];
    else if (target.empty()) target = a;
    else corpusPaths.push_back(a);
  }
  if ((target != "tc" && target != "mlir" && target != "config" && target != "device" && target != "plan") ||
      corpusPaths.empty()) {
    std::cerr << "usage: polyfuse-fuzz tc|mlir|config|device|plan --seconds S [--seed K] [--crashes DIR] CORPUS...\n";
    return 2;
  }
  std::vector<std::string> corpus;
  for (auto& p : corpusPaths) {
    std::vector<fs::path> files;
    if (fs::is_directory(p)) {
      // The mlir target reads a folder's .mlir files (test folders hold other inputs too).
      for (auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && (target != "mlir" || e.path().extension() == ".mlir")) files.push_back(e.path());
    } else {
      files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      corpus.push_back(ss.str());
    }
  }
  if (corpus.empty()) {
    std::cerr << "polyfuse-fuzz: the corpus is empty\n";
    return 2;
  }
  // The config target resolves program paths against the input's folder: run in a
  // scratch folder that holds the examples the corpus names.
  fs::path scratch = fs::temp_directory_path() / ("polyfuse-fuzz-" + std::to_string(getpid()));
  fs::create_directories(scratch);
  {  // the program the config corpus names
    std::ofstream prog(scratch / "prog.tc");
    prog << "def prog(float(N, M) X) -> (Y) {\n  s(i) +=! X(i, j)\n  Y(i, j) = X(i, j) / s(i)\n}\n";
  }
  std::mt19937_64 rng(seed);
  const auto& tokens = target == "tc" ? kTcTokens : target == "mlir" ? kMlirTokens : target == "plan" ? kJsonTokens : kYamlTokens;
  auto t0 = std::chrono::steady_clock::now();
  long runs = 0, accepted = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    std::string input = mutate(corpus[rng() % corpus.size()], corpus, tokens, rng);
    // Saved before the run: a sanitizer report aborts the process.
    fs::create_directories(crashes);
    fs::path last = crashes / ("last-input-" + target);
    {
      std::ofstream out(last, std::ios::binary);
      out << input;
    }
    ++runs;
    try {
      runTarget(target, input, scratch);
      ++accepted;
    } catch (const SourceError&) {
    } catch (const UsageError&) {
    } catch (const std::exception& e) {
      fs::path keep = crashes / (target + "-crash-" + std::to_string(runs));
      fs::copy_file(last, keep, fs::copy_options::overwrite_existing);
      std::cerr << "polyfuse-fuzz: " << target << ": run " << runs << ": " << e.what() << "\n  input: " << keep.string()
                << "\n";
      fs::remove_all(scratch);
      return 1;
    }
  }
  fs::remove(crashes / ("last-input-" + target));
  fs::remove_all(scratch);
  std::printf("polyfuse-fuzz %s: %ld runs in %.0f s, %ld accepted, %ld refused with a user error, no crash\n",
              target.c_str(), runs, seconds, accepted, runs - accepted);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return polyfuse::runOnDeepStack([&] { return fuzz(argc, argv); });
}

// The standalone CUDA harness: the generated kernels, run, timed and verified on a GPU.
#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "codegen/Emit.h"
#include "codegen/Lower.h"
#include "codegen/Names.h"

namespace polyfuse {

namespace {

// The interpreter's input stream in C: SplitMix64 seeded by seed ^ FNV-1a(name).
const char* kGenerator =
    "// The same input stream as polyfuse's interpreter: SplitMix64 seeded by seed ^ FNV-1a(name).\n"
    "static uint64_t fnv(const char* s) { uint64_t h = 1469598103934665603ull; for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull; return h; }\n"
    "static double next_uniform(uint64_t* st) { uint64_t z = (*st += 0x9E3779B97F4A7C15ull); z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;\n"
    "  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31; return (double)(z >> 11) * (1.0 / 9007199254740992.0); }\n\n";

// Host copies (h_) and device buffers (d_) of user names: prefixed, so they never meet
// the harness's own variables.
std::string host(const std::string& name) { return "h_" + cName(name); }
std::string dev(const std::string& name) { return "d_" + cName(name); }

// Host arrays h_<tensor> in double; inputs and scalars drawn as the interpreter draws them.
// write_npy(DIR, NAME, SHAPE, VALUES, N): a .npy file (format 1.0) of doubles: magic,
// header length, a dict padded to 64 bytes, the data. Used by the reference and the
// harness to hand outputs back element by element.
const char* kNpyWriter =
    "static void write_npy(const char* dir, const char* name, const char* shape, const double* v, long n) {\n"
    "  char path[4096], head[256];\n"
    "  snprintf(path, sizeof path, \"%s/%s.npy\", dir, name);\n"
    "  int len = snprintf(head, sizeof head, \"{'descr': '<f8', 'fortran_order': False, 'shape': %s, }\", shape);\n"
    "  while ((10 + len + 1) % 64) head[len++] = ' ';\n"
    "  head[len++] = '\\n';\n"
    "  FILE* f = fopen(path, \"wb\");\n"
    "  if (!f) { perror(path); exit(1); }\n"
    "  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(len & 255), (unsigned char)(len >> 8)};\n"
    "  if (fwrite(pre, 1, 10, f) != 10 || fwrite(head, 1, len, f) != (size_t)len || fwrite(v, sizeof(double), n, f) != (size_t)n"
    " || fclose(f) != 0) { perror(path); exit(1); }\n"
    "}\n\n";

// The shape of a tensor as a Python tuple: "(33, 129)", "(7,)".
std::string npyShape(const Tensor& T, const Sizes& sizes) {
  std::string shape = "(";
  for (auto& d : T.shape) shape += std::to_string(d.eval(sizes)) + ", ";
  if (T.shape.size() > 1) shape.resize(shape.size() - 2);
  return shape + ")";
}

void emitHostInputs(std::ostream& os, const Program& prog, const Sizes& sizes) {
  for (auto& t : prog.tensors) {
    int64_t n = t.elements(sizes);
    os << "  double* " << host(t.name) << " = (double*)calloc(" << n << ", sizeof(double));\n";
    if (t.role == TensorRole::Input && !t.values.empty()) {  // a constant of the source: its own elements
      os << "  { static const double v[] = {";
      for (size_t i = 0; i < t.values.size(); ++i) {
        const double x = t.values[i];
        os << (i ? ", " : "") << (std::isnan(x) ? "NAN" : std::isinf(x) ? (x < 0 ? "-INFINITY" : "INFINITY") : fmt::format("{}", x));
      }
      os << "}; for (long i = 0; i < " << n << "; ++i) " << host(t.name) << "[i] = "
         << (isNarrowFloat(t.type) ? referenceRounding(t.type, "v[i]")
                                   : (isInteger(t.type) ? "" : "(" + cTypeName(t.type, Dialect::C) + ")") + "(v[i])")
         << "; }\n";
    } else if (t.role == TensorRole::Input && isInteger(t.type)) {  // drawn as the interpreter draws them
      const Program::IntegerDraw r = prog.integerDraw(int(&t - prog.tensors.data()), sizes);
      os << "  { uint64_t st = seed ^ fnv(\"" << t.name << "\"); for (long i = 0; i < " << n << "; ++i) " << host(t.name)
         << "[i] = " << r.low << ".0 + floor(next_uniform(&st) * " << r.high - r.low << ".0); }\n";
    } else if (t.role == TensorRole::Input) {
      os << "  { uint64_t st = seed ^ fnv(\"" << t.name << "\"); for (long i = 0; i < " << n << "; ++i) " << host(t.name)
         << "[i] = "
         << (isNarrowFloat(t.type) ? referenceRounding(t.type, "2.0 * next_uniform(&st) - 1.0")
                                   : "(" + cTypeName(t.type, Dialect::C) + ")(2.0 * next_uniform(&st) - 1.0)")
         << "; }\n";
    }
  }
  for (auto& s : prog.scalars)
    os << "  double " << host(s.name) << "; { uint64_t st = seed ^ fnv(\"" << s.name << "\"); " << host(s.name)
       << " = 0.5 + next_uniform(&st); }\n";
}

void emitReferenceCall(std::ostream& os, const Program& prog) {
  os << "  " << referenceName(prog) << "(";
  std::vector<std::string> args;
  for (auto& t : prog.tensors) args.push_back(host(t.name));
  for (auto& s : prog.scalars) args.push_back(host(s.name));
  for (size_t a = 0; a < args.size(); ++a) os << (a ? ", " : "") << args[a];
  os << ");\n";
}

}  // namespace

std::string emitReferenceMain(const SizedProgram& at) {
  const Program& prog = at.program();
  std::ostringstream os;
  os << "// Runs reference.h on the interpreter's inputs and prints each output's sum; with a\n"
     << "// folder, also writes every output there as NAME.npy (float64), element by element.\n"
     << "// Build: cc -O2 reference_main.c -o reference -lm    Run: ./reference [seed] [DIR]\n"
     << "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
     << "#include \"reference.h\"\n\n"
     << kGenerator << kNpyWriter
     << "int main(int argc, char** argv) {\n"
     << "  const uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : 1;\n";
  const Sizes& sizes = at.sizes();
  emitHostInputs(os, prog, sizes);
  // The program's reference, as `exec --backend ref` computes it: no TF32 rounding of a plan's.
  os << "#ifdef PF_REF_TF32\n  pf_ref_tf32_on = 0;\n#endif\n";
  emitReferenceCall(os, prog);
  for (int t : prog.tensorsWithRole(TensorRole::Output)) {
    const Tensor& T = prog.tensors[t];
    const int64_t n = T.elements(sizes);
    const std::string shape = npyShape(T, sizes);
    os << "  { double s = 0; for (long i = 0; i < " << n << "; ++i) s += " << host(T.name) << "[i]; printf(\"" << T.name
       << " %.17g\\n\", s);\n"
       << "    if (argc > 2) write_npy(argv[2], \"" << T.name << "\", \"" << shape << "\", " << host(T.name) << ", " << n
       << "); }\n";
  }
  os << "  return 0;\n}\n";
  return os.str();
}

std::string emitCudaHarness(const Program& prog, const Partition& p, const GeneratedCode& code) {
  const SizedProgram at(prog, p.sizes);
  const Sizes& sizes = p.sizes;
  const std::string real = realType(prog);
  std::vector<int> globals = globalTensors(prog, p);
  std::ostringstream os;
  os << "// Standalone harness for program '" << prog.name << "' (strategy " << strategyName(p.strategy) << ").\n"
     << "// Build: nvcc -O3 -arch=sm_90 harness.cu -o harness    Run: ./harness [seed] [repeat] [DIR]\n"
     << "#include <cuda_runtime.h>\n#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
     << "#include <string.h>\n\n#include \"kernels.cu\"\n#include \"reference.h\"\n\n"
     << "#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, \"CUDA error %s at %s:%d\\n\", "
        "cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)\n\n"
     << kGenerator << kNpyWriter
     << "static int by_value(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return (x > y) - (x < y); }\n\n";
  os << "// Run: ./harness [seed] [repeat] [DIR]: with DIR, every output as the device computed it\n"
     << "// goes to DIR/NAME.npy (float64).\n";
  // Line by line: the timings survive a run stopped in its verification.
  os << "int main(int argc, char** argv) {\n"
     << "  setvbuf(stdout, NULL, _IOLBF, 0);\n"
     << "  const uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : 1;\n"
     << "  int repeat = argc > 2 ? atoi(argv[2]) : 20; if (repeat < 1) repeat = 1;\n"
     << "  int ndev = 0;\n"
     << "  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { fprintf(stderr, \"no CUDA device\\n\"); return 2; }\n";
  emitHostInputs(os, prog, sizes);
  for (int t : globals) {
    const Tensor& T = prog.tensors[t];
    int64_t n = T.elements(sizes);
    std::string ty = cTypeName(T.type, Dialect::Cuda);
    // Outputs and temporaries start at zero, as on every backend (docs/codegen.md).
    os << "  " << ty << "* " << dev(T.name) << "; CHECK(cudaMalloc(&" << dev(T.name) << ", " << n << " * sizeof(" << ty
       << "))); CHECK(cudaMemset(" << dev(T.name) << ", 0, " << n << " * sizeof(" << ty << ")));\n";
    const std::string toDevice = T.type == ElemType::Half ? "__double2half" : T.type == ElemType::BF16 ? "__double2bfloat16"
                                                                                                  : "(" + ty + ")";
    if (T.role == TensorRole::Input)
      os << "  { " << ty << "* tmp = (" << ty << "*)malloc(" << n << " * sizeof(" << ty << ")); for (long i = 0; i < " << n
         << "; ++i) tmp[i] = " << toDevice << "(" << host(T.name) << "[i]); CHECK(cudaMemcpy(" << dev(T.name) << ", tmp, " << n
         << " * sizeof(" << ty << "), cudaMemcpyHostToDevice)); free(tmp); }\n";
  }
  // Partial results of split reductions.
  for (auto& k : code.kernels)
    if (k.plan.partialElements > 0)
      os << "  " << real << "* d_pf_partial_k" << k.id << "; CHECK(cudaMalloc(&d_pf_partial_k" << k.id << ", "
         << k.plan.partialElements << " * sizeof(" << real << ")));\n";
  // Launches, each between events.
  os << "  const int nk = " << code.kernels.size() << ";\n"
     << "  cudaEvent_t ev[" << code.kernels.size() + 1 << "];\n"
     << "  for (int i = 0; i <= nk; ++i) CHECK(cudaEventCreate(&ev[i]));\n"
     << "  double ms[" << code.kernels.size() << "] = {0};\n"
     << "  const char* names[" << code.kernels.size() << "] = {";
  for (size_t i = 0; i < code.kernels.size(); ++i) os << (i ? ", " : "") << "\"" << code.kernels[i].name << "\"";
  os << "};\n  const double dram[" << code.kernels.size() << "] = {";
  for (size_t i = 0; i < code.kernels.size(); ++i) os << (i ? ", " : "") << code.kernels[i].plan.dramBytes << ".0";
  os << "};\n";
  for (auto& k : code.kernels)
    if (k.plan.launchSharedBytes() > KernelPlan::kStaticSharedBytes)
      os << "  CHECK(cudaFuncSetAttribute(" << k.name << ", cudaFuncAttributeMaxDynamicSharedMemorySize, " << k.plan.launchSharedBytes()
         << "));\n";
  // The plan's launches in order; a kernel's time runs from its first launch to the next kernel's.
  // Before each run, a write of twice the L2 evicts the previous run's data (nvbench's
  // flush); the median run and the spread are reported, as the OpenCL runner does.
  os << "  int l2 = 0; CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));\n"
     << "  const size_t flush_n = 2 * (size_t)(l2 > 0 ? l2 : 1 << 22); void* flush_buf; CHECK(cudaMalloc(&flush_buf, flush_n));\n"
     << "  double* run_ms = (double*)calloc(repeat > 0 ? repeat : 1, sizeof(double));\n"
     << "  for (int r = -1; r < repeat; ++r) {\n"
     << "    CHECK(cudaMemset(flush_buf, r & 0xff, flush_n));\n";
  for (const Launch& l : p.launches) {
    const KernelIR& k = code.kernels[l.kernel];
    std::vector<std::string> args;
    if (l.kind == LaunchKind::Kernel) {
      os << "    CHECK(cudaEventRecord(ev[" << l.kernel << "]));\n";
      os << "    " << k.name;
      for (int t : k.params) args.push_back(dev(prog.tensors[t].name));
      if (k.plan.partialElements > 0) args.push_back("d_pf_partial_k" + std::to_string(k.id));
      for (auto& s : prog.scalars) args.push_back("(" + real + ")" + host(s.name));
    } else {
      os << "    " << combineFunction(prog, k.id);
      for (int m : k.plan.splitMembers())
        args.push_back(dev(prog.tensors[prog.statements[k.plan.statements[size_t(m)]].write.tensor].name));
      args.push_back("d_pf_partial_k" + std::to_string(k.id));
    }
    os << "<<<" << l.blocks << ", " << l.threads;
    if (l.kind == LaunchKind::Kernel) os << ", " << l.sharedBytes;
    os << ">>>(";
    for (size_t a = 0; a < args.size(); ++a) os << (a ? ", " : "") << args[a];
    os << ");\n";
  }
  os << "    CHECK(cudaEventRecord(ev[nk]));\n"
     << "    CHECK(cudaEventSynchronize(ev[nk]));\n"
     << "    CHECK(cudaGetLastError());\n"
     << "    if (r >= 0) for (int i = 0; i < nk; ++i) { float t; CHECK(cudaEventElapsedTime(&t, ev[i], ev[i + 1])); ms[i] += t / repeat; run_ms[r] += t; }\n"
     << "  }\n"
     << "  cudaFree(flush_buf);\n"
     << "  qsort(run_ms, repeat, sizeof(double), by_value);\n"
     << "  const double run_median = repeat % 2 ? run_ms[repeat / 2] : (run_ms[repeat / 2 - 1] + run_ms[repeat / 2]) / 2;\n"
     << "  cudaDeviceProp prop; CHECK(cudaGetDeviceProperties(&prop, 0));\n";
  // Device-to-device copy of the lower bound's bytes: the achievable bandwidth.
  int64_t lb = at.lowerBoundBytes();
  os << "  double copy_ms = 0; { void *a, *b; size_t n = " << lb / 2 << "; CHECK(cudaMalloc(&a, n)); CHECK(cudaMalloc(&b, n));\n"
     << "    for (int r = -1; r < repeat; ++r) { CHECK(cudaEventRecord(ev[0])); CHECK(cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice));\n"
     << "      CHECK(cudaEventRecord(ev[1])); CHECK(cudaEventSynchronize(ev[1])); float t; CHECK(cudaEventElapsedTime(&t, ev[0], ev[1])); if (r >= 0) copy_ms += t / repeat; }\n"
     << "    cudaFree(a); cudaFree(b); }\n";
  os << "  double total = 0; for (int i = 0; i < nk; ++i) total += ms[i];\n"
     << "  printf(\"%-24s %12s %12s\\n\", \"kernel\", \"ms\", \"GB/s\");\n"
     << "  for (int i = 0; i < nk; ++i) printf(\"%-24s %12.4f %12.1f\\n\", names[i], ms[i], dram[i] / (ms[i] * 1e6));\n"
     << "  const double lb = " << lb << ".0;\n"
     << "  printf(\"%-24s %12.4f %12.1f  (lower-bound bytes / time)\\n\", \"total\", total, lb / (total * 1e6));\n"
     << "  printf(\"%-24s %12.4f %12.1f  (device-to-device copy of the same bytes)\\n\", \"copy\", copy_ms, lb / (copy_ms * 1e6));\n";
  // Verification against the reference. A TF32 plan's reference rounds its tensor cores'
  // operands (tf32Operands); it runs first without, so that what that rounding does to
  // these outputs is reported beside the verification, as OpenCLRunner reports it.
  const bool tf32 = !tf32Operands(prog, p).empty();
  if (tf32) {
    os << "  pf_ref_tf32_on = 0;\n";
    emitReferenceCall(os, prog);
    for (int t : prog.tensorsWithRole(TensorRole::Output)) {
      const std::string n = std::to_string(prog.tensors[size_t(t)].elements(sizes));
      os << "  double* unrounded_" << host(prog.tensors[size_t(t)].name) << " = (double*)malloc(" << n << " * sizeof(double)); memcpy(unrounded_"
         << host(prog.tensors[size_t(t)].name) << ", " << host(prog.tensors[size_t(t)].name) << ", " << n << " * sizeof(double));\n";
    }
    for (const Tensor& T : prog.tensors)  // every run starts from zeros, as the kernels' does
      if (T.role != TensorRole::Input) os << "  memset(" << host(T.name) << ", 0, " << T.elements(sizes) << " * sizeof(double));\n";
    os << "  pf_ref_tf32_on = 1;\n";
  }
  emitReferenceCall(os, prog);
  os << "  double worst = 0, tf32_effect = -1;\n  const double tol = " << verificationTolerance(prog, p) << ";\n";
  if (tf32) {
    os << "  tf32_effect = 0;\n";
    // Over the elements finite in both (the JSON line holds no infinity).
    for (int t : prog.tensorsWithRole(TensorRole::Output)) {
      const std::string h = host(prog.tensors[size_t(t)].name), n = std::to_string(prog.tensors[size_t(t)].elements(sizes));
      os << "  { double scale = 0, e = 0; for (long i = 0; i < " << n << "; ++i) if (isfinite(" << h << "[i])) scale = fmax(scale, fabs(" << h
         << "[i]));\n    for (long i = 0; i < " << n << "; ++i) { const double d = fabs(" << h << "[i] - unrounded_" << h
         << "[i]); if (isfinite(d) && d > e) e = d; }\n    const double r = scale > 0 ? e / scale : e; if (!(r <= tf32_effect)) tf32_effect = r; free(unrounded_"
         << h << "); }\n";
    }
  }
  for (int t : prog.tensorsWithRole(TensorRole::Output)) {
    const Tensor& T = prog.tensors[t];
    int64_t n = T.elements(sizes);
    std::string ty = cTypeName(T.type, Dialect::Cuda);
    os << "  { " << ty << "* got = (" << ty << "*)malloc(" << n << " * sizeof(" << ty << ")); CHECK(cudaMemcpy(got, " << dev(T.name)
       << ", " << n << " * sizeof(" << ty << "), cudaMemcpyDeviceToHost));\n"
       << "    double scale = 0; for (long i = 0; i < " << n << "; ++i) if (isfinite(" << host(T.name) << "[i])) scale = fmax(scale, fabs("
       << host(T.name) << "[i]));\n"
       // As OpenCLRunner's maxRelativeError: NaN meets only NaN, an infinity only itself.
       << "    for (long i = 0; i < " << n << "; ++i) { const double g = "
       << (T.type == ElemType::Half ? "__half2float(got[i])" : T.type == ElemType::BF16 ? "__bfloat162float(got[i])" : "got[i]")
       << ", r = " << host(T.name) << "[i];"
       << " const double e = (isnan(g) && isnan(r)) || g == r ? 0.0 : isfinite(g) && isfinite(r) ? fabs(g - r) / (scale > 0 ? scale : 1.0) : INFINITY;"
       << " if (!(e <= worst)) worst = e; }\n"
       << "    if (argc > 3) { double* d = (double*)malloc(" << n << " * sizeof(double)); for (long i = 0; i < " << n
       << "; ++i) d[i] = "
       << (T.type == ElemType::Half ? "__half2float(got[i])" : T.type == ElemType::BF16 ? "__bfloat162float(got[i])" : "got[i]")
       << "; write_npy(argv[3], \"" << T.name << "\", \"" << npyShape(T, sizes) << "\", d, " << n
       << "); free(d); }\n"
       << "    free(got); }\n";
  }
  os << "  if (tf32_effect >= 0)\n    printf(\"verified: %s (max_rel_error %.3g; reference with TF32 operands, whose rounding moves the outputs %.3g)\\n\",\n"
     << "           worst <= tol ? \"yes\" : \"NO\", worst, tf32_effect);\n"
     << "  else\n    printf(\"verified: %s (max_rel_error %.3g)\\n\", worst <= tol ? \"yes\" : \"NO\", worst);\n"
     << "  printf(\"JSON {\\\"program\\\": \\\"" << prog.name << "\\\", \\\"strategy\\\": \\\"" << strategyName(p.strategy)
     << "\\\", \\\"total_ms\\\": %.6f, \\\"run_median_ms\\\": %.6f, \\\"run_min_ms\\\": %.6f, \\\"run_max_ms\\\": %.6f, "
        "\\\"device\\\": \\\"%s, sm_%d%d, %d SMs\\\", \\\"flushed_bytes\\\": %zu, \\\"copy_ms\\\": %.6f, "
        "\\\"lower_bound_bytes\\\": %.0f, \\\"verified\\\": %s, \\\"max_rel_error\\\": %.3g, \\\"tf32_effect\\\": %.3g}\\n\",\n"
     << "         total, run_median, run_ms[0], run_ms[repeat - 1], prop.name, prop.major, prop.minor, prop.multiProcessorCount,"
        " flush_n, copy_ms, lb, worst <= tol ? \"true\" : \"false\", worst, tf32_effect);\n"
     << "  return worst <= tol ? 0 : 1;\n}\n";
  return os.str();
}

}  // namespace polyfuse

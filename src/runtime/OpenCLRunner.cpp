#define CL_TARGET_OPENCL_VERSION 120
#include "runtime/OpenCLRunner.h"

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

#include "codegen/Lower.h"
#include "polyir/Diagnostic.h"
#include "polyir/Float16.h"

namespace polyfuse {

// Normwise over the finite elements; NaN against NaN and an infinity against the same
// infinity agree, and any other NaN or infinity is an infinite error.
double maxRelativeError(const std::vector<double>& got, const std::vector<double>& ref) {
  double scale = 0, worst = 0;
  for (double r : ref)
    if (std::isfinite(r)) scale = std::max(scale, std::fabs(r));
  for (size_t i = 0; i < ref.size(); ++i) {
    const double g = got[i], r = ref[i];
    double e = std::fabs(g - r);
    if ((std::isnan(g) && std::isnan(r)) || g == r) e = 0;
    else if (!std::isfinite(g) || !std::isfinite(r)) e = INFINITY;
    if (!(e <= worst)) worst = e;
  }
  return scale > 0 ? worst / scale : worst;
}

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw InternalError(std::string("OpenCL: ") + what + " failed (error " + std::to_string(err) + ")");
}

// RAII for the handful of OpenCL objects a run needs.
struct ClState {
  cl_context ctx = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::vector<cl_kernel> kernels;
  std::vector<cl_mem> buffers;
  ~ClState() {
    for (auto b : buffers) if (b) clReleaseMemObject(b);
    for (auto k : kernels) if (k) clReleaseKernel(k);
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (ctx) clReleaseContext(ctx);
  }
};

// The events of one run, released however the run ends.
struct Events {
  std::vector<cl_event> list;
  ~Events() {
    for (auto e : list)
      if (e) clReleaseEvent(e);
  }
};

}  // namespace

void pinCpuThreads() {
  // Only where the user has not chosen: an explicit POCL_AFFINITY=0 stays.
  setenv("POCL_AFFINITY", "1", 0);
}

namespace {

struct FirstDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

FirstDevice firstDevice() {
  pinCpuThreads();
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0)
    throw UsageError("no OpenCL platform found (install pocl-opencl-icd for a CPU device)");
  std::vector<cl_platform_id> plats(np);
  clGetPlatformIDs(np, plats.data(), nullptr);
  FirstDevice f;
  for (auto p : plats)
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &f.device, nullptr) == CL_SUCCESS) {
      f.platform = p;
      break;
    }
  if (!f.device) throw UsageError("no OpenCL device found");
  return f;
}

std::string describe(const FirstDevice& f) {
  char buf[512] = {0};
  clGetPlatformInfo(f.platform, CL_PLATFORM_VERSION, sizeof buf - 1, buf, nullptr);
  // "OpenCL 3.0 PoCL 3.1+debian  Linux, ...": the implementation and its version.
  std::string version = buf, platform;
  size_t at = version.find("OpenCL ");
  if (at != std::string::npos) at = version.find(' ', at + 7);
  platform = at == std::string::npos ? version : version.substr(at + 1);
  platform = platform.substr(0, platform.find("  "));
  if (size_t comma = platform.find(','); comma != std::string::npos) platform.resize(comma);
  std::memset(buf, 0, sizeof buf);
  clGetDeviceInfo(f.device, CL_DEVICE_NAME, sizeof buf - 1, buf, nullptr);
  cl_uint units = 0;
  clGetDeviceInfo(f.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  const char* pinned = std::getenv("POCL_AFFINITY");
  return platform + ", " + buf + ", " + std::to_string(units) + " compute unit" + (units == 1 ? "" : "s") +
         (platform.rfind("PoCL", 0) == 0 && pinned && std::string(pinned) == "1" ? ", threads pinned" : "");
}

// Bytes written between timed runs: twice the last-level cache, within [4, 64] MiB
// (virtual machines report caches of hundreds of MiB that no single core sees).
size_t flushBytes() {
  long llc = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return std::clamp<size_t>(size_t(std::max(0L, llc)) * 2, size_t(4) << 20, size_t(64) << 20);
}

// The host buffer a CPU device's caches are flushed with: one a thread, kept for the
// process, in transparent huge pages where the kernel grants them (64 MiB in 4 KiB pages
// is 16,384 page faults, a fifth of a second in a virtual machine, at every run).
unsigned char* hostScratchBuffer(size_t bytes) {
  struct Mapping {
    void* at = MAP_FAILED;
    size_t size = 0;
    ~Mapping() {
      if (at != MAP_FAILED) ::munmap(at, size);
    }
  };
  thread_local Mapping m;
  if (m.size < bytes) {
    if (m.at != MAP_FAILED) ::munmap(m.at, m.size);
    m.size = bytes;
    m.at = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m.at == MAP_FAILED) throw std::bad_alloc();
    ::madvise(m.at, bytes, MADV_HUGEPAGE);
  }
  return static_cast<unsigned char*>(m.at);
}

// One context for the process, which each run retains. PoCL keeps its compiler's state
// per context, the kernel library (10 MB of bitcode) parsed at the first build among it:
// a context per run parsed it again for every plan, 0.8 s of CPU a run here, more than
// compiling a small plan. A forked child (an experiment's worker) makes its own, since
// PoCL's worker threads do not cross fork; the parent's handles are dropped unreleased.
struct ProcessOpenCL {
  std::mutex lock;
  cl_context context = nullptr;
  pid_t owner = 0;
  // The last programs built, by source and options: strategies often arrive at the same
  // kernels (ilp and maxfuse, greedy and iree-aggressive), and one exec, validate or
  // experiment worker runs them in turn.
  static constexpr size_t kKeptPrograms = 16;
  std::deque<std::pair<std::string, cl_program>> programs;
};

ProcessOpenCL& processState() {
  static ProcessOpenCL state;
  return state;
}

// Called with the state's lock held.
void ensureContext(ProcessOpenCL& state, cl_device_id dev) {
  if (!state.context || state.owner != ::getpid()) {
    cl_int err;
    state.programs.clear();
    state.context = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    state.owner = ::getpid();
  }
}

cl_context processContext(cl_device_id dev) {
  ProcessOpenCL& state = processState();
  std::lock_guard<std::mutex> hold(state.lock);
  ensureContext(state, dev);
  check(clRetainContext(state.context), "clRetainContext");
  return state.context;
}

// The kernels without the banner the file opens with (program, strategy, device, sizes):
// the code a plan runs is what follows, so plans that coincide share one build, in this
// process and in PoCL's disk cache (POCL_CACHE_DIR), which keys builds by source text.
std::string kernelsWithoutBanner(const std::string& source) {
  size_t at = 0;
  while (source.compare(at, 2, "//") == 0) {
    size_t eol = source.find('\n', at);
    if (eol == std::string::npos) return "";
    at = eol + 1;
  }
  return source.substr(at);
}

// A built program for the process's context, retained for the caller.
cl_program builtProgram(cl_device_id dev, const std::string& fullSource, const std::string& options) {
  const std::string source = kernelsWithoutBanner(fullSource);
  const std::string key = options + '\0' + source;
  ProcessOpenCL& state = processState();
  std::lock_guard<std::mutex> hold(state.lock);
  ensureContext(state, dev);
  for (auto& [k, program] : state.programs)
    if (k == key) {
      check(clRetainProgram(program), "clRetainProgram");
      return program;
    }
  cl_int err;
  const char* text = source.c_str();
  cl_program program = clCreateProgramWithSource(state.context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    size_t len = 0;
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
    std::string log(len, '\0');
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
    clReleaseProgram(program);
    throw InternalError("OpenCL build of the generated kernels failed:\n" + log);
  }
  if (state.programs.size() == ProcessOpenCL::kKeptPrograms) {
    clReleaseProgram(state.programs.front().second);
    state.programs.pop_front();
  }
  state.programs.emplace_back(key, program);
  check(clRetainProgram(program), "clRetainProgram");
  return program;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::string openclDeviceDescription() { return describe(firstDevice()); }

RunResult runOpenCL(const Program& prog, const Partition& p, const GeneratedCode& code, const Bindings& inputs,
                    int repeat, double tolerance) {
  const SizedProgram at(prog, p.sizes);
  RunResult res;
  // A TF32 plan's reference rounds what its tensor cores round, so that the code is held
  // to the numerics it was planned for; what that rounding itself does to the outputs at
  // these inputs is reported beside it, not added to the tolerance (a kernel that rounded
  // nothing would land there).
  const Tf32Reads tf32 = tf32Operands(prog, p);
  Bindings ref = inputs;
  interpret(prog, ref, Precision::Program, tf32);
  if (!tf32.empty()) {
    Bindings unrounded = inputs;
    interpret(prog, unrounded);
    res.tf32Effect = 0;
    for (int t : prog.tensorsWithRole(TensorRole::Output)) {
      const std::string& name = prog.tensors[size_t(t)].name;
      const double e = maxRelativeError(ref.tensors.at(name).values, unrounded.tensors.at(name).values);
      if (!(e <= res.tf32Effect)) res.tf32Effect = e;
    }
  }
  const FirstDevice first = firstDevice();
  cl_device_id dev = first.device;
  res.device = describe(first);
  ClState s;
  cl_int err;
  s.ctx = processContext(dev);
  s.queue = clCreateCommandQueue(s.ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  // Strict numerics: OpenCL lets a device divide and take square roots to 2.5 and 3 ulp
  // unless asked for IEEE's rounding (a float program's; a double's always rounds).
  s.program = builtProgram(dev, code.kernelSource,
                           p.numerics == Numerics::Strict ? "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"
                                                          : "-cl-std=CL1.2");
  // Global buffers in the tensors' element types.
  std::map<int, cl_mem> buf;
  // Whole words, at least one: a 4-byte fill pattern must divide the size (a 16-bit or
  // byte tensor of odd length), and OpenCL refuses an empty buffer.
  auto paddedBytes = [&](int t) { return (std::max<size_t>(size_t(at.tensorBytes(t)), 4) + 3) / 4 * 4; };
  for (size_t t = 0; t < prog.tensors.size(); ++t) {
    bool used = false;
    for (auto& k : code.kernels) used |= std::count(k.params.begin(), k.params.end(), int(t)) > 0;
    if (!used) continue;
    cl_mem m = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, paddedBytes(int(t)), nullptr, &err);
    check(err, "clCreateBuffer");
    s.buffers.push_back(m);
    buf[int(t)] = m;
  }
  // Every run starts from the same state: inputs uploaded, and outputs and
  // temporaries at zero, as on every backend (an element no statement writes reads 0).
  auto upload = [&]() {
    for (auto& [t, m] : buf) {
      const Tensor& T = prog.tensors[t];
      if (T.role != TensorRole::Input) {
        const cl_uint zero = 0;
        check(clEnqueueFillBuffer(s.queue, m, &zero, sizeof zero, 0, paddedBytes(t), 0, nullptr, nullptr),
              "clEnqueueFillBuffer");
        continue;
      }
      const auto& v = inputs.tensors.at(T.name).values;
      auto write = [&](const auto& data) {
        if (data.empty()) return;  // an empty tensor (OpenCL refuses a transfer of 0 bytes)
        check(clEnqueueWriteBuffer(s.queue, m, CL_TRUE, 0, data.size() * sizeof(data[0]), data.data(), 0, nullptr, nullptr),
              "write");
      };
      switch (T.type) {
        case ElemType::F32: write(std::vector<float>(v.begin(), v.end())); break;
        case ElemType::F64: write(v); break;
        case ElemType::I8: write(std::vector<int8_t>(v.begin(), v.end())); break;
        case ElemType::I16: write(std::vector<int16_t>(v.begin(), v.end())); break;
        case ElemType::I32: write(std::vector<int32_t>(v.begin(), v.end())); break;
        case ElemType::I64: write(std::vector<int64_t>(v.begin(), v.end())); break;
        case ElemType::Bool: write(std::vector<uint8_t>(v.begin(), v.end())); break;
        case ElemType::Half: case ElemType::BF16: {
          std::vector<uint16_t> bits(v.size());
          for (size_t i = 0; i < v.size(); ++i) bits[i] = T.type == ElemType::Half ? halfBits(v[i]) : bfloat16Bits(v[i]);
          write(bits);
          break;
        }
      }
    }
  };
  const size_t realBytes = size_t(elemBytes(prog.computeType()));
  // One OpenCL kernel object per launch, its arguments bound once.
  std::vector<cl_kernel> launchKernel;
  std::vector<cl_mem> partial(code.kernels.size(), nullptr);
  for (const Launch& l : p.launches) {
    const KernelIR& k = code.kernels[l.kernel];
    if (k.plan.partialElements > 0 && !partial[l.kernel]) {
      partial[l.kernel] = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, size_t(k.plan.partialElements) * realBytes, nullptr, &err);
      check(err, "clCreateBuffer");
      s.buffers.push_back(partial[l.kernel]);
    }
    const std::string fn = l.kind == LaunchKind::Kernel ? k.name : combineFunction(prog, k.id);
    cl_kernel kk = clCreateKernel(s.program, fn.c_str(), &err);
    check(err, "clCreateKernel");
    s.kernels.push_back(kk);
    launchKernel.push_back(kk);
    cl_uint arg = 0;
    if (l.kind == LaunchKind::Combine) {
      for (int m : k.plan.splitMembers()) {
        const int lhs = prog.statements[k.plan.statements[size_t(m)]].write.tensor;
        check(clSetKernelArg(kk, arg++, sizeof(cl_mem), &buf[lhs]), "clSetKernelArg");
      }
      check(clSetKernelArg(kk, arg++, sizeof(cl_mem), &partial[l.kernel]), "clSetKernelArg");
      continue;
    }
    for (int t : k.params) check(clSetKernelArg(kk, arg++, sizeof(cl_mem), &buf[t]), "clSetKernelArg");
    if (partial[l.kernel]) check(clSetKernelArg(kk, arg++, sizeof(cl_mem), &partial[l.kernel]), "clSetKernelArg");
    for (auto& sc : prog.scalars) {
      double v = inputs.scalars.at(sc.name);
      float f = float(v);
      check(realBytes == 4 ? clSetKernelArg(kk, arg++, sizeof f, &f) : clSetKernelArg(kk, arg++, sizeof v, &v),
            "clSetKernelArg");
    }
  }
  std::vector<std::vector<double>> kernelMs(code.kernels.size());
  std::vector<double> totals;
  // A CPU device's caches are the host's: a memset of a host buffer, allocated once a
  // process (its pages faulted in once), evicts them in milliseconds, where PoCL's fill
  // of a device buffer takes a tenth of a second. Another device gets a device fill.
  const size_t flush = flushBytes();
  cl_device_type type = 0;
  clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  const bool cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  cl_mem scratch = nullptr;
  unsigned char* hostScratch = nullptr;
  if (cpu) {
    hostScratch = hostScratchBuffer(flush);
  } else {
    scratch = clCreateBuffer(s.ctx, CL_MEM_READ_WRITE, flush, nullptr, &err);
    check(err, "clCreateBuffer");
    s.buffers.push_back(scratch);
  }
  res.flushedBytes = double(flush);
  // One untimed warm-up run: the first launch of a kernel pays the device's JIT.
  for (int r = -1; r < std::max(1, repeat); ++r) {
    upload();
    if (cpu) {
      std::memset(hostScratch, 0x5a ^ (r & 0xff), flush);
      volatile unsigned char sink = hostScratch[size_t(r + 1) * 4093 % flush];  // the stores are used
      (void)sink;
    } else {
      const cl_uint junk = 0x5a5a5a5au ^ cl_uint(r);
      check(clEnqueueFillBuffer(s.queue, scratch, &junk, sizeof junk, 0, flush, 0, nullptr, nullptr), "clEnqueueFillBuffer");
    }
    check(clFinish(s.queue), "clFinish");
    auto t0 = std::chrono::steady_clock::now();
    Events events;  // per launch, in order
    for (size_t i = 0; i < p.launches.size(); ++i) {
      const Launch& l = p.launches[i];
      size_t local = size_t(l.threads), global = size_t(l.blocks) * local;
      cl_event ev = nullptr;
      check(clEnqueueNDRangeKernel(s.queue, launchKernel[i], 1, nullptr, &global, &local, 0, nullptr, &ev), "launch");
      events.list.push_back(ev);
    }
    check(clFinish(s.queue), "clFinish");
    if (r < 0) continue;
    totals.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    std::vector<cl_ulong> start(code.kernels.size(), 0), end(code.kernels.size(), 0);
    std::vector<bool> seen(code.kernels.size(), false);
    for (size_t i = 0; i < p.launches.size(); ++i) {
      const int k = p.launches[i].kernel;
      cl_ulong a = 0, b = 0;
      clGetEventProfilingInfo(events.list[i], CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
      clGetEventProfilingInfo(events.list[i], CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
      if (!seen[k]) start[k] = a;
      seen[k] = true;
      end[k] = b;
    }
    for (size_t k = 0; k < code.kernels.size(); ++k) kernelMs[k].push_back(double(end[k] - start[k]) * 1e-6);
  }
  for (auto& v : kernelMs) res.kernelMs.push_back(median(v));
  res.runMs = totals;
  res.totalMs = median(totals);
  res.totalMinMs = totals.empty() ? 0 : *std::min_element(totals.begin(), totals.end());
  res.totalMaxMs = totals.empty() ? 0 : *std::max_element(totals.begin(), totals.end());
  // Compare every output with the interpreter (which ran first: it refuses an index
  // input that would send a gather out of bounds before any kernel reads with it).
  res.verified = true;
  for (int t : prog.tensorsWithRole(TensorRole::Output)) {
    const Tensor& T = prog.tensors[t];
    std::vector<double> got(size_t(at.tensorElements(t)));
    if (got.empty()) {  // an empty output: nothing to read (OpenCL refuses 0 bytes)
    } else if (T.type == ElemType::F32) {
      std::vector<float> f(got.size());
      check(clEnqueueReadBuffer(s.queue, buf[t], CL_TRUE, 0, f.size() * 4, f.data(), 0, nullptr, nullptr), "read");
      std::copy(f.begin(), f.end(), got.begin());
    } else if (isNarrowFloat(T.type)) {
      std::vector<uint16_t> bits(got.size());
      check(clEnqueueReadBuffer(s.queue, buf[t], CL_TRUE, 0, bits.size() * 2, bits.data(), 0, nullptr, nullptr), "read");
      for (size_t i = 0; i < bits.size(); ++i) got[i] = T.type == ElemType::Half ? halfValue(bits[i]) : bfloat16Value(bits[i]);
    } else {
      check(clEnqueueReadBuffer(s.queue, buf[t], CL_TRUE, 0, got.size() * 8, got.data(), 0, nullptr, nullptr), "read");
    }
    double e = maxRelativeError(got, ref.tensors.at(T.name).values);
    res.outputs[T.name] = TensorData{ref.tensors.at(T.name).shape, got};
    if (!(e <= res.maxRelError)) {
      res.maxRelError = e;
      res.worst = T.name;
    }
  }
  res.verified = res.maxRelError <= tolerance;
  return res;
}

}  // namespace polyfuse

#define CL_TARGET_OPENCL_VERSION 120
#include "runtime/Calibrate.h"

#include <CL/cl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/CudaTools.h"
#include "runtime/OpenCLRunner.h"
#include "runtime/Process.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

std::string Calibration::yaml(const std::string& name) const {
  std::ostringstream os;
  os << "# Measured by `polyfuse calibrate` on " << deviceName << ".\n"
     << "name: " << name << "\n"
     << fmt::format("dram_gbps: {:.1f}\nl2_gbps: {:.1f}\ntflops: {:.4f}\nlaunch_us: {:.2f}\n", dramGBps, l2GBps, tflops,
                    launchUs)
     << "sm_count: " << computeUnits << "\n"
     << "blocks_to_saturate: " << 2 * computeUnits << "\n"
     << fmt::format("l2_mb: {:.2f}\nonchip_kb_per_block: {:.0f}\n", cacheMB, localKB)
     << "threads_per_block: " << threadsPerBlock << "\n"
     << fmt::format("block_ns: {:.1f}\n", blockNs);
  if (barrierNs > 0 || reductionNs > 0) os << fmt::format("barrier_ns: {:.1f}\nreduction_ns: {:.1f}\n", barrierNs, reductionNs);
  if (pointNs > 0) os << fmt::format("point_ns: {:.3f}\n", pointNs);
  if (mathFlops > 0) os << fmt::format("math_flops: {:.1f}\n", mathFlops);
  // The spread, as comments: the model takes the medians.
  auto line = [&](const char* what, const Spread& s, const char* unit) {
    if (s.runs > 0)
      os << fmt::format("# {}: median {:.4g} {}, min {:.4g}, max {:.4g} over {} runs\n", what, s.median, unit, s.min, s.max,
                        s.runs);
  };
  if (dram.runs)
    os << fmt::format("# DRAM: a copy of {:.0f} MiB (beyond the cache); L2: {:.0f} KiB re-read (within it)\n",
                      double(dramWorkingSet) / (1 << 20), double(l2WorkingSet) / 1024);
  line("dram_gbps", dram, "GB/s");
  line("l2_gbps", l2, "GB/s");
  line("tflops", flops, "TFLOP/s");
  line("launch_us", launch, "us");
  line("block_ns", block, "ns");
  line("barrier_ns", barrier, "ns");
  line("reduction_ns", reduction, "ns");
  line("point_ns", point, "ns");
  line("exp rate", exps, "Gexp/s");
  return os.str();
}

namespace {

// pf_reread streams a working set that fits in the cache `reps` times inside one launch
// (a launch of PoCL costs hundreds of microseconds: a copy per launch of a cache-sized
// set measures the launch). pf_fma runs 8 independent chains of float8 multiply-adds per
// work-item, so that neither latency nor a dependence bounds it, in the vector types
// (PoCL does not vectorize this loop across work-items by itself).
const char* kKernels = R"(
__kernel void pf_copy(__global const float4* a, __global float4* b) { size_t i = get_global_id(0); b[i] = a[i]; }
__kernel void pf_empty(__global float* unused) { }
__kernel void pf_reread(__global const float16* a, __global float* out, uint mask, int reps) {
  const uint i = get_global_id(0), g = get_global_size(0);
  float16 acc0 = (float16)(0.0f), acc1 = (float16)(0.0f);
  for (int r = 0; r < reps; r += 2) {
    acc0 += a[(r * g + i) & mask];
    acc1 += a[((r + 1) * g + i) & mask];
  }
  const float16 t = acc0 + acc1;
  out[i] = t.s0 + t.s1 + t.s2 + t.s3 + t.s4 + t.s5 + t.s6 + t.s7 + t.s8 + t.s9 + t.sa + t.sb + t.sc + t.sd + t.se + t.sf;
}
__kernel void pf_exp(__global float* out, int iters) {
  float a0 = (float)get_global_id(0) * 1e-7f, a1 = a0 + 0.1f, a2 = a0 + 0.2f, a3 = a0 + 0.3f, a4 = a0 + 0.4f,
        a5 = a0 + 0.5f, a6 = a0 + 0.6f, a7 = a0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    a0 = exp(-a0); a1 = exp(-a1); a2 = exp(-a2); a3 = exp(-a3); a4 = exp(-a4); a5 = exp(-a5); a6 = exp(-a6); a7 = exp(-a7);
  }
  out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
__kernel void pf_points(__global float* y, __global const float* x, __global const float* row, int cols, int n) {
  const int t = get_local_id(0), threads = get_local_size(0), at = (get_group_id(0) & 7) * n;
  for (int p = t; p < n; p += threads) {
    const int i = p / cols, j = p % cols;
    y[at + p] = x[at + i * cols + j] - row[i];
  }
}
__kernel void pf_fma(__global float* out, int iters) {
  const float8 m = (float8)(0.999f), c = (float8)(0.001f);
  const float x = (float)get_global_id(0) * 1e-7f;
  float8 a0 = (float8)(x), a1 = a0 + 0.1f, a2 = a0 + 0.2f, a3 = a0 + 0.3f, a4 = a0 + 0.4f, a5 = a0 + 0.5f, a6 = a0 + 0.6f,
         a7 = a0 + 0.7f;
  for (int i = 0; i < iters; ++i) {
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  float8 t = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  out[get_global_id(0)] = t.s0 + t.s1 + t.s2 + t.s3 + t.s4 + t.s5 + t.s6 + t.s7;
}
)";
// Barriers and block reductions, kBarrierReps of each a work-group, written out (PoCL
// compiles a barrier inside a loop another way, slowly): pf_sync0 does the same local
// stores and loads without them. A reduction is codegen's OpenCL block reduction
// (Emit.cpp: two levels over local memory, four barriers); the loads it folds are
// `threads` apart so that nothing folds them at compile time.
constexpr int kBarrierReps = 16;
std::string syncKernels() {
  std::string src;
  for (int kind = 0; kind < 3; ++kind) {
    src += std::string("__kernel void ") + (kind == 0 ? "pf_sync0" : kind == 1 ? "pf_barriers" : "pf_reductions") +
           "(__global float* out, __global const float* in) {\n"
           "  __local float s[1024];\n"
           "  const int t = get_local_id(0), n = get_local_size(0);\n"
           "  float v = in[get_global_id(0)];\n";
    for (int r = 0; r < kBarrierReps; ++r) {
      if (kind == 0) src += "  s[t] = v; v += s[(t + 1) % n] * 0.5f;\n";
      if (kind == 1)
        src += "  s[t] = v; barrier(CLK_LOCAL_MEM_FENCE); v += s[(t + 1) % n] * 0.5f; barrier(CLK_LOCAL_MEM_FENCE);\n";
      if (kind == 2)
        src += "  s[t] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
               "  if (t < 32) { for (int i = t + 32; i < n; i += 32) v += s[i]; s[t] = v; }\n"
               "  barrier(CLK_LOCAL_MEM_FENCE);\n"
               "  if (t == 0) { for (int i = 1; i < 32 && i < n; ++i) v += s[i]; s[0] = v; }\n"
               "  barrier(CLK_LOCAL_MEM_FENCE);\n  v = s[0] * 0.5f;\n  barrier(CLK_LOCAL_MEM_FENCE);\n";
    }
    src += "  out[get_global_id(0)] = v;\n}\n";
  }
  return src;
}

void ok(cl_int e, const char* what) {
  if (e != CL_SUCCESS) throw InternalError(std::string("OpenCL calibration: ") + what + " failed (" + std::to_string(e) + ")");
}

}  // namespace

Calibration calibrateOpenCL() {
  pinCpuThreads();
  cl_platform_id plat;
  cl_uint np = 0;
  if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0) throw UsageError("no OpenCL platform found");
  cl_device_id dev;
  if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) throw UsageError("no OpenCL device found");
  Calibration c;
  char name[256] = {0};
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  c.deviceName = name;
  cl_uint cu = 0;
  size_t wg = 0;
  cl_ulong cache = 0, local = 0, maxAlloc = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, nullptr);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr);
  clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, nullptr);
  clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, nullptr);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxAlloc, &maxAlloc, nullptr);
  c.computeUnits = int(std::max<cl_uint>(1, cu));
  c.threadsPerBlock = int(std::min<size_t>(256, std::max<size_t>(32, wg)));
  // The cache in which re-reads hit, as the model's L2: what the device reports, else
  // the CPU's last level. Virtual machines report a host's whole L3 (hundreds of MiB no
  // guest core sees); past 256 MiB the private L2s, summed, are taken instead.
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const size_t perCore = size_t(l2 > 0 ? l2 : 256 << 10);
  if (cache == 0) cache = l3 > 0 && l3 <= (256l << 20) ? cl_ulong(l3) : cl_ulong(perCore) * std::max<cl_uint>(1, cu);
  c.cacheMB = double(std::max<cl_ulong>(cache, 1 << 20)) / 1e6;
  c.localKB = double(std::max<cl_ulong>(local, 16 << 10)) / 1024.0;
  cl_int e;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
  ok(e, "context");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  ok(e, "queue");
  const std::string sync = syncKernels();
  const char* sources[] = {kKernels, sync.c_str()};
  cl_program prog = clCreateProgramWithSource(ctx, 2, sources, nullptr, &e);
  ok(e, "program");
  ok(clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), "build");
  cl_kernel copy = clCreateKernel(prog, "pf_copy", &e), empty = clCreateKernel(prog, "pf_empty", &e),
            fma = clCreateKernel(prog, "pf_fma", &e), reread = clCreateKernel(prog, "pf_reread", &e),
            exps = clCreateKernel(prog, "pf_exp", &e), sync0 = clCreateKernel(prog, "pf_sync0", &e),
            barriers = clCreateKernel(prog, "pf_barriers", &e), reductions = clCreateKernel(prog, "pf_reductions", &e),
            points = clCreateKernel(prog, "pf_points", &e);
  ok(e, "kernels");
  auto seconds = [&](auto&& run, int reps) {
    run();
    clFinish(q);
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      run();
      clFinish(q);
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t;  // sorted seconds per run
  };
  // A rate `work / seconds` over the runs: median, and the spread (the slowest run gives
  // the lowest rate).
  auto rate = [](double work, const std::vector<double>& t) {
    return Spread{work / t[t.size() / 2], work / t.back(), work / t.front(), int(t.size())};
  };
  // DRAM: a copy far larger than the cache; L2: a copy that fits in a quarter of it.
  auto copyRate = [&](size_t bytes, int inner) {
    bytes = bytes / 16 * 16;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &e), b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &e);
    ok(e, "buffers");
    std::vector<float> fill(bytes / 4, 1.0f);
    clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, fill.data(), 0, nullptr, nullptr);
    clSetKernelArg(copy, 0, sizeof a, &a);
    clSetKernelArg(copy, 1, sizeof b, &b);
    size_t global = bytes / 16;
    auto t = seconds([&] {
      for (int i = 0; i < inner; ++i) clEnqueueNDRangeKernel(q, copy, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
    }, 7);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    return rate(2.0 * double(bytes) * inner / 1e9, t);
  };
  size_t big = size_t(std::min<cl_ulong>(maxAlloc / 2, 256ull << 20));
  big = std::max<size_t>(big, std::min<size_t>(size_t(cache) * 8, size_t(maxAlloc / 2)));
  // Separate working sets: DRAM beyond the cache; the cache level with a set every
  // compute unit re-reads whole, so it must fit in the smaller of a quarter of the cache
  // and half of one core's L2: a power of two, the kernel's index wraps with a mask.
  c.dramWorkingSet = 2 * (big / 16 * 16);
  c.dram = copyRate(big, 1);
  {
    size_t set = 64 << 10;
    while (set * 2 <= std::min(size_t(cache) / 4, perCore / 2)) set *= 2;
    c.l2WorkingSet = set;
    const cl_uint elements = cl_uint(set / 64), mask = elements - 1;  // float16s
    // Two work-groups a compute unit, so each sweeps the whole set (well past L1) and
    // the index moves with every step: no step reads what the last one did.
    const size_t local = 64, global = std::min<size_t>(elements / 4, local * 2 * size_t(c.computeUnits));
    const int reps = int(std::max<size_t>(64, (size_t(256) << 20) / 64 / global)) / 2 * 2;  // about 256 MiB a launch
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, set, nullptr, &e), out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, nullptr, &e);
    ok(e, "buffers");
    std::vector<float> fill(set / 4, 1.0f);
    clEnqueueWriteBuffer(q, a, CL_TRUE, 0, set, fill.data(), 0, nullptr, nullptr);
    clSetKernelArg(reread, 0, sizeof a, &a);
    clSetKernelArg(reread, 1, sizeof out, &out);
    clSetKernelArg(reread, 2, sizeof mask, &mask);
    clSetKernelArg(reread, 3, sizeof reps, &reps);
    auto t = seconds([&] { clEnqueueNDRangeKernel(q, reread, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 7);
    c.l2 = rate(double(global) * double(reps) * 64 / 1e9, t);
    clReleaseMemObject(a);
    clReleaseMemObject(out);
  }
  c.dramGBps = c.dram.median;
  c.l2GBps = std::max(c.dramGBps, c.l2.median);  // the model needs L2 at least as fast
  {
    cl_mem dummy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, nullptr, &e);
    clSetKernelArg(empty, 0, sizeof dummy, &dummy);
    size_t one = 1;
    const int n = 100;
    auto t = seconds([&] {
      for (int i = 0; i < n; ++i) {
        clEnqueueNDRangeKernel(q, empty, 1, nullptr, &one, nullptr, 0, nullptr, nullptr);
        clFinish(q);
      }
    }, 5);
    c.launch = {t[t.size() / 2] / n * 1e6, t.front() / n * 1e6, t.back() / n * 1e6, int(t.size())};
    c.launchUs = c.launch.median;
    // A block's start: one launch of many empty work-groups of 32, less the launch.
    const size_t groups = size_t(c.computeUnits) * 4096, local = 32, global = groups * local;
    auto g = seconds([&] { clEnqueueNDRangeKernel(q, empty, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 5);
    auto ns = [&](double s) { return std::max(0.0, s * 1e6 - c.launchUs) * 1e3 / (double(groups) / c.computeUnits); };
    c.block = {ns(g[g.size() / 2]), ns(g.front()), ns(g.back()), int(g.size())};
    c.blockNs = c.block.median;
    clReleaseMemObject(dummy);
  }
  {
    // A barrier, and a block reduction, in work-groups of the model's threads: each
    // kernel's time over the same work without them, per work-group a compute unit runs.
    const size_t local = size_t(c.threadsPerBlock), groups = size_t(c.computeUnits) * 512, global = groups * local;
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, nullptr, &e), out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, nullptr, &e);
    ok(e, "buffers");
    std::vector<float> fill(global, 1.0f);
    clEnqueueWriteBuffer(q, in, CL_TRUE, 0, global * 4, fill.data(), 0, nullptr, nullptr);
    auto time = [&](cl_kernel k) {
      clSetKernelArg(k, 0, sizeof out, &out);
      clSetKernelArg(k, 1, sizeof in, &in);
      return seconds([&] { clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 7);
    };
    const std::vector<double> base = time(sync0);
    auto each = [&](const std::vector<double>& t, int per) {
      auto ns = [&](double s) {
        return std::max(0.0, s - base[base.size() / 2]) * 1e9 / (double(groups) / c.computeUnits) / (per * kBarrierReps);
      };
      return Spread{ns(t[t.size() / 2]), ns(t.front()), ns(t.back()), int(t.size())};
    };
    c.barrier = each(time(barriers), 2);
    c.reduction = each(time(reductions), 1);
    c.barrierNs = c.barrier.median;
    c.reductionNs = c.reduction.median;
    clReleaseMemObject(in);
    clReleaseMemObject(out);
  }
  {
    // A point of a generated statement: each work-item of a group loops over the group's
    // points, its row and column by division (a block's runtime extent), a load, a row
    // value and a store, all in cache (eight groups' slices, reused), minus the groups' start.
    const int cols = 129, n = 64 * cols;
    const size_t local = size_t(c.threadsPerBlock), groups = size_t(c.computeUnits) * 256, global = groups * local;
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size_t(8 * n) * 4, nullptr, &e),
           y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size_t(8 * n) * 4, nullptr, &e),
           row = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, nullptr, &e);
    ok(e, "buffers");
    std::vector<float> fill(size_t(8 * n), 1.0f);
    clEnqueueWriteBuffer(q, x, CL_TRUE, 0, fill.size() * 4, fill.data(), 0, nullptr, nullptr);
    clEnqueueWriteBuffer(q, row, CL_TRUE, 0, 64 * 4, fill.data(), 0, nullptr, nullptr);
    clSetKernelArg(points, 0, sizeof y, &y);
    clSetKernelArg(points, 1, sizeof x, &x);
    clSetKernelArg(points, 2, sizeof row, &row);
    clSetKernelArg(points, 3, sizeof cols, &cols);
    clSetKernelArg(points, 4, sizeof n, &n);
    auto t = seconds([&] { clEnqueueNDRangeKernel(q, points, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 7);
    const double perUnit = double(groups) / c.computeUnits;
    auto ns = [&](double sec) { return std::max(0.0, sec * 1e9 - perUnit * c.blockNs) / (perUnit * n); };
    c.point = {ns(t[t.size() / 2]), ns(t.front()), ns(t.back()), int(t.size())};
    c.pointNs = c.point.median;
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseMemObject(row);
  }
  {
    size_t global = size_t(c.computeUnits) * 1024 * 4, local = 64;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 4, nullptr, &e);
    int iters = 4096;
    clSetKernelArg(fma, 0, sizeof out, &out);
    clSetKernelArg(fma, 1, sizeof iters, &iters);
    auto t = seconds([&] { clEnqueueNDRangeKernel(q, fma, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 5);
    c.flops = rate(double(global) * iters * 8 * 8 * 2 / 1e12, t);  // 8 chains of float8 multiply-adds
    c.tflops = c.flops.median;
    // Scalar exps in 8 independent chains a work-item, as generated code calls them.
    iters = 256;
    clSetKernelArg(exps, 0, sizeof out, &out);
    clSetKernelArg(exps, 1, sizeof iters, &iters);
    auto x = seconds([&] { clEnqueueNDRangeKernel(q, exps, 1, nullptr, &global, &local, 0, nullptr, nullptr); }, 5);
    c.exps = rate(double(global) * iters * 8 / 1e9, x);
    c.mathFlops = std::max(1.0, c.tflops * 1e3 / c.exps.median);
    clReleaseMemObject(out);
  }
  clReleaseKernel(copy);
  clReleaseKernel(empty);
  clReleaseKernel(fma);
  clReleaseKernel(reread);
  clReleaseKernel(exps);
  clReleaseKernel(sync0);
  clReleaseKernel(barriers);
  clReleaseKernel(reductions);
  clReleaseKernel(points);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return c;
}

Calibration calibrateCuda() {
  if (!hasCudaGpu())
    throw std::runtime_error("no CUDA GPU on this machine: calibrate --backend cuda needs one");
  std::string dir = (std::filesystem::temp_directory_path() / ("polyfuse-calib-" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/calib.cu") << R"(
#include <cstdio>
#include <cuda_runtime.h>
__global__ void copy(const float4* a, float4* b, size_t n) { size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) b[i] = a[i]; }
__global__ void empty() {}
__global__ void fmaloop(float* out, int iters) {
  float x = threadIdx.x * 1e-7f, y = 1.0001f, z = 0.9999f, w = 0.5f;
  for (int i = 0; i < iters; ++i) { x = fmaf(x, y, 0.5f); y = fmaf(y, z, -0.25f); z = fmaf(z, w, 0.125f); w = fmaf(w, x, -0.0625f); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y + z + w;
}
#include <algorithm>
#include <vector>
// Each rate over 7 runs: prints median, min and max.
static void spread(std::vector<double> v, double* out) {
  std::sort(v.begin(), v.end()); out[0] = v[v.size() / 2]; out[1] = v.front(); out[2] = v.back();
}
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); float ms;
  const int runs = 7;
  // DRAM: a copy far beyond L2; L2: a copy within a quarter of it (separate working sets).
  auto rate = [&](size_t bytes, int inner, double* out) {
    float4 *x, *y; cudaMalloc(&x, bytes); cudaMalloc(&y, bytes); size_t n = bytes / 16;
    copy<<<(n + 255) / 256, 256>>>(x, y, n);
    std::vector<double> r;
    for (int k = 0; k < runs; ++k) {
      cudaEventRecord(a);
      for (int i = 0; i < inner; ++i) copy<<<(n + 255) / 256, 256>>>(x, y, n);
      cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b);
      r.push_back(2.0 * bytes * inner / (ms * 1e-3) / 1e9);
    }
    cudaFree(x); cudaFree(y); spread(r, out); };
  double dram[3], l2[3], launch[3], tflops[3];
  rate(1ull << 30, 10, dram);
  rate(p.l2CacheSize / 4, 200, l2);
  empty<<<1, 1>>>(); cudaDeviceSynchronize();
  std::vector<double> r;
  for (int k = 0; k < runs; ++k) {
    cudaEventRecord(a);
    for (int i = 0; i < 1000; ++i) empty<<<1, 1>>>();
    cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b); r.push_back(ms * 1e3 / 1000);
  }
  spread(r, launch);
  // A block's start: one launch of many empty blocks of 32 threads, less the launch.
  const int waves = 4096;
  double block[3];
  r.clear();
  for (int k = 0; k < runs; ++k) {
    cudaEventRecord(a); empty<<<p.multiProcessorCount * waves, 32>>>();
    cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b);
    r.push_back(std::max(0.0, ms * 1e3 - launch[0]) * 1e3 / waves);
  }
  spread(r, block);
  float* o; int blocks = p.multiProcessorCount * 8, iters = 8192; cudaMalloc(&o, blocks * 256 * 4);
  fmaloop<<<blocks, 256>>>(o, iters);
  r.clear();
  for (int k = 0; k < runs; ++k) {
    cudaEventRecord(a); fmaloop<<<blocks, 256>>>(o, iters);
    cudaEventRecord(b); cudaEventSynchronize(b); cudaEventElapsedTime(&ms, a, b);
    r.push_back((double)blocks * 256 * iters * 8 / (ms * 1e-3) / 1e12);
  }
  spread(r, tflops);
  printf("%s\n%f %f %f %f %d %f %f\n", p.name, dram[0], l2[0], tflops[0], launch[0], p.multiProcessorCount,
         p.l2CacheSize / 1e6, p.sharedMemPerBlockOptin / 1024.0);
  printf("%f %f %f %f %f %f %f %f %d %zu %zu\n", dram[1], dram[2], l2[1], l2[2], tflops[1], tflops[2], launch[1],
         launch[2], runs, (size_t)2 << 30, (size_t)p.l2CacheSize / 2);
  printf("%f %f %f\n", block[0], block[1], block[2]);
  return 0;
}
)";
  std::string nvcc = nvccPath();
  if (nvcc.empty()) throw std::runtime_error("nvcc not found: calibrate --backend cuda needs the CUDA toolkit");
  if (runProcess({nvcc, "-O3", "-arch=native", dir + "/calib.cu", "-o", dir + "/calib"}, {"", dir + "/nvcc.log", "=stdout"}) != 0)
    throw InternalError("nvcc failed on the calibration program; see " + dir + "/nvcc.log");
  if (runProcess({dir + "/calib"}, {"", dir + "/out.txt", ""}) != 0) throw InternalError("the calibration program failed");
  std::ifstream in(dir + "/out.txt");
  Calibration c;
  std::getline(in, c.deviceName);
  in >> c.dramGBps >> c.l2GBps >> c.tflops >> c.launchUs >> c.computeUnits >> c.cacheMB >> c.localKB;
  int runs = 0;
  in >> c.dram.min >> c.dram.max >> c.l2.min >> c.l2.max >> c.flops.min >> c.flops.max >> c.launch.min >> c.launch.max >>
      runs >> c.dramWorkingSet >> c.l2WorkingSet;
  in >> c.block.median >> c.block.min >> c.block.max;
  if (!in) throw InternalError("the calibration program printed no spread");
  c.blockNs = c.block.median;
  c.block.runs = runs;
  c.dram.median = c.dramGBps, c.l2.median = c.l2GBps, c.flops.median = c.tflops, c.launch.median = c.launchUs;
  c.dram.runs = c.l2.runs = c.flops.runs = c.launch.runs = runs;
  return c;
}

}  // namespace polyfuse

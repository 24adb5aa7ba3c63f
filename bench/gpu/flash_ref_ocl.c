/* flash_ref.h on an OpenCL device (PoCL here): the same source as the CUDA baseline,
 * run at odd sizes and checked against float64, so that the baseline a GPU times is
 * known to compute attention (test/lit/exec/flash_ref.test).
 * Build: cc flash_ref_ocl.c -lOpenCL -lm -o flash_ref_ocl
 * Usage: flash_ref_ocl DIR S D      (DIR holds flash_ref.h); prints "verified: yes|NO ..." */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(cl_int e, const char* what) {
  if (e != CL_SUCCESS) { fprintf(stderr, "%s: OpenCL error %d\n", what, e); exit(1); }
}

int main(int argc, char** argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s DIR S D\n", argv[0]); return 2; }
  const int S = atoi(argv[2]), D = atoi(argv[3]);
  char path[4096];
  snprintf(path, sizeof path, "%s/flash_ref.h", argv[1]);
  FILE* f = fopen(path, "rb");
  if (!f) { perror(path); return 2; }
  static char body[1 << 16];
  const size_t n = fread(body, 1, sizeof body - 1, f);
  fclose(f);
  body[n] = 0;
  static char src[1 << 17];
  snprintf(src, sizeof src,
           "#define FR_D %d\n#define FR_BR 16\n#define FR_KERNEL __kernel\n#define FR_GLOBAL __global\n#define FR_SHARED __local\n"
           "#define FR_TID ((int)get_local_id(0))\n#define FR_BID ((int)get_group_id(0))\n"
           "#define FR_SYNC barrier(CLK_LOCAL_MEM_FENCE)\n#define FR_EXP exp\n%s",
           D, body);
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  check(clGetPlatformIDs(1, &plat, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(ctx, dev, 0, &err);
  check(err, "clCreateCommandQueue");
  const char* s = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "flash_ref", &err);
  check(err, "clCreateKernel");
  const size_t elems = (size_t)S * D, bytes = elems * sizeof(float);
  float *q = malloc(bytes), *kk = malloc(bytes), *v = malloc(bytes), *o = malloc(bytes);
  unsigned seed = 12345u;
  for (size_t i = 0; i < 3 * elems; ++i) {
    seed = seed * 1664525u + 1013904223u;
    const float x = (float)(seed >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    (i < elems ? q : i < 2 * elems ? kk : v)[i % elems] = x;
  }
  cl_mem dq = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, q, &err);
  check(err, "clCreateBuffer");
  cl_mem dk = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, kk, &err);
  check(err, "clCreateBuffer");
  cl_mem dv = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, v, &err);
  check(err, "clCreateBuffer");
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  check(err, "clCreateBuffer");
  const float scale = 1.0f / sqrtf((float)D);
  check(clSetKernelArg(k, 0, sizeof dq, &dq), "arg");
  check(clSetKernelArg(k, 1, sizeof dk, &dk), "arg");
  check(clSetKernelArg(k, 2, sizeof dv, &dv), "arg");
  check(clSetKernelArg(k, 3, sizeof dout, &dout), "arg");
  check(clSetKernelArg(k, 4, sizeof S, &S), "arg");
  check(clSetKernelArg(k, 5, sizeof S, &S), "arg");
  check(clSetKernelArg(k, 6, sizeof scale, &scale), "arg");
  const size_t rowsABlock = 16, local = 2 * rowsABlock;
  const size_t global = (S + rowsABlock - 1) / rowsABlock * local;
  check(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, bytes, o, 0, NULL, NULL), "clEnqueueReadBuffer");
  double worst = 0;
  int finite = 1;
  double* p = malloc(sizeof(double) * S);
  for (int i = 0; i < S; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < S; ++j) {
      double d = 0;
      for (int e = 0; e < D; ++e) d += (double)q[(size_t)i * D + e] * kk[(size_t)j * D + e];
      p[j] = d * scale;
      if (p[j] > mx) mx = p[j];
    }
    for (int j = 0; j < S; ++j) sum += p[j] = exp(p[j] - mx);
    for (int e = 0; e < D; ++e) {
      double ref = 0;
      for (int j = 0; j < S; ++j) ref += p[j] * v[(size_t)j * D + e];
      ref /= sum;
      const float got = o[(size_t)i * D + e];
      finite = finite && isfinite(got);
      const double rel = fabs(got - ref) / fmax(1e-3, fabs(ref));
      if (rel > worst) worst = rel;  /* NaN: caught by `finite` */
    }
  }
  printf("verified: %s (S=%d, D=%d, max_rel_error %.3g)\n", finite && worst < 1e-3 ? "yes" : "NO", S, D, worst);
  return finite && worst < 1e-3 ? 0 : 1;
}

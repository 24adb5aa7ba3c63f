// Where `exec` and experiments run a program.
#pragma once
#include "polyir/EnumNames.h"

namespace polyfuse {

// The reference interpreter itself, or the generated code through OpenCL or CUDA.
enum class Backend { Ref, OpenCL, Cuda };
inline constexpr EnumName<Backend> kBackendNames[] = {
    {Backend::Ref, "ref"}, {Backend::OpenCL, "opencl"}, {Backend::Cuda, "cuda"}};
inline const char* backendName(Backend b) { return nameIn(kBackendNames, b); }

}  // namespace polyfuse

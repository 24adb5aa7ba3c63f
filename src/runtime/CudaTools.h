// Where the CUDA toolchain and a GPU are, for the commands that compile or run CUDA.
#pragma once
#include <string>

namespace polyfuse {

// /usr/local/cuda/bin/nvcc, else nvcc on PATH, else empty.
std::string nvccPath();
// The ptxas beside that nvcc (the same toolkit), else empty.
std::string ptxasPath();
// Whether nvidia-smi sees a GPU.
bool hasCudaGpu();

}  // namespace polyfuse

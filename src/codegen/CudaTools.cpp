#include "codegen/CudaTools.h"

#include <cstdlib>
#include <filesystem>

namespace polyfuse {

std::string nvccPath() {
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return std::system("command -v nvcc > /dev/null 2>&1") == 0 ? "nvcc" : "";
}

bool hasCudaGpu() { return std::system("nvidia-smi -L > /dev/null 2>&1") == 0; }

}  // namespace polyfuse

#include "runtime/CudaTools.h"

#include <filesystem>

#include "runtime/Process.h"

namespace polyfuse {

std::string nvccPath() {
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return onPath("nvcc") ? "nvcc" : "";
}

bool hasCudaGpu() { return onPath("nvidia-smi") && runProcess({"nvidia-smi", "-L"}) == 0; }

}  // namespace polyfuse

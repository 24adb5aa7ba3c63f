#include "runtime/CudaTools.h"

#include <filesystem>

#include "runtime/Process.h"

namespace polyfuse {

std::string nvccPath() {
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return onPath("nvcc") ? "nvcc" : "";
}

std::string ptxasPath() {
  const std::string nvcc = nvccPath();
  if (nvcc.empty()) return "";
  if (nvcc == "nvcc") return onPath("ptxas") ? "ptxas" : "";
  const auto ptxas = std::filesystem::path(nvcc).parent_path() / "ptxas";
  return std::filesystem::exists(ptxas) ? ptxas.string() : "";
}

bool hasCudaGpu() { return onPath("nvidia-smi") && runProcess({"nvidia-smi", "-L"}) == 0; }

}  // namespace polyfuse

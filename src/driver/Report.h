// Results tables (CSV, JSON lines) and the self-contained report (Markdown and HTML
// with SVG figures written directly).
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "driver/ExperimentConfig.h"

namespace polyfuse {

void writeResults(const ExperimentConfig& cfg, const std::vector<nlohmann::ordered_json>& results,
                  const std::filesystem::path& out);

}  // namespace polyfuse

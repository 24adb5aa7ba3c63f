// `polyfuse inspect DIR`: per generated CUDA kernel, registers, shared memory and
// spills (from ptxas), the statements with their source lines, and per point the
// explanation of every fusion decision.
#pragma once
#include <ostream>
#include <string>

namespace polyfuse {

int inspect(std::ostream& os, const std::string& dir, const std::string& point, const std::string& arch);

}  // namespace polyfuse

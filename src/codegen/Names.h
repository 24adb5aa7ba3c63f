// Spellings of the program's names in generated C, CUDA C and OpenCL C.
//
// User names share a namespace with the languages' keywords, the headers the harness
// includes, the builtins the kernels call and polyfuse's own variables. Every name
// polyfuse generates for itself starts with `pf_`; a user name is kept as written
// unless it could collide with any of those, in which case it becomes `pf_u_<name>`.
// The mapping is injective (a kept name never starts with `pf_`), so two user names
// never meet in one generated identifier.
#pragma once
#include <string>

namespace polyfuse {

// The identifier that stands for a user tensor, scalar, index or program name.
std::string cName(const std::string& name);

}  // namespace polyfuse

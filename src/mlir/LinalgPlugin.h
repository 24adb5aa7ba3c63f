// The linalg front end as a loadable module. MLIR and LLVM are two shared libraries of
// 190 MB whose relocation costs every process 80 ms at start, 90% of a `polyfuse check`
// on a TC file; the command loads them only when it reads a .mlir file. The command
// links LinalgPlugin.cpp, which finds the module beside it; the Python module, the unit
// tests and the fuzzer link the importer itself.
#pragma once
#include <string>

namespace polyfuse {

struct LinalgImport;
struct SourceFile;

// The one symbol the module exports. Located problems propagate as the exceptions
// importLinalg throws (SourceError, UsageError, InternalError).
using LinalgImportEntry = void (*)(const SourceFile& src, const std::string& entry, LinalgImport& out);
inline constexpr const char* kLinalgImportSymbol = "polyfuse_import_linalg";
// Which build the module comes from: the command refuses a module of another commit.
using LinalgBuildEntry = const char* (*)();
inline constexpr const char* kLinalgBuildSymbol = "polyfuse_linalg_build";

}  // namespace polyfuse

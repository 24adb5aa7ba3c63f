// importLinalg for the `polyfuse` command: the importer lives in libpolyfuse-linalg.so,
// loaded at the first .mlir file (LinalgPlugin.h says why).
#include "mlir/LinalgPlugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <mutex>
#include <string>

#include "mlir/LinalgImport.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

// Beside the command as `make` builds it and as `make install` lays it out:
// BIN/polyfuse and BIN/../lib/polyfuse/libpolyfuse-linalg.so.
std::string modulePath() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw UsageError("cannot find the polyfuse command's folder (/proc/self/exe): " + ec.message());
  return (exe.parent_path().parent_path() / "lib" / "polyfuse" / "libpolyfuse-linalg.so").string();
}

LinalgImportEntry loadEntry() {
  std::string path = modulePath();
  // RTLD_LOCAL: MLIR's and LLVM's symbols stay out of the command's scope.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw UsageError("cannot load the linalg front end, which reads .mlir files: " + std::string(dlerror()) +
                     " (it is built and installed with the command: make, make install)");
  auto build = reinterpret_cast<LinalgBuildEntry>(dlsym(handle, kLinalgBuildSymbol));
  auto entry = reinterpret_cast<LinalgImportEntry>(dlsym(handle, kLinalgImportSymbol));
  if (!build || !entry) throw UsageError(path + " is not polyfuse's linalg front end: its entry points are missing");
  if (std::string(build()) != POLYFUSE_BUILD_ID)
    throw UsageError(path + " comes from another build of polyfuse (" + build() + ", the command is " +
                     POLYFUSE_BUILD_ID + "): build or install both again");
  return entry;  // never unloaded: the trees it builds keep its code in use
}

}  // namespace

LinalgImport importLinalg(const SourceFile& src, const std::string& entry) {
  static std::once_flag once;
  static LinalgImportEntry importer = nullptr;
  static std::exception_ptr failure;
  std::call_once(once, [] {
    try {
      importer = loadEntry();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  LinalgImport out;
  importer(src, entry, out);
  return out;
}

}  // namespace polyfuse

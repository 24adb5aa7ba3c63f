// The entry points of libpolyfuse-linalg.so (LinalgPlugin.h), the only symbols it exports.
#include <string>

#include "mlir/LinalgImport.h"
#include "mlir/LinalgPlugin.h"

extern "C" __attribute__((visibility("default"))) void polyfuse_import_linalg(const polyfuse::SourceFile& src,
                                                                              const std::string& entry,
                                                                              polyfuse::LinalgImport& out) {
  out = polyfuse::importLinalg(src, entry);
}

extern "C" __attribute__((visibility("default"))) const char* polyfuse_linalg_build() { return POLYFUSE_BUILD_ID; }

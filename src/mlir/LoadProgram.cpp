#include "mlir/LoadProgram.h"

#include "mlir/LinalgImport.h"

namespace polyfuse {

bool isMlirPath(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".mlir") == 0;
}

LoadedProgram loadProgramFile(const SourceFile& src, const std::string& entry, IslContextPtr ctx,
                              const FrontEndOptions& options) {
  if (!isMlirPath(src.path)) return loadProgram(src, entry, std::move(ctx), options);
  LinalgImport imported = importLinalg(src, entry);
  LoadedProgram lp;
  lp.source = src;
  lp.notes = std::move(imported.notes);
  lp.program = checkedProgram(imported.def, lp.notes, options);
  lp.poly = std::make_unique<PolyProgram>(*lp.program, std::move(ctx));
  return lp;
}

}  // namespace polyfuse

// One entry point for every program file the commands take: `.mlir` through the linalg
// front end, anything else through the TC one. Both end in the same checked Program.
#pragma once
#include <string>

#include "polyir/Frontend.h"

namespace polyfuse {

bool isMlirPath(const std::string& path);

// As loadProgram; `entry` names a TC definition or an MLIR function. Notes of the
// importer (upgraded spellings, may-reads) are in LoadedProgram::notes.
LoadedProgram loadProgramFile(const SourceFile& src, const std::string& entry, IslContextPtr ctx,
                              const FrontEndOptions& options = {});

}  // namespace polyfuse

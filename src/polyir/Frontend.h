// From a .tc file on disk to a checked Program and its isl form.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "polyir/PolyProgram.h"
#include "polyir/Program.h"

namespace polyfuse {

struct SourceFile {
  std::string path;
  std::string text;
};

// Reads a file; throws UsageError when it cannot be read.
SourceFile readSource(const std::string& path);

// Everything the later stages need, owned in one place. The Program must outlive
// the PolyProgram that refers to it, hence the fixed member order.
struct LoadedProgram {
  SourceFile source;
  std::unique_ptr<Program> program;
  std::unique_ptr<PolyProgram> poly;
  std::vector<std::string> notes;  // what the front end did that the user should know
};

// What the front end rewrites, beyond reading the program.
struct FrontEndOptions {
  // Copies read through (polyir/ConstantTensors.h, readThroughCopies); --keep-copies.
  bool readThroughCopies = true;
};

// Sema's program of `def`, its constant tensors read as their values and its copies read
// through (polyir/ConstantTensors.h), with a note naming them.
std::unique_ptr<Program> checkedProgram(const DefDecl& def, std::vector<std::string>& notes,
                                        const FrontEndOptions& options = {});

// Parses, checks and builds the isl form of the entry `entry` (default: the first
// definition). Throws SourceError for problems in the file.
LoadedProgram loadProgram(const SourceFile& src, const std::string& entry, IslContextPtr ctx,
                          const FrontEndOptions& options = {});

}  // namespace polyfuse

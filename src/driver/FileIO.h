// Writing result files so that nothing is lost: a file appears whole, with what was
// written checked and synced, or the old file stays as it was.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>

namespace polyfuse {

// A file that could not be written whole (disk full, read-only folder). Not the input's
// fault, so the driver exits 1, not 2.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `text` to a temporary name beside `path` (unique to the process), checks every write, fsyncs, then
// renames over `path`. On any failure the temporary is removed, `path` is untouched,
// and WriteError says what failed.
void writeAtomically(const std::filesystem::path& path, const std::string& text);

// The whole of a file's bytes; empty where it cannot be read (a result not yet written).
std::string readWhole(const std::filesystem::path& path);

}  // namespace polyfuse

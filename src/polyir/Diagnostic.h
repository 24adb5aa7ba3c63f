// Located errors. Every user-facing failure in the front end is a SourceError that
// carries the position it refers to; the driver renders it with the source line.
#pragma once
#include <stdexcept>
#include <string>

namespace polyfuse {

struct SourceLoc {
  int line = 0;  // 1-based; 0 means "no position"
  int col = 0;   // 1-based
};

class SourceError : public std::runtime_error {
 public:
  SourceError(SourceLoc loc, const std::string& msg) : std::runtime_error(msg), loc_(loc) {}
  SourceLoc loc() const { return loc_; }

 private:
  SourceLoc loc_;
};

// Bad input that is not tied to a source position (sizes on the command line, files).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A broken invariant inside polyfuse (never the user's fault).
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `FILE:LINE:COL: message` followed by the source line and a caret under the column.
std::string formatSourceError(const std::string& file, const std::string& source,
                              const SourceError& err);

}  // namespace polyfuse

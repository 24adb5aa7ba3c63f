// IREE's program boundary, read as the plain function it stands for. IREE's input and
// its test files wrap a linalg computation in ops of its own dialects (util, hal, check,
// flow), which Debian's MLIR cannot parse. Their meaning at the boundary is simple: a
// buffer view imported is an argument of the tensor type it names, one exported is a
// result, an optimization barrier is the value itself, an unfoldable constant is a
// constant, and a checked value (IREE's e2e tests: check.expect_*) is what the function
// computes. The text is rewritten line by line before parsing, so messages keep the
// user's line numbers.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the rewritten text; appends one note naming what was read as what.
std::string readIreeBoundary(const std::string& text, std::vector<std::string>& notes);

}  // namespace polyfuse

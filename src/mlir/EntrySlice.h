// The entry function and what it calls, read apart from the rest of its file. Test files
// (IREE's e2e suites, tpp-mlir's integration tests) hold many independent functions, and
// one written in ops MLIR 19 cannot parse (a dialect it lacks, a type it does not know)
// would otherwise stop every function of the file. A function that the entry does not
// reach through a symbol reference cannot change what the entry computes, so its text is
// left out before parsing (blank lines in its place, so messages keep their line numbers).
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// `entry` empty chooses as the importer does: the first public function with a body.
// Returns the text with the unreachable functions blanked; appends one note when any were.
// The text is returned as it is when its functions cannot be told apart with certainty.
std::string readEntryOnly(const std::string& text, const std::string& entry, std::vector<std::string>& notes);

// A split test file (`// -----` alone on the lines between its cases, which mlir-opt
// -split-input-file reads as separate modules, each with its own aliases and names): the
// section that defines the entry, the others blanked; one note when any were. The text as
// it is when the file has no split or no section defines the entry.
std::string readEntrySection(const std::string& text, const std::string& entry, std::vector<std::string>& notes);

}  // namespace polyfuse

// Running a tool: an argument vector handed to exec, never a line for a shell, so no
// folder name, file name or option value is ever read as shell syntax.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

struct ProcessOptions {
  std::string cwd;         // run there; empty: here
  std::string stdoutFile;  // where its standard output goes; empty: /dev/null
  std::string stderrFile;  // its standard error; empty: /dev/null; "=stdout": with its output
};

// Runs argv[0] (found on PATH unless it has a '/') with `argv`; its exit status, or 128 +
// the signal that ended it, or 127 when it could not be started.
int runProcess(const std::vector<std::string>& argv, const ProcessOptions& opts = {});

// Whether `program` is an executable on PATH (or a path to one).
bool onPath(const std::string& program);

}  // namespace polyfuse

// Shared fixtures for unit tests: load a program from text or from examples/.
#pragma once
#include <string>

#include "polyir/Frontend.h"

namespace polyfuse::test {

inline LoadedProgram load(const std::string& text) {
  return loadProgram({"<test>", text}, "", std::make_shared<IslContext>());
}

inline LoadedProgram loadExample(const std::string& name) {
  return loadProgram(readSource(std::string(POLYFUSE_EXAMPLES) + "/" + name), "", std::make_shared<IslContext>());
}

// The message and position of the SourceError that loading `text` throws.
struct Failure {
  std::string message;
  int line = 0, col = 0;
};
// The same for any front end: `load` loads a program.
template <class Load>
Failure failureOf(Load&& load) {
  try {
    load();
  } catch (const SourceError& e) {
    return {e.what(), e.loc().line, e.loc().col};
  }
  return {"<no error>", 0, 0};
}
inline Failure failure(const std::string& text) {
  return failureOf([&] { load(text); });
}

}  // namespace polyfuse::test

#include "polyir/Frontend.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "polyir/ConstantTensors.h"
#include "polyir/Parser.h"

namespace polyfuse {

SourceFile readSource(const std::string& path) {
  struct stat sb;
  if (stat(path.c_str(), &sb) != 0) throw UsageError("cannot read '" + path + "': no such file");
  if (S_ISDIR(sb.st_mode)) throw UsageError("cannot read '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return {path, ss.str()};
}

std::unique_ptr<Program> checkedProgram(const DefDecl& def, std::vector<std::string>& notes) {
  auto prog = std::make_unique<Program>(analyze(def));
  const std::vector<std::string> inlined = inlineConstantTensors(*prog);
  if (!inlined.empty()) {
    std::string names;
    for (size_t k = 0; k < inlined.size() && k < 8; ++k) names += (k ? ", " : "") + inlined[k];
    if (inlined.size() > 8) names += ", ...";
    notes.push_back(std::to_string(inlined.size()) + " constant tensor(s) read as their value where used (" + names +
                    "): each is written once, everywhere, from no other tensor");
  }
  return prog;
}

LoadedProgram loadProgram(const SourceFile& src, const std::string& entry, IslContextPtr ctx) {
  if (src.text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw SourceError({1, 1}, "file is empty: expected a 'def'");
  std::vector<DefDecl> defs = parseFile(src.text);
  const DefDecl* chosen = nullptr;
  for (auto& d : defs) {
    for (auto& e : defs)
      if (&e != &d && e.name == d.name && &e > &d) throw SourceError(e.loc, "duplicate definition '" + e.name + "'");
    if (entry.empty() ? chosen == nullptr : d.name == entry) chosen = chosen ? chosen : &d;
  }
  if (!chosen) {
    std::string names;
    for (auto& d : defs) names += (names.empty() ? "" : ", ") + d.name;
    throw UsageError("no definition named '" + entry + "' in " + src.path + " (it has: " + names + ")");
  }
  LoadedProgram lp;
  lp.source = src;
  lp.program = checkedProgram(*chosen, lp.notes);
  lp.poly = std::make_unique<PolyProgram>(*lp.program, std::move(ctx));
  return lp;
}

}  // namespace polyfuse

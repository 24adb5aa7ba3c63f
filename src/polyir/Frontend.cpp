#include "polyir/Frontend.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "polyir/CollapseLoops.h"
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

// "N <what> (a, b, ...): <why>", naming at most 8, or nothing when none.
static void noteRemoved(std::vector<std::string>& notes, const std::vector<std::string>& names, const std::string& what,
                        const std::string& why) {
  if (names.empty()) return;
  std::string list;
  for (size_t k = 0; k < names.size() && k < 8; ++k) list += (k ? ", " : "") + names[k];
  if (names.size() > 8) list += ", ...";
  notes.push_back(std::to_string(names.size()) + " " + what + " (" + list + "): " + why);
}

std::unique_ptr<Program> checkedProgram(const DefDecl& def, std::vector<std::string>& notes,
                                        const FrontEndOptions& options) {
  auto prog = std::make_unique<Program>(analyze(def));
  noteRemoved(notes, inlineConstantTensors(*prog), "constant tensor(s) read as their value where used",
              "each is written once, everywhere, from no other tensor");
  noteRemoved(notes, mergeCommonTensors(*prog), "tensor(s) computed again read where first computed",
              "each is what an earlier statement computes, from the same values");
  if (options.readThroughCopies)
    noteRemoved(notes, readThroughCopies(*prog), "copied tensor(s) read through to what they copy",
                "each is a permutation, broadcast, slice or gather of another, written once, everywhere (--keep-copies keeps them)");
  for (const std::string& c : collapseReductionLoops(*prog))
    notes.push_back("reduction loops collapsed, " + c + ": every access reads them as one row-major index");
  return prog;
}

LoadedProgram loadProgram(const SourceFile& src, const std::string& entry, IslContextPtr ctx,
                          const FrontEndOptions& options) {
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
  lp.program = checkedProgram(*chosen, lp.notes, options);
  lp.poly = std::make_unique<PolyProgram>(*lp.program, std::move(ctx));
  return lp;
}

}  // namespace polyfuse

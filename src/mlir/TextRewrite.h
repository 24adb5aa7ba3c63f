// Rewriting ops of dialects MLIR 19 does not register (IREE's linalg_ext) into the linalg
// they mean, in a file's text before MLIR parses it: finding an op's operands, region and
// result types, and replacing each match while the lines after it keep their numbers.
#pragma once
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "mlir/MlirText.h"

namespace polyfuse::mlir_text {

// `text` with every use of the SSA value `from` (not of a longer name it begins) as `to`.
std::string renamedValue(const std::string& text, const std::string& from, const std::string& to);

// At `pos` (whitespace skipped), a region `{ .. }`: what it holds, `pos` moved past it.
std::optional<std::string> regionAt(const std::string& text, size_t& pos);

// A destination-style op's tail at `pos`: `[ins(..)] outs(..) [{region}] -> T1, .., Tn`
// (ins where `withIns`, the region where `withRegion`), and where its text ends.
struct OpTail {
  Operands in, outs;
  std::string region;
  std::vector<std::string> results;
  size_t end;
};
std::optional<OpTail> opTail(const std::string& text, size_t pos, bool withIns, bool withRegion, size_t results);

// What an op's text becomes: the linalg that replaces it, where its text ends, and the
// uses that follow renamed (`%0#1` -> `%pf_scan_0_acc`, where the linalg names the op's
// results apart).
struct Rewrite {
  std::string generics;
  size_t end;
  std::vector<std::pair<std::string, std::string>> renames;
};
using OpRewrite = std::function<std::optional<Rewrite>(const std::smatch&, size_t end)>;

// The rewrite of an op whose text ends at `end` into `generics`, where there are any.
std::optional<Rewrite> rewritten(const std::optional<std::string>& generics, size_t end);

// Each match of `op` in `text` replaced by what `rewrite` makes of it (its lines kept, so
// that later messages keep their lines). A match it declines stays, for MLIR's parser to
// refuse at the op. Renames hold up to the next function. One note, `read N <what>`, when
// any was read.
std::string rewriteEach(const std::string& text, const std::regex& op, const OpRewrite& rewrite, const std::string& what,
                        std::vector<std::string>& notes);

}  // namespace polyfuse::mlir_text

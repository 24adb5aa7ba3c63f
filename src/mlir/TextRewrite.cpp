#include "mlir/TextRewrite.h"

#include <cctype>

namespace polyfuse::mlir_text {

std::string renamedValue(const std::string& text, const std::string& from, const std::string& to) {
  auto nameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-'; };
  std::string out;
  size_t last = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + from.size())) {
    const size_t after = at + from.size();
    if (after < text.size() && nameChar(text[after])) continue;
    out += text.substr(last, at - last) + to;
    last = after;
  }
  return out + text.substr(last);
}

std::optional<std::string> regionAt(const std::string& text, size_t& pos) {
  const size_t open = text.find_first_not_of(" \t\r\n", pos);
  if (open == std::string::npos || text[open] != '{') return std::nullopt;
  const size_t close = closingBracket(text, open);
  if (close == std::string::npos) return std::nullopt;
  pos = close + 1;
  return text.substr(open + 1, close - open - 1);
}

std::optional<OpTail> opTail(const std::string& text, size_t pos, bool withIns, bool withRegion, size_t results) {
  OpTail t;
  if (withIns) {
    const std::optional<std::string> ins = parenthesized(text, pos, "ins");
    const std::optional<Operands> in = ins ? operands(*ins) : std::nullopt;
    if (!in) return std::nullopt;
    t.in = *in;
  }
  const std::optional<std::string> outsText = parenthesized(text, pos, "outs");
  const std::optional<Operands> outs = outsText ? operands(*outsText) : std::nullopt;
  if (!outs) return std::nullopt;
  t.outs = *outs;
  t.end = pos;
  if (withRegion) {
    const std::optional<std::string> region = regionAt(text, t.end);
    if (!region) return std::nullopt;
    t.region = *region;
  }
  const std::optional<std::vector<std::string>> types = resultTypes(text, t.end, results);
  if (!types) return std::nullopt;
  t.results = *types;
  return t;
}

std::optional<Rewrite> rewritten(const std::optional<std::string>& generics, size_t end) {
  if (!generics) return std::nullopt;
  return Rewrite{*generics, end, {}};
}

std::string rewriteEach(const std::string& text, const std::regex& op, const OpRewrite& rewrite, const std::string& what,
                        std::vector<std::string>& notes) {
  std::string out;
  size_t last = 0;
  int count = 0;
  struct Renamed {
    std::string use, name;
    size_t until;  // the next function
  };
  std::vector<Renamed> renames;
  auto renamed = [&](std::string piece, size_t end) {
    for (const Renamed& r : renames)
      if (r.until >= end) piece = renamedValue(piece, r.use, r.name);  // not %0#10 for %0#1
    return piece;
  };
  // text[from, to) into out, in pieces that end where a function starts, each with its renames.
  auto append = [&](size_t from, size_t to) {
    while (from < to) {
      size_t cut = to;
      for (const Renamed& r : renames)
        if (r.until > from && r.until < cut) cut = r.until;
      out += renamed(text.substr(from, cut - from), cut);
      from = cut;
    }
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), op); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0));
    if (at < last) continue;
    const std::optional<Rewrite> r = rewrite(*it, at + size_t(it->length(0)));
    if (!r) continue;
    append(last, at);
    out += keepingLines(text, at, r->end, renamed(r->generics, at));  // an earlier op's results it reads
    last = r->end;
    const size_t next = text.find("func.func", last);
    for (const auto& [use, name] : r->renames) renames.push_back({use, name, next == std::string::npos ? text.size() : next});
    ++count;
  }
  if (!count) return text;
  notes.push_back("read " + std::to_string(count) + " " + what);
  append(last, text.size());
  return out;
}

}  // namespace polyfuse::mlir_text

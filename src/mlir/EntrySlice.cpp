#include "mlir/EntrySlice.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "mlir/MlirText.h"

namespace polyfuse {
namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-'; }

// A reader of MLIR's text that steps over comments and string literals, where braces and
// `func.func` may stand without meaning anything (CHECK lines, attribute strings).
class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  // Past a comment or a string literal at `i`; `i` itself when neither starts there.
  size_t pastTrivia(size_t i) const {
    if (text_.compare(i, 2, "//") == 0) {
      const size_t eol = text_.find('\n', i);
      return eol == std::string::npos ? text_.size() : eol;
    }
    if (text_[i] == '"') {
      for (size_t j = i + 1; j < text_.size(); ++j) {
        if (text_[j] == '\\') ++j;
        else if (text_[j] == '"') return j + 1;
      }
      return text_.size();
    }
    return i;
  }

  size_t skipSpace(size_t i) const {
    for (;;) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      if (i < text_.size() && text_.compare(i, 2, "//") == 0) i = pastTrivia(i);
      else return i;
    }
  }

  // The index just past the bracket closing the one at `open`, brackets in comments and
  // strings not counted (and the > of an arrow not a bracket); none when it is not closed.
  std::optional<size_t> pastClosing(size_t open) const {
    const char o = text_[open], c = o == '[' ? ']' : o == '(' ? ')' : o == '{' ? '}' : '>';
    int depth = 0;
    for (size_t i = open; i < text_.size();) {
      const size_t next = pastTrivia(i);
      if (next != i) {
        i = next;
        continue;
      }
      if (text_[i] == o) ++depth;
      if (text_[i] == c && !(c == '>' && i > 0 && text_[i - 1] == '-') && --depth == 0) return i + 1;
      ++i;
    }
    return std::nullopt;
  }

  bool startsWord(size_t i, const std::string& word) const {
    return text_.compare(i, word.size(), word) == 0 && (i == 0 || !isWordChar(text_[i - 1])) &&
           (i + word.size() >= text_.size() || !isWordChar(text_[i + word.size()]));
  }

  // A symbol name at `i` (after its @): `name` or `"quoted name"`; `i` moved past it.
  std::string symbol(size_t& i) const {
    if (i < text_.size() && text_[i] == '"') {
      const size_t end = pastTrivia(i);
      std::string s = end >= i + 2 ? text_.substr(i + 1, end - i - 2) : "";
      i = end;
      return s;
    }
    const size_t b = i;
    while (i < text_.size() && isWordChar(text_[i])) ++i;
    return text_.substr(b, i - b);
  }

 private:
  const std::string& text_;
};

struct Function {
  std::string name;
  size_t begin = 0, end = 0;  // whole lines
  bool isPrivate = false, hasBody = false;
  std::set<std::string> references;
};

// The function whose keyword (`func.func` or `util.func`) is at `at`; none when its header
// does not read as one.
std::optional<Function> functionAt(const std::string& text, const Scanner& scan, size_t at) {
  Function f;
  f.begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  size_t i = scan.skipSpace(at + std::string("func.func").size());
  for (const char* visibility : {"private", "public", "nested"})
    if (scan.startsWord(i, visibility)) {
      f.isPrivate = std::string(visibility) != "public";
      i = scan.skipSpace(i + std::string(visibility).size());
    }
  if (i >= text.size() || text[i] != '@') return std::nullopt;
  ++i;
  f.name = scan.symbol(i);
  i = scan.skipSpace(i);
  if (i >= text.size() || text[i] != '(') return std::nullopt;
  std::optional<size_t> past = scan.pastClosing(i);
  if (!past) return std::nullopt;
  size_t last = *past;  // just past the header's last token
  i = scan.skipSpace(*past);
  if (text.compare(i, 2, "->") == 0) {
    i = scan.skipSpace(i + 2);
    if (i < text.size() && text[i] == '(') {
      if (!(past = scan.pastClosing(i))) return std::nullopt;
      i = last = *past;
    } else {
      for (;;) {  // types: a word (tensor, f32, !hal.buffer_view), then its <..>
        const size_t b = i;
        while (i < text.size() && (isWordChar(text[i]) || text[i] == '!')) ++i;
        if (i == b) return std::nullopt;
        if (i < text.size() && text[i] == '<') {
          if (!(past = scan.pastClosing(i))) return std::nullopt;
          i = *past;
        }
        // A result's attributes stand before another result; a brace after the last type,
        // even with no space between (`-> tensor<4xf32>{`), opens the body.
        if (i < text.size() && text[i] == '{') {
          if (!(past = scan.pastClosing(i))) return std::nullopt;
          const size_t next = scan.skipSpace(*past);
          if (next < text.size() && text[next] == ',') i = *past;
        }
        last = i;
        const size_t after = scan.skipSpace(i);
        if (after >= text.size() || text[after] != ',') break;
        i = scan.skipSpace(after + 1);
      }
    }
    i = scan.skipSpace(i);
  }
  if (scan.startsWord(i, "attributes")) {
    i = scan.skipSpace(i + std::string("attributes").size());
    if (i >= text.size() || text[i] != '{' || !(past = scan.pastClosing(i))) return std::nullopt;
    last = *past;
    i = scan.skipSpace(*past);
  }
  if (i < text.size() && text[i] == '{') {
    if (!(past = scan.pastClosing(i))) return std::nullopt;
    f.hasBody = true;
    for (size_t j = i; j < *past;) {
      const size_t next = scan.pastTrivia(j);
      if (next != j) {
        j = next;
      } else if (text[j] == '@') {
        ++j;
        f.references.insert(scan.symbol(j));
      } else {
        ++j;
      }
    }
    last = *past;
  }
  const size_t eol = text.find('\n', last);
  f.end = eol == std::string::npos ? text.size() : eol;
  return f;
}

// Every function outside the others' bodies, in the order of the text; none when a header
// does not read as one (then nothing is left out).
std::optional<std::vector<Function>> functionsOf(const std::string& text) {
  const Scanner scan(text);
  std::vector<Function> fns;
  for (size_t i = 0; i < text.size();) {
    const size_t next = scan.pastTrivia(i);
    if (next != i) {
      i = next;
      continue;
    }
    if (scan.startsWord(i, "func.func") || scan.startsWord(i, "util.func")) {
      std::optional<Function> f = functionAt(text, scan, i);
      if (!f) return std::nullopt;
      i = f->end;
      fns.push_back(std::move(*f));
      continue;
    }
    ++i;
  }
  return fns;
}

}  // namespace

std::string readEntryOnly(const std::string& text, const std::string& entry, std::vector<std::string>& notes) {
  const std::optional<std::vector<Function>> fns = functionsOf(text);
  if (!fns) return text;
  // A name defined twice (MLIR's split test files, `// -----` between their cases) is
  // left out where the entry does not reach it; where it does, MLIR will say so.
  std::map<std::string, const Function*> byName;
  std::set<std::string> twice;
  for (const Function& f : *fns)
    if (f.hasBody && !byName.emplace(f.name, &f).second) twice.insert(f.name);
  const Function* chosen = nullptr;
  if (!entry.empty()) {
    auto it = byName.find(entry);
    chosen = it == byName.end() ? nullptr : it->second;
  } else {
    for (const Function& f : *fns)
      if (f.hasBody && !f.isPrivate && !chosen) chosen = &f;
    for (const Function& f : *fns)
      if (f.hasBody && !chosen) chosen = &f;
  }
  if (!chosen || twice.count(chosen->name)) return text;  // the importer names what there is
  std::set<std::string> reached{chosen->name};
  std::vector<const Function*> work{chosen};
  while (!work.empty()) {
    const Function* f = work.back();
    work.pop_back();
    for (const std::string& ref : f->references) {
      if (twice.count(ref)) return text;
      auto it = byName.find(ref);
      if (reached.insert(ref).second && it != byName.end()) work.push_back(it->second);  // declarations stay too
    }
  }
  std::string out = text;
  size_t left = 0;
  for (auto f = fns->rbegin(); f != fns->rend(); ++f)
    if (!reached.count(f->name)) {
      out.replace(f->begin, f->end - f->begin, mlir_text::keepingLines(out, f->begin, f->end, ""));
      ++left;
    }
  if (left)
    notes.push_back("read @" + chosen->name + (reached.size() > 1 ? " and the functions it calls" : "") + " alone, leaving unread the " +
                    std::to_string(left) + " other function" + (left == 1 ? "" : "s") + " it does not reach");
  return out;
}

// The sections of a split test file: the text between lines that are `// -----` alone.
std::string readEntrySection(const std::string& text, const std::string& entry, std::vector<std::string>& notes) {
  std::vector<size_t> starts{0};  // each section's first character
  std::vector<int> firstLine{1}, lastLine;
  int line = 1;
  for (size_t b = 0; b < text.size(); ++line) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    if (mlir_text::trimmed(text.substr(b, e - b)) == "// -----") {
      starts.push_back(e);
      lastLine.push_back(line - 1);
      firstLine.push_back(line + 1);
    }
    b = e + 1;
  }
  if (starts.size() == 1) return text;
  starts.push_back(text.size());
  lastLine.push_back(line - 1);
  // The section that defines the entry (the first with a body when none is named).
  size_t chosen = starts.size();
  for (size_t k = 0; k + 1 < starts.size() && chosen == starts.size(); ++k) {
    const std::optional<std::vector<Function>> fns = functionsOf(text.substr(starts[k], starts[k + 1] - starts[k]));
    if (!fns) continue;  // a section whose functions cannot be told apart is not the entry's
    for (const Function& f : *fns)
      if (f.hasBody && (entry.empty() || f.name == entry)) chosen = k;
  }
  if (chosen == starts.size()) return text;
  std::string out = text;
  for (size_t k = starts.size() - 1; k-- > 0;)
    if (k != chosen) out.replace(starts[k], starts[k + 1] - starts[k], mlir_text::keepingLines(out, starts[k], starts[k + 1], ""));
  notes.push_back("read the split section of lines " + std::to_string(firstLine[chosen]) + " to " +
                  std::to_string(lastLine[chosen]) + " alone (`// -----` between the file's cases, as mlir-opt "
                  "-split-input-file reads it)");
  return out;
}

}  // namespace polyfuse

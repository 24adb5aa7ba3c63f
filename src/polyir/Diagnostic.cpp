#include "polyir/Diagnostic.h"

#include <sstream>

namespace polyfuse {

static std::string lineOf(const std::string& source, int line) {
  int current = 1;
  size_t start = 0;
  for (size_t i = 0; i < source.size() && current < line; ++i)
    if (source[i] == '\n') {
      ++current;
      start = i + 1;
    }
  if (current != line) return "";
  size_t end = source.find('\n', start);
  std::string text = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
  // Very long lines (generated inputs) are clipped so the message stays readable.
  if (text.size() > 200) text = text.substr(0, 200) + " ...";
  return text;
}

std::string formatSourceError(const std::string& file, const std::string& source,
                              const SourceError& err) {
  std::ostringstream os;
  SourceLoc loc = err.loc();
  os << file;
  if (loc.line > 0) os << ":" << loc.line << ":" << loc.col;
  os << ": " << err.what();
  if (loc.line > 0) {
    std::string text = lineOf(source, loc.line);
    if (!text.empty() && loc.col >= 1 && loc.col <= 201) {
      os << "\n" << text << "\n";
      for (int i = 1; i < loc.col; ++i) os << (text.size() >= size_t(i) && text[i - 1] == '\t' ? '\t' : ' ');
      os << "^";
    }
  }
  return os.str();
}

}  // namespace polyfuse

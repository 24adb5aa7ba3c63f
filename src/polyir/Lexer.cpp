#include "polyir/Lexer.h"

#include <cctype>
#include <map>

namespace polyfuse {

const char* tokName(Tok t) {
  switch (t) {
    case Tok::Ident: return "identifier";
    case Tok::Number: return "number";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Arrow: return "'->'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Lt: return "'<'";
    case Tok::Le: return "'<='";
    case Tok::Gt: return "'>'";
    case Tok::Ge: return "'>='";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::Question: return "'?'";
    case Tok::Assign: return "'='";
    case Tok::PlusAssign: return "'+='";
    case Tok::StarAssign: return "'*='";
    case Tok::MaxAssign: return "'max='";
    case Tok::MinAssign: return "'min='";
    case Tok::FMaxAssign: return "'fmax='";
    case Tok::FMinAssign: return "'fmin='";
    case Tok::Bang: return "'!'";
    case Tok::KwDef: return "'def'";
    case Tok::KwWhere: return "'where'";
    case Tok::KwIn: return "'in'";
    case Tok::End: return "end of file";
  }
  return "token";
}

// Length of a valid UTF-8 sequence starting at s[i], or 0.
static size_t utf8Length(const std::string& s, size_t i) {
  unsigned char c = s[i];
  size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

std::vector<Token> lex(const std::string& src) {
  std::vector<Token> out;
  int line = 1, col = 1;
  size_t i = 0;
  auto at = [&](size_t k) { return k < src.size() ? src[k] : '\0'; };
  auto push = [&](Tok k, size_t len) {
    out.push_back({k, src.substr(i, len), {line, col}});
    i += len;
    col += int(len);
  };
  while (i < src.size()) {
    char c = src[i];
    unsigned char uc = static_cast<unsigned char>(c);
    if (c == '\0') throw SourceError({line, col}, "file is not text (NUL byte)");
    if (uc >= 0x80) {
      size_t n = utf8Length(src, i);
      if (n == 0) throw SourceError({line, col}, "file is not text (invalid UTF-8)");
      throw SourceError({line, col}, "unexpected character '" + src.substr(i, n) + "'");
    }
    if (c == '\n') { ++line; col = 1; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r') { ++i; ++col; continue; }
    if (c == '#') {
      // A comment may hold any valid UTF-8; it still must be text.
      while (i < src.size() && src[i] != '\n') {
        unsigned char d = src[i];
        if (d == 0) throw SourceError({line, col}, "file is not text (NUL byte)");
        size_t n = d >= 0x80 ? utf8Length(src, i) : 1;
        if (n == 0) throw SourceError({line, col}, "file is not text (invalid UTF-8)");
        i += n;
        ++col;
      }
      continue;
    }
    if (std::isalpha(uc) || c == '_') {
      size_t j = i;
      while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      std::string word = src.substr(i, j - i);
      static const std::map<std::string, Tok> reductionWords = {
          {"max", Tok::MaxAssign}, {"min", Tok::MinAssign}, {"fmax", Tok::FMaxAssign}, {"fmin", Tok::FMinAssign}};
      if (auto r = reductionWords.find(word); r != reductionWords.end() && at(j) == '=' && at(j + 1) != '=') {
        push(r->second, j - i + 1);
        continue;
      }
      Tok k = word == "def" ? Tok::KwDef : word == "where" ? Tok::KwWhere : word == "in" ? Tok::KwIn : Tok::Ident;
      push(k, j - i);
      continue;
    }
    if (std::isdigit(uc) || (c == '.' && std::isdigit(static_cast<unsigned char>(at(i + 1))))) {
      size_t j = i;
      while (std::isdigit(static_cast<unsigned char>(at(j)))) ++j;
      if (at(j) == '.') { ++j; while (std::isdigit(static_cast<unsigned char>(at(j)))) ++j; }
      if (at(j) == 'e' || at(j) == 'E') {
        size_t k = j + 1;
        if (at(k) == '+' || at(k) == '-') ++k;
        if (std::isdigit(static_cast<unsigned char>(at(k)))) {
          j = k;
          while (std::isdigit(static_cast<unsigned char>(at(j)))) ++j;
        } else {
          throw SourceError({line, col}, "malformed number exponent");
        }
      }
      if (at(j) == 'f' || at(j) == 'F') ++j;  // C-style float suffix
      push(Tok::Number, j - i);
      continue;
    }
    switch (c) {
      case '(': push(Tok::LParen, 1); continue;
      case ')': push(Tok::RParen, 1); continue;
      case '{': push(Tok::LBrace, 1); continue;
      case '}': push(Tok::RBrace, 1); continue;
      case ',': push(Tok::Comma, 1); continue;
      case ':': push(Tok::Colon, 1); continue;
      case '!': if (at(i + 1) == '=') push(Tok::NotEq, 2); else push(Tok::Bang, 1); continue;
      case '/': push(Tok::Slash, 1); continue;
      case '=': if (at(i + 1) == '=') push(Tok::EqEq, 2); else push(Tok::Assign, 1); continue;
      case '<': if (at(i + 1) == '=') push(Tok::Le, 2); else push(Tok::Lt, 1); continue;
      case '>': if (at(i + 1) == '=') push(Tok::Ge, 2); else push(Tok::Gt, 1); continue;
      case '?': push(Tok::Question, 1); continue;
      case '-': if (at(i + 1) == '>') push(Tok::Arrow, 2); else push(Tok::Minus, 1); continue;
      case '+': if (at(i + 1) == '=') push(Tok::PlusAssign, 2); else push(Tok::Plus, 1); continue;
      case '*': if (at(i + 1) == '=') push(Tok::StarAssign, 2); else push(Tok::Star, 1); continue;
      default: break;
    }
    throw SourceError({line, col}, std::string("unexpected character '") + c + "'");
  }
  out.push_back({Tok::End, "", {line, col}});
  return out;
}

}  // namespace polyfuse

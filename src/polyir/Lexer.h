// Tokens of the Tensor Comprehensions language.
#pragma once
#include <string>
#include <vector>

#include "polyir/Diagnostic.h"

namespace polyfuse {

enum class Tok {
  Ident, Number, LParen, RParen, LBrace, RBrace, Comma, Colon, Arrow,
  Plus, Minus, Star, Slash,
  // Comparisons and the conditional (`c ? a : b`; Colon doubles as its separator).
  Lt, Le, Gt, Ge, EqEq, NotEq, Question,
  // Statement operators; Bang forms carry `init` in the parser.
  Assign, PlusAssign, StarAssign, MaxAssign, MinAssign, FMaxAssign, FMinAssign, Bang,
  KwDef, KwWhere, KwIn, End
};

struct Token {
  Tok kind;
  std::string text;
  SourceLoc loc;
};

// Whole-file lexing; rejects non-text input (NUL bytes, invalid UTF-8) at its position.
std::vector<Token> lex(const std::string& source);
const char* tokName(Tok t);

}  // namespace polyfuse

#include "polyir/Parser.h"

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <optional>

#include "polyir/Lexer.h"

namespace polyfuse {
namespace {

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

  std::vector<DefDecl> file() {
    std::vector<DefDecl> defs;
    while (peek().kind != Tok::End) defs.push_back(def());
    if (defs.empty()) throw SourceError(peek().loc, "no definition found: expected 'def'");
    return defs;
  }

 private:
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;

  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  Token next() { Token t = peek(); if (pos_ < toks_.size() - 1) ++pos_; return t; }
  bool accept(Tok k) { if (peek().kind == k) { next(); return true; } return false; }
  [[noreturn]] void fail(const std::string& what) {
    const Token& t = peek();
    std::string got = t.kind == Tok::End ? "end of file" : "'" + t.text + "'";
    throw SourceError(t.loc, "expected " + what + ", found " + got);
  }
  Token expect(Tok k, const std::string& what = "") {
    if (peek().kind != k) fail(what.empty() ? tokName(k) : what);
    return next();
  }

  static std::optional<ElemType> typeNamed(const std::string& s) {
    for (ElemType t : kElemTypes)
      if (s == elemTypeName(t)) return t;
    return std::nullopt;
  }

  TensorDecl tensorDecl(bool allowBare) {
    TensorDecl d;
    if (peek().kind == Tok::Ident && typeNamed(peek().text) &&
        (peek(1).kind == Tok::LParen || peek(1).kind == Tok::Ident)) {
      Token ty = next();
      d.type = *typeNamed(ty.text);
      if (accept(Tok::LParen)) {
        d.hasShape = true;
        if (peek().kind != Tok::RParen) {
          do {
            Token dim = peek();
            if (dim.kind != Tok::Ident && dim.kind != Tok::Number) fail("a size name or an integer");
            next();
            std::string text = dim.text;
            // A multiple of a size, `4*N` (an imported extent: a collapse of N by 4 rows).
            if (dim.kind == Tok::Number && accept(Tok::Star)) {
              if (peek().kind != Tok::Ident) fail("a size name after '*'");
              text += "*" + next().text;
            }
            d.dims.push_back(text);
            d.dimLocs.push_back(dim.loc);
          } while (accept(Tok::Comma));
        }
        expect(Tok::RParen);
      }
    } else if (!allowBare) {
      fail("a type ('float', 'double', 'half', 'bfloat16', 'int8', 'int16', 'int32', 'int64' or 'bool')");
    }
    Token name = expect(Tok::Ident, "a parameter name");
    d.name = name.text;
    d.loc = name.loc;
    return d;
  }

  DefDecl def() {
    DefDecl d;
    expect(Tok::KwDef, "'def'");
    Token name = expect(Tok::Ident, "a definition name");
    d.name = name.text;
    d.loc = name.loc;
    expect(Tok::LParen);
    if (peek().kind != Tok::RParen) {
      do {
        // `size N`: a size of the program that no input's shape has.
        if (peek().kind == Tok::Ident && peek().text == "size" && peek(1).kind == Tok::Ident &&
            (peek(2).kind == Tok::Comma || peek(2).kind == Tok::RParen)) {
          next();
          Token n = next();
          d.sizes.push_back({n.text, n.loc});
          continue;
        }
        d.params.push_back(tensorDecl(false));
      } while (accept(Tok::Comma));
    }
    expect(Tok::RParen);
    expect(Tok::Arrow);
    expect(Tok::LParen);
    do d.outputs.push_back(tensorDecl(true)); while (accept(Tok::Comma));
    expect(Tok::RParen);
    expect(Tok::LBrace);
    while (peek().kind != Tok::RBrace) {
      if (peek().kind == Tok::End) fail("'}' to close the definition");
      d.stmts.push_back(stmt());
    }
    expect(Tok::RBrace);
    return d;
  }

  StmtDecl stmt() {
    StmtDecl s;
    Token lhs = expect(Tok::Ident, "a statement (tensor name)");
    s.lhs = lhs.text;
    s.loc = lhs.loc;
    if (accept(Tok::LParen)) {
      if (peek().kind != Tok::RParen) {
        do {
          SourceLoc l = peek().loc;
          ExprPtr e = expr();
          s.lhsIndices.push_back(e->kind == ExprKind::Name ? e->name : "");
          s.lhsIndexLocs.push_back(l);
          s.lhsSubscripts.push_back(std::move(e));
        } while (accept(Tok::Comma));
      }
      expect(Tok::RParen);
    }
    s.opLoc = peek().loc;
    switch (peek().kind) {
      case Tok::Assign: s.op = ReduceOp::Assign; break;
      case Tok::PlusAssign: s.op = ReduceOp::Add; break;
      case Tok::StarAssign: s.op = ReduceOp::Mul; break;
      case Tok::MaxAssign: s.op = ReduceOp::Max; break;
      case Tok::MinAssign: s.op = ReduceOp::Min; break;
      case Tok::FMaxAssign: s.op = ReduceOp::FMax; break;
      case Tok::FMinAssign: s.op = ReduceOp::FMin; break;
      default: fail("an assignment operator (=, +=, *=, max=, min=, fmax=, fmin=, or a '!' form)");
    }
    next();
    if (peek().kind == Tok::Bang) {
      if (s.op == ReduceOp::Assign) throw SourceError(peek().loc, "'=!' is not an operator; use '=' or a reduction such as '+=!'");
      next();
      s.init = true;
    }
    s.rhs = expr();
    if (accept(Tok::KwWhere)) {
      do {
        WhereRange r;
        Token idx = expect(Tok::Ident, "an index name");
        r.index = idx.text;
        r.loc = idx.loc;
        expect(Tok::KwIn, "'in'");
        r.lo = expr();
        expect(Tok::Colon);
        r.hi = expr();
        s.where.push_back(std::move(r));
      } while (accept(Tok::Comma));
    }
    return s;
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxExprDepth) {
        throw SourceError(p.peek().loc, "expression nested too deeply (more than " +
                                            std::to_string(kMaxExprDepth) + " levels)");
      }
    }
    ~DepthGuard() { --p.depth_; }
  };

  ExprPtr binary(ExprKind k, SourceLoc loc, ExprPtr a, ExprPtr b) {
    auto e = std::make_unique<Expr>(k, loc);
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return measured(std::move(e));
  }

  // A long flat chain (a + b + c + ...) nests as deeply as parentheses do: every later
  // walk (Sema, the interpreter, the printers) recurses once per level, so the tree's
  // height is bounded, not just the parser's own recursion.
  static ExprPtr measured(ExprPtr e) {
    for (auto& a : e->args) e->height = std::max(e->height, a->height + 1);
    if (e->height > kMaxExprHeight)
      throw SourceError(e->loc, "expression nested too deeply (more than " + std::to_string(kMaxExprHeight) +
                                    " levels of operations); split it into several statements");
    return e;
  }

  // expr := sum [cmp sum '?' expr ':' expr]. A comparison is only ever the condition of
  // a conditional: TC values are reals, never booleans.
  ExprPtr expr() {
    DepthGuard g(*this);
    ExprPtr e = sum();
    static const std::pair<Tok, ExprKind> cmps[] = {{Tok::Lt, ExprKind::Lt}, {Tok::Le, ExprKind::Le},
                                                    {Tok::Gt, ExprKind::Gt}, {Tok::Ge, ExprKind::Ge},
                                                    {Tok::EqEq, ExprKind::Eq}, {Tok::NotEq, ExprKind::Ne}};
    for (auto [tok, kind] : cmps) {
      if (peek().kind != tok) continue;
      Token op = next();
      ExprPtr cond = binary(kind, op.loc, std::move(e), sum());
      Token q = peek();
      if (q.kind != Tok::Question)
        throw SourceError(q.loc, "a comparison is the condition of a conditional: expected '?' after it, as in "
                                 "'X(i) > 0 ? X(i) : 0'");
      next();
      auto sel = std::make_unique<Expr>(ExprKind::Select, q.loc);
      sel->args.push_back(std::move(cond));
      sel->args.push_back(expr());
      expect(Tok::Colon);
      sel->args.push_back(expr());
      return measured(std::move(sel));
    }
    if (peek().kind == Tok::Question)
      throw SourceError(peek().loc, "the condition of '?:' must be a comparison (<, <=, >, >=, ==, !=)");
    return e;
  }

  ExprPtr sum() {
    ExprPtr e = term();
    while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
      Token op = next();
      e = binary(op.kind == Tok::Plus ? ExprKind::Add : ExprKind::Sub, op.loc, std::move(e), term());
    }
    return e;
  }

  ExprPtr term() {
    ExprPtr e = unary();
    while (peek().kind == Tok::Star || peek().kind == Tok::Slash) {
      Token op = next();
      e = binary(op.kind == Tok::Star ? ExprKind::Mul : ExprKind::Div, op.loc, std::move(e), unary());
    }
    return e;
  }

  ExprPtr unary() {
    DepthGuard g(*this);
    if (peek().kind == Tok::Minus) {
      Token op = next();
      auto e = std::make_unique<Expr>(ExprKind::Neg, op.loc);
      e->args.push_back(unary());
      return measured(std::move(e));
    }
    if (peek().kind == Tok::Plus) { next(); return unary(); }
    return primary();
  }

  ExprPtr primary() {
    Token t = peek();
    if (t.kind == Tok::Number) {
      next();
      auto e = std::make_unique<Expr>(ExprKind::Number, t.loc);
      e->number = std::strtod(t.text.c_str(), nullptr);
      if (!std::isfinite(e->number))
        throw SourceError(t.loc, "the literal '" + t.text + "' is beyond the range of a double");
      e->name = t.text;
      return e;
    }
    if (t.kind == Tok::Ident) {
      next();
      if (accept(Tok::LParen)) {
        auto e = std::make_unique<Expr>(ExprKind::Call, t.loc);
        e->name = t.text;
        if (peek().kind != Tok::RParen) {
          do e->args.push_back(expr()); while (accept(Tok::Comma));
        }
        expect(Tok::RParen);
        return measured(std::move(e));
      }
      auto e = std::make_unique<Expr>(ExprKind::Name, t.loc);
      e->name = t.text;
      return e;
    }
    if (t.kind == Tok::LParen) {
      next();
      ExprPtr e = expr();
      expect(Tok::RParen);
      return e;
    }
    fail("an expression");
  }
};

}  // namespace

std::vector<DefDecl> parseFile(const std::string& source) {
  return Parser(lex(source)).file();
}

}  // namespace polyfuse

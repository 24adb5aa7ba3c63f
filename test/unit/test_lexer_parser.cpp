#include <catch2/catch.hpp>

#include "Helpers.h"
#include "polyir/Lexer.h"
#include "polyir/Parser.h"

using namespace polyfuse;

TEST_CASE("lexer: operators, numbers, comments and positions") {
  auto toks = lex("Y(i) max=! X(i, j) # comment\n  s += 1e-5 * 2.5f");
  std::vector<Tok> kinds;
  for (auto& t : toks) kinds.push_back(t.kind);
  std::vector<Tok> want = {Tok::Ident, Tok::LParen, Tok::Ident, Tok::RParen, Tok::MaxAssign, Tok::Bang,
                           Tok::Ident, Tok::LParen, Tok::Ident, Tok::Comma, Tok::Ident, Tok::RParen,
                           Tok::Ident, Tok::PlusAssign, Tok::Number, Tok::Star, Tok::Number, Tok::End};
  REQUIRE(kinds == want);
  CHECK(toks[4].text == "max=");
  CHECK(toks[12].loc.line == 2);
  CHECK(toks[12].loc.col == 3);
  CHECK(toks[14].text == "1e-5");
}

TEST_CASE("lexer: non-text input is rejected at its position") {
  try {
    lex(std::string("def f\0", 6));
    FAIL("no error");
  } catch (const SourceError& e) {
    CHECK(std::string(e.what()).find("not text") != std::string::npos);
    CHECK(e.loc().col == 6);
  }
  CHECK_THROWS_AS(lex("def \xff"), SourceError);
}

TEST_CASE("parser: several definitions, where clauses and the ! forms") {
  auto defs = parseFile(
      "def a(float(N) X) -> (Y) { Y(i) = X(i) }\n"
      "def b(float(N, M) X, float eps) -> (Z) {\n"
      "  Z(i) +=! X(i, j) * eps where j in 0:M - 1\n"
      "}\n");
  REQUIRE(defs.size() == 2);
  CHECK(defs[1].name == "b");
  REQUIRE(defs[1].stmts.size() == 1);
  const StmtDecl& s = defs[1].stmts[0];
  CHECK(s.op == ReduceOp::Add);
  CHECK(s.init);
  REQUIRE(s.where.size() == 1);
  CHECK(s.where[0].index == "j");
  CHECK(defs[1].params[1].hasShape == false);
}

TEST_CASE("parser: deep nesting is an error, not a stack overflow") {
  std::string body = std::string(200000, '(') + "X(i)" + std::string(200000, ')');
  auto f = test::failure("def f(float(N) X) -> (Y) { Y(i) = " + body + " }");
  CHECK(f.message.find("nested too deeply") != std::string::npos);
  CHECK(f.line == 1);
  std::string negs(200000, '-');
  CHECK(test::failure("def f(float(N) X) -> (Y) { Y(i) = " + negs + "X(i) }").message.find("nested too deeply") !=
        std::string::npos);
}

TEST_CASE("parser: syntax errors are located") {
  auto f = test::failure("def f(float(N) X) -> (Y) {\n  Y(i) == X(i)\n}");
  CHECK(f.line == 2);
  CHECK(f.col == 8);  // '==' is one token: a comparison, not an assignment
  CHECK(f.message.find("expected an assignment operator") != std::string::npos);
  auto g = test::failure("def f(float(N) X) -> (Y) {\n  Y(i) = * X(i)\n}");
  CHECK(g.line == 2);
  CHECK(g.col == 10);
  CHECK(g.message.find("expected an expression") != std::string::npos);
}

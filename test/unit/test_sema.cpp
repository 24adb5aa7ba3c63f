#include <catch2/catch.hpp>

#include "Helpers.h"

using namespace polyfuse;
using test::failure;

static void requireError(const std::string& text, const std::string& fragment, int line, int col) {
  auto f = failure(text);
  INFO(f.message);
  CHECK(f.message.find(fragment) != std::string::npos);
  CHECK(f.line == line);
  CHECK(f.col == col);
}

TEST_CASE("sema: every error class is located") {
  const std::string sig = "def f(float(N, M) X, float eps) -> (Y) {\n";
  requireError(sig + "  Y(i) = Z(i, 0)\n}", "unknown tensor or function 'Z'", 2, 10);
  requireError(sig + "  Y(i, j) = X(i, j) * alpha\n}", "unknown name 'alpha'", 2, 23);
  requireError(sig + "  Y(i, j) = frob(X(i, j))\n}", "unknown tensor or function 'frob'", 2, 13);
  requireError(sig + "  Y(i) = X(i)\n}", "wrong rank", 2, 10);
  requireError(sig + "  Y(i) = X(i, j)\n}", "appears only on the right-hand side of '='", 2, 15);
  requireError(sig + "  Y(i, j) = X(i * j, j)\n}", "non-affine subscript", 2, 17);
  requireError(sig + "  Y(i, j) = X(i, j) + X(j, i)\n}", "conflicting ranges", 2, 23);
  requireError(sig + "  Y(i, j) = X(i, j) where i in 0:N + 1\n}", "out of bounds", 2, 13);
  requireError("def f(float(N) X, float(N) X) -> (Y) {\n  Y(i) = X(i)\n}", "duplicate name 'X'", 1, 28);
  requireError(sig + "  T(i, j) = X(i, j)\n}", "output 'Y' is never written", 1, 37);
  requireError(sig + "  X(i, j) = 1\n  Y(i, j) = X(i, j)\n}", "cannot write to input 'X'", 2, 3);
  requireError("", "file is empty", 1, 1);
  requireError("# only a comment\n", "no definition found", 2, 1);
  requireError(sig + "  Y(i, j) = T(i, j)\n  T(i, j) = X(i, j)\n}", "read before it is written", 2, 13);
  requireError(sig + "  Y(i) += X(i, j)\n}", "never written before", 2, 8);
}

TEST_CASE("sema: ranges are inferred as TC does, and where clauses set them") {
  auto lp = test::load(
      "def f(float(N, M) X) -> (Y, Z) {\n"
      "  Y(i) +=! X(i, j + 1)\n"
      "  Z(i) +=! X(i, j) where j in 1:M\n"
      "}\n");
  const Program& p = *lp.program;
  const Statement& s0 = p.statements[0];
  CHECK(s0.dims == std::vector<std::string>{"i", "j"});
  CHECK(s0.numParallel == 1);
  CHECK(s0.ranges[0].hi.str() == "N");
  CHECK(s0.ranges[1].lo.str() == "-1");
  CHECK(s0.ranges[1].hi.str() == "M - 1");
  CHECK(p.statements[1].ranges[1].lo.str() == "1");
  // Output shapes follow the lhs ranges.
  CHECK(p.tensors[p.findTensor("Y")].shape[0].str() == "N");
}

TEST_CASE("sema: offsets narrow a range; both accesses stay in bounds") {
  auto lp = test::load("def f(float(N) X) -> (Y) {\n  Y(i) = X(i) + X(i + 1)\n}\n");
  const Statement& s = lp.program->statements[0];
  CHECK(s.ranges[0].lo.str() == "0");
  CHECK(s.ranges[0].hi.str() == "N - 1");
}

TEST_CASE("sema: sizes and scalars are values; temporaries are found") {
  auto lp = test::loadExample("layernorm.tc");
  const Program& p = *lp.program;
  CHECK(p.sizeParams == std::vector<std::string>{"N", "M"});
  CHECK(p.tensors[p.findTensor("mean")].role == TensorRole::Temporary);
  CHECK(p.tensors[p.findTensor("Y")].role == TensorRole::Output);
  CHECK(p.scalars.size() == 1);
}

TEST_CASE("sizes: parsed and checked") {
  Sizes s = parseSizes("N=4096,M=33");
  CHECK(s.at("N") == 4096);
  CHECK(s.at("M") == 33);
  CHECK_THROWS_AS(parseSizes("N=0"), UsageError);
  CHECK_THROWS_AS(parseSizes("N=abc"), UsageError);
  CHECK_THROWS_AS(parseSizes("N"), UsageError);
  auto lp = test::loadExample("softmax.tc");
  CHECK_THROWS_AS(lp.program->checkSizes({{"N", 3}}), UsageError);
  CHECK_THROWS_AS(lp.program->checkSizes({{"N", 3}, {"M", 3}, {"K", 1}}), UsageError);
}

TEST_CASE("affine quotients: floor arithmetic agrees with integer division at every point") {
  // floor((a*N + b) / d) + m, its negation, and its nested floors, against the integers.
  for (int64_t a : {-3, -1, 1, 2}) {
    for (int64_t b : {-7, -1, 0, 5}) {
      for (int64_t d : {1, 2, 3, 7}) {
        Affine q = (Affine::var("N").scaled(a) + Affine::constantOf(b)).floorDiv(d);
        Affine sum = q + Affine::var("M").scaled(2) + Affine::constantOf(3);
        Affine neg = q.scaled(-1);
        Affine nested = q.floorDiv(2);
        for (int64_t n = -9; n <= 9; ++n) {
          Sizes at{{"N", n}, {"M", 4}};
          const int64_t x = a * n + b;
          const int64_t fl = x / d - (x % d != 0 && x < 0);
          CHECK(q.eval(at) == fl);
          CHECK(sum.eval(at) == fl + 11);
          CHECK(neg.eval(at) == -fl);
          CHECK(nested.eval(at) == (fl / 2 - (fl % 2 != 0 && fl < 0)));
        }
      }
    }
  }
  // Quotients that divide evenly fold back to plain affine forms.
  CHECK((Affine::var("N").scaled(4) + Affine::constantOf(6)).floorDiv(2) == Affine::var("N").scaled(2) + Affine::constantOf(3));
  CHECK(Affine::constantOf(-7).floorDiv(2) == Affine::constantOf(-4));
  CHECK(Affine::var("N").floorDiv(2).str() == "N / 2");
  CHECK((Affine::var("H") - Affine::var("K") + Affine::constantOf(2)).floorDiv(2).str() == "(H - K + 2) / 2");
  // Forms that are not one quotient are refused, not approximated.
  CHECK_THROWS_AS(Affine::var("N").floorDiv(2) + Affine::var("M").floorDiv(3), NotAffine);
  CHECK_THROWS_AS(Affine::var("N").floorDiv(2).scaled(3), NotAffine);
  CHECK_THROWS_AS(Affine::var("N").floorDiv(0), NotAffine);
}

#include <catch2/catch.hpp>

#include "Helpers.h"
#include "polyir/Printer.h"

using namespace polyfuse;

static std::vector<const Dependence*> deps(const PolyProgram& pp, DepKind k, int src, int dst) {
  std::vector<const Dependence*> out;
  for (auto& d : pp.dependences())
    if (d.kind == k && d.src == src && d.dst == dst) out.push_back(&d);
  return out;
}

static isl::map parseMap(const PolyProgram& pp, const std::string& s) { return isl::map(pp.ctx(), s); }

TEST_CASE("isl form: domains and access relations") {
  auto lp = test::loadExample("softmax.tc");
  const PolyProgram& pp = *lp.poly;
  isl::set dom(pp.ctx(), "[N, M] -> { S1[i, j] : 0 <= i < N and 0 <= j < M and N >= 1 and M >= 1 }");
  CHECK(pp.statements()[1].domain.is_equal(dom));
  isl::map read = parseMap(pp, "[N, M] -> { S1[i, j] -> mx[i] : 0 <= i < N and 0 <= j < M }");
  CHECK(pp.statements()[1].reads[1].is_equal(read.intersect_params(pp.paramContext())));
}

TEST_CASE("dependences: softmax's value-based flow dependences") {
  auto lp = test::loadExample("softmax.tc");
  const PolyProgram& pp = *lp.poly;
  // mx(i) is complete after its last reduction step: only that step feeds S1.
  auto d01 = deps(pp, DepKind::Flow, 0, 1);
  REQUIRE(d01.size() == 1);
  CHECK(d01[0]->relation.is_equal(
      parseMap(pp, "[N, M] -> { S0[i, M - 1] -> S1[i, j] : 0 <= i < N and 0 <= j < M }").intersect_params(pp.paramContext())));
  CHECK(deps(pp, DepKind::Flow, 1, 2).size() == 1);
  CHECK(deps(pp, DepKind::Flow, 1, 3).size() == 1);
  CHECK(deps(pp, DepKind::Flow, 2, 3).size() == 1);
  CHECK(deps(pp, DepKind::Flow, 0, 3).empty());
  // The reductions' self-dependences are recognized as such.
  auto self = deps(pp, DepKind::Flow, 0, 0);
  REQUIRE(self.size() == 1);
  CHECK(self[0]->reduction);
  for (auto& d : pp.dependences())
    if (d.src != d.dst) CHECK_FALSE(d.reduction);
}

TEST_CASE("dependences: fcrelu's in-place updates give anti and output dependences") {
  auto lp = test::loadExample("fcrelu.tc");
  const PolyProgram& pp = *lp.poly;
  auto anti12 = deps(pp, DepKind::Anti, 1, 2);
  REQUIRE(anti12.size() == 1);
  CHECK(anti12[0]->relation.is_equal(
      parseMap(pp, "[B, M, N] -> { S1[b, n] -> S2[b, n] : 0 <= b < B and 0 <= n < N }").intersect_params(pp.paramContext())));
  CHECK(deps(pp, DepKind::Output, 0, 1).size() == 1);
  CHECK(deps(pp, DepKind::Output, 1, 2).size() == 1);
  // Memory-based dependences are direct: S1 rewrites every element between S0 and S2,
  // so S0 -> S2 follows from S0 -> S1 -> S2 and is not listed.
  CHECK(deps(pp, DepKind::Output, 0, 2).empty());
  CHECK(deps(pp, DepKind::Anti, 0, 2).empty());
  // Value-based: S2 reads what S1 wrote, not what S0 wrote.
  CHECK(deps(pp, DepKind::Flow, 1, 2).size() == 1);
  CHECK(deps(pp, DepKind::Flow, 0, 2).empty());
}

TEST_CASE("dependences: atax flows through the transposed read") {
  auto lp = test::loadExample("atax.tc");
  const PolyProgram& pp = *lp.poly;
  auto d = deps(pp, DepKind::Flow, 0, 1);
  REQUIRE(d.size() == 1);
  // y(j) at step i reads tmp(i), completed at S0's last step.
  CHECK(d[0]->relation.is_equal(
      parseMap(pp, "[M, N] -> { S0[i, N - 1] -> S1[j, i] : 0 <= i < M and 0 <= j < N }").intersect_params(pp.paramContext())));
}

TEST_CASE("check output is stable") {
  auto a = test::loadExample("gemver.tc");
  auto b = test::loadExample("gemver.tc");
  std::ostringstream x, y;
  printCheck(x, *a.poly, nullptr);
  printCheck(y, *b.poly, nullptr);
  CHECK(x.str() == y.str());
}

TEST_CASE("tensors computed twice: the later one's readers read the earlier; what differs stays") {
  // The same normalization twice (an exported ResNet's batch norms share one variance
  // tensor), the second a chain over the first's copy: both copies go.
  auto lp = test::load(R"(def f(float(C) var, float(C, P) X, float(C, P) Y) -> (A, B) {
    v(c) = var(c) + 1e-05
    r(c) = rsqrt(v(c))
    A(c, p) = X(c, p) * r(c)
    w(k) = var(k) + 1e-05
    q(k) = rsqrt(w(k))
    B(c, p) = Y(c, p) * q(c)
  })");
  REQUIRE(lp.program->statements.size() == 4);
  CHECK(statementText(*lp.program, lp.program->statements[3]) == "B(c, p) = Y(c, p) * r(c)");
  REQUIRE(lp.notes.size() == 1);
  CHECK(lp.notes[0].find("2 tensor(s) computed again read where first computed (w, q)") == 0);
  auto kept = [](const char* text) { return test::load(text).program->statements.size(); };
  // A literal that differs in its last bits, an input written in between, an output.
  CHECK(kept(R"(def f(float(C) var, float(C) X) -> (A, B) {
    v(c) = var(c) + 1e-05
    w(c) = var(c) + 1.0000001e-05
    A(c) = X(c) * v(c)
    B(c) = X(c) * w(c)
  })") == 4);
  CHECK(kept(R"(def f(float(C) X) -> (A, B, T) {
    T(c) = X(c)
    v(c) = T(c) * 2.0
    T(c) += 1.0
    w(c) = T(c) * 2.0
    A(c) = v(c) + 1.0
    B(c) = w(c) + 1.0
  })") == 6);
  CHECK(kept(R"(def f(float(C) X) -> (A, B) {
    A(c) = X(c) * 2.0
    B(c) = X(c) * 2.0
  })") == 2);
}

TEST_CASE("copies read through: a permutation's readers read its source; what would change a value stays") {
  // K's head split and transpose, then a matmul over it: the copy goes, the matmul reads
  // K through the composed subscripts; the note names it.
  auto lp = test::load(R"(def f(float(S, 64) K, float(2, S, 32) Q) -> (O) {
    kt(h, e, j) = K(j, 32 * h + e) where h in 0:2, e in 0:32
    O(h, i, j) +=! Q(h, i, e) * kt(h, e, j)
  })");
  REQUIRE(lp.program->statements.size() == 1);
  CHECK(statementText(*lp.program, lp.program->statements[0]) == "O(h, i, j) +=! Q(h, i, e) * K(j, e + 32*h)");
  REQUIRE(lp.notes.size() == 1);
  CHECK(lp.notes[0].find("1 copied tensor(s) read through to what they copy (kt)") == 0);
  // A source written again after the copy keeps its statements; so does a gather read
  // by a contraction (which would gather again at every step). A gather read
  // elementwise is read through, its ids at the reader's point.
  auto kept = [](const char* text) { return test::load(text).program->statements.size(); };
  CHECK(kept(R"(def f(float(N) X) -> (O, T) {
    T(i) = X(i)
    c(i) = T(i)
    T(i) += 1.0
    O(i) = c(i) * 2.0
  })") == 4);
  auto gather = test::load(R"(def f(int32(N) ids, float(V, D) E) -> (O) {
    g(i, d) = E(ids(i), d)
    O(i, d) = g(i, d) * 2.0 + g(N - 1 - i, d)
  })");
  REQUIRE(gather.program->statements.size() == 1);
  CHECK(statementText(*gather.program, gather.program->statements[0]) == "O(i, d) = E(ids(i), d) * 2.0 + E(ids(N - i - 1), d)");
  CHECK(kept(R"(def f(int32(N) ids, float(V, D) E, float(D, M) W) -> (O) {
    g(i, d) = E(ids(i), d)
    O(i, m) +=! g(i, d) * W(d, m)
  })") == 2);
  // A gather of a copy moves onto the copy's source only where the gathered dim is the
  // source's whole dim: a slice of it (ids bounded by 2, not 5) or a broadcast (ids read
  // for nothing) keeps the copy.
  CHECK(kept(R"(def f(int32(N) P, float(5, D) S) -> (O) {
    c(i, d) = S(i, d) where i in 0:2
    O(x, d) = c(P(x), d) * 2.0
  })") == 2);
  CHECK(kept(R"(def f(int32(N) ids, float(M) S, float(N, M) X) -> (O) {
    c(i, j) = S(j) where i in 0:1
    O(x, y) = c(ids(x), y) + X(x, y)
  })") == 2);

  // A copy's reader that writes the source itself would read its own updates.
  CHECK(kept(R"(def f(float(N) X) -> (A) {
    A(i) = X(i)
    c(i) = A(i)
    A(i) += c(N - 1 - i)
  })") == 3);
}

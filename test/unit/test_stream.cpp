// Streamed sums (docs/streaming.md): the rule over the program's operators, and the
// search choosing the streamed kernel where the cost model prices it faster.
#include <catch2/catch.hpp>

#include "FusionSetup.h"
#include "polyir/Rescale.h"

using namespace polyfuse;
using namespace polyfuse::test;

namespace {

// The statement id of the maximum the last statement writing `sum` streams beside; -1.
int streamsBeside(const std::string& text, const std::string& sum) {
  LoadedProgram lp = load(text);
  const Program& prog = *lp.program;
  for (auto& st : prog.statements)
    if (st.tensorName == sum) return streamChain(prog, st).max;
  FAIL("no statement writes " << sum);
  return -2;
}

}  // namespace

TEST_CASE("stream: the rule reads operators, whatever the layer") {
  // Softmax as IREE splits it: the sum reads e, which the rule inlines.
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (Y) {
    mx(i) max=! X(i, j)
    e(i, j) = exp(X(i, j) - mx(i))
    s(i) +=! e(i, j)
    Y(i, j) = e(i, j) / s(i)
  })", "s") == 0);
  // A log-sum-exp: the sum reads the maximum itself, and its result no division.
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (L) {
    mx(i) max=! X(i, j)
    s(i) +=! exp(X(i, j) - mx(i))
    L(i) = mx(i) + log(s(i))
  })", "s") == 0);
  // Over columns: the reduction runs along i.
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (Y) {
    mx(j) max=! X(i, j)
    e(i, j) = exp(X(i, j) - mx(j))
    s(j) +=! e(i, j)
    Y(i, j) = e(i, j) / s(j)
  })", "s") == 0);
  // A mask selecting 0, a scale computed before the maximum, a weight, fmax, other
  // names for the same dims, and a chain of two producers.
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(N, M) K) -> (Y) {
    mx(i) max=! X(i, j)
    e(i, j) = K(i, j) > 0 ? exp(X(i, j) - mx(i)) : 0
    s(i) +=! e(i, j)
    Y(i, j) = e(i, j) / s(i)
  })", "s") == 0);
  CHECK(streamsBeside(R"(def f(float(N, M) X, float scale) -> (Y) {
    z(i, j) = X(i, j) * scale
    mx(i) max=! z(i, j)
    e(i, j) = exp(z(i, j) - mx(i))
    s(i) +=! e(i, j)
    Y(i, j) = e(i, j) / s(i)
  })", "s") == 1);
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(N, M) V) -> (o) {
    mx(a) fmax=! X(a, b)
    e(i, j) = exp(X(i, j) - mx(i))
    w(i, j) = e(i, j) * V(i, j)
    o(k) +=! w(k, l) / 2
  })", "o") == 0);

  // Not a shifted sum: m outside the exponential, another exponent, another point,
  // terms of different powers, a sum as the "maximum", a sum that adds to old values.
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (s) {
    mx(i) max=! X(i, j)
    s(i) +=! exp(X(i, j) - mx(i)) * (X(i, j) - mx(i))
  })", "s") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(N, M) W) -> (s) {
    mx(i) max=! X(i, j)
    s(i) +=! exp(W(i, j) - mx(i))
  })", "s") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (s) {
    mx(i) max=! X(i, j)
    s(i) +=! exp(X(i, j) - mx(0))
  })", "s") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (s) {
    mx(i) max=! X(i, j)
    s(i) +=! exp(X(i, j) - mx(i)) + 1
  })", "s") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X) -> (s) {
    mx(i) +=! X(i, j)
    s(i) +=! exp(X(i, j) - mx(i))
  })", "s") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(N) s0) -> (s) {
    mx(i) max=! X(i, j)
    s(i) = s0(i)
    s(i) += exp(X(i, j) - mx(i))
  })", "s") == -1);
}

TEST_CASE("stream: a vocabulary softmax reads X twice, and --no-stream three times") {
  const Sizes sizes = {{"N", 16384}, {"M", 151936}};
  Setup on(loadExample("softmax.tc"), sizes), off(loadExample("softmax.tc"), sizes);
  off.cm->setStreams(false);
  const Partition a = on.run("ilp"), b = off.run("ilp");
  const int64_t x = 16384LL * 151936 * 4;
  // Streamed: X once for the maximum and the sum, once more for Y, which it writes.
  REQUIRE(a.kernels.size() == 2);
  REQUIRE(a.kernels[0].streams.size() == 1);
  CHECK(a.dramBytes < 3 * x + x / 100);
  CHECK(a.dramBytes >= 3 * x);
  for (auto& k : b.kernels) CHECK(k.streams.empty());
  CHECK(b.dramBytes >= 4 * x);
  CHECK(a.modeledUs < b.modeledUs);
  // Rows that fit on chip gain nothing: the two-pass kernel stays.
  Setup small(loadExample("softmax.tc"), {{"N", 4096}, {"M", 1024}});
  for (auto& k : small.run("ilp").kernels) CHECK(k.streams.empty());
  // Eight rows of a million: the chunks of a split stream their pairs.
  Setup few(loadExample("softmax.tc"), {{"N", 8}, {"M", 1048576}});
  const Partition f = few.run("ilp");
  REQUIRE(f.kernels.size() == 2);
  REQUIRE(f.kernels[0].streams.size() == 1);
  CHECK(f.kernels[0].splitChunks > 1);
  CHECK(f.kernels[0].splitMembers().size() == 2);
  CHECK(double(f.dramBytes) < 1.51 * double(few.cm->lowerBoundBytes()));
}

TEST_CASE("stream: a weighted sum with dims of its own streams, in a tile of rows") {
  // Each point d of the sum is a sum of the maximum's shape: the rule holds point by point.
  const char* pooled = R"(def f(float(N, M) X, float(M, D) V) -> (O) {
    mx(i) max=! X(i, j)
    p(i, j) = exp(X(i, j) - mx(i))
    acc(i, d) +=! p(i, j) * V(j, d)
    O(i, d) = acc(i, d)
  })";
  CHECK(streamsBeside(pooled, "acc") == 0);
  LoadedProgram lp = load(pooled);
  const StreamChain sc = streamChain(*lp.program, lp.program->statements[2]);
  CHECK(sc.extraDims == std::vector<int>{1});
  CHECK_FALSE(sc.streamsAlongside());
  // A term free of the exponential's factor, or the maximum read at another row: no.
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(M, D) V) -> (acc) {
    mx(i) max=! X(i, j)
    acc(i, d) +=! exp(X(i, j) - mx(i)) * V(j, d) + V(j, d)
  })", "acc") == -1);
  CHECK(streamsBeside(R"(def f(float(N, M) X, float(M, N) V) -> (acc) {
    mx(i) max=! X(i, j)
    acc(i, d) +=! exp(X(i, j) - mx(d)) * V(j, d)
  })", "acc") == -1);

  // Attention: one kernel at the byte lower bound where the scores would not fit on chip;
  // every read of S x T scores gone. Without streaming: four kernels, the weighted sum
  // split-K (one head's 64 tiles of 64 x 64 outputs would leave SMs idle), its division
  // by the row sums a kernel after the combine.
  const Sizes sizes = {{"S", 4096}, {"D", 64}};
  Setup on(loadExample("attention.tc"), sizes), off(loadExample("attention.tc"), sizes),
      split(loadExample("attention.tc"), sizes);
  on.cm->setStreamSplits(false);
  off.cm->setStreams(false);
  const Partition a = on.run("ilp"), b = off.run("ilp");
  REQUIRE(a.kernels.size() == 1);
  CHECK(a.kernels[0].streamedTile());
  CHECK(a.kernels[0].streams.size() == 2);
  CHECK(a.dramBytes == on.cm->lowerBoundBytes());
  CHECK(b.kernels.size() == 4);
  CHECK(std::count_if(b.kernels.begin(), b.kernels.end(), [](const KernelPlan& k) {
          return k.splitMember() >= 0 && k.modes[size_t(k.splitMember())] == StmtMode::SplitTileReduce;
        }) == 1);
  CHECK(a.modeledUs < b.modeledUs);
  // One head's rows leave SMs idle: split over the keys, the maximum and both sums leave
  // partials that a second launch combines; the epilogue (O = acc / l) needs the
  // finished rows and runs in the next kernel.
  const Partition c = split.run("ilp");
  REQUIRE(c.kernels.size() == 2);
  const KernelPlan& tile = c.kernels[0];
  CHECK(tile.streamedTile());
  CHECK(tile.splitChunks > 1);
  CHECK(tile.blocks == (4096 + tile.tile[0] - 1) / tile.tile[0] * tile.splitChunks);
  CHECK(tile.splitMembers().size() == 3);
  CHECK(std::count(tile.streamTile.roles.begin(), tile.streamTile.roles.end(), StreamRole::Epilogue) == 0);
  CHECK(c.launches.size() == 3);
  CHECK(c.modeledUs < a.modeledUs);
  // Strict numerics keeps every reduction serial: no tile.
  Setup strict(loadExample("attention.tc"), sizes);
  strict.cm->setNumerics(Numerics::Strict);
  for (auto& k : strict.run("ilp").kernels) CHECK_FALSE(k.streamedTile());
}

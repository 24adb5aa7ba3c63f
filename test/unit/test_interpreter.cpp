#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "Helpers.h"
#include "polyir/Interpreter.h"
#include "polyir/Npy.h"

using namespace polyfuse;

TEST_CASE("interpreter: each softmax row sums to one and matches exp(x)/sum") {
  auto lp = test::loadExample("softmax.tc");
  // In double (Precision::F64) to 1e-12; in the program's float to float's precision.
  for (Precision p : {Precision::F64, Precision::Program}) {
    const double eps = p == Precision::F64 ? 1e-12 : 1e-6;
    Bindings b = makeInputs(*lp.program, {{"N", 5}, {"M", 33}}, 7);
    interpret(*lp.program, b, p);
    const auto& X = b.tensors["X"].values;
    const auto& Y = b.tensors["Y"].values;
    for (int i = 0; i < 5; ++i) {
      double sum = 0, denom = 0;
      for (int j = 0; j < 33; ++j) denom += std::exp(X[i * 33 + j]);
      for (int j = 0; j < 33; ++j) {
        sum += Y[i * 33 + j];
        CHECK(Y[i * 33 + j] == Approx(std::exp(X[i * 33 + j]) / denom).epsilon(eps));
        if (p == Precision::Program) CHECK(Y[i * 33 + j] == double(float(Y[i * 33 + j])));  // a float
      }
      CHECK(sum == Approx(1.0).epsilon(eps));
    }
  }
}

TEST_CASE("interpreter: matmul equals a plain loop") {
  auto lp = test::loadExample("matmul.tc");
  const int N = 7, K = 11, M = 5;
  Bindings b = makeInputs(*lp.program, {{"N", N}, {"K", K}, {"M", M}}, 3);
  Bindings exact = b;
  interpret(*lp.program, b);
  interpret(*lp.program, exact, Precision::F64);
  const auto &A = b.tensors["A"].values, &B = b.tensors["B"].values, &C = b.tensors["C"].values;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      // The program's precision is a float loop in program order, bit for bit; F64 is
      // the double loop.
      float f = 0;
      double acc = 0;
      for (int k = 0; k < K; ++k) {
        f += float(A[i * K + k]) * float(B[k * M + j]);
        acc += A[i * K + k] * B[k * M + j];
      }
      CHECK(C[i * M + j] == double(f));
      CHECK(exact.tensors["C"].values[i * M + j] == Approx(acc).epsilon(1e-12));
    }
}

TEST_CASE("interpreter: TF32 operands round as cvt.rna does, only where a plan says") {
  // 10 bits of mantissa, to nearest, ties away from zero; infinities and NaN kept.
  CHECK(tf32Rounded(1.0f + 0x1p-12f) == 1.0f);
  CHECK(tf32Rounded(1.0f + 0x1p-11f) == 1.0f + 0x1p-10f);    // a tie, away from zero
  CHECK(tf32Rounded(-1.0f - 0x1p-11f) == -1.0f - 0x1p-10f);
  CHECK(tf32Rounded(1.0f + 3 * 0x1p-12f) == 1.0f + 0x1p-10f);
  CHECK(tf32Rounded(0x1.fffffep+127f) == INFINITY);  // the largest float, past TF32's largest
  CHECK(std::isinf(tf32Rounded(-INFINITY)));
  CHECK(std::isnan(tf32Rounded(NAN)));
  // A matmul whose reads round: each product is of rounded operands, the rest as before.
  auto lp = test::loadExample("matmul.tc");
  const int N = 3, K = 9, M = 4;
  Bindings b = makeInputs(*lp.program, {{"N", N}, {"K", K}, {"M", M}}, 5);
  Bindings exact = b;
  interpret(*lp.program, b, Precision::Program, {{0, {0, 1}}});
  interpret(*lp.program, exact, Precision::F64, {{0, {0, 1}}});  // float64 rounds nothing
  const auto &A = b.tensors["A"].values, &B = b.tensors["B"].values, &C = b.tensors["C"].values;
  int differs = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      float f = 0;
      double acc = 0;
      for (int k = 0; k < K; ++k) {
        f += tf32Rounded(float(A[i * K + k])) * tf32Rounded(float(B[k * M + j]));
        acc += A[i * K + k] * B[k * M + j];
      }
      CHECK(C[i * M + j] == double(f));
      CHECK(exact.tensors["C"].values[i * M + j] == Approx(acc).epsilon(1e-12));
      differs += C[i * M + j] != double(float(acc));
    }
  CHECK(differs > 0);  // the inputs carry more than TF32's bits
}

TEST_CASE("interpreter: in-place updates and max reductions") {
  auto lp = test::loadExample("fcrelu.tc");
  Bindings b = makeInputs(*lp.program, {{"B", 3}, {"M", 4}, {"N", 5}}, 1);
  interpret(*lp.program, b);
  const auto &I = b.tensors["I"].values, &W = b.tensors["W1"].values, &B1 = b.tensors["B1"].values;
  for (int r = 0; r < 3; ++r)
    for (int n = 0; n < 5; ++n) {
      double acc = 0;
      for (int m = 0; m < 4; ++m) acc += I[r * 4 + m] * W[n * 4 + m];
      CHECK(b.tensors["O1"].values[r * 5 + n] == Approx(std::fmax(acc + B1[n], 0.0)));
    }
}

TEST_CASE("inputs: seeded, never all zero, in [-1, 1], reproducible") {
  auto lp = test::loadExample("softmax.tc");
  Bindings a = makeInputs(*lp.program, {{"N", 4}, {"M", 9}}, 42);
  Bindings b = makeInputs(*lp.program, {{"N", 4}, {"M", 9}}, 42);
  Bindings c = makeInputs(*lp.program, {{"N", 4}, {"M", 9}}, 43);
  CHECK(a.tensors["X"].values == b.tensors["X"].values);
  CHECK(a.tensors["X"].values != c.tensors["X"].values);
  bool nonzero = false;
  for (double v : a.tensors["X"].values) {
    CHECK(v >= -1.0);
    CHECK(v <= 1.0);
    nonzero |= v != 0;
  }
  CHECK(nonzero);
}

TEST_CASE("npy: round trip") {
  TensorData t{{2, 3}, {1, 2, 3, 4, 5, 6.5}};
  auto path = std::filesystem::temp_directory_path() / "polyfuse_npy_test.npy";
  writeNpy(path.string(), t);
  TensorData r = readNpy(path.string());
  CHECK(r.shape == t.shape);
  CHECK(r.values == t.values);
  std::filesystem::remove(path);
}

TEST_CASE("16-bit floats: rounding, bit patterns and .npy float16 agree with IEEE binary16 and bfloat16") {
  // Known patterns: 1, -2, the largest half, the smallest subnormal, infinities.
  CHECK(halfBits(1.0) == 0x3c00);
  CHECK(halfBits(-2.0) == 0xc000);
  CHECK(halfBits(65504.0) == 0x7bff);
  CHECK(halfBits(65520.0) == 0x7c00);  // rounds past the largest finite value: infinity
  CHECK(halfBits(std::ldexp(1.0, -24)) == 0x0001);
  CHECK(halfBits(-INFINITY) == 0xfc00);
  CHECK(std::isnan(halfValue(halfBits(NAN))));
  CHECK(bfloat16Bits(1.0) == 0x3f80);
  CHECK(bfloat16Bits(1.0 + 1.0 / 256) == 0x3f80);  // a tie: to even
  CHECK(bfloat16Bits(1.0 + 3.0 / 256) == 0x3f82);  // a tie: to even, upward
  CHECK(std::isnan(bfloat16Value(bfloat16Bits(NAN))));
  // Every pattern reads back to itself through the value (NaNs aside), and every value
  // a tensor holds is its own rounding.
  // (Counted, then checked once: a check per pattern is slow under the sanitizers.)
  int wrong = 0, first = -1;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double h = halfValue(uint16_t(b)), f = bfloat16Value(uint16_t(b));
    const bool bad = (!std::isnan(h) && (halfBits(h) != b || storedValue(ElemType::Half, h) != h)) ||
                     (!std::isnan(f) && (bfloat16Bits(f) != b || storedValue(ElemType::BF16, f) != f));
    if (bad && wrong++ == 0) first = int(b);
  }
  CHECK(wrong == 0);
  CHECK(first == -1);
  CHECK(elemBytes(ElemType::Half) == 2);
  CHECK(elemBytes(ElemType::BF16) == 2);
}

// The f8 kinds, as IREE's small-float tests write them. Values are held as float (every
// f8 value is one) and each result is rounded to its type with the format's parameters
// read from MLIR's own semantics: fraction bits, the subnormals' quantum, the largest
// finite value, and whether overflow gives infinity or NaN (the FN and FNUZ kinds have
// no infinity). The expected values are the files' own (0x80 is FNUZ's NaN).
// RUN: polyfuse check %s --entry special_e5m2fnuz --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: values of the f8 kinds are held as float (exactly: every f8 value is one), each result rounded to its type
// TC: add(d0) = round_float(lhs(d0) + rhs(d0), 2, -17, 57344.0, 1)
// RUN: polyfuse check %s --entry special_e4m3fn --tc 2>&1 | FileCheck %s --check-prefix=TC-FN
// TC-FN: round_float(lhs(d0) + rhs(d0), 3, -9, 448.0, 1)
// RUN: polyfuse check %s --entry special_e5m2 --tc 2>&1 | FileCheck %s --check-prefix=TC-IEEE
// TC-IEEE: round_float(lhs(d0) + rhs(d0), 2, -16, 57344.0, 0)
// RUN: rm -rf %t && polyfuse exec %s --entry special_e5m2fnuz --backend opencl --dump %t/a | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry special_e4m3fn --backend opencl --dump %t/b | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry special_e5m2 --backend opencl --dump %t/c | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry truncated --backend opencl --dump %t/d | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print([n.load('%t/' + f).ravel().tolist() for f in ['a/add.npy', 'b/add.npy', 'c/add.npy', 'd/t.npy']])" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[\[}}0.0, 8.0, nan, 49152.0, nan, nan, 0.25, -8.0], [0.0, 0.0, nan, 416.0, nan, nan, 0.25, -8.0], [0.0, 0.0, inf, inf, nan, -inf, -inf, nan], [1.0, 1.25, 1.5, 0.0078125, 0.015625, 448.0, nan]]
func.func @special_e5m2fnuz() {
  %lhs = util.unfoldable_constant dense<[0.0, 4.0, 32768.0, 49152.0, 0x80, -32768.0, 0.125, -4.0]> : tensor<8xf8E5M2FNUZ>
  %rhs = util.unfoldable_constant dense<[0.0, 4.0, 32768.0, 1.0, 1.0, -32768.0, 0.125, -4.0]> : tensor<8xf8E5M2FNUZ>
  %init = tensor.empty() : tensor<8xf8E5M2FNUZ>
  %add = linalg.add ins(%lhs, %rhs : tensor<8xf8E5M2FNUZ>, tensor<8xf8E5M2FNUZ>) outs(%init : tensor<8xf8E5M2FNUZ>) -> tensor<8xf8E5M2FNUZ>
  check.expect_almost_eq_const(%add, dense<[0.0, 8.0, 0x80, 49152.0, 0x80, 0x80, 0.25, -8.0]> : tensor<8xf8E5M2FNUZ>) : tensor<8xf8E5M2FNUZ>
  return
}
// 448 + 0: the largest finite; 256 + 256 = 512 overflows to NaN (0x7F).
func.func @special_e4m3fn() {
  %lhs = util.unfoldable_constant dense<[0.0, -0.0, 256.0, 416.0, 0x7F, 448.0, 0.125, -4.0]> : tensor<8xf8E4M3FN>
  %rhs = util.unfoldable_constant dense<[0.0, 0.0, 256.0, 0.0, 1.0, 448.0, 0.125, -4.0]> : tensor<8xf8E4M3FN>
  %init = tensor.empty() : tensor<8xf8E4M3FN>
  %add = linalg.add ins(%lhs, %rhs : tensor<8xf8E4M3FN>, tensor<8xf8E4M3FN>) outs(%init : tensor<8xf8E4M3FN>) -> tensor<8xf8E4M3FN>
  check.expect_almost_eq_const(%add, dense<[0.0, 0.0, 0x7F, 416.0, 0x7F, 0x7F, 0.25, -8.0]> : tensor<8xf8E4M3FN>) : tensor<8xf8E4M3FN>
  return
}
// IEEE-like: overflow is infinity (0x7C, 0xFC), inf - inf is NaN.
func.func @special_e5m2() {
  %lhs = util.unfoldable_constant dense<[0.0, -0.0, 57344.0, 0x7C, 0x7F, -57344.0, 0xFC, 0x7C]> : tensor<8xf8E5M2>
  %rhs = util.unfoldable_constant dense<[0.0, 0.0, 57344.0, 1.0, 1.0, -57344.0, 1.0, 0xFC]> : tensor<8xf8E5M2>
  %init = tensor.empty() : tensor<8xf8E5M2>
  %add = linalg.add ins(%lhs, %rhs : tensor<8xf8E5M2>, tensor<8xf8E5M2>) outs(%init : tensor<8xf8E5M2>) -> tensor<8xf8E5M2>
  check.expect_almost_eq_const(%add, dense<[0.0, 0.0, 0x7C, 0x7C, 0x7F, 0xFC, 0xFC, 0x7F]> : tensor<8xf8E5M2>) : tensor<8xf8E5M2>
  return
}
// truncf from f32 to f8E4M3FN, to nearest even: 1.0625 is halfway between 1 and 1.125 (to
// 1.0), 1.1875 between 1.125 and 1.25 (to 1.25); 1.5 exact; 2^-7 and 2^-6 near the
// subnormals (quantum 2^-9); 464 is halfway between 448 and 480 (to even: 448); 500
// rounds past 448: NaN.
func.func @truncated() {
  %x = util.unfoldable_constant dense<[1.0625, 1.1875, 1.5, 0.0078125, 0.015625, 464.0, 500.0]> : tensor<7xf32>
  %init = tensor.empty() : tensor<7xf8E4M3FN>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<7xf32>) outs(%init : tensor<7xf8E4M3FN>) {
  ^bb0(%a: f32, %o: f8E4M3FN):
    %r = arith.truncf %a : f32 to f8E4M3FN
    linalg.yield %r : f8E4M3FN
  } -> tensor<7xf8E4M3FN>
  check.expect_almost_eq_const(%t, dense<[1.0, 1.25, 1.5, 0.0078125, 0.015625, 448.0, 0x7F]> : tensor<7xf8E4M3FN>) : tensor<7xf8E4M3FN>
  return
}

// IREE's sub-byte tests, as written: i1 masks in packed storage (8 to a byte) made from
// i8 and back by flow.tensor.bitcast, an i4 sum. polyfuse stores a byte per element;
// each bitcast is read as what it computes (element 8j + k is bit k of byte j), and the
// values are those the files' own check.expect_eq_const states.
// RUN: polyfuse check %s --entry xor_masks --tc 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: IREE's tensor encodings are layouts, not values: dropped
// NOTE: flow.tensor.bitcast between integer types takes each element's bits apart, or puts them together
// RUN: rm -rf %t && polyfuse exec %s --entry xor_masks --backend opencl --dump %t/x | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry reshaped_mask --backend opencl --dump %t/r | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry positive_mask --backend opencl --dump %t/p | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry i4_add --backend opencl --dump %t/a | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry i4_from_bytes --backend opencl --dump %t/b | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// Bytes are signed: 255 is -1, 140 is -116, 195 is -61 (the same bits).
// RUN: %python -c "import numpy as n; print([n.load('%t/' + f).ravel().astype(int).tolist() for f in ['x/res.npy', 'r/res.npy', 'p/res.npy', 'a/sum.npy', 'b/nibbles.npy']])" | FileCheck %s --check-prefix=VALUES
// VALUES: {{\[\[}}-1], [-116, 77], [60, -61], [2, 3, 4, -8], [-4, 3, 7, -8]]
func.func @xor_masks() {
  %input1 = util.unfoldable_constant dense<[85]> : tensor<1xi8>  // b01010101
  %input2 = util.unfoldable_constant dense<[170]> : tensor<1xi8> // b10101010
  %lhs = flow.tensor.bitcast %input1 : tensor<1xi8> -> tensor<8xi1, #iree_encoding.packed_storage>
  %rhs = flow.tensor.bitcast %input2 : tensor<1xi8> -> tensor<8xi1, #iree_encoding.packed_storage>
  %empty = tensor.empty() : tensor<8xi1, #iree_encoding.packed_storage>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%lhs, %rhs : tensor<8xi1, #iree_encoding.packed_storage>, tensor<8xi1, #iree_encoding.packed_storage>)
      outs(%empty : tensor<8xi1, #iree_encoding.packed_storage>) {
  ^bb0(%a: i1, %b: i1, %o: i1):
    %r = arith.xori %a, %b : i1
    linalg.yield %r : i1
  } -> tensor<8xi1, #iree_encoding.packed_storage>
  %res = flow.tensor.bitcast %x : tensor<8xi1, #iree_encoding.packed_storage> -> tensor<1xi8>
  check.expect_eq_const(%res, dense<[255]> : tensor<1xi8>) : tensor<1xi8>
  return
}
func.func @reshaped_mask() {
  %mask = util.unfoldable_constant dense<[140, 77]> : tensor<2xi8>
  %casted = flow.tensor.bitcast %mask : tensor<2xi8> -> tensor<4x4xi1, #iree_encoding.packed_storage>
  %bar = util.optimization_barrier %casted : tensor<4x4xi1, #iree_encoding.packed_storage>
  %res = flow.tensor.bitcast %bar : tensor<4x4xi1, #iree_encoding.packed_storage> -> tensor<2xi8>
  check.expect_eq_const(%res, dense<[140, 77]> : tensor<2xi8>) : tensor<2xi8>
  return
}
func.func @positive_mask() {
  %m = util.unfoldable_constant dense<[[0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]]> : tensor<4x4xi8>
  %nm = tensor.empty() : tensor<4x4xi1, #iree_encoding.packed_storage>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x4xi8>) outs(%nm : tensor<4x4xi1, #iree_encoding.packed_storage>) {
  ^bb0(%in: i8, %out: i1):
    %zero = arith.constant 0 : i8
    %gt = arith.cmpi sgt, %in, %zero : i8
    linalg.yield %gt : i1
  } -> tensor<4x4xi1, #iree_encoding.packed_storage>
  %res = flow.tensor.bitcast %t : tensor<4x4xi1, #iree_encoding.packed_storage> -> tensor<2xi8>
  check.expect_eq_const(%res, dense<[60, 195]> : tensor<2xi8>) : tensor<2xi8>
  return
}
// i4 wraps at 4 bits: 7 + 1 is -8.
func.func @i4_add() {
  %lhs = util.unfoldable_constant dense<[1, 2, 3, 7]> : tensor<4xi4>
  %rhs = util.unfoldable_constant dense<[1, 1, 1, 1]> : tensor<4xi4>
  %empty = tensor.empty() : tensor<4xi4>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%lhs, %rhs : tensor<4xi4>, tensor<4xi4>) outs(%empty : tensor<4xi4>) {
  ^bb0(%a: i4, %b: i4, %o: i4):
    %r = arith.addi %a, %b : i4
    linalg.yield %r : i4
  } -> tensor<4xi4>
  check.expect_eq_const(%sum, dense<[2, 3, 4, -8]> : tensor<4xi4>) : tensor<4xi4>
  return
}
// Two bytes as four signed nibbles, low first: 0x3C is 12 (-4) then 3; 0x87 is 7 then 8 (-8).
func.func @i4_from_bytes() {
  %bytes = util.unfoldable_constant dense<[60, -121]> : tensor<2xi8>
  %nibbles = flow.tensor.bitcast %bytes : tensor<2xi8> -> tensor<4xi4>
  check.expect_eq_const(%nibbles, dense<[-4, 3, 7, -8]> : tensor<4xi4>) : tensor<4xi4>
  return
}

// Every message the linalg importer gives for a function it refuses, each from a
// function of its own (all of them pass MLIR's verifier; MLIR's own errors, the
// file's and the IREE boundary's are in errors.mlir, refusals.mlir and iree_*.mlir).
// RUN: not polyfuse check %s --entry nan_constant 2>&1 | FileCheck --check-prefix=NAN-CONSTANT %s
// NAN-CONSTANT: messages.mlir:75:8: constant NaN is not supported in an expression
// RUN: not polyfuse check %s --entry bad_combiner 2>&1 | FileCheck --check-prefix=BAD-COMBINER %s
// BAD-COMBINER: messages.mlir:88:10: cannot read the combiner of this reduction: expected addf, mulf, maximumf, minimumf, their integer forms (addi, muli, maxsi, minsi, maxui, minui), or cmpf (a cmpi) with select, of the accumulator and one value
// RUN: not polyfuse check %s --entry acc_twice 2>&1 | FileCheck --check-prefix=ACC-TWICE %s
// ACC-TWICE: messages.mlir:100:10: this reduction uses its accumulator other than through its combiner
// RUN: not polyfuse check %s --entry dim_computed 2>&1 | FileCheck --check-prefix=DIM-COMPUTED %s
// DIM-COMPUTED: messages.mlir:108:8: tensor.dim with a computed dimension is not supported
// RUN: not polyfuse check %s --entry dim_beyond 2>&1 | FileCheck --check-prefix=DIM-BEYOND %s
// DIM-BEYOND: messages.mlir:118:8: tensor.dim beyond the tensor's rank
// RUN: not polyfuse check %s --entry extent_computed 2>&1 | FileCheck --check-prefix=EXTENT-COMPUTED %s
// EXTENT-COMPUTED: messages.mlir:130:8: an extent here is computed by an op polyfuse does not follow (extents must be constants, tensor.dim of a tensor, or affine.apply of those that is one extent or a constant)
// RUN: polyfuse check %s --entry from_elements 2>&1 | FileCheck --check-prefix=FROM-ELEMENTS %s
// FROM-ELEMENTS: note: 1 tensor.from_elements as a generic selecting each element by its position
// RUN: not polyfuse check %s --entry extract_computed 2>&1 | FileCheck --check-prefix=EXTRACT-COMPUTED %s
// EXTRACT-COMPUTED: messages.mlir:150:8: tensor.extract outside a linalg op takes constant indices here
// RUN: not polyfuse check %s --entry reduce_from_empty 2>&1 | FileCheck --check-prefix=REDUCE-FROM-EMPTY %s
// REDUCE-FROM-EMPTY: messages.mlir:161:8: this reduction starts from a tensor.empty, whose elements are undefined
// RUN: not polyfuse check %s --entry f80_type 2>&1 | FileCheck --check-prefix=F80-TYPE %s
// F80-TYPE: messages.mlir:168:1: element type f80 is not supported (f32, f64, f16, bf16, the f8 kinds, and signless integers i1 to i64 are)
// RUN: not polyfuse check %s --entry body_f80 2>&1 | FileCheck --check-prefix=BODY-F80 %s
// BODY-F80: messages.mlir:182:10: float type f80 is not supported (f16, bf16, f32 and f64 are)
// RUN: not polyfuse check %s --entry body_i65 2>&1 | FileCheck --check-prefix=BODY-I65 %s
// BODY-I65: messages.mlir:193:10: integers of 65 bits are not supported (i1 to i64 and index are)
// RUN: not polyfuse check %s --entry memref_op 2>&1 | FileCheck --check-prefix=MEMREF-OP %s
// MEMREF-OP: messages.mlir:201:3: 'memref.assume_alignment' on a buffer is not read (linalg ops, copies, loads, stores, allocations, constant globals, reshapes, subviews and casts of buffers are)
// RUN: not polyfuse check %s --entry value_outside 2>&1 | FileCheck --check-prefix=VALUE-OUTSIDE %s
// VALUE-OUTSIDE: messages.mlir:208:8: tensor.extract outside a linalg op takes constant indices here
// RUN: not polyfuse check %s --entry casts_disagree 2>&1 | FileCheck --check-prefix=CASTS-DISAGREE %s
// CASTS-DISAGREE: messages.mlir:218:8: extents 5 and 4 meet in one loop of this op
// RUN: not polyfuse check %s --entry slice_past 2>&1 | FileCheck --check-prefix=SLICE-PAST %s
// SLICE-PAST: messages.mlir:229:8: access x(d0 + 2) is out of bounds: 'x' has shape (6); index 'd0' ranges over 0:8 (from its where clause); check the where clauses
// RUN: not polyfuse check %s --entry unranked 2>&1 | FileCheck --check-prefix=UNRANKED %s
// UNRANKED: messages.mlir:242:8: expected a ranked tensor, found an operand of another type
// RUN: not polyfuse check %s --entry collapse_dynamic 2>&1 | FileCheck --check-prefix=COLLAPSE-DYNAMIC %s
// COLLAPSE-DYNAMIC: messages.mlir:246:8: collapse_shape of a dynamic extent inside static ones (x_1 within 4): its index would be divided by a size
// RUN: not polyfuse check %s --entry pack_dynamic 2>&1 | FileCheck --check-prefix=PACK-DYNAMIC %s
// PACK-DYNAMIC: messages.mlir:257:8: tensor.pack of a dynamic dimension with a padding value is not supported
// RUN: not polyfuse check %s --entry reshape_from_dynamic 2>&1 | FileCheck --check-prefix=RESHAPE-FROM-DYNAMIC %s
// RESHAPE-FROM-DYNAMIC: messages.mlir:262:8: tensor.reshape of a dynamic shape is not supported (a static one is read as a view)
// RUN: not polyfuse check %s --entry reshape_to_dynamic 2>&1 | FileCheck --check-prefix=RESHAPE-TO-DYNAMIC %s
// RESHAPE-TO-DYNAMIC: messages.mlir:272:8: tensor.reshape to a dynamic shape is not supported (a static one is read as a view)
// RUN: not polyfuse check %s --entry slice_dynamic_strided 2>&1 | FileCheck --check-prefix=SLICE-DYNAMIC-STRIDED %s
// SLICE-DYNAMIC-STRIDED: messages.mlir:278:8: extract_slice of a dynamic size with a stride other than 1 is not supported
// RUN: not polyfuse check %s --entry insert_dynamic_offset 2>&1 | FileCheck --check-prefix=INSERT-DYNAMIC-OFFSET %s
// INSERT-DYNAMIC-OFFSET: messages.mlir:288:8: insert_slice with computed offsets or strides is not supported (constants, and values that fold to them, are)
// RUN: not polyfuse check %s --entry write_not_projection 2>&1 | FileCheck --check-prefix=WRITE-NOT-PROJECTION %s
// WRITE-NOT-PROJECTION: messages.mlir:293:8: result 0 is written through a map that is not a projection of the loops; polyfuse needs each result point written by whole loops
// RUN: not polyfuse check %s --entry insert_at 2>&1 | FileCheck --check-prefix=INSERT-AT %s
// INSERT-AT: messages.mlir:301:8: tensor.insert writes at 9 in dimension 0, outside 0:4
// RUN: not polyfuse check %s --entry slice_takes 2>&1 | FileCheck --check-prefix=SLICE-TAKES %s
// SLICE-TAKES: messages.mlir:307:8: the extract_slice takes 8 elements from 2 of a dimension of 6
// RUN: not polyfuse check %s --entry write_at_zero 2>&1 | FileCheck --check-prefix=WRITE-AT-ZERO %s
// WRITE-AT-ZERO: messages.mlir:323:8: result 0 is written only at index 0 of its dimension 1, whose extent is not 1; polyfuse needs each result point written by whole loops
// RUN: not polyfuse check %s --entry split_dynamic 2>&1 | FileCheck --check-prefix=SPLIT-DYNAMIC %s
// SPLIT-DYNAMIC: messages.mlir:334:8: loop d0 is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts) at 2, which does not divide its extent x_0
// RUN: polyfuse check %s --entry pack_dynamic_source --tc | FileCheck --check-prefix=PACK-DYNAMIC-SOURCE %s
// PACK-DYNAMIC-SOURCE: def pack_dynamic_source(float(8) x) -> (float(2, 4) p)
// RUN: not polyfuse check %s --entry nope 2>&1 | FileCheck --check-prefix=NO-ENTRY %s
// NO-ENTRY: polyfuse: error: no function named 'nope' in {{.*}}messages.mlir (it has: nan_constant, bad_combiner,
// A file with no function to import: empty, or only declarations.
// RUN: printf '  \n' > %t.empty.mlir && not polyfuse check %t.empty.mlir 2>&1 | FileCheck --check-prefix=EMPTY %s
// EMPTY: empty.mlir:1:1: file is empty: expected a func.func on tensors
// RUN: printf 'func.func private @f(tensor<4xf32>) -> tensor<4xf32>\n' > %t.decl.mlir && not polyfuse check %t.decl.mlir 2>&1 | FileCheck --check-prefix=DECL %s
// DECL: decl.mlir:1:1: no func.func with a body in this file
#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @nan_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %nan = arith.constant 0x7FC00000 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %nan : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @bad_combiner(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @acc_twice(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %acc, %a : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @dim_computed(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %k = arith.addi %c0, %c0 : index
  %n = tensor.dim %x, %k : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @dim_beyond(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c3 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @extent_computed(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %m = arith.muli %n, %n : index
  %e = tensor.empty(%m) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %one = arith.constant 1.0 : f32
    linalg.yield %one : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @from_elements(%a: f32, %b: f32) -> tensor<2xf32> {
  %t = tensor.from_elements %a, %b : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @extract_computed(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %i = arith.addi %c0, %c0 : index
  %v = tensor.extract %x[%i] : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @reduce_from_empty(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @f80_type(%x: tensor<4xf80>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf80>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f80, %o: f32):
    %t = arith.truncf %a : f80 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @body_f80(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %w = arith.extf %a : f32 to f80
    %m = arith.mulf %w, %w : f80
    %t = arith.truncf %m : f80 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @body_i65(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %w = arith.fptosi %a : f32 to i65
    %m = arith.muli %w, %w : i65
    %t = arith.sitofp %m : i65 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @memref_op(%x: memref<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  memref.assume_alignment %x, 16 : memref<4xf32>
  return %y : tensor<4xf32>
}
func.func @value_outside(%x: tensor<4xf32>, %y: tensor<4xf32>, %ids: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %k = tensor.extract %ids[%c0] : tensor<1xi64>
  %i = arith.index_cast %k : i64 to index
  %v = tensor.extract %y[%i] : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @casts_disagree(%x: tensor<5xf32>) -> tensor<4xf32> {
  %c = tensor.cast %x : tensor<5xf32> to tensor<?xf32>
  %d = tensor.cast %c : tensor<?xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%d : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @slice_past(%x: tensor<?xf32>, %y: tensor<6xf32>) -> (tensor<8xf32>, tensor<6xf32>) {
  %s = tensor.extract_slice %x[2] [8] [1] : tensor<?xf32> to tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %e6 = tensor.empty() : tensor<6xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xf32>, tensor<6xf32>) outs(%e6 : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<6xf32>
  return %r, %q : tensor<8xf32>, tensor<6xf32>
}
func.func @unranked(%x: tensor<4xf32>) -> tensor<*xf32> {
  %c = tensor.cast %x : tensor<4xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}
func.func @collapse_dynamic(%x: tensor<4x?xf32>) -> tensor<?xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @pack_dynamic(%x: tensor<?xf32>, %d: tensor<?x4xf32>, %z: f32) -> tensor<?x4xf32> {
  %p = tensor.pack %x padding_value(%z : f32) inner_dims_pos = [0] inner_tiles = [4] into %d : tensor<?xf32> -> tensor<?x4xf32>
  return %p : tensor<?x4xf32>
}
func.func @reshape_from_dynamic(%x: tensor<?xf32>) -> tensor<2x2xf32> {
  %s = arith.constant dense<[2, 2]> : tensor<2xi64>
  %r = tensor.reshape %x(%s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %q = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  return %q : tensor<2x2xf32>
}
func.func @reshape_to_dynamic(%x: tensor<4xf32>) -> tensor<2x?xf32> {
  %s = arith.constant dense<[2, 2]> : tensor<2xi64>
  %r = tensor.reshape %x(%s) : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
func.func @slice_dynamic_strided(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %s = tensor.extract_slice %x[0] [%n] [2] : tensor<?xf32> to tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @insert_dynamic_offset(%x: tensor<2xf32>, %d: tensor<8xf32>, %y: tensor<?xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index  %c1 = tensor.dim %y, %c0 : tensor<?xf32>
  %i = tensor.insert_slice %x into %d[%c1] [2] [1] : tensor<2xf32> into tensor<8xf32>
  return %i : tensor<8xf32>
}
func.func @write_not_projection(%x: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> (d0 * 2)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @insert_at(%x: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c9 = arith.constant 9 : index
  %i = tensor.insert %v into %x[%c9] : tensor<4xf32>
  return %i : tensor<4xf32>
}
func.func @slice_takes(%x: tensor<?xf32>, %y: tensor<8xf32>, %z: tensor<6xf32>) -> (tensor<?xf32>, tensor<6xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %y, %c0 : tensor<8xf32>
  %s = tensor.extract_slice %x[2] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %e6 = tensor.empty() : tensor<6xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %z : tensor<?xf32>, tensor<6xf32>) outs(%e6 : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<6xf32>
  return %r, %q : tensor<?xf32>, tensor<6xf32>
}
func.func @write_at_zero(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @split_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @pack_dynamic_source(%x: tensor<?xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %p = tensor.pack %x inner_dims_pos = [0] inner_tiles = [4] into %e : tensor<?xf32> -> tensor<2x4xf32>
  return %p : tensor<2x4xf32>
}
// RUN: expect-exit 2 polyfuse check %s --entry ipowi_computed 2>&1 | FileCheck --check-prefix=IPOWI %s
// IPOWI: messages.mlir:351:10: math.ipowi by an exponent that is not a constant of at most 64 is not supported
func.func @ipowi_computed(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%v: i32, %o: i32):
    %p = math.ipowi %v, %v : i32
    linalg.yield %p : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

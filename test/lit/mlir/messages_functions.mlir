// The importer's refusals of functions, buffers, globals and calls, each from a function
// of its own, with the file, line and column where the refusal is (the rest are in
// messages.mlir; tools/message_coverage.py finds any message no test holds).
// RUN: not polyfuse check %s --entry unranked 2>&1 | FileCheck --check-prefix=UNRANKED %s
// UNRANKED: messages_functions.mlir:34:1: a buffer of unranked type is not read (ranked memrefs are)
// RUN: not polyfuse check %s --entry strided 2>&1 | FileCheck --check-prefix=STRIDED %s
// STRIDED: messages_functions.mlir:37:1: an argument buffer with a layout (a strided view of a buffer the caller holds) is not read
// RUN: not polyfuse check %s --entry bare_global 2>&1 | FileCheck --check-prefix=BARE-GLOBAL %s
// BARE-GLOBAL: messages_functions.mlir:43:8: memref.get_global of '@bare', which has no initial value of its type
// RUN: not polyfuse check %s --entry expand_dynamic 2>&1 | FileCheck --check-prefix=EXPAND-DYNAMIC %s
// EXPAND-DYNAMIC: messages_functions.mlir:49:8: 'memref.expand_shape' of a buffer of dynamic shape is not read (of a static one it is)
// RUN: not polyfuse check %s --entry two_blocks 2>&1 | FileCheck --check-prefix=TWO-BLOCKS %s
// TWO-BLOCKS: messages_functions.mlir:54:1: function 'two_blocks' has more than one block
// RUN: not polyfuse check %s --entry no_tensor 2>&1 | FileCheck --check-prefix=NO-TENSOR %s
// NO-TENSOR: messages_functions.mlir:61:1: function 'no_tensor' returns no tensor: polyfuse computes a function's results
// RUN: not polyfuse check %s --entry index_result 2>&1 | FileCheck --check-prefix=INDEX-RESULT %s
// INDEX-RESULT: messages_functions.mlir:67:3: the function returns a value of type index: polyfuse computes tensors (a scalar result is a tensor of rank 0)
// RUN: not polyfuse check %s --entry store_scalar 2>&1 | FileCheck --check-prefix=STORE-SCALAR %s
// STORE-SCALAR: messages_functions.mlir:71:3: ml_program.global_store of '@count' stores a value that is not a tensor
// RUN: not polyfuse check %s --entry scf_dynamic 2>&1 | FileCheck --check-prefix=SCF-DYNAMIC %s
// SCF-DYNAMIC: messages_functions.mlir:77:8: 'scf.for' with bounds or steps that are not constants is not read: polyfuse unrolls loops of constant bounds
// RUN: not polyfuse check %s --entry sum_divided 2>&1 | FileCheck --check-prefix=SUM-DIVIDED %s
// SUM-DIVIDED: messages_functions.mlir:84:8: a subscript here divides a loop in a form polyfuse cannot split into loops: it splits d floordiv c, d mod c and (d floordiv c) mod n of one loop of a linalg op, such as a collapse_shape of several non-unit extents read along it (not through a slice or pad of it, nor by a tensor op)
// More calls than the importer inlines: 14 functions each calling the next twice.
// RUN: %python %S/Inputs/fan_out_calls.py 14 > %t.calls.mlir
// RUN: not polyfuse check %t.calls.mlir 2>&1 | FileCheck --check-prefix=CALLS %s
// CALLS: calls.mlir:63:8: more than 10000 calls to inline: the entry's calls and theirs unfold into more (reached at a call to '@f13')
// RUN: not polyfuse check %s --entry store_in_region 2>&1 | FileCheck --check-prefix=STORE-IN-REGION %s
// STORE-IN-REGION: messages_functions.mlir:93:5: ml_program.global_store of '@acc' inside a region: only the function's own stores are read
// RUN: not polyfuse check %s --entry bitcast_body 2>&1 | FileCheck --check-prefix=BITCAST-BODY %s
// BITCAST-BODY: messages_functions.mlir:102:10: unsupported operation 'arith.bitcast' in the body of a linalg op
// RUN: not polyfuse check %s --entry top_if 2>&1 | FileCheck --check-prefix=TOP-IF %s
// TOP-IF: messages_functions.mlir:108:8: unsupported operation 'scf.if': polyfuse imports linalg ops, linalg.fill, tensor.empty, tensor.dim, reshapes, slices, tensor.pad, tensor.insert_slice, tensor.insert, tensor.concat and constants
func.func @unranked(%a: memref<*xf32>, %b: memref<4xf32>) {
  return
}
func.func @strided(%a: memref<4xf32, strided<[2]>>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32, strided<[2]>> to memref<4xf32>
  return
}
memref.global "private" @bare : memref<4xf32>
func.func @bare_global(%b: memref<4xf32>) {
  %m = memref.get_global @bare : memref<4xf32>
  memref.copy %m, %b : memref<4xf32> to memref<4xf32>
  return
}
func.func @expand_dynamic(%a: memref<8xf32>, %b: memref<2x4xf32>, %n: index) {
  %c = memref.cast %a : memref<8xf32> to memref<?xf32>
  %e = memref.expand_shape %c [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  %s = memref.cast %e : memref<?x4xf32> to memref<2x4xf32>
  memref.copy %s, %b : memref<2x4xf32> to memref<2x4xf32>
  return
}
func.func @two_blocks(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  return %x : tensor<4xf32>
^b:
  return %x : tensor<4xf32>
}
func.func @no_tensor(%x: f32) {
  return
}
func.func @index_result(%x: tensor<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  return %d : index
}
ml_program.global private mutable @count(0.0 : f32) : f32
func.func @store_scalar(%x: tensor<4xf32>, %y: f32) -> tensor<4xf32> {
  ml_program.global_store @count = %y : f32
  return %x : tensor<4xf32>
}
func.func @scf_dynamic(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @sum_divided(%x: tensor<8xf32>, %y: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 + d1) floordiv 2)>, affine_map<(d0, d1) -> (d0 floordiv 2, d0 mod 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8xf32>, tensor<2x2xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
ml_program.global private mutable @acc(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
func.func @store_in_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  scf.execute_region {
    ml_program.global_store @acc = %x : tensor<4xf32>
    scf.yield
  }
  return %x : tensor<4xf32>
}
func.func @bitcast_body(%x: tensor<4xf32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xi32>) {
  ^bb0(%a: f32, %o: i32):
    %b = arith.bitcast %a : f32 to i32
    linalg.yield %b : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}
func.func @top_if(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

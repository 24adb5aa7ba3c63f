// The transform dialect's scripts beside the functions (MLIR's own tests schedule their
// payload with them) compute nothing: they are dropped, lines kept, and the functions read
// as written. A dynamic buffer's next value is not named as one of its sizes (`arg2_1`).
// RUN: polyfuse check %s --entry scale --tc 2>/dev/null | FileCheck --check-prefix=SCALE %s
// SCALE: def scale(float(arg0_0, arg0_1) arg0, float(arg0_0, arg0_1) arg1, float(arg0_0, arg0_1) arg2) -> (float(arg0_0, arg0_1) arg2_2) {
// SCALE-NEXT: arg2_2(d0, d1) = arg0(d0, d1) + arg1(d0, d1)
// RUN: polyfuse check %s --entry relu 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: dropped the transform dialect's scripts: they say how MLIR would schedule the functions, and polyfuse makes its own schedule
// Lines keep their numbers:
// RUN: not polyfuse check %s --entry sized 2>&1 | FileCheck --check-prefix=LINE %s
// LINE: transform_scripts.mlir:42:3: the function returns a value of type index
func.func @scale(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>) {
  linalg.add ins(%arg0, %arg1 : memref<?x?xf32>, memref<?x?xf32>) outs(%arg2 : memref<?x?xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.add"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

transform.sequence failures(propagate) {
^bb0(%arg1: !transform.any_op):
  %0 = transform.structured.match ops{["linalg.add"]} in %arg1 : (!transform.any_op) -> !transform.any_op
}

func.func @relu(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sized(%n: index) -> index {
  return %n : index
}

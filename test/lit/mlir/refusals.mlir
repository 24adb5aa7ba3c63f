// The importer's refusals, one function each: every message names the op (line and
// column) and says what polyfuse takes instead; exit status 2. (Messages tested
// elsewhere are not repeated here.)
// RUN: expect-exit 2 polyfuse check %s --entry pad_computed 2>&1 | FileCheck --check-prefix=PAD_COMPUTED %s
// PAD_COMPUTED: refusals.mlir:34:8: tensor.pad with computed padding amounts is not supported (constants, and values that fold to them, are)
// RUN: expect-exit 2 polyfuse check %s --entry pad_value 2>&1 | FileCheck --check-prefix=PAD_VALUE %s
// PAD_VALUE: refusals.mlir:41:8: tensor.pad must yield one constant or float argument, the same at every point
// RUN: expect-exit 2 polyfuse check %s --entry insert_strided 2>&1 | FileCheck --check-prefix=INSERT_STRIDED %s
// INSERT_STRIDED: refusals.mlir:49:8: insert_slice with a stride other than 1 is not supported
// RUN: expect-exit 2 polyfuse check %s --entry insert_rank_strided 2>&1 | FileCheck --check-prefix=INSERT_RANK %s
// INSERT_RANK: refusals.mlir:53:8: insert_slice with a stride other than 1 is not supported
// RUN: expect-exit 2 polyfuse check %s --entry slice_dynamic 2>&1 | FileCheck --check-prefix=SLICE_DYNAMIC %s
// SLICE_DYNAMIC: refusals.mlir:59:8: extract_slice with computed offsets or strides is not supported (constants, and values that fold to them, are)
// RUN: expect-exit 2 polyfuse check %s --entry fill_computed 2>&1 | FileCheck --check-prefix=FILL_COMPUTED %s
// FILL_COMPUTED: refusals.mlir:69:8: integer arithmetic on 6364136223846793005, beyond 2^53: polyfuse computes integers exactly only below it, and MLIR's would wrap at 64 bits (a random number generator?)
// RUN: expect-exit 2 polyfuse check %s --entry reads_empty 2>&1 | FileCheck --check-prefix=READS_EMPTY %s
// READS_EMPTY: refusals.mlir:76:8: this op reads a tensor.empty, whose elements are undefined
// RUN: expect-exit 2 polyfuse check %s --entry returns_empty 2>&1 | FileCheck --check-prefix=RETURNS_EMPTY %s
// RETURNS_EMPTY: refusals.mlir:85:3: the function returns a tensor it never computes
// RUN: polyfuse check %s --entry returns_argument --tc 2>&1 | FileCheck --check-prefix=RETURNS_ARGUMENT %s
// RETURNS_ARGUMENT: note: the function returns 'x' (line 88) as it is; output 'x_copy' is a copy of it
// RUN: polyfuse check %s --entry reduced_constant --tc 2>/dev/null | FileCheck --check-prefix=REDUCED_CONSTANT %s
// REDUCED_CONSTANT: r(d0) +=! x(d0) where d1 in 0:3
// RUN: expect-exit 2 polyfuse check %s --entry collapse_dynamic 2>&1 | FileCheck --check-prefix=COLLAPSE_DYNAMIC %s
// COLLAPSE_DYNAMIC: refusals.mlir:103:8: collapse_shape of two dynamic extents: their product is not one size
// RUN: expect-exit 2 polyfuse check %s --entry expand_dynamic 2>&1 | FileCheck --check-prefix=EXPAND_DYNAMIC %s
// EXPAND_DYNAMIC: refusals.mlir:116:8: expand_shape with a dynamic inner extent is not affine; polyfuse needs static ones
// RUN: expect-exit 2 polyfuse check %s --entry unranked_argument 2>&1 | FileCheck --check-prefix=UNRANKED_ARGUMENT %s
// UNRANKED_ARGUMENT: refusals.mlir:124:49: argument 'n' is neither a ranked tensor, a number nor an index
func.func @pad_computed(%x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %y, %c0 : tensor<?xf32>
  %p = tensor.pad %x low[%n] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}
func.func @pad_value(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<6xf32> {
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %v = tensor.extract %y[%i] : tensor<4xf32>
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %p : tensor<6xf32>
}
func.func @insert_strided(%x: tensor<2xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %r = tensor.insert_slice %x into %d[0] [2] [3] : tensor<2xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @insert_rank_strided(%x: tensor<2xf32>, %d: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = tensor.insert_slice %x into %d[1, 0] [1, 2] [1, 2] : tensor<2xf32> into tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @slice_dynamic(%x: tensor<8xf32>, %y: tensor<?xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %o = tensor.dim %y, %c0 : tensor<?xf32>
  %s = tensor.extract_slice %x[%o] [2] [1] : tensor<8xf32> to tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @fill_computed(%a: i64) -> tensor<4xi64> {
  %m = arith.constant 6364136223846793005 : i64
  %v = arith.muli %a, %m : i64
  %e = tensor.empty() : tensor<4xi64>
  %f = linalg.fill ins(%v : i64) outs(%e : tensor<4xi64>) -> tensor<4xi64>
  return %f : tensor<4xi64>
}
func.func @reads_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %e : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @returns_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @returns_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @reduced_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %y : tensor<4xf32>, tensor<4x3xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @collapse_dynamic(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @expand_dynamic(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<2x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %y, %c0 : tensor<?xf32>
  %c = tensor.expand_shape %x [[0, 1]] output_shape [2, %n] : tensor<?xf32> into tensor<2x?xf32>
  %e = tensor.empty(%n) : tensor<2x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<2x?xf32>) outs(%e : tensor<2x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
func.func @unranked_argument(%x: tensor<4xf32>, %n: tensor<*xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

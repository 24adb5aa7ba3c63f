// Offsets and pad amounts that fold from values are checked as MLIR's verifier checks
// static ones: a window that leaves its tensor, or a negative amount, is refused at the op.
// RUN: expect-exit 2 polyfuse check %s --entry neg 2>&1 | FileCheck --check-prefix=NEG %s
// NEG: folded_windows.mlir:[[@LINE+11]]:8: extract_slice in dimension 0 at offset -1, size 2 leaves the tensor (extent 4)
// RUN: expect-exit 2 polyfuse check %s --entry big 2>&1 | FileCheck --check-prefix=BIG %s
// BIG: folded_windows.mlir:[[@LINE+20]]:8: extract_slice in dimension 0 at offset 3, size 2 leaves the tensor (extent 4)
// RUN: expect-exit 2 polyfuse check %s --entry ins 2>&1 | FileCheck --check-prefix=INS %s
// INS: folded_windows.mlir:[[@LINE+29]]:8: insert_slice in dimension 1 at offset 5, size 3 leaves the tensor (extent 6)
// RUN: expect-exit 2 polyfuse check %s --entry pad 2>&1 | FileCheck --check-prefix=PAD %s
// PAD: folded_windows.mlir:[[@LINE+35]]:8: tensor.pad by a negative amount (-1) is not supported
func.func @neg(%y: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %m = arith.subi %c0, %c1 : index
  %s = tensor.extract_slice %y[%m, 5] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
func.func @big(%y: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %c3 = arith.constant 3 : index
  %s = tensor.extract_slice %y[%c3, 0] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
func.func @ins(%x: tensor<2x3xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %c5 = arith.constant 5 : index
  %i = tensor.insert_slice %x into %y[0, %c5] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  return %i : tensor<4x6xf32>
}
func.func @pad(%x: tensor<4xf32>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.subi %c0, %c1 : index
  %p = tensor.pad %x low[%m] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}
// A dropped dimension's offset is checked too, and a fold in a narrow integer type that
// MLIR would wrap does not fold (the offset is then a computed one).
// RUN: expect-exit 2 polyfuse check %s --entry dropped 2>&1 | FileCheck --check-prefix=DROPPED %s
// DROPPED: folded_windows.mlir:[[@LINE+5]]:8: extract_slice in dimension 0 at offset 4, size 1 leaves the tensor (extent 4)
// RUN: expect-exit 2 polyfuse check %s --entry wraps 2>&1 | FileCheck --check-prefix=WRAPS %s
// WRAPS: folded_windows.mlir:[[@LINE+10]]:8: extract_slice with computed offsets or strides is not supported
func.func @dropped(%y: tensor<4x6xf32>) -> tensor<6xf32> {
  %c4 = arith.constant 4 : index
  %s = tensor.extract_slice %y[%c4, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
  return %s : tensor<6xf32>
}
func.func @wraps(%y: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %big = arith.constant 65536 : i32
  %p = arith.muli %big, %big : i32
  %o = arith.index_cast %p : i32 to index
  %s = tensor.extract_slice %y[%o, 0] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

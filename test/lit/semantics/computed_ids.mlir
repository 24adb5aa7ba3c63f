// Ids computed from loop indices (torch's arange: GPT-2's position ids, here also with a
// start and a step, and offset by a cache's length) are read at that function of the
// reading op's loops: affine reads, not gathers, so the search knows which rows move. The
// token ids stay a gather. An ids tensor read only that way is dropped; one that is also
// returned is kept. Compared with MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl --int-high 50 | FileCheck %s
// CHECK: ref s: 56 elements match MLIR
// CHECK: ref pos: 7 elements match MLIR
// CHECK: opencl s: 56 elements match MLIR
// CHECK: opencl pos: 7 elements match MLIR
// RUN: polyfuse check %s --tc | FileCheck --check-prefix=TC %s
// TC: pos(d0) = d0 where d0 in 0:7
// The rows so read are copies, read through where they are used, the token rows (a
// gather) too (docs/design.md):
// TC-NEXT: s(d0, d1, d2) = wte(ids(0, d1), d2) + wpe(d1, d2) + wpe(2*d1 + 1, d2) + wpe(d1 + 9, d2) where d0 in 0:1
// RUN: polyfuse check %s 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: tensor.extract at line {{[0-9]+}} reads 'wte' at data-dependent subscripts
// NOTE: note: tensor.extract at line {{[0-9]+}} reads 'wpe' at ids that line {{[0-9]+}} computes from its loop indices: an affine read, not a gather
// NOTE: note: 'strided' dropped: it was read only as ids computed from loop indices
// NOTE-NOT: 'pos' dropped
// Ids that leave the table are refused where they are read, as MLIR leaves them undefined.
// RUN: expect-exit 2 polyfuse check %S/../Inputs/mlir/ids_outside.mlir 2>&1 | FileCheck --check-prefix=OUT %s
// OUT: ids_outside.mlir:14:10: tensor.extract reads 'wpe' at ids from 0 to 19 in dimension 0, outside 0:16
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @embed(%ids: tensor<1x7xi64>, %wte: tensor<50x8xf32>, %wpe: tensor<16x8xf32>) -> (tensor<1x7x8xf32>, tensor<7xi64>) {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %pe = tensor.empty() : tensor<7xi64>
  %pos = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%pe : tensor<7xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<7xi64>
  %strided = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%pe : tensor<7xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %m = arith.muli %c, %c2 : i64
    %a = arith.addi %m, %c1 : i64
    linalg.yield %a : i64
  } -> tensor<7xi64>
  %p2 = tensor.expand_shape %pos [[0, 1]] output_shape [1, 7] : tensor<7xi64> into tensor<1x7xi64>
  %s2 = tensor.expand_shape %strided [[0, 1]] output_shape [1, 7] : tensor<7xi64> into tensor<1x7xi64>
  %e = tensor.empty() : tensor<1x7x8xf32>
  %tok = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x7xi64>) outs(%e : tensor<1x7x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %x = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %wte[%x, %j] : tensor<50x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x7x8xf32>
  %posv = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p2 : tensor<1x7xi64>) outs(%e : tensor<1x7x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %x = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %wpe[%x, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x7x8xf32>
  %sv = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s2 : tensor<1x7xi64>) outs(%e : tensor<1x7x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %x = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %wpe[%x, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x7x8xf32>
  // A cache of 9 positions before these: the ids are offset inside the reading op.
  %cv = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p2 : tensor<1x7xi64>) outs(%e : tensor<1x7x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %c9 = arith.constant 9 : index
    %x = arith.index_cast %id : i64 to index
    %y = arith.addi %x, %c9 : index
    %j = linalg.index 2 : index
    %v = tensor.extract %wpe[%y, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x7x8xf32>
  %s = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tok, %posv, %sv, %cv : tensor<1x7x8xf32>, tensor<1x7x8xf32>, tensor<1x7x8xf32>, tensor<1x7x8xf32>) outs(%e : tensor<1x7x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    %r2 = arith.addf %r, %c : f32
    %r3 = arith.addf %r2, %d : f32
    linalg.yield %r3 : f32
  } -> tensor<1x7x8xf32>
  return %s, %pos : tensor<1x7x8xf32>, tensor<7xi64>
}

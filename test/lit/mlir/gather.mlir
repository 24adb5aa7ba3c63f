// A gather as torch-mlir lowers aten.embedding: a generic over the ids whose body
// extracts the table's row at the id (index_cast) and the column at linalg.index. It
// becomes the TC gather wte(ids(0, d0), d1) (its unit loop dropped, as IREE drops them),
// a may-read of wte's rows (a note says so), and plans as the TC program written by hand. Run on PoCL in exec/gather.test.
// The gathered rows are a copy, read through where they are used (docs/design.md);
// --keep-copies keeps the gather a statement.
// RUN: polyfuse check %s --tc --keep-copies 2> %t.err | FileCheck --check-prefix=KEPT %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// KEPT: def embed(int64(1, ids_1) ids, float(50, 16) wte, float(ids_1, 16) wpe) -> (float(1, ids_1, 16) sum) {
// KEPT-NEXT:   emb(d0, d1) = wte(ids(0, d0), d1) where d1 in 0:16
// KEPT-NEXT:   sum(d0, d1, d2) = emb(d1, d2) + wpe(d1, d2) where d0 in 0:1
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s
// CHECK: def embed(int64(1, ids_1) ids, float(50, 16) wte, float(ids_1, 16) wpe) -> (float(1, ids_1, 16) sum) {
// CHECK-NEXT:   sum(d0, d1, d2) = wte(ids(0, d1), d2) + wpe(d1, d2) where d0 in 0:1
// NOTE: note: tensor.extract at line {{[0-9]+}} reads 'wte' at data-dependent subscripts: a may-read of the dimensions they index
// RUN: polyfuse check %s --tc > %t.tc 2> /dev/null
// RUN: polyfuse fuse %s --size ids_1=7 2> /dev/null | sed -n '/^K0/,$p' > %t.mlir.plan
// RUN: polyfuse fuse %t.tc --size ids_1=7 | sed -n '/^K0/,$p' > %t.tc.plan
// RUN: diff %t.mlir.plan %t.tc.plan
// RUN: FileCheck --check-prefix=PLAN %s < %t.mlir.plan
// PLAN: K0 S0 {{.*}}
// PLAN: total: 1 kernel(s), dram_bytes 1400 (lower bound 1400, 1.00x)
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pos = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @embed(%ids: tensor<1x?xi64>, %wte: tensor<50x16xf32>, %wpe: tensor<?x16xf32>) -> tensor<1x?x16xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %ids, %c1 : tensor<1x?xi64>
  %e = tensor.empty(%n) : tensor<1x?x16xf32>
  %emb = linalg.generic {indexing_maps = [#ids, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<1x?xi64>) outs(%e : tensor<1x?x16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %wte[%i, %j] : tensor<50x16xf32>
    linalg.yield %v : f32
  } -> tensor<1x?x16xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #pos, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%emb, %wpe : tensor<1x?x16xf32>, tensor<?x16xf32>) outs(%e : tensor<1x?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x?x16xf32>
  return %sum : tensor<1x?x16xf32>
}

// A module as torch-mlir writes it: an unused ml_program.global (the seed torch-mlir
// always adds) beside the function, and cf.assert bounds checks, which are dropped with a
// note (they check, they compute nothing). Compared with MLIR's execution.
// RUN: polyfuse check %s --tc 2> %t.err | FileCheck %s
// CHECK: def forward(int64(4) arg0, float(10, 8) wte) -> (float(4, 8) r) {
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// NOTE: note: cf.assert at line [[@LINE+13]] dropped: it checks a condition, it computes nothing
// RUN: %oracle %s --backend ref --backend opencl --int-high 10 | FileCheck --check-prefix=MLIR %s
// MLIR: ref r: 32 elements match MLIR
// MLIR: opencl r: 32 elements match MLIR
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {torch.debug_module_name = "Embed"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<4xi64>, %wte: tensor<10x8xf32>) -> tensor<4x8xf32> {
    %c0 = arith.constant 0 : index
    %c10 = arith.constant 10 : index
    %dim = tensor.dim %wte, %c0 : tensor<10x8xf32>
    %ok = arith.cmpi eq, %dim, %c10 : index
    cf.assert %ok, "mismatching contracting dimension"
    %e = tensor.empty() : tensor<4x8xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: i64, %out: f32):
      %i = arith.index_cast %in : i64 to index
      %j = linalg.index 1 : index
      %v = tensor.extract %wte[%i, %j] : tensor<10x8xf32>
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}

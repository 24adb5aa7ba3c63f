// Gathers read through (polyir/ConstantTensors.h, readThroughCopies), as an exported
// LLaMA writes its rotary embedding: a slice of the cached table (a copy), the rows of
// that slice (a generic copying it) gathered at the positions (a gathering copy), read by elementwise
// statements. Each reader reads the table at the position itself, and neither copy is a
// statement any more; a reduction over the gathered rows would re-read each of them, so
// there the gather stays. The embedding's ids are computed (clamped), then the table's
// rows gathered at them and read twice. Every strategy's OpenCL against MLIR's execution.
// RUN: %oracle %s --entry rotary --backend ref --backend opencl --int-high 9 | FileCheck --check-prefix=ROT %s
// RUN: %oracle %s --entry rotary --backend opencl --strategy nofuse --int-high 9 | FileCheck --check-prefix=ROTCL %s
// ROT: ref r: 35 elements match MLIR
// ROT: opencl r: 35 elements match MLIR
// ROTCL: opencl r: 35 elements match MLIR
// RUN: polyfuse check %s --entry rotary 2>&1 | FileCheck --check-prefix=ROTP %s
// ROTP: note: 2 copied tensor(s) read through to what they copy
// ROTP: r(d0, d1) = x(d0, d1) * table(0, 0, pos(0, d0), d1) - x(d0, -d1 + 6) * table(0, 0, pos(0, d0), d1)
// ROTP-NOT: = table(
// RUN: %oracle %s --entry summed --backend ref --backend opencl --int-high 9 | FileCheck --check-prefix=SUM %s
// SUM: ref r: 7 elements match MLIR
// SUM: opencl r: 7 elements match MLIR
// RUN: polyfuse check %s --entry summed 2>&1 | FileCheck --check-prefix=SUMP %s
// SUMP: g(d0, d1) = table(0, 0, pos(0, d0), d1)
// SUMP: r(d0) +=! g(d1, d0)
// RUN: %oracle %s --entry embed --backend ref --backend opencl --int-high 40 | FileCheck --check-prefix=EMB %s
// RUN: %oracle %s --entry embed --backend opencl --strategy greedy --int-high 40 | FileCheck --check-prefix=EMBCL %s
// EMB: ref r: 30 elements match MLIR
// EMB: opencl r: 30 elements match MLIR
// EMBCL: opencl r: 30 elements match MLIR
// RUN: polyfuse check %s --entry embed 2>&1 | FileCheck --check-prefix=EMBP %s
// EMBP: r(d0, d1) = wte(ids(d0), d1) * wte(ids(d0), d1) + wte(ids(d0), d1)
#id = affine_map<(d0, d1) -> (d0, d1)>
#rev = affine_map<(d0, d1) -> (d0, 6 - d1)>
func.func @rotary(%x: tensor<5x7xf32>, %table: tensor<1x1x9x7xf32>, %pos: tensor<1x5xi64>) -> tensor<5x7xf32> {
  %es = tensor.empty() : tensor<9x7xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, 0, d0, d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%table : tensor<1x1x9x7xf32>) outs(%es : tensor<9x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<9x7xf32>
  %e = tensor.empty() : tensor<5x7xf32>
  %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5x7xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %p = tensor.extract %pos[%c0, %i] : tensor<1x5xi64>
    %pi = arith.index_cast %p : i64 to index
    %v = tensor.extract %c[%pi, %j] : tensor<9x7xf32>
    linalg.yield %v : f32
  } -> tensor<5x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #rev, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %g, %x : tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%a: f32, %b: f32, %a2: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %m2 = arith.mulf %a2, %b : f32
    %s = arith.subf %m, %m2 : f32
    linalg.yield %s : f32
  } -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}

func.func @summed(%table: tensor<1x1x9x7xf32>, %pos: tensor<1x5xi64>) -> tensor<7xf32> {
  %c = tensor.extract_slice %table[0, 0, 0, 0] [1, 1, 9, 7] [1, 1, 1, 1] : tensor<1x1x9x7xf32> to tensor<9x7xf32>
  %e = tensor.empty() : tensor<5x7xf32>
  %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5x7xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %p = tensor.extract %pos[%c0, %i] : tensor<1x5xi64>
    %pi = arith.index_cast %p : i64 to index
    %v = tensor.extract %c[%pi, %j] : tensor<9x7xf32>
    linalg.yield %v : f32
  } -> tensor<5x7xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<7xf32>) -> tensor<7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%g : tensor<5x7xf32>) outs(%f : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}

func.func @embed(%wte: tensor<32x6xf32>, %tokens: tensor<5xi64>) -> tensor<5x6xf32> {
  %ei = tensor.empty() : tensor<5xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tokens : tensor<5xi64>) outs(%ei : tensor<5xi64>) {
  ^bb0(%t: i64, %o: i64):
    %hi = arith.constant 31 : i64
    %m = arith.minsi %t, %hi : i64
    linalg.yield %m : i64
  } -> tensor<5xi64>
  %e = tensor.empty() : tensor<5x6xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<5xi64>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%t: i64, %o: f32):
    %j = linalg.index 1 : index
    %ti = arith.index_cast %t : i64 to index
    %v = tensor.extract %wte[%ti, %j] : tensor<32x6xf32>
    linalg.yield %v : f32
  } -> tensor<5x6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %s = arith.addf %m, %a : f32
    linalg.yield %s : f32
  } -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

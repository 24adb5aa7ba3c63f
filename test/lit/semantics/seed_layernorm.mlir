// The motivating case: LayerNorm as IREE receives it (`raw`: the boundary of its input
// conversion, hal.tensor.import/export, a mean, a variance and a normalization that
// IREE runs as three dispatches) and after IREE's first fusion step (`step1`: the
// centered value produced by the variance's generic as a second result, indexed by the
// reduction loop). Both plan one kernel: nothing here names a layer; the rows' loops
// are shared, and the cost model prefers one read of each row.
// RUN: polyfuse fuse %s --entry raw 2>/dev/null | FileCheck --check-prefix=ONE %s
// RUN: polyfuse fuse %s --entry step1 2>/dev/null | FileCheck --check-prefix=ONE %s
// RUN: polyfuse fuse %s --entry plain 2>/dev/null | FileCheck --check-prefix=ONE %s
// ONE: total: 1 kernel(s)
// The raw form reads as the plain function it stands for; both run as MLIR runs them.
// RUN: polyfuse check %s --entry raw --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// RUN: polyfuse check %s --entry plain --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: mean(d0) +=! {{x|a0}}(d0, d1)
// RUN: polyfuse exec %s --entry raw --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// RUN: %oracle %s --entry plain --backend ref --backend opencl | FileCheck --check-prefix=PLAIN %s
// PLAIN: ref y: 481 elements match MLIR
// PLAIN: opencl y: 481 elements match MLIR
// RUN: %oracle %s --entry step1 --backend ref --backend opencl | FileCheck --check-prefix=STEP1 %s
// STEP1: ref y: 481 elements match MLIR
// STEP1: opencl y: 481 elements match MLIR
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @raw(%a0: !hal.buffer_view, %a1: !hal.buffer_view, %a2: !hal.buffer_view) -> !hal.buffer_view {
  %x = hal.tensor.import %a0 "x" : !hal.buffer_view -> tensor<13x37xf32>
  %gamma = hal.tensor.import %a1 "gamma" : !hal.buffer_view -> tensor<37xf32>
  %beta = hal.tensor.import %a2 "beta" : !hal.buffer_view -> tensor<37xf32>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 37.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %mean = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<13x37xf32>) outs(%z : tensor<13xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  %var = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<13x37xf32>, tensor<13xf32>) outs(%z : tensor<13xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %mu = arith.divf %m, %n : f32
    %c = arith.subf %in, %mu : f32
    %c2 = arith.mulf %c, %c : f32
    %s = arith.addf %c2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  %e = tensor.empty() : tensor<13x37xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %var, %gamma, %beta : tensor<13x37xf32>, tensor<13xf32>, tensor<13xf32>, tensor<37xf32>, tensor<37xf32>) outs(%e : tensor<13x37xf32>) {
  ^bb0(%in: f32, %m: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %mu = arith.divf %m, %n : f32
    %c = arith.subf %in, %mu : f32
    %vn = arith.divf %v, %n : f32
    %ve = arith.addf %vn, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %tg = arith.mulf %t, %g : f32
    %tb = arith.addf %tg, %b : f32
    linalg.yield %tb : f32
  } -> tensor<13x37xf32>
  %out = hal.tensor.export %y "y" : tensor<13x37xf32> -> !hal.buffer_view
  util.return %out : !hal.buffer_view
}
func.func @plain(%x: tensor<13x37xf32>, %gamma: tensor<37xf32>, %beta: tensor<37xf32>) -> tensor<13x37xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 37.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %mean = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<13x37xf32>) outs(%z : tensor<13xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  %var = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<13x37xf32>, tensor<13xf32>) outs(%z : tensor<13xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %mu = arith.divf %m, %n : f32
    %c = arith.subf %in, %mu : f32
    %c2 = arith.mulf %c, %c : f32
    %s = arith.addf %c2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  %e = tensor.empty() : tensor<13x37xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %var, %gamma, %beta : tensor<13x37xf32>, tensor<13xf32>, tensor<13xf32>, tensor<37xf32>, tensor<37xf32>) outs(%e : tensor<13x37xf32>) {
  ^bb0(%in: f32, %m: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %mu = arith.divf %m, %n : f32
    %c = arith.subf %in, %mu : f32
    %vn = arith.divf %v, %n : f32
    %ve = arith.addf %vn, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %tg = arith.mulf %t, %g : f32
    %tb = arith.addf %tg, %b : f32
    linalg.yield %tb : f32
  } -> tensor<13x37xf32>
  return %y : tensor<13x37xf32>
}
func.func @step1(%x: tensor<13x37xf32>, %gamma: tensor<37xf32>, %beta: tensor<37xf32>) -> tensor<13x37xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 37.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<13xf32>
  %z = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %mean = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<13x37xf32>) outs(%z : tensor<13xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  %e = tensor.empty() : tensor<13x37xf32>
  %var, %centered = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<13x37xf32>, tensor<13xf32>) outs(%z, %e : tensor<13xf32>, tensor<13x37xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32, %o: f32):
    %mu = arith.divf %m, %n : f32
    %c = arith.subf %in, %mu : f32
    %c2 = arith.mulf %c, %c : f32
    %s = arith.addf %c2, %acc : f32
    linalg.yield %s, %c : f32, f32
  } -> (tensor<13xf32>, tensor<13x37xf32>)
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%centered, %var, %gamma, %beta : tensor<13x37xf32>, tensor<13xf32>, tensor<37xf32>, tensor<37xf32>) outs(%e : tensor<13x37xf32>) {
  ^bb0(%c: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %vn = arith.divf %v, %n : f32
    %ve = arith.addf %vn, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %tg = arith.mulf %t, %g : f32
    %tb = arith.addf %tg, %b : f32
    linalg.yield %tb : f32
  } -> tensor<13x37xf32>
  return %y : tensor<13x37xf32>
}

// A normalization that computes its variance in f64, as torch-mlir exports one whose
// module asked for it: the program computes in double, and its f32 values (the mean, the
// variance rounded back, its rsqrt) are stored as floats. Under --numerics strict every
// plan computes the same bits: a float kept on chip is rounded as memory would round it,
// and a float read from memory is widened before a builtin takes it (else OpenCL's
// rsqrt took the float overload where the fused kernel's on-chip copy took the double).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %S/run_strategies.sh %t %s
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref y: 315 elements match MLIR
// CHECK: opencl y: 315 elements match MLIR
// RUN: polyfuse codegen %s --target opencl --strategy maxfuse --numerics strict -o %t/cl > /dev/null
// RUN: FileCheck --check-prefix=CL %s < %t/cl/kernels.cl
// CL: #pragma OPENCL FP_CONTRACT OFF
// CL: = (double)(float)(pf_acc);
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
module attributes {torch.debug_module_name = "UpcastNorm"} {
  func.func @forward(%x: tensor<7x45xf32>, %g: tensor<45xf32>) -> tensor<7x45xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %zero64 = arith.constant 0.000000e+00 : f64
    %n = arith.constant 4.500000e+01 : f32
    %n64 = arith.constant 4.500000e+01 : f64
    %eps = arith.constant 9.9999997473787516E-6 : f64
    %e1 = tensor.empty() : tensor<7x1xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7x1xf32>) -> tensor<7x1xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<7x45xf32>) outs(%f1 : tensor<7x1xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    } -> tensor<7x1xf32>
    %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<7x1xf32>) outs(%e1 : tensor<7x1xf32>) {
    ^bb0(%in: f32, %o: f32):
      %d = arith.divf %in, %n : f32
      linalg.yield %d : f32
    } -> tensor<7x1xf32>
    %e64 = tensor.empty() : tensor<7x45xf64>
    %x64 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x45xf32>) outs(%e64 : tensor<7x45xf64>) {
    ^bb0(%in: f32, %o: f64):
      %w = arith.extf %in : f32 to f64
      linalg.yield %w : f64
    } -> tensor<7x45xf64>
    %r64 = tensor.empty() : tensor<7x1xf64>
    %fr = linalg.fill ins(%zero64 : f64) outs(%r64 : tensor<7x1xf64>) -> tensor<7x1xf64>
    %s64 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x64 : tensor<7x45xf64>) outs(%fr : tensor<7x1xf64>) {
    ^bb0(%in: f64, %acc: f64):
      %a = arith.addf %in, %acc : f64
      linalg.yield %a : f64
    } -> tensor<7x1xf64>
    %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x64, %s64 : tensor<7x45xf64>, tensor<7x1xf64>) outs(%fr : tensor<7x1xf64>) {
    ^bb0(%in: f64, %s: f64, %acc: f64):
      %m = arith.divf %s, %n64 : f64
      %c = arith.subf %in, %m : f64
      %c2 = arith.mulf %c, %c : f64
      %a = arith.addf %c2, %acc : f64
      linalg.yield %a : f64
    } -> tensor<7x1xf64>
    %var = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<7x1xf64>) outs(%e1 : tensor<7x1xf32>) {
    ^bb0(%in: f64, %o: f32):
      %v = arith.divf %in, %n64 : f64
      %ve = arith.addf %v, %eps : f64
      %t = arith.truncf %ve : f64 to f32
      linalg.yield %t : f32
    } -> tensor<7x1xf32>
    %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%var : tensor<7x1xf32>) outs(%e1 : tensor<7x1xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = math.rsqrt %in : f32
      linalg.yield %r : f32
    } -> tensor<7x1xf32>
    %ey = tensor.empty() : tensor<7x45xf32>
    %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %rstd, %g : tensor<7x45xf32>, tensor<7x1xf32>, tensor<7x1xf32>, tensor<45xf32>) outs(%ey : tensor<7x45xf32>) {
    ^bb0(%in: f32, %m: f32, %r: f32, %gg: f32, %o: f32):
      %c = arith.subf %in, %m : f32
      %n1 = arith.mulf %c, %r : f32
      %n2 = arith.mulf %n1, %gg : f32
      linalg.yield %n2 : f32
    } -> tensor<7x45xf32>
    return %y : tensor<7x45xf32>
  }
}

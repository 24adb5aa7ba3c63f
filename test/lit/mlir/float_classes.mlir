// math.isnan, isinf, isfinite and isnormal (MLIR 20), which MLIR 19 does not parse, read
// as the float comparisons each means (src/mlir/Upgrade.cpp, upgradeFloatClasses). Each
// `new_X` imports as the same TC program as `old_X`, the comparisons in MLIR 19's ops, and
// the `old_X` forms compute MLIR's values on NaN, infinities, subnormals and zeros.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry new_classes --tc 2>/dev/null | tail -n +2 > %t/new_classes && polyfuse check %s --entry old_classes --tc 2>/dev/null | tail -n +2 > %t/old_classes && diff %t/new_classes %t/old_classes
// RUN: polyfuse check %s --entry new_tensor_classes --tc 2>/dev/null | tail -n +2 > %t/new_tensor && polyfuse check %s --entry old_tensor_classes --tc 2>/dev/null | tail -n +2 > %t/old_tensor && diff %t/new_tensor %t/old_tensor
// RUN: polyfuse check %s --entry new_classes 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read math.isnan, isinf, isfinite and isnormal (MLIR 20) as the float comparisons each means
// RUN: %oracle %s --entry old_classes --backend ref --backend opencl --value 'x=[nan, inf, -inf, 1.0, -2.5, 1e-40, 0.0, -1.2e-38]' | FileCheck --check-prefix=F32 %s
// F32: ref r_0: 8 elements match MLIR
// F32: ref r_3: 8 elements match MLIR
// F32: opencl r_0: 8 elements match MLIR
// F32: opencl r_3: 8 elements match MLIR
// RUN: %oracle %s --entry old_tensor_classes --backend ref --backend opencl --value 'x=[nan, 1e-6, 6.2e-5, -3.0, -inf, 0.0]' | FileCheck --check-prefix=F16 %s
// F16: ref m: 6 elements match MLIR
// F16: opencl m: 6 elements match MLIR
// A class of a dynamic shape has no constant to compare with: left for MLIR 19 to refuse.
// RUN: not polyfuse check %s --entry dynamic 2>&1 | FileCheck --check-prefix=DYN %s
// DYN: float_classes.mlir:{{[0-9]+}}:8: custom op 'math.isinf' is unknown
#id = affine_map<(i) -> (i)>
func.func @new_classes(%x: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %e = tensor.empty() : tensor<8xi1>
  %r:4 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e, %e, %e, %e : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  ^bb0(%a: f32, %o0: i1, %o1: i1, %o2: i1, %o3: i1):
    %n = math.isnan %a : f32
    %i = math.isinf %a fastmath<nnan> : f32
    %f = math.isfinite %a : f32
    %m = math.isnormal %a : f32
    linalg.yield %n, %i, %f, %m : i1, i1, i1, i1
  } -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}
func.func @new_tensor_classes(%x: tensor<2x3xf16>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %n = math.isnan %x : tensor<2x3xf16>
  %m = math.isnormal %x : tensor<2x3xf16>
  return %n, %m : tensor<2x3xi1>, tensor<2x3xi1>
}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xi1> {
  %m = math.isinf %x : tensor<?xf32>
  return %m : tensor<?xi1>
}
func.func @old_classes(%x: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %e = tensor.empty() : tensor<8xi1>
  %r:4 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e, %e, %e, %e : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  ^bb0(%a: f32, %o0: i1, %o1: i1, %o2: i1, %o3: i1):
    %inf = arith.constant 0x7F800000 : f32
    %least = arith.constant 0x00800000 : f32
    %mag = math.absf %a : f32
    %n = arith.cmpf uno, %a, %a : f32
    %i = arith.cmpf oeq, %mag, %inf : f32
    %f = arith.cmpf one, %mag, %inf : f32
    %normal = arith.cmpf oge, %mag, %least : f32
    %m = arith.andi %normal, %f : i1
    linalg.yield %n, %i, %f, %m : i1, i1, i1, i1
  } -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}
func.func @old_tensor_classes(%x: tensor<2x3xf16>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %n = arith.cmpf uno, %x, %x : tensor<2x3xf16>
  %pf_mag_m = math.absf %x : tensor<2x3xf16>
  %pf_inf_m = arith.constant dense<0x7C00> : tensor<2x3xf16>
  %pf_least_m = arith.constant dense<0x0400> : tensor<2x3xf16>
  %pf_normal_m = arith.cmpf oge, %pf_mag_m, %pf_least_m : tensor<2x3xf16>
  %pf_bounded_m = arith.cmpf one, %pf_mag_m, %pf_inf_m : tensor<2x3xf16>
  %m = arith.andi %pf_normal_m, %pf_bounded_m : tensor<2x3xi1>
  return %n, %m : tensor<2x3xi1>, tensor<2x3xi1>
}

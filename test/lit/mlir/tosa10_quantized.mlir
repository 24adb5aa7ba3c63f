// TOSA 1.0's quantized ops (TFLite's int8 exports) take their zero points as operands;
// MLIR 19's take them as `quantization_info`. Each `new_X` imports as the same TC program
// as `old_X`, MLIR 19's spelling, whose values match MLIR's execution.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry new_conv --tc 2>/dev/null | tail -n +2 > %t/new_conv && polyfuse check %s --entry old_conv --tc 2>/dev/null | tail -n +2 > %t/old_conv && diff %t/new_conv %t/old_conv
// RUN: polyfuse check %s --entry new_matmul --tc 2>/dev/null | tail -n +2 > %t/new_matmul && polyfuse check %s --entry old_matmul --tc 2>/dev/null | tail -n +2 > %t/old_matmul && diff %t/new_matmul %t/old_matmul
// RUN: polyfuse check %s --entry new_negate --tc 2>/dev/null | tail -n +2 > %t/new_negate && polyfuse check %s --entry old_negate --tc 2>/dev/null | tail -n +2 > %t/old_negate && diff %t/new_negate %t/old_negate
// RUN: polyfuse check %s --entry new_conv 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read TOSA 1.0 in MLIR 19's TOSA spelling: {{.*}}zero-point operands as quantization_info
// RUN: %oracle %s --entry old_conv --backend ref --backend opencl --int-high 8 | FileCheck --check-prefix=CONV %s
// CONV: ref {{[a-z0-9_]+}}: 100 elements match MLIR
// CONV: opencl {{[a-z0-9_]+}}: 100 elements match MLIR
// RUN: %oracle %s --entry old_matmul --backend ref --backend opencl --int-high 8 | FileCheck --check-prefix=MATMUL %s
// MATMUL: ref {{[a-z0-9_]+}}: 30 elements match MLIR
// MATMUL: opencl {{[a-z0-9_]+}}: 30 elements match MLIR
// RUN: %oracle %s --entry old_negate --backend ref --backend opencl --value 'a=[-100, 100, 17, -128, 127]' | FileCheck --check-prefix=NEGATE %s
// NEGATE: ref {{[a-z0-9_]+}}: 5 elements match MLIR
// NEGATE: opencl {{[a-z0-9_]+}}: 5 elements match MLIR
func.func @new_conv(%x : tensor<1x6x5x2xi8>, %w : tensor<4x3x3x2xi8>, %b : tensor<4xi32>) -> tensor<1x5x5x4xi32> {
  %input_zp = "tosa.const"() <{values = dense<-22> : tensor<1xi8>}> : () -> tensor<1xi8>
  %weight_zp = "tosa.const"() <{values = dense<42> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %input_zp, %weight_zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x5x2xi8>, tensor<4x3x3x2xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x4xi32>
  return %0 : tensor<1x5x5x4xi32>
}
func.func @old_conv(%x : tensor<1x6x5x2xi8>, %w : tensor<4x3x3x2xi8>, %b : tensor<4xi32>) -> tensor<1x5x5x4xi32> {
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -22, weight_zp = 42>, stride = array<i64: 1, 1>} : (tensor<1x6x5x2xi8>, tensor<4x3x3x2xi8>, tensor<4xi32>) -> tensor<1x5x5x4xi32>
  return %0 : tensor<1x5x5x4xi32>
}
func.func @new_matmul(%a : tensor<1x5x3xi8>, %b : tensor<1x3x6xi8>) -> tensor<1x5x6xi32> {
  %a_zp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b_zp = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %a_zp, %b_zp : (tensor<1x5x3xi8>, tensor<1x3x6xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x6xi32>
  return %0 : tensor<1x5x6xi32>
}
func.func @old_matmul(%a : tensor<1x5x3xi8>, %b : tensor<1x3x6xi8>) -> tensor<1x5x6xi32> {
  %0 = tosa.matmul %a, %b {quantization_info = #tosa.matmul_quant<a_zp = 1, b_zp = 2>} : (tensor<1x5x3xi8>, tensor<1x3x6xi8>) -> tensor<1x5x6xi32>
  return %0 : tensor<1x5x6xi32>
}
func.func @new_negate(%a : tensor<5xi8>) -> tensor<5xi8> {
  %in_zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %out_zp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.negate %a, %in_zp, %out_zp : (tensor<5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}
func.func @old_negate(%a : tensor<5xi8>) -> tensor<5xi8> {
  %0 = tosa.negate %a {quantization_info = #tosa.unary_quant<input_zp = 3, output_zp = 5>} : (tensor<5xi8>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

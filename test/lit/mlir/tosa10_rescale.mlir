// TOSA 1.0's rescale (quantized models: TFLite's exports through TOSA) takes its
// multiplier, shift and zero points as operands and names its rounding; MLIR 19's takes
// attributes and a double_round flag. Each `new_X` imports as the same TC program as
// `old_X`, MLIR 19's spelling, whose values match MLIR's execution: per-channel factors
// (one multiplier and shift a channel, the last dimension) too. Unsigned sides are left
// for MLIR 19 to refuse at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry new_single --tc 2>/dev/null | tail -n +2 > %t/new_single && polyfuse check %s --entry old_single --tc 2>/dev/null | tail -n +2 > %t/old_single && diff %t/new_single %t/old_single
// RUN: polyfuse check %s --entry new_double --tc 2>/dev/null | tail -n +2 > %t/new_double && polyfuse check %s --entry old_double --tc 2>/dev/null | tail -n +2 > %t/old_double && diff %t/new_double %t/old_double
// RUN: %oracle %s --entry old_single --backend ref --backend opencl --value 'x=[-100, 100, 17, -128, 127]' | FileCheck --check-prefix=SINGLE %s
// SINGLE: ref r: 5 elements match MLIR
// SINGLE: opencl r: 5 elements match MLIR
// RUN: %oracle %s --entry old_double --backend ref --backend opencl --value 'x=[-100, 100, 7]' | FileCheck --check-prefix=DOUBLE %s
// DOUBLE: ref r: 3 elements match MLIR
// DOUBLE: opencl r: 3 elements match MLIR
// RUN: polyfuse check %s --entry new_channels --tc 2>/dev/null | tail -n +2 > %t/new_channels && polyfuse check %s --entry old_channels --tc 2>/dev/null | tail -n +2 > %t/old_channels && diff %t/new_channels %t/old_channels
// RUN: %oracle %s --entry old_channels --backend ref --backend opencl --value 'x=[-100, 100, 17, -128, 127, 3]' | FileCheck --check-prefix=CHANNELS %s
// CHANNELS: ref {{r[_0-9]*}}: 6 elements match MLIR
// CHANNELS: opencl {{r[_0-9]*}}: 6 elements match MLIR
// RUN: not polyfuse check %s --entry unsigned_output 2>&1 | FileCheck --check-prefix=UNSIGNED %s
// UNSIGNED: tosa10_rescale.mlir:51:8: 'tosa.rescale' op requires a single operand
func.func @new_single(%x: tensor<5xi8>) -> tensor<5xi8> {
  %multiplier = "tosa.const"() {values = dense<19689> : tensor<1xi16>} : () -> tensor<1xi16>
  %shift = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %input_zp = "tosa.const"() {values = dense<17> : tensor<1xi8>} : () -> tensor<1xi8>
  %output_zp = "tosa.const"() {values = dense<22> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = false, rounding_mode = "SINGLE_ROUND", per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<5xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<5xi8>
  return %r : tensor<5xi8>
}
func.func @old_single(%x: tensor<5xi8>) -> tensor<5xi8> {
  %r = tosa.rescale %x {double_round = false, input_zp = 17 : i32, multiplier = array<i32: 19689>, output_zp = 22 : i32, per_channel = false, scale32 = false, shift = array<i8: 15>} : (tensor<5xi8>) -> tensor<5xi8>
  return %r : tensor<5xi8>
}
func.func @new_double(%x: tensor<3xi8>) -> tensor<3xi32> {
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %input_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %output_zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = true, rounding_mode = "DOUBLE_ROUND", per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @old_double(%x: tensor<3xi8>) -> tensor<3xi32> {
  %r = tosa.rescale %x {double_round = true, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>} : (tensor<3xi8>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @unsigned_output(%x: tensor<2xi8>) -> tensor<2xi8> {
  %multiplier = "tosa.const"() {values = dense<19689> : tensor<1xi16>} : () -> tensor<1xi16>
  %shift = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %input_zp = "tosa.const"() {values = dense<17> : tensor<1xi8>} : () -> tensor<1xi8>
  %output_zp = "tosa.const"() {values = dense<22> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = false, rounding_mode = "SINGLE_ROUND", per_channel = false, input_unsigned = false, output_unsigned = true} : (tensor<2xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  return %r : tensor<2xi8>
}
func.func @new_channels(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %multiplier = "tosa.const"() {values = dense<[42, 43, 44]> : tensor<3xi16>} : () -> tensor<3xi16>
  %shift = "tosa.const"() {values = dense<[4, 5, 6]> : tensor<3xi8>} : () -> tensor<3xi8>
  %input_zp = "tosa.const"() {values = dense<43> : tensor<1xi8>} : () -> tensor<1xi8>
  %output_zp = "tosa.const"() {values = dense<52> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = false, rounding_mode = "SINGLE_ROUND", per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x3xi8>, tensor<3xi16>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}
func.func @old_channels(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %r = tosa.rescale %x {double_round = false, input_zp = 43 : i32, multiplier = array<i32: 42, 43, 44>, output_zp = 52 : i32, per_channel = true, scale32 = false, shift = array<i8: 4, 5, 6>} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}

// TOSA as torch-mlir wrote it before 2023 (buddy-mlir's ResNet-18): tosa.mul's shift an
// i32, tosa.avg_pool2d without acc_type. Read as MLIR 19's spelling of the same ops (an
// i8 shift; f32 accumulation), with one note: the same program as the file written in
// that spelling, which MLIR's own execution checks.
// RUN: polyfuse check %s --tc > %t.old.tc 2> %t.err
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// NOTE: note: upgraded older MLIR spellings: tosa.mul's shift is an i8; tosa.avg_pool2d of f32 accumulates in f32 (acc_type)
// RUN: sed -e 's/shift = 0 : i32/shift = 0 : i8/' -e 's/{kernel/{acc_type = f32, kernel/' %s > %t.new.mlir
// RUN: polyfuse check %t.new.mlir --tc > %t.new.tc
// RUN: diff %t.old.tc %t.new.tc
// RUN: %oracle %t.new.mlir --backend ref | FileCheck %s
// CHECK: ref {{.*}}: 6 elements match MLIR
module attributes {torch.debug_module_name = "Pool"} {
  func.func @forward(%arg0: tensor<1x5x5x6xf32>, %arg1: tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32> {
    %0 = "tosa.mul"(%arg0, %arg1) {shift = 0 : i32} : (tensor<1x5x5x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x5x5x6xf32>
    %1 = "tosa.avg_pool2d"(%0) {kernel = array<i64: 5, 5>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x6xf32>) -> tensor<1x1x1x6xf32>
    return %1 : tensor<1x1x1x6xf32>
  }
}

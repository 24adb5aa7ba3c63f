// A tensor of one value returned as it is (a splat constant, as buddy-mlir's
// next-eliminate-add-zero returns its folded result, alone or beside a computed result):
// the output is written with that value. Against MLIR's execution.
// RUN: %oracle %s --entry splat --backend ref --backend opencl | FileCheck --check-prefix=SPLAT %s
// SPLAT: ref c{{.*}}: 12 elements match MLIR
// SPLAT: opencl c{{.*}}: 12 elements match MLIR
// RUN: %oracle %s --entry beside --backend ref --backend opencl | FileCheck --check-prefix=BESIDE %s
// BESIDE: ref y: 5 elements match MLIR
// BESIDE: ref f{{.*}}: 10 elements match MLIR
// BESIDE: opencl f{{.*}}: 10 elements match MLIR
// RUN: polyfuse check %s --entry beside 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: the function returns a tensor of one value (line [[@LINE+9]]); output 'f{{.*}}' is written with it
func.func @splat(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %c = arith.constant dense<2.5> : tensor<3x4xf32>
  return %c : tensor<3x4xf32>
}
func.func @beside(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<2x5xf32>) {
  %f = arith.constant dense<-1.5> : tensor<2x5xf32>
  %ye = tensor.empty() : tensor<5xf32>
  %y = linalg.exp ins(%x : tensor<5xf32>) outs(%ye : tensor<5xf32>) -> tensor<5xf32>
  return %y, %f : tensor<5xf32>, tensor<2x5xf32>
}

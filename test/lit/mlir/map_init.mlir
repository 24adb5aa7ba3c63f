// Newer MLIR's linalg.map gives its mapper the init's element as the last argument; MLIR
// 19's takes the inputs' alone. The init is then read as an input too: `new_X` imports
// as the same TC program as `old_X`, written so in MLIR 19, where the body may read it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry new_binary --tc 2>/dev/null | tail -n +2 > %t/new_binary && polyfuse check %s --entry old_binary --tc 2>/dev/null | tail -n +2 > %t/old_binary && diff %t/new_binary %t/old_binary
// RUN: polyfuse check %s --entry new_reads_init --tc 2>/dev/null | tail -n +2 > %t/new_init && polyfuse check %s --entry old_reads_init --tc 2>/dev/null | tail -n +2 > %t/old_init && diff %t/new_init %t/old_init
// MLIR's parser lets `ins (` and `outs (` stand apart from their parentheses:
// RUN: polyfuse check %s --entry new_spaced --tc 2>/dev/null | tail -n +2 > %t/new_spaced && diff %t/new_spaced %t/old_binary
// RUN: polyfuse check %s --entry new_no_inputs --tc 2>/dev/null | FileCheck --check-prefix=NOINPUT %s
// NOINPUT: r(d0) = 2.5
// RUN: polyfuse check %s --entry new_binary 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read newer MLIR's linalg.map, whose mapper takes the init's element last, in MLIR 19's arity: the init an input as well
// RUN: %oracle %s --entry old_reads_init --backend ref --backend opencl | FileCheck --check-prefix=ORACLE %s
// ORACLE: ref r: 12 elements match MLIR
// ORACLE: opencl r: 12 elements match MLIR
func.func @new_binary(%a: tensor<12xf32>, %b: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map ins(%a, %b : tensor<12xf32>, tensor<12xf32>) outs(%init : tensor<12xf32>)
    (%x: f32, %y: f32, %out: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12xf32>
}
func.func @old_binary(%a: tensor<12xf32>, %b: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map ins(%a, %b, %init : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) outs(%init : tensor<12xf32>)
    (%x: f32, %y: f32, %out: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12xf32>
}
func.func @new_reads_init(%a: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map ins(%a : tensor<12xf32>) outs(%init : tensor<12xf32>)
    (%x: f32, %out: f32) {
      %s = arith.mulf %x, %out : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12xf32>
}
func.func @old_reads_init(%a: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map ins(%a, %init : tensor<12xf32>, tensor<12xf32>) outs(%init : tensor<12xf32>)
    (%x: f32, %out: f32) {
      %s = arith.mulf %x, %out : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12xf32>
}
func.func @new_no_inputs(%init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map outs(%init : tensor<12xf32>)
    (%out: f32) {
      %c = arith.constant 2.5 : f32
      linalg.yield %c : f32
    }
  return %r : tensor<12xf32>
}
func.func @new_spaced(%a: tensor<12xf32>, %b: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %r = linalg.map ins (%a, %b : tensor<12xf32>, tensor<12xf32>)
                  outs (%init : tensor<12xf32>)
    (%x: f32, %y: f32, %out: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12xf32>
}

// IREE's dumps as found in issue threads: the function inside hal.executable wrappers,
// an elided constant in the older opaque<> spelling. The wrappers are read past (lines
// and columns kept), the constant becomes an input filled like the others, and a note
// on stderr says both. All shapes are static: no --size.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: upgraded older MLIR spellings: the functions inside IREE's hal.executable wrappers were read alone; elided constants
// CHECK: note: constant 'w' (line 17) becomes an input of the program
// CHECK: def scale(float(4, 8) X, float(8) w) -> (float(4, 8) Y) {
// CHECK-NEXT:   Y(d0, d1) = X(d0, d1) * w(d1)
// RUN: polyfuse fuse %s 2>/dev/null | FileCheck --check-prefix=FUSE %s
// FUSE: total: 1 kernel(s), dram_bytes 288
// Run on PoCL in exec/linalg.test.
hal.executable private @main_dispatch_0 {
  hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64">) {
    builtin.module {
      func.func @scale(%X: tensor<4x8xf32>) -> tensor<4x8xf32> {
        %w = arith.constant opaque<"elided_large_const", "0xDEADBEEF"> : tensor<8xf32>
        %e = tensor.empty() : tensor<4x8xf32>
        %Y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
            ins(%X, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
        ^bb0(%x: f32, %s: f32, %o: f32):
          %y = arith.mulf %x, %s : f32
          linalg.yield %y : f32
        } -> tensor<4x8xf32>
        return %Y : tensor<4x8xf32>
      }
    }
  }

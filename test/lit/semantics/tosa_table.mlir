// TOSA's table (TFLite's quantized activations as lookup tables): MLIR's lowering indexes
// the table at a subscript the body computes from the input's value (x + 128 for i8), which
// polyfuse stores first as an id tensor, then gathers through. Compared with MLIR's
// execution on random inputs.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref r: 7 elements match MLIR
// CHECK: opencl r: 7 elements match MLIR
// RUN: polyfuse check %s --tc 2>&1 | FileCheck --check-prefix=TC %s
// TC: a subscript computed from the op's operands is stored first, as the id tensor 'pf_ids', which the gather reads
// TC: pf_ids(d0) =
// TC: r(d0) = t(pf_ids(d0))
func.func @f(%x: tensor<7xi8>) -> tensor<7xi8> {
  %t = "tosa.const"() <{value = dense<[-128, -91, -54, -17, 20, 57, 94, -125, -88, -51, -14, 23, 60, 97, -122, -85, -48, -11, 26, 63, 100, -119, -82, -45, -8, 29, 66, 103, -116, -79, -42, -5, 32, 69, 106, -113, -76, -39, -2, 35, 72, 109, -110, -73, -36, 1, 38, 75, 112, -107, -70, -33, 4, 41, 78, 115, -104, -67, -30, 7, 44, 81, 118, -101, -64, -27, 10, 47, 84, 121, -98, -61, -24, 13, 50, 87, 124, -95, -58, -21, 16, 53, 90, 127, -92, -55, -18, 19, 56, 93, -126, -89, -52, -15, 22, 59, 96, -123, -86, -49, -12, 25, 62, 99, -120, -83, -46, -9, 28, 65, 102, -117, -80, -43, -6, 31, 68, 105, -114, -77, -40, -3, 34, 71, 108, -111, -74, -37, 0, 37, 74, 111, -108, -71, -34, 3, 40, 77, 114, -105, -68, -31, 6, 43, 80, 117, -102, -65, -28, 9, 46, 83, 120, -99, -62, -25, 12, 49, 86, 123, -96, -59, -22, 15, 52, 89, 126, -93, -56, -19, 18, 55, 92, -127, -90, -53, -16, 21, 58, 95, -124, -87, -50, -13, 24, 61, 98, -121, -84, -47, -10, 27, 64, 101, -118, -81, -44, -7, 30, 67, 104, -115, -78, -41, -4, 33, 70, 107, -112, -75, -38, -1, 36, 73, 110, -109, -72, -35, 2, 39, 76, 113, -106, -69, -32, 5, 42, 79, 116, -103, -66, -29, 8, 45, 82, 119, -100, -63, -26, 11, 48, 85, 122, -97, -60, -23, 14, 51, 88, 125, -94, -57, -20, 17, 54, 91]> : tensor<256xi8>}> : () -> tensor<256xi8>
  %r = tosa.table %x, %t : (tensor<7xi8>, tensor<256xi8>) -> tensor<7xi8>
  return %r : tensor<7xi8>
}

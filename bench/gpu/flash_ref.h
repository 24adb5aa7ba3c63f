// A hand-written FlashAttention-style forward pass: the baseline that bench/gpu/run.sh
// times polyfuse's derived streamed tile against. FlashAttention-2's loop order (query
// rows outer, key tiles through shared memory inner, an online softmax whose sum and
// accumulators are rescaled as the row's maximum grows), f32 on CUDA cores, written the
// way a practitioner would without tensor cores: a tile of query rows a block, two
// threads a row (each the even or the odd half of the head dimension, so that the pair
// reads adjacent banks), scores of a key tile in registers. It is a CUDA-core kernel
// with one shared-memory load a multiply-add (no register tile across rows, no tensor
// cores, no cp.async): FlashAttention itself is stronger, and a GPU run should say so.
//   O(i, :) = sum_j softmax_j(scale * Q(i, :) . K(j, :)) V(j, :),  Q, K, V, O: [S x D], row-major
// One source for CUDA and OpenCL (FR_* macros, set by the includer), so that its
// arithmetic is verified on PoCL (test/lit/exec/flash_ref.test) before a GPU runs it.
#ifndef FR_D
#error "define FR_D, the head dimension (even)"
#endif
#define FR_H (FR_D / 2)
#ifndef FR_BR
// Query rows a block: 16 gives one head at S = 4096 256 blocks (2 a SM on 132 SMs); the
// key tiles are read once a block, from L2 after the first.
#define FR_BR 16
#endif
#define FR_BC 16                     // keys a tile
#define FR_THREADS (2 * FR_BR)

FR_KERNEL void flash_ref(FR_GLOBAL const float* Q, FR_GLOBAL const float* K, FR_GLOBAL const float* V,
                         FR_GLOBAL float* O, const int S, const int T, const float scale) {
  FR_SHARED float q[FR_BR][FR_D + 1];
  FR_SHARED float k[FR_BC][FR_D + 1];
  FR_SHARED float v[FR_BC][FR_D + 1];
  FR_SHARED float part[FR_BR][2][FR_BC + 1];  // each thread's half of every score
  const int tid = FR_TID, r = tid / 2, h = tid % 2;
  const int row0 = FR_BID * FR_BR, row = row0 + r;
  for (int e = tid; e < FR_BR * FR_D; e += FR_THREADS) {
    const int rr = e / FR_D, d = e % FR_D;
    q[rr][d] = row0 + rr < S ? Q[(long)(row0 + rr) * FR_D + d] * scale : 0.0f;
  }
  float acc[FR_H];  // O(row, 2e + h), unnormalized
  for (int e = 0; e < FR_H; ++e) acc[e] = 0.0f;
  float m = -INFINITY, l = 0.0f;
  for (int j0 = 0; j0 < T; j0 += FR_BC) {
    const int n = T - j0 < FR_BC ? T - j0 : FR_BC;
    FR_SYNC;  // the tile before is read
    for (int e = tid; e < FR_BC * FR_D; e += FR_THREADS) {
      const int kk = e / FR_D, d = e % FR_D;
      k[kk][d] = kk < n ? K[(long)(j0 + kk) * FR_D + d] : 0.0f;
      v[kk][d] = kk < n ? V[(long)(j0 + kk) * FR_D + d] : 0.0f;
    }
    FR_SYNC;
    for (int kk = 0; kk < FR_BC; ++kk) {
      float s = 0.0f;
      for (int e = 0; e < FR_H; ++e) s += q[r][2 * e + h] * k[kk][2 * e + h];
      part[r][h][kk] = s;
    }
    FR_SYNC;
    float s[FR_BC];
    float mt = m;
    for (int kk = 0; kk < FR_BC; ++kk) {
      s[kk] = kk < n ? part[r][0][kk] + part[r][1][kk] : -INFINITY;
      mt = s[kk] > mt ? s[kk] : mt;
    }
    const float c = FR_EXP(m - mt);  // 0 at the first tile (m = -inf, mt finite)
    l *= c;
    for (int e = 0; e < FR_H; ++e) acc[e] *= c;
    for (int kk = 0; kk < FR_BC; ++kk) {
      const float p = FR_EXP(s[kk] - mt);
      l += p;
      for (int e = 0; e < FR_H; ++e) acc[e] += p * v[kk][2 * e + h];
    }
    m = mt;
  }
  if (row < S)
    for (int e = 0; e < FR_H; ++e) O[(long)row * FR_D + 2 * e + h] = acc[e] / l;
}

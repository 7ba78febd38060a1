// tl::dot's type and precision cells (docs/language.md "Matrix products"): fp16 x fp16 and
// bf16 x bf16 into float, float x float under each input precision (ieee, the default, tf32,
// tf32x3), int8 x int8 into a wrapping int32 accumulator, an fp16 result and an fp16 accumulator,
// and a dot inside a bigger expression (materialize binds it to its own variable). One program per
// BM x BN tile of C = A x B (A: M rows of K, B: K rows of N, C: M rows of N, row-major with row
// strides lda, ldb, ldc): ragged M, N and K are masked (masked-off operands read as 0, which adds
// nothing), and most kernels walk K in BK-wide steps with an accumulator. Shapes: square,
// non-square (16 x 64 x 32), BM = 32 with BN = 16, and 16 x 16 (two elements a thread at num_warps
// = 4). tests/gpu/dot.cu compares each with the CPU reference and float64 at ragged sizes.
#include <tilec/tl.hpp>

// fp16 x fp16 -> float, acc = dot(a, b, acc) over K; the K loop as tl::range<2> (Triton's
// tl.range(..., num_stages=2)): in the aligned variant each K step's tiles are copied into shared
// memory during the step before (pipeline-dots, cp.async of 8 bytes a thread at these small tiles;
// the index tiles `ka`, `kb` computed again for it).
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_f16(const tl::half *a, const tl::half *b, float *c, int M, int N, int K, int lda, int ldb,
             int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  int pid_m = pid / num_n;
  int pid_n = pid % num_n;
  auto rm = tl::expand_dims<1>(pid_m * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>(pid_n * BN + tl::arange<0, BN>());
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 : tl::range<2>(0, K, BK)) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0.0f);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
}

template void dot_f16<32, 32, 16>(const tl::half *, const tl::half *, float *, int, int, int, int,
                                  int, int);
template void dot_f16<16, 64, 32>(const tl::half *, const tl::half *, float *, int, int, int, int,
                                  int, int);

// bf16 x bf16 -> float without an accumulator: one K step (K <= BK), BM = 32 with BN = 16.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_bf16(const tl::bfloat16 *a, const tl::bfloat16 *b, float *c, int M, int N, int K, int lda,
              int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto rk = tl::arange<0, BK>();
  auto av = tl::load(a + rm * lda + tl::expand_dims<0>(rk), (rm < M) & (tl::expand_dims<0>(rk) < K),
                     0.0f);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * ldb + rn, (tl::expand_dims<1>(rk) < K) & (rn < N),
                     0.0f);
  auto cv = tl::dot(av, bv);
  tl::store(c + rm * ldc + rn, cv, (rm < M) & (rn < N));
}

template void dot_bf16<32, 16, 64>(const tl::bfloat16 *, const tl::bfloat16 *, float *, int, int,
                                   int, int, int, int);

// float x float -> float under input precision P, over K; ieee is spelled as the default
// (no precision argument).
template <tl::input_precision P, int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_f32(const float *a, const float *b, float *c, int M, int N, int K, int lda, int ldb,
             int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0.0f);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0.0f);
    if constexpr (P == tl::ieee)
      acc = tl::dot(av, bv, acc);
    else
      acc = tl::dot<P>(av, bv, acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
}

template void dot_f32<tl::ieee, 32, 32, 16>(const float *, const float *, float *, int, int, int,
                                            int, int, int);
template void dot_f32<tl::tf32, 32, 32, 16>(const float *, const float *, float *, int, int, int,
                                            int, int, int);
template void dot_f32<tl::tf32x3, 32, 32, 16>(const float *, const float *, float *, int, int, int,
                                              int, int, int);

// int8 x int8 -> int32, the accumulator starting from c0 (values near INT32_MAX and INT32_MIN make
// the sum wrap), over K.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_i8(const int8_t *a, const int8_t *b, const int32_t *c0, int32_t *c, int M, int N, int K,
            int lda, int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto cmask = (rm < M) & (rn < N);
  auto acc = tl::load(c0 + rm * ldc + rn, cmask, 0);
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + rm * ldc + rn, acc, cmask);
}

template void dot_i8<32, 32, 32>(const int8_t *, const int8_t *, const int32_t *, int32_t *, int,
                                 int, int, int, int, int);

// fp16 x fp16 -> fp16 (Triton's out_dtype=tl.float16): one K step (K <= BK), 16 x 16.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_f16_out(const tl::half *a, const tl::half *b, tl::half *c, int M, int N, int K, int lda,
                 int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto rk = tl::arange<0, BK>();
  auto av = tl::load(a + rm * lda + tl::expand_dims<0>(rk), (rm < M) & (tl::expand_dims<0>(rk) < K),
                     0.0f);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * ldb + rn, (tl::expand_dims<1>(rk) < K) & (rn < N),
                     0.0f);
  auto cv = tl::dot<tl::ieee, tl::half>(av, bv);
  tl::store(c + rm * ldc + rn, cv, (rm < M) & (rn < N));
}

template void dot_f16_out<16, 16, 32>(const tl::half *, const tl::half *, tl::half *, int, int, int,
                                      int, int, int);

// fp16 x fp16 into an fp16 accumulator over K: rounded to fp16 after every K step.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_f16_acc(const tl::half *a, const tl::half *b, tl::half *c, int M, int N, int K, int lda,
                 int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto acc = tl::zeros<tl::half, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0.0f);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0.0f);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
}

template void dot_f16_acc<32, 32, 16>(const tl::half *, const tl::half *, tl::half *, int, int, int,
                                      int, int, int);

// A dot inside bigger expressions: acc += dot(a, b) * 2 over K (materialize binds the dot to a
// variable of its own), then a per-column bias added at the store.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_expr(const tl::half *a, const tl::half *b, const float *bias, float *c, int M, int N,
              int K, int lda, int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto rm = tl::expand_dims<1>((pid / num_n) * BM + tl::arange<0, BM>());
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0.0f);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0.0f);
    acc += tl::dot(av, bv) * 2.0f;
  }
  auto bv = tl::load(bias + rn, rn < N, 0.0f);
  tl::store(c + rm * ldc + rn, acc + bv, (rm < M) & (rn < N));
}

template void dot_expr<32, 16, 16>(const tl::half *, const tl::half *, const float *, float *, int,
                                   int, int, int, int, int);

// A transposed operand, attention's q k^T: C = A x B^T with B^T given as N rows of K (`bt`),
// loaded as [BN, BK] tiles and passed through tl::trans. On mma.sync the tile is staged as loaded
// and read with plain ldmatrix (pipelined with cp.async in the aligned variant: tl::range<2>); the
// portable path stages the transposed view. The result is also stored transposed, as C^T (N rows
// of M): tl::trans of the dot's accumulator, converted from the mma layout to a blocked one first
// on CUDA.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_trans(const tl::half *a, const tl::half *bt, float *c, float *ct, int M, int N, int K,
               int lda, int ldbt, int ldc, int ldct) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto m = (pid / num_n) * BM + tl::arange<0, BM>();
  auto n = (pid % num_n) * BN + tl::arange<0, BN>();
  auto rm = tl::expand_dims<1>(m);
  auto rn = tl::expand_dims<0>(n);
  auto tn = tl::expand_dims<1>(n); // B^T's rows, and C^T's
  auto tm = tl::expand_dims<0>(m);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 : tl::range<2>(0, K, BK)) {
    auto ka = tl::expand_dims<0>(k0 + tl::arange<0, BK>());
    auto av = tl::load(a + rm * lda + ka, (rm < M) & (ka < K), 0.0f);
    auto btv = tl::load(bt + tn * ldbt + ka, (tn < N) & (ka < K), 0.0f);
    acc = tl::dot(av, tl::trans(btv), acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
  tl::store(ct + tn * ldct + tm, tl::trans(acc), (tn < N) & (tm < M));
}

template void dot_trans<32, 32, 16>(const tl::half *, const tl::half *, float *, float *, int, int,
                                    int, int, int, int, int);

// A transposed first operand (A stored column-major: `at` is K rows of M): C = (A^T)^T x B, the
// [BK, BM] tiles of A^T passed through tl::trans; on mma.sync staged as loaded and read with
// ldmatrix .trans. bf16 operands.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_trans_a(const tl::bfloat16 *at, const tl::bfloat16 *b, float *c, int M, int N, int K,
                 int ldat, int ldb, int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto m = (pid / num_n) * BM + tl::arange<0, BM>();
  auto rm = tl::expand_dims<1>(m);
  auto rn = tl::expand_dims<0>((pid % num_n) * BN + tl::arange<0, BN>());
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto kb = tl::expand_dims<1>(k0 + tl::arange<0, BK>()); // rows of A^T and of B
    auto atv = tl::load(at + kb * ldat + tl::expand_dims<0>(m),
                        (kb < K) & (tl::expand_dims<0>(m) < M), 0.0f);
    auto bv = tl::load(b + kb * ldb + rn, (kb < K) & (rn < N), 0.0f);
    acc = tl::dot(tl::trans(atv), bv, acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
}

template void dot_trans_a<64, 32, 32>(const tl::bfloat16 *, const tl::bfloat16 *, float *, int, int,
                                      int, int, int, int);

// C = (A^T)^T x (B^T)^T with both operands given transposed (A^T as K rows of M, B^T as N rows of
// K): fp32 under tf32 and tf32x3 (P), and int8 into int32. On tensor cores A's fragments are
// gathered down the columns of A^T and B's read with ldmatrix from B^T's k-contiguous rows.
template <tl::input_precision P, class T, class Acc, int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void dot_trans_both(const T *at, const T *bt, Acc *c, int M, int N, int K, int ldat, int ldbt,
                    int ldc) {
  int pid = tl::program_id(0);
  int num_n = tl::cdiv(N, BN);
  auto m = (pid / num_n) * BM + tl::arange<0, BM>();
  auto n = (pid % num_n) * BN + tl::arange<0, BN>();
  auto rm = tl::expand_dims<1>(m);
  auto rn = tl::expand_dims<0>(n);
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto kr = tl::expand_dims<1>(k0 + tl::arange<0, BK>()); // rows of A^T
    auto kc = tl::expand_dims<0>(k0 + tl::arange<0, BK>()); // columns of B^T
    auto atv = tl::load(at + kr * ldat + tl::expand_dims<0>(m),
                        (kr < K) & (tl::expand_dims<0>(m) < M), T(0));
    auto btv = tl::load(bt + tl::expand_dims<1>(n) * ldbt + kc,
                        (tl::expand_dims<1>(n) < N) & (kc < K), T(0));
    acc = tl::dot<P>(tl::trans(atv), tl::trans(btv), acc);
  }
  tl::store(c + rm * ldc + rn, acc, (rm < M) & (rn < N));
}

template void dot_trans_both<tl::tf32, float, float, 32, 32, 16>(const float *, const float *,
                                                                 float *, int, int, int, int, int,
                                                                 int);
template void dot_trans_both<tl::tf32x3, float, float, 32, 32, 16>(const float *, const float *,
                                                                   float *, int, int, int, int, int,
                                                                   int);
template void dot_trans_both<tl::ieee, int8_t, int32_t, 32, 32, 32>(const int8_t *, const int8_t *,
                                                                    int32_t *, int, int, int, int,
                                                                    int, int);

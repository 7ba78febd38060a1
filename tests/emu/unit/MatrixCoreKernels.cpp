/// \file The kernels of MatrixCoreKernels.h, written as tilec's HIP output uses the matrix-core
/// instructions: <tilec/hip/runtime.hpp>, tilec::rt helpers, hipLaunchKernelGGL.

#include "MatrixCoreKernels.h"

#include <tilec/hip/runtime.hpp>

namespace emu_test::matrix_core {
namespace {

template <int N, bool BF16>
__global__ void mfma(const uint16_t *a, const uint16_t *b, const float *c, float *d) {
  using F = tilec::rt::Mfma<N>;
  constexpr int K = F::K;
  __shared__ uint16_t as[N * K], bs[K * N];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < N * K; i += 64) {
    as[i] = a[i];
    bs[i] = b[i];
  }
  __syncthreads();
  uint32_t af[2], bf[2];
  // A: four consecutive k of row a_row in one read; B: four k down column b_col.
  tilec::rt::read_fragment(af, &as[F::a_row(lane, 0) * K + F::a_col(lane, 0)]);
  const int k0 = F::b_row(lane, 0), col = F::b_col(lane, 0);
  tilec::rt::gather_fragment(bf, bs[k0 * N + col], bs[(k0 + 1) * N + col], bs[(k0 + 2) * N + col],
                             bs[(k0 + 3) * N + col]);
  float cf[F::ACC], df[F::ACC];
  for (int e = 0; e < F::ACC; ++e)
    cf[e] = c[F::c_row(lane, e) * N + F::c_col(lane, e)];
  if constexpr (N == 32 && BF16)
    tilec::rt::mfma_32x32x8_bf16(df, af, bf, cf);
  else if constexpr (N == 32)
    tilec::rt::mfma_32x32x8_f16(df, af, bf, cf);
  else if constexpr (BF16)
    tilec::rt::mfma_16x16x16_bf16(df, af, bf, cf);
  else
    tilec::rt::mfma_16x16x16_f16(df, af, bf, cf);
  for (int e = 0; e < F::ACC; ++e)
    d[F::c_row(lane, e) * N + F::c_col(lane, e)] = df[e];
}

template <int N> __global__ void mfma_i8(const int8_t *a, const int8_t *b, const int *c, int *d) {
  using F = tilec::rt::Mfma<N>;
  constexpr int K = F::K;
  __shared__ int8_t as[N * K], bs[K * N];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < N * K; i += 64) {
    as[i] = a[i];
    bs[i] = b[i];
  }
  __syncthreads();
  uint32_t af[1], bf[1];
  tilec::rt::read_fragment(af, &as[F::a_row(lane, 0) * K + F::a_col(lane, 0)]);
  const int k0 = F::b_row(lane, 0), col = F::b_col(lane, 0);
  tilec::rt::gather_fragment(bf, bs[k0 * N + col], bs[(k0 + 1) * N + col], bs[(k0 + 2) * N + col],
                             bs[(k0 + 3) * N + col]);
  int cf[F::ACC], df[F::ACC];
  for (int e = 0; e < F::ACC; ++e)
    cf[e] = c[F::c_row(lane, e) * N + F::c_col(lane, e)];
  if constexpr (N == 32)
    tilec::rt::mfma_32x32x8_i8(df, af, bf, cf);
  else
    tilec::rt::mfma_16x16x16_i8(df, af, bf, cf);
  for (int e = 0; e < F::ACC; ++e)
    d[F::c_row(lane, e) * N + F::c_col(lane, e)] = df[e];
}

template <int N> Held holder(char matrix, int row, int col) {
  using F = tilec::rt::Mfma<N>;
  const int elems = matrix == 'D' ? F::ACC : 4;
  for (int lane = 0; lane < 64; ++lane)
    for (int e = 0; e < elems; ++e) {
      const bool here = matrix == 'A'   ? F::a_row(lane, e) == row && F::a_col(lane, e) == col
                        : matrix == 'B' ? F::b_row(lane, e) == row && F::b_col(lane, e) == col
                                        : F::c_row(lane, e) == row && F::c_col(lane, e) == col;
      if (here)
        return {lane, e};
    }
  return {-1, -1};
}

} // namespace

hipError_t launchMfma(int n, bool bf16, const uint16_t *a, const uint16_t *b, const float *c,
                      float *d) {
  auto kernel = n == 32 ? (bf16 ? mfma<32, true> : mfma<32, false>)
                        : (bf16 ? mfma<16, true> : mfma<16, false>);
  hipLaunchKernelGGL(kernel, dim3(1), dim3(64), 0, hipStream_t{}, a, b, c, d);
  return hipGetLastError();
}

hipError_t launchMfmaI8(int n, const int8_t *a, const int8_t *b, const int *c, int *d) {
  hipLaunchKernelGGL(n == 32 ? mfma_i8<32> : mfma_i8<16>, dim3(1), dim3(64), 0, hipStream_t{}, a, b,
                     c, d);
  return hipGetLastError();
}

Held mfmaHolder(int n, char matrix, int row, int col) {
  return n == 32 ? holder<32>(matrix, row, col) : holder<16>(matrix, row, col);
}

} // namespace emu_test::matrix_core

/// \file The kernels of TensorCoreKernels.h, written as tilec's CUDA output will use the matrix
/// instructions: <tilec/cuda/runtime.cuh>, tilec::rt helpers, cudaLaunchKernelEx launchers.

#include "TensorCoreKernels.h"

#include <tilec/cuda/runtime.cuh>

// The line marks serve the emulator's reports; nvcc's device code cannot take their host address.
#if defined(__CUDA_ARCH__)
#define TENSOR_CORE_LINE(Tag)
#else
#define TENSOR_CORE_LINE(Tag) EMU_TEST_LINE(Tag)
#endif

namespace emu_test::tensor_core {
namespace {

using tilec::rt::Mma16816;

template <class... P, class... A> cudaError_t launch(void (*kernel)(P...), A... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  return cudaLaunchKernelEx(&config, kernel, args...);
}

/// Two 16-bit elements as one register, the first in the low half.
__device__ __forceinline__ uint32_t pair(uint16_t lo, uint16_t hi) {
  return uint32_t(lo) | uint32_t(hi) << 16;
}

} // namespace

__global__ void mma(bool bf16, MmaPath path, const uint16_t *a, const uint16_t *b, const float *c,
                    float *d) {
  const int lane = tilec::rt::lane_id();
  uint32_t af[4], bf[2][2]; // A's fragment; B's for n = 0-7 and 8-15
  if (path == MmaPath::Registers) {
    for (int reg = 0; reg < 4; ++reg)
      af[reg] =
          pair(a[Mma16816::a_row(lane, 2 * reg) * kK + Mma16816::a_col(lane, 2 * reg)],
               a[Mma16816::a_row(lane, 2 * reg + 1) * kK + Mma16816::a_col(lane, 2 * reg + 1)]);
    for (int nt = 0; nt < 2; ++nt)
      for (int reg = 0; reg < 2; ++reg)
        bf[nt][reg] =
            pair(b[Mma16816::b_row(lane, 2 * reg) * kN + 8 * nt + Mma16816::b_col(lane, 2 * reg)],
                 b[Mma16816::b_row(lane, 2 * reg + 1) * kN + 8 * nt +
                   Mma16816::b_col(lane, 2 * reg + 1)]);
  } else {
    // 512 bytes each: lane l copies bytes [16 l, 16 l + 16) of A and of B (row l / 2, half l % 2).
    alignas(16) __shared__ uint16_t as[kM * kK];
    alignas(16) __shared__ uint16_t bs[kK * kN];
    tilec::rt::cp_async_16(as + 8 * lane, a + 8 * lane);
    tilec::rt::cp_async_16(bs + 8 * lane, b + 8 * lane);
    tilec::rt::cp_async_commit();
    if (path != MmaPath::LateWait && path != MmaPath::NoWait)
      tilec::rt::cp_async_wait<0>();
    if (path != MmaPath::NoBarrier)
      __syncthreads();
    // Lanes 8 j .. 8 j + 7 name the rows of matrix j: A's quarters in the order of its registers
    // (rows + 8 for odd j, columns + 8 from j = 2), B's 8 x 8 blocks (k + 8 for odd j, n + 8 from
    // j = 2).
    const int j = lane / 8, row = lane % 8 + 8 * (j % 2), col = 8 * (j / 2);
    tilec::rt::ldmatrix_x4(af, as + row * kK + col); TENSOR_CORE_LINE(at::LateWaitRead);
    uint32_t bq[4];
    tilec::rt::ldmatrix_x4_trans(bq, bs + row * kN + col);
    bf[0][0] = bq[0], bf[0][1] = bq[1], bf[1][0] = bq[2], bf[1][1] = bq[3];
    if (path == MmaPath::LateWait)
      tilec::rt::cp_async_wait<0>();
  }
  for (int nt = 0; nt < 2; ++nt) {
    float cf[4], df[4];
    for (int e = 0; e < 4; ++e)
      cf[e] = c[Mma16816::c_row(lane, e) * kN + 8 * nt + Mma16816::c_col(lane, e)];
    if (bf16)
      tilec::rt::mma_m16n8k16_bf16_f32(df, af, bf[nt], cf);
    else
      tilec::rt::mma_m16n8k16_f16_f32(df, af, bf[nt], cf);
    for (int e = 0; e < 4; ++e)
      d[Mma16816::c_row(lane, e) * kN + 8 * nt + Mma16816::c_col(lane, e)] = df[e];
  }
}

__global__ void ldmatrix(bool trans, const uint16_t *m, uint32_t *out) {
  const int lane = tilec::rt::lane_id();
  alignas(16) __shared__ uint16_t ms[4 * 64];
  for (int i = 0; i < 8; ++i)
    ms[8 * lane + i] = m[8 * lane + i];
  __syncthreads();
  uint32_t r[4];
  const uint16_t *row = ms + 64 * (lane / 8) + 8 * (lane % 8);
  if (trans)
    tilec::rt::ldmatrix_x4_trans(r, row);
  else
    tilec::rt::ldmatrix_x4(r, row);
  for (int j = 0; j < 4; ++j)
    out[4 * lane + j] = r[j];
}

namespace {
/// Row-major addressing of a buffer W elements wide, as a swizzle type for the gather_* helpers.
template <int W> struct Rows {
  __device__ __forceinline__ static int offset(int r, int c) { return r * W + c; }
};
/// Lane l names row l % 8 + 8 (l / 8 % 2) and 16-byte column l / 16 to ldmatrix_x4 (A's
/// quarters), or row l % 8 + 8 (l / 16) and column l / 8 % 2 (B^T's two n8 blocks): the 16-byte
/// units of a row of `bytes` bytes.
__device__ __forceinline__ const void *aRow(const void *base, int bytes) {
  const int lane = tilec::rt::lane_id();
  return static_cast<const char *>(base) + (lane % 8 + 8 * (lane / 8 % 2)) * bytes +
         16 * (lane / 16);
}
__device__ __forceinline__ const void *btRow(const void *base, int bytes) {
  const int lane = tilec::rt::lane_id();
  return static_cast<const char *>(base) + (lane % 8 + 8 * (lane / 16)) * bytes +
         16 * (lane / 8 % 2);
}
} // namespace

__global__ void mma_tf32(FragmentPath path, const float *a, const float *b, const float *c,
                         float *d) {
  using tilec::rt::Mma1688Tf32;
  const int lane = tilec::rt::lane_id();
  uint32_t af[4], bf[2][2];
  auto bits = [](float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
  };
  alignas(16) __shared__ float as[16 * 8], bs[8 * 16];
  for (int i = lane; i < 128; i += 32) { // A [16, 8] and B [8, 16], or A^T [8, 16] and B^T [16, 8]
    const bool t = path == FragmentPath::SharedT;
    as[i] = t ? a[i % 16 * 8 + i / 16] : a[i];
    bs[i] = t ? b[i % 8 * 16 + i / 8] : b[i];
  }
  __syncthreads();
  if (path == FragmentPath::Registers) {
    for (int r = 0; r < 4; ++r)
      af[r] = bits(
          tilec::rt::round_tf32(a[Mma1688Tf32::a_row(lane, r) * 8 + Mma1688Tf32::a_col(lane, r)]));
    for (int nt = 0; nt < 2; ++nt)
      for (int r = 0; r < 2; ++r)
        bf[nt][r] = bits(tilec::rt::round_tf32(
            b[Mma1688Tf32::b_row(lane, r) * 16 + 8 * nt + Mma1688Tf32::b_col(lane, r)]));
  } else if (path == FragmentPath::Shared) {
    tilec::rt::ldmatrix_x4(af, aRow(as, 8 * 4));
    tilec::rt::round_to_tf32(af);
    for (int nt = 0; nt < 2; ++nt)
      tilec::rt::gather_f32_b<Rows<16>>(bf[nt], bs, 0, 8 * nt);
    for (int nt = 0; nt < 2; ++nt)
      tilec::rt::round_to_tf32(bf[nt]);
  } else {
    tilec::rt::gather_f32_a<Rows<16>>(af, as, 0, 0);
    tilec::rt::round_to_tf32(af);
    uint32_t bq[4];
    tilec::rt::ldmatrix_x4(bq, btRow(bs, 8 * 4));
    tilec::rt::round_to_tf32(bq);
    bf[0][0] = bq[0], bf[0][1] = bq[1], bf[1][0] = bq[2], bf[1][1] = bq[3];
  }
  for (int nt = 0; nt < 2; ++nt) {
    float cf[4], df[4];
    for (int e = 0; e < 4; ++e)
      cf[e] = c[Mma16816::c_row(lane, e) * 16 + 8 * nt + Mma16816::c_col(lane, e)];
    tilec::rt::mma_m16n8k8_tf32(df, af, bf[nt], cf);
    for (int e = 0; e < 4; ++e)
      d[Mma16816::c_row(lane, e) * 16 + 8 * nt + Mma16816::c_col(lane, e)] = df[e];
  }
}

__global__ void mma_s8(FragmentPath path, const int8_t *a, const int8_t *b, const int *c, int *d) {
  using tilec::rt::Mma16832S8;
  const int lane = tilec::rt::lane_id();
  uint32_t af[4], bf[2][2];
  alignas(16) __shared__ int8_t as[16 * 32], bs[32 * 16];
  for (int i = lane; i < 512;
       i += 32) { // A [16, 32] and B [32, 16], or A^T [32, 16] and B^T [16, 32]
    const bool t = path == FragmentPath::SharedT;
    as[i] = t ? a[i % 16 * 32 + i / 16] : a[i];
    bs[i] = t ? b[i % 32 * 16 + i / 32] : b[i];
  }
  __syncthreads();
  if (path == FragmentPath::Registers) {
    for (int r = 0; r < 4; ++r) {
      uint32_t w = 0;
      for (int e = 0; e < 4; ++e)
        w |= uint32_t(uint8_t(a[Mma16832S8::a_row(lane, r) * 32 + Mma16832S8::a_col(lane, r, e)]))
             << (8 * e);
      af[r] = w;
    }
    for (int nt = 0; nt < 2; ++nt)
      for (int r = 0; r < 2; ++r) {
        uint32_t w = 0;
        for (int e = 0; e < 4; ++e)
          w |= uint32_t(uint8_t(
                   b[Mma16832S8::b_row(lane, r, e) * 16 + 8 * nt + Mma16832S8::b_col(lane, r)]))
               << (8 * e);
        bf[nt][r] = w;
      }
  } else if (path == FragmentPath::Shared) {
    tilec::rt::ldmatrix_x4(af, aRow(as, 32));
    for (int nt = 0; nt < 2; ++nt)
      tilec::rt::gather_s8_b<Rows<16>>(bf[nt], bs, 0, 8 * nt);
  } else {
    tilec::rt::gather_s8_a<Rows<16>>(af, as, 0, 0);
    uint32_t bq[4];
    tilec::rt::ldmatrix_x4(bq, btRow(bs, 32));
    bf[0][0] = bq[0], bf[0][1] = bq[1], bf[1][0] = bq[2], bf[1][1] = bq[3];
  }
  for (int nt = 0; nt < 2; ++nt) {
    int cf[4], df[4];
    for (int e = 0; e < 4; ++e)
      cf[e] = c[Mma16816::c_row(lane, e) * 16 + 8 * nt + Mma16816::c_col(lane, e)];
    tilec::rt::mma_m16n8k32_s8(df, af, bf[nt], cf);
    for (int e = 0; e < 4; ++e)
      d[Mma16816::c_row(lane, e) * 16 + 8 * nt + Mma16816::c_col(lane, e)] = df[e];
  }
}

cudaError_t launchMmaTf32(FragmentPath path, const float *a, const float *b, const float *c,
                          float *d) {
  return launch(mma_tf32, path, a, b, c, d);
}
cudaError_t launchMmaS8(FragmentPath path, const int8_t *a, const int8_t *b, const int *c, int *d) {
  return launch(mma_s8, path, a, b, c, d);
}

cudaError_t launchMma(bool bf16, MmaPath path, const uint16_t *a, const uint16_t *b, const float *c,
                      float *d) {
  return launch(mma, bf16, path, a, b, c, d);
}
cudaError_t launchLdmatrix(bool trans, const uint16_t *m, uint32_t *out) {
  return launch(ldmatrix, trans, m, out);
}

} // namespace emu_test::tensor_core

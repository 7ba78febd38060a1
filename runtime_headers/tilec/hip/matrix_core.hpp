#pragma once
/// \file The matrix-core instructions of CDNA2 (gfx90a) and later, as tilec's HIP output calls them
/// (issue 12, docs/plan-tensor-cores.md): the wavefront-wide products `v_mfma_f32_32x32x8f16`,
/// `v_mfma_f32_16x16x16f16`, their bf16 forms (`..bf16_1k`) and int8 forms (`v_mfma_i32_32x32x8i8`,
/// `v_mfma_i32_16x16x16i8`), over the compiler's
/// `__builtin_amdgcn_mfma_*`. Each is one instruction on the GPU and a model of it on tilec's CPU
/// emulator (docs/emulation.md), with the same fragments, so that code using them is checked in
/// CI. Included by tilec/hip/runtime.hpp.

#if defined(TILEC_EMULATE)
#include <string.h>
#endif

namespace tilec::rt {

/// Which elements of the tiles of an N x N x K MFMA a lane of the 64-lane wavefront holds, for
/// N = 32 (K = 8) and N = 16 (K = 16), with G = 64 / N groups of N lanes (AMD Matrix Instruction
/// Calculator, CDNA2; RuntimeHostTest checks entries of its tables), as (row, column) of element e:
/// - A, N x K, four 16-bit elements in two registers (element e in register e / 2, low half
///   first; int8: four in one register, element e in byte e): row lane % N, column 4 (lane / N) +
///   e — four consecutive k of one row.
/// - B, K x N, likewise: row (k) 4 (lane / N) + e, column lane % N.
/// - C and D, N x N, N N / 64 floats: row 4 G (e / 4) + 4 (lane / N) + e % 4, column lane % N.
template <int N> struct Mfma {
  static_assert(N == 32 || N == 16, "MFMA tiles of 32 x 32 or 16 x 16");
  static constexpr int M = N, K = N == 32 ? 8 : 16, GROUPS = 64 / N;
  static constexpr int ACC = N * N / 64; ///< accumulator elements (floats) a lane holds
  __host__ __device__ static constexpr int a_row(int lane, int /*e*/) { return lane % N; }
  __host__ __device__ static constexpr int a_col(int lane, int e) { return 4 * (lane / N) + e; }
  __host__ __device__ static constexpr int b_row(int lane, int e) { return 4 * (lane / N) + e; }
  __host__ __device__ static constexpr int b_col(int lane, int /*e*/) { return lane % N; }
  __host__ __device__ static constexpr int c_row(int lane, int e) {
    return 4 * GROUPS * (e / 4) + 4 * (lane / N) + e % 4;
  }
  __host__ __device__ static constexpr int c_col(int lane, int /*e*/) { return lane % N; }
};

/// The layout of a tile held as N x N MFMA accumulators (tilec's `#mma` layout for HIP) over an
/// S0 x S1 tile with WM x WN wavefronts, wavefront w at (w / WN, w % WN): in every N WM x N WN
/// unit of the tile a wavefront holds the N x N block at (N wm, N wn), one accumulator of Mfma<N>.
/// A thread's elements are ELEMS0 x ELEMS1 (as a blocked layout's, so that every element-wise
/// statement reads them alike): element [i][j] is element i % ACC of the accumulator of block
/// (i / ACC, j) — a column of ACC rows per block. A dim of size 1 (the parent of a slice)
/// replicates. The a_* and b_* functions give the shared-memory row and column of the first of
/// the four consecutive k this lane reads for A's block m and B's block n (add the step's k).
template <int N, int WM, int WN, int S0, int S1> struct MfmaAcc {
  static constexpr int ACC = Mfma<N>::ACC;
  static constexpr int COV0 = N * WM, COV1 = N * WN;      ///< the unit the wavefronts cover
  static constexpr int REP0 = S0 >= COV0 ? S0 / COV0 : 1; ///< row blocks of a wavefront
  static constexpr int REP1 = S1 >= COV1 ? S1 / COV1 : 1; ///< column blocks of a wavefront
  static constexpr int ELEMS0 = S0 >= COV0 ? ACC * REP0 : 1;
  static constexpr int ELEMS1 = S1 >= COV1 ? REP1 : 1;
  static constexpr bool REPLICATED = S0 < COV0 || S1 < COV1;

  __device__ __forceinline__ static int lane() { return static_cast<int>(threadIdx.x) % 64; }
  __device__ __forceinline__ static int warp_coord0() {
    return static_cast<int>(threadIdx.x) / 64 / WN;
  }
  __device__ __forceinline__ static int warp_coord1() {
    return static_cast<int>(threadIdx.x) / 64 % WN;
  }
  __device__ __forceinline__ static int coord0(int i) {
    return S0 < COV0 ? 0 : i / ACC * COV0 + N * warp_coord0() + Mfma<N>::c_row(lane(), i % ACC);
  }
  __device__ __forceinline__ static int coord1(int j) {
    return S1 < COV1 ? 0 : j * COV1 + N * warp_coord1() + lane() % N;
  }
  __device__ __forceinline__ static bool is_owner() {
    return (S0 >= COV0 || (lane() / N == 0 && warp_coord0() == 0)) &&
           (S1 >= COV1 || (lane() % N == 0 && warp_coord1() == 0));
  }
  __device__ __forceinline__ static int a_row(int m) {
    return m * COV0 + N * warp_coord0() + lane() % N;
  }
  __device__ __forceinline__ static int a_col() { return 4 * (lane() / N); }
  __device__ __forceinline__ static int b_row() { return 4 * (lane() / N); }
  __device__ __forceinline__ static int b_col(int n) {
    return n * COV1 + N * warp_coord1() + lane() % N;
  }
};

/// A fragment's four elements (16-bit: two registers; int8: one) from four consecutive ones in
/// shared memory (one 8- or 4-byte read): A from its [M, K] rows, B from [N, K] rows
/// (`tl::trans`).
template <class T, int R>
__device__ __forceinline__ void read_fragment(uint32_t (&r)[R], const T *four) {
  static_assert(sizeof(T) == R, "MFMA fragments of four 16-bit or 8-bit elements");
  memcpy(r, four, 4 * sizeof(T));
}
/// A fragment's four elements from four places (k, k + 1, k + 2, k + 3 down a column of the
/// buffer: B from its [K, N] rows, A from [K, M] rows), packed low first.
template <class T, int R>
__device__ __forceinline__ void gather_fragment(uint32_t (&r)[R], T x0, T x1, T x2, T x3) {
  static_assert(sizeof(T) == R, "MFMA fragments of four 16-bit or 8-bit elements");
  const T four[4] = {x0, x1, x2, x3};
  memcpy(r, four, sizeof four);
}

#if defined(TILEC_EMULATE)
namespace detail {
/// An N x N x K MFMA with 16-bit operands of type T: every lane gives its A and B registers, and
/// computes its elements of D from the whole wavefront's, each the sum in fp32 of C's element and
/// the K products in increasing k (the GPU adds in an order of its own).
template <int N, class T>
__forceinline__ void mfma_model(float (&d)[Mfma<N>::ACC], const uint32_t (&a)[2],
                                const uint32_t (&b)[2], const float (&c)[Mfma<N>::ACC],
                                const char *name) {
  using F = Mfma<N>;
  struct Fragments {
    uint32_t a[2], b[2];
  };
  Fragments mine{{a[0], a[1]}, {b[0], b[1]}};
  Fragments wave[64] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, wave, sizeof(Fragments), name);
  auto half = [](uint32_t word, int high) {
    return static_cast<float>(
        T::fromBits(static_cast<uint16_t>(high ? word >> 16 : word & 0xFFFFu)));
  };
  // The lane and element that hold A[r][k] and B[k][n] (the inverse of Mfma's maps).
  auto aElem = [&](int r, int k) { return half(wave[r + N * (k / 4)].a[k % 4 / 2], k % 2); };
  auto bElem = [&](int k, int n) { return half(wave[n + N * (k / 4)].b[k % 4 / 2], k % 2); };
  const int lane = static_cast<int>(threadIdx.x) % 64;
  float out[F::ACC];
  for (int e = 0; e < F::ACC; ++e) {
    const int r = F::c_row(lane, e), n = F::c_col(lane, e);
    float s = c[e];
    for (int k = 0; k < F::K; ++k)
      s += aElem(r, k) * bElem(k, n); // products of 16-bit values are exact in fp32
    out[e] = s;
  }
  for (int e = 0; e < F::ACC; ++e)
    d[e] = out[e];
}
/// The int8 forms: each lane's four elements in one register; int32 sums wrapping on overflow.
template <int N>
__forceinline__ void mfma_i8_model(int (&d)[Mfma<N>::ACC], const uint32_t (&a)[1],
                                   const uint32_t (&b)[1], const int (&c)[Mfma<N>::ACC],
                                   const char *name) {
  using F = Mfma<N>;
  struct Fragments {
    uint32_t a, b;
  };
  Fragments mine{a[0], b[0]};
  Fragments wave[64] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, wave, sizeof(Fragments), name);
  auto byte = [](uint32_t word, int e) { return int(int8_t(uint8_t(word >> (8 * e)))); };
  auto aElem = [&](int r, int k) { return byte(wave[r + N * (k / 4)].a, k % 4); };
  auto bElem = [&](int k, int n) { return byte(wave[n + N * (k / 4)].b, k % 4); };
  const int lane = static_cast<int>(threadIdx.x) % 64;
  int out[F::ACC];
  for (int e = 0; e < F::ACC; ++e) {
    const int r = F::c_row(lane, e), n = F::c_col(lane, e);
    uint32_t sum = uint32_t(c[e]);
    for (int k = 0; k < F::K; ++k)
      sum += uint32_t(aElem(r, k) * bElem(k, n));
    out[e] = int(sum);
  }
  for (int e = 0; e < F::ACC; ++e)
    d[e] = out[e];
}
} // namespace detail
#define TILEC_MFMA(N, T, NAME, BUILTIN, OPERAND) detail::mfma_model<N, T>(d, a, b, c, NAME)
#define TILEC_MFMA_I8(N, NAME, BUILTIN) detail::mfma_i8_model<N>(d, a, b, c, NAME)
#else
namespace detail {
using mfma_f16x4 = _Float16 __attribute__((ext_vector_type(4)));
using mfma_bf16x4 = short __attribute__((ext_vector_type(4)));
template <int ACC> using mfma_f32xN = float __attribute__((ext_vector_type(ACC)));
/// Moves the operands into the vector registers the builtin takes, and the result out.
template <class Operand, int ACC, class Builtin>
__device__ __forceinline__ void mfma_call(float (&d)[ACC], const uint32_t (&a)[2],
                                          const uint32_t (&b)[2], const float (&c)[ACC],
                                          Builtin builtin) {
  Operand av, bv;
  __builtin_memcpy(&av, a, 8);
  __builtin_memcpy(&bv, b, 8);
  mfma_f32xN<ACC> cv;
  for (int e = 0; e < ACC; ++e)
    cv[e] = c[e];
  cv = builtin(av, bv, cv);
  for (int e = 0; e < ACC; ++e)
    d[e] = cv[e];
}
} // namespace detail
#define TILEC_MFMA(N, T, NAME, BUILTIN, OPERAND)                                                   \
  detail::mfma_call<detail::OPERAND>(                                                              \
      d, a, b, c, [](auto x, auto y, auto z) { return BUILTIN(x, y, z, 0, 0, 0); })
namespace detail {
template <int ACC> using mfma_i32xN = int __attribute__((ext_vector_type(ACC)));
/// The int8 forms: the four elements of each operand in one int register.
template <int ACC, class Builtin>
__device__ __forceinline__ void mfma_i8_call(int (&d)[ACC], const uint32_t (&a)[1],
                                             const uint32_t (&b)[1], const int (&c)[ACC],
                                             Builtin builtin) {
  mfma_i32xN<ACC> cv;
  for (int e = 0; e < ACC; ++e)
    cv[e] = c[e];
  cv = builtin(static_cast<int>(a[0]), static_cast<int>(b[0]), cv);
  for (int e = 0; e < ACC; ++e)
    d[e] = cv[e];
}
} // namespace detail
#define TILEC_MFMA_I8(N, NAME, BUILTIN)                                                            \
  detail::mfma_i8_call(d, a, b, c, [](int x, int y, auto z) { return BUILTIN(x, y, z, 0, 0, 0); })
#endif

/// D = A B + C on one wavefront's 32 x 32 tile, k = 8, fp16 operands, fp32 accumulators
/// (`v_mfma_f32_32x32x8f16`). Every lane calls it; the registers hold the elements Mfma<32>
/// names (pairs of fp16 in one 32-bit register, low first).
__device__ __forceinline__ void mfma_32x32x8_f16(float (&d)[16], const uint32_t (&a)[2],
                                                 const uint32_t (&b)[2], const float (&c)[16]) {
  TILEC_MFMA(32, __half, "mfma_32x32x8_f16", __builtin_amdgcn_mfma_f32_32x32x8f16, mfma_f16x4);
}
/// The same with bf16 operands (`v_mfma_f32_32x32x8bf16_1k`).
__device__ __forceinline__ void mfma_32x32x8_bf16(float (&d)[16], const uint32_t (&a)[2],
                                                  const uint32_t (&b)[2], const float (&c)[16]) {
  TILEC_MFMA(32, hip_bfloat16, "mfma_32x32x8_bf16", __builtin_amdgcn_mfma_f32_32x32x8bf16_1k,
             mfma_bf16x4);
}
/// D = A B + C on one wavefront's 16 x 16 tile, k = 16 (`v_mfma_f32_16x16x16f16`), with the
/// elements Mfma<16> names.
__device__ __forceinline__ void mfma_16x16x16_f16(float (&d)[4], const uint32_t (&a)[2],
                                                  const uint32_t (&b)[2], const float (&c)[4]) {
  TILEC_MFMA(16, __half, "mfma_16x16x16_f16", __builtin_amdgcn_mfma_f32_16x16x16f16, mfma_f16x4);
}
/// The same with bf16 operands (`v_mfma_f32_16x16x16bf16_1k`).
__device__ __forceinline__ void mfma_16x16x16_bf16(float (&d)[4], const uint32_t (&a)[2],
                                                   const uint32_t (&b)[2], const float (&c)[4]) {
  TILEC_MFMA(16, hip_bfloat16, "mfma_16x16x16_bf16", __builtin_amdgcn_mfma_f32_16x16x16bf16_1k,
             mfma_bf16x4);
}
/// D = A B + C on one wavefront's 32 x 32 tile, k = 8, int8 operands (four a register), int32
/// accumulators wrapping on overflow (`v_mfma_i32_32x32x8i8`), with the elements Mfma<32> names.
__device__ __forceinline__ void mfma_32x32x8_i8(int (&d)[16], const uint32_t (&a)[1],
                                                const uint32_t (&b)[1], const int (&c)[16]) {
  TILEC_MFMA_I8(32, "mfma_32x32x8_i8", __builtin_amdgcn_mfma_i32_32x32x8i8);
}
/// The same on a 16 x 16 tile, k = 16 (`v_mfma_i32_16x16x16i8`).
__device__ __forceinline__ void mfma_16x16x16_i8(int (&d)[4], const uint32_t (&a)[1],
                                                 const uint32_t (&b)[1], const int (&c)[4]) {
  TILEC_MFMA_I8(16, "mfma_16x16x16_i8", __builtin_amdgcn_mfma_i32_16x16x16i8);
}
#undef TILEC_MFMA
#undef TILEC_MFMA_I8

} // namespace tilec::rt

#pragma once
/// \file The matrix instructions of sm_80 and later, as tilec's CUDA output will call them (issue
/// 12, docs/plan-tensor-cores.md): the warp-wide products `mma.sync.m16n8k16` (fp16, bf16),
/// `m16n8k8` (tf32) and `m16n8k32` (int8), the shared-memory fragment load `ldmatrix` and the
/// asynchronous copy `cp.async`. Each is one PTX instruction on
/// the GPU and a model of it on tilec's CPU emulator (docs/emulation.md), with the same fragments,
/// so that code using them is checked in CI. Included by tilec/cuda/runtime.cuh.

#if defined(TILEC_EMULATE)
#include <string.h>
#endif

namespace tilec::rt {

/// Which elements of the m16n8k16 tiles a lane holds (PTX ISA, "Matrix Fragments for
/// mma.m16n8k16"), as (row, column) of element e of the lane's registers, with g = lane / 4 and
/// t = lane % 4:
/// - A, 16 x 16, 16-bit elements in four registers (element e in register e / 2, low half first):
///   row g + 8 (e / 2 % 2), column 2 t + e % 2 + 8 (e / 4).
/// - B, 16 x 8, 16-bit elements in two registers: row (k) 2 t + e % 2 + 8 (e / 2), column g.
/// - C and D, 16 x 8, four floats: row g + 8 (e / 2), column 2 t + e % 2.
struct Mma16816 {
  static constexpr int M = 16, N = 8, K = 16;
  __host__ __device__ static constexpr int a_row(int lane, int e) {
    return lane / 4 + 8 * (e / 2 % 2);
  }
  __host__ __device__ static constexpr int a_col(int lane, int e) {
    return 2 * (lane % 4) + e % 2 + 8 * (e / 4);
  }
  __host__ __device__ static constexpr int b_row(int lane, int e) {
    return 2 * (lane % 4) + e % 2 + 8 * (e / 2);
  }
  __host__ __device__ static constexpr int b_col(int lane, int /*e*/) { return lane / 4; }
  __host__ __device__ static constexpr int c_row(int lane, int e) { return lane / 4 + 8 * (e / 2); }
  __host__ __device__ static constexpr int c_col(int lane, int e) { return 2 * (lane % 4) + e % 2; }
};

/// The same for `mma.sync.m16n8k8` with tf32 operands (one 32-bit element a register), g and t as
/// above: A, 16 x 8, register r: row g + 8 (r % 2), column t + 4 (r / 2); B, 8 x 8, register r:
/// row (k) t + 4 r, column g. C and D as Mma16816's.
struct Mma1688Tf32 {
  static constexpr int M = 16, N = 8, K = 8;
  __host__ __device__ static constexpr int a_row(int lane, int r) { return lane / 4 + 8 * (r % 2); }
  __host__ __device__ static constexpr int a_col(int lane, int r) { return lane % 4 + 4 * (r / 2); }
  __host__ __device__ static constexpr int b_row(int lane, int r) { return lane % 4 + 4 * r; }
  __host__ __device__ static constexpr int b_col(int lane, int /*r*/) { return lane / 4; }
};

/// The same for `mma.sync.m16n8k32` with int8 operands (four a register, element e in byte e): A,
/// 16 x 32, register r: row g + 8 (r % 2), columns 4 t + 16 (r / 2) + e; B, 32 x 8, register r:
/// rows (k) 4 t + 16 r + e, column g. C and D (int32) as Mma16816's.
struct Mma16832S8 {
  static constexpr int M = 16, N = 8, K = 32;
  __host__ __device__ static constexpr int a_row(int lane, int r) { return lane / 4 + 8 * (r % 2); }
  __host__ __device__ static constexpr int a_col(int lane, int r, int e) {
    return 4 * (lane % 4) + 16 * (r / 2) + e;
  }
  __host__ __device__ static constexpr int b_row(int lane, int r, int e) {
    return 4 * (lane % 4) + 16 * r + e;
  }
  __host__ __device__ static constexpr int b_col(int lane, int /*r*/) { return lane / 4; }
};

/// The layout of a tile held as mma.sync m16n8k16 accumulators (tilec's `#mma` layout) over an
/// S0 x S1 tile with WM x WN warps, warp w at (w / WN, w % WN): in every 16 WM x 16 WN unit of the
/// tile a warp holds the 16 x 16 block at (16 wm, 16 wn), two 16 x 8 accumulators of Mma16816. A
/// thread's elements are ELEMS0 x ELEMS1 (as a blocked layout's, so that every element-wise
/// statement reads them alike): element [i][j] is element 2 (i % 2) + j % 2 of the accumulator of
/// m16 block i / 2 and n8 block j / 2. A dim of size 1 (the parent layout of a slice) replicates.
/// The a_* and b_* functions give the shared-memory row and column whose 16 bytes this lane names
/// to ldmatrix_x4 (A, k-contiguous rows) and ldmatrix_x4_trans (B, n-contiguous rows): the
/// fragments of m16 block m, and of n8 blocks 2 p and 2 p + 1, at k = 0 (add the step's k). The
/// same accumulators hold the products of m16n8k8 (tf32) and m16n8k32 (int8), whose k-contiguous
/// 16 bytes are 4 and 16 elements: a_col<BYTES>() and bt_col<BYTES>() count in elements of BYTES
/// bytes. m_base(m) and n_base(n) are the first row of m16 block m and the first column of n8 block
/// n of this warp (the gather_* helpers take them).
template <int WM, int WN, int S0, int S1> struct Mma16816Acc {
  static constexpr int ROWS = S0, COLS = S1;                  ///< the tile's shape
  static constexpr int COV0 = 16 * WM, COV1 = 16 * WN;        ///< the unit the warps cover
  static constexpr int REP0 = S0 >= COV0 ? S0 / COV0 : 1;     ///< m16 blocks of a warp
  static constexpr int REP1 = S1 >= COV1 ? 2 * S1 / COV1 : 1; ///< n8 blocks of a warp
  static constexpr int ELEMS0 = S0 >= COV0 ? 2 * REP0 : 1;
  static constexpr int ELEMS1 = S1 >= COV1 ? 2 * REP1 : 1;
  static constexpr bool REPLICATED = S0 < COV0 || S1 < COV1;

  __device__ __forceinline__ static int lane() { return static_cast<int>(threadIdx.x) % 32; }
  __device__ __forceinline__ static int warp_coord0() {
    return static_cast<int>(threadIdx.x) / 32 / WN;
  }
  __device__ __forceinline__ static int warp_coord1() {
    return static_cast<int>(threadIdx.x) / 32 % WN;
  }
  __device__ __forceinline__ static int coord0(int i) {
    return S0 < COV0 ? 0 : i / 2 * COV0 + 16 * warp_coord0() + 8 * (i % 2) + lane() / 4;
  }
  __device__ __forceinline__ static int coord1(int j) {
    return S1 < COV1
               ? 0
               : j / 4 * COV1 + 16 * warp_coord1() + 8 * (j / 2 % 2) + 2 * (lane() % 4) + j % 2;
  }
  __device__ __forceinline__ static bool is_owner() {
    return (S0 >= COV0 || (lane() / 4 == 0 && warp_coord0() == 0)) &&
           (S1 >= COV1 || (lane() % 4 == 0 && warp_coord1() == 0));
  }
  __device__ __forceinline__ static int a_row(int m) {
    return m * COV0 + 16 * warp_coord0() + lane() % 8 + 8 * (lane() / 8 % 2);
  }
  template <int BYTES = 2> __device__ __forceinline__ static int a_col() {
    return 16 / BYTES * (lane() / 16);
  }
  __device__ __forceinline__ static int b_row() { return lane() % 8 + 8 * (lane() / 8 % 2); }
  __device__ __forceinline__ static int b_col(int p) {
    return p * COV1 + 16 * warp_coord1() + 8 * (lane() / 16);
  }
  /// The same fragments from operands held transposed (`tl::trans`): A as [K, M] rows, read with
  /// ldmatrix_x4_trans at row (k) at_row() and column (m) at_col(m); B as [N, K] rows, read with
  /// ldmatrix_x4 at row (n) bt_row(p) and column (k) bt_col(). Lane l names row l % 8 of 8 x 8
  /// matrix l / 8, the matrices in the order of the untransposed reads.
  __device__ __forceinline__ static int at_row() { return lane() % 8 + 8 * (lane() / 16); }
  __device__ __forceinline__ static int at_col(int m) {
    return m * COV0 + 16 * warp_coord0() + 8 * (lane() / 8 % 2);
  }
  __device__ __forceinline__ static int bt_row(int p) {
    return p * COV1 + 16 * warp_coord1() + 8 * (lane() / 16) + lane() % 8;
  }
  template <int BYTES = 2> __device__ __forceinline__ static int bt_col() {
    return 16 / BYTES * (lane() / 8 % 2);
  }
  __device__ __forceinline__ static int m_base(int m) { return m * COV0 + 16 * warp_coord0(); }
  __device__ __forceinline__ static int n_base(int n) {
    return n / 2 * COV1 + 16 * warp_coord1() + 8 * (n % 2);
  }
  /// wgmma (sm_90a; WN = 1 and WM a multiple of 4): the first row of the 64 rows that this
  /// thread's warpgroup (warps 4 g to 4 g + 3) holds as m16 block m of its four warps, the rows one
  /// wgmma.m64nNk16 computes; its N / 2 registers are elements [2 m + r][2 j + c] of the tile's,
  /// register 4 j + 2 r + c (tilec/cuda/wgmma.cuh WgmmaM64NK16).
  /// The warpgroup's index comes from lane 0 (a shuffle), so that the compiler knows it is the
  /// same in the whole warp and keeps the descriptors made from it in uniform registers.
  __device__ __forceinline__ static int warpgroup_row(int m) {
    static_assert(WN == 1 && WM % 4 == 0, "wgmma: warpgroups stacked along M");
    return m * COV0 + 64 * __shfl_sync(0xffffffffu, warp_coord0() / 4, 0);
  }
};

/// The calling thread's lane in its warp (tilec's blocks are one-dimensional).
__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % 32; }

#if defined(TILEC_EMULATE)
namespace detail {
/// The value of one 16-bit element of a register pair as float (fp16 or bf16 bits).
template <class T> __forceinline__ float half_bits_to_float(uint32_t word, int high) {
  return static_cast<float>(T::fromBits(static_cast<uint16_t>(high ? word >> 16 : word & 0xFFFFu)));
}
/// mma.sync m16n8k16 with 16-bit operands of type T: every lane gives its A and B registers, and
/// computes its four elements of D from the whole warp's, each the sum in fp32 of C's element and
/// the sixteen products in increasing k (the GPU adds in an order of its own).
template <class T>
__forceinline__ void mma_m16n8k16_model(float (&d)[4], const uint32_t (&a)[4],
                                        const uint32_t (&b)[2], const float (&c)[4],
                                        const char *name) {
  struct Fragments {
    uint32_t a[4], b[2];
  };
  Fragments mine{{a[0], a[1], a[2], a[3]}, {b[0], b[1]}};
  Fragments warp[32] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, warp, sizeof(Fragments), name);
  // The lane and element that hold A[r][k] and B[k][n] (the inverse of Mma16816's maps).
  auto aElem = [&](int r, int k) {
    const int lane = 4 * (r % 8) + (k % 8) / 2, reg = (r / 8) + 2 * (k / 8);
    return half_bits_to_float<T>(warp[lane].a[reg], k % 2);
  };
  auto bElem = [&](int k, int n) {
    const int lane = 4 * n + (k % 8) / 2, reg = k / 8;
    return half_bits_to_float<T>(warp[lane].b[reg], k % 2);
  };
  const int lane = lane_id();
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int r = Mma16816::c_row(lane, e), n = Mma16816::c_col(lane, e);
    float s = c[e];
    for (int k = 0; k < Mma16816::K; ++k)
      s += aElem(r, k) * bElem(k, n); // products of 16-bit values are exact in fp32
    out[e] = s;
  }
  for (int e = 0; e < 4; ++e)
    d[e] = out[e];
}
/// mma.sync m16n8k8 with tf32 operands: as mma_m16n8k16_model; the hardware reads the 19 high bits
/// of each operand (sign, exponent, 10 mantissa bits), so the model clears the low 13. Products of
/// tf32 values are exact in fp32.
__forceinline__ void mma_m16n8k8_tf32_model(float (&d)[4], const uint32_t (&a)[4],
                                            const uint32_t (&b)[2], const float (&c)[4]) {
  struct Fragments {
    uint32_t a[4], b[2];
  };
  Fragments mine{{a[0], a[1], a[2], a[3]}, {b[0], b[1]}};
  Fragments warp[32] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, warp, sizeof(Fragments), "mma_m16n8k8_tf32");
  auto tf32 = [](uint32_t bits) {
    bits &= ~0x1FFFu;
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
  };
  auto aElem = [&](int r, int k) { return tf32(warp[4 * (r % 8) + k % 4].a[r / 8 + 2 * (k / 4)]); };
  auto bElem = [&](int k, int n) { return tf32(warp[4 * n + k % 4].b[k / 4]); };
  const int lane = lane_id();
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int r = Mma16816::c_row(lane, e), n = Mma16816::c_col(lane, e);
    float s = c[e];
    for (int k = 0; k < Mma1688Tf32::K; ++k)
      s += aElem(r, k) * bElem(k, n);
    out[e] = s;
  }
  for (int e = 0; e < 4; ++e)
    d[e] = out[e];
}
/// mma.sync m16n8k32 with int8 operands and int32 accumulators: each element C's plus the 32
/// products, wrapping around on overflow as the instruction without .satfinite does.
__forceinline__ void mma_m16n8k32_s8_model(int (&d)[4], const uint32_t (&a)[4],
                                           const uint32_t (&b)[2], const int (&c)[4]) {
  struct Fragments {
    uint32_t a[4], b[2];
  };
  Fragments mine{{a[0], a[1], a[2], a[3]}, {b[0], b[1]}};
  Fragments warp[32] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, warp, sizeof(Fragments), "mma_m16n8k32_s8");
  auto byte = [](uint32_t word, int e) { return int(int8_t(uint8_t(word >> (8 * e)))); };
  auto aElem = [&](int r, int k) {
    return byte(warp[4 * (r % 8) + k % 16 / 4].a[r / 8 + 2 * (k / 16)], k % 4);
  };
  auto bElem = [&](int k, int n) { return byte(warp[4 * n + k % 16 / 4].b[k / 16], k % 4); };
  const int lane = lane_id();
  int out[4];
  for (int e = 0; e < 4; ++e) {
    const int r = Mma16816::c_row(lane, e), n = Mma16816::c_col(lane, e);
    uint32_t s = uint32_t(c[e]);
    for (int k = 0; k < Mma16832S8::K; ++k)
      s += uint32_t(aElem(r, k) * bElem(k, n));
    out[e] = int(s);
  }
  for (int e = 0; e < 4; ++e)
    d[e] = out[e];
}
/// ldmatrix .x4: every lane reads the 16-byte row it names (its own read, checked as such), and
/// receives 16-bit element pairs of the rows the warp read. (Always inlined, as the helpers that
/// call them: a report then names the kernel's line.)
__forceinline__ void ldmatrix_x4_model(uint32_t (&r)[4], const void *row, bool trans,
                                       const char *name) {
  struct Row {
    uint32_t w[4];
  };
  Row mine;
  memcpy(&mine, row, sizeof mine);
  Row warp[32] = {};
  ::tilec::emu::warp_all_gather(~0ull, &mine, warp, sizeof(Row), name);
  const int lane = lane_id();
  for (int j = 0; j < 4; ++j) {
    if (!trans) { // row lane / 4 of matrix j, columns 2 (lane % 4) and + 1
      r[j] = warp[8 * j + lane / 4].w[lane % 4];
    } else { // rows 2 (lane % 4) and + 1 of matrix j, column lane / 4
      const int col = lane / 4;
      auto elem = [&](int rowOf) {
        const uint32_t w = warp[8 * j + rowOf].w[col / 2];
        return col % 2 ? w >> 16 : w & 0xFFFFu;
      };
      r[j] = elem(2 * (lane % 4)) | elem(2 * (lane % 4) + 1) << 16;
    }
  }
}
} // namespace detail
#endif

/// D = A B + C on one warp's 16 x 8 tile, fp16 operands, fp32 accumulators
/// (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`). Every lane of the warp calls it; the
/// registers hold the elements Mma16816 names (pairs of fp16 in one 32-bit register, low first).
__device__ __forceinline__ void mma_m16n8k16_f16_f32(float (&d)[4], const uint32_t (&a)[4],
                                                     const uint32_t (&b)[2], const float (&c)[4]) {
#if defined(TILEC_EMULATE)
  detail::mma_m16n8k16_model<__half>(d, a, b, c, "mma_m16n8k16_f16_f32");
#else
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
#endif
}
/// The same with bf16 operands (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`).
__device__ __forceinline__ void mma_m16n8k16_bf16_f32(float (&d)[4], const uint32_t (&a)[4],
                                                      const uint32_t (&b)[2], const float (&c)[4]) {
#if defined(TILEC_EMULATE)
  detail::mma_m16n8k16_model<__nv_bfloat16>(d, a, b, c, "mma_m16n8k16_bf16_f32");
#else
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
#endif
}

/// D = A B + C on one warp's 16 x 8 tile, k = 8, tf32 operands (fp32 registers whose low 13 bits
/// the instruction ignores: round_to_tf32 first), fp32 accumulators
/// (`mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`), with the elements Mma1688Tf32 names.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2], const float (&c)[4]) {
#if defined(TILEC_EMULATE)
  detail::mma_m16n8k8_tf32_model(d, a, b, c);
#else
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
#endif
}
/// D = A B + C on one warp's 16 x 8 tile, k = 32, int8 operands, int32 accumulators wrapping on
/// overflow (`mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`), with the elements Mma16832S8
/// names.
__device__ __forceinline__ void mma_m16n8k32_s8(int (&d)[4], const uint32_t (&a)[4],
                                                const uint32_t (&b)[2], const int (&c)[4]) {
#if defined(TILEC_EMULATE)
  detail::mma_m16n8k32_s8_model(d, a, b, c);
#else
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]),
        "r"(c[2]), "r"(c[3]));
#endif
}
/// Each fp32 register of a fragment rounded to tf32 (round_tf32: to nearest, ties away from zero,
/// as `cvt.rna.tf32.f32`), the rounding tl::dot<tl::tf32> specifies.
template <int N> __device__ __forceinline__ void round_to_tf32(uint32_t (&r)[N]) {
  TILEC_UNROLL
  for (int i = 0; i < N; ++i) {
    float x;
    memcpy(&x, &r[i], sizeof x);
    x = round_tf32(x);
    memcpy(&r[i], &x, sizeof x);
  }
}
/// tf32x3 (tl::dot<tl::tf32x3>): each fp32 register x of a fragment split into its tf32 value
/// (left in `hi`) and the tf32 of the rest, x - hi (in `lo`): hi lo' + lo hi' + hi hi' is within
/// about 2^-22 of the fp32 product, the CPU reference's terms (tilec::rt::dot_term_tf32x3).
template <int N> __device__ __forceinline__ void split_tf32(uint32_t (&hi)[N], uint32_t (&lo)[N]) {
  TILEC_UNROLL
  for (int i = 0; i < N; ++i) {
    float x, h, l;
    memcpy(&x, &hi[i], sizeof x);
    h = round_tf32(x);
    l = round_tf32(x - h);
    memcpy(&hi[i], &h, sizeof h);
    memcpy(&lo[i], &l, sizeof l);
  }
}
/// A's m16 x k8 fp32 fragment (Mma1688Tf32's elements, as fp32 bits: round_to_tf32 or split_tf32
/// next) from a buffer holding A transposed ([K, M] rows, `tl::trans`), rows addressed through
/// SWIZZLE (tilec::rt::XorSwizzle): the four elements of this lane at rows k0 + ..., columns m0 +
/// .... ldmatrix cannot transpose 32-bit elements.
template <class SWIZZLE>
__device__ __forceinline__ void gather_f32_a(uint32_t (&r)[4], const float *buf, int m0, int k0) {
  const int lane = lane_id();
  TILEC_UNROLL
  for (int i = 0; i < 4; ++i)
    memcpy(
        &r[i],
        &buf[SWIZZLE::offset(k0 + Mma1688Tf32::a_col(lane, i), m0 + Mma1688Tf32::a_row(lane, i))],
        sizeof(float));
}
/// B's k8 x n8 fp32 fragment from a buffer of [K, N] rows: two elements down column n0 + g.
template <class SWIZZLE>
__device__ __forceinline__ void gather_f32_b(uint32_t (&r)[2], const float *buf, int k0, int n0) {
  const int lane = lane_id();
  TILEC_UNROLL
  for (int i = 0; i < 2; ++i)
    memcpy(
        &r[i],
        &buf[SWIZZLE::offset(k0 + Mma1688Tf32::b_row(lane, i), n0 + Mma1688Tf32::b_col(lane, i))],
        sizeof(float));
}
/// A's m16 x k32 int8 fragment (Mma16832S8) from a buffer of [K, M] rows (`tl::trans`): each
/// register's four bytes down a column.
template <class SWIZZLE>
__device__ __forceinline__ void gather_s8_a(uint32_t (&r)[4], const int8_t *buf, int m0, int k0) {
  const int lane = lane_id();
  TILEC_UNROLL
  for (int i = 0; i < 4; ++i) {
    uint32_t w = 0;
    TILEC_UNROLL
    for (int e = 0; e < 4; ++e)
      w |= uint32_t(uint8_t(buf[SWIZZLE::offset(k0 + Mma16832S8::a_col(lane, i, e),
                                                m0 + Mma16832S8::a_row(lane, i))]))
           << (8 * e);
    r[i] = w;
  }
}
/// B's k32 x n8 int8 fragment from a buffer of [K, N] rows: each register's four bytes down
/// column n0 + g.
template <class SWIZZLE>
__device__ __forceinline__ void gather_s8_b(uint32_t (&r)[2], const int8_t *buf, int k0, int n0) {
  const int lane = lane_id();
  TILEC_UNROLL
  for (int i = 0; i < 2; ++i) {
    uint32_t w = 0;
    TILEC_UNROLL
    for (int e = 0; e < 4; ++e)
      w |= uint32_t(uint8_t(buf[SWIZZLE::offset(k0 + Mma16832S8::b_row(lane, i, e),
                                                n0 + Mma16832S8::b_col(lane, i))]))
           << (8 * e);
    r[i] = w;
  }
}

/// Four 8 x 8 matrices of 16-bit elements from shared memory into fragments
/// (`ldmatrix.sync.aligned.m8n8.x4.shared.b16`): lanes 8 j .. 8 j + 7 each pass the address of one
/// row of matrix j (16 bytes, 16-byte aligned); every lane receives in r[j] the elements (row
/// lane / 4, columns 2 (lane % 4) and + 1) of matrix j — an A fragment of Mma16816 when the four
/// matrices are A's quarters in the order of its registers.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *row) {
#if defined(TILEC_EMULATE)
  detail::ldmatrix_x4_model(r, row, false, "ldmatrix_x4");
#else
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
#endif
}
/// The same, transposed (`.trans`): r[j] holds the elements (rows 2 (lane % 4) and + 1, column
/// lane / 4) of matrix j — a B fragment of Mma16816 from a B stored row by row (k-major).
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void *row) {
#if defined(TILEC_EMULATE)
  detail::ldmatrix_x4_model(r, row, true, "ldmatrix_x4_trans");
#else
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
#endif
}

/// Starts copying 16 bytes from global `src` to shared `dst`, both 16-byte aligned
/// (`cp.async.cg.shared.global`); with `valid` false it reads nothing and writes 16 zero bytes (the
/// masked edge of a tile). The bytes land when a cp_async_wait completes the copy's group.
__device__ __forceinline__ void cp_async_16(void *dst, const void *src, bool valid = true) {
#if defined(TILEC_EMULATE)
  unsigned char bytes[16] = {};
  if (valid)
    memcpy(bytes, src, sizeof bytes); // the global read, checked as this thread's
  ::tilec::emu::async_copy(dst, bytes, sizeof bytes);
#else
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(addr), "l"(src),
               "r"(valid ? 16 : 0)
               : "memory");
#endif
}
/// As cp_async_16, for 8 bytes (`cp.async.ca`: 4- and 8-byte copies go through L1), both 8-byte
/// aligned: the copies of a tile too small for 16 bytes a thread.
__device__ __forceinline__ void cp_async_8(void *dst, const void *src, bool valid = true) {
#if defined(TILEC_EMULATE)
  unsigned char bytes[8] = {};
  if (valid)
    memcpy(bytes, src, sizeof bytes);
  ::tilec::emu::async_copy(dst, bytes, sizeof bytes);
#else
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(addr), "l"(src),
               "r"(valid ? 8 : 0)
               : "memory");
#endif
}
/// As cp_async_16, for 4 bytes (`cp.async.ca`), both 4-byte aligned.
__device__ __forceinline__ void cp_async_4(void *dst, const void *src, bool valid = true) {
#if defined(TILEC_EMULATE)
  unsigned char bytes[4] = {};
  if (valid)
    memcpy(bytes, src, sizeof bytes);
  ::tilec::emu::async_copy(dst, bytes, sizeof bytes);
#else
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(addr), "l"(src),
               "r"(valid ? 4 : 0)
               : "memory");
#endif
}
/// Closes the group of the copies this thread started since its last commit
/// (`cp.async.commit_group`).
__device__ __forceinline__ void cp_async_commit() {
#if defined(TILEC_EMULATE)
  ::tilec::emu::async_commit();
#else
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
/// Waits until at most PENDING of this thread's committed groups are in flight
/// (`cp.async.wait_group`): the others' bytes are in shared memory, visible to this thread; other
/// threads see them after a __syncthreads().
template <int PENDING> __device__ __forceinline__ void cp_async_wait() {
  static_assert(PENDING >= 0 && PENDING <= 7, "cp_async_wait: 0 to 7 groups may stay in flight");
#if defined(TILEC_EMULATE)
  ::tilec::emu::async_wait(PENDING);
#else
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
#endif
}

} // namespace tilec::rt

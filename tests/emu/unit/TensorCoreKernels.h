#pragma once
/// \file Kernels for the matrix instructions of tilec/cuda/tensor_core.cuh (mma.sync m16n8k16,
/// ldmatrix, cp.async): one warp multiplies a 16 x 16 tile A by a 16 x 16 tile B (two m16n8k16
/// products, n = 0-7 and 8-15) and adds C. TensorCoreKernels.cpp is compiled as emitted code is for
/// the emulator (tests/emu/unit) and by nvcc for the GPU (tests/gpu/tensor_core.cu): the same
/// fragments must give the same products on both.

#include "Lines.h"

#include <cstdint>
#include <random>
#include <vector>

#if defined(TILEC_EMULATE) || !defined(__CUDACC__)
#include <tilec/emu/host.hpp>
#endif

namespace emu_test::tensor_core {

constexpr int kM = 16, kN = 16, kK = 16;

enum class MmaPath : int {
  Registers, ///< each lane packs its fragments from global memory (Mma16816's maps)
  Pipeline,  ///< cp.async to shared memory, wait, barrier, ldmatrix_x4 (A) / ldmatrix_x4_trans (B)
  LateWait,  ///< bug: the cp_async_wait comes after the fragments are read
  NoBarrier, ///< bug: no __syncthreads() between the copies and the fragment reads
  NoWait,    ///< bug: no cp_async_wait at all
};

/// One warp: d[r][n] = c[r][n] + sum over k of a[r][k] * b[k][n]. a, b: 16-bit elements (fp16, or
/// bf16 when `bf16`) as their bits, row-major 16 x 16; c, d: fp32 row-major 16 x 16.
cudaError_t launchMma(bool bf16, MmaPath path, const uint16_t *a, const uint16_t *b, const float *c,
                      float *d);

/// One warp: four 8 x 8 matrices of 16-bit values (row-major, matrix j at m + 64 j) through shared
/// memory and ldmatrix_x4 (`trans`: ldmatrix_x4_trans); out[4 lane + j] = the lane's register j.
cudaError_t launchLdmatrix(bool trans, const uint16_t *m, uint32_t *out);

// ---- host side, shared by the emulator's tests and the GPU program ------------------------------
/// Fresh random operands of launchMma: a and b of 16-bit type T (tl::half or tl::bfloat16) as bits,
/// c in fp32, all in [-2, 2).
template <class T> struct Operands {
  std::vector<uint16_t> a, b;
  std::vector<float> c;
  explicit Operands(uint32_t seed) : a(kM * kK), b(kK * kN), c(kM * kN) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (auto &x : a)
      x = T(d(rng)).bits;
    for (auto &x : b)
      x = T(d(rng)).bits;
    for (auto &x : c)
      x = d(rng);
  }
  float aAt(int r, int k) const { return float(T::fromBits(a[r * kK + k])); }
  float bAt(int k, int n) const { return float(T::fromBits(b[k * kN + n])); }
  /// c + a b, summed in fp32 one product at a time in increasing k: the emulator's order.
  std::vector<float> reference() const {
    std::vector<float> d(kM * kN);
    for (int r = 0; r < kM; ++r)
      for (int n = 0; n < kN; ++n) {
        float s = c[r * kN + n];
        for (int k = 0; k < kK; ++k)
          s += aAt(r, k) * bAt(k, n);
        d[r * kN + n] = s;
      }
    return d;
  }
  /// The same in float64.
  std::vector<double> exact() const {
    std::vector<double> d(kM * kN);
    for (int r = 0; r < kM; ++r)
      for (int n = 0; n < kN; ++n) {
        double s = c[r * kN + n];
        for (int k = 0; k < kK; ++k)
          s += double(aAt(r, k)) * double(bAt(k, n));
        d[r * kN + n] = s;
      }
    return d;
  }
};

/// Register j of `lane` after ldmatrix_x4 (`trans`: ldmatrix_x4_trans) of launchLdmatrix's
/// matrices, as the PTX ISA assigns it: (row lane / 4, columns 2 (lane % 4) and + 1) of matrix j,
/// or transposed (rows 2 (lane % 4) and + 1, column lane / 4).
inline uint32_t ldmatrixRegister(const std::vector<uint16_t> &m, int lane, int j, bool trans) {
  auto at = [&](int r, int c) { return uint32_t(m[64 * j + 8 * r + c]); };
  const int g = lane / 4, t = lane % 4;
  return trans ? at(2 * t, g) | at(2 * t + 1, g) << 16 : at(g, 2 * t) | at(g, 2 * t + 1) << 16;
}

/// How launchMmaTf32 and launchMmaS8 get their fragments.
enum class FragmentPath : int {
  Registers, ///< packed from global memory by the instruction's fragment maps
  Shared,    ///< A [M, K] with ldmatrix_x4, B [K, N] with gather_*_b, from shared memory
  SharedT,   ///< A^T [K, M] with gather_*_a, B^T [N, K] with ldmatrix_x4 (tl::trans operands)
};

/// One warp: d = c + a b over 16 x 16 with two m16n8k8 tf32 products (n = 0-7, 8-15): a 16 x 8 and
/// b 8 x 16 fp32 row-major, c and d 16 x 16; each operand rounded to tf32 first.
cudaError_t launchMmaTf32(FragmentPath path, const float *a, const float *b, const float *c,
                          float *d);
/// One warp: d = c + a b over 16 x 16 with two m16n8k32 int8 products: a 16 x 32 and b 32 x 16
/// int8 row-major, c and d int32 16 x 16 (wrapping).
cudaError_t launchMmaS8(FragmentPath path, const int8_t *a, const int8_t *b, const int *c, int *d);

/// Fresh random operands of launchMmaTf32 (in [-2, 2), not tf32 values: the rounding matters) and
/// launchMmaS8 (int8 over their whole range, c near the int32 limits so that sums wrap).
struct Tf32Operands {
  std::vector<float> a, b, c;
  explicit Tf32Operands(uint32_t seed) : a(16 * 8), b(8 * 16), c(16 * 16) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (auto *v : {&a, &b, &c})
      for (auto &x : *v)
        x = d(rng);
  }
  /// c + a b with operands rounded to tf32 (to nearest, ties away: tl::dot<tl::tf32>'s rule),
  /// summed in fp32 in increasing k (the emulator's order); `exact`: in float64.
  template <class R> std::vector<R> reference(float (*round)(float)) const {
    std::vector<R> d(16 * 16);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 16; ++n) {
        R s = c[r * 16 + n];
        for (int k = 0; k < 8; ++k)
          s += R(round(a[r * 8 + k])) * R(round(b[k * 16 + n]));
        d[r * 16 + n] = s;
      }
    return d;
  }
};
struct S8Operands {
  std::vector<int8_t> a, b;
  std::vector<int> c;
  explicit S8Operands(uint32_t seed) : a(16 * 32), b(32 * 16), c(16 * 16) {
    std::mt19937 rng(seed);
    for (auto *v : {&a, &b})
      for (auto &x : *v)
        x = int8_t(rng());
    for (int i = 0; i < 16 * 16; ++i)
      c[i] = int(0x7FFFF000u + (rng() & 0x1FFFu)); // near INT32_MAX: about half the sums wrap
  }
  std::vector<int> reference() const {
    std::vector<int> d(16 * 16);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 16; ++n) {
        uint32_t s = uint32_t(c[r * 16 + n]);
        for (int k = 0; k < 32; ++k)
          s += uint32_t(int(a[r * 32 + k]) * int(b[k * 16 + n]));
        d[r * 16 + n] = int(s);
      }
    return d;
  }
};

namespace at {
struct LateWaitRead;
} // namespace at

} // namespace emu_test::tensor_core

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

namespace at {
struct LateWaitRead;
} // namespace at

} // namespace emu_test::tensor_core

#pragma once
/// \file Kernels for the matrix-core instructions of tilec/hip/matrix_core.hpp (MFMA 32x32x8 and
/// 16x16x16, fp16 and bf16): one 64-lane wavefront multiplies an N x K tile A by a K x N tile B and
/// adds C, the operands staged in shared memory and read as tilec's HIP output reads them (A's four
/// consecutive k of a row in one read, B's down a column). MatrixCoreKernels.cpp is compiled as
/// emitted code is for the emulator (tests/emu/unit); no AMD GPU is at hand, so the fragment maps
/// are checked against AMD's Matrix Instruction Calculator instead (MatrixCoreTest.cpp).

#include <tilec/emu/host.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace emu_test::matrix_core {

/// One wavefront: d[r][n] = c[r][n] + sum over k of a[r][k] * b[k][n] with the N x N x K MFMA
/// (n = 32: 32x32x8, n = 16: 16x16x16). a, b: 16-bit elements (fp16, or bf16 when `bf16`) as their
/// bits, row-major N x K and K x N; c, d: fp32 row-major N x N.
hipError_t launchMfma(int n, bool bf16, const uint16_t *a, const uint16_t *b, const float *c,
                      float *d);

/// The int8 forms (v_mfma_i32_32x32x8i8, v_mfma_i32_16x16x16i8): a and b int8 row-major N x K and
/// K x N, c and d int32 N x N (wrapping).
hipError_t launchMfmaI8(int n, const int8_t *a, const int8_t *b, const int *c, int *d);

/// Where Mfma<n> puts an element: the lane and the element index in that lane's registers of
/// A[row][col] (matrix 'A'), B[row][col] ('B') or D[row][col] ('D'); {-1, -1} when no lane holds
/// it.
struct Held {
  int lane, elem;
};
Held mfmaHolder(int n, char matrix, int row, int col);

// ---- host side ----------------------------------------------------------------------------------
/// Fresh random operands of launchMfma: a and b of 16-bit type T as bits, c in fp32, all in [-2,
/// 2).
template <class T> struct Operands {
  int n, k;
  std::vector<uint16_t> a, b;
  std::vector<float> c;
  Operands(int n, uint32_t seed) : n(n), k(n == 32 ? 8 : 16), a(n * k), b(k * n), c(n * n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (auto &x : a)
      x = T(d(rng)).bits;
    for (auto &x : b)
      x = T(d(rng)).bits;
    for (auto &x : c)
      x = d(rng);
  }
  /// c + a b, summed in fp32 one product at a time in increasing k: the emulator's order.
  std::vector<float> reference() const {
    std::vector<float> d(n * n);
    for (int r = 0; r < n; ++r)
      for (int j = 0; j < n; ++j) {
        float s = c[r * n + j];
        for (int i = 0; i < k; ++i)
          s += float(T::fromBits(a[r * k + i])) * float(T::fromBits(b[i * n + j]));
        d[r * n + j] = s;
      }
    return d;
  }
};

} // namespace emu_test::matrix_core

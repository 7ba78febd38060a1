#pragma once
/// \file Kernels for the matrix instructions of tilec/cuda/tensor_core.cuh (mma.sync m16n8k16,
/// ldmatrix, cp.async): one warp multiplies a 16 x 16 tile A by a 16 x 16 tile B (two m16n8k16
/// products, n = 0-7 and 8-15) and adds C. TensorCoreKernels.cpp is compiled as emitted code is for
/// the emulator (tests/emu/unit) and by nvcc for the GPU (tests/gpu/tensor_core.cu): the same
/// fragments must give the same products on both.

#include "Lines.h"

#include <cstdint>

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

namespace at {
struct LateWaitRead;
} // namespace at

} // namespace emu_test::tensor_core

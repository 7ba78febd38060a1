/// \file The kernels of WgmmaKernels.h, written as tilec's CUDA output for sm_90a will use wgmma:
/// <tilec/cuda/runtime.cuh>, tilec::rt helpers, cudaLaunchKernelEx launchers.

#include "WgmmaKernels.h"

#include <tilec/cuda/runtime.cuh>

// The line marks serve the emulator's reports; nvcc's device code cannot take their host address.
#if defined(__CUDA_ARCH__)
#define WGMMA_LINE(Tag)
#else
#define WGMMA_LINE(Tag) EMU_TEST_LINE(Tag)
#endif

namespace emu_test::wgmma {
namespace {

using tilec::rt::SmemSwizzle;
using tilec::rt::WgmmaMajor;

WGMMA_TEST_HD constexpr SmemSwizzle toRt(Swizzle s) {
  return s == Swizzle::B128  ? SmemSwizzle::Bytes128
         : s == Swizzle::B64 ? SmemSwizzle::Bytes64
         : s == Swizzle::B32 ? SmemSwizzle::Bytes32
                             : SmemSwizzle::None;
}

/// The descriptor of wgmma step s of an operand staged as `layout` at `tile`.
__device__ __forceinline__ uint64_t descriptor(const unsigned char *tile,
                                               const OperandLayout &layout, int s) {
  const OperandLayout::Step step = layout.step(s);
  return tilec::rt::make_smem_desc(tile + step.start, toRt(layout.swizzle), uint32_t(step.leading),
                                   uint32_t(step.stride));
}

/// One wgmma step with the kernel's element type and majors.
template <int N, Major A_MAJOR, Major B_MAJOR, bool BF16>
__device__ __forceinline__ void issue(float (&acc)[N / 2], uint64_t aDesc, uint64_t bDesc,
                                      bool accumulate) {
  constexpr WgmmaMajor aMajor = A_MAJOR == Major::K ? WgmmaMajor::K : WgmmaMajor::MN;
  constexpr WgmmaMajor bMajor = B_MAJOR == Major::K ? WgmmaMajor::K : WgmmaMajor::MN;
  if constexpr (BF16)
    tilec::rt::wgmma_m64nNk16_f32_bf16<N, aMajor, bMajor>(acc, aDesc, bDesc, accumulate);
  else
    tilec::rt::wgmma_m64nNk16_f32_f16<N, aMajor, bMajor>(acc, aDesc, bDesc, accumulate);
}

__device__ __forceinline__ void store16(unsigned char *p, uint16_t bits) {
  *reinterpret_cast<uint16_t *>(p) = bits;
}

/// d[m][n] from the accumulators, by WgmmaM64NK16's map.
template <int N> __device__ __forceinline__ void storeD(const float (&acc)[N / 2], float *d) {
  using Map = tilec::rt::WgmmaM64NK16<N>;
  const int t = static_cast<int>(threadIdx.x);
  for (int r = 0; r < N / 2; ++r)
    d[Map::row(t, r) * N + Map::col(t, r)] = acc[r];
}

} // namespace

/// The kernel of one shape, majors and element type; `c` says the rest (layouts, path).
template <int N, Major A_MAJOR, Major B_MAJOR, bool BF16>
__global__ void __launch_bounds__(kThreads)
    wgmma_product(WgmmaCase c, const uint16_t *a, const uint16_t *b, const float *cIn, float *d) {
  // The operands' tiles, 1024-byte aligned (the 128-byte swizzle's atom); A moved by aOffset.
  alignas(1024) __shared__ unsigned char aSmem[kATileBytes];
  alignas(1024) __shared__ unsigned char bSmem[kBTileBytes];
  const int t = static_cast<int>(threadIdx.x), K = c.k(), threads = static_cast<int>(blockDim.x);
  const OperandLayout aLayout = c.aLayout(), bLayout = c.bLayout();
  unsigned char *aTile = aSmem + c.aOffset;
  for (int i = t; i < kM * K; i += threads)
    store16(aTile + aLayout.offset(i / K, i % K), a[i]);
  for (int i = t; i < K * N; i += threads)
    store16(bSmem + bLayout.offset(i % N, i / N), b[i]);
  tilec::rt::fence_proxy_async_shared(); // the stores, before the wgmmas read them
  __syncthreads();

  using Map = tilec::rt::WgmmaM64NK16<N>;
  float acc[N / 2];
  for (int r = 0; r < N / 2; ++r) // C, or a NaN that scale-d 0 must ignore
    acc[r] = c.accumulate ? cIn[Map::row(t, r) * N + Map::col(t, r)] : __int_as_float(0x7FC00000);
  // The descriptors first: the layouts are run-time values here, and branches between the wgmmas
  // would make ptxas fence them (tilec's kernels know their layouts at compile time).
  uint64_t aDesc[kSteps], bDesc[kSteps];
  TILEC_UNROLL
  for (int s = 0; s < kSteps; ++s)
    aDesc[s] = descriptor(aTile, aLayout, s), bDesc[s] = descriptor(bSmem, bLayout, s);
  tilec::rt::wgmma_fence_accumulators(acc);
  if (c.path == WgmmaPath::GroupPerStep) { // a commit and wgmma_wait<1> after each step
    tilec::rt::wgmma_fence();
    TILEC_UNROLL
    for (int s = 0; s < kSteps; ++s) {
      issue<N, A_MAJOR, B_MAJOR, BF16>(acc, aDesc[s], bDesc[s], c.accumulate || s > 0);
      tilec::rt::wgmma_commit_group();
      tilec::rt::wgmma_wait<1>(); // the step before has landed; this one stays in flight
    }
  } else { // every step in one group
#if defined(TILEC_EMULATE)
    if (c.path != WgmmaPath::NoFence)
#endif
      tilec::rt::wgmma_fence();
    TILEC_UNROLL
    for (int s = 0; s < kSteps; ++s) {
      const bool accumulate = c.accumulate || s > 0;
      issue<N, A_MAJOR, B_MAJOR, BF16>(acc, aDesc[s], bDesc[s], accumulate); WGMMA_LINE(at::Issue);
    }
    tilec::rt::wgmma_commit_group();
  }
#if defined(TILEC_EMULATE) // the planted bugs (on the GPU, undefined behaviour that ptxas sees)
  if (c.path == WgmmaPath::WriteAccumulator)
    acc[0] = 0.0f;
  if constexpr (N == 64) {
    if (c.path == WgmmaPath::OtherShape) { // m64n32k16 on the first 16 registers
      float(&low)[16] = reinterpret_cast<float(&)[16]>(acc);
      issue<32, A_MAJOR, B_MAJOR, BF16>(low, aDesc[0], bDesc[0], true); WGMMA_LINE(at::OtherShape);
      tilec::rt::wgmma_commit_group();
    }
  }
  if (c.path == WgmmaPath::OverwriteOperand) {
    __syncthreads();
    if (t == 0) // A[0][0], which the first step reads: its sign flipped
      store16(aTile + aLayout.offset(0, 0), uint16_t(a[0] ^ 0x8000u));
  }
  if (c.path == WgmmaPath::StoreBeforeWait)
    storeD<N>(acc, d);
  if (c.path == WgmmaPath::NoWait) {
    storeD<N>(acc, d);
    return;
  }
#endif
  tilec::rt::wgmma_wait<0>(); WGMMA_LINE(at::Wait);
  tilec::rt::wgmma_fence_accumulators(acc);
  if (c.path != WgmmaPath::StoreBeforeWait)
    storeD<N>(acc, d);
}

namespace {
template <int N, Major A_MAJOR, Major B_MAJOR, bool BF16>
cudaError_t launch(const WgmmaCase &c, const uint16_t *a, const uint16_t *b, const float *cIn,
                   float *d) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(unsigned(c.threads));
  return cudaLaunchKernelEx(&config, wgmma_product<N, A_MAJOR, B_MAJOR, BF16>, c, a, b, cIn, d);
}
/// The kernel of c's majors and element type.
template <int N>
cudaError_t launchN(const WgmmaCase &c, const uint16_t *a, const uint16_t *b, const float *cIn,
                    float *d) {
  constexpr Major K = Major::K, MN = Major::MN;
  const bool aK = c.aMajor == K, bK = c.bMajor == K;
  if (c.bf16)
    return aK && bK ? launch<N, K, K, true>(c, a, b, cIn, d)
           : aK     ? launch<N, K, MN, true>(c, a, b, cIn, d)
           : bK     ? launch<N, MN, K, true>(c, a, b, cIn, d)
                    : launch<N, MN, MN, true>(c, a, b, cIn, d);
  return aK && bK ? launch<N, K, K, false>(c, a, b, cIn, d)
         : aK     ? launch<N, K, MN, false>(c, a, b, cIn, d)
         : bK     ? launch<N, MN, K, false>(c, a, b, cIn, d)
                  : launch<N, MN, MN, false>(c, a, b, cIn, d);
}
} // namespace

cudaError_t launchWgmma(const WgmmaCase &c, const uint16_t *a, const uint16_t *b, const float *cIn,
                        float *d) {
  switch (c.n) {
  case 64:
    return launchN<64>(c, a, b, cIn, d);
  case 128:
    return launchN<128>(c, a, b, cIn, d);
  case 256:
    return launchN<256>(c, a, b, cIn, d);
  default:
    return cudaErrorInvalidValue;
  }
}

uint64_t packDescriptor(uint32_t address, Swizzle swizzle, uint32_t leading, uint32_t stride) {
  return tilec::rt::encode_smem_desc(address, toRt(swizzle), leading, stride);
}
DescriptorFields unpackDescriptor(uint64_t desc) {
  const tilec::rt::SmemDescFields f = tilec::rt::decode_smem_desc(desc);
  return {f.start_address, f.leading_byte_offset, f.stride_byte_offset, f.base_offset,
          int(f.swizzle)};
}

uint64_t moveDescriptor(uint64_t desc, uint64_t bytes) {
  return tilec::rt::smem_desc_moved(desc, bytes);
}

int accumulatorRow(int t, int r) { return tilec::rt::WgmmaM64NK16<kMaxN>::row(t, r); }
int accumulatorCol(int t, int r) { return tilec::rt::WgmmaM64NK16<kMaxN>::col(t, r); }

} // namespace emu_test::wgmma

// The register budget for big blocks (emitters/KernelEmitter.cpp, bench/NOTES.md "Production
// kernels"): a CUDA kernel of 512 or more threads whose estimated tile values per thread leave room
// asks ptxas for as many blocks per SM as keep at least twice the estimate, and 24 more, per thread;
// where none can, or the block is small, or the target is HIP, nothing is asked.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
#include <tilec/tl.hpp>

// SwiGLU over a bf16 row, 16 warps, 32 elements per thread: the loaded a and b (16 registers each;
// the float values computed from them are fused where used) fit half of 64.
// CHECK-LABEL: namespace swiglu_16384_16 {
// CHECK: // registers: about 32 per thread hold tile values at the peak (tilec's estimate; ptxas -v tells the
// CHECK-NEXT: // real count); 2 blocks of 512 threads per SM leave each thread 64 registers: at least twice the
// CHECK-NEXT: // estimate, and 24 more than it
// CHECK-NEXT: constexpr int MIN_BLOCKS_PER_SM = 2;  // blocks per SM __launch_bounds__ asks for
// CHECK: __global__ void __launch_bounds__(NUM_THREADS, MIN_BLOCKS_PER_SM) swiglu(
// fp32 rows of 4096 on 16 warps: 8 loaded floats of each input, 16 registers; three blocks of
// 512 threads leave 40 registers a thread (four would leave 32, under 16 + 24).
// CHECK-LABEL: namespace wide_4096_16 {
// CHECK: constexpr int MIN_BLOCKS_PER_SM = 3;
// CHECK: __global__ void __launch_bounds__(NUM_THREADS, MIN_BLOCKS_PER_SM) wide(
// The same at 4 warps: one block of 128 threads never limits an SM to one block's warps.
// CHECK-LABEL: namespace swiglu_16384_4 {
// CHECK-NOT: MIN_BLOCKS_PER_SM
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) swiglu(
// fp32 rows of 32768 on 16 warps: 64 floats per thread of each input, 128 registers: too many.
// CHECK-LABEL: namespace wide_32768_16 {
// CHECK-NOT: MIN_BLOCKS_PER_SM
// CHECK: __global__ void __launch_bounds__(NUM_THREADS) wide(
// HIP's second __launch_bounds__ argument means something else (warps per execution unit).
// HIP-NOT: MIN_BLOCKS_PER_SM
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void swiglu(const tl::bfloat16 *a, const tl::bfloat16 *b, tl::bfloat16 *c, int rows, int n) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto x = tl::cast<float>(tl::load(a + row * n + cols, mask, 0.0f));
  auto y = tl::load(b + row * n + cols, mask, 0.0f);
  tl::store(c + row * n + cols, tl::cast<tl::bfloat16>(x * tl::sigmoid(x)) * y, mask);
}

template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (rows))
void wide(const float *a, const float *b, float *c, int rows, int n) {
  int64_t row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto x = tl::load(a + row * n + cols, mask, 0.0f);
  auto y = tl::load(b + row * n + cols, mask, 0.0f);
  tl::store(c + row * n + cols, x * y, mask);
}

template void swiglu<16384, 16>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *, int, int);
template void wide<4096, 16>(const float *, const float *, float *, int, int);
template void swiglu<16384, 4>(const tl::bfloat16 *, const tl::bfloat16 *, tl::bfloat16 *, int, int);
template void wide<32768, 16>(const float *, const float *, float *, int, int);

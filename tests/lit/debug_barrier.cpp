// tl::debug_barrier() (Triton's tl.debug_barrier): a barrier of the program's threads where the
// kernel writes it, kept by insert-barriers even where it orders nothing (`barrier debug` in the
// IR), in loops and branches too; `__syncthreads()` in the CUDA and HIP output, under its source
// line. The CPU reference does nothing.
// RUN: %tilec --emit=ir --stop-after=insert-barriers %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
// RUN: %tilec --target=hip %s -o - | %FileCheck %s --check-prefix=HIP
#include <tilec/tl.hpp>

// CHECK-LABEL: kernel @scaled<256>
// CHECK: barrier debug
// CHECK-NEXT: decl %offs
// CHECK-NEXT: decl %v: {{.*}} = load(
// CHECK: for %i =
// CHECK-NEXT: barrier debug
// CHECK: if gt(
// CHECK-NEXT: barrier debug
// CHECK-NOT: barrier
// CHECK: store(
// CUDA-LABEL: namespace scaled_256 {
// CUDA: // {{.*}}debug_barrier.cpp:[[@LINE+17]]: tl::debug_barrier();
// CUDA-NEXT: __syncthreads();
// CUDA: // {{.*}}debug_barrier.cpp:[[@LINE+18]]: tl::debug_barrier();
// CUDA-NEXT: __syncthreads();
// CUDA: // {{.*}}debug_barrier.cpp:[[@LINE+20]]: tl::debug_barrier();
// CUDA-NEXT: __syncthreads();
// HIP-LABEL: namespace scaled_256 {
// HIP: // {{.*}}debug_barrier.cpp:[[@LINE+10]]: tl::debug_barrier();
// HIP-NEXT: __syncthreads();
// HIP: // {{.*}}debug_barrier.cpp:[[@LINE+11]]: tl::debug_barrier();
// HIP-NEXT: __syncthreads();
// HIP: // {{.*}}debug_barrier.cpp:[[@LINE+13]]: tl::debug_barrier();
// HIP-NEXT: __syncthreads();
template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void scaled(float *out, const float *x, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::debug_barrier();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  for (int i = 0; i < 2; ++i) {
    tl::debug_barrier();
    v = v * 2.0f;
  }
  if (n > 4)
    tl::debug_barrier();
  tl::store(out + offs, v, offs < n);
}
template void scaled<256>(float *, const float *, int);

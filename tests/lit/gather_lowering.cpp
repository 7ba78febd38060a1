// A gather stages its source in shared memory as a layout conversion does and reads it back at
// the indices, in the indices' layout; tl::flip is a gather at n - 1 - i.
// RUN: %tilec --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 2)
void reverse(const float *in, const int *perm, float *out) {
  auto offs = tl::arange<0, B>();
  auto x = tl::load(in + offs);
  tl::store(out + offs, tl::flip(x) + tl::gather<0>(x, tl::load(perm + offs)));
}
template void reverse<256>(const float *, const int *, float *);

// CHECK: shared 0 gather_x_smem: f32[256] row_stride=256
// CHECK: shared_write 0, %x
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %gather_x: tile<256xf32, #blocked0> = shared_read(0, gather axis=0 at sub(splat(255:i32)
// CHECK: shared_write 1, %x
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %gather_x.1: tile<256xf32, #blocked0> = shared_read(1, gather axis=0 at %perm_load)

// CUDA: gather_x[i] = gather_x_smem[(255 - L0::coord0(i)) & 255];
// CUDA: gather_x_1[i] = gather_x_smem_1[perm_load[i] & 255];

// Coalescing: a contiguous f32 pointer tile gets 4 elements per thread (one 16-byte access); the
// 64-wide HIP wavefront changes the lanes, not the vector width.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=CUDA
// RUN: %tilec --target=hip --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=HIP
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4)
void add(const float *x, const float *y, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
}
template void add<1024>(const float *, const float *, float *, int);

// CUDA: #blocked0 = #blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>
// CUDA: decl %offs: tile<1024xi32, #blocked0>
// CUDA: = load({{.*}}, mask=%mask) {vec=4, mask_at_last}
// CUDA: store({{.*}}, mask=%mask) {vec=4, mask_at_last}
// HIP: warp_size=64
// HIP: #blocked0 = #blocked<spt=[4], tpw=[64], wpb=[4], order=[0]>
// HIP: store({{.*}}, mask=%mask) {vec=4, mask_at_last}

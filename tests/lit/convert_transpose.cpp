// The transpose loads along dim 1 and stores along dim 0: layout assignment converts the loaded tile
// (and rematerializes the cheap index tiles in the store's layout), the conversion goes through
// shared memory padded by one element per row, and allocation places it at offset 0.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s --check-prefix=LAYOUT
// RUN: %tilec --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s --check-prefix=LOWER
// RUN: %tilec --emit=ir --stop-after=allocate-shared %s -o - | %FileCheck %s --check-prefix=ALLOC
#include <tilec/tl.hpp>

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4)
void transpose(const float *in, float *out, int M, int N) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto t = tl::load(in + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), mask);
  tl::store(out + tl::expand_dims<0>(rn) * M + tl::expand_dims<1>(rm), t, mask);
}
template void transpose<64, 64>(const float *, float *, int, int);

// LAYOUT: #blocked0 = #blocked<spt=[1,4], tpw=[2,16], wpb=[4,1], order=[1,0]>
// LAYOUT: #blocked1 = #blocked<spt=[4,1], tpw=[16,2], wpb=[1,4], order=[0,1]>
// LAYOUT: decl %rm_store: tile<64xi32, #slice<dim=1, #blocked1>>
// LAYOUT: decl %t: tile<64x64xf32, #blocked0> = load({{.*}}) {vec=4, mask_at_last}
// LAYOUT: store({{.*}}, convert_layout(%t) : tile<64x64xf32, #blocked1>, mask=%mask_store) {vec=4, mask_at_last}
// LOWER: shared 0 {{.*}}: f32[64x64] row_stride=65 bytes=16640
// LOWER: shared_write 0, %t
// LOWER-NEXT: barrier
// LOWER-NEXT: decl %{{.*}}: tile<64x64xf32, #blocked1> = shared_read(0)
// ALLOC: shared 0 {{.*}} offset=0
// ALLOC: shared_bytes = 16640

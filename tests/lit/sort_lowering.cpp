// tl::sort stages its operand in shared memory, sorts the rows in place with the block's threads
// (tilec::rt::sort_rows, a bitonic network) and reads them back; tl::topk reads each row's first K
// of a descending sort.
// RUN: %tilec --emit=ir --stop-after=lower-layout-conversions %s -o - | %FileCheck %s
// RUN: %tilec %s -o - | %FileCheck %s --check-prefix=CUDA
#include <tilec/tl.hpp>

TILEC_KERNEL(num_warps = 2)
void sorts(const float *in, float *out, float *top) {
  auto at = tl::expand_dims<1>(tl::arange<0, 8>()) * 64 + tl::expand_dims<0>(tl::arange<0, 64>());
  auto x = tl::load(in + at);
  tl::store(out + at, tl::sort(x));
  tl::store(top + tl::expand_dims<1>(tl::arange<0, 8>()) * 4 + tl::expand_dims<0>(tl::arange<0, 4>()),
            tl::topk<4>(x));
}

// CHECK: shared [[S:[0-9]+]] sorted_x_smem: f32[8x64] row_stride=64
// CHECK: shared [[T:[0-9]+]] topk_x_smem: f32[8x64] row_stride=64
// CHECK: shared_write_sort [[S]], %x
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %sorted_x: tile<8x64xf32, #{{.*}}> = shared_read([[S]])
// CHECK: shared_write_sort [[T]], %x descending
// CHECK-NEXT: barrier
// CHECK-NEXT: decl %topk_x: tile<8x4xf32, #{{.*}}> = shared_read([[T]], prefix)

// CUDA: __syncthreads();
// CUDA-NEXT: // each row of 64 sorted in place (a bitonic network over the block)
// CUDA-NEXT: tilec::rt::sort_rows<8, 64, false, NUM_THREADS>(sorted_x_smem);
// CUDA-NEXT: __syncthreads();
// CUDA: // each row of 64 sorted in place, descending (a bitonic network over the block)
// CUDA-NEXT: tilec::rt::sort_rows<8, 64, true, NUM_THREADS>(topk_x_smem);
// CUDA: topk_x[i][j] = topk_x_smem[L{{[0-9]+}}::coord0(i) * 64 + L{{[0-9]+}}::coord1(j)];

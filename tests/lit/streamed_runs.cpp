// Streamed runs (emitters/KernelEmitterStmt.cpp): where every element of every tile at once would
// take 40 registers or more (tilec's estimate), consecutive loads, element-wise tiles and stores of
// one layout are printed as one loop over vector-wide chunks. A barrier ends a run (here the one
// before a load of x + cols + 1 after a store to x + cols; without it, streamable() would end the
// run there: that load could see other chunks' stores). Below the threshold nothing is streamed.
// RUN: %tilec --no-aligned-variants %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

// 64 fp32 elements a thread of a and b: about 128 registers at once.
// CHECK-LABEL: namespace wide_2048 {
// CHECK: float a[L0::ELEMS];
// CHECK-NEXT: float b[L0::ELEMS];
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int i = 0; i < L0::ELEMS; i += A_VEC) {  // one vector of each access at a time (all at once: about 128 registers)
// CHECK: tilec::rt::load_vec<A_VEC, false>(&a[i],
// CHECK: tilec::rt::load_vec<B_VEC, false>(&b[i],
// CHECK: tilec::rt::store_vec<X_STORE_VEC, false>(x + cols[i],
// CHECK-NEXT: mask[i + X_STORE_VEC - 1]);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: // {{.*}}streamed_runs.cpp:[[#@LINE+13]]: auto c = tl::load(x + cols + 1, mask, 0.0f);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: float c[L0::ELEMS];
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int i = 0; i < L0::ELEMS; i += C_VEC) {
template <int BLOCK>
TILEC_KERNEL(num_warps = 1, grid = (1))
void wide(float *x, const float *y, int n) {
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto a = tl::load(x + cols, mask, 0.0f);
  auto b = tl::load(y + cols, mask, 0.0f);
  tl::store(x + cols, a + b, mask);
  auto c = tl::load(x + cols + 1, mask, 0.0f);
  tl::store(x + cols, c, mask);
}
template void wide<2048>(float *, const float *, int);

// 8 elements a thread: nothing streamed.
// CHECK-LABEL: namespace narrow_1024 {
// CHECK-NOT: one vector of each access at a time
// CHECK: } // namespace narrow_1024
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (1))
void narrow(float *x, const float *y, int n) {
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  tl::store(x + cols, tl::load(x + cols, mask, 0.0f) + tl::load(y + cols, mask, 0.0f), mask);
}
template void narrow<1024>(float *, const float *, int);

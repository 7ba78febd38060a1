// Streamed runs (emitters/KernelEmitterStmt.cpp): where every element of every tile at once would
// take 40 registers or more (tilec's estimate), consecutive loads, element-wise tiles and stores of
// one layout are printed as one loop over vector-wide chunks. A barrier ends a run (here the one
// before a load of x + cols + 1 after a store to x + cols; without it, streamable() would end the
// run there: that load could see other chunks' stores). Below the threshold nothing is streamed.
// A run whose chunk of one vector would load fewer than 32 bytes a thread takes several vectors a
// chunk (a named constant), as many as the thread's elements allow.
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

// One 16-byte load a chunk: two vectors a chunk. 64 fp32 elements a thread in 4-wide vectors.
// CHECK-LABEL: namespace one_load_2048 {
// CHECK: constexpr int V_CHUNK = 2 * V_VEC;  // streamed run: 2 vectors a chunk, 32 bytes of loads in flight
// CHECK: for (int i = 0; i < L0::ELEMS; i += V_CHUNK) {  // 2 vectors of each access at a time
// CHECK: auto v = tl::load(x + cols, cols < n, 0.0f);
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int k = 0; k < V_CHUNK; k += V_VEC) {
// CHECK: tilec::rt::load_vec<V_VEC, false>(&v[i + k], x + cols[i + k], bits, 0.0f,
// CHECK-NEXT: cols[i + k + V_VEC - 1] < n);
// CHECK: for (int k = 0; k < V_CHUNK; ++k) {
// CHECK-NEXT: acc[i + k] = acc[i + k] + v[i + k] * v[i + k];
template <int BLOCK>
TILEC_KERNEL(num_warps = 1, grid = (1))
void one_load(const float *x, float *out, int n) {
  auto acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto v = tl::load(x + cols, cols < n, 0.0f);
    acc += v * v;
  }
  tl::store(out, tl::sum(acc));
}
template void one_load<2048>(const float *, float *, int);

// Two loads a chunk (32 bytes): one vector a chunk, as in wide_2048.
// CHECK-LABEL: namespace two_loads_2048 {
// CHECK-NOT: _CHUNK
// CHECK: i += A_VEC) {  // one vector of each access at a time
// CHECK: } // namespace two_loads_2048
template <int BLOCK>
TILEC_KERNEL(num_warps = 1, grid = (1))
void two_loads(const float *x, const float *y, float *out, int n) {
  auto acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < n; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto a = tl::load(x + cols, cols < n, 0.0f);
    auto b = tl::load(y + cols, cols < n, 0.0f);
    acc += a * b;
  }
  tl::store(out, tl::sum(acc));
}
template void two_loads<2048>(const float *, const float *, float *, int);

// Masks whose vectors are true-then-false (`mask_at_last`: the emitter tests the last element's bit
// for the whole vector) and masks that are not. `i < n` with `i` rising by one qualifies, `&` and
// `|` of such masks and of masks constant along the vector keep it, a reversed comparison, a
// stepped index or an equality does not.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 1)
void masks(const float *x, float *out, int n, int lo) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + i, i < n);                       // qualifies
  auto b = tl::load(x + i, (i < n) & (lo < n));          // and with a constant: qualifies
  auto c = tl::load(x + i, n > i);                       // operands swapped: qualifies
  auto d = tl::load(x + i, i >= lo);                     // false-then-true: no
  auto e = tl::load(x + i, (i + i) < n);                 // steps by 2 (contiguity 1): no
  auto f = tl::load(x + i, i != n);                      // equality: no
  tl::store(out + i, a + b + c + d + e + f, (i < n) | (i < lo)); // or of two: qualifies
}
template void masks<512>(const float *, float *, int, int);

// A 2-D mask along the fast dim: the row bound is constant along each vector.
template <int BM, int BN>
TILEC_KERNEL(num_warps = 4)
void masks2(const float *x, float *out, int M, int N) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto m = (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N);
  auto t = tl::load(x + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), m);
  tl::store(out + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), t, m);
}
template void masks2<32, 64>(const float *, float *, int, int);

// CHECK-LABEL: kernel @masks<512>
// CHECK: decl %a: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %b: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %c: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %d: {{.*}} = load({{.*}}) {vec=4} :
// CHECK: decl %e: {{.*}} = load({{.*}}) {vec=4} :
// CHECK: decl %f: {{.*}} = load({{.*}}) {vec=4} :
// CHECK: store({{.*}}) {vec=4, mask_at_last}
// CHECK-LABEL: kernel @masks2<32, 64>
// CHECK: decl %t: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: store({{.*}}) {vec=4, mask_at_last}

// An index that may wrap around inside a vector (`base` is arbitrary: i + base can pass INT_MAX
// between two elements, making `j < n` false, then true): no. With `base` a multiple of the
// vector's length no vector can hold the wrap point: yes.
template <int BLOCK>
TILEC_KERNEL(num_warps = 1)
void wraps(const float *x, float *out, int n, int base) {
  auto i = tl::arange<0, BLOCK>();
  auto j = i + base;
  auto k = i + tl::multiple_of(base, 16);
  auto u = tl::load(x + i, j < n);
  auto w = tl::load(x + i, k < n);
  tl::store(out + i, u + w);
}
template void wraps<512>(const float *, float *, int, int);

// CHECK-LABEL: kernel @wraps<512>
// CHECK: decl %u: {{.*}} = load({{.*}}) {vec=4} :
// CHECK: decl %w: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :

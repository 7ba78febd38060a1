// Masks alike over each vector (`mask_all_or_none`: the emitter tests one bit per vector and makes
// an unmasked access or none). `i < bound` with `i` rising by one from a multiple of the vector
// and `bound` a multiple of it qualifies (Triton's rule); `<=` does not (i == bound is true at a
// run's start only), nor does a bound of unknown divisibility; `&` with a scalar keeps it.
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 1)
void masks(const float *x, float *out, int n, int lo) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(x + i, i < 4096);              // a multiple of 16: qualifies
  auto b = tl::load(x + i, i <= 4096);             // not strict: at the last only
  auto c = tl::load(x + i, i < n);                 // n unknown: at the last only
  auto d = tl::load(x + i, 4100 > i);              // swapped, a multiple of 4 (the vector): qualifies
  auto e = tl::load(x + i, i < 4098);              // a multiple of 2 only: at the last only
  auto f = tl::load(x + i, (i < 4096) & (lo < n)); // and with a scalar: qualifies
  tl::store(out + i, a + b + c + d + e + f, i < n * 16); // n * 16: qualifies
}
template void masks<512>(const float *, float *, int, int);

// CHECK-LABEL: kernel @masks<512>
// CHECK: decl %a: {{.*}} = load({{.*}}) {vec=4, mask_at_last, mask_all_or_none} :
// CHECK: decl %b: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %c: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %d: {{.*}} = load({{.*}}) {vec=4, mask_at_last, mask_all_or_none} :
// CHECK: decl %e: {{.*}} = load({{.*}}) {vec=4, mask_at_last} :
// CHECK: decl %f: {{.*}} = load({{.*}}) {vec=4, mask_at_last, mask_all_or_none} :
// CHECK: store({{.*}}) {vec=4, mask_at_last, mask_all_or_none}

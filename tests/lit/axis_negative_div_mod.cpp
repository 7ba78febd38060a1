// Division and remainder truncate toward zero: for d = -32 ... 31, `d % 8` is 0 -7 -6 ... -1 for
// d = -32 ... -25 (not contiguous) and `d / 8` is -4 -3 -3 ... (runs of 8 not constant), so the
// offsets `(d / 8) * 64 + d % 8` must not give vector accesses. With d = 0 ... 63 (known
// non-negative) they are runs of 8 consecutive offsets: vectors (2 elements per thread here).
// RUN: %tilec --emit=ir --stop-after=layout-assignment %s -o - | %FileCheck %s
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 1)
void relative(const float *x, float *out) {
  auto i = tl::arange<0, B>();
  auto d = i - B / 2;
  auto offs = (d / 8) * 64 + d % 8;
  tl::store(out + i, tl::load(x + 1024 + offs));
}
template void relative<64>(const float *, float *);

template <int B>
TILEC_KERNEL(num_warps = 1)
void absolute(const float *x, float *out) {
  auto i = tl::program_id(0) * B + tl::arange<0, B>();
  auto offs = (i / 8) * 64 + i % 8;
  tl::store(out + i, tl::load(x + offs));
}
template void absolute<64>(const float *, float *);

// CHECK-LABEL: kernel @relative<64>
// CHECK: decl %x_load: {{.*}} = load({{.*}}) {vec=1
// CHECK-LABEL: kernel @absolute<64>
// CHECK: decl %x_load: {{.*}} = load({{.*}}) {vec=2

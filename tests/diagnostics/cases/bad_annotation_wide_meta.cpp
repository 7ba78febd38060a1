// EXPECT: bad_annotation_wide_meta.cpp:7:37: error: invalid kernel setting 'U'; expected a meta-parameter whose value fits in int64_t
// EXPECT: bad_annotation_wide_meta.cpp:11:15: note: in instantiation 'k<18446744073709551615ULL>' requested here
// The launcher computes the grid in int or int64_t: an unsigned meta-parameter past INT64_MAX has no
// value there.
#include <tilec/tl.hpp>
template <unsigned long long U>
TILEC_KERNEL(num_warps = 1, grid = (U / 2))
void k(float *out) {
  tl::store(out + tl::arange<0, 32>(), tl::full<float, 32>(1.0f));
}
template void k<18446744073709551615ull>(float *);

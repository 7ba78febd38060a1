// EXPECT: emitted_name_taken.cpp:15:15: error: the generated code would declare 'k_16' (the namespace of 'k<16>'), which this source already declares; rename the kernel or the declaration
// EXPECT: emitted_name_taken.cpp:13:5: note: 'k_16' declared here
// The generated namespace of k<16> is k_16, which this file (the CPU reference, included beside the
// generated code by host programs) already declares.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
}

int k_16 = 0;

template void k<16>(float *);

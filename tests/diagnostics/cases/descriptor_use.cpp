// EXPECT: descriptor_use.cpp:17:12: error: 'pick(a_desc, b_desc, n)' is not a tensor descriptor the kernel made; a descriptor comes from tl::make_tensor_descriptor, may be copied and passed to the kernel's functions, and is used through its load and store
// A descriptor has no value in the kernel: a function may take one, but not choose and return one.
#include <tilec/tl.hpp>

template <class D> D pick(D a, D b, int n) {
  if (n > 0)
    return a;
  return b;
}

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *a, const float *b, float *out, int n) {
  auto a_desc = tl::make_tensor_descriptor<B>(a, {n}, {1});
  auto b_desc = tl::make_tensor_descriptor<B>(b, {n}, {1});
  int i = tl::program_id(0) * B;
  auto x = pick(a_desc, b_desc, n).load({i});
  tl::store(out + i + tl::arange<0, B>(), x, i + tl::arange<0, B>() < n);
}
template void k<32>(const float *, const float *, float *, int);

// EXPECT: descriptor_last_stride.cpp:11:78: error: the last stride of a tensor descriptor must be the constant 1 (its last dimension contiguous, as Triton requires); got 'stride_k'
// A tensor descriptor's blocks are rows of contiguous elements (what TMA copies): a column-major
// operand is described transposed, as Triton requires too.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(const float *x, float *out, int rows, int cols, int stride_r, int stride_k) {
  int r0 = tl::program_id(0) * B;
  auto out_desc = tl::make_tensor_descriptor<B, B>(out, {rows, cols}, {cols, 1});
  auto x_desc = tl::make_tensor_descriptor<B, B>(x, {rows, cols}, {stride_r, stride_k});
  out_desc.store({r0, 0}, x_desc.load({r0, 0}));
}
template void k<32>(const float *, float *, int, int, int, int);

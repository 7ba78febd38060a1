// EXPECT: output_name_hidden.cpp:15:7: error: 'fmaxf' declared in namespace 'ops::detail' would hide CUDA's or the runtime's 'fmaxf' from the generated code for 'ops::detail::relu<32>', which is declared there too; rename it, or move the kernel out of the namespace
// EXPECT: output_name_hidden.cpp:17:28: note: the generated code for 'ops::detail::relu<32>' is declared in namespace 'ops::detail' because the kernel is
// The output declares relu<32>'s instantiation and launcher in ops::detail, as the source declares
// the kernel, and names CUDA's math functions there without qualification: when host code compiles
// this source beside the output, ops::detail::fmaxf would be the one found.
#include <tilec/tl.hpp>

namespace ops::detail {
template <int B>
TILEC_KERNEL(num_warps = 1)
void relu(float *x) {
  auto offs = tl::arange<0, B>();
  tl::store(x + offs, tl::maximum(tl::load(x + offs), 0.0f));
}
float fmaxf(float a, float b);
} // namespace ops::detail
template void ops::detail::relu<32>(float *);

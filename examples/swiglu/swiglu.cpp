// SwiGLU activation: out = silu(a) * b = a * sigmoid(a) * b, fp16 in and out, fp32 math.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void swiglu_kernel(const tl::half *a, const tl::half *b, tl::half *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::cast<float>(tl::load(a + offs, mask));
  auto y = tl::cast<float>(tl::load(b + offs, mask));
  auto silu = x * tl::sigmoid(x);
  tl::store(out + offs, tl::cast<tl::half>(silu * y), mask);
}

template void swiglu_kernel<2048>(const tl::half *, const tl::half *, tl::half *, int);

// Per-row quantization with an absmax scale (the dynamic per-token quantization of vLLM's and
// FlagGems' int8 and fp8 kernels): each row of x is divided by its scale max|x| / QMAX and stored
// as Q, with the scale beside it, so that x ~ q * scale. int8 quotients are rounded to nearest,
// ties to even (QMAX 127); fp8 ones are rounded and saturated by the conversion itself (QMAX 448
// for e4m3, 57344 for e5m2). A row of zeros gets scale 0 and zeros.
#include <tilec/tl.hpp>

template <class T, class Q, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (rows))
void quantize_rows(const T *x, Q *q, float *scales, int rows, int n_cols, int stride) {
  constexpr float QMAX = std::is_same_v<Q, int8_t>            ? 127.0f
                         : std::is_same_v<Q, tl::float8_e4m3> ? 448.0f
                                                              : 57344.0f;
  auto row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto v = tl::cast<float>(tl::load(x + row * stride + cols, mask, 0.0f));
  float absmax = tl::max(tl::abs(v));
  float inverse = absmax > 0.0f ? QMAX / absmax : 0.0f;
  auto y = v * inverse;
  if constexpr (std::is_same_v<Q, int8_t>)
    tl::store(q + row * stride + cols, tl::rint(y), mask); // an integer: converts exactly
  else
    tl::store(q + row * stride + cols, y, mask); // rounds to nearest even and saturates
  tl::store(scales + row, absmax / QMAX);
}

template void quantize_rows<tl::half, int8_t, 1024>(const tl::half *, int8_t *, float *, int, int,
                                                    int);
template void quantize_rows<tl::bfloat16, tl::float8_e4m3, 1024>(const tl::bfloat16 *,
                                                                 tl::float8_e4m3 *, float *, int,
                                                                 int, int);
template void quantize_rows<float, tl::float8_e5m2, 256>(const float *, tl::float8_e5m2 *, float *,
                                                         int, int, int);

// Layer normalization forward pass, as in Triton's tutorial 05: fp16 in and out, fp32 statistics.
// One program per row; the row is walked in BLOCK-wide chunks three times (mean, variance, output).
// BLOCK >= N reads the row in one chunk a pass (Triton's choice up to 32768 fp16 columns); a smaller
// BLOCK loops, and NUM_STAGES = 2 then loads each chunk while the chunk before is computed (for
// rows of several chunks: it costs registers where a pass runs once).
#include <tilec/tl.hpp>

template <int BLOCK, int NUM_WARPS, int NUM_STAGES = 1>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES, grid = (M))
void layer_norm_fwd(const tl::half *X, tl::half *Y, const tl::half *W, const tl::half *B,
                    float *Mean, float *Rstd, int stride, int M, int N, float eps) {
  int row = tl::program_id(0);
  const tl::half *x_row = X + row * stride;
  tl::half *y_row = Y + row * stride;

  // Mean.
  auto sum_acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto a = tl::cast<float>(tl::load(x_row + cols, cols < N, 0.0f));
    sum_acc += a;
  }
  float mean = tl::sum(sum_acc) / N;

  // Variance.
  auto var_acc = tl::zeros<float, BLOCK>();
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto a = tl::cast<float>(tl::load(x_row + cols, cols < N, 0.0f));
    auto d = tl::where(cols < N, a - mean, 0.0f);
    var_acc += d * d;
  }
  float var = tl::sum(var_acc) / N;
  float rstd = 1.0f / tl::sqrt(var + eps);
  tl::store(Mean + row, mean);
  tl::store(Rstd + row, rstd);

  // Normalize and apply the affine transform.
  for (int off = 0; off < N; off += BLOCK) {
    auto cols = off + tl::arange<0, BLOCK>();
    auto mask = cols < N;
    auto w = tl::load(W + cols, mask);
    auto b = tl::load(B + cols, mask);
    auto a = tl::cast<float>(tl::load(x_row + cols, mask, 0.0f));
    auto y = (a - mean) * rstd * w + b;
    tl::store(y_row + cols, tl::cast<tl::half>(y), mask);
  }
}

template void layer_norm_fwd<1024, 8>(const tl::half *, tl::half *, const tl::half *, const tl::half *,
                                      float *, float *, int, int, int, float);
template void layer_norm_fwd<1024, 8, 2>(const tl::half *, tl::half *, const tl::half *, const tl::half *,
                                         float *, float *, int, int, int, float);

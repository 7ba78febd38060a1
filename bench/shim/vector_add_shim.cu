#include "common.h"
#include "vector_add.cu"

#include <algorithm>
#include <chrono>
#include <vector>

TILEC_BENCH_EXPORT int tilec_vector_add(void *stream, const float *x, const float *y, float *out,
                                        int n) {
  return launch_add_kernel_1024(bench_stream(stream), x, y, out, n);
}

// Host cost of one call of tilec's launcher (microseconds): `iters` launches in batches of `batch`
// timed on the host clock, the stream synchronized between batches (outside the timed region) so the
// launch queue never fills and blocks. Returns the median batch's time per launch, or a negative
// CUDA error code.
TILEC_BENCH_EXPORT double tilec_launch_cost_us(void *stream, const float *x, const float *y,
                                               float *out, int n, int batches, int batch) {
  cudaStream_t s = bench_stream(stream);
  std::vector<double> per_launch;
  for (int b = 0; b < batches; ++b) {
    if (cudaError_t e = cudaStreamSynchronize(s); e != cudaSuccess)
      return -static_cast<double>(e);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i)
      if (cudaError_t e = launch_add_kernel_1024(s, x, y, out, n); e != cudaSuccess)
        return -static_cast<double>(e);
    const auto t1 = std::chrono::steady_clock::now();
    per_launch.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
  }
  if (cudaError_t e = cudaStreamSynchronize(s); e != cudaSuccess)
    return -static_cast<double>(e);
  std::sort(per_launch.begin(), per_launch.end());
  return per_launch[per_launch.size() / 2];
}

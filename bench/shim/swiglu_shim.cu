#include "common.h"
#include "swiglu.cu"

TILEC_BENCH_EXPORT int tilec_swiglu(void *stream, const __half *a, const __half *b, __half *out,
                                    int n) {
  return launch_swiglu_kernel_2048(bench_stream(stream), a, b, out, n);
}

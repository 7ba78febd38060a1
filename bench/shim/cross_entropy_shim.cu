#include "common.h"
#include "cross_entropy.cu"

// Cross-entropy loss and gradient in place, bf16 logits, at Liger-Kernel's launch: BLOCK =
// min(32768, next_pow2(V)) on 32 warps (bench/kernels.txt).
TILEC_BENCH_EXPORT int tilec_cross_entropy_bf16(void *stream, int block, __nv_bfloat16 *logits, int64_t stride,
                                                const int64_t *target, float *loss, int rows, int vocab) {
  cudaStream_t s = bench_stream(stream);
  if (block == 32768)
    return launch_cross_entropy_fwd_bf16_32768_32(s, logits, stride, target, loss, rows, vocab);
  return TILEC_BENCH_NOT_GENERATED;
}

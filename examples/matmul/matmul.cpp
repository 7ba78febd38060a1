// Matrix multiplication C = A x B, as in Triton's tutorial 03: fp16 inputs, an fp32 accumulator,
// fp16 output. Each program computes one BLOCK_M x BLOCK_N tile of C, walking K in BLOCK_K-wide
// steps with tl::dot. Programs are numbered in groups of GROUP_M rows of tiles ("grouped
// ordering"): consecutive programs share the same columns of B and a few rows of A, so the blocks
// running at once reuse more of what is in the L2 cache than a row-major order would. Any strides:
// a column-major B is stride_bk = 1. RELU fuses an activation into the epilogue, on the fp32
// accumulator before the rounding to fp16 (the tutorial's leaky_relu, here a plain ReLU), chosen
// at compile time. NUM_STAGES is Triton's num_stages: on CUDA sm_80 and later the K loop keeps
// NUM_STAGES - 1 steps of A and B tiles in flight, copied straight into a ring of shared buffers
// (cp.async) while the tensor cores work on the current one (tilec's pass pipeline-dots).
#include <tilec/tl.hpp>

// A helper of the kernel's own, as the tutorial's @triton.jit leaky_relu: max(x, 0), keeping NaN.
template <class T> auto relu(const T &x) { return tl::where(x < 0.0f, 0.0f, x); }

template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, int NUM_WARPS, int NUM_STAGES,
          bool RELU>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES,
             grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)))
void matmul_kernel(const tl::half *a, const tl::half *b, tl::half *c, int M, int N, int K,
                   int stride_am, int stride_ak, int stride_bk, int stride_bn, int stride_cm,
                   int stride_cn) {
  // Program id -> the tile of C it computes, in groups of GROUP_M rows of tiles, column by column
  // within a group.
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M); // the last group may be short
  int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  // Pointers to the first [BLOCK_M, BLOCK_K] tile of A and [BLOCK_K, BLOCK_N] tile of B. Triton's
  // tutorial wraps rows of A and columns of B past the matrix around (% M, % N); here they are
  // masked instead: tilec's axis analysis cannot prove wrapped offsets contiguous (the remainder
  // of a value it cannot prove non-negative), and the loads of B would not be vectorized.
  auto offs_am = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_bn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto offs_k = tl::arange<0, BLOCK_K>();
  auto a_ptrs =
      a + (tl::expand_dims<1>(offs_am) * stride_am + tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs =
      b + (tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn) * stride_bn);

  // Sum over K in fp32; masked-off elements load as 0, which adds nothing.
  auto accumulator = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_K); ++k) {
    auto a_tile = tl::load(
        a_ptrs, (tl::expand_dims<1>(offs_am) < M) & (tl::expand_dims<0>(offs_k) < K - k * BLOCK_K),
        0.0f);
    auto b_tile = tl::load(
        b_ptrs, (tl::expand_dims<1>(offs_k) < K - k * BLOCK_K) & (tl::expand_dims<0>(offs_bn) < N),
        0.0f);
    accumulator = tl::dot(a_tile, b_tile, accumulator);
    a_ptrs += BLOCK_K * stride_ak;
    b_ptrs += BLOCK_K * stride_bk;
  }
  if constexpr (RELU)
    accumulator = relu(accumulator);
  auto c_tile = tl::cast<tl::half>(accumulator);

  // Store the tile of C, masked to the matrix.
  auto c_ptrs =
      c + stride_cm * tl::expand_dims<1>(offs_am) + stride_cn * tl::expand_dims<0>(offs_bn);
  auto c_mask = (tl::expand_dims<1>(offs_am) < M) & (tl::expand_dims<0>(offs_bn) < N);
  tl::store(c_ptrs, c_tile, c_mask);
}

template void matmul_kernel<64, 64, 32, 8, 4, 3, false>(const tl::half *, const tl::half *,
                                                        tl::half *, int, int, int, int, int, int,
                                                        int, int, int);
template void matmul_kernel<64, 64, 32, 8, 4, 3, true>(const tl::half *, const tl::half *,
                                                       tl::half *, int, int, int, int, int, int,
                                                       int, int, int);
// A wide block on 8 warps: each warp holds 128 of the fp32 accumulator's elements, where on sm_90a
// tilec gives the kernel's aligned variant a producer warpgroup for its TMA copies and makes it
// persistent (docs/language.md, "warp_specialize").
template void matmul_kernel<128, 256, 32, 8, 8, 4, false>(const tl::half *, const tl::half *,
                                                          tl::half *, int, int, int, int, int, int,
                                                          int, int, int);

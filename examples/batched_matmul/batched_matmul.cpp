// Batched matrix multiplication C[b] = A[b] x B[b] for b = 0 .. BATCH - 1: fp16 inputs, an fp32
// accumulator, fp16 output. The kernel is examples/matmul's (Triton's tutorial 03) with a second
// grid axis: tl::program_id(1) is the batch index, and each pointer first moves to its matrix of
// the batch by its batch stride (stride_ab, stride_bb, stride_cb: elements from one matrix to the
// next, at least one matrix, more where the matrices are padded apart). Along axis 0 each program
// computes one BLOCK_M x BLOCK_N tile of its C[b], walking K in BLOCK_K-wide steps with tl::dot,
// in the grouped ordering of examples/matmul within the batch's matrix. Any strides: a column-major
// B is stride_bk = 1. NUM_STAGES is Triton's num_stages: on CUDA sm_80 and later the K loop keeps
// NUM_STAGES - 1 steps of A and B tiles in flight through a ring of shared buffers (cp.async).
#include <tilec/tl.hpp>

template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, int NUM_WARPS, int NUM_STAGES>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES,
             grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), BATCH))
void batched_matmul_kernel(const tl::half *a, const tl::half *b, tl::half *c,
                           [[maybe_unused]] int BATCH, int M, int N, int K, int stride_ab,
                           int stride_am, int stride_ak, int stride_bb, int stride_bk,
                           int stride_bn, int stride_cb, int stride_cm, int stride_cn) {
  // Axis 1: the matrix of the batch. Axis 0: the tile of C[pid_b] this program computes, in groups
  // of GROUP_M rows of tiles, column by column within a group (as examples/matmul).
  int pid_b = tl::program_id(1);
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int num_pid_in_group = GROUP_M * num_pid_n;
  int group_id = pid / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M); // the last group may be short
  int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  int pid_n = (pid % num_pid_in_group) / group_size_m;

  // The batch's matrices A[pid_b], B[pid_b] and C[pid_b].
  const tl::half *a_batch = a + pid_b * stride_ab;
  const tl::half *b_batch = b + pid_b * stride_bb;
  tl::half *c_batch = c + pid_b * stride_cb;

  // Pointers to the first [BLOCK_M, BLOCK_K] tile of A[pid_b] and [BLOCK_K, BLOCK_N] tile of
  // B[pid_b]; rows of A and columns of B past the matrix are masked (examples/matmul says why).
  auto offs_am = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto offs_bn = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto offs_k = tl::arange<0, BLOCK_K>();
  auto a_ptrs =
      a_batch + (tl::expand_dims<1>(offs_am) * stride_am + tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs =
      b_batch + (tl::expand_dims<1>(offs_k) * stride_bk + tl::expand_dims<0>(offs_bn) * stride_bn);

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
  auto c_tile = tl::cast<tl::half>(accumulator);

  // Store the tile of C[pid_b], masked to the matrix.
  auto c_ptrs =
      c_batch + stride_cm * tl::expand_dims<1>(offs_am) + stride_cn * tl::expand_dims<0>(offs_bn);
  auto c_mask = (tl::expand_dims<1>(offs_am) < M) & (tl::expand_dims<0>(offs_bn) < N);
  tl::store(c_ptrs, c_tile, c_mask);
}

template void batched_matmul_kernel<64, 64, 32, 8, 4, 3>(const tl::half *, const tl::half *,
                                                         tl::half *, int, int, int, int, int, int,
                                                         int, int, int, int, int, int, int);

// Matrix multiplication C = A x B^T through tensor descriptors, as the descriptor kernels of
// Triton's tutorial 09 (persistent matmul): A is M x K, B is given as N x K (the tutorial's
// `b.T.contiguous()`: K contiguous in both operands) and C is M x N, each row-major with a row
// stride of its own; fp16 or bf16 (T) inputs and output, an fp32 accumulator. A descriptor loads a
// block at element offsets and fills zeros outside the tensor, so the kernel writes no masks; its
// store writes the block's elements inside the tensor only. On sm_90a the loads of the K loop
// become TMA copies, and, in the first kernel, tilec gives them a producer warpgroup and makes the
// kernel persistent itself (docs/language.md, "Tensor descriptors" and "warp_specialize").
#include <tilec/tl.hpp>

#include <utility>

// Program (or tile) number -> the tile of C it computes, in groups of GROUP_M rows of tiles,
// column by column within a group (the tutorial's _compute_pid).
template <int GROUP_M>
std::pair<int, int> compute_pid(int tile_id, int num_pid_in_group, int num_pid_m) {
  int group_id = tile_id / num_pid_in_group;
  int first_pid_m = group_id * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int pid_m = first_pid_m + (tile_id % group_size_m);
  int pid_n = (tile_id % num_pid_in_group) / group_size_m;
  return {pid_m, pid_n};
}

// One program per tile of C.
template <class T, int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, int NUM_WARPS,
          int NUM_STAGES>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES,
             grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)))
void matmul_descriptor_kernel(const T *a, const T *b, T *c, int M, int N, int K, int stride_am,
                              int stride_bn, int stride_cm) {
  auto a_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, 1});
  auto b_desc = tl::make_tensor_descriptor<BLOCK_N, BLOCK_K>(b, {N, K}, {stride_bn, 1});
  auto c_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(c, {M, N}, {stride_cm, 1});

  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  auto [pid_m, pid_n] = compute_pid<GROUP_M>(tl::program_id(0), GROUP_M * num_pid_n, num_pid_m);
  int offs_am = pid_m * BLOCK_M;
  int offs_bn = pid_n * BLOCK_N;

  auto accumulator = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < K; k += BLOCK_K) {
    auto a_block = a_desc.load({offs_am, k});
    auto b_block = b_desc.load({offs_bn, k});
    accumulator = tl::dot(a_block, tl::trans(b_block), accumulator);
  }
  auto c_block = tl::cast<T>(accumulator);
  c_desc.store({offs_am, offs_bn}, c_block);
}

// The tutorial's persistent form, written out: num_sms programs (the host launches
// min(num_sms, tiles) of them; the kernel has no grid of its own), each walking the tiles
// num_sms apart. The K loop is nested in the tile loop, so it gets the TMA ring but no producer
// warpgroup.
template <class T, int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, int NUM_WARPS,
          int NUM_STAGES>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES)
void matmul_descriptor_persistent(const T *a, const T *b, T *c, int M, int N, int K, int stride_am,
                                  int stride_bn, int stride_cm, int num_sms) {
  auto a_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, 1});
  auto b_desc = tl::make_tensor_descriptor<BLOCK_N, BLOCK_K>(b, {N, K}, {stride_bn, 1});
  auto c_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(c, {M, N}, {stride_cm, 1});

  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  int k_tiles = tl::cdiv(K, BLOCK_K);
  int num_tiles = num_pid_m * num_pid_n;
  for (int tile_id = tl::program_id(0); tile_id < num_tiles; tile_id += num_sms) {
    auto [pid_m, pid_n] = compute_pid<GROUP_M>(tile_id, GROUP_M * num_pid_n, num_pid_m);
    int offs_am = pid_m * BLOCK_M;
    int offs_bn = pid_n * BLOCK_N;
    auto accumulator = tl::zeros<float, BLOCK_M, BLOCK_N>();
    for (int ki = 0; ki < k_tiles; ++ki) {
      int offs_k = ki * BLOCK_K;
      auto a_block = a_desc.load({offs_am, offs_k});
      auto b_block = b_desc.load({offs_bn, offs_k});
      accumulator = tl::dot(a_block, tl::trans(b_block), accumulator);
    }
    auto c_block = tl::cast<T>(accumulator);
    c_desc.store({offs_am, offs_bn}, c_block);
  }
}

#define TILEC_MATMUL_DESCRIPTOR_ARGS(T) const T *, const T *, T *, int, int, int, int, int, int
template void
    matmul_descriptor_kernel<tl::half, 64, 64, 32, 8, 4, 3>(TILEC_MATMUL_DESCRIPTOR_ARGS(tl::half));
template void matmul_descriptor_kernel<tl::bfloat16, 64, 64, 32, 8, 4, 3>(
    TILEC_MATMUL_DESCRIPTOR_ARGS(tl::bfloat16));
// A wide block on 8 warps: a producer warpgroup and a persistent grid on sm_90a (bench/kernels.txt
// adds tutorial 09's best configuration on the H100, 128x256x64 on 3 stages, which needs more
// shared memory than gfx90a has)
template void matmul_descriptor_kernel<tl::half, 128, 256, 32, 8, 8, 4>(
    TILEC_MATMUL_DESCRIPTOR_ARGS(tl::half));
template void matmul_descriptor_persistent<tl::half, 128, 128, 32, 8, 8, 3>(
    TILEC_MATMUL_DESCRIPTOR_ARGS(tl::half), int);
#undef TILEC_MATMUL_DESCRIPTOR_ARGS

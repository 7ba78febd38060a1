// A linear layer with its bias and GELU fused into the matmul's epilogue, as a transformer's MLP
// runs it: out = gelu(x @ weight^T + bias), with x M x K, weight N x K (PyTorch's nn.Linear layout:
// out_features x in_features), bias N and out M x N, each row-major with a row stride of its own;
// fp16 or bf16 (T) values, an fp32 accumulator. GELU is the exact one (PyTorch's F.gelu default):
// 0.5 x (1 + erf(x / sqrt(2))), in fp32 on the accumulator before the rounding to T. The operands
// are read through tensor descriptors (Triton's tl.make_tensor_descriptor), so the kernel writes no
// masks; on sm_90a the K loop's loads are TMA copies (docs/language.md, "Tensor descriptors").
#include <tilec/tl.hpp>

/// GELU: 0.5 x (1 + erf(x / sqrt(2))).
template <class V> V gelu(const V &v) { return 0.5f * v * (1.0f + tl::erf(v * 0.70710678f)); }

template <class T, int BLOCK_M, int BLOCK_N, int BLOCK_K, int GROUP_M, int NUM_WARPS,
          int NUM_STAGES>
TILEC_KERNEL(num_warps = NUM_WARPS, num_stages = NUM_STAGES,
             grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)))
void linear_gelu(const T *x, const T *weight, const T *bias, T *out, int M, int N, int K,
                 int stride_xm, int stride_wn, int stride_om) {
  auto x_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(x, {M, K}, {stride_xm, 1});
  auto w_desc = tl::make_tensor_descriptor<BLOCK_N, BLOCK_K>(weight, {N, K}, {stride_wn, 1});
  auto bias_desc = tl::make_tensor_descriptor<BLOCK_N>(bias, {N}, {1});
  auto out_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(out, {M, N}, {stride_om, 1});

  // Programs in groups of GROUP_M rows of tiles (tutorial 03's order), column by column.
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_in_group = GROUP_M * tl::cdiv(N, BLOCK_N);
  int first_pid_m = pid / num_pid_in_group * GROUP_M;
  int group_size_m = tl::minimum(num_pid_m - first_pid_m, GROUP_M);
  int offs_m = (first_pid_m + pid % num_pid_in_group % group_size_m) * BLOCK_M;
  int offs_n = (pid % num_pid_in_group / group_size_m) * BLOCK_N;

  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < K; k += BLOCK_K) {
    auto x_block = x_desc.load({offs_m, k});
    auto w_block = w_desc.load({offs_n, k});
    acc = tl::dot(x_block, tl::trans(w_block), acc);
  }

  // The epilogue: bias along the columns, GELU, then the rounding to T.
  auto b = tl::cast<float>(bias_desc.load({offs_n}));
  auto y = tl::cast<T>(gelu(acc + tl::expand_dims<0>(b)));
  out_desc.store({offs_m, offs_n}, y);
}

#define TILEC_LINEAR_GELU_ARGS(T) const T *, const T *, const T *, T *, int, int, int, int, int, int
template void linear_gelu<tl::half, 64, 64, 32, 8, 4, 3>(TILEC_LINEAR_GELU_ARGS(tl::half));
template void linear_gelu<tl::bfloat16, 64, 64, 32, 8, 4, 3>(TILEC_LINEAR_GELU_ARGS(tl::bfloat16));
// A wide block on 8 warps: a producer warpgroup and a persistent grid on sm_90a.
template void linear_gelu<tl::half, 128, 256, 32, 8, 8, 4>(TILEC_LINEAR_GELU_ARGS(tl::half));
#undef TILEC_LINEAR_GELU_ARGS

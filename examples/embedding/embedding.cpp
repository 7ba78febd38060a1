// Embedding lookup, Liger-Kernel's embedding_forward_kernel and embedding_backward_kernel
// (src/liger_kernel/ops/experimental/embedding.py) line for line: indices loaded from memory, then
// used as row offsets into the table. A 2-D grid, row blocks (BLOCK_SIZE_M tokens) x column blocks
// (BLOCK_SIZE_N of the embedding's columns), as Liger's LigerEmbeddingFunction launches it
// (BLOCK_SIZE_M = BLOCK_SIZE_N = next_pow2(min(128, embedding_dim)), Triton's default 4 warps).
//  - forward: output[m, :] = embeddings[indices[m], :], a gather of rows (any element type);
//  - backward: grad_weight[indices[m], :] += grad_output[m, :], one tl::atomic_add per element, so
//    tokens with the same index collide on the same addresses (grad_weight holds what the caller
//    accumulated so far: Liger's backward zeroes it first).
// Liger declares embedding_dim a tl.constexpr; here it is a runtime argument, as the ports of
// bench/production/liger.cpp take Liger's constexpr widths: Triton specializes on its value,
// tilec's launcher runs the aligned variant where it is a multiple of 16, which is what the 16-byte
// vector accesses need. The offsets are int32 where Liger's are (offsets_m * embedding_dim) and
// int64 where an int64 index takes part (indices * embedding_dim), as Triton types them.
#include <tilec/tl.hpp>

#include <cstdint>

template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N>
TILEC_KERNEL(num_warps = 4,
             grid = (cdiv(n_elements, BLOCK_SIZE_M), cdiv(embedding_dim, BLOCK_SIZE_N)))
void embedding_forward_kernel(const T *embeddings_ptr, const int64_t *indices_ptr, T *output_ptr,
                              int n_elements, int embedding_dim) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);

  int start_m = pid_m * BLOCK_SIZE_M;
  int start_n = pid_n * BLOCK_SIZE_N;
  auto offsets_m = start_m + tl::arange<0, BLOCK_SIZE_M>();
  auto mask_m = offsets_m < n_elements;
  auto indices = tl::load(indices_ptr + offsets_m, mask_m, 0);
  auto offsets_n = start_n + tl::arange<0, BLOCK_SIZE_N>();
  auto mask_n = offsets_n < embedding_dim;

  // indices[:, None] * embedding_dim + offsets_n[None, :]
  auto embedding_offsets =
      tl::expand_dims<1>(indices) * embedding_dim + tl::expand_dims<0>(offsets_n);
  auto embeddings = tl::load(embeddings_ptr + embedding_offsets,
                             tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n), 0.0f);

  auto output_offsets =
      tl::expand_dims<1>(offsets_m) * embedding_dim + tl::expand_dims<0>(offsets_n);
  tl::store(output_ptr + output_offsets, embeddings,
            tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n));
}

// Liger's kernel adds into a grad_weight of the table's type. The example instantiates the backward
// for float (bench/production/liger.cpp runs it in bf16 too: atomic_add takes fp16 and bf16).
template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N>
TILEC_KERNEL(num_warps = 4,
             grid = (cdiv(n_elements, BLOCK_SIZE_M), cdiv(embedding_dim, BLOCK_SIZE_N)))
void embedding_backward_kernel(const T *grad_output_ptr, T *grad_weight_ptr,
                               const int64_t *indices_ptr, int n_elements, int embedding_dim) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);

  int start_m = pid_m * BLOCK_SIZE_M;
  int start_n = pid_n * BLOCK_SIZE_N;
  auto offsets_m = start_m + tl::arange<0, BLOCK_SIZE_M>();
  auto mask_m = offsets_m < n_elements;
  auto indices = tl::load(indices_ptr + offsets_m, mask_m, 0);
  auto offsets_n = start_n + tl::arange<0, BLOCK_SIZE_N>();
  auto mask_n = offsets_n < embedding_dim;

  auto grad_output = tl::load(grad_output_ptr + tl::expand_dims<1>(offsets_m) * embedding_dim +
                                  tl::expand_dims<0>(offsets_n),
                              tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n), 0.0f);

  auto grad_weight_offsets =
      tl::expand_dims<1>(indices) * embedding_dim + tl::expand_dims<0>(offsets_n);

  tl::atomic_add(grad_weight_ptr + grad_weight_offsets, grad_output,
                 tl::expand_dims<1>(mask_m) & tl::expand_dims<0>(mask_n));
}

// Liger's blocks: 128 x 128 for tables of 128 columns or more, next_pow2(embedding_dim) below.
template void embedding_forward_kernel<float, 128, 128>(const float *, const int64_t *, float *,
                                                        int, int);
template void embedding_forward_kernel<tl::bfloat16, 128, 128>(const tl::bfloat16 *,
                                                               const int64_t *, tl::bfloat16 *, int,
                                                               int);
template void embedding_forward_kernel<tl::bfloat16, 32, 32>(const tl::bfloat16 *, const int64_t *,
                                                             tl::bfloat16 *, int, int);
template void embedding_backward_kernel<float, 128, 128>(const float *, float *, const int64_t *,
                                                         int, int);
template void embedding_backward_kernel<float, 32, 32>(const float *, float *, const int64_t *, int,
                                                       int);

// Cache hints on loads and stores (tl::load_options, tl::store_options: Triton's cache_modifier,
// eviction_policy and volatile). They change no value: every result must equal the same kernel's
// without hints. Each hint goes through each path of the output: vector accesses of 1, 2, 8 and 16
// bytes (int8, half pairs, int64, float), element by element (a gather through loaded indices),
// scalars, and a loop whose loads the prefetch-loads pass moves an iteration ahead.
#include <tilec/tl.hpp>

// out = x + y, out2 = x - y: each operand and result with hints of its own.
template <int BLOCK, class T>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void hinted_add(const T *x, const T *y, T *out, T *out2, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask, 0, {.cache_modifier = tl::cache::cg});
  auto b = tl::load(y + offs, mask, {.eviction_policy = tl::evict_first});
  tl::store(out + offs, a + b, mask, {.cache_modifier = tl::cache::cs});
  tl::store(out2 + offs, a - b, mask, {.eviction_policy = tl::evict_last});
}

// out[i] = x[index[i]] * scale: indices read with a cache operator and an eviction policy, the
// gather element by element with .cv, the scale a volatile scalar; each block's sum stored as a
// scalar.
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, 128)))
void hinted_gather(const float *x, const int32_t *index, const float *scale, float *out,
                   float *sums, int n) {
  auto offs = tl::program_id(0) * 128 + tl::arange<0, 128>();
  auto mask = offs < n;
  auto i = tl::load(index + offs, mask, 0,
                    {.cache_modifier = tl::cache::ca, .eviction_policy = tl::evict_last});
  auto v = tl::load(x + i, mask, 0.0f, {.cache_modifier = tl::cache::cv});
  constexpr tl::load_options kVolatile{.is_volatile = true};
  auto s = tl::load(scale, kVolatile);
  tl::store(out + offs, v * s, mask, {.cache_modifier = tl::cache::wt});
  tl::store(sums + tl::program_id(0), tl::sum(v),
            {.cache_modifier = tl::cache::wb, .eviction_policy = tl::evict_first});
}

// Hints as a named constant, at namespace scope or in the kernel (constexpr).
constexpr tl::load_options kStreaming{.eviction_policy = tl::evict_first};

// Each row's sum, BLOCK columns at a time: the loop's loads, evict-first, are prefetched (two
// stages).
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, num_stages = 2, grid = (rows))
void hinted_row_sums(const float *x, float *sums, int rows, int n_cols) {
  auto cols = tl::arange<0, BLOCK>();
  float acc = 0.0f;
  for (int c = 0; c < n_cols; c += BLOCK) {
    auto v =
        tl::load(x + tl::program_id(0) * n_cols + c + cols, c + cols < n_cols, 0.0f, kStreaming);
    acc += tl::sum(v);
  }
  if (tl::program_id(0) < rows)
    tl::store(sums + tl::program_id(0), acc, {.cache_modifier = tl::cache::cg});
}

template void hinted_add<1024, float>(const float *, const float *, float *, float *, int);
template void hinted_add<2048, tl::half>(const tl::half *, const tl::half *, tl::half *, tl::half *,
                                         int);
template void hinted_add<2048, int8_t>(const int8_t *, const int8_t *, int8_t *, int8_t *, int);
template void hinted_add<512, int64_t>(const int64_t *, const int64_t *, int64_t *, int64_t *, int);
template void hinted_row_sums<512>(const float *, float *, int, int);

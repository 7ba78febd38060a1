// Triton's random numbers: tl::randint, rand and randn, and their 4x forms bound with structured
// bindings, for an int seed and for an int64 one (sign-extended to the uint64 key, as Triton's
// seed.to(tl.uint64)), at int32 offsets; and at int64 offsets.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void random_streams(uint32_t *bits, float *uniform, float *normal, int n, int seed) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(bits + offs, tl::randint(seed, offs), mask);
  tl::store(uniform + offs, tl::rand(seed, offs), mask);
  tl::store(normal + offs, tl::randn(seed, offs), mask);
}

// Four values per offset, interleaved: out[4 * offset + k] is output k.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void random_streams4x(uint32_t *bits, float *uniform, float *normal, int n, int64_t seed) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto at = offs * 4;
  auto [b0, b1, b2, b3] = tl::randint4x(seed, offs);
  tl::store(bits + at, b0, mask);
  tl::store(bits + at + 1, b1, mask);
  tl::store(bits + at + 2, b2, mask);
  tl::store(bits + at + 3, b3, mask);
  auto [u0, u1, u2, u3] = tl::rand4x(seed, offs);
  tl::store(uniform + at, u0, mask);
  tl::store(uniform + at + 1, u1, mask);
  tl::store(uniform + at + 2, u2, mask);
  tl::store(uniform + at + 3, u3, mask);
  auto [n0, n1, n2, n3] = tl::randn4x(seed, offs);
  tl::store(normal + at, n0, mask);
  tl::store(normal + at + 1, n1, mask);
  tl::store(normal + at + 2, n2, mask);
  tl::store(normal + at + 3, n3, mask);
}

// int64 offsets from `base` (past 2^32 and below 0): Triton's counter takes their low and high
// halves.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void random_streams64(uint32_t *bits, float *uniform, float *normal, int n, int64_t base,
                      int seed) {
  auto i = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = i < n;
  auto offs = base + tl::cast<int64_t>(i);
  tl::store(bits + i, tl::randint(seed, offs), mask);
  tl::store(uniform + i, tl::rand(seed, offs), mask);
  tl::store(normal + i, tl::randn(seed, offs), mask);
}

template void random_streams64<256>(uint32_t *, float *, float *, int, int64_t, int);
template void random_streams<256>(uint32_t *, float *, float *, int, int);
template void random_streams4x<128>(uint32_t *, float *, float *, int, int64_t);

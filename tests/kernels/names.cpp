// Names and constants that the generated code must get right (issue 18, items 1 and 2): one kernel
// name in two namespaces (a_k_64 and b_v1_k_64 in the output), overloads, a kernel whose instance name looks like another's (k<1, 64>
// beside k_1<64>), meta-parameters and parameters named like what the output itself uses, a static
// member kernel with a name outside ASCII, and meta-parameters of other integer types than int
// (unsigned, long, short, bool, an enumeration) at values int cannot hold. tests/gpu/names.cu runs every instantiation against the
// CPU reference of this file, included beside the generated code.
#include <tilec/tl.hpp>

namespace a {
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void k(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) * 2.0f, offs < n);
}
} // namespace a

namespace b {
inline namespace v1 {
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void k(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) + 1.0f, offs < n);
}
} // namespace v1
} // namespace b

// Overloads: the instance names carry the parameter types.
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void twice(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) * 2.0f, offs < n);
}
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void twice(const int32_t *x, int32_t *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) * 2, offs < n);
}

// k<1, 64> and k_1<64> read alike as k_1_64: the second becomes k_1_64_2.
template <int ADD, int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void k(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) + float(ADD), offs < n);
}
template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void k_1(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) - 1.0f, offs < n);
}

// Meta-parameters named like the output's own constants and CUDA's built-ins; parameters named like
// the launcher's locals, its API, its own name and the instantiation's namespace.
template <int NUM_THREADS, int threadIdx, int min>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, NUM_THREADS)))
void launch(const float *cudaSuccess, float *stream, int n, int grid, int config,
            int launch_launch_64_3_5, int launch_64_3_5) {
  auto offs = tl::program_id(0) * NUM_THREADS + tl::arange<0, NUM_THREADS>();
  auto v = tl::load(cudaSuccess + offs, offs < n);
  tl::store(stream + offs,
            tl::minimum(v, float(min + grid + config + launch_launch_64_3_5 + launch_64_3_5 + threadIdx)),
            offs < n);
}

struct Ops {
  template <int BLOCK>
  TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
  static void größe(const float *x, float *y, int n) {
    auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
    tl::store(y + offs, tl::abs(tl::load(x + offs, offs < n)), offs < n);
  }
};

enum class Mode : unsigned char { Off, On = 7 };
template <Mode M, unsigned U, long W, short S, bool F>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, 64) + W - 2))
void wide_meta(const float *x, float *y, int n) {
  auto offs = tl::program_id(0) * 64 + tl::arange<0, 64>();
  float add = M == Mode::On ? float(U % 1000u) : 0.0f;
  int64_t big = W * 3;
  tl::store(y + offs, tl::load(x + offs, offs < n) + add + float(S) + (F ? 1.0f : 0.0f) + float(big),
            offs < n);
}

template void a::k<64>(const float *, float *, int);
template void b::k<64>(const float *, float *, int);
template void twice<64>(const float *, float *, int);
template void twice<64>(const int32_t *, int32_t *, int);
template void k<1, 64>(const float *, float *, int);
template void k_1<64>(const float *, float *, int);
template void launch<64, 3, 5>(const float *, float *, int, int, int, int, int);
template void Ops::größe<64>(const float *, float *, int);
template void wide_meta<Mode::On, 4294967295u, 2L, -3, true>(const float *, float *, int);

// Runs tilec's CUDA for examples/embedding (Liger-Kernel's embedding forward and backward) on fresh
// random tables and token ids at ragged shapes (token counts and widths not multiples of the
// blocks; widths that are multiples of 16, where the launchers run the aligned variants), at
// Liger's blocks (next_pow2(min(128, embedding_dim)): 32 and 128 here), against the CPU reference
// (the same source through tilec/tl.hpp) and float64:
//  - forward, fp32 and bf16: output[m, :] = table[indices[m], :], a copy: bit for bit;
//  - backward, fp32: grad_weight[indices[m], :] += grad_output[m, :] by atomic adds. The ids
//    repeat (a third of the tokens share four hot rows, and one shape has a single row), so the
//    atomics of one block and of different blocks collide. grad_weight starts from random values
//    (a gradient accumulated so far; Liger's caller zeroes it), so an update that stores instead of
//    adding, or one that is lost, shows; rows no token picks must keep their bits. The order of
//    the updates to one element is unspecified, so the sum's rounding differs from the CPU's: each
//    element must be within the bound of a float sum in any order of its k updates, k * 2^-24 *
//    (|start| + sum of |updates|) (to first order), and the whole within 1e-5 of float64, as
//    tests/gpu/atomics.cu allows.
// Every output is poisoned first and followed by a poisoned guard that must stay so.
#include "../common/harness.h"
#include "embedding.cpp"       // the kernel source: CPU reference
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "embedding.hip"
using device_bf16 = hip_bfloat16;
#else
#include "embedding.cu" // tilec's output: kernels + host launchers
using device_bf16 = __nv_bfloat16;
#endif

static_assert(sizeof(tl::bfloat16) == sizeof(device_bf16),
              "tl::bfloat16 shares the device type's bit layout");

#include <algorithm>
#include <cstring>
#include <random>

namespace {

constexpr size_t kGuard = 64; // elements past each output, which the kernels must leave alone

/// A table of V rows of D columns (embedding_dim) and N token ids into it.
struct Shape {
  int V, D, N;
  std::string label() const {
    return std::to_string(V) + "x" + std::to_string(D) + " n" + std::to_string(N);
  }
};

/// Liger's LigerEmbeddingFunction: BLOCK_SIZE_M = BLOCK_SIZE_N = next_pow2(min(128, D)).
int ligerBlock(int d) {
  int b = 1;
  while (b < std::min(128, d))
    b *= 2;
  return b;
}

/// N ids in [0, V), int64 as torch's: a third of them one of the four first rows (hot rows, whose
/// updates collide within a block and across blocks), the rest uniform; the first token takes the
/// table's last row.
std::vector<int64_t> randomIndices(int n, int v, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 777);
  std::uniform_int_distribution<int64_t> any(0, v - 1), hot(0, std::min(v, 4) - 1);
  std::vector<int64_t> idx(size_t(std::max(n, 0)));
  for (int i = 0; i < n; ++i)
    idx[i] = i % 3 == 0 ? hot(rng) : any(rng);
  if (n > 0)
    idx[0] = v - 1;
  return idx;
}

/// Whether the guard after the first n elements of a downloaded buffer still holds the poison.
template <class T> bool guardKept(const std::vector<T> &all, size_t n) {
  const auto *bytes = reinterpret_cast<const unsigned char *>(all.data() + n);
  return std::all_of(bytes, bytes + kGuard * sizeof(T), [](unsigned char c) { return c == 0xFF; });
}

template <class T, int B, class Launch>
void forward(harness::Report &report, const char *name, const Shape &s, uint64_t seed,
             Launch launch) {
  const size_t tableN = size_t(s.V) * s.D, outN = size_t(s.N) * s.D;
  auto tf = harness::randomFloats(tableN, -1, 1, seed);
  std::vector<T> table(tableN), ref(outN, T(NAN));
  for (size_t i = 0; i < tableN; ++i)
    table[i] = T(tf[i]);
  const auto idx = randomIndices(s.N, s.V, seed + 1);
  tl::launch(tl::grid3{tl::cdiv(s.N, B), tl::cdiv(s.D, B)}, embedding_forward_kernel<T, B, B>,
             table.data(), idx.data(), ref.data(), s.N, s.D);

  harness::DeviceBuffer<T> dtable(tableN), dout(outN + kGuard);
  harness::DeviceBuffer<int64_t> didx(idx.size());
  dtable.upload(table.data());
  didx.upload(idx.data());
  dout.poison();
  CHECK_CUDA(launch(dtable.ptr, didx.ptr, dout.ptr, s.N, s.D));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(outN + kGuard);
  dout.download(out.data());

  // A copy: every element the table's, bit for bit.
  std::vector<double> f64(outN), gpu(outN), cpu(outN);
  size_t differ = 0;
  for (int m = 0; m < s.N; ++m)
    for (int c = 0; c < s.D; ++c) {
      const size_t o = size_t(m) * s.D + c, t = size_t(idx[m]) * s.D + c;
      differ += std::memcmp(&out[o], &table[t], sizeof(T)) != 0;
      f64[o] = double(float(table[t]));
      gpu[o] = double(float(out[o]));
      cpu[o] = double(float(ref[o]));
    }
  report.check(name, s.label(), gpu, cpu, f64, 0.0, differ == 0 && guardKept(out, outN));
}

template <int B, class Launch>
void backward(harness::Report &report, const char *name, const Shape &s, uint64_t seed,
              Launch launch) {
  const size_t gradN = size_t(s.V) * s.D, goN = size_t(s.N) * s.D;
  const auto go = harness::randomFloats(goN, -1, 1, seed);
  const auto start = harness::randomFloats(gradN, -1, 1, seed + 2);
  const auto idx = randomIndices(s.N, s.V, seed + 1);
  std::vector<float> ref = start;
  tl::launch(tl::grid3{tl::cdiv(s.N, B), tl::cdiv(s.D, B)}, embedding_backward_kernel<float, B, B>,
             go.data(), ref.data(), idx.data(), s.N, s.D);

  harness::DeviceBuffer<float> dgo(goN), dgw(gradN + kGuard);
  harness::DeviceBuffer<int64_t> didx(idx.size());
  dgo.upload(go.data());
  didx.upload(idx.data());
  dgw.poison(); // the guard keeps it; the table itself starts from `start`
  CHECK_CUDA(cudaMemcpy(dgw.ptr, start.data(), gradN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(launch(dgo.ptr, dgw.ptr, didx.ptr, s.N, s.D));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> gw(gradN + kGuard);
  dgw.download(gw.data());

  // float64: the start plus every update; per element, the updates' count and absolute sum.
  std::vector<double> f64(start.begin(), start.end()), absSum(gradN);
  std::vector<int> count(size_t(s.V));
  for (size_t i = 0; i < gradN; ++i)
    absSum[i] = std::abs(double(start[i]));
  for (int m = 0; m < s.N; ++m) {
    ++count[size_t(idx[m])];
    for (int c = 0; c < s.D; ++c) {
      const size_t w = size_t(idx[m]) * s.D + c;
      f64[w] += double(go[size_t(m) * s.D + c]);
      absSum[w] += std::abs(double(go[size_t(m) * s.D + c]));
    }
  }
  // k float additions in any order: |error| <= k u / (1 - k u) * (sum of |terms|), u = 2^-24.
  // Rows no token picks (k = 0) keep their bits.
  bool bounded = true;
  const double u = std::ldexp(1.0, -24);
  for (int r = 0; r < s.V; ++r) {
    const double k = count[size_t(r)];
    for (int c = 0; c < s.D; ++c) {
      const size_t w = size_t(r) * s.D + c;
      bounded = bounded && std::abs(double(gw[w]) - f64[w]) <= k * u / (1 - k * u) * absSum[w];
    }
  }
  std::vector<double> gpu(gw.begin(), gw.begin() + gradN), cpu(ref.begin(), ref.end());
  report.check(name, s.label(), gpu, cpu, f64, 1e-5, bounded && guardKept(gw, gradN));
}

void run(harness::Report &report, const Shape &s, uint64_t seed) {
  switch (ligerBlock(s.D)) {
  case 128:
    forward<float, 128>(
        report, "fwd f32", s, seed, [](const float *t, const int64_t *i, float *o, int n, int d) {
          return launch_embedding_forward_kernel_f32_128_128(cudaStream_t{}, t, i, o, n, d);
        });
    forward<tl::bfloat16, 128>(
        report, "fwd bf16", s, seed + 10,
        [](const tl::bfloat16 *t, const int64_t *i, tl::bfloat16 *o, int n, int d) {
          return launch_embedding_forward_kernel_bf16_128_128(
              cudaStream_t{}, reinterpret_cast<const device_bf16 *>(t), i,
              reinterpret_cast<device_bf16 *>(o), n, d);
        });
    backward<128>(report, "bwd f32", s, seed + 20,
                  [](const float *g, float *w, const int64_t *i, int n, int d) {
                    return launch_embedding_backward_kernel_f32_128_128(cudaStream_t{}, g, w, i, n,
                                                                        d);
                  });
    break;
  case 32:
    forward<tl::bfloat16, 32>(
        report, "fwd bf16", s, seed + 10,
        [](const tl::bfloat16 *t, const int64_t *i, tl::bfloat16 *o, int n, int d) {
          return launch_embedding_forward_kernel_bf16_32_32(
              cudaStream_t{}, reinterpret_cast<const device_bf16 *>(t), i,
              reinterpret_cast<device_bf16 *>(o), n, d);
        });
    backward<32>(report, "bwd f32", s, seed + 20,
                 [](const float *g, float *w, const int64_t *i, int n, int d) {
                   return launch_embedding_backward_kernel_f32_32_32(cudaStream_t{}, g, w, i, n, d);
                 });
    break;
  default:
    std::fprintf(stderr, "no instantiation for embedding_dim %d (Liger's block %d)\n", s.D,
                 ligerBlock(s.D));
    std::exit(2);
  }
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // Widths 17..32 take Liger's 32 x 32 blocks, 128 and wider its 128 x 128.
  std::vector<Shape> shapes = {
      {50, 20, 37},    // 32 x 32 blocks, both dimensions ragged
      {100, 300, 130}, // ragged
      {40, 256, 200},  // a multiple of 16 wide: the aligned variants
      {1, 129, 300},   // one row: every token's update collides
  };
  if (!harness::smallRun(argc, argv)) {
    shapes.push_back({50000, 24, 10007});
    shapes.push_back({32000, 1027, 2053});
    shapes.push_back({4096, 4096, 8192}); // Liger's shapes: 128 x 128 blocks, aligned
  }
  uint64_t seed = 1;
  for (const Shape &s : shapes)
    run(report, s, seed += 100);
  return report.exitCode();
}

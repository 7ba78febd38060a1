// Runs tilec's CUDA for matmul_kernel<64, 64, 32, 8, 4, 3, false>, its fused-ReLU twin
// <64, 64, 32, 8, 4, 3, true> and the wide <128, 256, 32, 8, 8, 4, false> (whose aligned variant is
// warp-specialized and persistent on sm_90a: a producer warpgroup issues the TMA copies, and blocks
// loop over the tiles) on random fp16 matrices of ragged shapes (M, N and K not multiples of
// the blocks, down to 1 x 1 x 1), with row strides wider than the rows, B row-major and (in some
// cases) column-major through its strides (stride_bk = 1), and compares with the CPU reference of
// the same source and with float64. The padding of C must stay untouched; the padding of A and B
// holds NaN, so that a read of it (a wrong K mask) shows in the result.
#include "../common/harness.h"
#include "matmul.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "matmul.hip"
#else
#include "matmul.cu"
#endif

#include <algorithm>
#include <type_traits>

namespace {

// The instantiations' meta-parameters.
struct Example {
  static constexpr int BLOCK_M = 64, BLOCK_N = 64, BLOCK_K = 32, GROUP_M = 8, NUM_WARPS = 4,
                       NUM_STAGES = 3;
  static constexpr const char *name = "matmul";
};
struct Wide {
  static constexpr int BLOCK_M = 128, BLOCK_N = 256, BLOCK_K = 32, GROUP_M = 8, NUM_WARPS = 8,
                       NUM_STAGES = 4;
  static constexpr const char *name = "matmul_128x256";
};

struct Case {
  int M, N, K;
  bool colMajorB = false; // B stored as N rows of K (stride_bk = 1): the layout of a transposed B
  /// Rows packed (strides K and N, no padding): with N and K multiples of 16 and 16-byte aligned
  /// buffers, the launcher runs the kernel's aligned variant (unit strides, 16-byte vector loads).
  bool packed = false;
};

template <class Cfg, bool RELU>
cudaError_t launchGpu(const tl::half *a, const tl::half *b, tl::half *c, int M, int N, int K,
                      int stride_am, int stride_ak, int stride_bk, int stride_bn, int stride_cm,
                      int stride_cn) {
  const auto *da = reinterpret_cast<const __half *>(a);
  const auto *db = reinterpret_cast<const __half *>(b);
  auto *dc = reinterpret_cast<__half *>(c);
  if constexpr (std::is_same_v<Cfg, Wide>)
    return launch_matmul_kernel_128_256_32_8_8_4_0(cudaStream_t{}, da, db, dc, M, N, K, stride_am,
                                                   stride_ak, stride_bk, stride_bn, stride_cm,
                                                   stride_cn);
  else if constexpr (RELU)
    return launch_matmul_kernel_64_64_32_8_4_3_1(cudaStream_t{}, da, db, dc, M, N, K, stride_am,
                                                 stride_ak, stride_bk, stride_bn, stride_cm,
                                                 stride_cn);
  else
    return launch_matmul_kernel_64_64_32_8_4_3_0(cudaStream_t{}, da, db, dc, M, N, K, stride_am,
                                                 stride_ak, stride_bk, stride_bn, stride_cm,
                                                 stride_cn);
}

template <class Cfg, bool RELU> void run(harness::Report &report, Case c) {
  const tl::half nan = tl::half::fromBits(0xFFFF); // what DeviceBuffer::poison writes
  // A: M rows of K, row stride K + 5. B: K rows of N (row stride N + 3), or column-major: N
  // columns of K, each stored contiguously, K + 5 apart. C: M rows of N, row stride N + 3.
  const int padA = c.packed ? 0 : 5, padC = c.packed ? 0 : 3;
  const int stride_am = c.K + padA, stride_ak = 1;
  const int stride_bk = c.colMajorB ? 1 : c.N + padC, stride_bn = c.colMajorB ? c.K + padA : 1;
  const int stride_cm = c.N + padC, stride_cn = 1;
  const size_t na = size_t(c.M) * stride_am;
  const size_t nb = c.colMajorB ? size_t(c.N) * stride_bn : size_t(c.K) * stride_bk;
  const size_t nc = size_t(c.M) * stride_cm;
  auto aAt = [&](int m, int k) { return size_t(m) * stride_am + size_t(k) * stride_ak; };
  auto bAt = [&](int k, int n) { return size_t(k) * stride_bk + size_t(n) * stride_bn; };

  // Fresh random fp16 values in [-1, 1), a seed per buffer, run and instantiation; NaN padding.
  const uint64_t seed = ((uint64_t(c.M) * 7919 + c.N) * 7919 + c.K) * 16 + (c.packed ? 8 : 0) +
                        (c.colMajorB ? 4 : 0) + (RELU ? 2 : 0) + Cfg::BLOCK_M;
  const auto af = harness::randomFloats(na, -1, 1, seed);
  const auto bf = harness::randomFloats(nb, -1, 1, seed + 1);
  std::vector<tl::half> a(na, nan), b(nb, nan), ref(nc, nan), out(nc);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      a[aAt(m, k)] = tl::half(af[aAt(m, k)]);
  for (int k = 0; k < c.K; ++k)
    for (int n = 0; n < c.N; ++n)
      b[bAt(k, n)] = tl::half(bf[bAt(k, n)]);

  tl::launch(tl::grid3{tl::cdiv(c.M, Cfg::BLOCK_M) * tl::cdiv(c.N, Cfg::BLOCK_N)},
             matmul_kernel<Cfg::BLOCK_M, Cfg::BLOCK_N, Cfg::BLOCK_K, Cfg::GROUP_M, Cfg::NUM_WARPS,
                           Cfg::NUM_STAGES, RELU>,
             a.data(), b.data(), ref.data(), c.M, c.N, c.K, stride_am, stride_ak, stride_bk,
             stride_bn, stride_cm, stride_cn);

  harness::DeviceBuffer<tl::half> da(na), db(nb), dc(nc);
  da.upload(a.data());
  db.upload(b.data());
  dc.poison();
  const cudaError_t launched =
      launchGpu<Cfg, RELU>(da.ptr, db.ptr, dc.ptr, c.M, c.N, c.K, stride_am, stride_ak, stride_bk,
                           stride_bn, stride_cm, stride_cn);
  CHECK_CUDA(launched);
  CHECK_CUDA(cudaDeviceSynchronize());
  dc.download(out.data());

  // float64: the products of the fp16 inputs summed in double, ReLU, then rounded to fp16 as the
  // kernel's output is. Compare the written columns; the padding columns must still hold NaN (on
  // the GPU and in the CPU reference).
  std::vector<double> gpu, cpu, f64, row(c.N);
  bool paddingUntouched = true;
  for (int m = 0; m < c.M; ++m) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int k = 0; k < c.K; ++k) {
      const double x = float(a[aAt(m, k)]);
      for (int n = 0; n < c.N; ++n)
        row[n] += x * double(float(b[bAt(k, n)]));
    }
    for (int j = 0; j < stride_cm; ++j) {
      const size_t at = size_t(m) * stride_cm + j;
      if (j < c.N) {
        gpu.push_back(float(out[at]));
        cpu.push_back(float(ref[at]));
        f64.push_back(float(tl::half(RELU ? std::max(row[j], 0.0) : row[j])));
      } else if (!std::isnan(float(out[at])) || !std::isnan(float(ref[at]))) {
        paddingUntouched = false;
      }
    }
  }
  // The tolerance: both sides are rounded to fp16, so an element differs from float64 only where
  // the fp32 sum (its error near 1e-6 of the sum of |products|, in whatever order the tensor cores
  // add) falls on the other side of a rounding midpoint: by one fp16 ulp, at most 2^-10 = 9.8e-4
  // of the element. So ||gpu - f64|| / ||f64|| <= 2^-10 even if every element were off by an ulp;
  // few are (the CPU reference's own error is near 1e-5 at K = 1000). 1e-3 is that bound; an fp16
  // accumulator (near 5e-3 at K = 1000), a lost K step or a NaN read from the padding exceed it.
  std::string size = std::to_string(c.M) + "x" + std::to_string(c.N) + "x" + std::to_string(c.K);
  if (c.colMajorB)
    size += " Bt";
  if (c.packed)
    size += " packed";
  const std::string name = std::string(Cfg::name) + (RELU ? "_relu" : "");
  report.check(name.c_str(), size, gpu, cpu, f64, 1e-3, paddingUntouched);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // M x N x K: square, tall and thin (65 row tiles: the last group of GROUP_M holds one), four
  // tiles of two K steps, a single element, a K of several steps with a ragged remainder; and B
  // column-major.
  // Packed: the aligned variant (N and K multiples of 16), ragged M and a K remainder of 16. (The
  // CPU reference takes seconds per GFLOP: no case is much bigger than 1000^3.)
  std::vector<Case> cases = {{1000, 1000, 1000},
                             {4097, 63, 129},
                             {128, 128, 64},
                             {1, 1, 1},
                             {33, 17, 200},
                             {777, 555, 1000, true},
                             {33, 17, 200, true},
                             {1000, 1024, 1008, false, true},
                             {256, 512, 2048, false, true}};
  // The CPU emulator is about 1000x slower than a GPU: one or two programs a case.
  if (harness::smallRun(argc, argv))
    cases = {{37, 45, 70},
             {64, 64, 32},
             {1, 1, 1},
             {70, 19, 33},
             {37, 45, 70, true},
             {70, 64, 48, false, true},
             {40, 64, 160, false, true}, // five K steps: the ring of NUM_STAGES buffers wraps
             {16, 128, 16, false, true}};
  // The wide instantiation: its aligned variant's persistent blocks (one per SM, three on the
  // emulator) each loop over several tiles where the grid has more tiles than SMs, and the ring's
  // stages and phases run on from one tile to the next.
  std::vector<Case> wide = {{1000, 1000, 1000},
                            {1000, 1024, 1008, false, true},
                            {4096, 4096, 256, false, true},
                            {777, 544, 80, false, true},
                            {33, 17, 200}};
  if (harness::smallRun(argc, argv)) {
    wide = {{40, 64, 160, false, true}, {300, 528, 80, false, true}, {37, 45, 70}};
#if !defined(TILEC_EMULATE)
    // The sanitizers' run on the GPU: more tiles (160) than an H100 has SMs (132), so that blocks
    // loop there too.
    wide.push_back({1280, 4096, 64, false, true});
#endif
  }
  for (Case c : cases) {
    run<Example, false>(report, c);
    run<Example, true>(report, c);
  }
  for (Case c : wide)
    run<Wide, false>(report, c);
  return report.exitCode();
}

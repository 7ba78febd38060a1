// Runs tilec's CUDA for the tensor-descriptor matmuls of matmul_descriptor.cpp (Triton's tutorial
// 09): matmul_descriptor_kernel<T, 64, 64, 32, 8, 4, 3> for fp16 and bf16, the wide fp16
// <128, 256, 32, 8, 8, 4> (whose aligned variant is warp-specialized and persistent on sm_90a) and
// the hand-written persistent fp16 matmul_descriptor_persistent<128, 128, 32, 8, 8, 3> (its K
// loop's TMA ring nested in the tile
// loop, carrying its stages and phases from one tile to the next), on random fp16 matrices of
// ragged shapes (M, N and K not multiples of the blocks, down to 1 x 1 x 1), with row strides
// wider than the rows, and compares with the CPU reference of the same source and with float64.
// B is given as N rows of K (the tutorial's B^T). The padding of C must stay untouched; the
// padding of A and B holds NaN, so that a read past a descriptor's shape shows in the result.
#include "../common/harness.h"
#include "matmul_descriptor.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "matmul_descriptor.hip"
using device_bf16 = hip_bfloat16;
#else
#include "matmul_descriptor.cu"
using device_bf16 = __nv_bfloat16;
#endif

static_assert(sizeof(tl::half) == sizeof(__half) && sizeof(tl::bfloat16) == sizeof(device_bf16),
              "tl::half and tl::bfloat16 share the device types' bit layouts");

#include <algorithm>
#include <type_traits>

namespace {

enum class Kernel { Small, SmallBf16, Wide, Persistent };

struct Case {
  int M, N, K;
  /// Rows packed (row strides K, K and N): with N and K multiples of 16 and 16-byte aligned
  /// buffers, the launcher runs the kernel's aligned variant (TMA on sm_90a).
  bool packed = false;
};

struct Config {
  int BLOCK_M, BLOCK_N;
  const char *name;
};
Config config(Kernel kernel) {
  switch (kernel) {
  case Kernel::Small:
    return {64, 64, "descriptor"};
  case Kernel::SmallBf16:
    return {64, 64, "descriptor_bf16"};
  case Kernel::Wide:
    return {128, 256, "descriptor_128x256"};
  case Kernel::Persistent:
    return {128, 128, "descriptor_persistent"};
  }
  return {0, 0, ""};
}

// The persistent kernel's programs: the H100's 132 SMs, or fewer where there are fewer tiles (a
// small number on the emulator, so that its programs loop over several tiles).
int persistentPrograms(int tiles) {
#if defined(TILEC_EMULATE)
  const int num_sms = 2;
#else
  const int num_sms = 132;
#endif
  return std::max(1, std::min(num_sms, tiles));
}

template <class E> void run(harness::Report &report, Kernel kernel, Case c) {
  const Config cfg = config(kernel);
  const E nan = E::fromBits(0xFFFF); // what DeviceBuffer::poison writes
  // A: M rows of K, row stride K + 5. B: N rows of K, row stride K + 5. C: M rows of N, row
  // stride N + 3.
  const int padA = c.packed ? 0 : 5, padC = c.packed ? 0 : 3;
  const int stride_am = c.K + padA, stride_bn = c.K + padA, stride_cm = c.N + padC;
  const size_t na = size_t(c.M) * stride_am, nb = size_t(c.N) * stride_bn,
               nc = size_t(c.M) * stride_cm;

  // Fresh random values in [-1, 1) (fp16 or bf16), a seed per buffer, run and kernel; NaN padding.
  const uint64_t seed = ((uint64_t(c.M) * 7919 + c.N) * 7919 + c.K) * 16 + (c.packed ? 8 : 0) +
                        static_cast<int>(kernel);
  const auto af = harness::randomFloats(na, -1, 1, seed);
  const auto bf = harness::randomFloats(nb, -1, 1, seed + 1);
  std::vector<E> a(na, nan), b(nb, nan), ref(nc, nan), out(nc);
  for (int m = 0; m < c.M; ++m)
    for (int k = 0; k < c.K; ++k)
      a[size_t(m) * stride_am + k] = E(af[size_t(m) * stride_am + k]);
  for (int n = 0; n < c.N; ++n)
    for (int k = 0; k < c.K; ++k)
      b[size_t(n) * stride_bn + k] = E(bf[size_t(n) * stride_bn + k]);

  const int tiles = tl::cdiv(c.M, cfg.BLOCK_M) * tl::cdiv(c.N, cfg.BLOCK_N);
  const int programs = persistentPrograms(tiles);
  switch (kernel) {
  case Kernel::Small:
  case Kernel::SmallBf16:
    tl::launch(tl::grid3{tiles}, matmul_descriptor_kernel<E, 64, 64, 32, 8, 4, 3>, a.data(),
               b.data(), ref.data(), c.M, c.N, c.K, stride_am, stride_bn, stride_cm);
    break;
  case Kernel::Wide:
    tl::launch(tl::grid3{tiles}, matmul_descriptor_kernel<E, 128, 256, 32, 8, 8, 4>, a.data(),
               b.data(), ref.data(), c.M, c.N, c.K, stride_am, stride_bn, stride_cm);
    break;
  case Kernel::Persistent:
    tl::launch(tl::grid3{programs}, matmul_descriptor_persistent<E, 128, 128, 32, 8, 8, 3>,
               a.data(), b.data(), ref.data(), c.M, c.N, c.K, stride_am, stride_bn, stride_cm,
               programs);
    break;
  }

  harness::DeviceBuffer<E> da(na), db(nb), dc(nc);
  da.upload(a.data());
  db.upload(b.data());
  dc.poison();
  cudaError_t launched = cudaSuccess;
  if constexpr (std::is_same_v<E, tl::bfloat16>) {
    launched = launch_matmul_descriptor_kernel_bf16_64_64_32_8_4_3(
        cudaStream_t{}, reinterpret_cast<const device_bf16 *>(da.ptr),
        reinterpret_cast<const device_bf16 *>(db.ptr), reinterpret_cast<device_bf16 *>(dc.ptr), c.M,
        c.N, c.K, stride_am, stride_bn, stride_cm);
  } else {
    const auto *pa = reinterpret_cast<const __half *>(da.ptr);
    const auto *pb = reinterpret_cast<const __half *>(db.ptr);
    auto *pc = reinterpret_cast<__half *>(dc.ptr);
    switch (kernel) {
    case Kernel::Small:
    case Kernel::SmallBf16:
      launched = launch_matmul_descriptor_kernel_f16_64_64_32_8_4_3(
          cudaStream_t{}, pa, pb, pc, c.M, c.N, c.K, stride_am, stride_bn, stride_cm);
      break;
    case Kernel::Wide:
      launched = launch_matmul_descriptor_kernel_f16_128_256_32_8_8_4(
          cudaStream_t{}, pa, pb, pc, c.M, c.N, c.K, stride_am, stride_bn, stride_cm);
      break;
    case Kernel::Persistent:
      launched = launch_matmul_descriptor_persistent_f16_128_128_32_8_8_3(
          dim3(programs), cudaStream_t{}, pa, pb, pc, c.M, c.N, c.K, stride_am, stride_bn,
          stride_cm, programs);
      break;
    }
  }
  CHECK_CUDA(launched);
  CHECK_CUDA(cudaDeviceSynchronize());
  dc.download(out.data());

  // float64: the products of the inputs summed in double, then rounded to E as the kernel's output
  // is. Compare the written columns; the padding columns must still hold NaN (on
  // the GPU and in the CPU reference).
  std::vector<double> gpu, cpu, f64, row(c.N);
  bool paddingUntouched = true;
  for (int m = 0; m < c.M; ++m) {
    for (int n = 0; n < c.N; ++n) {
      double sum = 0;
      for (int k = 0; k < c.K; ++k)
        sum += double(float(a[size_t(m) * stride_am + k])) *
               double(float(b[size_t(n) * stride_bn + k]));
      row[n] = sum;
    }
    for (int j = 0; j < stride_cm; ++j) {
      const size_t at = size_t(m) * stride_cm + j;
      if (j < c.N) {
        gpu.push_back(float(out[at]));
        cpu.push_back(float(ref[at]));
        f64.push_back(float(E(row[j])));
      } else if (!std::isnan(float(out[at])) || !std::isnan(float(ref[at]))) {
        paddingUntouched = false;
      }
    }
  }
  // The tolerance, as examples/matmul's: both sides are rounded to fp16, so an element differs
  // from float64 by one fp16 ulp at most (2^-10 = 9.8e-4 of it) where the fp32 sum falls on the
  // other side of a rounding midpoint; few do. A lost K step, a tile of the wrong stage or a NaN
  // read from the padding exceed it.
  std::string size = std::to_string(c.M) + "x" + std::to_string(c.N) + "x" + std::to_string(c.K);
  if (c.packed)
    size += " packed";
  if (kernel == Kernel::Persistent)
    size += " on " + std::to_string(programs) + " programs";
  // bf16 keeps 8 bits of mantissa: one ulp is 2^-8 = 3.9e-3 of an element, so 4e-3 there.
  const double tol = std::is_same_v<E, tl::bfloat16> ? 4e-3 : 1e-3;
  report.check(cfg.name, size, gpu, cpu, f64, tol, paddingUntouched);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // M x N x K: square, tall and thin, a single element, a K of several steps with a ragged
  // remainder; packed (the aligned variant: N and K multiples of 16), ragged M and a K remainder of
  // 16. (The CPU reference takes seconds per GFLOP: no case is much bigger than 1000^3.)
  std::vector<Case> cases = {{1000, 1000, 1000},  {4097, 63, 129},          {1, 1, 1},
                             {33, 17, 200},       {1000, 1024, 1008, true}, {256, 512, 2048, true},
                             {777, 544, 80, true}};
  // The CPU emulator is about 1000x slower than a GPU: one to six programs a case.
  if (harness::smallRun(argc, argv))
    cases = {{37, 45, 70}, {1, 1, 1}, {70, 64, 48, true}, {40, 64, 160, true}};
  std::vector<Case> wide = cases, persistent = cases;
  if (harness::smallRun(argc, argv)) {
    // Several tiles a block (the emulator's three persistent blocks, or the persistent kernel's
    // two programs) with rings that wrap: the stages and phases run on from tile to tile.
    wide = {{300, 528, 320, true}, {37, 45, 70}};
    persistent = {{300, 320, 320, true}, {37, 45, 70}, {130, 128, 64, true}};
#if !defined(TILEC_EMULATE)
    // The sanitizers' run on the GPU: more tiles than an H100 has SMs, so that blocks loop there.
    wide.push_back({1280, 4096, 64, true});
    persistent.push_back({1280, 2048, 128, true});
#endif
  }
  for (Case c : cases) {
    run<tl::half>(report, Kernel::Small, c);
    run<tl::bfloat16>(report, Kernel::SmallBf16, c);
  }
  for (Case c : wide)
    run<tl::half>(report, Kernel::Wide, c);
  for (Case c : persistent)
    run<tl::half>(report, Kernel::Persistent, c);
  return report.exitCode();
}

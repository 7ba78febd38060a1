// Runs the kernels of tests/emu/unit/TensorCoreKernels.cpp (one warp: cp.async, ldmatrix_x4 and
// ldmatrix_x4_trans, two mma.sync m16n8k16 products, fp16 and bf16) on the GPU: the fragment maps
// of tilec/cuda/tensor_core.cuh (Mma16816), which the CPU emulator models, must give A B + C on the
// hardware too. Fresh random operands per run, the output poisoned twice, compared with the sum in
// fp32 in increasing k (the emulator's order) and with float64; both data paths (fragments packed
// from global memory, and through shared memory) must give the same bits. ldmatrix's fragments
// must match the PTX ISA's assignment exactly.
#include "../emu/unit/TensorCoreKernels.cpp"
#include "check.h"

#include <tilec/tl.hpp>

#include <random>

namespace {

using namespace emu_test::tensor_core;

template <class T> void runMma(harness::Report &report, const char *name, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2, 2);
  std::vector<uint16_t> a(kM * kK), b(kK * kN);
  std::vector<float> c(kM * kN);
  for (auto &x : a)
    x = T(dist(rng)).bits;
  for (auto &x : b)
    x = T(dist(rng)).bits;
  for (auto &x : c)
    x = dist(rng);
  harness::DeviceBuffer<uint16_t> da(a.size()), db(b.size());
  harness::DeviceBuffer<float> dc(c.size());
  da.upload(a.data());
  db.upload(b.data());
  dc.upload(c.data());
  std::vector<double> cpu, f64;
  for (int r = 0; r < kM; ++r)
    for (int n = 0; n < kN; ++n) {
      float s = c[r * kN + n];
      double e = c[r * kN + n];
      for (int k = 0; k < kK; ++k) {
        const float x = float(T::fromBits(a[r * kK + k])), y = float(T::fromBits(b[k * kN + n]));
        s += x * y;
        e += double(x) * double(y);
      }
      cpu.push_back(s);
      f64.push_back(e);
    }
  const bool bf16 = std::is_same_v<T, tl::bfloat16>;
  std::vector<float> first;
  bool samePaths = true;
  for (MmaPath path : {MmaPath::Registers, MmaPath::Pipeline}) {
    gpucheck::Output<float> d(kM * kN);
    for (int byte : gpucheck::kPoison) {
      d.poison(byte);
      CHECK_CUDA(launchMma(bf16, path, da.ptr, db.ptr, dc.ptr, d.dev.ptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      d.collect(byte);
    }
    if (first.empty())
      first = d.vals;
    else
      samePaths = std::memcmp(first.data(), d.vals.data(), first.size() * sizeof(float)) == 0;
    const std::string label =
        std::string(path == MmaPath::Registers ? "registers" : "cp.async+ldmatrix") + " seed " +
        std::to_string(seed);
    report.check(name, label, harness::toDoubles(d.vals), cpu, f64, 1e-5,
                 d.ok() && (path == MmaPath::Registers || samePaths));
  }
}

void runLdmatrix(harness::Report &report, bool trans) {
  std::vector<uint16_t> m(4 * 64);
  std::mt19937 rng(trans ? 17 : 16);
  for (auto &x : m)
    x = uint16_t(rng());
  harness::DeviceBuffer<uint16_t> dm(m.size());
  dm.upload(m.data());
  gpucheck::Output<uint32_t> out(32 * 4);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launchLdmatrix(trans, dm.ptr, out.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  size_t wrong = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) {
      auto at = [&](int r, int c) { return uint32_t(m[64 * j + 8 * r + c]); };
      const int g = lane / 4, t = lane % 4;
      const uint32_t want =
          trans ? at(2 * t, g) | at(2 * t + 1, g) << 16 : at(g, 2 * t) | at(g, 2 * t + 1) << 16;
      wrong += out.vals[4 * lane + j] != want;
    }
  gpucheck::checkExact(report, trans ? "ldmatrix.T" : "ldmatrix", "4x8x8", 32 * 4, wrong, wrong, 0,
                       out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const int seeds = harness::smallRun(argc, argv) ? 1 : 4;
  for (int s = 0; s < seeds; ++s) {
    runMma<tl::half>(report, "mma f16", 100 + s);
    runMma<tl::bfloat16>(report, "mma bf16", 200 + s);
  }
  runLdmatrix(report, false);
  runLdmatrix(report, true);
  return report.exitCode();
}

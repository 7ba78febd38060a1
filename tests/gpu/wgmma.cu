// Runs the kernels of tests/emu/unit/WgmmaKernels.cpp on an H100 (sm_90a only: tools/gpu-check.sh
// builds it when TILEC_GPU_ARCH is 90a): one warpgroup stages A (64 x 64) and B (64 x N) in shared
// memory in every layout tilec stages (K- and MN-major, no swizzle and the 32-, 64- and 128-byte
// swizzles), builds the descriptors of four k16 steps with tilec::rt::make_smem_desc, runs
// wgmma_m64nNk16_f32_f16 / _bf16 (N = 64, 128, 256) and stores D by WgmmaM64NK16's map. The
// operands are small integers, so every sum is exact: D must equal A B (+ C) bit for bit, which
// checks the descriptors' fields (LBO and SBO for each major and swizzle), the swizzle and the
// accumulator map that the CPU emulator models. Also run: a product kept in flight across commit
// groups (wgmma_wait<1>), and A's tile half a swizzle atom off its alignment, whose product must be
// that of the A the emulator says the hardware reads (the swizzle's phase taken from the address).
// Every launch runs twice under two poison patterns (check.h); one table row per case.
#include "../emu/unit/WgmmaKernels.cpp"
#include "check.h"

namespace {

using namespace emu_test::wgmma;

/// Runs `c` and compares D with `expected`, exactly; with `intended` (the misaligned cases), D
/// must also differ from it.
void runCase(harness::Report &report, const char *name, const WgmmaCase &c, uint32_t seed,
             bool misaligned = false) {
  const WgmmaOperands ops(c, seed);
  harness::DeviceBuffer<uint16_t> da(ops.a.size()), db(ops.b.size());
  harness::DeviceBuffer<float> dc(ops.c.size());
  da.upload(ops.a.data());
  db.upload(ops.b.data());
  dc.upload(ops.c.data());
  gpucheck::Output<float> d(size_t(kM) * c.n);
  for (int byte : gpucheck::kPoison) {
    d.poison(byte);
    CHECK_CUDA(launchWgmma(c, da.ptr, db.ptr, dc.ptr, d.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    d.collect(byte);
  }
  const std::vector<float> ref = ops.reference(c);
  size_t wrong = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    wrong += !(d.vals[i] == ref[i]);
  bool extraOk = d.ok();
  if (misaligned) { // the misread product is not the intended one
    const std::vector<float> intended = ops.intended(c);
    size_t differ = 0;
    for (size_t i = 0; i < ref.size(); ++i)
      differ += d.vals[i] != intended[i];
    extraOk = extraOk && differ > 0;
  }
  gpucheck::checkExact(report, name, describe(c), ref.size(), wrong, wrong, 0, extraOk);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  uint32_t seed = 1;
  for (int n : {64, 128, 256})
    for (bool bf16 : {false, true}) {
      if (small && (n == 128 || bf16))
        continue;
      for (const WgmmaCase &c : layoutCases(n, bf16))
        runCase(report, "wgmma", c, seed++);
    }
  for (Major bMajor : {Major::K, Major::MN}) {
    WgmmaCase c;
    c.n = 128, c.bMajor = bMajor, c.bSwizzle = Swizzle::B64, c.accumulate = true;
    c.path = WgmmaPath::GroupPerStep;
    runCase(report, "wgmma wait<1>", c, seed++);
  }
  for (Swizzle s : {Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
    WgmmaCase c;
    c.aSwizzle = s;
    c.aOffset = 4 * int(s); // half an atom: the swizzle's phase comes from the address
    runCase(report, "wgmma A+off", c, seed++, true);
  }
  return report.exitCode();
}

// Runs the kernels of tests/emu/unit/TensorCoreKernels.cpp (one warp: cp.async, ldmatrix_x4 and
// ldmatrix_x4_trans, two mma.sync m16n8k16 products, fp16 and bf16; two m16n8k8 tf32 and two
// m16n8k32 int8 products, their fragments packed from global memory, read with ldmatrix and
// gathered, from plain and transposed buffers) on the GPU: the fragment maps of
// tilec/cuda/tensor_core.cuh (Mma16816, Mma1688Tf32, Mma16832S8), which the CPU emulator models,
// must give A B + C on the hardware too (int8 exactly, with wrapping sums). Fresh random operands
// per run, the output poisoned twice, compared with the sum in fp32 in increasing k (the emulator's
// order) and with float64; both data paths (fragments packed from global memory, and through shared
// memory) must give the same bits. ldmatrix's fragments must match the PTX ISA's assignment
// exactly.
#include "../emu/unit/TensorCoreKernels.cpp"
#include "check.h"

#include <tilec/tl.hpp>

#include <random>

namespace {

using namespace emu_test::tensor_core;

template <class T> void runMma(harness::Report &report, const char *name, uint32_t seed) {
  const Operands<T> ops(seed);
  harness::DeviceBuffer<uint16_t> da(ops.a.size()), db(ops.b.size());
  harness::DeviceBuffer<float> dc(ops.c.size());
  da.upload(ops.a.data());
  db.upload(ops.b.data());
  dc.upload(ops.c.data());
  const std::vector<float> order = ops.reference();
  const std::vector<double> cpu(order.begin(), order.end()), f64 = ops.exact();
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

const char *pathName(FragmentPath p) {
  return p == FragmentPath::Registers ? "registers"
         : p == FragmentPath::Shared  ? "shared"
                                      : "shared^T";
}

void runTf32(harness::Report &report, uint32_t seed) {
  const Tf32Operands ops(seed);
  harness::DeviceBuffer<float> da(ops.a.size()), db(ops.b.size()), dc(ops.c.size());
  da.upload(ops.a.data());
  db.upload(ops.b.data());
  dc.upload(ops.c.data());
  const std::vector<float> order = ops.reference<float>(tl::detail::roundTf32);
  const std::vector<double> cpu(order.begin(), order.end());
  const std::vector<double> f64 = ops.reference<double>(tl::detail::roundTf32);
  for (FragmentPath path : {FragmentPath::Registers, FragmentPath::Shared, FragmentPath::SharedT}) {
    gpucheck::Output<float> d(16 * 16);
    for (int byte : gpucheck::kPoison) {
      d.poison(byte);
      CHECK_CUDA(launchMmaTf32(path, da.ptr, db.ptr, dc.ptr, d.dev.ptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      d.collect(byte);
    }
    report.check("mma tf32", std::string(pathName(path)) + " seed " + std::to_string(seed),
                 harness::toDoubles(d.vals), cpu, f64, 1e-5, d.ok());
  }
}

void runS8(harness::Report &report, uint32_t seed) {
  const S8Operands ops(seed);
  harness::DeviceBuffer<int8_t> da(ops.a.size()), db(ops.b.size());
  harness::DeviceBuffer<int> dc(ops.c.size());
  da.upload(ops.a.data());
  db.upload(ops.b.data());
  dc.upload(ops.c.data());
  const std::vector<int> ref = ops.reference();
  for (FragmentPath path : {FragmentPath::Registers, FragmentPath::Shared, FragmentPath::SharedT}) {
    gpucheck::Output<int> d(16 * 16);
    for (int byte : gpucheck::kPoison) {
      d.poison(byte);
      CHECK_CUDA(launchMmaS8(path, da.ptr, db.ptr, dc.ptr, d.dev.ptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      d.collect(byte);
    }
    size_t wrong = 0;
    for (size_t i = 0; i < ref.size(); ++i)
      wrong += d.vals[i] != ref[i];
    gpucheck::checkExact(report, "mma s8", pathName(path), ref.size(), wrong, wrong, 0, d.ok());
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
    for (int j = 0; j < 4; ++j)
      wrong += out.vals[4 * lane + j] != ldmatrixRegister(m, lane, j, trans);
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
    runTf32(report, 300 + s);
    runS8(report, 400 + s);
  }
  runLdmatrix(report, false);
  runLdmatrix(report, true);
  return report.exitCode();
}

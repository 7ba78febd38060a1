// Runs tilec's CUDA for tutorial 05's layer norm backward in both forms of examples/layer_norm_bwd
// (stage 1 with its spin lock and fp16 partial sums, layer_norm_bwd_dx_fused_lock<1024, 256, 4>,
// and with fp32 partial sums added atomically, layer_norm_bwd_dx_fused<1024, 256, 4>; then stage 2,
// layer_norm_bwd_dwdb<32, 128, P>) on random fp16 rows of ragged widths, with the statistics of the
// forward pass, and compares dX, dW and dB with the CPU reference of the same source and with
// float64. dX and the final dW and dB are poisoned before each run; the fp32 partial sums are
// zeroed and the locks and counts zeroed (the kernels' contracts), the fp16 partial sums poisoned
// (the first program of a group stores, so the poison must never be read). Each form runs twice:
// dX must come out bit for bit the same every time and in both forms (each row's own arithmetic),
// dW and dB within the tolerance (the adds come in any order, and in fp16 in the lock form); after
// the lock form every lock must be released and every used group counted once.
#include "../common/harness.h"
#include "layer_norm_bwd.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "layer_norm_bwd.hip"
#else
#include "layer_norm_bwd.cu"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>

static_assert(sizeof(tl::half) == sizeof(__half), "tl::half and __half share a bit layout");

namespace {

constexpr int kGroups = 256; // GROUP_SIZE_M of the instantiation

std::vector<tl::half> toHalf(const std::vector<float> &v) {
  std::vector<tl::half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    h[i] = tl::half(v[i]);
  return h;
}

std::vector<double> halves(const std::vector<tl::half> &v) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    d[i] = static_cast<float>(v[i]);
  return d;
}

void run(harness::Report &report, int M, int N) {
  const int stride = N + 8;
  const size_t n = size_t(M) * stride;
  auto x = toHalf(harness::randomFloats(n, -3, 5, uint64_t(M) * 31 + N));
  auto dy = toHalf(harness::randomFloats(n, -1, 1, uint64_t(M) * 17 + N));
  auto w = toHalf(harness::randomFloats(N, 0.5f, 1.5f, uint64_t(N) + 1));
  // The forward pass's statistics (float64, stored as float).
  const double eps = 1e-5;
  std::vector<float> mean(M), rstd(M);
  for (int i = 0; i < M; ++i) {
    double s = 0, v = 0;
    for (int j = 0; j < N; ++j)
      s += static_cast<float>(x[size_t(i) * stride + j]);
    const double m = s / N;
    for (int j = 0; j < N; ++j) {
      const double d = static_cast<float>(x[size_t(i) * stride + j]) - m;
      v += d * d;
    }
    mean[i] = float(m);
    rstd[i] = float(1 / std::sqrt(v / N + eps));
  }
  // The CPU reference.
  std::vector<tl::half> rdx(n, tl::half(0.0f)), rdw(N), rdb(N);
  std::vector<float> pdw(size_t(kGroups) * N, 0.0f), pdb(size_t(kGroups) * N, 0.0f);
  tl::launch(tl::grid3{M}, layer_norm_bwd_dx_fused<1024, kGroups, 4>, rdx.data(), dy.data(),
             pdw.data(), pdb.data(), x.data(), w.data(), mean.data(), rstd.data(), stride, M, N);
  tl::launch(tl::grid3{tl::cdiv(N, 128)}, layer_norm_bwd_dwdb<32, 128, float>, pdw.data(),
             pdb.data(), rdw.data(), rdb.data(), kGroups, N);
  // The CPU reference of the lock form: poisoned fp16 partial sums, zeroed locks and counts.
  std::vector<tl::half> ldx(n, tl::half(0.0f)), ldw(N), ldb(N);
  std::vector<tl::half> pdw16(size_t(kGroups) * N, tl::half(NAN)), pdb16(pdw16);
  std::vector<int> locks(2 * kGroups, 0);
  tl::launch(tl::grid3{M}, layer_norm_bwd_dx_fused_lock<1024, kGroups, 4>, ldx.data(), dy.data(),
             pdw16.data(), pdb16.data(), x.data(), w.data(), mean.data(), rstd.data(), locks.data(),
             stride, M, N);
  tl::launch(tl::grid3{tl::cdiv(N, 128)}, layer_norm_bwd_dwdb<32, 128, tl::half>, pdw16.data(),
             pdb16.data(), ldw.data(), ldb.data(), std::min(M, kGroups), N);
  // float64 from the same fp16 inputs and float statistics.
  std::vector<double> fdx, fdw(N, 0.0), fdb(N, 0.0), cdx;
  for (int i = 0; i < M; ++i) {
    const size_t r = size_t(i) * stride;
    double c1 = 0, c2 = 0;
    std::vector<double> xhat(N), wdy(N);
    for (int j = 0; j < N; ++j) {
      xhat[j] = (double(static_cast<float>(x[r + j])) - mean[i]) * rstd[i];
      wdy[j] = double(static_cast<float>(w[j])) * static_cast<float>(dy[r + j]);
      c1 += xhat[j] * wdy[j];
      c2 += wdy[j];
      fdw[j] += static_cast<float>(dy[r + j]) * xhat[j];
      fdb[j] += static_cast<float>(dy[r + j]);
    }
    c1 /= N, c2 /= N;
    for (int j = 0; j < N; ++j) {
      fdx.push_back((wdy[j] - (xhat[j] * c1 + c2)) * rstd[i]);
      cdx.push_back(static_cast<float>(rdx[r + j]));
    }
  }
  // The GPU, twice.
  harness::DeviceBuffer<__half> ddx(n), ddy(n), dx(n), dw(N), ddw(N), ddb(N);
  harness::DeviceBuffer<float> dmean(M), drstd(M), dpdw(size_t(kGroups) * N),
      dpdb(size_t(kGroups) * N);
  harness::DeviceBuffer<__half> dpdw16(size_t(kGroups) * N), dpdb16(size_t(kGroups) * N);
  harness::DeviceBuffer<int> dlocks(2 * kGroups);
  ddy.upload(dy.data());
  dx.upload(x.data());
  dw.upload(w.data());
  dmean.upload(mean.data());
  drstd.upload(rstd.data());
  std::vector<tl::half> gdx(n), gdw(N), gdb(N), firstDx;
  const std::string size = std::to_string(M) + "x" + std::to_string(N);
  for (int pass = 0; pass < 2; ++pass) {
    ddx.poison();
    ddw.poison();
    ddb.poison();
    CHECK_CUDA(cudaMemset(dpdw.ptr, 0, dpdw.n * sizeof(float)));
    CHECK_CUDA(cudaMemset(dpdb.ptr, 0, dpdb.n * sizeof(float)));
    CHECK_CUDA(launch_layer_norm_bwd_dx_fused_1024_256_4(cudaStream_t{}, ddx.ptr, ddy.ptr, dpdw.ptr,
                                                         dpdb.ptr, dx.ptr, dw.ptr, dmean.ptr,
                                                         drstd.ptr, stride, M, N));
    CHECK_CUDA(launch_layer_norm_bwd_dwdb_32_128_f32(cudaStream_t{}, dpdw.ptr, dpdb.ptr, ddw.ptr,
                                                     ddb.ptr, kGroups, N));
    CHECK_CUDA(cudaDeviceSynchronize());
    ddx.download(gdx.data());
    ddw.download(gdw.data());
    ddb.download(gdb.data());
    // dX over the written columns; the padding columns must keep their poison (NaN).
    auto written = [&](const std::vector<tl::half> &all, bool &paddingUntouched) {
      std::vector<double> cols;
      paddingUntouched = true;
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < stride; ++j) {
          const float v = static_cast<float>(all[size_t(i) * stride + j]);
          if (j < N)
            cols.push_back(v);
          else if (!std::isnan(v))
            paddingUntouched = false;
        }
      return cols;
    };
    bool paddingUntouched;
    std::vector<double> gpu = written(gdx, paddingUntouched);
    bool sameAsFirst = true;
    if (pass == 0)
      firstDx = gdx;
    else
      sameAsFirst = std::memcmp(firstDx.data(), gdx.data(), n * sizeof(tl::half)) == 0;
    const std::string run = size + (pass ? " again" : "");
    report.check("ln_bwd", run + " dX", gpu, cdx, fdx, 1e-3, paddingUntouched && sameAsFirst);
    report.check("ln_bwd", run + " dW", halves(gdw), halves(rdw), fdw, 1e-3);
    report.check("ln_bwd", run + " dB", halves(gdb), halves(rdb), fdb, 1e-3);

    // The lock form.
    ddx.poison();
    ddw.poison();
    ddb.poison();
    dpdw16.poison();
    dpdb16.poison();
    CHECK_CUDA(cudaMemset(dlocks.ptr, 0, dlocks.n * sizeof(int)));
    CHECK_CUDA(launch_layer_norm_bwd_dx_fused_lock_1024_256_4(
        cudaStream_t{}, ddx.ptr, ddy.ptr, dpdw16.ptr, dpdb16.ptr, dx.ptr, dw.ptr, dmean.ptr,
        drstd.ptr, dlocks.ptr, stride, M, N));
    CHECK_CUDA(launch_layer_norm_bwd_dwdb_32_128_f16(cudaStream_t{}, dpdw16.ptr, dpdb16.ptr,
                                                     ddw.ptr, ddb.ptr, std::min(M, kGroups), N));
    CHECK_CUDA(cudaDeviceSynchronize());
    ddx.download(gdx.data());
    ddw.download(gdw.data());
    ddb.download(gdb.data());
    std::vector<int> glocks(dlocks.n);
    dlocks.download(glocks.data());
    bool locksOk = true; // every lock released, every group that has rows counted
    for (int g = 0; g < kGroups; ++g)
      locksOk = locksOk && glocks[g] == 0 && glocks[kGroups + g] == (g < M ? 1 : 0) &&
                locks[g] == 0 && locks[kGroups + g] == (g < M ? 1 : 0);
    gpu = written(gdx, paddingUntouched);
    const bool sameDx = std::memcmp(firstDx.data(), gdx.data(), n * sizeof(tl::half)) == 0;
    std::vector<double> lockDx;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        lockDx.push_back(static_cast<float>(ldx[size_t(i) * stride + j]));
    report.check("ln_bwd_lock", run + " dX", gpu, lockDx, fdx, 1e-3,
                 paddingUntouched && sameDx && lockDx == cdx);
    report.check("ln_bwd_lock", run + " dW", halves(gdw), halves(ldw), fdw, 1e-2, locksOk);
    report.check("ln_bwd_lock", run + " dB", halves(gdb), halves(ldb), fdb, 1e-2, locksOk);
  }
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {
      {1, 1}, {37, 100}, {300, 1000}, {4096, 1024}, {1000, 517}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {37, 100}, {300, 257}};
  for (auto [M, N] : cases)
    run(report, M, N);
  return report.exitCode();
}

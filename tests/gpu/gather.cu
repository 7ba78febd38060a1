// Runs tests/kernels/gather.cpp against the CPU reference of the same source and against each
// gather and flip computed here, all exact: indices drawn from [-3n, 3n) (n the source's size along
// the axis) are taken modulo n. Each launch runs twice into outputs poisoned with two patterns; the
// elements past the end must keep their pattern.
#include "check.h"
#include "gather.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <gather.hip>
#else
#include <gather.cu> // golden/gather/gather.cu (<>: not this file)
#endif

#include <random>

namespace {

using gpucheck::differing;

/// gather_2d over `blocks` blocks: rows of `m` (the last block ragged) and indices everywhere.
template <int BM, int BN, int BI, int BJ, int AXIS, class I, class Launch>
void gather(harness::Report &report, const char *name, int m, Launch launch) {
  const int blocks = tl::cdiv(m, BM);
  const int n = AXIS == 0 ? BM : BN;
  std::mt19937_64 rng(uint64_t(m) * 13 + AXIS);
  auto src = harness::randomFloats(size_t(blocks) * BM * BN, -1, 1, uint64_t(m) + 77);
  std::vector<I> index(size_t(blocks) * BI * BJ);
  for (auto &v : index)
    v = static_cast<I>(int64_t(rng() % (6 * n)) - 3 * n);
  std::vector<float> ref(index.size()), exact(index.size());
  tl::launch(tl::grid3{blocks}, gather_2d<BM, BN, BI, BJ, AXIS, I>, src.data(), index.data(),
             ref.data(), m);
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < BI; ++i)
      for (int j = 0; j < BJ; ++j) {
        const size_t p = (size_t(b) * BI + i) * BJ + j;
        const int k = int(((int64_t(index[p]) % n) + n) % n);
        const int row = AXIS == 0 ? k : i, col = AXIS == 0 ? j : k;
        exact[p] = b * BM + row < m ? src[(size_t(b) * BM + row) * BN + col] : 0.0f;
      }
  harness::DeviceBuffer<float> dsrc(src.size());
  harness::DeviceBuffer<I> didx(index.size());
  dsrc.upload(src.data());
  didx.upload(index.data());
  gpucheck::Output<float> out(index.size());
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch(dsrc.ptr, didx.ptr, out.dev.ptr, m));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  gpucheck::checkExact(report, name, std::to_string(m), out.vals.size(), differing(out.vals, ref),
                       differing(out.vals, exact), differing(ref, exact), out.ok());
}

void flipped(harness::Report &report, int n) {
  const int blocks = tl::cdiv(n, 512);
  auto xf = harness::randomFloats(n, -1, 1, uint64_t(n) * 3 + 1);
  std::vector<tl::half> x(n), rRev(n), eRev(n);
  for (int i = 0; i < n; ++i)
    x[i] = tl::half(xf[i]);
  std::mt19937_64 rng(uint64_t(n) + 5);
  std::vector<int32_t> y(size_t(blocks) * 32 * 16), rUd(y.size()), rLr(y.size()), eUd(y.size()),
      eLr(y.size());
  for (auto &v : y)
    v = static_cast<int32_t>(rng());
  tl::launch(tl::grid3{blocks}, ::flips<512, 32, 16>, x.data(), rRev.data(), y.data(), rUd.data(),
             rLr.data(), n);
  for (int b = 0; b < blocks; ++b) {
    const int lo = b * 512, hi = std::min(n, lo + 512);
    for (int i = lo; i < hi; ++i) // the masked-off tail of the block reads 0: a ragged block's
      eRev[i] = lo + 511 - (i - lo) < n ? x[lo + 511 - (i - lo)] : tl::half(0.0f); // values move
    for (int r = 0; r < 32; ++r)
      for (int c = 0; c < 16; ++c) {
        const size_t base = size_t(b) * 512;
        eUd[base + r * 16 + c] = y[base + (31 - r) * 16 + c];
        eLr[base + r * 16 + c] = y[base + r * 16 + (15 - c)];
      }
  }
  harness::DeviceBuffer<tl::half> dx(n);
  harness::DeviceBuffer<int32_t> dy(y.size());
  dx.upload(x.data());
  dy.upload(y.data());
  gpucheck::Output<tl::half> rev(n);
  gpucheck::Output<int32_t> ud(y.size()), lr(y.size());
  for (int byte : gpucheck::kPoison) {
    rev.poison(byte);
    ud.poison(byte);
    lr.poison(byte);
    CHECK_CUDA(launch_flips_512_32_16(cudaStream_t{}, reinterpret_cast<const __half *>(dx.ptr),
                                      rev.as<__half>(), dy.ptr, ud.dev.ptr, lr.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    rev.collect(byte);
    ud.collect(byte);
    lr.collect(byte);
  }
  const size_t count = size_t(n) + 2 * y.size();
  gpucheck::checkExact(
      report, "flips", std::to_string(n), count,
      differing(rev.vals, rRev) + differing(ud.vals, rUd) + differing(lr.vals, rLr),
      differing(rev.vals, eRev) + differing(ud.vals, eUd) + differing(lr.vals, eLr),
      differing(rRev, eRev) + differing(rUd, eUd) + differing(rLr, eLr),
      rev.ok() && ud.ok() && lr.ok());
}

/// histograms<BLOCK, BINS, T>: every block's counts, exact; values from [-8, BINS + 8).
template <int BLOCK, int BINS, class T, class Launch>
void histogramCase(harness::Report &report, const char *name, int n, Launch launch) {
  const int blocks = tl::cdiv(n, BLOCK);
  std::mt19937_64 rng(uint64_t(n) * 17 + BINS);
  std::vector<T> x(n);
  for (auto &v : x)
    v = static_cast<T>(int64_t(rng() % (BINS + 16)) - 8);
  std::vector<int32_t> ref(size_t(blocks) * BINS), exact(ref.size(), 0);
  tl::launch(tl::grid3{blocks}, histograms<BLOCK, BINS, T>, x.data(), ref.data(), n);
  for (int i = 0; i < n; ++i)
    if (x[i] >= 0 && x[i] < BINS)
      ++exact[size_t(i / BLOCK) * BINS + size_t(x[i])];
  harness::DeviceBuffer<T> dx(n);
  dx.upload(x.data());
  gpucheck::Output<int32_t> out(ref.size());
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch(dx.ptr, out.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  gpucheck::checkExact(report, name, std::to_string(n), ref.size(), differing(out.vals, ref),
                       differing(out.vals, exact), differing(ref, exact), out.ok());
}

void byteHistograms(harness::Report &report, int blocks) {
  std::mt19937_64 rng(uint64_t(blocks) * 3);
  std::vector<uint8_t> x(size_t(blocks) * 512);
  for (auto &v : x)
    v = static_cast<uint8_t>(rng() % 7 == 0 ? 255 : rng()); // one bin much fuller than the rest
  std::vector<int32_t> ref(size_t(blocks) * 256), exact(ref.size(), 0);
  tl::launch(tl::grid3{blocks}, byte_histograms, x.data(), ref.data(), blocks);
  for (size_t i = 0; i < x.size(); ++i)
    ++exact[i / 512 * 256 + x[i]];
  harness::DeviceBuffer<uint8_t> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<int32_t> out(ref.size());
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch_byte_histograms_instance(cudaStream_t{}, dx.ptr, out.dev.ptr, blocks));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  gpucheck::checkExact(report, "byte histo", std::to_string(blocks * 512), ref.size(),
                       differing(out.vals, ref), differing(out.vals, exact), differing(ref, exact),
                       out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037};
  if (!harness::smallRun(argc, argv))
    sizes.push_back(100000);
  for (int m : sizes) {
    gather<64, 32, 128, 32, 0, int32_t>(report, "gather rows", m, [](auto... a) {
      return launch_gather_2d_64_32_128_32_0_i32(cudaStream_t{}, a...);
    });
    gather<16, 64, 16, 32, 1, int64_t>(report, "gather cols", m, [](auto... a) {
      return launch_gather_2d_16_64_16_32_1_i64(cudaStream_t{}, a...);
    });
    flipped(report, m);
    histogramCase<1024, 64, int32_t>(report, "histogram", m, [](auto... a) {
      return launch_histograms_1024_64_i32(cudaStream_t{}, a...);
    });
    histogramCase<32, 16, int64_t>(report, "histo 32/16", m, [](auto... a) {
      return launch_histograms_32_16_i64(cudaStream_t{}, a...);
    });
    byteHistograms(report, std::max(1, m / 100));
  }
  return report.exitCode();
}

// The production benchmark's ports of Liger-Kernel (bench/production/liger.cpp) run by the emulator
// (tests/emu: the CUDA output, bench/gen/liger.cu, and the HIP output) or a GPU: every
// instantiation on a few fresh random rows, at a ragged width and at one where the launcher picks
// the aligned variant, against the CPU reference of the same source; outputs poisoned (in-place
// kernels: fresh inputs, and an element the reference changes must have changed). Their float64
// checks run on the GPU in bench/production/bench_liger.py at the benchmark's shapes.
#include "check.h"
#include "liger.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <liger.hip>
#else
#include <liger.cu>
#endif

#include <cstring>
#include <functional>
#include <random>

namespace {

using bf16 = tl::bfloat16;
using dbf16 = tilec::rt::bf16_t;

std::vector<bf16> randomBf16(size_t n, float lo, float hi, uint64_t seed) {
  auto f = harness::randomFloats(n, lo, hi, seed);
  std::vector<bf16> r(n);
  for (size_t i = 0; i < n; ++i)
    r[i] = bf16(f[i]);
  return r;
}
template <class T> std::vector<double> doubles(const std::vector<T> &v) {
  std::vector<double> r;
  for (const T &x : v)
    r.push_back(double(float(x)));
  return r;
}
template <class T> T *dev(harness::DeviceBuffer<T> &b) { return b.ptr; }
template <class D, class T> D *as(harness::DeviceBuffer<T> &b) { return reinterpret_cast<D *>(b.ptr); }

/// Runs `launch` on the device copies of `outs` (poisoned first, unless `inPlace`), downloads them
/// and compares each with the CPU reference's `refs`.
template <class T>
void compare(harness::Report &report, const std::string &name, const std::string &size,
             const std::vector<std::vector<T>> &refs, std::vector<harness::DeviceBuffer<T> *> outs,
             const std::vector<std::vector<T>> &before, double tol) {
  for (size_t o = 0; o < outs.size(); ++o) {
    std::vector<T> got(refs[o].size());
    outs[o]->download(got.data());
    bool written = true;
    if (!before.empty())
      for (size_t i = 0; i < got.size(); ++i)
        written = written && (std::memcmp(&refs[o][i], &before[o][i], sizeof(T)) == 0 ||
                              std::memcmp(&got[i], &before[o][i], sizeof(T)) != 0);
    auto g = doubles(got), r = doubles(refs[o]);
    report.check(name.c_str(), size + " out " + std::to_string(o), g, r, r, tol, written);
  }
}

void gatedRows(harness::Report &report, bool geglu, int n) {
  const int rows = 2;
  const size_t span = size_t(rows) * size_t(n);
  auto a = randomBf16(span, -3, 3, n + 1), b = randomBf16(span, -3, 3, n + 2), dc = randomBf16(span, -1, 1, n + 3);
  // forward
  std::vector<bf16> c(span);
  if (geglu)
    tl::launch(tl::grid3{rows}, geglu_fwd<16384, 16>, a.data(), b.data(), c.data(), int64_t(n), rows, n);
  else
    tl::launch(tl::grid3{rows}, swiglu_fwd<16384, 16>, a.data(), b.data(), c.data(), int64_t(n), 1.0f, rows, n);
  harness::DeviceBuffer<bf16> da(span), db(span), dcv(span), dout(span);
  da.upload(a.data());
  db.upload(b.data());
  dcv.upload(dc.data());
  dout.poison();
  if (geglu)
    CHECK_CUDA(launch_geglu_fwd_16384_16(cudaStream_t{}, as<dbf16>(da), as<dbf16>(db), as<dbf16>(dout), int64_t(n),
                                         rows, n));
  else
    CHECK_CUDA(launch_swiglu_fwd_16384_16(cudaStream_t{}, as<dbf16>(da), as<dbf16>(db), as<dbf16>(dout),
                                          int64_t(n), 1.0f, rows, n));
  CHECK_CUDA(cudaDeviceSynchronize());
  compare<bf16>(report, geglu ? "geglu_fwd" : "swiglu_fwd", std::to_string(rows) + "x" + std::to_string(n), {c},
                {&dout}, {}, 1e-2);
  // backward, in place
  std::vector<bf16> ra = a, rb = b;
  if (geglu)
    tl::launch(tl::grid3{rows}, geglu_bwd<16384, 16>, dc.data(), ra.data(), rb.data(), int64_t(n), rows, n);
  else
    tl::launch(tl::grid3{rows}, swiglu_bwd<16384, 16>, dc.data(), ra.data(), rb.data(), int64_t(n), 1.0f, rows, n);
  if (geglu)
    CHECK_CUDA(launch_geglu_bwd_16384_16(cudaStream_t{}, as<dbf16>(dcv), as<dbf16>(da), as<dbf16>(db), int64_t(n),
                                         rows, n));
  else
    CHECK_CUDA(launch_swiglu_bwd_16384_16(cudaStream_t{}, as<dbf16>(dcv), as<dbf16>(da), as<dbf16>(db),
                                          int64_t(n), 1.0f, rows, n));
  CHECK_CUDA(cudaDeviceSynchronize());
  compare<bf16>(report, geglu ? "geglu_bwd" : "swiglu_bwd", std::to_string(rows) + "x" + std::to_string(n),
                {ra, rb}, {&da, &db}, {a, b}, 1e-2);
}

void norms(harness::Report &report, int n) {
  const int rows = 3;
  const size_t span = size_t(rows) * size_t(n);
  auto x = randomBf16(span, -2, 2, n + 11), r = randomBf16(span, -2, 2, n + 12), w = randomBf16(size_t(n), 0.5, 1.5, n + 13),
       b = randomBf16(size_t(n), -0.5, 0.5, n + 14);
  const float eps = 1e-6f;
  const std::string size = std::to_string(rows) + "x" + std::to_string(n);
  const size_t width = size_t(n);
  harness::DeviceBuffer<bf16> dx(span), dr(span), dw(width), dbias(width), dy(span), ds(span), dmean(rows),
      drstdh(rows);
  harness::DeviceBuffer<float> drstd(rows);
  dx.upload(x.data());
  dr.upload(r.data());
  dw.upload(w.data());
  dbias.upload(b.data());
  // RMSNorm
  {
    std::vector<bf16> y(span);
    std::vector<float> rstd(rows);
    if (n <= 4096)
      tl::launch(tl::grid3{rows}, rms_norm_fwd<4096, 8>, y.data(), int64_t(n), x.data(), int64_t(n), w.data(),
                 rstd.data(), eps, 0.0f, rows, n);
    else
      tl::launch(tl::grid3{rows}, rms_norm_fwd<8192, 16>, y.data(), int64_t(n), x.data(), int64_t(n), w.data(),
                 rstd.data(), eps, 0.0f, rows, n);
    dy.poison();
    drstd.poison();
    if (n <= 4096)
      CHECK_CUDA(launch_rms_norm_fwd_4096_8(cudaStream_t{}, as<dbf16>(dy), int64_t(n), as<dbf16>(dx), int64_t(n),
                                            as<dbf16>(dw), dev(drstd), eps, 0.0f, rows, n));
    else
      CHECK_CUDA(launch_rms_norm_fwd_8192_16(cudaStream_t{}, as<dbf16>(dy), int64_t(n), as<dbf16>(dx), int64_t(n),
                                             as<dbf16>(dw), dev(drstd), eps, 0.0f, rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<bf16>(report, "rms_norm_fwd", size, {y}, {&dy}, {}, 1e-2);
    compare<float>(report, "rms_norm_fwd", size + " rstd", {rstd}, {&drstd}, {}, 1e-5);
  }
  // LayerNorm
  {
    std::vector<bf16> y(span), mean(rows), rstd(rows);
    if (n <= 4096)
      tl::launch(tl::grid3{rows}, layer_norm_fwd<4096, 8>, y.data(), int64_t(n), x.data(), int64_t(n), w.data(),
                 b.data(), mean.data(), rstd.data(), eps, rows, n);
    else
      tl::launch(tl::grid3{rows}, layer_norm_fwd<8192, 16>, y.data(), int64_t(n), x.data(), int64_t(n), w.data(),
                 b.data(), mean.data(), rstd.data(), eps, rows, n);
    dy.poison();
    dmean.poison();
    drstdh.poison();
    if (n <= 4096)
      CHECK_CUDA(launch_layer_norm_fwd_4096_8(cudaStream_t{}, as<dbf16>(dy), int64_t(n), as<dbf16>(dx), int64_t(n),
                                              as<dbf16>(dw), as<dbf16>(dbias), as<dbf16>(dmean), as<dbf16>(drstdh),
                                              eps, rows, n));
    else
      CHECK_CUDA(launch_layer_norm_fwd_8192_16(cudaStream_t{}, as<dbf16>(dy), int64_t(n), as<dbf16>(dx), int64_t(n),
                                               as<dbf16>(dw), as<dbf16>(dbias), as<dbf16>(dmean),
                                               as<dbf16>(drstdh), eps, rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<bf16>(report, "layer_norm_fwd", size, {y, mean, rstd}, {&dy, &dmean, &drstdh}, {}, 1e-2);
  }
  // fused add + RMSNorm
  {
    std::vector<bf16> y(span), s(span);
    std::vector<float> rstd(rows);
    if (n <= 4096)
      tl::launch(tl::grid3{rows}, add_rms_norm_fwd<4096, 8>, y.data(), s.data(), x.data(), r.data(), int64_t(n),
                 w.data(), rstd.data(), eps, 0.0f, rows, n);
    else
      tl::launch(tl::grid3{rows}, add_rms_norm_fwd<8192, 16>, y.data(), s.data(), x.data(), r.data(), int64_t(n),
                 w.data(), rstd.data(), eps, 0.0f, rows, n);
    dy.poison();
    ds.poison();
    drstd.poison();
    if (n <= 4096)
      CHECK_CUDA(launch_add_rms_norm_fwd_4096_8(cudaStream_t{}, as<dbf16>(dy), as<dbf16>(ds), as<dbf16>(dx),
                                                as<dbf16>(dr), int64_t(n), as<dbf16>(dw), dev(drstd), eps, 0.0f,
                                                rows, n));
    else
      CHECK_CUDA(launch_add_rms_norm_fwd_8192_16(cudaStream_t{}, as<dbf16>(dy), as<dbf16>(ds), as<dbf16>(dx),
                                                 as<dbf16>(dr), int64_t(n), as<dbf16>(dw), dev(drstd), eps, 0.0f,
                                                 rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<bf16>(report, "add_rms_norm_fwd", size, {y, s}, {&dy, &ds}, {}, 1e-2);
    compare<float>(report, "add_rms_norm_fwd", size + " rstd", {rstd}, {&drstd}, {}, 1e-5);
  }
  // DyT at one of its configurations, alpha 0.7
  {
    std::vector<bf16> alpha = {bf16(0.7f)}, y(span);
    harness::DeviceBuffer<bf16> dalpha(1);
    dalpha.upload(alpha.data());
    tl::launch(tl::grid3{tl::cdiv(n, 1024), rows}, dyt_fwd<1024, 4>, x.data(), y.data(), alpha.data(), w.data(),
               b.data(), rows, n);
    dy.poison();
    CHECK_CUDA(launch_dyt_fwd_1024_4(cudaStream_t{}, as<dbf16>(dx), as<dbf16>(dy), as<dbf16>(dalpha), as<dbf16>(dw),
                                     as<dbf16>(dbias), rows, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<bf16>(report, "dyt_fwd", size, {y}, {&dy}, {}, 1e-2);
  }
}

void divergences(harness::Report &report, int v) {
  const int rows = 2;
  const size_t span = size_t(rows) * size_t(v);
  // Log-probabilities: x - log(sum(exp(x))) per row.
  auto logSoftmax = [&](uint64_t seed) {
    auto f = harness::randomFloats(span, -3, 3, seed);
    for (int r = 0; r < rows; ++r) {
      double m = -INFINITY, s = 0;
      for (int c = 0; c < v; ++c)
        m = std::max(m, double(f[size_t(r) * v + c]));
      for (int c = 0; c < v; ++c)
        s += std::exp(double(f[size_t(r) * v + c]) - m);
      for (int c = 0; c < v; ++c)
        f[size_t(r) * v + c] = float(double(f[size_t(r) * v + c]) - m - std::log(s));
    }
    return f;
  };
  auto x = logSoftmax(v + 21), y = logSoftmax(v + 22);
  std::vector<float> t(span);
  for (size_t i = 0; i < span; ++i)
    t[i] = std::exp(y[i]);
  harness::DeviceBuffer<float> dx(span), dy(span), dt(span), dloss(span), ddx(span);
  dx.upload(x.data());
  dy.upload(y.data());
  dt.upload(t.data());
  const std::string size = std::to_string(rows) + "x" + std::to_string(v);
  {
    std::vector<float> loss(rows);
    tl::launch(tl::grid3{rows}, kldiv_fwd<16384, 16>, y.data(), int64_t(v), t.data(), int64_t(v), loss.data(), 1e-10f,
               rows, v);
    dloss.poison();
    CHECK_CUDA(launch_kldiv_fwd_16384_16(cudaStream_t{}, dev(dy), int64_t(v), dev(dt), int64_t(v), dev(dloss), 1e-10f,
                                         rows, v));
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> got(span);
    dloss.download(got.data());
    got.resize(rows);
    report.check("kldiv_fwd", size, doubles(got), doubles(loss), doubles(loss), 1e-5);
  }
  {
    std::vector<float> loss(span), dxr(span);
    tl::launch(tl::grid3{rows}, jsd_fwd<0.5f, 32768, 4>, x.data(), int64_t(v), y.data(), int64_t(v), loss.data(),
               int64_t(v), dxr.data(), int64_t(v), rows, rows, v);
    dloss.poison();
    ddx.poison();
    CHECK_CUDA(launch_jsd_fwd_0p5_32768_4(cudaStream_t{}, dev(dx), int64_t(v), dev(dy), int64_t(v), dev(dloss),
                                          int64_t(v), dev(ddx), int64_t(v), rows, rows, v));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<float>(report, "jsd_fwd", size, {loss, dxr}, {&dloss, &ddx}, {}, 1e-5);
  }
}

/// The embedding lookup: the forward gathers bf16 rows (a copy: exact), the backward adds fp32
/// gradient rows into a random grad_weight with atomics (ids repeat: a third of the tokens pick one of
/// three rows; the order of the additions is the GPU's, so within fp32 rounding of the CPU's).
void embeddings(harness::Report &report, int d) {
  const int v = 40, n = 150;
  std::vector<int64_t> ids(n);
  std::mt19937_64 rng(d);
  for (int i = 0; i < n; ++i)
    ids[i] = i % 3 == 0 ? int64_t(rng() % 3) : int64_t(rng() % v);
  const size_t tableN = size_t(v) * d, outN = size_t(n) * d;
  auto table = randomBf16(tableN, -2, 2, d + 31);
  auto go = harness::randomFloats(outN, -1, 1, d + 32), start = harness::randomFloats(tableN, -1, 1, d + 33);
  const std::string size = std::to_string(v) + "x" + std::to_string(d) + " n" + std::to_string(n);
  harness::DeviceBuffer<int64_t> dids(ids.size());
  dids.upload(ids.data());
  {
    std::vector<bf16> out(outN);
    tl::launch(tl::grid3{tl::cdiv(n, 128), tl::cdiv(d, 128)}, embedding_fwd<128, 128>, table.data(), ids.data(),
               out.data(), n, d);
    harness::DeviceBuffer<bf16> dtable(tableN), dout(outN);
    dtable.upload(table.data());
    dout.poison();
    CHECK_CUDA(launch_embedding_fwd_128_128(cudaStream_t{}, as<dbf16>(dtable), dev(dids), as<dbf16>(dout), n, d));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<bf16>(report, "embedding_fwd", size, {out}, {&dout}, {}, 0.0);
  }
  {
    std::vector<float> gw = start;
    tl::launch(tl::grid3{tl::cdiv(n, 128), tl::cdiv(d, 128)}, embedding_bwd<128, 128, float>,
               go.data(), gw.data(), ids.data(), n, d);
    harness::DeviceBuffer<float> dgo(outN), dgw(tableN);
    dgo.upload(go.data());
    dgw.upload(start.data());
    CHECK_CUDA(
        launch_embedding_bwd_128_128_f32(cudaStream_t{}, dev(dgo), dev(dgw), dev(dids), n, d));
    CHECK_CUDA(cudaDeviceSynchronize());
    compare<float>(report, "embedding_bwd", size, {gw}, {&dgw}, {start}, 1e-5);
  }
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  for (int n : {11001, 11008}) { // ragged; a multiple of 16 (the aligned variant)
    gatedRows(report, false, n);
    gatedRows(report, true, n);
  }
  for (int n : small ? std::vector<int>{4001, 4096} : std::vector<int>{4001, 4096, 8000, 8192})
    norms(report, n);
  for (int v : small ? std::vector<int>{20001} : std::vector<int>{20001, 32000})
    divergences(report, v);
  for (int d : small ? std::vector<int>{300, 256} : std::vector<int>{300, 256, 1027, 4096}) // ragged; aligned
    embeddings(report, d);
  return report.exitCode();
}

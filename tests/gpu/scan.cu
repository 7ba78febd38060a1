// Runs tests/kernels/scan.cpp against the CPU reference of the same source and against float64
// (integers: exactly, in wrapping 32-bit arithmetic): running sums and products along either axis,
// forward and reverse, at sizes that are not multiples of the blocks. Each launch runs twice into
// outputs poisoned with two patterns; the elements past the end must keep their pattern.
#include "check.h"
#include "scan.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <scan.hip>
#else
#include <scan.cu> // golden/scan/scan.cu (<>: not this file)
#endif

#include <random>

namespace {

/// The running sums of each of the m rows of n values x (rows `stride` apart), in double; the
/// result's rows are n apart.
std::vector<double> rowSumsExact(const std::vector<float> &x, int m, int n, int stride,
                                 bool reverse) {
  std::vector<double> y(size_t(m) * n);
  for (int r = 0; r < m; ++r) {
    double acc = 0;
    for (int k = 0; k < n; ++k) {
      const int c = reverse ? n - 1 - k : k;
      y[size_t(r) * n + c] = acc += x[size_t(r) * stride + c];
    }
  }
  return y;
}

/// One float case: `launch(dx, dy)` on the GPU, `reference(x, y)` through tl.hpp, the m x n
/// outputs compared with `exact`.
template <class Launch, class Reference>
void floatCase(harness::Report &report, const char *name, int m, int n, int stride,
               const std::vector<float> &x, const std::vector<double> &exact, double tol,
               Launch launch, Reference reference) {
  std::vector<float> ref(size_t(m) * n, NAN);
  reference(x.data(), ref.data());
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<float> y(size_t(m) * n);
  for (int byte : gpucheck::kPoison) {
    y.poison(byte);
    CHECK_CUDA(launch(dx.ptr, y.dev.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    y.collect(byte);
  }
  report.check(name, m == 1 ? std::to_string(n) : gpucheck::shape(m, n) + (stride != n ? "+" : ""),
               harness::toDoubles(y.vals), harness::toDoubles(ref), exact, tol, y.ok());
}

void oneD(harness::Report &report, int n) {
  auto x = harness::randomFloats(n, -1, 1, uint64_t(n) * 31 + 1);
  // The running sums restart at every block.
  auto blocks = [&](int block, bool reverse) {
    std::vector<double> y(n);
    for (int b = 0; b < n; b += block) {
      const int len = std::min(block, n - b);
      std::vector<float> part(x.begin() + b, x.begin() + b + len);
      auto s = rowSumsExact(part, 1, len, len, reverse);
      std::copy(s.begin(), s.end(), y.begin() + b);
    }
    return y;
  };
  floatCase(
      report, "cumsum 2048", 1, n, n, x, blocks(2048, false), 1e-5,
      [&](float *dx, float *dy) { return launch_cumsum_1d_2048_0(cudaStream_t{}, dx, dy, n); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(n, 2048)}, cumsum_1d<2048, false>, hx, hy, n);
      });
  floatCase(
      report, "cumsum r2048", 1, n, n, x, blocks(2048, true), 1e-5,
      [&](float *dx, float *dy) { return launch_cumsum_1d_2048_1(cudaStream_t{}, dx, dy, n); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(n, 2048)}, cumsum_1d<2048, true>, hx, hy, n);
      });
  floatCase(
      report, "cumsum 64", 1, n, n, x, blocks(64, false), 1e-5,
      [&](float *dx, float *dy) { return launch_cumsum_1d_64_0(cudaStream_t{}, dx, dy, n); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(n, 64)}, cumsum_1d<64, false>, hx, hy, n);
      });
  floatCase(
      report, "cumsum r256", 1, n, n, x, blocks(256, true), 1e-5,
      [&](float *dx, float *dy) { return launch_cumsum_1d_256_1(cudaStream_t{}, dx, dy, n); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(n, 256)}, cumsum_1d<256, true>, hx, hy, n);
      });
  // Products of factors near 1, in blocks of 1024.
  auto f = harness::randomFloats(n, 0.97f, 1.03f, uint64_t(n) * 17 + 5);
  std::vector<double> prods(n);
  for (int b = 0; b < n; b += 1024) {
    double acc = 1;
    for (int i = b; i < std::min(n, b + 1024); ++i)
      prods[i] = acc *= f[i];
  }
  floatCase(
      report, "cumprod", 1, n, n, f, prods, 1e-5,
      [&](float *dx, float *dy) { return launch_cumprod_1d_1024(cudaStream_t{}, dx, dy, n); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(n, 1024)}, cumprod_1d<1024>, hx, hy, n);
      });
}

/// int8 running sums in int32 and int32 running products (wrapping), in blocks of BLOCK.
template <int BLOCK, bool REVERSE, class Launch>
void ints(harness::Report &report, const char *name, int n, Launch launch) {
  std::mt19937_64 rng(uint64_t(n) * 7 + BLOCK + REVERSE);
  std::vector<int8_t> x(n);
  std::vector<int32_t> f(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<int8_t>(rng());
    f[i] = static_cast<int32_t>(rng() | 1);
  }
  std::vector<int32_t> refS(n, 7), refP(n, 7), exS(n), exP(n);
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, int_scans<BLOCK, REVERSE>, x.data(), f.data(),
             refS.data(), refP.data(), n);
  for (int b = 0; b < n; b += BLOCK) {
    const int len = std::min(BLOCK, n - b);
    int32_t s = 0;
    uint32_t p = 1;
    for (int k = 0; k < len; ++k) {
      const int i = b + (REVERSE ? len - 1 - k : k);
      exS[i] = s += x[i];
      p *= static_cast<uint32_t>(f[i]);
      exP[i] = static_cast<int32_t>(p);
    }
  }
  harness::DeviceBuffer<int8_t> dx(n);
  harness::DeviceBuffer<int32_t> df(n);
  dx.upload(x.data());
  df.upload(f.data());
  gpucheck::Output<int32_t> sums(n), prods(n);
  for (int byte : gpucheck::kPoison) {
    sums.poison(byte);
    prods.poison(byte);
    CHECK_CUDA(launch(dx.ptr, df.ptr, sums.dev.ptr, prods.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    sums.collect(byte);
    prods.collect(byte);
  }
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (int i = 0; i < n; ++i) {
    gpuVsRef += (sums.vals[i] != refS[i]) + (prods.vals[i] != refP[i]);
    gpuVsExact += (sums.vals[i] != exS[i]) + (prods.vals[i] != exP[i]);
    refVsExact += (refS[i] != exS[i]) + (refP[i] != exP[i]);
  }
  gpucheck::checkExact(report, name, std::to_string(n), size_t(2) * n, gpuVsRef, gpuVsExact,
                       refVsExact, sums.ok() && prods.ok());
}

template <int BM, int BN, int AXIS, bool REVERSE, class Launch>
void twoD(harness::Report &report, const char *name, int m, int n, Launch launch) {
  const int stride = n + 3;
  auto x = harness::randomFloats(size_t(m) * stride, -1, 1, uint64_t(m) * 1009 + n + AXIS);
  // Running sums restart at every block along the axis.
  std::vector<double> y(size_t(m) * n);
  const int block = AXIS == 1 ? BN : BM;
  const int outer = AXIS == 1 ? m : n, inner = AXIS == 1 ? n : m;
  for (int o = 0; o < outer; ++o)
    for (int b = 0; b < inner; b += block) {
      double acc = 0;
      const int len = std::min(block, inner - b);
      for (int k = 0; k < len; ++k) {
        const int i = b + (REVERSE ? len - 1 - k : k);
        const int r = AXIS == 1 ? o : i, c = AXIS == 1 ? i : o;
        y[size_t(r) * n + c] = acc += x[size_t(r) * stride + c];
      }
    }
  floatCase(
      report, name, m, n, stride, x, y, 1e-5,
      [&](float *dx, float *dy) { return launch(dx, dy, m, n, stride); },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(m, BM), tl::cdiv(n, BN)}, cumsum_2d<BM, BN, AXIS, REVERSE>,
                   hx, hy, m, n, stride);
      });
}

void rowSums(harness::Report &report, int m, int n) {
  const int stride = n + 5;
  auto x = harness::randomFloats(size_t(m) * stride, -1, 1, uint64_t(m) * 3 + n);
  std::vector<double> y(m);
  for (int b = 0; b < m; b += 64) {
    double acc = 0;
    for (int r = b; r < std::min(m, b + 64); ++r) {
      for (int c = 0; c < n; ++c)
        acc += x[size_t(r) * stride + c];
      y[r] = acc;
    }
  }
  floatCase(
      report, "row sums", 1, m, m, x, y, 1e-5,
      [&](float *dx, float *dy) {
        return launch_row_sums_cumsum_64_32(cudaStream_t{}, dx, dy, m, n, stride);
      },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{tl::cdiv(m, 64)}, row_sums_cumsum<64, 32>, hx, hy, m, n, stride);
      });
}

void looped(harness::Report &report, int m, int n) {
  const int stride = n + 1;
  auto x = harness::randomFloats(size_t(m) * stride, -1, 1, uint64_t(m) * 11 + n);
  floatCase(
      report, "cumsum loop", m, n, stride, x, rowSumsExact(x, m, n, stride, false), 1e-5,
      [&](float *dx, float *dy) {
        return launch_row_cumsum_looped_512(cudaStream_t{}, dx, dy, m, n, stride);
      },
      [&](const float *hx, float *hy) {
        tl::launch(tl::grid3{m}, row_cumsum_looped<512>, hx, hy, m, n, stride);
      });
}

/// Every float type's value as a double (halves through float).
template <class T> double asDouble(T v) {
  if constexpr (std::is_same_v<T, double>)
    return v;
  else
    return double(float(v));
}

/// typed_scans<T, S, P, 256>: sums (S) and products (P) both ways over blocks of 256; integers
/// exactly (wrapping), floats within `tol` of float64. `launch` takes the device pointers untyped
/// (the CUDA and HIP programs name the 16-bit float types differently).
template <class T, class S, class P, class Launch>
void typed(harness::Report &report, const char *name, int n, double tol, Launch launch) {
  constexpr int B = 256;
  std::mt19937_64 rng(uint64_t(n) * 5 + sizeof(T) * 17 + sizeof(S) + std::is_integral_v<T>);
  std::vector<T> x(n);
  for (auto &v : x) {
    if constexpr (std::is_integral_v<T>) {
      v = static_cast<T>(rng());
    } else { // factors near 1 or -1: the products neither vanish nor overflow
      const double m = 0.97 + 0.06 * double(rng() % 10000) / 10000.0;
      v = T(float(rng() % 2 ? m : -m));
    }
  }
  std::vector<S> rs(n), rrs(n);
  std::vector<P> rp(n), rrp(n);
  tl::launch(tl::grid3{tl::cdiv(n, B)}, typed_scans<T, S, P, B>, x.data(), rs.data(), rrs.data(),
             rp.data(), rrp.data(), n);
  // The exact results, in double for floats; integers wrap in S and P as the kernel's do.
  std::vector<double> es(n), ers(n), ep(n), erp(n);
  std::vector<S> is(n), irs(n);
  std::vector<P> ip(n), irp(n);
  for (int b = 0; b < n; b += B) {
    const int len = std::min(B, n - b);
    for (bool reverse : {false, true}) {
      double s = 0, p = 1;
      S si = 0;
      P pi = 1;
      for (int k = 0; k < len; ++k) {
        const int i = b + (reverse ? len - 1 - k : k);
        if constexpr (std::is_integral_v<T>) {
          si = static_cast<S>(static_cast<std::make_unsigned_t<S>>(si) +
                              static_cast<std::make_unsigned_t<S>>(static_cast<S>(x[i])));
          pi = static_cast<P>(static_cast<uint64_t>(pi) * static_cast<uint64_t>(x[i]));
          (reverse ? irs : is)[i] = si;
          (reverse ? irp : ip)[i] = pi;
        } else {
          s += asDouble(x[i]);
          p *= asDouble(x[i]);
          (reverse ? ers : es)[i] = s;
          (reverse ? erp : ep)[i] = p;
        }
      }
    }
  }
  harness::DeviceBuffer<T> dx(n);
  dx.upload(x.data());
  gpucheck::Output<S> sums(n), rsums(n);
  gpucheck::Output<P> prods(n), rprods(n);
  for (int byte : gpucheck::kPoison) {
    for (auto *o : {&sums, &rsums})
      o->poison(byte);
    for (auto *o : {&prods, &rprods})
      o->poison(byte);
    CHECK_CUDA(launch(dx.ptr, sums.dev.ptr, rsums.dev.ptr, prods.dev.ptr, rprods.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto *o : {&sums, &rsums})
      o->collect(byte);
    for (auto *o : {&prods, &rprods})
      o->collect(byte);
  }
  const bool ok = sums.ok() && rsums.ok() && prods.ok() && rprods.ok();
  if constexpr (std::is_integral_v<T>) {
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int i = 0; i < n; ++i) {
      gpuVsRef += (sums.vals[i] != rs[i]) + (rsums.vals[i] != rrs[i]) + (prods.vals[i] != rp[i]) +
                  (rprods.vals[i] != rrp[i]);
      gpuVsExact += (sums.vals[i] != is[i]) + (rsums.vals[i] != irs[i]) + (prods.vals[i] != ip[i]) +
                    (rprods.vals[i] != irp[i]);
      refVsExact += (rs[i] != is[i]) + (rrs[i] != irs[i]) + (rp[i] != ip[i]) + (rrp[i] != irp[i]);
    }
    gpucheck::checkExact(report, name, std::to_string(n), size_t(4) * n, gpuVsRef, gpuVsExact,
                         refVsExact, ok);
  } else {
    std::vector<double> gpu, ref, exact;
    auto add = [&](const auto &g, const auto &r, const std::vector<double> &e) {
      for (int i = 0; i < n; ++i) {
        gpu.push_back(asDouble(g[i]));
        ref.push_back(asDouble(r[i]));
        exact.push_back(e[i]);
      }
    };
    add(sums.vals, rs, es);
    add(rsums.vals, rrs, ers);
    add(prods.vals, rp, ep);
    add(rprods.vals, rrp, erp);
    report.check(name, std::to_string(n), gpu, ref, exact, tol, ok);
  }
}

/// bool: running counts of the positive values, in blocks of 1024.
void counts(harness::Report &report, int n) {
  auto x = harness::randomFloats(n, -1, 1, uint64_t(n) * 13 + 2);
  std::vector<int32_t> ref(n), exact(n);
  tl::launch(tl::grid3{tl::cdiv(n, 1024)}, count_positive<1024>, x.data(), ref.data(), n);
  for (int b = 0; b < n; b += 1024) {
    int32_t c = 0;
    for (int i = b; i < std::min(n, b + 1024); ++i)
      exact[i] = c += x[i] > 0;
  }
  harness::DeviceBuffer<float> dx(n);
  dx.upload(x.data());
  gpucheck::Output<int32_t> got(n);
  for (int byte : gpucheck::kPoison) {
    got.poison(byte);
    CHECK_CUDA(launch_count_positive_1024(cudaStream_t{}, dx.ptr, got.dev.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    got.collect(byte);
  }
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (int i = 0; i < n; ++i) {
    gpuVsRef += got.vals[i] != ref[i];
    gpuVsExact += got.vals[i] != exact[i];
    refVsExact += ref[i] != exact[i];
  }
  gpucheck::checkExact(report, "bool counts", std::to_string(n), size_t(n), gpuVsRef, gpuVsExact,
                       refVsExact, got.ok());
}

/// combine_1d<1024>: running maxima both ways, the blocks' maxima, the forward fill of the values
/// above 0.5 and fp16 running maxima, all exact.
void combine1D(harness::Report &report, int n) {
  constexpr int B = 1024;
  const int blocks = tl::cdiv(n, B);
  auto x = harness::randomFloats(n, -1, 1, uint64_t(n) * 23 + 9);
  std::vector<float> rMax(n), rRmax(n), rBlock(blocks), rFill(n);
  std::vector<tl::half> rHalf(n);
  tl::launch(tl::grid3{blocks}, combine_1d<B>, x.data(), rMax.data(), rRmax.data(), rBlock.data(),
             rFill.data(), rHalf.data(), n);
  std::vector<double> eMax(n), eRmax(n), eBlock(blocks), eFill(n), eHalf(n);
  for (int b = 0; b < blocks; ++b) {
    const int lo = b * B, hi = std::min(n, lo + B);
    float m = -INFINITY, fill = 0.0f;
    float hm = -INFINITY;
    for (int i = lo; i < hi; ++i) {
      eMax[i] = m = std::max(m, x[i]);
      eFill[i] = fill = x[i] > 0.5f ? x[i] : fill;
      eHalf[i] = hm = std::max(hm, float(tl::half(x[i])));
    }
    eBlock[b] = m;
    m = -INFINITY;
    for (int i = hi - 1; i >= lo; --i)
      eRmax[i] = m = std::max(m, x[i]);
  }
  harness::DeviceBuffer<float> dx(n);
  dx.upload(x.data());
  gpucheck::Output<float> gMax(n), gRmax(n), gBlock(blocks), gFill(n);
  gpucheck::Output<tl::half> gHalf(n);
  for (int byte : gpucheck::kPoison) {
    for (auto *o : {&gMax, &gRmax, &gBlock, &gFill})
      o->poison(byte);
    gHalf.poison(byte);
    CHECK_CUDA(launch_combine_1d_1024(cudaStream_t{}, dx.ptr, gMax.dev.ptr, gRmax.dev.ptr,
                                      gBlock.dev.ptr, gFill.dev.ptr, gHalf.as<__half>(), n));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto *o : {&gMax, &gRmax, &gBlock, &gFill})
      o->collect(byte);
    gHalf.collect(byte);
  }
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0, count = 0;
  auto add = [&](const auto &gpu, const auto &ref, const std::vector<double> &exact) {
    for (size_t i = 0; i < exact.size(); ++i) {
      const double g = double(float(gpu[i])), r = double(float(ref[i]));
      gpuVsRef += !gpucheck::same(g, r);
      gpuVsExact += !gpucheck::same(g, exact[i]);
      refVsExact += !gpucheck::same(r, exact[i]);
      ++count;
    }
  };
  add(gMax.vals, rMax, eMax);
  add(gRmax.vals, rRmax, eRmax);
  add(gBlock.vals, rBlock, eBlock);
  add(gFill.vals, rFill, eFill);
  add(gHalf.vals, rHalf, eHalf);
  gpucheck::checkExact(report, "combine 1d", std::to_string(n), count, gpuVsRef, gpuVsExact,
                       refVsExact,
                       gMax.ok() && gRmax.ok() && gBlock.ok() && gFill.ok() && gHalf.ok());
}

/// combine_2d<64, 32>: the backward fill of each column within blocks of 64 rows, and each row's
/// xor, of int32 values most of which are 0; exact.
void combine2D(harness::Report &report, int m, int n) {
  std::mt19937_64 rng(uint64_t(m) * 41 + n);
  std::vector<int32_t> x(size_t(m) * n);
  for (auto &v : x)
    v = rng() % 10 < 7 ? 0 : static_cast<int32_t>(rng());
  std::vector<int32_t> rFill(x.size()), rXor(m), eFill(x.size()), eXor(m, 0);
  tl::launch(tl::grid3{tl::cdiv(m, 64)}, combine_2d<64, 32>, x.data(), rFill.data(), rXor.data(), m,
             n);
  for (int c = 0; c < n; ++c)
    for (int b = 0; b < m; b += 64) {
      int32_t fill = 0;
      for (int r = std::min(m, b + 64) - 1; r >= b; --r)
        eFill[size_t(r) * n + c] = fill = x[size_t(r) * n + c] != 0 ? x[size_t(r) * n + c] : fill;
    }
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c)
      eXor[r] ^= x[size_t(r) * n + c];
  harness::DeviceBuffer<int32_t> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<int32_t> gFill(x.size()), gXor(m);
  for (int byte : gpucheck::kPoison) {
    gFill.poison(byte);
    gXor.poison(byte);
    CHECK_CUDA(launch_combine_2d_64_32(cudaStream_t{}, dx.ptr, gFill.dev.ptr, gXor.dev.ptr, m, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    gFill.collect(byte);
    gXor.collect(byte);
  }
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    gpuVsRef += gFill.vals[i] != rFill[i];
    gpuVsExact += gFill.vals[i] != eFill[i];
    refVsExact += rFill[i] != eFill[i];
  }
  for (int r = 0; r < m; ++r) {
    gpuVsRef += gXor.vals[r] != rXor[r];
    gpuVsExact += gXor.vals[r] != eXor[r];
    refVsExact += rXor[r] != eXor[r];
  }
  gpucheck::checkExact(report, "combine 2d", gpucheck::shape(m, n), x.size() + size_t(m), gpuVsRef,
                       gpuVsExact, refVsExact, gFill.ok() && gXor.ok());
}

// The launcher of typed_scans<T, S, P, 256> called with untyped device pointers.
#define TYPED_LAUNCH(SUFFIX, T, S, P)                                                              \
  [](void *x, void *s, void *rs, void *p, void *rp, int n) {                                       \
    return launch_typed_scans_##SUFFIX##_256(cudaStream_t{}, static_cast<const T *>(x),            \
                                             static_cast<S *>(s), static_cast<S *>(rs),            \
                                             static_cast<P *>(p), static_cast<P *>(rp), n);        \
  }

void allTypes(harness::Report &report, int n) {
  typed<int8_t, int32_t, int8_t>(report, "scans i8", n, 0,
                                 TYPED_LAUNCH(i8_i32_i8, int8_t, int, int8_t));
  typed<int16_t, int32_t, int16_t>(report, "scans i16", n, 0,
                                   TYPED_LAUNCH(i16_i32_i16, int16_t, int, int16_t));
  typed<int32_t, int32_t, int32_t>(report, "scans i32", n, 0,
                                   TYPED_LAUNCH(i32_i32_i32, int, int, int));
  typed<int64_t, int64_t, int64_t>(report, "scans i64", n, 0,
                                   TYPED_LAUNCH(i64_i64_i64, int64_t, int64_t, int64_t));
  typed<uint8_t, uint32_t, uint8_t>(report, "scans u8", n, 0,
                                    TYPED_LAUNCH(u8_u32_u8, uint8_t, uint32_t, uint8_t));
  typed<uint16_t, uint32_t, uint16_t>(report, "scans u16", n, 0,
                                      TYPED_LAUNCH(u16_u32_u16, uint16_t, uint32_t, uint16_t));
  typed<uint32_t, uint32_t, uint32_t>(report, "scans u32", n, 0,
                                      TYPED_LAUNCH(u32_u32_u32, uint32_t, uint32_t, uint32_t));
  typed<uint64_t, uint64_t, uint64_t>(report, "scans u64", n, 0,
                                      TYPED_LAUNCH(u64_u64_u64, uint64_t, uint64_t, uint64_t));
  // fp16 rounds after every addition and product, in an order of its own on each side.
  typed<tl::half, tl::half, tl::half>(report, "scans f16", n, 1e-2,
                                      TYPED_LAUNCH(f16_f16_f16, __half, __half, __half));
  typed<tl::bfloat16, float, float>(report, "scans bf16", n, 1e-5,
                                    TYPED_LAUNCH(bf16_f32_f32, __nv_bfloat16, float, float));
  typed<float, float, float>(report, "scans f32", n, 1e-5,
                             TYPED_LAUNCH(f32_f32_f32, float, float, float));
  typed<double, double, double>(report, "scans f64", n, 1e-12,
                                TYPED_LAUNCH(f64_f64_f64, double, double, double));
  counts(report, n);
}
#undef TYPED_LAUNCH

/// dot_cumsum<64, 64, 32>: the running sums along each row of a (m x 32, fp16) times b (32 x 64).
void dotCumsum(harness::Report &report, int m) {
  auto af = harness::randomFloats(size_t(m) * 32, -1, 1, uint64_t(m) * 5 + 3);
  auto bf = harness::randomFloats(32 * 64, -1, 1, 99);
  std::vector<tl::half> a(af.size()), b(bf.size());
  for (size_t i = 0; i < af.size(); ++i)
    a[i] = tl::half(af[i]);
  for (size_t i = 0; i < bf.size(); ++i)
    b[i] = tl::half(bf[i]);
  std::vector<float> ref(size_t(m) * 64, NAN);
  tl::launch(tl::grid3{tl::cdiv(m, 64)}, dot_cumsum<64, 64, 32>, a.data(), b.data(), ref.data(), m);
  std::vector<double> exact(ref.size());
  for (int r = 0; r < m; ++r) {
    double acc = 0;
    for (int c = 0; c < 64; ++c) {
      double d = 0;
      for (int k = 0; k < 32; ++k)
        d += double(float(a[size_t(r) * 32 + k])) * double(float(b[size_t(k) * 64 + c]));
      exact[size_t(r) * 64 + c] = acc += d;
    }
  }
  harness::DeviceBuffer<tl::half> da(a.size()), db(b.size());
  da.upload(a.data());
  db.upload(b.data());
  gpucheck::Output<float> out(ref.size());
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    CHECK_CUDA(launch_dot_cumsum_64_64_32(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                          reinterpret_cast<const __half *>(db.ptr), out.dev.ptr,
                                          m));
    CHECK_CUDA(cudaDeviceSynchronize());
    out.collect(byte);
  }
  report.check("dot cumsum", std::to_string(m) + "x64", harness::toDoubles(out.vals),
               harness::toDoubles(ref), exact, 1e-5, out.ok());
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  const bool small = harness::smallRun(argc, argv);
  std::vector<int> sizes = {1, 300, 1037, 5000};
  if (!small)
    sizes.push_back(1 << 20);
  for (int n : sizes) {
    oneD(report, n);
    allTypes(report, n);
    combine1D(report, n);
    ints<512, false>(report, "int scans", n,
                     [](const int8_t *x, const int32_t *f, int32_t *s, int32_t *p, int n) {
                       return launch_int_scans_512_0(cudaStream_t{}, x, f, s, p, n);
                     });
    ints<128, true>(report, "int scans r", n,
                    [](const int8_t *x, const int32_t *f, int32_t *s, int32_t *p, int n) {
                      return launch_int_scans_128_1(cudaStream_t{}, x, f, s, p, n);
                    });
  }
  std::vector<std::pair<int, int>> shapes = {{1, 1}, {37, 1100}, {300, 45}};
  if (!small)
    shapes.push_back({2000, 3000});
  for (auto [m, n] : shapes) {
    twoD<4, 1024, 1, false>(report, "rows 4x1024", m, n, [](auto... a) {
      return launch_cumsum_2d_4_1024_1_0(cudaStream_t{}, a...);
    });
    twoD<16, 64, 1, true>(report, "rows r16x64", m, n, [](auto... a) {
      return launch_cumsum_2d_16_64_1_1(cudaStream_t{}, a...);
    });
    twoD<256, 16, 0, false>(report, "cols 256x16", m, n, [](auto... a) {
      return launch_cumsum_2d_256_16_0_0(cudaStream_t{}, a...);
    });
    twoD<32, 32, 0, true>(report, "cols r32x32", m, n, [](auto... a) {
      return launch_cumsum_2d_32_32_0_1(cudaStream_t{}, a...);
    });
    rowSums(report, m, std::min(n, 32));
    combine2D(report, m, std::min(n, 32));
    dotCumsum(report, m);
    looped(report, m, n);
  }
  return report.exitCode();
}

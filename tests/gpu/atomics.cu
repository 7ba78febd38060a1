// Runs tests/kernels/atomics.cpp against the CPU reference of the same source and against each
// operation computed here: every tl::atomic_* on int32, uint32, int64, uint64, float and double
// (and atomic_add on fp16 and bf16, contended too) at one address per element (old values and
// memory after, bit for bit, masked-off elements untouched), and the contended column sum over
// programs (counts exact, sums within 1e-5 of float64: the GPU adds in any order) and histogram
// (many updates a bin, exact), and scalar atomics that keep their old values (tickets: each
// program's ticket, a masked scalar add, a tile's old values in an expression, a count under a
// spin lock; all exact). Each launch runs twice from the same memory, the old values' buffer
// poisoned with two patterns; the elements past the end must keep their pattern.
#include "atomics.cpp"
#include "check.h"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <atomics.hip>
#else
#include <atomics.cu> // golden/atomics/atomics.cu (<>: not this file)
#endif

#include <cstring>
#include <random>

namespace {

/// Never 0 (atomic_each's lanes past the end compare 0 with the last element).
template <class T> T draw(std::mt19937_64 &rng) {
  if constexpr (std::is_floating_point_v<T>)
    return T(std::uniform_int_distribution<int>(1, 2000)(rng) - 1001) / T(8) +
           T(0.0625); // exact sums
  else
    return static_cast<T>(rng() | 1);
}
template <class T> uint64_t bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

/// The memory after operation k and the old value, for one element.
template <class T> std::pair<T, T> exact(int k, T m, T v, T c) {
  auto fmaxLike = [](T a, T b) { return b > a ? b : a; }; // no NaN here
  auto fminLike = [](T a, T b) { return b < a ? b : a; };
  switch (k) {
  case 0:
    if constexpr (std::is_integral_v<T>)
      return {static_cast<T>(static_cast<std::make_unsigned_t<T>>(m) +
                             static_cast<std::make_unsigned_t<T>>(v)),
              m};
    else
      return {m + v, m};
  case 1:
    return {fmaxLike(m, v), m};
  case 2:
    return {fminLike(m, v), m};
  case 3:
    return {v, m};
  case 4:
    return {bits(m) == bits(c) ? v : m, m};
  default:
    if constexpr (std::is_integral_v<T>) {
      if (k == 5)
        return {static_cast<T>(m & v), m};
      if (k == 6)
        return {static_cast<T>(m | v), m};
      return {static_cast<T>(m ^ v), m};
    }
    return {m, m};
  }
}

template <class T, int BLOCK = 128, class Launch>
void each(harness::Report &report, const char *name, int n, Launch launch) {
  constexpr int ops = std::is_integral_v<T> ? 8 : 5;
  std::mt19937_64 rng(uint64_t(n) * 977 + sizeof(T) * 3 + std::is_integral_v<T>);
  std::vector<T> mem0(size_t(8) * n), v(n), cmp(n);
  for (auto &x : mem0)
    x = draw<T>(rng);
  for (int i = 0; i < n; ++i) {
    v[i] = draw<T>(rng);
    cmp[i] = i % 2 ? mem0[size_t(4) * n + i] : draw<T>(rng); // odd elements are swapped
  }
  std::vector<T> refMem = mem0, refOld(size_t(8) * n, T(7));
  tl::launch(tl::grid3{tl::cdiv(n, BLOCK)}, atomic_each<T, BLOCK>, refMem.data(), refOld.data(),
             v.data(), cmp.data(), n);

  harness::DeviceBuffer<T> dmem(size_t(8) * n), dv(n), dcmp(n);
  dv.upload(v.data());
  dcmp.upload(cmp.data());
  gpucheck::Output<T> old(size_t(std::is_integral_v<T> ? 7 : 5) * n); // the old values kept
  std::vector<T> gotMem(size_t(8) * n);
  bool memStable = true;
  for (int byte : gpucheck::kPoison) {
    dmem.upload(mem0.data());
    old.poison(byte);
    CHECK_CUDA(launch(dmem.ptr, old.dev.ptr, dv.ptr, dcmp.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    old.collect(byte);
    std::vector<T> m(size_t(8) * n);
    dmem.download(m.data());
    if (byte == gpucheck::kPoison[0])
      gotMem = m;
    else
      memStable = memStable && std::memcmp(m.data(), gotMem.data(), m.size() * sizeof(T)) == 0;
  }
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0, count = 0;
  for (int k = 0; k < ops; ++k)
    for (int i = 0; i < n; ++i) {
      const size_t j = size_t(k) * n + i;
      auto [m, o] = exact<T>(k, mem0[j], v[i], cmp[i]);
      gpuVsRef += bits(gotMem[j]) != bits(refMem[j]);
      gpuVsExact += bits(gotMem[j]) != bits(m);
      refVsExact += bits(refMem[j]) != bits(m);
      ++count;
      if (k == 7)
        continue; // atomic_xor keeps no old values
      // Old values: the stored ones (poison there if the kernel failed to store).
      gpuVsRef += bits(old.vals[j]) != bits(refOld[j]);
      gpuVsExact += bits(old.vals[j]) != bits(o);
      refVsExact += bits(refOld[j]) != bits(o);
      ++count;
    }
  gpucheck::checkExact(report, name, std::to_string(n), count, gpuVsRef, gpuVsExact, refVsExact,
                       old.ok() && memStable);
}

void columns(harness::Report &report, int rows, int cols) {
  const int stride = cols + 3;
  auto x = harness::randomFloats(size_t(rows) * stride, -1, 1, uint64_t(rows) * 131 + cols);
  std::vector<float> refSums(cols, 0.0f);
  std::vector<int> refCounts(cols, 0);
  tl::launch(tl::grid3{tl::cdiv(rows, 32)}, column_sums<32, 64>, x.data(), refSums.data(),
             refCounts.data(), rows, cols, stride);
  harness::DeviceBuffer<float> dx(x.size()), dsums(cols + gpucheck::kGuard);
  harness::DeviceBuffer<int> dcounts(cols + gpucheck::kGuard);
  dx.upload(x.data());
  std::vector<float> sums(cols + gpucheck::kGuard), s0(cols + gpucheck::kGuard, 0.0f);
  std::vector<int> counts(cols + gpucheck::kGuard), c0(cols + gpucheck::kGuard, 0);
  for (size_t g = cols; g < s0.size(); ++g)
    s0[g] = -1.5f, c0[g] = -7; // past the end: must stay
  dsums.upload(s0.data());
  dcounts.upload(c0.data());
  CHECK_CUDA(
      launch_column_sums_32_64(cudaStream_t{}, dx.ptr, dsums.ptr, dcounts.ptr, rows, cols, stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  dsums.download(sums.data());
  dcounts.download(counts.data());
  bool guards = true;
  for (size_t g = cols; g < s0.size(); ++g)
    guards = guards && sums[g] == -1.5f && counts[g] == -7;
  std::vector<double> gs, cs, fs;
  size_t countBad = 0, refCountBad = 0;
  for (int c = 0; c < cols; ++c) {
    double f = 0;
    for (int r = 0; r < rows; ++r)
      f += x[size_t(r) * stride + c];
    gs.push_back(sums[c]), cs.push_back(refSums[c]), fs.push_back(f);
    countBad += counts[c] != rows;
    refCountBad += refCounts[c] != rows;
  }
  const std::string shape = gpucheck::shape(rows, cols);
  report.check("column sums", shape, gs, cs, fs, 1e-5, guards);
  gpucheck::checkExact(report, "column rows", shape, size_t(cols), countBad, countBad, refCountBad,
                       guards);
}

/// tickets<128> over n elements: the tickets are 0 .. programs - 1 in some order, the masked add
/// returns 0 to even programs and sums the odd ids, every slot is exchanged for its index plus
/// its program's old value of that add (the slot's old value plus one kept), the lock is free at
/// the end and the count under it is exact. The CPU reference runs the programs in order: its
/// tickets are the ids.
void ticketRun(harness::Report &report, int n) {
  const int programs = tl::cdiv(n, 128);
  std::mt19937_64 rng(uint64_t(n) * 13);
  std::vector<int> slots0(n + gpucheck::kGuard), state0 = {0, 5, 0, 7};
  for (auto &v : slots0)
    v = int(rng() % 100000) - 50000;
  // The CPU reference.
  std::vector<int> rstate = state0, rtickets(2 * programs, -1), rslots = slots0,
                   rold(n + gpucheck::kGuard, -3);
  tl::launch(tl::grid3{programs}, tickets<128>, rstate.data(), rtickets.data(), rslots.data(),
             rold.data(), n);
  // What every order gives.
  int64_t oddSum = 5;
  for (int p = 1; p < programs; p += 2)
    oddSum += p;
  auto check = [&](const std::vector<int> &state, const std::vector<int> &t,
                   const std::vector<int> &sl, const std::vector<int> &old) {
    size_t bad = 0;
    std::vector<int> seen(programs, 0);
    for (int p = 0; p < programs; ++p) {
      const int ticket = t[2 * p];
      bad += ticket < 0 || ticket >= programs || seen[ticket]++;
      bad += p % 2 == 0 ? t[2 * p + 1] != 0 : t[2 * p + 1] < 5;
    }
    for (int i = 0; i < n; ++i)
      bad += sl[i] != i + t[2 * (i / 128) + 1] || old[i] != slots0[i] + 1;
    for (size_t g = n; g < sl.size(); ++g) // past the end: untouched
      bad += sl[g] != slots0[g] || old[g] != -3;
    bad += state[0] != programs || state[1] != oddSum || state[2] != 0 || state[3] != 7 + programs;
    return bad;
  };
  size_t refBad = check(rstate, rtickets, rslots, rold);
  for (int p = 0; p < programs; ++p) // in order: the tickets are the ids
    refBad += rtickets[2 * p] != p;
  harness::DeviceBuffer<int> dstate(4), dtickets(2 * programs), dslots(slots0.size()),
      dold(slots0.size());
  const std::vector<int> old0(slots0.size(), -3);
  std::vector<int> state(4), t(2 * programs), sl(slots0.size()), old(slots0.size());
  for (int pass = 0; pass < 2; ++pass) {
    dstate.upload(state0.data());
    dslots.upload(slots0.data());
    dold.upload(old0.data());
    dtickets.poison();
    CHECK_CUDA(
        launch_tickets_128(cudaStream_t{}, dstate.ptr, dtickets.ptr, dslots.ptr, dold.ptr, n));
    CHECK_CUDA(cudaDeviceSynchronize());
    dstate.download(state.data());
    dtickets.download(t.data());
    dslots.download(sl.data());
    dold.download(old.data());
    const size_t bad = check(state, t, sl, old);
    gpucheck::checkExact(report, "tickets", std::to_string(n) + (pass ? " again" : ""), size_t(n),
                         bad, bad, 0, refBad == 0);
  }
}

void histogramRun(harness::Report &report, int n, int bins, bool ordered) {
  std::mt19937_64 rng(uint64_t(n) * 7 + bins);
  std::vector<int> x(n), ref(bins, 0), exact(bins, 0);
  for (auto &v : x)
    v = int(rng() % 100000);
  for (int v : x)
    ++exact[v % bins];
  tl::launch(tl::grid3{tl::cdiv(n, 256)}, histogram<256>, x.data(), ref.data(), n, bins);
  harness::DeviceBuffer<int> dx(n), dh(bins + gpucheck::kGuard);
  dx.upload(x.data());
  std::vector<int> h0(bins + gpucheck::kGuard, 0), h(bins + gpucheck::kGuard);
  for (size_t g = bins; g < h0.size(); ++g)
    h0[g] = -7;
  dh.upload(h0.data());
  CHECK_CUDA(ordered ? launch_histogram_256_acq_rel(cudaStream_t{}, dx.ptr, dh.ptr, n, bins)
                     : launch_histogram_256_relaxed(cudaStream_t{}, dx.ptr, dh.ptr, n, bins));
  CHECK_CUDA(cudaDeviceSynchronize());
  dh.download(h.data());
  bool guards = true;
  for (size_t g = bins; g < h.size(); ++g)
    guards = guards && h[g] == -7;
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (int b = 0; b < bins; ++b) {
    gpuVsRef += h[b] != ref[b];
    gpuVsExact += h[b] != exact[b];
    refVsExact += ref[b] != exact[b];
  }
  gpucheck::checkExact(report, ordered ? "histo acq_rel" : "histogram",
                       std::to_string(n) + " b=" + std::to_string(bins), size_t(bins), gpuVsRef,
                       gpuVsExact, refVsExact, guards);
}

/// atomic_add16<T, 128> (D: the device type, __half or __nv_bfloat16): the per-element adds' sums
/// and old values bit for bit against the float sum rounded by CUDA's host conversion; the
/// contended bins exact too: the values are multiples of 1/8 of magnitude at most 1 and a bin takes
/// at most `perBin` of them, so every partial sum is exact in T whatever order the GPU adds in.
template <class T, class D, class Launch>
void add16(harness::Report &report, const char *name, int n, int perBin, float (*toFloat)(D),
           D (*round)(float), Launch launch) {
  std::mt19937_64 rng(uint64_t(n) * 31 + sizeof(D) + perBin);
  auto eighths = [&] { // +-1/8 .. +-1
    return float(int(rng() % 8) + 1) / 8 * (rng() & 1 ? -1.0f : 1.0f);
  };
  auto toT = [&](float f) {
    const D d = round(f);
    T t;
    std::memcpy(static_cast<void *>(&t), &d, 2);
    return t;
  };
  auto value = [&](T t) {
    D d;
    std::memcpy(static_cast<void *>(&d), &t, 2);
    return toFloat(d);
  };
  const int nbins = std::max(1, (n + perBin - 1) / perBin);
  std::vector<T> mem0(n), v(n), bins0(nbins + gpucheck::kGuard);
  for (int i = 0; i < n; ++i) // memory of any magnitude: the per-element sums round
    mem0[i] = toT(std::ldexp(eighths(), int(rng() % 20)) * 1.37f), v[i] = toT(eighths());
  for (auto &b : bins0)
    b = toT(0.5f); // past nbins: must stay
  std::vector<T> refMem = mem0, refOld(n), refBins = bins0;
  tl::launch(tl::grid3{tl::cdiv(n, 128)}, atomic_add16<T, 128>, refMem.data(), refOld.data(),
             refBins.data(), v.data(), n, nbins);
  harness::DeviceBuffer<T> dmem(n), dbins(bins0.size()), dv(n);
  dv.upload(v.data());
  gpucheck::Output<uint16_t> old(n);
  std::vector<T> gotMem(n), gotBins(bins0.size());
  bool stable = true;
  for (int byte : gpucheck::kPoison) {
    dmem.upload(mem0.data());
    dbins.upload(bins0.data());
    old.poison(byte);
    CHECK_CUDA(launch(reinterpret_cast<D *>(dmem.ptr), old.as<D>(),
                      reinterpret_cast<D *>(dbins.ptr), reinterpret_cast<const D *>(dv.ptr), n,
                      nbins));
    CHECK_CUDA(cudaDeviceSynchronize());
    old.collect(byte);
    std::vector<T> m(n), b(bins0.size());
    dmem.download(m.data());
    dbins.download(b.data());
    if (byte == gpucheck::kPoison[0])
      gotMem = m, gotBins = b;
    else
      stable =
          stable && gpucheck::differing(m, gotMem) == 0 && gpucheck::differing(b, gotBins) == 0;
  }
  std::vector<double> binSums(nbins, 0.5);
  for (int i = 0; i < n; ++i)
    binSums[i % nbins] += value(v[i]);
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  auto tally = [&](T gpu, T ref, T exact) {
    gpuVsRef += bits(gpu) != bits(ref);
    gpuVsExact += bits(gpu) != bits(exact);
    refVsExact += bits(ref) != bits(exact);
  };
  for (int i = 0; i < n; ++i) {
    tally(gotMem[i], refMem[i], toT(value(mem0[i]) + value(v[i])));
    T o;
    std::memcpy(static_cast<void *>(&o), &old.vals[i], 2);
    tally(o, refOld[i], mem0[i]);
  }
  for (size_t b = 0; b < bins0.size(); ++b)
    tally(gotBins[b], refBins[b], b < size_t(nbins) ? toT(float(binSums[b])) : bins0[b]);
  gpucheck::checkExact(report, name, std::to_string(n), size_t(2 * n) + bins0.size(), gpuVsRef,
                       gpuVsExact, refVsExact, old.ok() && stable);
}

/// add_rows<T, BR, BC> (D: the device type): acc[4 x cols] starts at 0.5 and gains every row of x
/// [rows x cols] at row r % 4. The values are multiples of 1/8 of magnitude at most 1 and a row of
/// acc takes at most rows / 4 of them, few enough that every partial sum is exact in T: the result
/// is exact in any order, bit for bit against float64, and the elements past the end keep their
/// pattern. `stride` apart rows of x; a `cols` not a multiple of 16 misaligns acc's rows.
template <class T, class D, int BR, int BC, class Launch>
void addRows(harness::Report &report, const char *name, int rows, int cols, D (*round)(float),
             Launch launch) {
  const int stride = cols + 3;
  std::mt19937_64 rng(uint64_t(rows) * 131 + cols + sizeof(D));
  auto toT = [&](float f) {
    const D d = round(f);
    T t;
    std::memcpy(static_cast<void *>(&t), &d, sizeof t);
    return t;
  };
  std::vector<T> x(size_t(rows) * stride);
  std::vector<double> exact(size_t(4) * cols, 0.5);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < stride; ++c) {
      const float v = float(int(rng() % 8) + 1) / 8 * (rng() & 1 ? -1.0f : 1.0f);
      x[size_t(r) * stride + c] = toT(v);
      if (c < cols)
        exact[size_t(r % 4) * cols + c] += v;
    }
  const size_t n = size_t(4) * cols;
  std::vector<T> acc0(n + gpucheck::kGuard, toT(0.5f)), ref = acc0, got(acc0.size());
  for (size_t g = n; g < acc0.size(); ++g)
    acc0[g] = ref[g] = toT(-1.5f); // past the end: must stay
  tl::launch(tl::grid3{tl::cdiv(rows, BR), tl::cdiv(cols, BC)}, add_rows<T, BR, BC>, x.data(),
             ref.data(), rows, cols, stride);
  harness::DeviceBuffer<T> dx(x.size()), dacc(acc0.size());
  dx.upload(x.data());
  dacc.upload(acc0.data());
  CHECK_CUDA(launch(reinterpret_cast<const D *>(dx.ptr), reinterpret_cast<D *>(dacc.ptr), rows,
                    cols, stride));
  CHECK_CUDA(cudaDeviceSynchronize());
  dacc.download(got.data());
  size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
  for (size_t i = 0; i < acc0.size(); ++i) {
    const T e = i < n ? toT(float(exact[i])) : acc0[i];
    gpuVsRef += bits(got[i]) != bits(ref[i]);
    gpuVsExact += bits(got[i]) != bits(e);
    refVsExact += bits(ref[i]) != bits(e);
  }
  gpucheck::checkExact(report, name, gpucheck::shape(rows, cols), acc0.size(), gpuVsRef, gpuVsExact,
                       refVsExact, true);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<int> sizes = {1, 300, 1037, 100000};
  if (harness::smallRun(argc, argv))
    sizes = {1, 300, 1037};
  for (int n : sizes) {
    each<int32_t>(report, "atomic i32", n,
                  [](int32_t *m, int32_t *o, int32_t *v, int32_t *c, int n) {
                    return launch_atomic_each_i32_128(cudaStream_t{}, m, o, v, c, n);
                  });
    each<uint32_t>(report, "atomic u32", n,
                   [](uint32_t *m, uint32_t *o, uint32_t *v, uint32_t *c, int n) {
                     return launch_atomic_each_u32_128(cudaStream_t{}, m, o, v, c, n);
                   });
    each<int64_t>(report, "atomic i64", n,
                  [](int64_t *m, int64_t *o, int64_t *v, int64_t *c, int n) {
                    return launch_atomic_each_i64_128(cudaStream_t{}, m, o, v, c, n);
                  });
    each<uint64_t>(report, "atomic u64", n,
                   [](uint64_t *m, uint64_t *o, uint64_t *v, uint64_t *c, int n) {
                     return launch_atomic_each_u64_128(cudaStream_t{}, m, o, v, c, n);
                   });
    each<float>(report, "atomic f32", n, [](float *m, float *o, float *v, float *c, int n) {
      return launch_atomic_each_f32_128(cudaStream_t{}, m, o, v, c, n);
    });
    each<double>(report, "atomic f64", n, [](double *m, double *o, double *v, double *c, int n) {
      return launch_atomic_each_f64_128(cudaStream_t{}, m, o, v, c, n);
    });
    each<int32_t, 32>(report, "atomic i32/32", n,
                      [](int32_t *m, int32_t *o, int32_t *v, int32_t *c, int n) {
                        return launch_atomic_each_i32_32(cudaStream_t{}, m, o, v, c, n);
                      });
  }
  for (int n : sizes) {
    // fp16 holds multiples of 1/8 exactly up to 256, bf16 up to 32 (11 and 8 significant bits).
    add16<tl::half, __half>(
        report, "add f16", n, 200, __half2float, __float2half_rn,
        [](auto... p) { return launch_atomic_add16_f16_128(cudaStream_t{}, p...); });
    add16<tl::bfloat16, __nv_bfloat16>(
        report, "add bf16", n, 32, __bfloat162float, __float2bfloat16_rn,
        [](auto... p) { return launch_atomic_add16_bf16_128(cudaStream_t{}, p...); });
  }
  for (auto [rows, cols] : {std::pair{100, 1000}, std::pair{100, 77}, std::pair{7, 256}}) {
    // Exact in any order: float takes any count; fp16 up to 200 a row of acc, bf16 up to 32.
    addRows<float, float, 32, 128>(
        report, "add rows f32", rows * 40, cols, [](float f) { return f; },
        [](auto... p) { return launch_add_rows_f32_32_128(cudaStream_t{}, p...); });
    addRows<tl::half, __half, 32, 256>(
        report, "add rows f16", rows * 8, cols, __float2half_rn,
        [](auto... p) { return launch_add_rows_f16_32_256(cudaStream_t{}, p...); });
    addRows<tl::bfloat16, __nv_bfloat16, 16, 256>(
        report, "add rows bf16", rows, cols, __float2bfloat16_rn,
        [](auto... p) { return launch_add_rows_bf16_16_256(cudaStream_t{}, p...); });
  }
  for (auto [rows, cols] : {std::pair{300, 100}, std::pair{1, 64}, std::pair{77, 1}})
    columns(report, rows, cols);
  if (!harness::smallRun(argc, argv))
    columns(report, 100000, 257);
  for (int n : {1, 1000, 128})
    ticketRun(report, n);
  if (!harness::smallRun(argc, argv))
    ticketRun(report, 300000);
  for (bool ordered : {false, true}) {
    for (auto [n, bins] : {std::pair{1000, 8}, std::pair{300, 1}})
      histogramRun(report, n, bins, ordered);
    if (!harness::smallRun(argc, argv))
      histogramRun(report, 1 << 22, 1000, ordered);
  }
  return report.exitCode();
}

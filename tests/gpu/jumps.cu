// Runs tilec's CUDA for the break/continue kernels of tests/kernels/jumps.cpp (jumps at the end of
// a branch, and nested_jumps' deeper ones) on random rows whose 64-column blocks are either all
// non-negative or mixed (so that every branch is taken), at ragged sizes, and compares each output
// with the CPU reference and with a plain C++ loop over the same data (the sums in float64; the
// counts and indices exactly). Outputs poisoned twice.
#include "check.h"
#include "jumps.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <jumps.hip>
#else
#include <jumps.cu> // golden/jumps/jumps.cu (<>: not this file)
#endif

#include <algorithm>
#include <cmath>
#include <random>

namespace {

std::vector<float> blockRows(int rows, int cols, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> mixed(-1.0f, 1.0f), positive(0.0f, 1.0f);
  std::vector<float> x(size_t(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c0 = 0; c0 < cols; c0 += 64) {
      const bool pos = rng() % 2;
      for (int c = c0; c < std::min(cols, c0 + 64); ++c)
        x[size_t(r) * cols + c] = pos ? positive(rng) : mixed(rng);
    }
  return x;
}

template <class T> size_t differing(const std::vector<T> &a, const std::vector<T> &b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i)
    n += a[i] != b[i];
  return n;
}

/// nested_jumps<64> (step 64, most 10, limit 0.995) against plain loops and the CPU reference.
void nested(harness::Report &report, const std::vector<float> &x, int rows, int cols) {
  const std::string size = gpucheck::shape(rows, cols);
  const int step = 64, most = 10;
  const float limit = 0.995f;
  std::vector<int> eInts(size_t(rows) * 6);
  std::vector<double> eFloats(size_t(rows) * 2);
  for (int r = 0; r < rows; ++r) {
    const float *row = x.data() + size_t(r) * cols;
    int *e = eInts.data() + size_t(r) * 6;
    double total = 0, passed = 0;
    for (int c0 = 0; c0 < cols; c0 += step) {
      double s = 0;
      float hi = -INFINITY, lo = INFINITY;
      for (int c = c0; c < c0 + 64; ++c) { // the masked-off lanes load 0
        const float v = c < cols ? row[c] : 0.0f;
        s += v, hi = std::max(hi, v), lo = std::min(lo, v);
      }
      if (s > 0) {
        if (hi > limit)
          continue;
        total += s;
        if (lo < -0.99f)
          break;
        e[0] += 1;
      }
      passed += s;
    }
    eFloats[size_t(r) * 2] = total, eFloats[size_t(r) * 2 + 1] = passed;
    int i = 0;
    while (i < cols) {
      const float v = row[i++];
      if (v < 0.5f) {
        if (v < -0.5f) {
          if (e[2] >= most)
            break;
          continue;
        }
        e[1] += v < 0.0f;
      }
      e[2] += 1;
    }
    e[3] = i;
    e[4] = 45 - 3;
    for (int k = 0; k < cols && !(k % 4 == 1 && k > 4); ++k)
      e[5] += k;
  }
  std::vector<int> rInts(eInts.size(), -2);
  std::vector<float> rFloats(eFloats.size(), NAN);
  tl::launch(tl::grid3{rows}, nested_jumps<64>, x.data(), rInts.data(), rFloats.data(), rows, cols,
             step, most, limit);
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<int> ints(eInts.size());
  gpucheck::Output<float> floats(eFloats.size());
  for (int byte : gpucheck::kPoison) {
    ints.poison(byte);
    floats.poison(byte);
    CHECK_CUDA(launch_nested_jumps_64(cudaStream_t{}, dx.ptr, ints.dev.ptr, floats.dev.ptr, rows,
                                      cols, step, most, limit));
    CHECK_CUDA(cudaDeviceSynchronize());
    ints.collect(byte);
    floats.collect(byte);
  }
  gpucheck::checkExact(report, "nested jumps", size, eInts.size(), differing(ints.vals, rInts),
                       differing(ints.vals, eInts), differing(rInts, eInts), ints.ok());
  report.check("nested sums", size, harness::toDoubles(floats.vals), harness::toDoubles(rFloats),
               eFloats, 1e-5, floats.ok());
}

void run(harness::Report &report, int rows, int cols) {
  const std::string size = gpucheck::shape(rows, cols);
  const float limit = 0.995f;
  const int stride = 7, most = 10;
  auto x = blockRows(rows, cols, uint64_t(rows) * 1009 + cols);
  // Plain loops over the same data.
  std::vector<int> eFirst(rows, -1), eVisits(rows), eSteps(rows), eHalvings(rows);
  std::vector<double> eSums(rows), eKept(rows);
  for (int r = 0; r < rows; ++r) {
    const float *row = x.data() + size_t(r) * cols;
    for (int b = 0; b * 64 < cols && eFirst[r] < 0; ++b)
      for (int c = b * 64; c < std::min(cols, b * 64 + 64); ++c)
        if (row[c] > limit)
          eFirst[r] = b;
    for (int c0 = 0; c0 < cols; c0 += 64) {
      double s = 0, lo = 1;
      for (int c = c0; c < std::min(cols, c0 + 64); ++c)
        s += row[c], lo = std::min(lo, double(row[c]));
      if (s >= 0)
        eSums[r] += s;
      if (lo >= 0)
        eKept[r] += s;
    }
    for (int i = 0; i < cols; i += stride) {
      ++eSteps[r];
      if (row[i] < 0)
        continue;
      if (++eVisits[r] == most)
        break;
    }
    for (int n = cols; n > 1; n /= 2)
      ++eHalvings[r];
  }
  // The CPU reference.
  std::vector<int> rFirst(rows, -2), rVisits(rows, -2), rSteps(rows, -2), rHalvings(rows, -2);
  std::vector<float> rSums(rows, NAN), rKept(rows, NAN);
  tl::launch(tl::grid3{rows}, first_block_above<64>, x.data(), rFirst.data(), rows, cols, limit);
  tl::launch(tl::grid3{rows}, row_jumps<64>, x.data(), rSums.data(), rKept.data(), rVisits.data(),
             rSteps.data(), rHalvings.data(), rows, cols, stride, most);
  // The GPU.
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<int> first(rows), visits(rows), steps(rows), halvings(rows);
  gpucheck::Output<float> sums(rows), kept(rows);
  for (int byte : gpucheck::kPoison) {
    for (auto *o : {&first, &visits, &steps, &halvings})
      o->poison(byte);
    sums.poison(byte);
    kept.poison(byte);
    CHECK_CUDA(
        launch_first_block_above_64(cudaStream_t{}, dx.ptr, first.dev.ptr, rows, cols, limit));
    CHECK_CUDA(launch_row_jumps_64(cudaStream_t{}, dx.ptr, sums.dev.ptr, kept.dev.ptr,
                                   visits.dev.ptr, steps.dev.ptr, halvings.dev.ptr, rows, cols,
                                   stride, most));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (auto *o : {&first, &visits, &steps, &halvings})
      o->collect(byte);
    sums.collect(byte);
    kept.collect(byte);
  }
  auto exact = [&](const char *name, gpucheck::Output<int> &o, const std::vector<int> &ref,
                   const std::vector<int> &e) {
    gpucheck::checkExact(report, name, size, size_t(rows), differing(o.vals, ref),
                         differing(o.vals, e), differing(ref, e), o.ok());
  };
  exact("break first", first, rFirst, eFirst);
  exact("visits", visits, rVisits, eVisits);
  exact("steps", steps, rSteps, eSteps);
  exact("halvings", halvings, rHalvings, eHalvings);
  report.check("continue sum", size, harness::toDoubles(sums.vals), harness::toDoubles(rSums),
               eSums, 1e-5, sums.ok());
  report.check("range kept", size, harness::toDoubles(kept.vals), harness::toDoubles(rKept), eKept,
               1e-5, kept.ok());
  nested(report, x, rows, cols);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> sizes = {{1, 1}, {7, 300}, {33, 1000}};
  if (harness::smallRun(argc, argv))
    sizes = {{1, 1}, {7, 300}};
  for (auto [rows, cols] : sizes)
    run(report, rows, cols);
  return report.exitCode();
}

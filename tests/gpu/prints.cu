// Runs tilec's CUDA for the tl::device_print kernels of tests/kernels/prints.cpp and compares the
// lines they print with the CPU reference's, sorted (the GPU's threads print in any order): the
// same lines, each element's once (the count is computed here from the shapes), and one line
// spelled out here in Triton's format. The inputs are random but exact under any order of
// summation (quarters, small integers), so that sums print the same on both sides. The kernels'
// outputs are checked as usual, under two poison patterns (each run's lines are compared).
#include "check.h"
#include "prints.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <prints.hip>
#else
#include <prints.cu> // golden/prints/prints.cu (<>: not this file)
#endif

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

namespace {

/// Runs fn with the process's standard output (descriptor 1, where the GPU's printf, the
/// emulator's and the CPU reference's lines go) sent to a temporary file; its lines, sorted.
template <class F> std::vector<std::string> printedLines(F fn) {
  std::fflush(stdout);
  FILE *tmp = std::tmpfile();
  const int saved = dup(1);
  if (!tmp || saved < 0 || dup2(fileno(tmp), 1) < 0) {
    std::fprintf(stderr, "prints: cannot redirect standard output\n");
    std::exit(2);
  }
  fn();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::rewind(tmp);
  std::vector<std::string> lines;
  std::string line;
  for (int c; (c = std::fgetc(tmp)) != EOF;)
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(c);
    }
  if (!line.empty())
    lines.push_back(line + "<no newline>");
  std::fclose(tmp);
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// Lines of `gpu` that `ref` lacks, and the other way round.
size_t mismatches(const std::vector<std::string> &gpu, const std::vector<std::string> &ref) {
  std::vector<std::string> d;
  std::set_symmetric_difference(gpu.begin(), gpu.end(), ref.begin(), ref.end(),
                                std::back_inserter(d));
  for (size_t i = 0; i < d.size() && i < 4; ++i)
    std::fprintf(stderr, "prints: unmatched line: %s\n", d[i].c_str());
  return d.size();
}

bool contains(const std::vector<std::string> &lines, const std::string &line) {
  if (std::binary_search(lines.begin(), lines.end(), line))
    return true;
  std::fprintf(stderr, "prints: no line \"%s\"\n", line.c_str());
  return false;
}

/// One table row: the lines' mismatches against the CPU reference, and against the expected count
/// and spelled-out line (gpucheck::checkExact's columns).
void checkLines(harness::Report &report, const char *name, const std::string &size,
                const std::vector<std::string> &gpu, const std::vector<std::string> &ref,
                size_t expectedCount, const std::string &expectedLine) {
  const size_t vsRef = mismatches(gpu, ref);
  const size_t countOff =
      gpu.size() > expectedCount ? gpu.size() - expectedCount : expectedCount - gpu.size();
  if (countOff)
    std::fprintf(stderr, "prints: %s %s: %zu lines, expected %zu\n", name, size.c_str(), gpu.size(),
                 expectedCount);
  const size_t refOff =
      ref.size() > expectedCount ? ref.size() - expectedCount : expectedCount - ref.size();
  gpucheck::checkExact(report, name, size, std::max(gpu.size(), expectedCount), vsRef,
                       countOff + !contains(gpu, expectedLine),
                       refOff + !contains(ref, expectedLine), true);
}

std::string formatted(const char *format, double v) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// n random quarters in [-lo, lo]: exact sums in any order.
std::vector<float> quarters(size_t n, int lo, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(-4 * lo, 4 * lo);
  std::vector<float> v(n);
  for (auto &x : v)
    x = d(rng) / 4.0f;
  return v;
}

void rowsCase(harness::Report &report, int rows, int cols) {
  const std::string size = gpucheck::shape(rows, cols);
  auto x = quarters(size_t(rows) * cols, 50, uint64_t(rows) * 31 + cols);
  std::vector<float> ref(rows, NAN);
  auto refLines = printedLines([&] {
    tl::launch(tl::grid3{tl::cdiv(rows, 4)}, print_rows<4, 32>, x.data(), ref.data(), rows, cols);
  });
  harness::DeviceBuffer<float> dx(x.size());
  dx.upload(x.data());
  gpucheck::Output<float> out(rows);
  const int programs = tl::cdiv(rows, 4);
  // A line per element of the 4 x 32 tile, of the sums, of the rows and the sums again; one more.
  const size_t count = size_t(programs) * (4 * 32 + 4 + 2 * 4) + 1;
  const std::string line = formatted("pid (0, 0, 0) idx (1,  2) x: %f",
                                     rows > 1 && cols > 2 ? x[size_t(1) * cols + 2] : 0.0f);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    auto lines = printedLines([&] {
      CHECK_CUDA(launch_print_rows_4_32(cudaStream_t{}, dx.ptr, out.dev.ptr, rows, cols));
      CHECK_CUDA(cudaDeviceSynchronize());
    });
    out.collect(byte);
    checkLines(report, "print rows", size, lines, refLines, count, line);
  }
  std::vector<double> f64(rows, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      f64[i] += x[size_t(i) * cols + j];
  report.check("print sums", size, harness::toDoubles(out.vals), harness::toDoubles(ref), f64, 0.0,
               out.ok());
}

void typesCase(harness::Report &report, int n) {
  const std::string size = std::to_string(n);
  std::mt19937_64 rng(uint64_t(n) * 7 + 1);
  std::vector<int8_t> a(n);
  std::vector<uint64_t> b(n);
  std::vector<tl::half> h(n);
  std::vector<tl::bfloat16> g(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<int8_t>(rng());
    b[i] = rng();
    h[i] = tl::half(std::ldexp(double(int64_t(rng() % 2001) - 1000), -3));
    g[i] = tl::bfloat16(std::ldexp(double(int64_t(rng() % 201) - 100), -5));
  }
  std::vector<int> ref(n, -1);
  auto refLines = printedLines([&] {
    tl::launch(tl::grid3{tl::cdiv(n, 8)}, print_types<8>, a.data(), b.data(), h.data(), g.data(),
               ref.data(), n);
  });
  harness::DeviceBuffer<int8_t> da(n);
  harness::DeviceBuffer<uint64_t> db(n);
  harness::DeviceBuffer<tl::half> dh(n);
  harness::DeviceBuffer<tl::bfloat16> dg(n);
  da.upload(a.data());
  db.upload(b.data());
  dh.upload(h.data());
  dg.upload(g.data());
  gpucheck::Output<int> out(n);
  const int programs = tl::cdiv(n, 8);
  const size_t count = size_t(programs) * (5 * 8 + 8 + 3);
  char buf[128];
  std::snprintf(buf, sizeof buf, "pid (0, 0, 0) idx (1) types: (operand 1) %llu",
                static_cast<unsigned long long>(n > 1 ? b[1] : 0));
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    auto lines = printedLines([&] {
      CHECK_CUDA(launch_print_types_8(
          cudaStream_t{}, da.ptr, db.ptr, reinterpret_cast<const __half *>(dh.ptr),
          reinterpret_cast<const __nv_bfloat16 *>(dg.ptr), out.dev.ptr, n));
      CHECK_CUDA(cudaDeviceSynchronize());
    });
    out.collect(byte);
    checkLines(report, "print types", size, lines, refLines, count, buf);
  }
  std::vector<double> exact(n);
  for (int i = 0; i < n; ++i)
    exact[i] = double(a[i]) + std::trunc(double(float(h[i])));
  report.check("print types", size, harness::toDoubles(out.vals), harness::toDoubles(ref), exact,
               0.0, out.ok());
}

void dotCase(harness::Report &report, int M, int N, int K) {
  const std::string size = gpucheck::shape(M, N) + "x" + std::to_string(K);
  std::mt19937_64 rng(uint64_t(M) * 131 + N * 7 + K);
  std::vector<tl::half> a(size_t(M) * K), b(size_t(K) * N);
  for (auto &v : a)
    v = tl::half(float(int(rng() % 7) - 3));
  for (auto &v : b)
    v = tl::half(float(int(rng() % 7) - 3));
  std::vector<float> ref(size_t(M) * N, NAN);
  auto refLines = printedLines([&] {
    tl::launch(tl::grid3{tl::cdiv(M, 32)}, print_dot<32, 32, 16>, a.data(), b.data(), ref.data(), M,
               N, K);
  });
  harness::DeviceBuffer<tl::half> da(a.size()), dbuf(b.size());
  da.upload(a.data());
  dbuf.upload(b.data());
  gpucheck::Output<float> out(ref.size());
  const int programs = tl::cdiv(M, 32);
  // A line per element of each step's 32 x 16 A tile and of the 32 x 32 accumulator.
  const size_t count = size_t(programs) * (size_t(tl::cdiv(K, 16)) * 512 + 1024);
  std::vector<double> f64(ref.size(), 0.0);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        f64[size_t(i) * N + j] +=
            double(float(a[size_t(i) * K + k])) * double(float(b[size_t(k) * N + j]));
  const std::string line =
      formatted("pid (0, 0, 0) idx ( 3, 10) acc: %f", N > 10 ? f64[3 * N + 10] : 0.0);
  for (int byte : gpucheck::kPoison) {
    out.poison(byte);
    auto lines = printedLines([&] {
      CHECK_CUDA(launch_print_dot_32_32_16(cudaStream_t{}, reinterpret_cast<const __half *>(da.ptr),
                                           reinterpret_cast<const __half *>(dbuf.ptr), out.dev.ptr,
                                           M, N, K));
      CHECK_CUDA(cudaDeviceSynchronize());
    });
    out.collect(byte);
    checkLines(report, "print dot", size, lines, refLines, count, line);
  }
  report.check("print dot", size, harness::toDoubles(out.vals), harness::toDoubles(ref), f64, 0.0,
               out.ok());
}

} // namespace

int main(int argc, char **argv) {
  (void)argc, (void)argv; // the sizes are small either way: every element prints a line
  harness::Report report;
  for (auto [rows, cols] : {std::pair{1, 1}, std::pair{6, 20}, std::pair{9, 32}})
    rowsCase(report, rows, cols);
  for (int n : {1, 13, 24})
    typesCase(report, n);
  for (auto [M, N, K] : {std::tuple{5, 3, 7}, std::tuple{20, 13, 40}})
    dotCase(report, M, N, K);
  return report.exitCode();
}

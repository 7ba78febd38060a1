// Runs tilec's CUDA for row_argmax_kernel<8, 128> (N <= 128) on random matrices with many ties (few
// distinct values: the smallest index must win), NaNs in some rows (the first NaN wins argmax and
// argmin, and loses max) and rows of -inf (which tie with the masked-off columns), and compares
// argmax, argmin and max exactly with plain loops and with the CPU reference of the source; and
// each program's whole-tile (flattened) argmax and argmin, over the tile as the kernel loads it.
#include "check.h"
#include "row_argmax.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <row_argmax.hip>
#else
#include <row_argmax.cu> // golden/row_argmax/row_argmax.cu (<>: not this file)
#endif

int main(int argc, char **argv) {
  harness::Report report;
  std::vector<std::pair<int, int>> cases = {{1, 1},      {9, 100},    {16, 128},   {21, 7},
                                            {1001, 128}, {4099, 127}, {65536, 65}, {3, 2}};
  if (harness::smallRun(argc, argv))
    cases = {{1, 1}, {9, 100}, {16, 128}, {21, 7}, {3, 2}};
  for (auto [M, N] : cases) {
    int stride = N + 3;
    size_t n = size_t(M) * stride;
    std::mt19937_64 rng(M * 7919 + N);
    std::uniform_int_distribution<int> level(-4, 4), col(0, N - 1);
    std::vector<float> x(n, NAN); // NaN padding: reading it would change the results
    for (int i = 0; i < M; ++i) {
      float *row = &x[size_t(i) * stride];
      for (int j = 0; j < N; ++j) {
        int l = level(rng);
        row[j] = i % 8 == 5 ? -INFINITY : float(l == 0 ? 5 : l) * 0.25f;
      }
      if (N > 2 && i % 4 == 3)
        row[col(rng)] = row[col(rng)] = NAN;
    }
    const int programs = tl::cdiv(M, 8);
    std::vector<int> refMaxIdx(M, -1), refMinIdx(M, -1), refTileMax(programs, -1), refTileMin(programs, -1);
    std::vector<float> refMax(M, NAN);
    tl::launch(tl::grid3{programs}, row_argmax_kernel<8, 128>, x.data(), refMaxIdx.data(),
               refMinIdx.data(), refMax.data(), refTileMax.data(), refTileMin.data(), M, N, stride);
    harness::DeviceBuffer<float> dx(n);
    gpucheck::Output<int> amax(M), amin(M);
    gpucheck::Output<float> mx(M);
    gpucheck::Output<int> tmax(programs), tmin(programs);
    dx.upload(x.data());
    for (int byte : gpucheck::kPoison) {
      amax.poison(byte);
      amin.poison(byte);
      mx.poison(byte);
      tmax.poison(byte);
      tmin.poison(byte);
      CHECK_CUDA(launch_row_argmax_kernel_8_128(cudaStream_t{}, dx.ptr, amax.dev.ptr, amin.dev.ptr,
                                                mx.dev.ptr, tmax.dev.ptr, tmin.dev.ptr, M, N, stride));
      CHECK_CUDA(cudaDeviceSynchronize());
      amax.collect(byte);
      amin.collect(byte);
      mx.collect(byte);
      tmax.collect(byte);
      tmin.collect(byte);
    }
    size_t gpuVsRef = 0, gpuVsExact = 0, refVsExact = 0;
    for (int i = 0; i < M; ++i) {
      const float *row = &x[size_t(i) * stride];
      int best = 0, worst = 0;
      float m = -INFINITY;
      for (int j = 0; j < N; ++j) {
        float v = row[j];
        if (!std::isnan(row[best]) && (std::isnan(v) || v > row[best]))
          best = j;
        if (!std::isnan(row[worst]) && (std::isnan(v) || v < row[worst]))
          worst = j;
        if (v > m)
          m = v;
      }
      auto differ = [](int a0, int a1, float a2, int b0, int b1, float b2) {
        return a0 != b0 || a1 != b1 || !gpucheck::same(a2, b2);
      };
      gpuVsRef +=
          differ(amax.vals[i], amin.vals[i], mx.vals[i], refMaxIdx[i], refMinIdx[i], refMax[i]);
      gpuVsExact += differ(amax.vals[i], amin.vals[i], mx.vals[i], best, worst, m);
      refVsExact += differ(refMaxIdx[i], refMinIdx[i], refMax[i], best, worst, m);
    }
    gpucheck::checkExact(report, "row_argmax", gpucheck::shape(M, N), M, gpuVsRef, gpuVsExact,
                         refVsExact, amax.ok() && amin.ok() && mx.ok());
    // The whole [8, 128] tile of each program, as loaded: -inf (argmax) or +inf (argmin) where
    // masked off, flattened row-major.
    size_t tGpuVsRef = 0, tGpuVsExact = 0, tRefVsExact = 0;
    for (int p = 0; p < programs; ++p) {
      int best = 0, worst = 0;
      auto at = [&](int k, float masked) {
        int i = p * 8 + k / 128, j = k % 128;
        return i < M && j < N ? x[size_t(i) * stride + j] : masked;
      };
      for (int k = 1; k < 8 * 128; ++k) {
        float hi = at(k, -INFINITY), lo = at(k, INFINITY);
        if (!std::isnan(at(best, -INFINITY)) && (std::isnan(hi) || hi > at(best, -INFINITY)))
          best = k;
        if (!std::isnan(at(worst, INFINITY)) && (std::isnan(lo) || lo < at(worst, INFINITY)))
          worst = k;
      }
      tGpuVsRef += tmax.vals[p] != refTileMax[p] || tmin.vals[p] != refTileMin[p];
      tGpuVsExact += tmax.vals[p] != best || tmin.vals[p] != worst;
      tRefVsExact += refTileMax[p] != best || refTileMin[p] != worst;
    }
    gpucheck::checkExact(report, "tile_argmax", gpucheck::shape(M, N), programs, tGpuVsRef,
                         tGpuVsExact, tRefVsExact, tmax.ok() && tmin.ok());
  }
  return report.exitCode();
}

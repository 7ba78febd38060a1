// Runs tests/kernels/rank3.cpp against the CPU reference of the same source and against plain
// loops here: the moves, maxima, argmaxes and counts exactly, the sums within the tolerance of
// float64 (device/METHOD.md). Each launch runs twice into outputs poisoned with two patterns; the
// elements past the end must keep their pattern.
#include "check.h"
#include "rank3.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include <rank3.hip>
#else
#include <rank3.cu> // golden/rank3/rank3.cu (<>: not this file)
#endif

#include <functional>

namespace {

using gpucheck::differing;
using gpucheck::Output;
using gpucheck::Uploaded;

constexpr double kTol = 1e-5; // float sums of at most a few thousand terms

/// Poisons every output with each pattern, runs `launch`, and collects.
template <class... Outs>
void runPoisoned(const std::function<cudaError_t()> &launch, Outs &...outs) {
  for (int byte : gpucheck::kPoison) {
    (outs.poison(byte), ...);
    CHECK_CUDA(launch());
    CHECK_CUDA(cudaDeviceSynchronize());
    (outs.collect(byte), ...);
  }
}

template <class T> std::vector<double> doubles(const std::vector<T> &v) {
  return std::vector<double>(v.begin(), v.end());
}

/// One exact row: the GPU's values against the CPU reference's and the loops'.
template <class T>
void exact(harness::Report &report, const char *name, const std::string &size, const Output<T> &gpu,
           const std::vector<T> &ref, const std::vector<T> &loops) {
  gpucheck::checkExact(report, name, size, gpu.vals.size(), differing(gpu.vals, ref),
                       differing(gpu.vals, loops), differing(ref, loops), gpu.ok());
}

/// batched_stats<BB, BM, BN> over `batches` matrices of m x n.
template <int BB, int BM, int BN>
void batchedStats(harness::Report &report, int batches, int m, int n,
                  cudaError_t (*launch)(cudaStream_t, const float *, float *, float *, int *,
                                        float *, float *, float *, int *, int *, int, int, int)) {
  const int programs = tl::cdiv(batches, BB);
  const size_t mn = size_t(m) * n;
  auto x = harness::randomFloats(batches * mn, -1, 1, uint64_t(batches) * 131 + m * 7 + n);
  std::vector<float> rowSums(size_t(batches) * m), colMax(size_t(batches) * n),
      groupSum(programs * mn), centered(batches * mn), total(programs);
  std::vector<int> colArg(size_t(batches) * n), flatArg(programs), positive(n);
  tl::launch(tl::grid3{programs}, batched_stats<BB, BM, BN>, x.data(), rowSums.data(),
             colMax.data(), colArg.data(), groupSum.data(), centered.data(), total.data(),
             flatArg.data(), positive.data(), batches, m, n);

  // The loops, in float64 for the sums.
  std::vector<double> rowSums64(rowSums.size()), groupSum64(groupSum.size(), 0),
      centered64(centered.size()), total64(programs, 0);
  std::vector<float> colMaxL(colMax.size(), -INFINITY);
  std::vector<int> colArgL(colArg.size(), 0), flatArgL(programs, 0), positiveL(n, 0);
  auto X = [&](int b, int i, int j) { return x[b * mn + size_t(i) * n + j]; };
  for (int b = 0; b < batches; ++b)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int j = 0; j < n; ++j)
        s += X(b, i, j);
      rowSums64[size_t(b) * m + i] = s;
      for (int j = 0; j < n; ++j) {
        const float v = X(b, i, j);
        centered64[b * mn + size_t(j) * m + i] = double(v) - s / m;
        if (v > colMaxL[size_t(b) * n + j]) {
          colMaxL[size_t(b) * n + j] = v;
          colArgL[size_t(b) * n + j] = i;
        }
        groupSum64[(b / BB) * mn + size_t(i) * n + j] += v;
        total64[b / BB] += v;
        positiveL[j] += v > 0;
      }
    }
  for (int p = 0; p < programs; ++p) { // the first largest element of the block, row-major
    float best = -INFINITY;
    for (int bb = 0; bb < BB && p * BB + bb < batches; ++bb)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
          if (X(p * BB + bb, i, j) > best) {
            best = X(p * BB + bb, i, j);
            flatArgL[p] = (bb * BM + i) * BN + j;
          }
  }

  Uploaded<float> dx(x);
  Output<float> oRowSums(rowSums.size()), oColMax(colMax.size()), oGroupSum(groupSum.size()),
      oCentered(centered.size()), oTotal(total.size());
  Output<int> oColArg(colArg.size()), oFlatArg(flatArg.size()), oPositive(positive.size());
  // The counts add up over a launch: zeroed before each, after the poison.
  runPoisoned(
      [&] {
        CHECK_CUDA(cudaMemset(oPositive.dev.ptr, 0, n * sizeof(int)));
        return launch(cudaStream_t{}, dx.ptr, oRowSums.dev.ptr, oColMax.dev.ptr, oColArg.dev.ptr,
                      oGroupSum.dev.ptr, oCentered.dev.ptr, oTotal.dev.ptr, oFlatArg.dev.ptr,
                      oPositive.dev.ptr, batches, m, n);
      },
      oRowSums, oColMax, oColArg, oGroupSum, oCentered, oTotal, oFlatArg, oPositive);
  const std::string size = std::to_string(batches) + "x" + gpucheck::shape(m, n);
  report.check("r3 rowsum", size, doubles(oRowSums.vals), doubles(rowSums), rowSums64, kTol,
               oRowSums.ok());
  report.check("r3 groupsum", size, doubles(oGroupSum.vals), doubles(groupSum), groupSum64, kTol,
               oGroupSum.ok());
  report.check("r3 centerT", size, doubles(oCentered.vals), doubles(centered), centered64, kTol,
               oCentered.ok());
  report.check("r3 total", size, doubles(oTotal.vals), doubles(total), total64, kTol, oTotal.ok());
  exact(report, "r3 colmax", size, oColMax, colMax, colMaxL);
  exact(report, "r3 colarg", size, oColArg, colArg, colArgL);
  exact(report, "r3 flatarg", size, oFlatArg, flatArg, flatArgL);
  // The CPU reference runs each program once: its counts are the loops'.
  exact(report, "r3 atomics", size, oPositive, positive, positiveL);
}

/// heads<BM, H, D> over `rows` rows.
template <int BM, int H, int D> void heads(harness::Report &report, int rows) {
  const int programs = tl::cdiv(rows, BM);
  auto x = harness::randomFloats(size_t(rows) * H * D, -1, 1, uint64_t(rows) * 17 + 5);
  std::vector<float> norms(size_t(rows) * H), headMajor(x.size()), pairs(size_t(rows) * H * 2),
      sums(norms.size()), maxima(norms.size());
  tl::launch(tl::grid3{programs}, ::heads<BM, H, D>, x.data(), norms.data(), headMajor.data(),
             pairs.data(), sums.data(), maxima.data(), rows);
  std::vector<double> norms64(norms.size()), sums64(norms.size()), pairs64(pairs.size());
  std::vector<float> headMajorL(x.size()), maximaL(norms.size(), -INFINITY);
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < H; ++h) {
      double sq = 0, s = 0;
      for (int d = 0; d < D; ++d) {
        const float v = x[(size_t(r) * H + h) * D + d];
        sq += double(v) * v;
        s += v;
        maximaL[size_t(r) * H + h] = std::max(maximaL[size_t(r) * H + h], v);
        headMajorL[(size_t(h) * rows + r) * D + d] = v;
      }
      norms64[size_t(r) * H + h] = sq;
      sums64[size_t(r) * H + h] = s;
      pairs64[(size_t(r) * H + h) * 2] = s;
      pairs64[(size_t(r) * H + h) * 2 + 1] = maximaL[size_t(r) * H + h];
    }
  Uploaded<float> dx(x);
  Output<float> oNorms(norms.size()), oHeadMajor(headMajor.size()), oPairs(pairs.size()),
      oSums(sums.size()), oMaxima(maxima.size());
  runPoisoned(
      [&] {
        return launch_heads_16_4_32(cudaStream_t{}, dx.ptr, oNorms.dev.ptr, oHeadMajor.dev.ptr,
                                    oPairs.dev.ptr, oSums.dev.ptr, oMaxima.dev.ptr, rows);
      },
      oNorms, oHeadMajor, oPairs, oSums, oMaxima);
  const std::string size = std::to_string(rows) + "x" + std::to_string(H) + "x" + std::to_string(D);
  report.check("r3 norms", size, doubles(oNorms.vals), doubles(norms), norms64, kTol, oNorms.ok());
  report.check("r3 pairs", size, doubles(oPairs.vals), doubles(pairs), pairs64, kTol, oPairs.ok());
  report.check("r3 split", size, doubles(oSums.vals), doubles(sums), sums64, kTol, oSums.ok());
  exact(report, "r3 headmaj", size, oHeadMajor, headMajor, headMajorL);
  exact(report, "r3 splitmax", size, oMaxima, maxima, maximaL);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // Ragged: batches, rows and columns below the blocks and not multiples of them.
  std::vector<std::array<int, 3>> shapes = {{1, 1, 1}, {3, 5, 37}, {7, 8, 64}};
  std::vector<int> rows = {1, 37};
  if (!harness::smallRun(argc, argv)) {
    shapes.push_back({1001, 7, 50});
    rows.push_back(10001);
  }
  for (auto [b, m, n] : shapes) {
    batchedStats<2, 8, 64>(report, b, m, n, launch_batched_stats_2_8_64);
    if (m <= 16 && n <= 16)
      batchedStats<4, 16, 16>(report, b, m, n, launch_batched_stats_4_16_16);
  }
  for (int b : {5, 33})
    batchedStats<4, 16, 16>(report, b, 13, 11, launch_batched_stats_4_16_16);
  for (int r : rows)
    heads<16, 4, 32>(report, r);
  return report.exitCode();
}

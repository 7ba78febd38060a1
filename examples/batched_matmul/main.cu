// Runs tilec's CUDA for batched_matmul_kernel<64, 64, 32, 8, 4, 3> on batches of random fp16
// matrices of ragged shapes (M, N and K not multiples of the blocks, down to 1 x 1 x 1), batches
// of 1 to 100 matrices, with row strides wider than the rows and batch strides wider than a matrix
// (a gap between consecutive matrices and after the last), B row-major and (in some cases)
// column-major through its strides (stride_bk = 1), and compares every C[b] with the CPU reference
// of the same source and with float64. The padding of C (row ends and the gaps between matrices)
// must stay untouched; the padding of A and B holds NaN, so that a read of it (a wrong K mask, a
// wrong batch offset) shows in the result.
#include "../common/harness.h"
#include "batched_matmul.cpp"
#if defined(TILEC_EMULATE_HIP) // tests/emu: the CPU emulator runs the HIP output instead
#include "batched_matmul.hip"
#else
#include "batched_matmul.cu"
#endif

#include <algorithm>

namespace {

constexpr int BLOCK_M = 64, BLOCK_N = 64, BLOCK_K = 32, GROUP_M = 8, NUM_WARPS = 4, NUM_STAGES = 3;

struct Case {
  int batch, M, N, K;
  bool colMajorB = false; // each B[b] stored as N rows of K (stride_bk = 1): a transposed B
  /// Rows packed (strides K and N, no padding) and gaps of 16 elements between matrices: with N
  /// and K multiples of 16 and 16-byte aligned buffers, every stride is a multiple of 16 (or 1) and
  /// the launcher runs the kernel's aligned variant (16-byte vector loads, the K loop pipelined
  /// with cp.async).
  bool packed = false;
  /// With packed: no gap between matrices either, each operand one contiguous tensor ([batch, M, K]
  /// for A, as torch.bmm takes them); "dense" in the result rows.
  bool gapless = false;
};

cudaError_t launchGpu(const tl::half *a, const tl::half *b, tl::half *c, int batch, int M, int N,
                      int K, int stride_ab, int stride_am, int stride_ak, int stride_bb,
                      int stride_bk, int stride_bn, int stride_cb, int stride_cm, int stride_cn) {
  const auto *da = reinterpret_cast<const __half *>(a);
  const auto *db = reinterpret_cast<const __half *>(b);
  auto *dc = reinterpret_cast<__half *>(c);
  // The grid of the kernel's annotation: (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), batch).
  return launch_batched_matmul_kernel_64_64_32_8_4_3(
      cudaStream_t{}, da, db, dc, batch, M, N, K, stride_ab, stride_am, stride_ak, stride_bb,
      stride_bk, stride_bn, stride_cb, stride_cm, stride_cn);
}

void run(harness::Report &report, Case c) {
  const tl::half nan = tl::half::fromBits(0xFFFF); // what DeviceBuffer::poison writes
  // A[b]: M rows of K, row stride K + 5. B[b]: K rows of N (row stride N + 3), or column-major: N
  // columns of K, each stored contiguously, K + 5 apart. C[b]: M rows of N, row stride N + 3.
  // Each matrix is followed by a gap of 7 elements (16 when packed, none when gapless), so the
  // batch stride is one matrix plus the gap.
  const int padA = c.packed ? 0 : 5, padC = c.packed ? 0 : 3;
  const int gap = c.gapless ? 0 : c.packed ? 16 : 7;
  const int stride_am = c.K + padA, stride_ak = 1;
  const int stride_bk = c.colMajorB ? 1 : c.N + padC, stride_bn = c.colMajorB ? c.K + padA : 1;
  const int stride_cm = c.N + padC, stride_cn = 1;
  const int stride_ab = c.M * stride_am + gap;
  const int stride_bb = (c.colMajorB ? c.N * stride_bn : c.K * stride_bk) + gap;
  const int stride_cb = c.M * stride_cm + gap;
  const size_t na = size_t(c.batch) * stride_ab, nb = size_t(c.batch) * stride_bb,
               nc = size_t(c.batch) * stride_cb;
  auto aAt = [&](int bi, int m, int k) {
    return size_t(bi) * stride_ab + size_t(m) * stride_am + size_t(k) * stride_ak;
  };
  auto bAt = [&](int bi, int k, int n) {
    return size_t(bi) * stride_bb + size_t(k) * stride_bk + size_t(n) * stride_bn;
  };
  auto cAt = [&](int bi, int m, int n) {
    return size_t(bi) * stride_cb + size_t(m) * stride_cm + size_t(n) * stride_cn;
  };

  // Fresh random fp16 values in [-1, 1), a seed per buffer and run; NaN padding.
  const uint64_t seed = (((uint64_t(c.batch) * 7919 + c.M) * 7919 + c.N) * 7919 + c.K) * 8 +
                        (c.gapless ? 4 : 0) + (c.packed ? 2 : 0) + (c.colMajorB ? 1 : 0);
  const auto af = harness::randomFloats(na, -1, 1, seed);
  const auto bf = harness::randomFloats(nb, -1, 1, seed + 1);
  std::vector<tl::half> a(na, nan), b(nb, nan), ref(nc, nan), out(nc);
  for (int bi = 0; bi < c.batch; ++bi) {
    for (int m = 0; m < c.M; ++m)
      for (int k = 0; k < c.K; ++k)
        a[aAt(bi, m, k)] = tl::half(af[aAt(bi, m, k)]);
    for (int k = 0; k < c.K; ++k)
      for (int n = 0; n < c.N; ++n)
        b[bAt(bi, k, n)] = tl::half(bf[bAt(bi, k, n)]);
  }

  tl::launch(tl::grid3{tl::cdiv(c.M, BLOCK_M) * tl::cdiv(c.N, BLOCK_N), c.batch},
             batched_matmul_kernel<BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, NUM_WARPS, NUM_STAGES>,
             a.data(), b.data(), ref.data(), c.batch, c.M, c.N, c.K, stride_ab, stride_am,
             stride_ak, stride_bb, stride_bk, stride_bn, stride_cb, stride_cm, stride_cn);

  harness::DeviceBuffer<tl::half> da(na), db(nb), dc(nc);
  da.upload(a.data());
  db.upload(b.data());
  dc.poison();
  CHECK_CUDA(launchGpu(da.ptr, db.ptr, dc.ptr, c.batch, c.M, c.N, c.K, stride_ab, stride_am,
                       stride_ak, stride_bb, stride_bk, stride_bn, stride_cb, stride_cm,
                       stride_cn));
  CHECK_CUDA(cudaDeviceSynchronize());
  dc.download(out.data());

  // float64: per matrix, the products of the fp16 inputs summed in double, then rounded to fp16 as
  // the kernel's output is. Compare the elements of every C[b]; every other element of the buffer
  // (the row padding and the gaps between matrices) must still hold NaN (on the GPU and in the CPU
  // reference).
  std::vector<double> want(nc, NAN), row(c.N);
  std::vector<bool> written(nc, false);
  for (int bi = 0; bi < c.batch; ++bi)
    for (int m = 0; m < c.M; ++m) {
      std::fill(row.begin(), row.end(), 0.0);
      for (int k = 0; k < c.K; ++k) {
        const double x = float(a[aAt(bi, m, k)]);
        for (int n = 0; n < c.N; ++n)
          row[n] += x * double(float(b[bAt(bi, k, n)]));
      }
      for (int n = 0; n < c.N; ++n) {
        want[cAt(bi, m, n)] = float(tl::half(row[n]));
        written[cAt(bi, m, n)] = true;
      }
    }
  std::vector<double> gpu, cpu, f64;
  bool paddingUntouched = true;
  for (size_t at = 0; at < nc; ++at) {
    if (written[at]) {
      gpu.push_back(float(out[at]));
      cpu.push_back(float(ref[at]));
      f64.push_back(want[at]);
    } else if (!std::isnan(float(out[at])) || !std::isnan(float(ref[at]))) {
      paddingUntouched = false;
    }
  }
  // The tolerance, as examples/matmul's: both sides are rounded to fp16, so an element differs
  // from float64 only where the fp32 sum (its error near 1e-6 of the sum of |products|, in
  // whatever order the tensor cores add) falls on the other side of a rounding midpoint: by one
  // fp16 ulp, at most 2^-10 = 9.8e-4 of the element. So ||gpu - f64|| / ||f64|| <= 2^-10 even if
  // every element were off by an ulp; few are. 1e-3 is that bound; an fp16 accumulator, a lost K
  // step, another matrix of the batch or a NaN read from the padding exceed it.
  std::string size = std::to_string(c.batch) + "x(" + std::to_string(c.M) + "x" +
                     std::to_string(c.N) + "x" + std::to_string(c.K) + ")";
  if (c.colMajorB)
    size += " Bt";
  if (c.packed)
    size += c.gapless ? " dense" : " packed";
  report.check("bmm", size, gpu, cpu, f64, 1e-3, paddingUntouched);
}

} // namespace

int main(int argc, char **argv) {
  harness::Report report;
  // batch x (M x N x K): one square matrix, three and five ragged ones (the last of 129 rows: a
  // group of GROUP_M row tiles and a short one), single elements, many small matrices (100 along
  // the grid's y); B column-major. Packed: the aligned variant (N and K multiples of 16), ragged
  // M and a K remainder of 16, with gaps of 16 between matrices or none. (The CPU reference takes
  // seconds per GFLOP: the cases sum to about 3 GFLOP.)
  std::vector<Case> cases = {{1, 1000, 1000, 1000},
                             {3, 333, 257, 500},
                             {5, 129, 63, 200},
                             {5, 1, 1, 1},
                             {100, 37, 45, 70},
                             {3, 777, 555, 300, true},
                             {5, 33, 17, 200, true},
                             {3, 500, 512, 1008, false, true},
                             {2, 256, 512, 2048, false, true, true},
                             {5, 100, 64, 80, false, true, true}};
  // The CPU emulator is about 1000x slower than a GPU: one to four programs a case.
  if (harness::smallRun(argc, argv))
    cases = {{1, 37, 45, 70},
             {3, 37, 45, 70},
             {2, 70, 19, 33},
             {5, 1, 1, 1},
             {3, 37, 45, 70, true},
             {2, 70, 64, 48, false, true},
             {1, 40, 64, 160, false, true}, // five K steps: the ring of NUM_STAGES buffers wraps
             {3, 16, 64, 32, false, true, true}};
  for (Case c : cases)
    run(report, c);
  return report.exitCode();
}

#pragma once
/// \file Kernels for Hopper's warpgroup product (tilec/cuda/wgmma.cuh): one warpgroup (128 threads)
/// stages A (64 x K) and B (K x N) in shared memory in one of wgmma's layouts (K- or MN-major, no
/// swizzle or a 32-, 64- or 128-byte swizzle), runs K / 16 wgmma steps through descriptors, and
/// stores D = A B (+ C). WgmmaKernels.cpp is compiled as emitted code is for the emulator
/// (tests/emu/unit) and by nvcc for an H100 (tests/gpu/wgmma.cu): the same layouts, descriptors and
/// accumulator map must give the same products on both.

#include "Lines.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(TILEC_EMULATE) || !defined(__CUDACC__)
#include <tilec/emu/host.hpp>
#endif

#if defined(__CUDACC__)
#define WGMMA_TEST_HD __host__ __device__
#else
#define WGMMA_TEST_HD
#endif

namespace emu_test::wgmma {

constexpr int kM = 64;        ///< wgmma's M
constexpr int kThreads = 128; ///< one warpgroup
constexpr int kSteps = 4;     ///< wgmma steps of every kernel: K = 64

/// An operand's swizzle, as its row width in bytes (0: none).
enum class Swizzle : int { None = 0, B32 = 32, B64 = 64, B128 = 128 };
/// Which dimension of an operand is contiguous: K (A as [M, K] rows, B as [N, K]) or MN (A as
/// [K, M], B as [K, N]).
enum class Major : int { K, MN };

/// How one operand is staged: `rows` of m (A) or n (B), `k` of K, 16-bit elements. The forms are
/// the ones tilec stages, written here from the buffer's point of view (not the PTX ISA's canonical
/// layouts, which the emulator's model follows): a swizzled operand is a sequence of R-byte rows
/// (R the swizzle's width) whose 16-byte chunk c of row r lies at chunk c ^ (r / (128 / R) % (R /
/// 16)), tilec's chunkSwizzle with vec 8, perPhase 128 / R and maxPhase R / 16:
/// - K-major, swizzled: [K / (R / 2)][rows][R bytes]: each row holds R / 2 consecutive k of one m.
/// - K-major, no swizzle: [rows / 8][K / 8][8 rows][16 bytes]: 8 x 8 core matrices, k fastest.
/// - MN-major, swizzled: [rows / (R / 2)][K][R bytes]: each row holds R / 2 consecutive m of one k.
/// - MN-major, no swizzle: [rows / 8][K][16 bytes]: each row 8 consecutive m of one k.
struct OperandLayout {
  Major major;
  Swizzle swizzle;
  int rows, k;
  WGMMA_TEST_HD int rowBytes() const { return swizzle == Swizzle::None ? 16 : int(swizzle); }
  WGMMA_TEST_HD int bytes() const { return rows * k * 2; }
  /// The byte offset of element (mn, k) from the start of the tile, which starts `base` bytes past
  /// a 1024-byte boundary (the swizzle's phase is the address's: rows count from the boundary).
  WGMMA_TEST_HD int offset(int mn, int kk, int base = 0) const {
    const int R = rowBytes(), perRow = R / 2; // elements a row
    int row, col;                             // the R-byte row, and the element in it
    if (major == Major::K && swizzle == Swizzle::None)
      return ((mn / 8 * (k / 8) + kk / 8) * 8 + mn % 8) * 16 + kk % 8 * 2;
    if (major == Major::K)
      row = kk / perRow * rows + mn, col = kk % perRow;
    else
      row = mn / perRow * k + kk, col = mn % perRow;
    const int phases = R / 16, perPhase = 128 / R; // R / 16 chunks a row; 1, 2 or 4 rows a phase
    const int phaseRow = row + base / R;
    const int chunk = col / 8 ^ (swizzle == Swizzle::None ? 0 : phaseRow / perPhase % phases);
    return row * R + chunk * 16 + col % 8 * 2;
  }
  /// The descriptor fields of wgmma step s (k 16 s to 16 s + 15): the start's offset from the
  /// tile, the leading and the stride byte offsets (PTX ISA, "Shared Memory Matrix Layout").
  struct Step {
    int start, leading, stride;
  };
  WGMMA_TEST_HD Step step(int s) const {
    const int R = rowBytes(), perRow = R / 2;
    if (major == Major::K && swizzle == Swizzle::None) // LBO: k 0-7 -> 8-15; SBO: m 0-7 -> 8-15
      return {2 * s * 128, 128, k / 8 * 128};
    if (major == Major::K) // within a row, or the next block of rows; LBO unused; SBO: 8 rows
      return {16 * s / perRow * rows * R + 16 * s % perRow * 2, 16, 8 * R};
    if (swizzle == Swizzle::None) // SBO: m 0-7 -> 8-15 (next block); LBO: k 0-7 -> 8-15
      return {16 * s * 16, 128, k * 16};
    return {16 * s * R, k * R, 8 * R}; // LBO: next block of m; SBO: 8 k rows
  }
};

/// What a kernel does around its wgmmas: the right order, or a planted bug.
enum class WgmmaPath : int {
  OneGroup,        ///< wgmma_fence, every step, one commit, wgmma_wait<0>
  GroupPerStep,    ///< a commit after each step, then wgmma_wait<1>: a product in flight throughout
  NoWait,          ///< bug: no wgmma_wait (the accumulators are stored while in flight)
  StoreBeforeWait, ///< bug: the accumulators stored before the wgmma_wait
  NoFence,         ///< bug: no wgmma_fence
  OverwriteOperand, ///< bug: A's first element rewritten (after a barrier) before the wgmma_wait
  WriteAccumulator, ///< bug: an accumulator register written before the wgmma_wait
  OtherShape,       ///< bug: a wgmma of half the N on the same registers before the wgmma_wait
};

/// One kernel run. `aOffset` moves A's tile off its 1024-byte alignment (a planted bug for the
/// swizzled modes).
struct WgmmaCase {
  int n = 64;
  Major aMajor = Major::K, bMajor = Major::K;
  Swizzle aSwizzle = Swizzle::B128, bSwizzle = Swizzle::B128;
  bool bf16 = false;
  bool accumulate = false; ///< D = A B + C (otherwise the accumulators start as NaN, scale-d 0)
  WgmmaPath path = WgmmaPath::OneGroup;
  int aOffset = 0;
  int threads = kThreads; ///< fewer: a planted bug (a warpgroup lacking warps)
  WGMMA_TEST_HD int k() const { return 16 * kSteps; }
  WGMMA_TEST_HD OperandLayout aLayout() const { return {aMajor, aSwizzle, kM, k()}; }
  WGMMA_TEST_HD OperandLayout bLayout() const { return {bMajor, bSwizzle, n, k()}; }
};
constexpr int kMaxN = 256, kMaxK = 64;
constexpr int kATileBytes = kM * kMaxK * 2 + 1024, kBTileBytes = kMaxN * kMaxK * 2;

/// One warpgroup: d[m][n] = (c[m][n] +) sum over k of a[m][k] b[k][n]. a (64 x K) and b (K x N):
/// 16-bit elements (fp16, or bf16 with `bf16`) as their bits, row-major; c and d fp32 64 x N,
/// row-major. N is 64, 128 or 256; K at most 64.
cudaError_t launchWgmma(const WgmmaCase &c, const uint16_t *a, const uint16_t *b, const float *cIn,
                        float *d);

/// tilec::rt::encode_smem_desc and the fields decode_smem_desc reads back (for the test of the bit
/// packing).
uint64_t packDescriptor(uint32_t address, Swizzle swizzle, uint32_t leading, uint32_t stride);
struct DescriptorFields {
  uint32_t start, leading, stride, baseOffset;
  int swizzle; ///< descriptor bits 62-63
};
DescriptorFields unpackDescriptor(uint64_t desc);
/// tilec::rt::smem_desc_moved.
uint64_t moveDescriptor(uint64_t desc, uint64_t bytes);
/// tilec::rt::WgmmaM64NK16's row and column of register r of thread t (for the test of the map).
int accumulatorRow(int t, int r);
int accumulatorCol(int t, int r);

/// "N=64 A K/128B B MN/32B f16 C".
inline std::string describe(const WgmmaCase &c) {
  auto op = [](Major m, Swizzle s) {
    return std::string(m == Major::K ? "K/" : "MN/") +
           (s == Swizzle::None ? "none" : std::to_string(int(s)) + "B");
  };
  return "N=" + std::to_string(c.n) + " A " + op(c.aMajor, c.aSwizzle) + " B " +
         op(c.bMajor, c.bSwizzle) + (c.bf16 ? " bf16" : " f16") + (c.accumulate ? " +C" : "");
}

// ---- host side, shared by the emulator's tests and the GPU program ------------------------------
/// The fp16 (or bf16) bits of a small integer v (|v| < 256), encoded by hand: exact in both
/// formats. (The GPU program builds as C++17, without tl.hpp's 16-bit types.)
inline uint16_t smallIntBits(int v, bool bf16) {
  if (v == 0)
    return 0;
  const unsigned sign = v < 0, mag = unsigned(v < 0 ? -v : v);
  int e = 0; // the exponent: 2^e <= mag < 2^(e + 1)
  while (mag >> (e + 1))
    ++e;
  const int bias = bf16 ? 127 : 15, mantissaBits = bf16 ? 7 : 10;
  const unsigned mantissa = (mag << (mantissaBits - e)) & ((1u << mantissaBits) - 1);
  return uint16_t(sign << 15 | unsigned(e + bias) << mantissaBits | mantissa);
}

/// Fresh operands: integers from -16 to 15 (a and b, as fp16 or bf16 bits) and from -64 to 63 (c):
/// every partial sum of products is an integer below 2^17, exact in fp32 in any order, so the GPU
/// must match the reference bit for bit. Random enough that a misplaced 16-byte chunk changes the
/// result.
struct WgmmaOperands {
  std::vector<int> aValues, bValues; ///< a[m][k] (64 x K) and b[k][n] (K x N), row-major
  std::vector<uint16_t> a, b;        ///< their bits
  std::vector<float> c;              ///< 64 x N
  WgmmaOperands(const WgmmaCase &wc, uint32_t seed)
      : aValues(size_t(kM) * wc.k()), bValues(size_t(wc.k()) * wc.n), c(size_t(kM) * wc.n) {
    std::mt19937 rng(seed);
    for (auto *v : {&aValues, &bValues})
      for (int &x : *v)
        x = int(rng() % 32) - 16;
    for (float &x : c)
      x = float(int(rng() % 128) - 64);
    for (int x : aValues)
      a.push_back(smallIntBits(x, wc.bf16));
    for (int x : bValues)
      b.push_back(smallIntBits(x, wc.bf16));
  }
  /// (c +) a b, summed in fp32 in increasing k (the emulator's order; exact here). With an
  /// `aOffset`, the A that the hardware reads: A's tile was staged as if aligned, and the swizzle
  /// takes its phase from the address, so element (m, k) is read where the staging put another.
  std::vector<float> reference(const WgmmaCase &wc) const {
    const int K = wc.k();
    std::vector<int> aRead = aValues;
    if (wc.aOffset != 0) {
      const OperandLayout layout = wc.aLayout();
      std::vector<int> image(size_t(layout.bytes()) / 2); // the staged tile, by element
      for (int m = 0; m < kM; ++m)
        for (int k = 0; k < K; ++k)
          image[size_t(layout.offset(m, k)) / 2] = aValues[size_t(m) * K + k];
      for (int m = 0; m < kM; ++m)
        for (int k = 0; k < K; ++k)
          aRead[size_t(m) * K + k] = image[size_t(layout.offset(m, k, wc.aOffset)) / 2];
    }
    std::vector<float> d(size_t(kM) * wc.n);
    for (int m = 0; m < kM; ++m)
      for (int n = 0; n < wc.n; ++n) {
        float s = wc.accumulate ? c[size_t(m) * wc.n + n] : 0.0f;
        for (int k = 0; k < K; ++k)
          s += float(aRead[size_t(m) * K + k]) * float(bValues[size_t(k) * wc.n + n]);
        d[size_t(m) * wc.n + n] = s;
      }
    return d;
  }
  /// The same with A as it was meant (the aligned reading), for the misaligned cases.
  std::vector<float> intended(WgmmaCase wc) const {
    wc.aOffset = 0;
    return reference(wc);
  }
};

/// Every layout pair the tests run for one N: A and B in each swizzle mode, B in both majors, A
/// MN-major in the unswizzled and 128-byte modes.
inline std::vector<WgmmaCase> layoutCases(int n, bool bf16) {
  std::vector<WgmmaCase> cases;
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    for (Major bMajor : {Major::K, Major::MN}) {
      WgmmaCase c;
      c.n = n, c.aSwizzle = s, c.bSwizzle = s, c.bMajor = bMajor, c.bf16 = bf16;
      c.accumulate = bMajor == Major::MN; // both scale-d forms of the first step
      cases.push_back(c);
    }
  for (Swizzle s : {Swizzle::None, Swizzle::B128}) {
    WgmmaCase c;
    c.n = n, c.aMajor = Major::MN, c.aSwizzle = s, c.bMajor = Major::MN, c.bSwizzle = Swizzle::B64;
    c.bf16 = bf16;
    cases.push_back(c);
  }
  return cases;
}

namespace at {
struct Issue;
struct OtherShape;
struct Wait;
} // namespace at

} // namespace emu_test::wgmma

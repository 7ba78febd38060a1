// Host-side checks of the device runtime headers (tilec/rt/*.hpp). Most helpers are plain templates:
// they are compiled here for the CPU with a minimal stand-in for the CUDA/HIP built-ins (threadIdx,
// __device__, the 16-bit float types: tl::half / tl::bfloat16, whose conversions are the reference
// ones) and checked against docs/internals.md and docs/language.md. Built twice, with the warp size
// of CUDA (32) and of HIP (64): RUNTIME_HOST_WARP_SIZE.
#include <tilec/detail/float16.hpp>
#include <tilec/detail/float8.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#define __host__
#define __device__
#define __forceinline__ inline
#define TILEC_WARP_SIZE RUNTIME_HOST_WARP_SIZE
#define TILEC_UNROLL
#define TILEC_NOINLINE
// tilec::rt::dynamic_shared_memory() declares an `extern __shared__` array (never called here).
#define __shared__
#define __align__(n)

namespace {
struct ThreadIdx {
  unsigned x = 0, y = 0, z = 0;
};
ThreadIdx threadIdx; // the "current thread" of the layout helpers
ThreadIdx blockIdx;  // the "current block" (tl::device_print's program id)
} // namespace

inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
// One thread at a time here: an atomic add is an add (tilec::rt::count_into).
inline int atomicAdd(int *p, int v) {
  const int old = *p;
  *p += v;
  return old;
}
// Barriers: one thread at a time here (tilec::rt::sort_rows runs as a block of one thread).
inline void __syncthreads() {}
// Fences (tilec::rt's atomics; not run here).
inline void __threadfence_block() {}
inline void __threadfence() {}
inline void __threadfence_system() {}

namespace tilec::rt {
using f16_t = tl::half;
using bf16_t = tl::bfloat16;
using f8e4m3_t = tl::float8_e4m3;
using f8e5m2_t = tl::float8_e5m2;
inline float to_float(f16_t x) { return static_cast<float>(x); }
inline float to_float(bf16_t x) { return static_cast<float>(x); }
inline float to_float(f8e4m3_t x) { return static_cast<float>(x); }
inline float to_float(f8e5m2_t x) { return static_cast<float>(x); }
inline f16_t to_f16(float x) { return f16_t(x); }  // round to nearest even, as __float2half_rn
inline bf16_t to_bf16(float x) { return bf16_t(x); } // as __float2bfloat16_rn
// Shuffles are not simulated here (compile tests cover the overloads); core.hpp needs them declared.
inline int shfl_xor(int v, int) { return v; }
inline float shfl_xor(float v, int) { return v; }
inline int64_t shfl_xor(int64_t v, int) { return v; }
inline int shfl_idx(int v, int) { return v; }
inline float shfl_idx(float v, int) { return v; }
inline int64_t shfl_idx(int64_t v, int) { return v; }
} // namespace tilec::rt

#include <tilec/rt/core.hpp>

#define RT_CAT2(a, b) a##b
#define RT_CAT(a, b) RT_CAT2(a, b)
#define RT_SUITE RT_CAT(RuntimeHostW, RUNTIME_HOST_WARP_SIZE)

namespace {

constexpr int W = RUNTIME_HOST_WARP_SIZE;

/// docs/internals.md "Layouts", written out independently of rt/layout.hpp.
struct Ref {
  std::vector<int> spt, tpw, wpb, order, S;
  int numWarps() const {
    int n = 1;
    for (int w : wpb)
      n *= w;
    return n;
  }
  int cov(int d) const { return spt[d] * tpw[d] * wpb[d]; }
  int elems(int d) const { return S[d] >= cov(d) ? S[d] / cov(d) * spt[d] : std::min(spt[d], S[d]); }
  std::vector<int> split(int id, const std::vector<int> &per) const {
    std::vector<int> c(S.size());
    for (int d : order) {
      c[d] = id % per[d];
      id /= per[d];
    }
    return c;
  }
  std::vector<int> laneC(int t) const { return split(t % W, tpw); }
  std::vector<int> warpC(int t) const { return split(t / W, wpb); }
  int thr(int t, int d) const { return laneC(t)[d] + tpw[d] * warpC(t)[d]; }
  int coord(int t, int d, int e) const {
    return ((e / spt[d]) * cov(d) + thr(t, d) * spt[d] + e % spt[d]) % S[d];
  }
  bool owner(int t) const {
    for (size_t d = 0; d < S.size(); ++d)
      if (thr(t, d) * spt[d] >= S[d])
        return false;
    return true;
  }
};

/// Every thread's coordinates and ownership against Ref; every element owned exactly once.
template <class L> void checkBlocked2(const Ref &r) {
  std::map<std::pair<int, int>, int> owners;
  ASSERT_EQ(L::ELEMS0, r.elems(0));
  ASSERT_EQ(L::ELEMS1, r.elems(1));
  for (int t = 0; t < r.numWarps() * W; ++t) {
    threadIdx.x = t;
    EXPECT_EQ(L::lane_coord0(), r.laneC(t)[0]) << t;
    EXPECT_EQ(L::lane_coord1(), r.laneC(t)[1]) << t;
    EXPECT_EQ(L::warp_coord0(), r.warpC(t)[0]) << t;
    EXPECT_EQ(L::warp_coord1(), r.warpC(t)[1]) << t;
    EXPECT_EQ(L::is_owner(), r.owner(t)) << t;
    for (int i = 0; i < L::ELEMS0; ++i)
      for (int j = 0; j < L::ELEMS1; ++j) {
        EXPECT_EQ(L::coord0(i), r.coord(t, 0, i)) << t;
        EXPECT_EQ(L::coord1(j), r.coord(t, 1, j)) << t;
        if (L::is_owner())
          ++owners[{L::coord0(i), L::coord1(j)}];
      }
  }
  EXPECT_EQ(owners.size(), static_cast<size_t>(r.S[0] * r.S[1]));
  for (const auto &[c, n] : owners)
    EXPECT_EQ(n, 1) << c.first << "," << c.second;
}

TEST(RT_SUITE, Blocked2MatchesInternals) {
  // Row-major threads, replicated along dim 0 (4 rows < 2 * 4 threads' worth).
  checkBlocked2<tilec::rt::Blocked2<1, 4, 2, W / 2, 4, 1, 1, 4, 64>>({{1, 4}, {2, W / 2}, {4, 1}, {1, 0}, {4, 64}});
  // Column-major threads, both dims repeat.
  checkBlocked2<tilec::rt::Blocked2<4, 1, W / 4, 4, 1, 4, 0, 128, 32>>(
      {{4, 1}, {W / 4, 4}, {1, 4}, {0, 1}, {128, 32}});
  // Tile smaller than the threads along both dims; spt larger than the tile along dim 1.
  checkBlocked2<tilec::rt::Blocked2<1, 8, 8, W / 8, 2, 2, 1, 2, 4>>({{1, 8}, {8, W / 8}, {2, 2}, {1, 0}, {2, 4}});
  checkBlocked2<tilec::rt::Blocked2<2, 2, W / 8, 8, 2, 2, 0, 8, 8>>({{2, 2}, {W / 8, 8}, {2, 2}, {0, 1}, {8, 8}});
}

/// The same for a rank-3 layout: coordinates, ownership, every element owned exactly once.
template <class L> void checkBlocked3(const Ref &r) {
  std::map<std::tuple<int, int, int>, int> owners;
  ASSERT_EQ(L::ELEMS0, r.elems(0));
  ASSERT_EQ(L::ELEMS1, r.elems(1));
  ASSERT_EQ(L::ELEMS2, r.elems(2));
  for (int t = 0; t < r.numWarps() * W; ++t) {
    threadIdx.x = t;
    EXPECT_EQ(L::lane_coord0(), r.laneC(t)[0]) << t;
    EXPECT_EQ(L::lane_coord1(), r.laneC(t)[1]) << t;
    EXPECT_EQ(L::lane_coord2(), r.laneC(t)[2]) << t;
    EXPECT_EQ(L::warp_coord0(), r.warpC(t)[0]) << t;
    EXPECT_EQ(L::warp_coord1(), r.warpC(t)[1]) << t;
    EXPECT_EQ(L::warp_coord2(), r.warpC(t)[2]) << t;
    EXPECT_EQ(L::is_owner(), r.owner(t)) << t;
    for (int i = 0; i < L::ELEMS0; ++i)
      for (int j = 0; j < L::ELEMS1; ++j)
        for (int k = 0; k < L::ELEMS2; ++k) {
          EXPECT_EQ(L::coord0(i), r.coord(t, 0, i)) << t;
          EXPECT_EQ(L::coord1(j), r.coord(t, 1, j)) << t;
          EXPECT_EQ(L::coord2(k), r.coord(t, 2, k)) << t;
          if (L::is_owner())
            ++owners[{L::coord0(i), L::coord1(j), L::coord2(k)}];
        }
  }
  EXPECT_EQ(owners.size(), static_cast<size_t>(r.S[0] * r.S[1] * r.S[2]));
  for (const auto &[c, n] : owners)
    EXPECT_EQ(n, 1) << std::get<0>(c) << "," << std::get<1>(c) << "," << std::get<2>(c);
}

TEST(RT_SUITE, Blocked3MatchesInternals) {
  using tilec::rt::Blocked3;
  // Dim 2 fastest, then 1 (row-major threads); 4 warps along dim 0; dim 2 repeats.
  checkBlocked3<Blocked3<1, 1, 4, 1, 2, W / 2, 4, 1, 1, 2, 1, 4, 2, 256>>(
      {{1, 1, 4}, {1, 2, W / 2}, {4, 1, 1}, {2, 1, 0}, {4, 2, 256}});
  // Dim 0 fastest, then 2: lanes over dims 0 and 2, warps over 1 and 2; replicated along dim 1
  // (2 < 2 warps' worth of 2 each).
  checkBlocked3<Blocked3<2, 2, 1, W / 4, 1, 4, 1, 2, 2, 0, 2, 32, 2, 16>>(
      {{2, 2, 1}, {W / 4, 1, 4}, {1, 2, 2}, {0, 2, 1}, {32, 2, 16}});
  // The middle dim fastest; a tile smaller than the threads along every dim.
  checkBlocked3<Blocked3<1, 2, 1, 2, 8, W / 16, 2, 1, 2, 1, 0, 2, 4, 2>>(
      {{1, 2, 1}, {2, 8, W / 16}, {2, 1, 2}, {1, 0, 2}, {2, 4, 2}});
}

/// Slice2<P, K> (P rank 3, size 1 along K) against Ref for P: its dims are P's dims other than K,
/// in order, with P's coordinates and owners; and Slice1 of it removing its dim 0 (a second
/// reduction's layout) leaves P's dim d1.
template <class P, int K> void checkSlice2(const Ref &r) {
  using S = tilec::rt::Slice2<P, K>;
  const int d0 = K == 0 ? 1 : 0, d1 = K == 2 ? 1 : 2;
  ASSERT_EQ(S::ELEMS0, r.elems(d0));
  ASSERT_EQ(S::ELEMS1, r.elems(d1));
  for (int t = 0; t < r.numWarps() * W; ++t) {
    threadIdx.x = t;
    EXPECT_EQ(S::is_owner(), r.owner(t)) << t;
    EXPECT_EQ(S::lane_coord0(), r.laneC(t)[d0]) << t;
    EXPECT_EQ(S::lane_coord1(), r.laneC(t)[d1]) << t;
    EXPECT_EQ(S::warp_coord0(), r.warpC(t)[d0]) << t;
    EXPECT_EQ(S::warp_coord1(), r.warpC(t)[d1]) << t;
    EXPECT_EQ(S::thr0(), r.thr(t, d0)) << t;
    EXPECT_EQ(S::thr1(), r.thr(t, d1)) << t;
    for (int e = 0; e < S::ELEMS0; ++e)
      EXPECT_EQ(S::coord0(e), r.coord(t, d0, e)) << t;
    for (int e = 0; e < S::ELEMS1; ++e)
      EXPECT_EQ(S::coord1(e), r.coord(t, d1, e)) << t;
    using S1 = tilec::rt::Slice1<S, 0>;
    ASSERT_EQ(S1::ELEMS, S::ELEMS1);
    EXPECT_EQ(S1::thr0(), r.thr(t, d1)) << t;
    EXPECT_EQ(S1::is_owner(), r.owner(t)) << t;
    for (int e = 0; e < S1::ELEMS; ++e)
      EXPECT_EQ(S1::coord0(e), r.coord(t, d1, e)) << t;
  }
}

TEST(RT_SUITE, Slice2MatchesInternals) {
  using tilec::rt::Blocked3;
  // Each dim of a rank-3 layout sliced away (the layouts of a [1, 8, 32], [4, 1, 32] and
  // [4, 8, 1] tile), then a second one.
  checkSlice2<Blocked3<1, 2, 2, 2, 4, W / 8, 2, 2, 1, 2, 1, 1, 8, 32>, 0>(
      {{1, 2, 2}, {2, 4, W / 8}, {2, 2, 1}, {2, 1, 0}, {1, 8, 32}});
  checkSlice2<Blocked3<1, 1, 2, 2, 4, W / 8, 2, 2, 1, 2, 1, 1, 1, 32>, 1>(
      {{1, 1, 2}, {2, 4, W / 8}, {2, 2, 1}, {2, 1, 0}, {1, 1, 32}});
  checkSlice2<Blocked3<2, 1, 1, 2, 4, W / 8, 2, 2, 1, 0, 1, 4, 1, 1>, 2>(
      {{2, 1, 1}, {2, 4, W / 8}, {2, 2, 1}, {0, 1, 2}, {4, 1, 1}});
}

TEST(RT_SUITE, Blocked1MatchesInternals) {
  using L = tilec::rt::Blocked1<2, W, 4, 64>; // replicated: 64 < 2 * W * 4
  Ref r{{2}, {W}, {4}, {0}, {64}};
  std::map<int, int> owners;
  ASSERT_EQ(L::ELEMS, r.elems(0));
  for (int t = 0; t < 4 * W; ++t) {
    threadIdx.x = t;
    EXPECT_EQ(L::lane_coord0(), r.laneC(t)[0]);
    EXPECT_EQ(L::warp_coord0(), r.warpC(t)[0]);
    EXPECT_EQ(L::is_owner(), r.owner(t));
    for (int e = 0; e < L::ELEMS; ++e) {
      EXPECT_EQ(L::coord0(e), r.coord(t, 0, e));
      if (L::is_owner())
        ++owners[L::coord0(e)];
    }
  }
  EXPECT_EQ(owners.size(), 64u);
  for (const auto &[c, n] : owners)
    EXPECT_EQ(n, 1) << c;
}

/// Slice(P, K): P over the shape with dim K of size 1; the slice's dim 0 is P's dim 1 - K.
template <class P, int K> void checkSlice(const Ref &parent) {
  using S = tilec::rt::Slice1<P, K>;
  const int D = 1 - K;
  std::map<int, int> owners;
  ASSERT_EQ(S::ELEMS, parent.elems(D));
  for (int t = 0; t < parent.numWarps() * W; ++t) {
    threadIdx.x = t;
    bool owner = parent.owner(t) && parent.thr(t, K) == 0;
    EXPECT_EQ(S::is_owner(), owner) << t;
    // Bug: Slice1 had no lane/warp coordinates, so the partials of a reduction of a sliced tile
    // (tl::sum(x) of a 2-D x, tl::max(tl::sum<1>(x))) did not compile: the emitter prints
    // `L::lane_coord0() == 0 && L::is_owner()` and `buf[L::warp_coord0()]`.
    EXPECT_EQ(S::lane_coord0(), parent.laneC(t)[D]) << t;
    EXPECT_EQ(S::warp_coord0(), parent.warpC(t)[D]) << t;
    EXPECT_EQ(S::thr0(), parent.thr(t, D)) << t;
    for (int e = 0; e < S::ELEMS; ++e) {
      EXPECT_EQ(S::coord0(e), parent.coord(t, D, e)) << t;
      if (owner)
        ++owners[S::coord0(e)];
    }
  }
  EXPECT_EQ(owners.size(), static_cast<size_t>(parent.S[D]));
  for (const auto &[c, n] : owners)
    EXPECT_EQ(n, 1) << c;
}

/// The 16-byte chunk group (of the eight 128-byte lines' worth of four banks) an offset falls in.
int bankGroup(int elemOffset, int elemBytes) { return elemOffset * elemBytes / 16 % 8; }

/// XorSwizzle<ROW, VEC, ...> over `rows` rows: a bijection of each row onto itself that keeps each
/// chunk whole, and at every chunk column, the eight rows an ldmatrix names at once (eight
/// consecutive rows, from any row a multiple of 8) fall in eight different bank groups.
template <class Z, int ROW, int VEC> void checkSwizzle(int rows, int elemBytes) {
  for (int r = 0; r < rows; ++r) {
    std::set<int> seen;
    for (int c = 0; c < ROW; ++c) {
      const int o = Z::offset(r, c);
      EXPECT_EQ(o / ROW, r) << r << "," << c;
      EXPECT_EQ(o % VEC, c % VEC) << r << "," << c;
      if (c % VEC != 0) {
        EXPECT_EQ(o, Z::offset(r, c - 1) + 1) << "a chunk stays contiguous at " << r << "," << c;
      }
      seen.insert(o);
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(ROW)) << "row " << r;
  }
  for (int r0 = 0; r0 + 8 <= rows; r0 += 8)
    for (int c = 0; c < ROW; c += VEC) {
      std::set<int> groups;
      for (int r = r0; r < r0 + 8; ++r)
        groups.insert(bankGroup(Z::offset(r, c), elemBytes));
      EXPECT_EQ(groups.size(), 8u) << "rows " << r0 << ".. at column " << c;
    }
}

TEST(RT_SUITE, XorSwizzleKeepsChunksAndSpreadsRowsOverBanks) {
  // lowering::chunkSwizzle's choices for 16-bit rows of 16 (32 bytes), 32, 64 and 128 elements,
  // and for fp32 rows of 64 (the epilogue's conversion buffer).
  checkSwizzle<tilec::rt::XorSwizzle<16, 8, 4, 2>, 16, 8>(64, 2);
  checkSwizzle<tilec::rt::XorSwizzle<32, 8, 2, 4>, 32, 8>(64, 2);
  checkSwizzle<tilec::rt::XorSwizzle<64, 8, 1, 8>, 64, 8>(64, 2);
  checkSwizzle<tilec::rt::XorSwizzle<128, 8, 1, 8>, 128, 8>(32, 2);
  checkSwizzle<tilec::rt::XorSwizzle<64, 4, 1, 8>, 64, 4>(32, 4);
  // The formula itself (Triton's #shared): chunk 1 of row 5 with rows of 32 halves goes to chunk
  // 1 ^ (5 / 2 % 4) = 3.
  static_assert(tilec::rt::XorSwizzle<32, 8, 2, 4>::offset(5, 9) == 5 * 32 + 3 * 8 + 1);
}

TEST(RT_SUITE, Slice1MatchesInternals) {
  // The layouts of a 16 x 64 tile with 4x16-lane (W 64) / 2x16 (W 32) warps, rows sliced and columns.
  checkSlice<tilec::rt::Blocked2<1, 4, W / 16, 16, 4, 1, 1, 16, 1>, 1>({{1, 4}, {W / 16, 16}, {4, 1}, {1, 0}, {16, 1}});
  checkSlice<tilec::rt::Blocked2<1, 4, W / 16, 16, 4, 1, 1, 1, 64>, 0>({{1, 4}, {W / 16, 16}, {4, 1}, {1, 0}, {1, 64}});
  checkSlice<tilec::rt::Blocked2<4, 1, 16, W / 16, 1, 4, 0, 64, 1>, 1>({{4, 1}, {16, W / 16}, {1, 4}, {0, 1}, {64, 1}});
  checkSlice<tilec::rt::Blocked2<4, 1, 16, W / 16, 2, 2, 0, 1, 8>, 0>({{4, 1}, {16, W / 16}, {2, 2}, {0, 1}, {1, 8}});
}

/// tilec/rt/scan.hpp's model of a layout along a scan's axis: run r of the thread at position p
/// (lane + LANES * warp, a copy's those of its original) holds elements (r * WARPS * LANES + p) *
/// SEG + s; the next lane along the axis is LANE_STRIDE lanes on.
template <class L, int AXIS> void checkScanShape(int warps) {
  using Sh = tilec::rt::detail::ScanShape<L, AXIS>;
  using A = typename Sh::A;
  for (int t = 0; t < W * warps; ++t) {
    threadIdx.x = t;
    const int p = Sh::lane() + Sh::LANES * Sh::warp(), lane = A::lane(), warp = A::warp();
    for (int r = 0; r < Sh::REPS; ++r)
      for (int s = 0; s < Sh::SEG; ++s) {
        const int e = r * Sh::SEG + s;
        int coord;
        if constexpr (requires { L::coord1(0); })
          coord = AXIS == 0 ? L::coord0(e) : L::coord1(e);
        else
          coord = L::coord0(e);
        EXPECT_EQ(coord, (r * Sh::WARPS * Sh::LANES + p) * Sh::SEG + s)
            << "thread " << t << " e " << e;
      }
    if (lane + 1 < A::TPW && (t % W) + A::LANE_STRIDE < W) {
      threadIdx.x = t + A::LANE_STRIDE;
      EXPECT_EQ(A::lane(), lane + 1) << "thread " << t;
      EXPECT_EQ(A::warp(), warp) << "thread " << t;
    }
  }
}

TEST(RT_SUITE, ScanShapeMatchesLayouts) {
  checkScanShape<tilec::rt::Blocked1<4, W, 4, 2048 * W / 32>, 0>(4); // repetitions
  checkScanShape<tilec::rt::Blocked1<2, W, 4, 64>, 0>(4);            // copies: 64 < 2 * W * 4
  checkScanShape<tilec::rt::Blocked1<8, W, 4, 4>, 0>(4);             // SPT > S: every thread all
  using R = tilec::rt::Blocked2<1, 4, 2, W / 2, 4, 1, 1, 16, 64>;    // rows across lanes
  checkScanShape<R, 1>(4);
  checkScanShape<R, 0>(4);
  using C = tilec::rt::Blocked2<4, 1, W / 4, 4, 1, 4, 0, 128, 32>; // column-major lanes
  checkScanShape<C, 0>(4);
  checkScanShape<C, 1>(4);
  checkScanShape<tilec::rt::Slice1<R, 1>, 0>(4);
  checkScanShape<tilec::rt::Slice1<C, 0>, 0>(4);
  static_assert(
      tilec::rt::detail::ScanShape<tilec::rt::Blocked1<4, W, 4, 2048 * W / 32>, 0>::REPS == 4);
  static_assert(tilec::rt::detail::ScanShape<tilec::rt::Blocked1<2, W, 4, 64>, 0>::WARPS ==
                (64 / 2 > W ? 64 / 2 / W : 1));
}

// sort_rows as a block of one thread, which then compares every pair of each step itself: each
// row comes out as std::sort orders it by IEEE 754 totalOrder (floats; the key written here).
TEST(RT_SUITE, SortRowsSortsEachRowInTotalOrder) {
  threadIdx.x = 0;
  auto key = [](float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b >> 31 ? ~b : b | 0x80000000u;
  };
  std::mt19937 rng(7);
  std::array<float, 128> x;
  const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f};
  for (auto &v : x)
    v = rng() % 4 == 0 ? specials[rng() % 7] : float(int(rng() % 2001) - 1000) / 8;
  for (bool descending : {false, true}) {
    std::array<float, 128> rows = x, want = x;
    if (descending)
      tilec::rt::sort_rows<4, 32, true, 1>(rows.data());
    else
      tilec::rt::sort_rows<4, 32, false, 1>(rows.data());
    for (int r = 0; r < 4; ++r)
      std::sort(want.begin() + 32 * r, want.begin() + 32 * (r + 1),
                [&](float a, float b) { return descending ? key(b) < key(a) : key(a) < key(b); });
    EXPECT_EQ(std::memcmp(rows.data(), want.data(), sizeof rows), 0) << descending;
  }
  std::array<int64_t, 16> ints{};
  for (auto &v : ints)
    v = int64_t(rng()) - int64_t(rng());
  auto want = ints;
  std::sort(want.begin(), want.end());
  tilec::rt::sort_rows<1, 16, false, 1>(ints.data());
  EXPECT_EQ(ints, want);
}

TEST(RT_SUITE, CountIntoIgnoresValuesOutsideTheBins) {
  int bins[4] = {0, 0, 0, 0};
  for (int64_t v : {int64_t{0}, int64_t{3}, int64_t{3}, int64_t{-1}, int64_t{4}, int64_t{1} << 40,
                    int64_t{-(int64_t{1} << 40)} + 2})
    tilec::rt::count_into<4>(bins, v);
  tilec::rt::count_into<4>(bins, uint8_t{2});
  tilec::rt::count_into<4>(bins, int8_t{-128});
  EXPECT_EQ(bins[0], 1);
  EXPECT_EQ(bins[1], 0);
  EXPECT_EQ(bins[2], 1);
  EXPECT_EQ(bins[3], 2);
}

TEST(RT_SUITE, IntToBf16RoundsOnce) {
  using tilec::rt::int_to_bf16;
  // Through float this rounds twice: 2^24 + 2^16 + 1 -> 2^24 + 2^16 (float) -> 2^24 (tie to even).
  const int64_t x = (1 << 24) + (1 << 16) + 1;
  EXPECT_EQ(tl::bfloat16(static_cast<float>(x)).bits, tl::bfloat16(16777216.0f).bits);
  EXPECT_EQ(int_to_bf16(x).bits, tl::bfloat16(x).bits);
  EXPECT_EQ(static_cast<float>(int_to_bf16(x)), 16777216.0f + 131072.0f);
  // int32: exact through double, one rounding, as the CPU reference.
  std::vector<int64_t> xs{0, 1, -1, 255, 256, 257, 65535, INT32_MAX, INT32_MIN, INT32_MIN + 1,
                          -((1 << 24) + (1 << 16) + 1), (1 << 25) + (1 << 17) + 1, (1 << 30) + 3,
                          INT64_MAX, INT64_MIN, (int64_t{1} << 62) + (int64_t{1} << 54) + 1};
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 20000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    int32_t v = static_cast<int32_t>(s >> 32) >> (i % 24);
    xs.push_back(v);
    xs.push_back(static_cast<int64_t>(s) >> (i % 48));
  }
  for (int64_t v : xs) {
    // The reference: through double (exact for int32, like the CPU's tl::bfloat16(int64_t) for int64).
    EXPECT_EQ(int_to_bf16(v).bits, tl::bfloat16(v).bits) << v;
    if (v >= INT32_MIN && v <= INT32_MAX) {
      EXPECT_EQ(int_to_bf16(static_cast<int>(v)).bits, tl::bfloat16(static_cast<int>(v)).bits) << v;
    }
  }
}

TEST(RT_SUITE, VectorAccessFallbacks) {
  using namespace tilec::rt;
  // Masked load: masked-off elements take `other` (converted to T) and never touch memory; STRIDE
  // walks the thread's storage.
  tl::half src[8];
  for (int i = 0; i < 8; ++i)
    src[i] = tl::half(static_cast<float>(i + 1));
  tl::half dst[2][4] = {};
  bool mask[2][4] = {{true, false, true, true}, {false, true, true, true}};
  load_vec<2, false, 4>(&dst[0][1], src + 1, &mask[0][1], to_f16(-1.5f));
  EXPECT_EQ(static_cast<float>(dst[0][1]), -1.5f);
  EXPECT_EQ(static_cast<float>(dst[1][1]), 3.0f);
  bool all[4] = {true, true, true, true};
  tl::half d4[4];
  load_vec<4, false>(d4, src + 1, all, to_f16(0.0f)); // misaligned: element accesses
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(static_cast<float>(d4[i]), static_cast<float>(i + 2));
  tl::half out[8] = {};
  store_vec<2, false, 4>(out + 3, &dst[0][1], &mask[0][1]);
  EXPECT_EQ(static_cast<float>(out[3]), 0.0f); // mask[0][1] off
  EXPECT_EQ(static_cast<float>(out[4]), 3.0f);
}

/// tl::device_print's arguments: what printf takes for each element type (16-bit floats widened,
/// narrow integers promoted with their sign, 64-bit ones as long long), and tl::hex's bits
/// zero-extended.
TEST(RT_SUITE, PrintArguments) {
  using namespace tilec::rt;
  static_assert(std::is_same_v<decltype(detail::print_argument(to_f16(1.5f))), double>);
  static_assert(std::is_same_v<decltype(detail::print_argument(int8_t(-3))), int>);
  static_assert(std::is_same_v<decltype(detail::print_argument(uint16_t(3))), unsigned>);
  static_assert(std::is_same_v<decltype(detail::print_argument(int64_t(-3))), long long>);
  static_assert(std::is_same_v<decltype(detail::print_argument(true)), int>);
  EXPECT_EQ(detail::print_argument(to_f16(1.5f)), 1.5);
  EXPECT_EQ(detail::print_argument(to_bf16(-2.0f)), -2.0);
  EXPECT_EQ(detail::print_argument(int8_t(-3)), -3);
  EXPECT_EQ(detail::print_argument(uint64_t(~0ull)), ~0ull);
  EXPECT_EQ(print_bits(to_f16(1.5f)), 0x3e00u);
  EXPECT_EQ(print_bits(int8_t(-1)), 0xffu);
  EXPECT_EQ(print_bits(int16_t(-2)), 0xfffeu);
  EXPECT_EQ(print_bits(1.0f), 0x3f800000u);
  EXPECT_EQ(print_bits(-1.0), 0xbff0000000000000ull);
  blockIdx = {3, 1, 2};
  EXPECT_EQ(detail::program(0), 3u);
  EXPECT_EQ(detail::program(2), 2u);
  blockIdx = ThreadIdx{};
}

} // namespace

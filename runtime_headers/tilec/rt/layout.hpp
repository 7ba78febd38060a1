#pragma once
/// \file Thread -> element mapping of tilec's blocked layouts (docs/internals.md, "Layouts").
///
/// A layout type describes one layout applied to one tile shape. Everything is a compile-time
/// constant except the thread's own coordinates, which come from threadIdx.x:
///   lane = t % W, warp = t / W; lane and warp ids are split over the dims fastest dim first;
///   thr[d] = laneC[d] + TPW[d] * warpC[d]; cov[d] = SPT[d] * TPW[d] * WPB[d];
///   element e of dim d sits at ((e / SPT) * cov + thr * SPT + e % SPT) % S.
/// The warp size W is TPW0 (rank 1), TPW0 * TPW1 (rank 2) or TPW0 * TPW1 * TPW2 (rank 3), checked
/// against the target's.

namespace tilec::rt {

namespace detail {
/// Elements one thread holds along a dim of size S covered by cov = SPT * TPW * WPB threads' worth.
constexpr int elems(int S, int SPT, int cov) { return S >= cov ? S / cov * SPT : (SPT < S ? SPT : S); }
/// Coordinate of per-thread element e along a dim (see the file comment). e, S, SPT and cov are
/// compile-time constants in every use. When the threads cover the dim no more than once (S >= cov)
/// the sum is already below S, and leaving out the `% S` lets the compiler fold the constant part
/// into the address of each access; otherwise the sum is non-negative and an unsigned remainder is
/// a mask for the power-of-two sizes tiles have.
__device__ __forceinline__ int coord(int e, int S, int SPT, int cov, int thr) {
  const int c = (e / SPT) * cov + thr * SPT + e % SPT;
  return S >= cov ? c : static_cast<int>(static_cast<unsigned>(c) % static_cast<unsigned>(S));
}
} // namespace detail

/// Where element (row, col) of a shared buffer with XOR-swizzled rows sits (tilec's SharedSwizzle;
/// Triton's `#shared{vec, perPhase, maxPhase}`): rows are ROW elements apart, cut into chunks of
/// VEC elements (16 bytes), and chunk col / VEC of a row is stored at chunk (col / VEC) ^ (row /
/// PER_PHASE % MAX_PHASE) of the same row. Eight rows read at one column (by ldmatrix, or as
/// 16-byte vectors) then fall in eight different groups of four banks, with no padding between
/// rows. An access of up to VEC elements that starts on a chunk stays contiguous.
template <int ROW, int VEC, int PER_PHASE, int MAX_PHASE> struct XorSwizzle {
  static_assert(ROW % (VEC * MAX_PHASE) == 0, "a row holds every chunk the swizzle moves to");
  /// The element offset from the buffer's start. Row and column are never negative: unsigned
  /// arithmetic lets the divisions by powers of two be shifts.
  __host__ __device__ static constexpr int offset(int row, int col) {
    const unsigned r = static_cast<unsigned>(row), c = static_cast<unsigned>(col);
    return static_cast<int>(r * ROW + ((c / VEC) ^ (r / PER_PHASE % MAX_PHASE)) * VEC + c % VEC);
  }
};

/// The same swizzle on a buffer of ROWS rows stored as column blocks: columns BLOCK * b to
/// BLOCK * b + BLOCK - 1 of every row form block b, a buffer of ROWS rows of BLOCK elements of its
/// own (XorSwizzle<BLOCK, ...>), the blocks one after another. Rows wider than a swizzle's 128
/// bytes are stored so for wgmma and TMA, which read 128-byte rows (tilec's SharedBuffer
/// colBlock).
template <int ROWS, int BLOCK, int VEC, int PER_PHASE, int MAX_PHASE>
struct XorSwizzleColumnBlocks {
  using InBlock = XorSwizzle<BLOCK, VEC, PER_PHASE, MAX_PHASE>;
  __host__ __device__ static constexpr int offset(int row, int col) {
    const unsigned c = static_cast<unsigned>(col);
    return static_cast<int>(c / BLOCK * (ROWS * BLOCK)) +
           InBlock::offset(row, static_cast<int>(c % BLOCK));
  }
};

/// Rank-1 blocked layout over a tile of S elements: each thread holds SPT consecutive elements,
/// TPW lanes (the whole warp) and WPB warps tile the dimension; the pattern repeats or replicates.
template <int SPT, int TPW, int WPB, int S> struct Blocked1 {
  static_assert(TPW == TILEC_WARP_SIZE, "threads per warp must equal the warp size");
  static constexpr int COV = SPT * TPW * WPB;
  static constexpr int ELEMS = detail::elems(S, SPT, COV); ///< per-thread elements
  static constexpr bool REPLICATED = S < COV;             ///< several threads hold each element

  __device__ __forceinline__ static int lane_coord0() { return threadIdx.x % TPW; }
  __device__ __forceinline__ static int warp_coord0() { return threadIdx.x / TPW; }
  __device__ __forceinline__ static int thr0() { return threadIdx.x; }
  /// Tile coordinate of the thread's element e.
  __device__ __forceinline__ static int coord0(int e) { return detail::coord(e, S, SPT, COV, thr0()); }
  /// True for the one thread that owns each element (false only on replicas).
  __device__ __forceinline__ static bool is_owner() { return thr0() * SPT < S; }
};

/// Rank-2 blocked layout over an S0 x S1 tile. FAST is order[0], the dim whose lanes (and warps)
/// are adjacent: 1 for row-major thread order, 0 for column-major.
template <int SPT0, int SPT1, int TPW0, int TPW1, int WPB0, int WPB1, int FAST, int S0, int S1>
struct Blocked2 {
  static_assert(TPW0 * TPW1 == TILEC_WARP_SIZE, "threads per warp must multiply to the warp size");
  static_assert(FAST == 0 || FAST == 1, "order[0] is 0 or 1");
  static constexpr int W = TPW0 * TPW1;
  static constexpr int COV0 = SPT0 * TPW0 * WPB0, COV1 = SPT1 * TPW1 * WPB1;
  static constexpr int ELEMS0 = detail::elems(S0, SPT0, COV0);
  static constexpr int ELEMS1 = detail::elems(S1, SPT1, COV1);
  static constexpr bool REPLICATED = S0 < COV0 || S1 < COV1;

  __device__ __forceinline__ static int lane() { return threadIdx.x % W; }
  __device__ __forceinline__ static int warp() { return threadIdx.x / W; }
  __device__ __forceinline__ static int lane_coord0() { return FAST == 0 ? lane() % TPW0 : lane() / TPW1; }
  __device__ __forceinline__ static int lane_coord1() { return FAST == 1 ? lane() % TPW1 : lane() / TPW0; }
  __device__ __forceinline__ static int warp_coord0() { return FAST == 0 ? warp() % WPB0 : warp() / WPB1; }
  __device__ __forceinline__ static int warp_coord1() { return FAST == 1 ? warp() % WPB1 : warp() / WPB0; }
  __device__ __forceinline__ static int thr0() { return lane_coord0() + TPW0 * warp_coord0(); }
  __device__ __forceinline__ static int thr1() { return lane_coord1() + TPW1 * warp_coord1(); }
  __device__ __forceinline__ static int coord0(int e) { return detail::coord(e, S0, SPT0, COV0, thr0()); }
  __device__ __forceinline__ static int coord1(int e) { return detail::coord(e, S1, SPT1, COV1, thr1()); }
  __device__ __forceinline__ static bool is_owner() { return thr0() * SPT0 < S0 && thr1() * SPT1 < S1; }
};

namespace detail {
/// The coordinate along dim D of `id` split mixed-radix over the dims in the order ORD0, ORD1,
/// ORD2 (the fastest first), N[d] ids along dim d: a lane id over TPW, a warp id over WPB.
template <int D, int ORD0, int ORD1, int ORD2>
__device__ __forceinline__ int split3(int id, int n0, int n1, int n2) {
  const int n[3] = {n0, n1, n2};
  const int first = id % n[ORD0];
  id /= n[ORD0];
  const int second = id % n[ORD1];
  id /= n[ORD1];
  return D == ORD0 ? first : D == ORD1 ? second : id % n[ORD2];
}
} // namespace detail

/// Rank-3 blocked layout over an S0 x S1 x S2 tile. ORD0 and ORD1 are order[0] and order[1] (the
/// fastest dim, then the next; the third is the one left): lane and warp ids are split over the
/// dims in that order.
template <int SPT0, int SPT1, int SPT2, int TPW0, int TPW1, int TPW2, int WPB0, int WPB1, int WPB2,
          int ORD0, int ORD1, int S0, int S1, int S2>
struct Blocked3 {
  static_assert(TPW0 * TPW1 * TPW2 == TILEC_WARP_SIZE,
                "threads per warp must multiply to the warp size");
  static_assert(ORD0 >= 0 && ORD0 < 3 && ORD1 >= 0 && ORD1 < 3 && ORD0 != ORD1,
                "order[0] and order[1] are two different dims of 0, 1, 2");
  static constexpr int ORD2 = 3 - ORD0 - ORD1;
  static constexpr int W = TPW0 * TPW1 * TPW2;
  static constexpr int COV0 = SPT0 * TPW0 * WPB0, COV1 = SPT1 * TPW1 * WPB1,
                       COV2 = SPT2 * TPW2 * WPB2;
  static constexpr int ELEMS0 = detail::elems(S0, SPT0, COV0);
  static constexpr int ELEMS1 = detail::elems(S1, SPT1, COV1);
  static constexpr int ELEMS2 = detail::elems(S2, SPT2, COV2);
  static constexpr bool REPLICATED = S0 < COV0 || S1 < COV1 || S2 < COV2;

  __device__ __forceinline__ static int lane() { return threadIdx.x % W; }
  __device__ __forceinline__ static int warp() { return threadIdx.x / W; }
  __device__ __forceinline__ static int lane_coord0() { return detail::split3<0, ORD0, ORD1, ORD2>(lane(), TPW0, TPW1, TPW2); }
  __device__ __forceinline__ static int lane_coord1() { return detail::split3<1, ORD0, ORD1, ORD2>(lane(), TPW0, TPW1, TPW2); }
  __device__ __forceinline__ static int lane_coord2() { return detail::split3<2, ORD0, ORD1, ORD2>(lane(), TPW0, TPW1, TPW2); }
  __device__ __forceinline__ static int warp_coord0() { return detail::split3<0, ORD0, ORD1, ORD2>(warp(), WPB0, WPB1, WPB2); }
  __device__ __forceinline__ static int warp_coord1() { return detail::split3<1, ORD0, ORD1, ORD2>(warp(), WPB0, WPB1, WPB2); }
  __device__ __forceinline__ static int warp_coord2() { return detail::split3<2, ORD0, ORD1, ORD2>(warp(), WPB0, WPB1, WPB2); }
  __device__ __forceinline__ static int thr0() { return lane_coord0() + TPW0 * warp_coord0(); }
  __device__ __forceinline__ static int thr1() { return lane_coord1() + TPW1 * warp_coord1(); }
  __device__ __forceinline__ static int thr2() { return lane_coord2() + TPW2 * warp_coord2(); }
  __device__ __forceinline__ static int coord0(int e) { return detail::coord(e, S0, SPT0, COV0, thr0()); }
  __device__ __forceinline__ static int coord1(int e) { return detail::coord(e, S1, SPT1, COV1, thr1()); }
  __device__ __forceinline__ static int coord2(int e) { return detail::coord(e, S2, SPT2, COV2, thr2()); }
  __device__ __forceinline__ static bool is_owner() {
    return thr0() * SPT0 < S0 && thr1() * SPT1 < S1 && thr2() * SPT2 < S2;
  }
};

/// Dimension K of the rank-3 layout P removed (P's shape has size 1 along K), as Slice1 does for
/// rank 2: a rank-2 layout whose dims 0 and 1 are P's dims other than K, in order. Every thread
/// along K holds the same elements; the owner is P's. A Slice1 of a Slice2 removes a second dim.
template <class P, int K> struct Slice2 {
  static_assert(K >= 0 && K < 3, "slice of a rank-3 layout");
  static constexpr int D0 = K == 0 ? 1 : 0; ///< P's dim that is this layout's dim 0
  static constexpr int D1 = K == 2 ? 1 : 2; ///< P's dim that is this layout's dim 1
  static constexpr int ELEMS0 = D0 == 0 ? P::ELEMS0 : P::ELEMS1;
  static constexpr int ELEMS1 = D1 == 1 ? P::ELEMS1 : P::ELEMS2;
  static constexpr bool REPLICATED = true;
  __device__ __forceinline__ static int lane_coord0() { return D0 == 0 ? P::lane_coord0() : P::lane_coord1(); }
  __device__ __forceinline__ static int lane_coord1() { return D1 == 1 ? P::lane_coord1() : P::lane_coord2(); }
  __device__ __forceinline__ static int warp_coord0() { return D0 == 0 ? P::warp_coord0() : P::warp_coord1(); }
  __device__ __forceinline__ static int warp_coord1() { return D1 == 1 ? P::warp_coord1() : P::warp_coord2(); }
  __device__ __forceinline__ static int thr0() { return D0 == 0 ? P::thr0() : P::thr1(); }
  __device__ __forceinline__ static int thr1() { return D1 == 1 ? P::thr1() : P::thr2(); }
  __device__ __forceinline__ static int coord0(int e) { return D0 == 0 ? P::coord0(e) : P::coord1(e); }
  __device__ __forceinline__ static int coord1(int e) { return D1 == 1 ? P::coord1(e) : P::coord2(e); }
  __device__ __forceinline__ static bool is_owner() { return P::is_owner(); }
};

/// Dimension K of the rank-2 layout P removed (P's shape has size 1 along K). Every thread along K
/// holds the same elements; the owner is the one with thr[K] == 0 that also owns in P. The slice's
/// dim 0 is P's dim 1 - K: its lane, warp and thread coordinates are P's along that dim (what the
/// partials of a reduction of a sliced tile use).
template <class P, int K> struct Slice1 {
  static_assert(K == 0 || K == 1, "slice of a rank-2 layout");
  static constexpr int ELEMS = K == 1 ? P::ELEMS0 : P::ELEMS1;
  static constexpr bool REPLICATED = true;
  __device__ __forceinline__ static int lane_coord0() { return K == 1 ? P::lane_coord0() : P::lane_coord1(); }
  __device__ __forceinline__ static int warp_coord0() { return K == 1 ? P::warp_coord0() : P::warp_coord1(); }
  __device__ __forceinline__ static int thr0() { return K == 1 ? P::thr0() : P::thr1(); }
  __device__ __forceinline__ static int coord0(int e) { return K == 1 ? P::coord0(e) : P::coord1(e); }
  __device__ __forceinline__ static bool is_owner() { return P::is_owner(); }
};

/// Dim D of layout L as a scan along it sees it: its SPT, TPW, WPB and size S, how many lanes apart
/// two threads next to each other along D are (LANE_STRIDE), and the thread's lane and warp
/// coordinates along D.
template <class L, int D> struct AxisOf;
template <int SPT_, int TPW_, int WPB_, int S_> struct AxisOf<Blocked1<SPT_, TPW_, WPB_, S_>, 0> {
  using L = Blocked1<SPT_, TPW_, WPB_, S_>;
  static constexpr int SPT = SPT_, TPW = TPW_, WPB = WPB_, S = S_, LANE_STRIDE = 1;
  __device__ __forceinline__ static int lane() { return L::lane_coord0(); }
  __device__ __forceinline__ static int warp() { return L::warp_coord0(); }
};
template <int SPT0, int SPT1, int TPW0, int TPW1, int WPB0, int WPB1, int FAST, int S0, int S1>
struct AxisOf<Blocked2<SPT0, SPT1, TPW0, TPW1, WPB0, WPB1, FAST, S0, S1>, 0> {
  using L = Blocked2<SPT0, SPT1, TPW0, TPW1, WPB0, WPB1, FAST, S0, S1>;
  static constexpr int SPT = SPT0, TPW = TPW0, WPB = WPB0, S = S0;
  static constexpr int LANE_STRIDE = FAST == 0 ? 1 : TPW1;
  __device__ __forceinline__ static int lane() { return L::lane_coord0(); }
  __device__ __forceinline__ static int warp() { return L::warp_coord0(); }
};
template <int SPT0, int SPT1, int TPW0, int TPW1, int WPB0, int WPB1, int FAST, int S0, int S1>
struct AxisOf<Blocked2<SPT0, SPT1, TPW0, TPW1, WPB0, WPB1, FAST, S0, S1>, 1> {
  using L = Blocked2<SPT0, SPT1, TPW0, TPW1, WPB0, WPB1, FAST, S0, S1>;
  static constexpr int SPT = SPT1, TPW = TPW1, WPB = WPB1, S = S1;
  static constexpr int LANE_STRIDE = FAST == 1 ? 1 : TPW0;
  __device__ __forceinline__ static int lane() { return L::lane_coord1(); }
  __device__ __forceinline__ static int warp() { return L::warp_coord1(); }
};
/// A slice's one dim is its parent's other one.
template <class P, int K> struct AxisOf<Slice1<P, K>, 0> : AxisOf<P, 1 - K> {};

} // namespace tilec::rt

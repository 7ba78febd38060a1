#pragma once
/// \file Scans along one dim of a tile held in registers (tl::cumsum, tl::cumprod), in the two
/// parts lower-reductions splits a scan into (ir::Scan):
///   scan_in_warp      each element combined with the elements before it that its own warp holds
///                     in the same repetition of the layout, and across the repetitions too where
///                     one warp holds the dim's distinct elements (then the scan is complete);
///   scan_write_totals each warp's total per repetition into shared memory (when several warps
///                     hold distinct elements along the dim), then a barrier;
///   scan_add_carries  each element combined with the totals of the warps and repetitions before
///                     its own.
/// "Before" is in the scan's direction: lower indices, higher ones when REVERSE. Every combination
/// takes the earlier value on the left, `Op::combine(earlier, later)`.
///
/// Along the dim, a thread of a blocked layout holds REPS runs of SEG consecutive elements, run r
/// of the thread at position p (its lane and warp along the dim, p = lane + TPW * warp) starting at
/// element (r * WARPS * LANES + p) * SEG. Threads beyond the dim's distinct elements (a tile
/// smaller than the layout's coverage) hold copies: they compute the same values, from lanes of
/// their own group, and do not write totals.
///
/// Within a run the thread combines sequentially; across the lanes of a warp the runs' totals are
/// combined with log2(LANES) shuffles (Hillis and Steele's scan), and each run takes the total of
/// the lanes before it with one more.

namespace tilec::rt {

namespace detail {

/// The value `v` of lane `src` of the warp, for every element type: narrow types travel as 32-bit
/// words and doubles as their 64 bits (exact both ways); all lanes take part.
template <class T> __device__ __forceinline__ T shfl_from(T v, int src) {
  if constexpr (std::is_same_v<T, float>) {
    return shfl_idx(v, src);
  } else if constexpr (std::is_same_v<T, double>) {
    int64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = shfl_idx(bits, src);
    memcpy(&v, &bits, sizeof v);
    return v;
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (sizeof(T) == 8)
      return static_cast<T>(shfl_idx(static_cast<int64_t>(v), src));
    else
      return static_cast<T>(shfl_idx(static_cast<int>(v), src));
  } else if constexpr (std::is_same_v<T, f16_t>) {
    return to_f16(shfl_idx(to_float(v), src));
  } else {
    static_assert(std::is_same_v<T, bf16_t>, "shfl_from: an element type of tiles");
    return to_bf16(shfl_idx(to_float(v), src));
  }
}

/// How the threads of layout L hold dim AXIS, for a scan along it (see the file comment).
template <class L, int AXIS> struct ScanShape {
  using A = AxisOf<L, AXIS>;
  static constexpr int COV = A::SPT * A::TPW * A::WPB;
  static constexpr int SEG = A::S >= COV ? A::SPT : (A::SPT < A::S ? A::SPT : A::S);
  static constexpr int REPS = A::S >= COV ? A::S / COV : 1;
  /// Threads along the dim that hold distinct elements: LANES of each of WARPS warps.
  static constexpr int DISTINCT = A::S >= COV ? A::TPW * A::WPB : A::S / SEG;
  static constexpr int LANES = DISTINCT < A::TPW ? DISTINCT : A::TPW;
  static constexpr int WARPS = DISTINCT / LANES;
  /// The thread's lane and warp positions along the dim (a copy's are its original's).
  __device__ __forceinline__ static int lane() { return A::lane() % LANES; }
  __device__ __forceinline__ static int warp() { return A::warp() % WARPS; }
};

template <class Op, class L, int AXIS, bool REVERSE, int OTHER, class At>
__device__ __forceinline__ void scan_in_warp(At at) {
  using Sh = ScanShape<L, AXIS>;
  using T = std::remove_reference_t<decltype(at(0, 0))>;
  constexpr int SEG = Sh::SEG, REPS = Sh::REPS, LANES = Sh::LANES;
  constexpr int STEP = REVERSE ? Sh::A::LANE_STRIDE : -Sh::A::LANE_STRIDE; // to the lane before
  const int lane = Sh::lane();
  const int self = threadIdx.x % TILEC_WARP_SIZE;
  auto at_pos = [&](int o, int r, int n) -> T & { // element n of run r in the scan's direction
    return at(o, r * SEG + (REVERSE ? SEG - 1 - n : n));
  };
  TILEC_UNROLL
  for (int o = 0; o < OTHER; ++o) {
    T total[REPS]; // the run's total combined with the lanes' before it
    TILEC_UNROLL
    for (int r = 0; r < REPS; ++r) {
      TILEC_UNROLL
      for (int n = 1; n < SEG; ++n)
        at_pos(o, r, n) = Op::combine(at_pos(o, r, n - 1), at_pos(o, r, n));
      T t = at_pos(o, r, SEG - 1);
      TILEC_UNROLL
      for (int d = 1; d < LANES; d *= 2) {
        const bool has = REVERSE ? lane + d < LANES : lane >= d;
        const T u = shfl_from(t, has ? self + d * STEP : self);
        if (has)
          t = Op::combine(u, t);
      }
      const bool has = REVERSE ? lane + 1 < LANES : lane >= 1;
      const T before = shfl_from(t, has ? self + STEP : self);
      if (has) {
        TILEC_UNROLL
        for (int n = 0; n < SEG; ++n)
          at_pos(o, r, n) = Op::combine(before, at_pos(o, r, n));
      }
      total[r] = t;
    }
    if constexpr (Sh::WARPS == 1 && REPS > 1) {
      // One warp holds the dim: each run takes the totals of the repetitions before it, which the
      // warp's last lane in the scan's direction holds.
      const int last = self - ((REVERSE ? 0 : LANES - 1) - lane) * STEP;
      T carry = shfl_from(total[REVERSE ? REPS - 1 : 0], last);
      TILEC_UNROLL
      for (int n = 1; n < REPS; ++n) {
        const int r = REVERSE ? REPS - 1 - n : n;
        const T next = shfl_from(total[r], last);
        TILEC_UNROLL
        for (int s = 0; s < SEG; ++s)
          at(o, r * SEG + s) = Op::combine(carry, at(o, r * SEG + s));
        carry = Op::combine(carry, next);
      }
    }
  }
}

template <class L, int AXIS, bool REVERSE, int OTHER, class At, class Col, class T>
__device__ __forceinline__ void scan_write_totals(At at, Col col, T *totals, int stride) {
  using Sh = ScanShape<L, AXIS>;
  if (Sh::lane() != (REVERSE ? 0 : Sh::LANES - 1) || !L::is_owner())
    return;
  const int w = Sh::warp();
  TILEC_UNROLL
  for (int o = 0; o < OTHER; ++o) {
    TILEC_UNROLL
    for (int r = 0; r < Sh::REPS; ++r)
      totals[(r * Sh::WARPS + w) * stride + col(o)] =
          at(o, r * Sh::SEG + (REVERSE ? 0 : Sh::SEG - 1));
  }
}

template <class Op, class L, int AXIS, bool REVERSE, int OTHER, class At, class Col, class T>
__device__ __forceinline__ void scan_add_carries(At at, Col col, const T *totals, int stride) {
  using Sh = ScanShape<L, AXIS>;
  constexpr int REPS = Sh::REPS, WARPS = Sh::WARPS, SEG = Sh::SEG;
  const int w = Sh::warp();
  TILEC_UNROLL
  for (int o = 0; o < OTHER; ++o) {
    const T *column = totals + col(o);
    T carry{};
    bool have = false;
    int j = REVERSE ? REPS * WARPS - 1 : 0; // the next total to take, in the scan's direction
    TILEC_UNROLL
    for (int n = 0; n < REPS; ++n) {
      const int r = REVERSE ? REPS - 1 - n : n;
      const int own = r * WARPS + w;
      for (; REVERSE ? j > own : j < own; j += REVERSE ? -1 : 1) {
        const T x = column[j * stride];
        carry = have ? Op::combine(carry, x) : x;
        have = true;
      }
      if (have) {
        TILEC_UNROLL
        for (int s = 0; s < SEG; ++s)
          at(o, r * SEG + s) = Op::combine(carry, at(o, r * SEG + s));
      }
    }
  }
}

} // namespace detail

/// The scan_in_warp part of a scan along AXIS of the tile `v` (layout L) in place.
template <class Op, class L, int AXIS, bool REVERSE, class T, int E>
__device__ __forceinline__ void scan_in_warp(T (&v)[E]) {
  detail::scan_in_warp<Op, L, AXIS, REVERSE, 1>([&](int, int e) -> T & { return v[e]; });
}
template <class Op, class L, int AXIS, bool REVERSE, class T, int E0, int E1>
__device__ __forceinline__ void scan_in_warp(T (&v)[E0][E1]) {
  detail::scan_in_warp<Op, L, AXIS, REVERSE, AXIS == 0 ? E1 : E0>(
      [&](int o, int e) -> T & { return AXIS == 0 ? v[e][o] : v[o][e]; });
}

/// Each warp's totals of `v` (after scan_in_warp) to row r * WARPS + warp of `totals`, rows
/// `stride` elements apart, at the column of the element along the other dim.
template <class L, int AXIS, bool REVERSE, class T, int E>
__device__ __forceinline__ void scan_write_totals(const T (&v)[E], T *totals) {
  detail::scan_write_totals<L, AXIS, REVERSE, 1>([&](int, int e) { return v[e]; },
                                                 [](int) { return 0; }, totals, 1);
}
template <class L, int AXIS, bool REVERSE, class T, int E0, int E1>
__device__ __forceinline__ void scan_write_totals(const T (&v)[E0][E1], T *totals, int stride) {
  detail::scan_write_totals<L, AXIS, REVERSE, AXIS == 0 ? E1 : E0>(
      [&](int o, int e) { return AXIS == 0 ? v[e][o] : v[o][e]; },
      [](int o) { return AXIS == 0 ? L::coord1(o) : L::coord0(o); }, totals, stride);
}

/// `v` (after scan_in_warp) combined in place with the totals before its warp's.
template <class Op, class L, int AXIS, bool REVERSE, class T, int E>
__device__ __forceinline__ void scan_add_carries(T (&v)[E], const T *totals) {
  detail::scan_add_carries<Op, L, AXIS, REVERSE, 1>([&](int, int e) -> T & { return v[e]; },
                                                    [](int) { return 0; }, totals, 1);
}
template <class Op, class L, int AXIS, bool REVERSE, class T, int E0, int E1>
__device__ __forceinline__ void scan_add_carries(T (&v)[E0][E1], const T *totals, int stride) {
  detail::scan_add_carries<Op, L, AXIS, REVERSE, AXIS == 0 ? E1 : E0>(
      [&](int o, int e) -> T & { return AXIS == 0 ? v[e][o] : v[o][e]; },
      [](int o) { return AXIS == 0 ? L::coord1(o) : L::coord0(o); }, totals, stride);
}

} // namespace tilec::rt

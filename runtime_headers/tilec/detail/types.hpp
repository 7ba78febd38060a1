// tilec/detail/types.hpp: element types, Triton type promotion, shapes and broadcasting, conversion.
// Part of tilec/tl.hpp; include that header, not this one. Everything here is in tl::detail and is
// not part of the language surface.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "float16.hpp"
#include "float8.hpp"

namespace tl {

template <class T, int... Dims> struct tile;

namespace detail {

template <class T> inline constexpr bool alwaysFalse = false;

// ---- Element types -------------------------------------------------------------------------------

/// The value element types of the language.
template <class T>
inline constexpr bool isValueElem =
    std::is_same_v<T, bool> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half> ||
    std::is_same_v<T, bfloat16> || std::is_same_v<T, float8_e4m3> || std::is_same_v<T, float8_e5m2>;

/// Pointers (possibly to const) to value element types.
template <class T>
inline constexpr bool isPointerElem =
    std::is_pointer_v<T> && isValueElem<std::remove_cv_t<std::remove_pointer_t<T>>>;

template <class T> inline constexpr bool isElem = isValueElem<T> || isPointerElem<T>;

template <class T>
inline constexpr bool isFloat16 = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

template <class T>
inline constexpr bool isFloat8 = std::is_same_v<T, float8_e4m3> || std::is_same_v<T, float8_e5m2>;

/// The floats narrower than float, which compute in float and round back: half, bfloat16 and the
/// fp8 types (structs without operators of their own).
template <class T> inline constexpr bool isNarrowFloat = isFloat16<T> || isFloat8<T>;

/// float, double, half, bfloat16, float8_e4m3, float8_e5m2.
template <class T>
inline constexpr bool isFloatLike = std::is_floating_point_v<T> || isNarrowFloat<T>;

template <class T> inline constexpr bool isIntElem = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// ---- Tiles and scalar operands ---------------------------------------------------------------------

template <class T> struct IsTile : std::false_type {};
template <class T, int... D> struct IsTile<tile<T, D...>> : std::true_type {};
template <class T> inline constexpr bool isTile = IsTile<std::remove_cvref_t<T>>::value;

/// C++ values that may stand next to a tile in an operator: arithmetic types, the narrow floats and
/// pointers. Which of them are accepted is decided by `Canon` (with a readable static_assert).
template <class S>
concept scalar_operand =
    !isTile<S> && (std::is_arithmetic_v<S> || isNarrowFloat<S> || std::is_pointer_v<S>);

/// The element type a C++ scalar stands for: double -> float (Triton's fp32 constants), integers
/// by width and signedness, bool, the narrow floats, pointers to element types.
template <class I> constexpr auto intOfWidth() {
  if constexpr (std::is_signed_v<I>) {
    if constexpr (sizeof(I) == 1)
      return std::type_identity<std::int8_t>{};
    else if constexpr (sizeof(I) == 2)
      return std::type_identity<std::int16_t>{};
    else if constexpr (sizeof(I) == 4)
      return std::type_identity<std::int32_t>{};
    else
      return std::type_identity<std::int64_t>{};
  } else {
    if constexpr (sizeof(I) == 1)
      return std::type_identity<std::uint8_t>{};
    else if constexpr (sizeof(I) == 2)
      return std::type_identity<std::uint16_t>{};
    else if constexpr (sizeof(I) == 4)
      return std::type_identity<std::uint32_t>{};
    else
      return std::type_identity<std::uint64_t>{};
  }
}
template <class S> constexpr auto canonTag() {
  using U = std::decay_t<S>; // arrays decay to pointers
  if constexpr (std::is_floating_point_v<U>) {
    return std::type_identity<float>{}; // a double scalar is an fp32 constant, as in Triton
  } else if constexpr (isElem<U>) {
    return std::type_identity<U>{};
  } else if constexpr (std::is_integral_v<U> && sizeof(U) <= 8) {
    return intOfWidth<U>(); // char, long, unsigned long long, ...
  } else {
    static_assert(alwaysFalse<U>, "tl: unsupported scalar type (tilec has bool, the signed and "
                                  "unsigned integers of 8, 16, 32 and 64 bits, float, double, "
                                  "tl::half, tl::bfloat16, tl::float8_e4m3, tl::float8_e5m2 and "
                                  "pointers to them)");
    return std::type_identity<U>{};
  }
}
template <class S> using Canon = typename decltype(canonTag<S>())::type;

template <class X> constexpr auto elemTag() {
  using U = std::decay_t<X>;
  if constexpr (isTile<U>)
    return std::type_identity<typename U::value_type>{};
  else
    return std::type_identity<Canon<U>>{};
}
/// Element type of a tile, or the canonical element type of a scalar.
template <class X> using Elem = typename decltype(elemTag<X>())::type;

// ---- Promotion ----------------------------------------------------------------------------------

/// Triton's kinds: bool < integer < floating point.
template <class T> constexpr int kindOf() {
  if constexpr (std::is_same_v<T, bool>)
    return 0;
  else if constexpr (std::is_integral_v<T>)
    return 1;
  else
    return 2;
}
template <class T> constexpr int widthOf() {
  if constexpr (std::is_same_v<T, bool>)
    return 1;
  else
    return 8 * static_cast<int>(sizeof(T));
}

/// Tile-tile promotion: higher kind wins, then wider width; at equal width fp16 beats bf16 and
/// unsigned beats signed. The fp8 types as Triton's: two different ones give half, one next to
/// bfloat16 gives float (next to half, half).
template <class A, class B> constexpr auto promoteTag() {
  if constexpr (std::is_same_v<A, B>) {
    return std::type_identity<A>{};
  } else if constexpr (isFloat8<A> && isFloat8<B>) {
    return std::type_identity<half>{};
  } else if constexpr ((isFloat8<A> && std::is_same_v<B, bfloat16>) ||
                       (isFloat8<B> && std::is_same_v<A, bfloat16>)) {
    return std::type_identity<float>{};
  } else if constexpr (std::is_pointer_v<A> || std::is_pointer_v<B>) {
    static_assert(alwaysFalse<A>, "tl: pointer operands of different types do not combine");
    return std::type_identity<A>{};
  } else if constexpr (kindOf<A>() != kindOf<B>()) {
    if constexpr (kindOf<A>() > kindOf<B>())
      return std::type_identity<A>{};
    else
      return std::type_identity<B>{};
  } else if constexpr (widthOf<A>() != widthOf<B>()) {
    if constexpr (widthOf<A>() > widthOf<B>())
      return std::type_identity<A>{};
    else
      return std::type_identity<B>{};
  } else if constexpr (isFloat16<A>) {
    return std::type_identity<half>{}; // half and bfloat16
  } else if constexpr (std::is_unsigned_v<A>) {
    return std::type_identity<A>{}; // integers of one width
  } else {
    return std::type_identity<B>{};
  }
}
template <class A, class B> using Promote = typename decltype(promoteTag<A, B>())::type;

/// Tile element T next to a C++ scalar S: the scalar joins only if it is of a higher kind, or an
/// integer wider than 32 bits next to a narrower integer tile.
template <class T, class S> constexpr auto scalarPromoteTag() {
  using C = Canon<S>;
  if constexpr (std::is_same_v<T, C> || std::is_pointer_v<T> || std::is_pointer_v<C>)
    return std::type_identity<Promote<T, C>>{};
  else if constexpr (kindOf<C>() > kindOf<T>())
    return std::type_identity<C>{};
  else if constexpr (kindOf<C>() == 1 && kindOf<T>() == 1 && widthOf<C>() > 32 &&
                     widthOf<C>() > widthOf<T>())
    return std::type_identity<C>{};
  else
    return std::type_identity<T>{};
}

template <class Acc, class X> constexpr auto joinTileTag() {
  if constexpr (!isTile<X>)
    return std::type_identity<Acc>{};
  else if constexpr (std::is_void_v<Acc>)
    return std::type_identity<Elem<X>>{};
  else
    return std::type_identity<Promote<Acc, Elem<X>>>{};
}
template <class Acc, class X> constexpr auto joinScalarTag() {
  if constexpr (isTile<X>)
    return std::type_identity<Acc>{};
  else
    return scalarPromoteTag<Acc, X>();
}
template <class Acc, class X> constexpr auto joinCanonTag() {
  if constexpr (std::is_void_v<Acc>)
    return std::type_identity<Canon<X>>{};
  else
    return std::type_identity<Promote<Acc, Canon<X>>>{};
}

template <class Acc, class... Xs> struct JoinTiles {
  using type = Acc;
};
template <class Acc, class X, class... Xs> struct JoinTiles<Acc, X, Xs...> {
  using type = typename JoinTiles<typename decltype(joinTileTag<Acc, X>())::type, Xs...>::type;
};
template <class Acc, class... Xs> struct JoinScalars {
  using type = Acc;
};
template <class Acc, class X, class... Xs> struct JoinScalars<Acc, X, Xs...> {
  using type = typename JoinScalars<typename decltype(joinScalarTag<Acc, X>())::type, Xs...>::type;
};
template <class Acc, class... Xs> struct JoinCanon {
  using type = Acc;
};
template <class Acc, class X, class... Xs> struct JoinCanon<Acc, X, Xs...> {
  using type = typename JoinCanon<typename decltype(joinCanonTag<Acc, X>())::type, Xs...>::type;
};

template <class... Xs> constexpr auto resultElemTag() {
  using TileElem = typename JoinTiles<void, std::remove_cvref_t<Xs>...>::type;
  if constexpr (std::is_void_v<TileElem>) // only scalars: promote them as if they were tiles
    return std::type_identity<typename JoinCanon<void, std::remove_cvref_t<Xs>...>::type>{};
  else
    return std::type_identity<typename JoinScalars<TileElem, std::remove_cvref_t<Xs>...>::type>{};
}
/// The common element type of the operands of an elementwise op (Triton promotion).
template <class... Xs> using ResultElem = typename decltype(resultElemTag<Xs...>())::type;

// ---- Shapes -------------------------------------------------------------------------------------

/// A shape of rank 0 (scalar), 1, 2 or 3. Dims are right-aligned: rank 1 [N] is {d0 = 1, d1 = N},
/// rank 2 [M, N] is {d0 = M, d1 = N}, and rank 3 [L, M, N] adds its leading dim as `lead`, so
/// numpy's alignment of trailing dims falls out.
struct Shape {
  int rank = 0;
  int d0 = 1;
  int d1 = 1;
  int lead = 1;
  constexpr int size() const { return lead * d0 * d1; }
  constexpr bool operator==(const Shape &) const = default;
};

template <int... D> constexpr Shape shapeOfDims() {
  constexpr int dims[] = {D...};
  if constexpr (sizeof...(D) == 1)
    return Shape{1, 1, dims[0]};
  else if constexpr (sizeof...(D) == 2)
    return Shape{2, dims[0], dims[1]};
  else
    return Shape{3, dims[1], dims[2], dims[0]};
}

template <class X> constexpr Shape shapeOf() {
  using U = std::remove_cvref_t<X>;
  if constexpr (isTile<U>)
    return U::shape;
  else
    return Shape{};
}

constexpr bool dimCompatible(int a, int b) { return a == b || a == 1 || b == 1; }
constexpr bool compatible(Shape a, Shape b) {
  return dimCompatible(a.lead, b.lead) && dimCompatible(a.d0, b.d0) && dimCompatible(a.d1, b.d1);
}
constexpr Shape broadcastShapes(Shape a, Shape b) {
  return Shape{a.rank > b.rank ? a.rank : b.rank, a.d0 > b.d0 ? a.d0 : b.d0,
               a.d1 > b.d1 ? a.d1 : b.d1, a.lead > b.lead ? a.lead : b.lead};
}
template <class... Xs> constexpr bool allCompatible() {
  Shape s{};
  bool ok = true;
  ((ok = ok && compatible(s, shapeOf<Xs>()), s = broadcastShapes(s, shapeOf<Xs>())), ...);
  return ok;
}
/// numpy broadcasting of all operand shapes (scalars have rank 0).
template <class... Xs> constexpr Shape broadcastOf() {
  Shape s{};
  ((s = broadcastShapes(s, shapeOf<Xs>())), ...);
  return s;
}

template <class T, Shape S> constexpr auto tileForTag() {
  if constexpr (S.rank == 0)
    return std::type_identity<T>{};
  else if constexpr (S.rank == 1)
    return std::type_identity<tile<T, S.d1>>{};
  else if constexpr (S.rank == 2)
    return std::type_identity<tile<T, S.d0, S.d1>>{};
  else
    return std::type_identity<tile<T, S.lead, S.d0, S.d1>>{};
}
/// The tile type of shape S (T itself for rank 0).
template <class T, Shape S> using TileFor = typename decltype(tileForTag<T, S>())::type;

/// Calls f(l, i, j, k) for every element of shape S in row-major order: (l, i, j) its index in
/// the (lead, d0, d1) dims and k its place in a tile's `data`.
template <Shape S, class F> constexpr void forEachIndex(F f) {
  for (int l = 0; l < S.lead; ++l)
    for (int i = 0; i < S.d0; ++i)
      for (int j = 0; j < S.d1; ++j)
        f(l, i, j, (l * S.d0 + i) * S.d1 + j);
}

/// Element (l, i, j) of the broadcast of x (a tile or a scalar); scalars come back canonicalized.
template <class X> constexpr auto fetch(const X &x, int l, int i, int j) {
  if constexpr (isTile<X>) {
    constexpr Shape s = X::shape;
    return x
        .data[((s.lead == 1 ? 0 : l) * s.d0 + (s.d0 == 1 ? 0 : i)) * s.d1 + (s.d1 == 1 ? 0 : j)];
  } else {
    return static_cast<Canon<X>>(x);
  }
}

/// Applies f elementwise over the broadcast shape S of the operands; Out is the result element.
template <class Out, Shape S, class F, class... Xs> auto mapN(F f, const Xs &...xs) {
  if constexpr (S.rank == 0) {
    return static_cast<Out>(f(fetch(xs, 0, 0, 0)...));
  } else {
    TileFor<Out, S> r;
    forEachIndex<S>([&](int l, int i, int j, int k) { r.data[k] = f(fetch(xs, l, i, j)...); });
    return r;
  }
}

/// A shape's dims from the first (dims[0] .. dims[rank - 1]; 1 after them).
constexpr std::array<int, 3> dimsOf(Shape s) {
  if (s.rank == 3)
    return {s.lead, s.d0, s.d1};
  if (s.rank == 2)
    return {s.d0, s.d1, 1};
  return {s.d1, 1, 1};
}
/// The shape of rank `rank` with dims dims[0] .. dims[rank - 1].
constexpr Shape shapeFromDims(int rank, std::array<int, 3> dims) {
  if (rank == 3)
    return Shape{3, dims[1], dims[2], dims[0]};
  if (rank == 2)
    return Shape{2, dims[0], dims[1]};
  return Shape{rank, 1, rank == 1 ? dims[0] : 1};
}
/// The index (l, i, j) of an element of shape s (right-aligned, as forEachIndex gives it) from
/// the first dim: the index in dims[0] .. dims[rank - 1].
constexpr std::array<int, 3> leftAligned(Shape s, int l, int i, int j) {
  if (s.rank == 3)
    return {l, i, j};
  if (s.rank == 2)
    return {i, j, 0};
  return {j, 0, 0};
}
/// s without dim `axis` (0 .. rank - 1).
constexpr Shape withoutDim(Shape s, int axis) {
  const std::array<int, 3> dims = dimsOf(s);
  std::array<int, 3> kept{1, 1, 1};
  for (int e = 0, n = 0; e < s.rank; ++e)
    if (e != axis)
      kept[n++] = dims[e];
  return shapeFromDims(s.rank - 1, kept);
}
/// Whether D... is a permutation of 0 .. RANK - 1.
template <int RANK, int... D> constexpr bool isPermutation() {
  if (sizeof...(D) != RANK)
    return false;
  bool seen[3] = {false, false, false};
  for (int d : {D...}) {
    if (d < 0 || d >= RANK || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}
/// s with its dims in the order perm: dim e of the result is s's dim perm[e].
constexpr Shape permutedShape(Shape s, std::array<int, 3> perm) {
  const std::array<int, 3> from = dimsOf(s);
  std::array<int, 3> to{1, 1, 1};
  for (int e = 0; e < s.rank; ++e)
    to[e] = from[perm[e]];
  return shapeFromDims(s.rank, to);
}

/// One dim of a tile removed or walked: the elements along dim `axis` (of `dims[axis]` elements)
/// of line o (0 <= o < lines, row-major over the other dims) are at o / after * dims[axis] *
/// after + o % after + k * after, for k from 0; the line's result in a tile without that dim is at
/// o. `after` is the product of the dims after `axis`.
struct AxisWalk {
  int length, lines, after;
  constexpr int at(int o, int k) const {
    return o / after * length * after + o % after + k * after;
  }
};
/// The walk along dim `axis` (0 .. rank - 1) of a tile type X.
template <class X> constexpr AxisWalk axisWalk(int axis) {
  constexpr Shape s = X::shape;
  const std::array<int, 3> dims = dimsOf(s);
  int after = 1;
  for (int e = axis + 1; e < s.rank; ++e)
    after *= dims[e];
  return AxisWalk{dims[axis], s.size() / dims[axis], after};
}

// ---- Conversion (tl::cast and the implicit conversions of load/store/full) -----------------------

template <class To, class From> constexpr To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_pointer_v<To> || std::is_pointer_v<From>) {
    static_assert(std::is_pointer_v<To> && std::is_pointer_v<From> &&
                      std::is_convertible_v<From, To>,
                  "tl: a pointer converts only to a pointer to the same type (adding const)");
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (isFloatLike<From>)
      return static_cast<double>(x) != 0.0;
    else
      return x != 0;
  } else if constexpr (std::is_integral_v<To>) {
    if constexpr (std::is_same_v<From, bool>) {
      return x ? To{1} : To{0};
    } else if constexpr (std::is_integral_v<From>) {
      return static_cast<To>(x); // modulo 2^width (C++20)
    } else {
      // Truncation toward zero. Out of range and NaN are undefined in Triton; the CPU saturates
      // and gives 0 for NaN (as PTX cvt.rzi does).
      const double d = static_cast<double>(x); // exact for every float type
      constexpr double lo = static_cast<double>(std::numeric_limits<To>::min()); // -2^(w-1) or 0
      constexpr double hi =                                                      // 2^(w-1) or 2^w
          lo < 0 ? -lo : static_cast<double>(std::numeric_limits<To>::max()) + 1.0;
      if (std::isnan(d))
        return To{0};
      if (d >= hi)
        return std::numeric_limits<To>::max();
      if (d <= lo)
        return std::numeric_limits<To>::min();
      return static_cast<To>(d);
    }
  } else if constexpr (std::is_same_v<To, float> || std::is_same_v<To, double>) {
    return static_cast<To>(x);
  } else { // half, bfloat16 or an fp8 type
    if constexpr (isNarrowFloat<From>)
      return To(static_cast<float>(x)); // exact float, then one rounding
    else
      return To(x);
  }
}

} // namespace detail
} // namespace tl

// tilec/tl.hpp: the tilec kernel language and its CPU reference semantics.
//
// Kernels are C++ function templates written against this header (docs/language.md). tilec
// translates them to CUDA/HIP; compiled as ordinary C++ they run on the CPU through tl::launch, one
// program after another, which is the reference every test compares the GPU with.
//
// For the translator: every operation is a function or function template declared directly in
// namespace tl; operators are non-member templates taking (tile, tile), (tile, S) and (S, tile)
// with the scalar type S deduced as written. Everything in tl::detail is implementation.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>

#include "detail/float16.hpp"
#include "detail/philox.hpp"
#include "detail/rounding.hpp"
#include "detail/types.hpp"

/// Marks a kernel: `template <int BLOCK> TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
/// void k(...)`. Under Clang (the translator) the settings become an annotate attribute, stringized
/// after macro expansion (so `TILEC_KERNEL(num_warps = WARPS)` with `#define WARPS 8` means 8); gcc
/// would warn about the unknown attribute, so there it expands to nothing.
#if defined(__clang__)
#define TILEC_KERNEL(...) TILEC_KERNEL_ANNOTATE_(__VA_ARGS__)
#define TILEC_KERNEL_ANNOTATE_(...) [[clang::annotate("tilec.kernel", #__VA_ARGS__)]]
#else
#define TILEC_KERNEL(...)
#endif

namespace tl {

/// +infinity as a float (Python's float('inf')).
inline constexpr float inf = std::numeric_limits<float>::infinity();

// ================================================================================================
// Tiles
// ================================================================================================

/// A tile of rank 1, 2 or 3; every dim a power of two. Elements are stored row-major in `data`.
template <class T, int... Dims> struct tile {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3, "tl::tile: rank must be 1, 2 or 3");
  static_assert(((Dims > 0 && (Dims & (Dims - 1)) == 0) && ...),
                "tl::tile: every dim must be a power of two");
  static_assert(
      detail::isElem<T>,
      "tl::tile: element type must be bool, int8_t, int16_t, int32_t, int64_t, uint8_t, "
      "uint16_t, uint32_t, uint64_t, float, double, tl::half, tl::bfloat16, tl::float8_e4m3, "
      "tl::float8_e5m2 or a pointer to one of those");

  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Dims));
  static constexpr int size = (Dims * ...);
  static constexpr detail::Shape shape = detail::shapeOfDims<Dims...>();

  std::array<T, size> data{};

  /// Element access for host code and tests (not part of the kernel language).
  constexpr T &at(int i) { return data[i]; }
  constexpr const T &at(int i) const { return data[i]; }
  constexpr T &at(int i, int j) { return data[i * shape.d1 + j]; }
  constexpr const T &at(int i, int j) const { return data[i * shape.d1 + j]; }
  constexpr T &at(int l, int i, int j) { return data[(l * shape.d0 + i) * shape.d1 + j]; }
  constexpr const T &at(int l, int i, int j) const {
    return data[(l * shape.d0 + i) * shape.d1 + j];
  }
};

// Traits of element types, for `if constexpr` in generic kernels (Triton's `dtype.is_floating()`,
// `dtype.is_int()`): T is an element type or a tile (its element type counts); `double` counts as
// float, as a scalar does. is_floating: float, double, half, bfloat16, the fp8 types. is_integer:
// the signed and unsigned integers (not bool). The _v forms are constants, the others
// std::bool_constant types.
template <class T> inline constexpr bool is_floating_v = detail::isFloatLike<detail::Elem<T>>;
template <class T> inline constexpr bool is_integer_v = detail::isIntElem<detail::Elem<T>>;
template <class T> struct is_floating : std::bool_constant<is_floating_v<T>> {};
template <class T> struct is_integer : std::bool_constant<is_integer_v<T>> {};

// ================================================================================================
// Programs and launch
// ================================================================================================

/// A launch grid: number of programs along each axis.
struct grid3 {
  int x = 1, y = 1, z = 1;
};

namespace detail {
struct ProgramState {
  int id[3] = {0, 0, 0};
  int num[3] = {1, 1, 1};
};
inline thread_local ProgramState currentProgram;

inline int checkedAxis(int axis, const char *fn) {
  if (axis < 0 || axis > 2) {
    std::fprintf(stderr, "tl::%s: axis %d is not 0, 1 or 2\n", fn, axis);
    std::abort();
  }
  return axis;
}
} // namespace detail

/// Index of the current program along axis (0..2).
inline std::int32_t program_id(int axis) {
  return detail::currentProgram.id[detail::checkedAxis(axis, "program_id")];
}
/// Number of programs along axis (0..2).
inline std::int32_t num_programs(int axis) {
  return detail::currentProgram.num[detail::checkedAxis(axis, "num_programs")];
}

/// Runs fn(args...) once for every program of the grid, x fastest, one after another.
template <class Kernel, class... Args> void launch(grid3 grid, Kernel fn, Args... args) {
  const detail::ProgramState saved = detail::currentProgram;
  detail::ProgramState &s = detail::currentProgram;
  s.num[0] = grid.x;
  s.num[1] = grid.y;
  s.num[2] = grid.z;
  for (int z = 0; z < grid.z; ++z)
    for (int y = 0; y < grid.y; ++y)
      for (int x = 0; x < grid.x; ++x) {
        s.id[0] = x;
        s.id[1] = y;
        s.id[2] = z;
        fn(args...);
      }
  detail::currentProgram = saved;
}

/// `for (int i : tl::static_range<BEGIN, END, STEP>())`: BEGIN, BEGIN+STEP, ... while before END.
template <int BEGIN, int END, int STEP = 1> struct static_range {
  static_assert(STEP != 0, "tl::static_range: STEP must not be 0");
  static constexpr int count =
      STEP > 0 ? (END > BEGIN ? (END - BEGIN + STEP - 1) / STEP : 0)
               : (END < BEGIN ? (BEGIN - END - STEP - 1) / -STEP : 0);
  struct iterator {
    int k;
    constexpr int operator*() const { return BEGIN + k * STEP; }
    constexpr iterator &operator++() {
      ++k;
      return *this;
    }
    constexpr bool operator==(const iterator &) const = default;
  };
  constexpr iterator begin() const { return {0}; }
  constexpr iterator end() const { return {count}; }
};

/// `for (int k : tl::range<NUM_STAGES>(begin, end, step))` — Triton's
/// `tl.range(begin, end, step, num_stages=NUM_STAGES)`: begin, begin + step, ... while below end,
/// as `for (int k = begin; k < end; k += step)` (step a positive constant; `range(end)` counts from
/// 0 by 1). NUM_STAGES is this loop's pipeline depth instead of the kernel's `num_stages` (0: the
/// kernel's; 1: this loop not pipelined).
template <int NUM_STAGES = 0> struct range {
  static_assert(NUM_STAGES >= 0 && NUM_STAGES <= 8, "tl::range: NUM_STAGES must be 0 to 8");
  int first, last, step;
  constexpr explicit range(int end) : first(0), last(end), step(1) {}
  constexpr range(int begin, int end, int step = 1) : first(begin), last(end), step(step) {}
  struct sentinel {};
  struct iterator {
    int k, step, end;
    constexpr int operator*() const { return k; }
    constexpr iterator &operator++() {
      k += step;
      return *this;
    }
    constexpr bool operator!=(sentinel) const { return k < end; }
  };
  constexpr iterator begin() const { return {first, step, last}; }
  constexpr sentinel end() const { return {}; }
};

// ================================================================================================
// Creation and shape
// ================================================================================================

/// [START, END) as an int32 tile; END - START must be a power of two.
template <int START, int END> tile<std::int32_t, END - START> arange() {
  static_assert(END > START, "tl::arange: END must be greater than START");
  tile<std::int32_t, END - START> r;
  for (int k = 0; k < END - START; ++k)
    r.data[k] = START + k;
  return r;
}

template <class T, int... D> tile<T, D...> zeros() { return tile<T, D...>{}; }

/// A tile of `value` converted to T (tl::cast semantics). A double converts directly, as
/// `tl.full(shape, value, dtype)` does: tl::full<double, N>(0.1) holds the double 0.1.
template <class T, int... D, class V> tile<T, D...> full(V value) {
  static_assert(!detail::isTile<V>, "tl::full: value must be a scalar");
  tile<T, D...> r;
  if constexpr (std::is_same_v<std::decay_t<V>, double>)
    r.data.fill(detail::convert<T>(value));
  else
    r.data.fill(detail::convert<T>(static_cast<detail::Canon<V>>(value)));
  return r;
}

/// Inserts a dim of size 1 at AXIS: expand_dims<0>(x) is x[None, :], expand_dims<1>(x) is x[:, None].
template <int AXIS, class T, int N> auto expand_dims(const tile<T, N> &x) {
  static_assert(AXIS >= -2 && AXIS <= 1, "tl::expand_dims: AXIS must be 0 or 1 for a 1-D tile");
  if constexpr (AXIS == 0 || AXIS == -2) {
    tile<T, 1, N> r;
    r.data = x.data;
    return r;
  } else {
    tile<T, N, 1> r;
    r.data = x.data;
    return r;
  }
}
/// For a 2-D tile [M, N]: AXIS 0 gives [1, M, N], 1 gives [M, 1, N], 2 gives [M, N, 1].
template <int AXIS, class T, int N0, int N1> auto expand_dims(const tile<T, N0, N1> &x) {
  static_assert(AXIS >= -3 && AXIS <= 2, "tl::expand_dims: AXIS must be 0, 1 or 2 for a 2-D tile");
  constexpr int axis = AXIS < 0 ? AXIS + 3 : AXIS;
  using R =
      std::conditional_t<axis == 0, tile<T, 1, N0, N1>,
                         std::conditional_t<axis == 1, tile<T, N0, 1, N1>, tile<T, N0, N1, 1>>>;
  R r;
  r.data = x.data;
  return r;
}
template <int AXIS, class T, int N0, int N1, int N2>
auto expand_dims(const tile<T, N0, N1, N2> &x) {
  static_assert(detail::alwaysFalse<T>, "tl::expand_dims: tiles have rank <= 3");
  return x;
}

/// numpy broadcasting of a tile (or scalar) to the shape D...
template <int... D, class X> auto broadcast_to(const X &x) {
  using Target = tile<detail::Elem<X>, D...>;
  static_assert(detail::compatible(detail::shapeOf<X>(), Target::shape) &&
                    detail::broadcastShapes(detail::shapeOf<X>(), Target::shape) == Target::shape,
                "tl::broadcast_to: the operand does not broadcast to that shape");
  return detail::mapN<detail::Elem<X>, Target::shape>([](auto v) { return v; }, x);
}

// ================================================================================================
// Conversion
// ================================================================================================

/// x.to(T): float -> int truncates toward zero, to bool is != 0, to half/bfloat16 rounds to nearest
/// even, int -> int wraps. Works on tiles and scalars.
template <class T, class X> auto cast(const X &x) {
  static_assert(detail::isElem<T>, "tl::cast: target must be an element type");
  return detail::mapN<T, detail::shapeOf<X>()>(
      [](auto v) { return detail::convert<T>(v); }, x);
}

namespace detail {
/// Misused options (of tl::cast, tl::load, tl::store): the translator reports these as errors.
[[noreturn]] inline void badOptions(const char *message) {
  std::fprintf(stderr, "%s\n", message);
  std::abort();
}
} // namespace detail

/// How tl::cast rounds a float narrowed to a narrower float (Triton's `fp_downcast_rounding`): to
/// nearest even (the default) or toward zero.
enum class rounding { rtne, rtz };
/// tl::cast's options, its last argument, as Triton's keywords: `tl::cast<std::int32_t>(x,
/// {.bitcast = true})` keeps the bits (a type of the same width); `tl::cast<tl::half>(x,
/// {.fp_downcast_rounding = tl::rounding::rtz})` rounds toward zero. A compile-time constant.
struct cast_options {
  rounding fp_downcast_rounding = rounding::rtne;
  bool bitcast = false;
};
/// tl::cast with options: stops with a message where the translator reports an error.
template <class T, class X> auto cast(const X &x, cast_options options) {
  static_assert(detail::isElem<T>, "tl::cast: target must be an element type");
  using From = detail::Elem<X>;
  constexpr bool isBool = std::is_same_v<From, bool> || std::is_same_v<T, bool>;
  constexpr bool narrowsFloat =
      detail::isFloatLike<From> && detail::isFloatLike<T> && sizeof(T) < sizeof(From);
  const bool towardZero = options.fp_downcast_rounding == rounding::rtz;
  if constexpr (std::is_same_v<From, T>) // x itself, whatever the options ask (as Triton's cast)
    return cast<T>(x);
  if (options.bitcast && towardZero)
    detail::badOptions("tl::cast: a bitcast rounds nothing; give bitcast or fp_downcast_rounding");
  if (options.bitcast && !std::is_same_v<From, T> && (isBool || sizeof(T) != sizeof(From)))
    detail::badOptions("tl::cast: a bitcast needs types of the same width (and no bool)");
  if (towardZero && !narrowsFloat)
    detail::badOptions(
        "tl::cast: fp_downcast_rounding rounds a float narrowed to a narrower float");
  if (towardZero && detail::isFloat8<T>)
    detail::badOptions("tl::cast: an fp8 type is rounded to nearest even only");
  return detail::mapN<T, detail::shapeOf<X>()>(
      [&](auto v) -> T {
        if constexpr (sizeof(T) == sizeof(v) && !isBool) {
          if (options.bitcast)
            return std::bit_cast<T>(v);
        }
        if constexpr (narrowsFloat && !detail::isFloat8<T>)
          if (towardZero)
            return detail::narrowTowardZero<T>(static_cast<double>(v));
        return detail::convert<T>(v);
      },
      x);
}

// ================================================================================================
// Elementwise arithmetic (implementations; the operators follow)
// ================================================================================================

namespace detail {

/// The unsigned type integer arithmetic on R wraps in: R's own, or unsigned int for narrower types
/// (uint16_t * uint16_t computes in int, where 65535 * 65535 overflows).
template <class R>
using Unsigned =
    std::conditional_t<(sizeof(R) < sizeof(unsigned)), unsigned, std::make_unsigned_t<R>>;

/// Applies a float-domain op to two R values; half, bfloat16 and fp8 compute in float and round
/// to R.
template <class R, class F> R floatOp(R a, R b, F f) {
  if constexpr (isNarrowFloat<R>)
    return R(f(static_cast<float>(a), static_cast<float>(b)));
  else
    return f(a, b);
}

/// (A deduced return type makes Clang instantiate the body at the call, so that its error names the
/// user's line, not the end of the file.)
template <class R> constexpr auto requireArith(const char *) {
  static_assert(!std::is_same_v<R, bool>,
                "tl: arithmetic on bool operands; cast to an integer type first");
  static_assert(!std::is_pointer_v<R>, "tl: pointers support only + and - with integers");
  return true;
}

template <class R> R addElem(R a, R b) {
  if constexpr (isIntElem<R>)
    return static_cast<R>(static_cast<Unsigned<R>>(a) + static_cast<Unsigned<R>>(b));
  else
    return floatOp(a, b, [](auto x, auto y) { return x + y; });
}
template <class R> R subElem(R a, R b) {
  if constexpr (isIntElem<R>)
    return static_cast<R>(static_cast<Unsigned<R>>(a) - static_cast<Unsigned<R>>(b));
  else
    return floatOp(a, b, [](auto x, auto y) { return x - y; });
}
template <class R> R mulElem(R a, R b) {
  if constexpr (isIntElem<R>)
    return static_cast<R>(static_cast<Unsigned<R>>(a) * static_cast<Unsigned<R>>(b));
  else
    return floatOp(a, b, [](auto x, auto y) { return x * y; });
}
/// Integers truncate toward zero; x / 0 gives 0 and MIN / -1 gives MIN (so does the generated
/// code where the divisor is a tile: tilec::rt::div_int; a uniform zero divisor is undefined there).
template <class R> R divElem(R a, R b) {
  if constexpr (isIntElem<R>) {
    if (b == 0)
      return 0;
    if constexpr (std::is_signed_v<R>)
      if (b == -1)
        return static_cast<R>(Unsigned<R>{0} - static_cast<Unsigned<R>>(a));
    return static_cast<R>(a / b);
  } else {
    return floatOp(a, b, [](auto x, auto y) { return x / y; });
  }
}
/// Integers: the sign follows the dividend (C); x % 0 gives x (tilec::rt::rem_int). Floats: fmod.
template <class R> R modElem(R a, R b) {
  if constexpr (isIntElem<R>) {
    if (b == 0)
      return a;
    if constexpr (std::is_signed_v<R>)
      if (b == -1)
        return 0;
    return static_cast<R>(a % b);
  } else {
    return floatOp(a, b, [](auto x, auto y) { return static_cast<decltype(x)>(std::fmod(x, y)); });
  }
}

/// half, bfloat16 and fp8 as float (they have no operators); every other type as itself. (It
/// returned float for every type, so comparisons and argmax/argmin of int32 values past 2^24 and of
/// int64 values compared rounded values.)
template <class R> auto asFloatIf16(R v) {
  if constexpr (isNarrowFloat<R>)
    return static_cast<float>(v);
  else
    return v;
}

template <class A, class B> auto addImpl(const A &a, const B &b);
template <class A, class B> auto subImpl(const A &a, const B &b);

/// Binary arithmetic with Triton promotion and broadcasting; ElemFn combines two R values.
template <class A, class B, class ElemFn> auto arith(const A &a, const B &b, ElemFn f) {
  static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
  using R = ResultElem<A, B>;
  requireArith<R>("");
  return mapN<R, broadcastOf<A, B>()>(
      [f](auto x, auto y) { return f(convert<R>(x), convert<R>(y)); }, a, b);
}

/// Pointer plus integer offset, computed without forming an out-of-bounds pointer value in the C++
/// sense (masked-off lanes often point past the end).
template <class P, class O> P offsetPointer(P p, O o) {
  static_assert(isIntElem<O>, "tl: a pointer offset must be an integer (not bool or float)");
  const auto step = static_cast<std::uintptr_t>(static_cast<std::int64_t>(o)) *
                    static_cast<std::uintptr_t>(sizeof(*p));
  return reinterpret_cast<P>(reinterpret_cast<std::uintptr_t>(p) + step);
}

template <class A, class B> auto addImpl(const A &a, const B &b) {
  using EA = Elem<A>;
  using EB = Elem<B>;
  if constexpr (std::is_pointer_v<EA> || std::is_pointer_v<EB>) {
    static_assert(!(std::is_pointer_v<EA> && std::is_pointer_v<EB>), "tl: cannot add two pointers");
    static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
    using P = std::conditional_t<std::is_pointer_v<EA>, EA, EB>;
    return mapN<P, broadcastOf<A, B>()>(
        [](auto x, auto y) {
          if constexpr (std::is_pointer_v<decltype(x)>)
            return offsetPointer(x, y);
          else
            return offsetPointer(y, x);
        },
        a, b);
  } else {
    return arith(a, b, [](auto x, auto y) { return addElem(x, y); });
  }
}

template <class A, class B> auto subImpl(const A &a, const B &b) {
  using EA = Elem<A>;
  using EB = Elem<B>;
  if constexpr (std::is_pointer_v<EA> || std::is_pointer_v<EB>) {
    static_assert(std::is_pointer_v<EA> && !std::is_pointer_v<EB>,
                  "tl: only pointer - integer is supported");
    static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
    return mapN<EA, broadcastOf<A, B>()>(
        [](auto p, auto o) {
          static_assert(isIntElem<decltype(o)>, "tl: a pointer offset must be an integer");
          return offsetPointer(p, static_cast<std::int64_t>(std::int64_t{0} - o));
        },
        a, b);
  } else {
    return arith(a, b, [](auto x, auto y) { return subElem(x, y); });
  }
}

template <class A, class B> auto mulImpl(const A &a, const B &b) {
  return arith(a, b, [](auto x, auto y) { return mulElem(x, y); });
}
template <class A, class B> auto divImpl(const A &a, const B &b) {
  return arith(a, b, [](auto x, auto y) { return divElem(x, y); });
}
template <class A, class B> auto modImpl(const A &a, const B &b) {
  return arith(a, b, [](auto x, auto y) { return modElem(x, y); });
}

/// Comparison after promotion; the result is a bool tile.
template <class A, class B, class Cmp> auto compare(const A &a, const B &b, Cmp cmp) {
  static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
  using R = ResultElem<A, B>;
  static_assert(!std::is_pointer_v<R>, "tl: pointer tiles cannot be compared");
  return mapN<bool, broadcastOf<A, B>()>(
      [cmp](auto x, auto y) {
        return cmp(asFloatIf16(convert<R>(x)), asFloatIf16(convert<R>(y)));
      },
      a, b);
}

/// & | ^ on bool or integer operands after promotion.
template <class A, class B, class Op> auto bitwise(const A &a, const B &b, Op op) {
  static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
  using R = ResultElem<A, B>;
  static_assert(std::is_integral_v<R>, "tl: bitwise operators need bool or integer operands");
  if constexpr (std::is_integral_v<R>) // (no second error after the static_assert's)
    return mapN<R, broadcastOf<A, B>()>(
        [op](auto x, auto y) { return static_cast<R>(op(convert<R>(x), convert<R>(y))); }, a, b);
  else
    return a;
}

/// << >>: the result has the left operand's type; the amount is taken modulo the bit width on the
/// CPU (amounts outside [0, width) are undefined in Triton). >> is arithmetic for signed types.
template <bool LEFT, class A, class B> auto shift(const A &a, const B &b) {
  static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
  using R = Elem<A>;
  static_assert(isIntElem<R> && isIntElem<Elem<B>>, "tl: shifts need integer operands");
  if constexpr (isIntElem<R> && isIntElem<Elem<B>>) // (no second error after the static_assert's)
    return mapN<R, broadcastOf<A, B>()>(
        [](auto x, auto y) {
          const R v = convert<R>(x);
          const int n = static_cast<int>(static_cast<Unsigned<R>>(convert<R>(y)) %
                                         static_cast<Unsigned<R>>(widthOf<R>()));
          if constexpr (LEFT)
            return static_cast<R>(static_cast<Unsigned<R>>(v) << n);
          else
            return static_cast<R>(v >> n);
        },
        a, b);
  else
    return a;
}

template <class A, class B, class Op> auto logical(const A &a, const B &b, Op op) {
  static_assert(allCompatible<A, B>(), "tl: operand shapes do not broadcast (numpy rules)");
  return mapN<bool, broadcastOf<A, B>()>(
      [op](auto x, auto y) { return op(convert<bool>(x), convert<bool>(y)); }, a, b);
}

/// Result of a compound assignment: the shape must not change; the value is converted back to the
/// left operand's element type (C++ assignment; Triton would rebind the name).
template <class T, int... D, class R> tile<T, D...> assignBack(const R &r) {
  static_assert(isTile<R> && R::shape == tile<T, D...>::shape,
                "tl: compound assignment would change the tile's shape");
  return mapN<T, tile<T, D...>::shape>([](auto v) { return convert<T>(v); }, r);
}

} // namespace detail

// ================================================================================================
// Operators
// ================================================================================================

// Each binary operator is three templates: (tile, tile), (tile, S) and (S, tile), S a scalar type
// deduced as written (int, float, double, const float *, ...). No scalar -> tile conversion exists.
#define TILEC_BINARY_OPERATOR(OP, IMPL)                                                            \
  template <class T, int... D, class U, int... E>                                                  \
  auto operator OP(const tile<T, D...> &a, const tile<U, E...> &b) {                               \
    return IMPL;                                                                                   \
  }                                                                                                \
  template <class T, int... D, detail::scalar_operand S>                                           \
  auto operator OP(const tile<T, D...> &a, S b) {                                                  \
    return IMPL;                                                                                   \
  }                                                                                                \
  template <detail::scalar_operand S, class U, int... E>                                           \
  auto operator OP(S a, const tile<U, E...> &b) {                                                  \
    return IMPL;                                                                                   \
  }

TILEC_BINARY_OPERATOR(+, detail::addImpl(a, b))
TILEC_BINARY_OPERATOR(-, detail::subImpl(a, b))
TILEC_BINARY_OPERATOR(*, detail::mulImpl(a, b))
TILEC_BINARY_OPERATOR(/, detail::divImpl(a, b))
TILEC_BINARY_OPERATOR(%, detail::modImpl(a, b))
TILEC_BINARY_OPERATOR(<, detail::compare(a, b, [](auto x, auto y) { return x < y; }))
TILEC_BINARY_OPERATOR(<=, detail::compare(a, b, [](auto x, auto y) { return x <= y; }))
TILEC_BINARY_OPERATOR(>, detail::compare(a, b, [](auto x, auto y) { return x > y; }))
TILEC_BINARY_OPERATOR(>=, detail::compare(a, b, [](auto x, auto y) { return x >= y; }))
TILEC_BINARY_OPERATOR(==, detail::compare(a, b, [](auto x, auto y) { return x == y; }))
TILEC_BINARY_OPERATOR(!=, detail::compare(a, b, [](auto x, auto y) { return x != y; }))
TILEC_BINARY_OPERATOR(&, detail::bitwise(a, b, [](auto x, auto y) { return x & y; }))
TILEC_BINARY_OPERATOR(|, detail::bitwise(a, b, [](auto x, auto y) { return x | y; }))
TILEC_BINARY_OPERATOR(^, detail::bitwise(a, b, [](auto x, auto y) { return x ^ y; }))
TILEC_BINARY_OPERATOR(<<, detail::shift<true>(a, b))
TILEC_BINARY_OPERATOR(>>, detail::shift<false>(a, b))
TILEC_BINARY_OPERATOR(&&, detail::logical(a, b, [](bool x, bool y) { return x && y; }))
TILEC_BINARY_OPERATOR(||, detail::logical(a, b, [](bool x, bool y) { return x || y; }))
#undef TILEC_BINARY_OPERATOR

/// Negation (integers wrap; half, bfloat16 and fp8 negate in float and round back: the same value,
/// a NaN the canonical NaN as on the GPU).
template <class T, int... D> tile<T, D...> operator-(const tile<T, D...> &x) {
  detail::requireArith<T>("-");
  return detail::mapN<T, tile<T, D...>::shape>(
      [](T v) {
        if constexpr (detail::isIntElem<T>)
          return static_cast<T>(detail::Unsigned<T>{0} - static_cast<detail::Unsigned<T>>(v));
        else if constexpr (detail::isNarrowFloat<T>)
          return T(-static_cast<float>(v));
        else
          return -v;
      },
      x);
}
/// Bitwise not; on bool tiles it is logical not (Triton's int1).
template <class T, int... D> tile<T, D...> operator~(const tile<T, D...> &x) {
  static_assert(std::is_integral_v<T>, "tl: ~ needs a bool or integer tile");
  return detail::mapN<T, tile<T, D...>::shape>(
      [](T v) {
        if constexpr (std::is_same_v<T, bool>)
          return !v;
        else if constexpr (std::is_integral_v<T>)
          return static_cast<T>(~v);
        else
          return v; // (no second error after the static_assert's)
      },
      x);
}
/// Logical not: x == 0.
template <class T, int... D> tile<bool, D...> operator!(const tile<T, D...> &x) {
  static_assert(!std::is_pointer_v<T>, "tl: ! needs a value tile");
  return detail::mapN<bool, tile<T, D...>::shape>(
      [](T v) { return !detail::convert<bool>(v); }, x);
}

// Compound assignment: a = a OP b converted back to a's element type; the shape may not change.
#define TILEC_COMPOUND_OPERATOR(OP, BINOP)                                                         \
  template <class T, int... D, class U, int... E>                                                  \
  tile<T, D...> &operator OP(tile<T, D...> &a, const tile<U, E...> &b) {                           \
    a = detail::assignBack<T, D...>(a BINOP b);                                                    \
    return a;                                                                                      \
  }                                                                                                \
  template <class T, int... D, detail::scalar_operand S>                                           \
  tile<T, D...> &operator OP(tile<T, D...> &a, S b) {                                              \
    a = detail::assignBack<T, D...>(a BINOP b);                                                    \
    return a;                                                                                      \
  }

TILEC_COMPOUND_OPERATOR(+=, +)
TILEC_COMPOUND_OPERATOR(-=, -)
TILEC_COMPOUND_OPERATOR(*=, *)
TILEC_COMPOUND_OPERATOR(/=, /)
TILEC_COMPOUND_OPERATOR(%=, %)
TILEC_COMPOUND_OPERATOR(&=, &)
TILEC_COMPOUND_OPERATOR(|=, |)
TILEC_COMPOUND_OPERATOR(^=, ^)
#undef TILEC_COMPOUND_OPERATOR

// ================================================================================================
// Memory
// ================================================================================================

namespace detail {
template <class P> void requirePointer() {
  static_assert(std::is_pointer_v<Elem<P>>, "tl::load/store: ptr must be a pointer or pointer tile");
}
template <class M> void requireMask() {
  static_assert(std::is_same_v<Elem<M>, bool>, "tl::load/store: mask must be bool or a bool tile");
}
template <class P> using Pointee = std::remove_cv_t<std::remove_pointer_t<Elem<P>>>;
} // namespace detail

// ---- Cache hints ------------------------------------------------------------------------------

/// Triton's `cache_modifier` of a load or a store (PTX's cache operators): loads take ca (cache
/// at all levels), cg (in L2, not L1) or cv (fetch again); stores wb (write back), cg, cs
/// (streaming: likely accessed once) or wt (write through).
enum class cache { none, ca, cg, cv, wb, cs, wt };
/// Triton's `eviction_policy`: how soon the lines an access brings into L1 and L2 leave them.
enum class eviction { normal, evict_first, evict_last };
inline constexpr eviction evict_first = eviction::evict_first;
inline constexpr eviction evict_last = eviction::evict_last;

/// tl::load's hints, its last argument, written as Triton's keywords are:
/// `tl::load(p, mask, 0.0f, {.cache_modifier = tl::cache::cg, .eviction_policy = tl::evict_last})`.
/// `is_volatile` is Triton's `volatile` (PTX's ld.volatile, which takes no other hint). They change
/// no value: the CPU reference checks them and loads as without.
struct load_options {
  cache cache_modifier = cache::none;
  eviction eviction_policy = eviction::normal;
  bool is_volatile = false;
};
/// tl::store's hints, its last argument: `tl::store(p, v, mask, {.cache_modifier =
/// tl::cache::cs})`.
struct store_options {
  cache cache_modifier = cache::none;
  eviction eviction_policy = eviction::normal;
};

namespace detail {
inline void check(const load_options &o) {
  if (o.cache_modifier == cache::wb || o.cache_modifier == cache::cs ||
      o.cache_modifier == cache::wt)
    badOptions("tl::load: a load's cache_modifier is ca, cg or cv");
  if (o.is_volatile && (o.cache_modifier != cache::none || o.eviction_policy != eviction::normal))
    badOptions("tl::load: a volatile load takes no cache_modifier or eviction_policy");
}
inline void check(const store_options &o) {
  if (o.cache_modifier == cache::ca || o.cache_modifier == cache::cv)
    badOptions("tl::store: a store's cache_modifier is wb, cg, cs or wt");
}
} // namespace detail

/// Loads every element (ptr: a pointer or a pointer tile).
template <class P> auto load(const P &ptr) {
  detail::requirePointer<P>();
  using V = detail::Pointee<P>;
  return detail::mapN<V, detail::shapeOf<P>()>([](auto p) -> V { return *p; }, ptr);
}
/// Masked-off elements are not dereferenced and read as `other` converted to the pointee type.
/// ptr, mask and other broadcast together (numpy rules).
template <class P, class M, class O> auto load(const P &ptr, const M &mask, const O &other) {
  detail::requirePointer<P>();
  detail::requireMask<M>();
  static_assert(detail::allCompatible<P, M, O>(), "tl::load: ptr, mask and other do not broadcast");
  using V = detail::Pointee<P>;
  return detail::mapN<V, detail::broadcastOf<P, M, O>()>(
      [](auto p, bool m, auto o) -> V { return m ? *p : detail::convert<V>(o); }, ptr, mask,
      other);
}
/// Masked-off elements read as 0.
template <class P, class M> auto load(const P &ptr, const M &mask) {
  return load(ptr, mask, std::int32_t{0});
}
/// The same loads with hints (load_options).
template <class P> auto load(const P &ptr, load_options hints) {
  detail::check(hints);
  return load(ptr);
}
template <class P, class M> auto load(const P &ptr, const M &mask, load_options hints) {
  detail::check(hints);
  return load(ptr, mask);
}
template <class P, class M, class O>
auto load(const P &ptr, const M &mask, const O &other, load_options hints) {
  detail::check(hints);
  return load(ptr, mask, other);
}

/// Writes value (converted to the pointee type, tl::cast semantics) where mask is true; value and
/// mask broadcast to ptr's shape.
template <class P, class V, class M> void store(const P &ptr, const V &value, const M &mask) {
  detail::requirePointer<P>();
  detail::requireMask<M>();
  constexpr detail::Shape s = detail::shapeOf<P>();
  static_assert(detail::allCompatible<P, V, M>() && detail::broadcastOf<P, V, M>() == s,
                "tl::store: value and mask must broadcast to the shape of ptr");
  using T = std::remove_pointer_t<detail::Elem<P>>;
  static_assert(!std::is_const_v<T>, "tl::store: cannot store through a pointer to const");
  detail::forEachIndex<s>([&](int l, int i, int j, int) {
    if (detail::fetch(mask, l, i, j))
      *detail::fetch(ptr, l, i, j) = detail::convert<T>(detail::fetch(value, l, i, j));
  });
}
template <class P, class V> void store(const P &ptr, const V &value) { store(ptr, value, true); }
/// The same stores with hints (store_options).
template <class P, class V> void store(const P &ptr, const V &value, store_options hints) {
  detail::check(hints);
  store(ptr, value);
}
template <class P, class V, class M>
void store(const P &ptr, const V &value, const M &mask, store_options hints) {
  detail::check(hints);
  store(ptr, value, mask);
}

// ---- Debugging ----------------------------------------------------------------------------------

/// tl.device_assert(cond, msg): where an element of `cond` (a tile or scalar; a number is true when
/// not 0) is false, stops the program with "file:line: device_assert failed: msg". As C's assert,
/// nothing under NDEBUG (the generated code too). `message`: a string literal.
template <class C>
void device_assert(const C &cond, const char *message = "",
                   std::source_location where = std::source_location::current()) {
#ifndef NDEBUG
  bool ok = true;
  detail::mapN<bool, detail::shapeOf<C>()>(
      [&](auto v) {
        ok = ok && detail::convert<bool>(v);
        return true;
      },
      cond);
  if (!ok) {
    std::fprintf(stderr, "%s:%u: device_assert failed%s%s\n", where.file_name(),
                 static_cast<unsigned>(where.line()), *message ? ": " : "", message);
    std::abort();
  }
#else
  (void)cond, (void)message, (void)where;
#endif
}

/// tl.device_print's `hex=True`: `tl::device_print("x", x, tl::hex)` prints each value's bits in
/// hexadecimal (0x and two digits a byte).
struct print_hex_t {
  explicit constexpr print_hex_t() = default;
};
inline constexpr print_hex_t hex{};

namespace detail {
/// Triton's shaping of device_print's prefix: with operands, it ends with ": "; longer than two
/// characters, it starts with " ".
inline std::string printPrefix(std::string p, bool operands) {
  if (operands && (p.empty() || p.back() != ' '))
    p += ' ';
  if (operands && !(p.size() >= 2 && p.compare(p.size() - 2, 2, ": ") == 0))
    p = p.substr(0, p.size() - 1) + ": ";
  if (p.size() > 2 && p.front() != ' ')
    p = " " + p;
  return p;
}
/// Text for a printf format: every % doubled.
inline std::string printfText(const std::string &s) {
  std::string r;
  for (char c : s)
    r += c == '%' ? std::string("%%") : std::string(1, c);
  return r;
}
/// The width of an index of a dim of n elements in device_print's lines: ceil(log10(n)), as
/// Triton's.
constexpr int printIndexWidth(int n) {
  int w = 0;
  for (long long p = 1; p < n; p *= 10)
    ++w;
  return w;
}
/// The printf conversion of an element of type E, and its argument.
template <bool HEX, class E> std::string printConversion() {
  if constexpr (std::is_pointer_v<E>)
    return "%p";
  else if constexpr (HEX)
    return "0x%0" + std::to_string(2 * sizeof(E)) + (sizeof(E) == 8 ? "llx" : "x");
  else if constexpr (isFloatLike<E>)
    return "%f";
  else if constexpr (std::is_same_v<E, bool> || std::is_signed_v<E>)
    return sizeof(E) == 8 ? "%lli" : "%i";
  else
    return sizeof(E) == 8 ? "%llu" : "%u";
}
template <bool HEX, class E> auto printArgument(E v) {
  if constexpr (std::is_pointer_v<E>)
    return static_cast<const void *>(v);
  else if constexpr (HEX && sizeof(E) == 8)
    return std::bit_cast<unsigned long long>(v);
  else if constexpr (HEX && sizeof(E) == 4)
    return std::bit_cast<unsigned>(v);
  else if constexpr (HEX && sizeof(E) == 2)
    return static_cast<unsigned>(std::bit_cast<std::uint16_t>(v));
  else if constexpr (HEX)
    return static_cast<unsigned>(std::bit_cast<std::uint8_t>(v));
  else if constexpr (isNarrowFloat<E>)
    return static_cast<double>(static_cast<float>(v));
  else if constexpr (std::is_floating_point_v<E>)
    return static_cast<double>(v);
  else if constexpr (std::is_same_v<E, bool> || (std::is_signed_v<E> && sizeof(E) < 8))
    return static_cast<int>(v);
  else if constexpr (std::is_signed_v<E>)
    return static_cast<long long>(v);
  else if constexpr (sizeof(E) < 8)
    return static_cast<unsigned>(v);
  else
    return static_cast<unsigned long long>(v);
}
/// One operand of device_print: a line per element, row-major.
template <bool HEX, class X>
void printOperand(const std::string &prefix, int operand, int operands, const X &x) {
  using E = std::remove_cv_t<Elem<X>>;
  constexpr Shape s = shapeOf<X>();
  auto index = [](int n) {
    const int w = printIndexWidth(n);
    return "%" + (w ? std::to_string(w) : std::string()) + "u";
  };
  std::string format = "pid (%u, %u, %u) idx (";
  if (s.rank == 1)
    format += index(s.d1);
  else if (s.rank == 2)
    format += index(s.d0) + ", " + index(s.d1);
  else if (s.rank == 3)
    format += index(s.lead) + ", " + index(s.d0) + ", " + index(s.d1);
  format += ")" + printfText(prefix);
  if (operands > 1)
    format += "(operand " + std::to_string(operand) + ") ";
  format += printConversion<HEX, E>() + "\n";
  const unsigned p0 = currentProgram.id[0], p1 = currentProgram.id[1], p2 = currentProgram.id[2];
  forEachIndex<s>([&](int l, int i, int j, int) {
    const auto v = printArgument<HEX>(static_cast<E>(fetch(x, l, i, j)));
    const auto u = [](int n) { return static_cast<unsigned>(n); };
    constexpr int rank = shapeOf<X>().rank; // (nvcc: not `s`, a local of the enclosing function)
    if constexpr (rank == 0)
      std::printf(format.c_str(), p0, p1, p2, v);
    else if constexpr (rank == 1)
      std::printf(format.c_str(), p0, p1, p2, u(j), v);
    else if constexpr (rank == 2)
      std::printf(format.c_str(), p0, p1, p2, u(i), u(j), v);
    else
      std::printf(format.c_str(), p0, p1, p2, u(l), u(i), u(j), v);
  });
}
} // namespace detail

/// tl.device_print(prefix, operands...[, tl::hex]): for each operand in turn (a tile or a scalar),
/// one line per element, row-major: `pid (X, Y, Z) idx (I, J)<prefix><value>`, where the program
/// id is X, Y, Z and I, J the element's index (nothing for a scalar); with several operands the
/// value is preceded by `(operand N) `. The prefix is shaped as Triton shapes it (" x: " for "x").
/// Floats print as printf's %f, integers as %i / %u, pointers as %p; with tl::hex last, the bits
/// as 0x and two hexadecimal digits a byte. Without operands, `pid (X, Y, Z)<prefix>`. The GPU
/// prints the same lines (each element once), in the order its threads reach them.
template <class... Args> void device_print(const char *prefix, const Args &...args) {
  constexpr int n = static_cast<int>(sizeof...(Args));
  constexpr int hexes = (0 + ... + std::is_same_v<Args, print_hex_t>);
  constexpr bool hexLast =
      std::is_same_v<std::tuple_element_t<(n > 0 ? n - 1 : 0), std::tuple<Args..., void>>,
                     print_hex_t>;
  static_assert(hexes == 0 || (hexes == 1 && hexLast),
                "tl::device_print: tl::hex goes once, after the operands");
  constexpr int operands = n - hexes;
  const std::string p = detail::printPrefix(prefix, operands > 0);
  if constexpr (operands == 0) {
    std::printf("pid (%u, %u, %u)%s\n", static_cast<unsigned>(detail::currentProgram.id[0]),
                static_cast<unsigned>(detail::currentProgram.id[1]),
                static_cast<unsigned>(detail::currentProgram.id[2]), p.c_str());
  } else {
    int k = 0;
    (
        [&] {
          if constexpr (!std::is_same_v<Args, print_hex_t>)
            detail::printOperand<hexLast>(p, k++, operands, args);
        }(),
        ...);
  }
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack=1): `asm` (PTX, Triton's
/// operands $0 the result, $1 ... the operands, each of 16, 32 or 64 bits) applied to each element
/// of the operands broadcast together, with the constraints `constraints` ("=r,r": the result's,
/// then each operand's), its result an R. tilec's addition: `reference`, a lambda that computes
/// the same from the elements (and constants), which is what the CPU reference runs here, and
/// what the output runs where there is no PTX (HIP, the CPU emulator). IS_PURE false: the
/// assembly has effects of its own (`asm volatile`).
template <class R, bool IS_PURE = true, class F, class... Args>
auto inline_asm_elementwise(const char *asm_text, const char *constraints, F reference,
                            const Args &...args) {
  static_assert(sizeof...(Args) > 0, "tl::inline_asm_elementwise: no operands");
  static_assert(detail::isValueElem<R> && !std::is_same_v<R, bool>,
                "tl::inline_asm_elementwise: the result type R is a number type");
  static_assert(detail::allCompatible<Args...>(),
                "tl::inline_asm_elementwise: operand shapes do not broadcast together");
  (void)asm_text, (void)constraints;
  constexpr detail::Shape S = detail::broadcastOf<Args...>();
  // tilec's translator inlines the call `reference(v...)` below.
  return detail::mapN<R, S>(
      [&reference](detail::Elem<Args>... v) { return detail::convert<R>(reference(v...)); },
      args...);
}

// ---- Atomics ------------------------------------------------------------------------------------

/// The memory ordering and scope of an atomic (Triton's `sem` and `scope`); acq_rel at gpu scope
/// is the default, as in Triton. The CPU runs one program at a time: every order holds there.
enum class sem { relaxed, acquire, release, acq_rel };
enum class scope { cta, gpu, sys };
inline constexpr sem relaxed = sem::relaxed;
inline constexpr sem acquire = sem::acquire;
inline constexpr sem release = sem::release;
inline constexpr sem acq_rel = sem::acq_rel;
inline constexpr scope cta = scope::cta;
inline constexpr scope gpu = scope::gpu;
inline constexpr scope sys = scope::sys;

namespace detail {
template <class R> R maxElem(R a, R b);
template <class R> R minElem(R a, R b);
enum class AtomicKind { Arith, MinMax, Bits, Exchange };
template <AtomicKind K, class T> constexpr bool atomicElem() {
  constexpr bool int3264 = isIntElem<T> && (sizeof(T) == 4 || sizeof(T) == 8);
  constexpr bool float3264 = std::is_same_v<T, float> || std::is_same_v<T, double>;
  return K == AtomicKind::Bits    ? int3264
         : K == AtomicKind::Arith ? int3264 || float3264 || isFloat16<T>
                                  : int3264 || float3264;
}
/// One read-modify-write per element where mask is set: `f(old, value[, cmp])` is written and the
/// old value returned (0 where masked off). ptr is a pointer or a pointer tile; value, cmp and mask
/// broadcast to its shape.
template <AtomicKind K, class P, class V, class C, class M, class F>
auto atomicRmw(const P &ptr, const V &value, const C &cmp, const M &mask, F f) {
  requirePointer<P>();
  requireMask<M>();
  using T = std::remove_pointer_t<Elem<P>>;
  static_assert(!std::is_const_v<T>, "tl::atomic_*: cannot update through a pointer to const");
  static_assert(atomicElem<K, std::remove_cv_t<T>>(),
                "tl::atomic_*: the pointee must be int32, uint32, int64, uint64, float or double "
                "(integers only for and, or and xor; tl::half and tl::bfloat16 for add too)");
  constexpr Shape s = shapeOf<P>();
  static_assert(allCompatible<P, V, C, M>() && broadcastOf<P, V, C, M>() == s,
                "tl::atomic_*: values and mask must broadcast to the shape of ptr");
  using R = std::remove_cv_t<T>;
  TileFor<R, s> out{};
  forEachIndex<s>([&](int l, int i, int j, int k) {
    R old{};
    if (fetch(mask, l, i, j)) {
      R *p = fetch(ptr, l, i, j);
      old = *p;
      *p = f(old, convert<R>(fetch(value, l, i, j)), convert<R>(fetch(cmp, l, i, j)));
    }
    if constexpr (shapeOf<P>().rank == 0) // (nvcc: not `s`, a local of the enclosing function)
      out = old;
    else
      out.data[k] = old;
  });
  return out;
}
template <class R> bool sameBits(R a, R b) { return std::memcmp(&a, &b, sizeof(R)) == 0; }
} // namespace detail

// tl::atomic_OP(ptr, value[, mask][, sem[, scope]]): for each element where mask is set, one
// read-modify-write of *ptr; returns the old values (0 where masked off). add: +, wrapping on
// integers; max, min: as tl::maximum and tl::minimum (a NaN operand loses); and, or, xor on
// integers; xchg writes value.
#define TILEC_ATOMIC(NAME, KIND, EXPR)                                                             \
  template <class P, class V, class M>                                                             \
  auto NAME(const P &ptr, const V &value, const M &mask, sem = acq_rel, scope = gpu) {             \
    return detail::atomicRmw<detail::AtomicKind::KIND>(                                            \
        ptr, value, 0, mask, [](auto old, auto v, auto) { return (void)old, EXPR; });              \
  }                                                                                                \
  template <class P, class V> auto NAME(const P &ptr, const V &value, sem order, scope at = gpu) { \
    return NAME(ptr, value, true, order, at);                                                      \
  }                                                                                                \
  template <class P, class V> auto NAME(const P &ptr, const V &value) {                            \
    return NAME(ptr, value, true);                                                                 \
  }
TILEC_ATOMIC(atomic_add, Arith, detail::addElem(old, v))
TILEC_ATOMIC(atomic_max, MinMax, detail::maxElem(old, v))
TILEC_ATOMIC(atomic_min, MinMax, detail::minElem(old, v))
TILEC_ATOMIC(atomic_and, Bits, static_cast<decltype(old)>(old &v))
TILEC_ATOMIC(atomic_or, Bits, static_cast<decltype(old)>(old | v))
TILEC_ATOMIC(atomic_xor, Bits, static_cast<decltype(old)>(old ^ v))
TILEC_ATOMIC(atomic_xchg, Exchange, v)
#undef TILEC_ATOMIC
/// tl::atomic_cas(ptr, cmp, value[, sem[, scope]]): writes value where *ptr equals cmp (bit for
/// bit); returns the old values.
template <class P, class C, class V>
auto atomic_cas(const P &ptr, const C &cmp, const V &value, sem = acq_rel, scope = gpu) {
  return detail::atomicRmw<detail::AtomicKind::Exchange>(
      ptr, value, cmp, true,
      [](auto old, auto v, auto c) { return detail::sameBits(old, c) ? v : old; });
}

/// Triton's `tl.make_tensor_descriptor`: a rank-1 or rank-2 tensor in global memory (its first
/// element, its shape and its strides, in elements; the last stride is 1) that loads and stores
/// blocks of `Block...` elements at element offsets. Elements of a block outside the tensor (an
/// index below 0, or at the shape or past it) load as 0 and are not stored. Make one with
/// `tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, 1})`; on sm_90a the loads
/// of a dot loop become TMA copies (docs/language.md, "Tensor descriptors").
template <class T, int... Block> struct tensor_descriptor {
  static_assert(sizeof...(Block) == 1 || sizeof...(Block) == 2,
                "tl::tensor_descriptor: rank must be 1 or 2");
  static constexpr int rank = static_cast<int>(sizeof...(Block));
  using value_type = std::remove_cv_t<T>;
  using block_type = tile<value_type, Block...>;
  using index_type = std::array<std::int64_t, sizeof...(Block)>;

  T *base;
  index_type shape;
  index_type strides;

  /// The block whose first element is at `offsets` (Triton's `desc.load([i, j])`).
  block_type load(index_type offsets) const {
    block_type r{};
    forEach(offsets, [&](int flat, const T *p) { r.data[flat] = *p; });
    return r;
  }
  /// Writes `value` (converted to T, broadcast to the block) into the block at `offsets`.
  template <class V> void store(index_type offsets, const V &value) const {
    static_assert(!std::is_const_v<T>, "tl::tensor_descriptor::store: the tensor is const");
    static_assert(detail::compatible(detail::shapeOf<V>(), block_type::shape) &&
                      detail::broadcastShapes(detail::shapeOf<V>(), block_type::shape) ==
                          block_type::shape,
                  "tl::tensor_descriptor::store: the value must broadcast to the block");
    constexpr int cols = block_type::shape.d1;
    forEach(offsets, [&](int flat, T *p) {
      *p = detail::convert<T>(detail::fetch(value, 0, flat / cols, flat % cols));
    });
  }

private:
  // fn(flat index in the block, address) for each element of the block inside the tensor.
  template <class F> void forEach(const index_type &offsets, F fn) const {
    constexpr std::array<int, sizeof...(Block)> block{Block...};
    constexpr int rows = rank == 2 ? block[0] : 1, cols = block[rank - 1];
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const std::int64_t c = offsets[rank - 1] + j, r = rank == 2 ? offsets[0] + i : 0;
        if (c < 0 || c >= shape[rank - 1] || (rank == 2 && (r < 0 || r >= shape[0])))
          continue;
        fn(i * cols + j, base + (rank == 2 ? r * strides[0] : 0) + c);
      }
  }
};

/// A tensor descriptor for blocks of `Block...` elements of the tensor at `base` with `shape`
/// and `strides` (in elements; the last stride must be 1, as in Triton).
template <int... Block, class T>
tensor_descriptor<T, Block...>
make_tensor_descriptor(T *base, std::array<std::int64_t, sizeof...(Block)> shape,
                       std::array<std::int64_t, sizeof...(Block)> strides) {
  static_assert(detail::isElem<std::remove_cv_t<T>> && !std::is_pointer_v<T>,
                "tl::make_tensor_descriptor: base must point to an element type (tl::tile's)");
  if (strides[sizeof...(Block) - 1] != 1) {
    std::fprintf(stderr, "tl::make_tensor_descriptor: the last stride is %lld; it must be 1\n",
                 static_cast<long long>(strides[sizeof...(Block) - 1]));
    std::abort();
  }
  return {base, shape, strides};
}

/// Triton's `tl.debug_barrier()`: every thread of the program waits here for the others
/// (`__syncthreads()` in the output, kept wherever it stands). tilec already orders the program's
/// own memory accesses (docs/language.md, "Program order"); this one is for ported kernels that
/// have it. The CPU reference runs a program as one thread: nothing to wait for.
inline void debug_barrier() {}

// ================================================================================================
// Selection and math
// ================================================================================================

/// c ? a : b elementwise; c converted to bool, a and b promoted; all three broadcast.
template <class C, class A, class B> auto where(const C &c, const A &a, const B &b) {
  static_assert(detail::allCompatible<C, A, B>(), "tl::where: operands do not broadcast");
  using R = detail::ResultElem<A, B>;
  return detail::mapN<R, detail::broadcastOf<C, A, B>()>(
      [](auto cc, auto x, auto y) {
        return detail::convert<bool>(cc) ? detail::convert<R>(x) : detail::convert<R>(y);
      },
      c, a, b);
}

namespace detail {
template <class R> R maxElem(R a, R b) {
  if constexpr (isFloatLike<R>) {
    const double x = static_cast<double>(a), y = static_cast<double>(b); // exact
    if (std::isnan(x))
      return b;
    if (std::isnan(y))
      return a;
    return y > x ? b : a;
  } else {
    return b > a ? b : a;
  }
}
template <class R> R minElem(R a, R b) {
  if constexpr (isFloatLike<R>) {
    const double x = static_cast<double>(a), y = static_cast<double>(b); // exact
    if (std::isnan(x))
      return b;
    if (std::isnan(y))
      return a;
    return y < x ? b : a;
  } else {
    return b < a ? b : a;
  }
}
template <class A, class B, class F> auto minMax(const A &a, const B &b, F f) {
  static_assert(allCompatible<A, B>(), "tl::minimum/maximum: operands do not broadcast");
  using R = ResultElem<A, B>;
  static_assert(!std::is_pointer_v<R>, "tl::minimum/maximum: pointer operands");
  return mapN<R, broadcastOf<A, B>()>(
      [f](auto x, auto y) { return f(convert<R>(x), convert<R>(y)); }, a, b);
}

/// The type elementwise math on E computes in: double for fp64, float for the others.
template <class E> using MathIn = std::conditional_t<std::is_same_v<E, double>, double, float>;
/// Elementwise math on a floating-point operand (tile or scalar), computed in float (fp64: double).
template <class X, class F> auto math1(const X &x, F f, const char *) {
  using E = Elem<X>;
  static_assert(isFloatLike<E>, "tl: math functions need a floating-point operand (cast first)");
  return mapN<E, shapeOf<X>()>([f](E v) { return convert<E>(f(static_cast<MathIn<E>>(v))); }, x);
}
/// The same on two operands (tiles or scalars, broadcast, promoted as an arithmetic operator's).
template <class A, class B, class F> auto math2(const A &a, const B &b, F f) {
  static_assert(allCompatible<A, B>(), "tl: operands do not broadcast (numpy rules)");
  using R = ResultElem<A, B>;
  static_assert(isFloatLike<R>, "tl: math functions need floating-point operands (cast first)");
  return mapN<R, broadcastOf<A, B>()>(
      [f](auto x, auto y) {
        return convert<R>(
            f(static_cast<MathIn<R>>(convert<R>(x)), static_cast<MathIn<R>>(convert<R>(y))));
      },
      a, b);
}
} // namespace detail

/// Elementwise maximum; for floats a NaN operand loses (fmax).
template <class A, class B> auto maximum(const A &a, const B &b) {
  return detail::minMax(a, b, [](auto x, auto y) { return detail::maxElem(x, y); });
}
/// Elementwise minimum; for floats a NaN operand loses (fmin).
template <class A, class B> auto minimum(const A &a, const B &b) {
  return detail::minMax(a, b, [](auto x, auto y) { return detail::minElem(x, y); });
}

template <class X> auto exp(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::exp(v); }, "exp");
}
template <class X> auto exp2(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::exp2(v); }, "exp2");
}
template <class X> auto log(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::log(v); }, "log");
}
template <class X> auto log2(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::log2(v); }, "log2");
}
template <class X> auto sqrt(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::sqrt(v); }, "sqrt");
}
template <class X> auto rsqrt(const X &x) {
  return detail::math1(
      x, [](auto v) { return 1.0f / std::sqrt(v); }, "rsqrt");
}
template <class X> auto sigmoid(const X &x) {
  return detail::math1(
      x, [](auto v) { return 1.0f / (1.0f + std::exp(-v)); }, "sigmoid");
}
template <class X> auto tanh(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::tanh(v); }, "tanh");
}
template <class X> auto erf(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::erf(v); }, "erf");
}
// The C library's float functions, computed in float (then rounded to half/bfloat16), as the
// generated code computes them with sinf, powf, ... (docs/language.md gives their accuracy).
#define TILEC_MATH1(NAME)                                                                          \
  template <class X> auto NAME(const X &x) {                                                       \
    return detail::math1(                                                                          \
        x, [](auto v) { return std::NAME(v); }, #NAME);                                            \
  }
TILEC_MATH1(sin)
TILEC_MATH1(cos)
TILEC_MATH1(tan)
TILEC_MATH1(asin)
TILEC_MATH1(acos)
TILEC_MATH1(atan)
TILEC_MATH1(sinh)
TILEC_MATH1(cosh)
TILEC_MATH1(asinh)
TILEC_MATH1(acosh)
TILEC_MATH1(atanh)
TILEC_MATH1(expm1)
TILEC_MATH1(log1p)
TILEC_MATH1(log10)
TILEC_MATH1(cbrt)
TILEC_MATH1(erfc)
TILEC_MATH1(lgamma)
TILEC_MATH1(rint)
TILEC_MATH1(round)
TILEC_MATH1(trunc)
#undef TILEC_MATH1
#define TILEC_MATH2(NAME)                                                                          \
  template <class A, class B> auto NAME(const A &a, const B &b) {                                  \
    return detail::math2(a, b, [](auto x, auto y) { return std::NAME(x, y); });                    \
  }
TILEC_MATH2(pow)
TILEC_MATH2(atan2)
TILEC_MATH2(hypot)
TILEC_MATH2(copysign)
TILEC_MATH2(fmod)
TILEC_MATH2(remainder)
#undef TILEC_MATH2
namespace detail {
/// A float, half or bfloat16 operand's elementwise predicate: a bool tile (or a bool).
template <class X, class F> auto mathPredicate(const X &x, F f) {
  using E = Elem<X>;
  static_assert(isFloatLike<E>, "tl: isnan, isinf, isfinite and signbit need a floating-point operand");
  return mapN<bool, shapeOf<X>()>([f](E v) { return f(static_cast<MathIn<E>>(v)); }, x);
}
} // namespace detail
template <class X> auto isnan(const X &x) {
  return detail::mathPredicate(x, [](auto v) { return std::isnan(v); });
}
template <class X> auto isinf(const X &x) {
  return detail::mathPredicate(x, [](auto v) { return std::isinf(v); });
}
template <class X> auto isfinite(const X &x) {
  return detail::mathPredicate(x, [](auto v) { return std::isfinite(v); });
}
template <class X> auto signbit(const X &x) {
  // The sign bit itself: std::signbit here crashes GCC 12 at -O2 with -fsanitize=thread on a
  // bfloat16 operand ("unrecognizable insn"; the operator matrix's bf16 cells).
  return detail::mathPredicate(x, [](auto v) {
    if constexpr (sizeof(v) == 8)
      return (std::bit_cast<std::uint64_t>(v) >> 63) != 0;
    else
      return (std::bit_cast<std::uint32_t>(v) >> 31) != 0;
  });
}

namespace detail {
template <class T> T popcount(T v) {
  return static_cast<T>(std::popcount(static_cast<std::make_unsigned_t<T>>(v)));
}
template <class T> T leadingZeros(T v) {
  return static_cast<T>(std::countl_zero(static_cast<std::make_unsigned_t<T>>(v)));
}
template <class T> T mulHigh(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 4)
    return static_cast<T>(static_cast<U>((std::uint64_t{static_cast<U>(a)} * static_cast<U>(b)) >> 32));
  else
    return static_cast<T>(static_cast<U>((static_cast<unsigned __int128>(static_cast<U>(a)) * static_cast<U>(b)) >> 64));
}
template <class E>
constexpr bool isBitsOperand = isIntElem<E> && sizeof(E) >= 4; // int32, int64, uint32, uint64
template <class X, class F> auto bits1(const X &x, F f) {
  using E = Elem<X>;
  static_assert(isBitsOperand<E>, "tl::popc and tl::clz need 32- or 64-bit integer operands");
  if constexpr (isBitsOperand<E>) // (no second error after the static_assert's)
    return mapN<E, shapeOf<X>()>([f](E v) { return f(v); }, x);
  else
    return x;
}
} // namespace detail
/// a / b in float rounded to nearest (IEEE), toward zero, and the fast approximate division (on
/// the CPU: the IEEE one; the GPU's __fdividef is within 2 ulp). Then to half/bfloat16.
template <class A, class B> auto div_rn(const A &a, const B &b) {
  return detail::math2(a, b, [](auto x, auto y) { return x / y; });
}
template <class A, class B> auto div_rz(const A &a, const B &b) {
  return detail::math2(a, b, [](auto x, auto y) { return detail::divTowardZero(x, y); });
}
template <class A, class B> auto fdiv(const A &a, const B &b) {
  return detail::math2(a, b, [](auto x, auto y) { return x / y; });
}
template <class X> auto sqrt_rn(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::sqrt(v); }, "sqrt_rn");
}
/// Set bits and leading zero bits of 32- or 64-bit integer values (in the operand's type).
template <class X> auto popc(const X &x) {
  return detail::bits1(x, [](auto v) { return detail::popcount(v); });
}
template <class X> auto clz(const X &x) {
  return detail::bits1(x, [](auto v) { return detail::leadingZeros(v); });
}
/// The high 32 (64) bits of the unsigned 64-bit (128-bit) product of 32-bit (64-bit) integers.
template <class A, class B> auto umulhi(const A &a, const B &b) {
  static_assert(detail::allCompatible<A, B>(), "tl::umulhi: operands do not broadcast");
  using R = detail::ResultElem<A, B>;
  static_assert(detail::isBitsOperand<R>, "tl::umulhi needs 32- or 64-bit integer operands");
  if constexpr (detail::isBitsOperand<R>)
    return detail::mapN<R, detail::broadcastOf<A, B>()>(
        [](auto x, auto y) { return detail::mulHigh(detail::convert<R>(x), detail::convert<R>(y)); }, a, b);
  else
    return a;
}

/// x limited to [lo, hi]: minimum(maximum(x, lo), hi) (a NaN x gives lo, as fmaxf does).
template <class X, class L, class H> auto clamp(const X &x, const L &lo, const H &hi) {
  return minimum(maximum(x, lo), hi);
}

template <class X> auto floor(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::floor(v); }, "floor");
}
template <class X> auto ceil(const X &x) {
  return detail::math1(
      x, [](auto v) { return std::ceil(v); }, "ceil");
}
/// |x|; also on integers (abs(MIN) wraps to MIN) and bool (identity).
template <class X> auto abs(const X &x) {
  using E = detail::Elem<X>;
  static_assert(!std::is_pointer_v<E>, "tl::abs: pointer operand");
  return detail::mapN<E, detail::shapeOf<X>()>(
      [](E v) -> E {
        if constexpr (std::is_unsigned_v<E> && !std::is_same_v<E, bool>)
          return v;
        else if constexpr (detail::isIntElem<E>)
          return v < 0 ? static_cast<E>(detail::Unsigned<E>{0} - static_cast<detail::Unsigned<E>>(v))
                       : v;
        else if constexpr (std::is_same_v<E, bool>)
          return v;
        else if constexpr (detail::isFloat16<E>)
          return E::fromBits(static_cast<std::uint16_t>(v.bits & 0x7FFF));
        else if constexpr (detail::isFloat8<E>) // in float: a NaN becomes 0x7F, as on the GPU
          return E(std::fabs(static_cast<float>(v)));
        else
          return std::fabs(v);
      },
      x);
}
/// a * b + c with one rounding in float (then rounded to half/bfloat16 if that is the type).
template <class A, class B, class C> auto fma(const A &a, const B &b, const C &c) {
  static_assert(detail::allCompatible<A, B, C>(), "tl::fma: operands do not broadcast");
  using R = detail::ResultElem<A, B, C>;
  static_assert(detail::isFloatLike<R>, "tl::fma: needs floating-point operands");
  return detail::mapN<R, detail::broadcastOf<A, B, C>()>(
      [](auto x, auto y, auto z) {
        using F = detail::MathIn<R>;
        return detail::convert<R>(std::fma(static_cast<F>(detail::convert<R>(x)),
                                           static_cast<F>(detail::convert<R>(y)),
                                           static_cast<F>(detail::convert<R>(z))));
      },
      a, b, c);
}

/// ceil(a / b) as (a + b - 1) / b; on scalars constexpr and usable on the host.
template <class A, class B>
  requires(std::is_integral_v<A> && std::is_integral_v<B>)
constexpr auto cdiv(A a, B b) {
  return (a + b - 1) / b;
}
namespace detail {
template <class A, class B> auto cdivImpl(const A &a, const B &b) {
  static_assert(allCompatible<A, B>(), "tl::cdiv: operands do not broadcast");
  using R = ResultElem<A, B>;
  static_assert(isIntElem<R>, "tl::cdiv: needs integer operands");
  return mapN<R, broadcastOf<A, B>()>(
      [](auto x, auto y) {
        const R d = convert<R>(y);
        return divElem(subElem(addElem(convert<R>(x), d), R{1}), d);
      },
      a, b);
}
} // namespace detail
template <class T, int... D, class U, int... E>
auto cdiv(const tile<T, D...> &a, const tile<U, E...> &b) {
  return detail::cdivImpl(a, b);
}
template <class T, int... D, detail::scalar_operand S> auto cdiv(const tile<T, D...> &a, S b) {
  return detail::cdivImpl(a, b);
}
template <detail::scalar_operand S, class U, int... E> auto cdiv(S a, const tile<U, E...> &b) {
  return detail::cdivImpl(a, b);
}

// ================================================================================================
// Random numbers (Triton's Philox streams; tilec/detail/philox.hpp)
// ================================================================================================

namespace detail {
/// The seed as Triton takes it: an integer scalar, as uint64 (a signed one sign-extended).
template <class S> std::uint64_t philoxSeed(S seed) {
  static_assert(std::is_integral_v<S> && !std::is_same_v<S, bool>,
                "tl::rand, randn, randint: the seed must be an integer scalar");
  return static_cast<std::uint64_t>(seed);
}
/// f(low 32 bits, high 32 bits) of each offset (a tile or a scalar of int32, uint32, int64 or
/// uint64; 32-bit ones have a high half of 0, as Triton's randint4x counts).
template <class O, class F> auto philoxMap(const O &offset, F f) {
  using E = Elem<O>;
  static_assert(isIntElem<E> && (sizeof(E) == 4 || sizeof(E) == 8),
                "tl::rand, randn, randint: offsets must be int32, uint32, int64 or uint64");
  using R = decltype(f(std::uint32_t{}, std::uint32_t{}));
  return mapN<R, shapeOf<O>()>(
      [f](auto o) {
        const auto bits = static_cast<std::uint64_t>(o);
        return f(static_cast<std::uint32_t>(bits),
                 sizeof(E) == 8 ? static_cast<std::uint32_t>(bits >> 32) : std::uint32_t{0});
      },
      offset);
}
} // namespace detail

/// Random uint32 values for `seed` (an integer scalar) at `offset` (int32, uint32, int64 or uint64,
/// a tile or a scalar): Triton's tl.randint, output 0 of Philox 4x32-10 of the counter (low half,
/// high half, 0, 0) of the offset.
template <class S, class O> auto randint(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  return detail::philoxMap(
      offset, [s](std::uint32_t lo, std::uint32_t hi) { return detail::philox(s, lo, hi).c[0]; });
}
/// All four outputs (tl.randint4x): auto [r0, r1, r2, r3] = tl::randint4x(seed, offset).
template <class S, class O> auto randint4x(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  auto lane = [&](int k) {
    return detail::philoxMap(offset, [s, k](std::uint32_t lo, std::uint32_t hi) {
      return detail::philox(s, lo, hi).c[k];
    });
  };
  return std::make_tuple(lane(0), lane(1), lane(2), lane(3));
}
/// Uniform floats in [0, 1) (tl.rand): output 0 as Triton's uint_to_uniform_float.
template <class S, class O> auto rand(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  return detail::philoxMap(offset, [s](std::uint32_t lo, std::uint32_t hi) {
    return detail::uniformFromBits(detail::philox(s, lo, hi).c[0]);
  });
}
/// Four tiles of uniform floats (tl.rand4x), one from each output.
template <class S, class O> auto rand4x(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  auto lane = [&](int k) {
    return detail::philoxMap(offset, [s, k](std::uint32_t lo, std::uint32_t hi) {
      return detail::uniformFromBits(detail::philox(s, lo, hi).c[k]);
    });
  };
  return std::make_tuple(lane(0), lane(1), lane(2), lane(3));
}
/// Standard normal floats (tl.randn): Box-Muller's first value (cos) of outputs 0 and 1.
template <class S, class O> auto randn(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  return detail::philoxMap(offset, [s](std::uint32_t lo, std::uint32_t hi) {
    const detail::PhiloxBits b = detail::philox(s, lo, hi);
    return detail::normalFromBits(b.c[0], b.c[1], false);
  });
}
/// Four tiles of normal floats (tl.randn4x): both Box-Muller values of outputs 0 and 1, then of 2
/// and 3.
template <class S, class O> auto randn4x(S seed, const O &offset) {
  const std::uint64_t s = detail::philoxSeed(seed);
  auto value = [&](int first, bool second) {
    return detail::philoxMap(offset, [s, first, second](std::uint32_t lo, std::uint32_t hi) {
      const detail::PhiloxBits b = detail::philox(s, lo, hi);
      return detail::normalFromBits(b.c[first], b.c[first + 1], second);
    });
  };
  return std::make_tuple(value(0, false), value(0, true), value(2, false), value(2, true));
}

// ================================================================================================
// Matrix products
// ================================================================================================

/// How a dot of fp32 tiles multiplies (Triton's `input_precision`): `ieee` in full fp32 (the
/// default here; Triton's default is tf32), `tf32` with each operand rounded to tf32 first (10
/// mantissa bits, round to nearest, ties away from zero, as the GPU's `cvt.rna.tf32.f32`), `tf32x3`
/// with each operand split into a tf32 part and the tf32 of the rest, three products added (near
/// fp32 accuracy on tf32 hardware). Other operand types ignore it.
enum class input_precision { ieee, tf32, tf32x3 };
inline constexpr input_precision ieee = input_precision::ieee;
inline constexpr input_precision tf32 = input_precision::tf32;
inline constexpr input_precision tf32x3 = input_precision::tf32x3;

namespace detail {
/// x rounded to tf32: the low 13 mantissa bits cleared after adding half of their weight (ties away
/// from zero in sign-magnitude); infinities and NaNs unchanged.
inline float roundTf32(float x) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  if ((u & 0x7F800000u) != 0x7F800000u)
    u = (u + 0x1000u) & ~0x1FFFu;
  return std::bit_cast<float>(u);
}
template <class A, class B> constexpr bool dotOperands() {
  return (std::is_same_v<A, half> && std::is_same_v<B, half>) ||
         (std::is_same_v<A, bfloat16> && std::is_same_v<B, bfloat16>) ||
         (std::is_same_v<A, float> && std::is_same_v<B, float>) ||
         (std::is_same_v<A, std::int8_t> && std::is_same_v<B, std::int8_t>);
}
template <int D> constexpr bool dotDim = D >= 16 && (D & (D - 1)) == 0;

/// c[m][n] = acc[m][n] + sum over k of a[m][k] * b[k][n], accumulated in Acc (float, or int32 for
/// int8 operands) one product at a time in increasing k, then converted to R.
template <input_precision P, class R, class Acc, class A, class B, int M, int K, int N, class C>
tile<R, M, N> dotImpl(const tile<A, M, K> &a, const tile<B, K, N> &b, const C *acc) {
  static_assert(
      dotOperands<A, B>(),
      "tl::dot: operands must both be tl::half, both tl::bfloat16, both float or both int8_t");
  static_assert(dotDim<M> && dotDim<K> && dotDim<N>,
                "tl::dot: every dim of [M, K] x [K, N] must be a power of two >= 16");
  tile<R, M, N> r;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      Acc s = acc ? convert<Acc>(acc->data[m * N + n]) : Acc{};
      for (int k = 0; k < K; ++k) {
        const A x = a.data[m * K + k];
        const B y = b.data[k * N + n];
        if constexpr (std::is_same_v<Acc, std::int32_t>) { // wraps, as the GPU's s32 accumulator
          s = static_cast<std::int32_t>(
              static_cast<std::uint32_t>(s) +
              static_cast<std::uint32_t>(std::int32_t{x} * std::int32_t{y}));
        } else if constexpr (std::is_same_v<A, float> && P == input_precision::tf32) {
          s += roundTf32(x) * roundTf32(y);
        } else if constexpr (std::is_same_v<A, float> && P == input_precision::tf32x3) {
          const float xh = roundTf32(x), xl = roundTf32(x - xh);
          const float yh = roundTf32(y), yl = roundTf32(y - yh);
          s += xh * yl + xl * yh + xh * yh;
        } else {
          s +=
              static_cast<float>(x) * static_cast<float>(y); // fp16/bf16 products are exact in fp32
        }
      }
      r.data[m * N + n] = convert<R>(s);
    }
  return r;
}
template <class A>
using DotAcc = std::conditional_t<std::is_same_v<A, std::int8_t>, std::int32_t, float>;
} // namespace detail

/// The matrix product of a [M, K] and a [K, N] tile (Triton's `tl.dot(a, b)`): fp16 x fp16 and bf16
/// x bf16 give float, float x float gives float (precision P), int8_t x int8_t gives int32_t. Every
/// dim a power of two >= 16. `Out = tl::half` asks for an fp16 result of fp16 operands (Triton's
/// `out_dtype=tl.float16`): accumulated in float here, rounded once at the end.
template <input_precision P = ieee, class Out = void, class A, int M, int K, class B, int N>
auto dot(const tile<A, M, K> &a, const tile<B, K, N> &b) {
  using Acc = detail::DotAcc<A>;
  using R = std::conditional_t<std::is_void_v<Out>, Acc, Out>;
  static_assert(std::is_void_v<Out> || std::is_same_v<Out, Acc> ||
                    (std::is_same_v<Out, half> && std::is_same_v<A, half>),
                "tl::dot: the result type is the accumulator's, or tl::half for fp16 operands");
  return detail::dotImpl<P, R, Acc>(a, b, static_cast<const tile<R, M, N> *>(nullptr));
}
/// acc + a x b (Triton's `tl.dot(a, b, acc)`): the result has acc's type (float, int32_t, or
/// tl::half for fp16 operands); the sum starts from acc and adds the products in increasing k.
template <input_precision P = ieee, class A, int M, int K, class B, int N, class C>
tile<C, M, N> dot(const tile<A, M, K> &a, const tile<B, K, N> &b, const tile<C, M, N> &acc) {
  using Acc = detail::DotAcc<A>;
  static_assert(
      std::is_same_v<C, Acc> || (std::is_same_v<C, half> && std::is_same_v<A, half>),
      "tl::dot: acc must be float (int32_t for int8_t operands), or tl::half for fp16 operands");
  return detail::dotImpl<P, C, Acc>(a, b, &acc);
}

/// The transpose of a 2-D tile (Triton's `tl.trans(x)` / `x.T`): r[j][i] = x[i][j].
template <class T, int D0, int D1> tile<T, D1, D0> trans(const tile<T, D0, D1> &x) {
  tile<T, D1, D0> r;
  for (int i = 0; i < D0; ++i)
    for (int j = 0; j < D1; ++j)
      r.data[j * D0 + i] = x.data[i * D1 + j];
  return r;
}

// ================================================================================================
// Sorting
// ================================================================================================

namespace detail {
/// A tile of numbers (not pointers): what the sorting and shape ops take.
template <class X> constexpr bool valueTile = isTile<X> && !std::is_pointer_v<Elem<X>>;

/// tl::sort's order (tilec::rt::sort_key's): integers and bools by value; floating-point values
/// (fp64 to fp8) by their bits in IEEE 754 totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf <
/// +NaN, so that every two bit patterns compare unequal.
template <class T> auto sortKey(T v) {
  if constexpr (std::is_integral_v<T>) {
    return v;
  } else {
    using U = std::conditional_t<
        sizeof(T) == 1, std::uint8_t,
        std::conditional_t<sizeof(T) == 2, std::uint16_t,
                           std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
    U bits;
    std::memcpy(&bits, &v, sizeof bits);
    return (bits & sign) ? U(~bits) : U(bits | sign);
  }
}

/// Each row of x (its last dim) sorted (descending when DESC), its first K elements kept.
template <int K, bool DESC, class X> auto sortRows(const X &x) {
  using T = Elem<X>;
  constexpr int n = X::shape.d1, rows = X::size / n;
  constexpr Shape s = X::shape;
  constexpr Shape outShape = Shape{s.rank, s.d0, K, s.lead};
  TileFor<T, outShape> r;
  for (int row = 0; row < rows; ++row) {
    std::array<T, n> v;
    for (int i = 0; i < n; ++i)
      v[i] = x.data[row * n + i];
    std::sort(v.begin(), v.end(),
              [](T a, T b) { return DESC ? sortKey(b) < sortKey(a) : sortKey(a) < sortKey(b); });
    for (int i = 0; i < K; ++i)
      r.data[row * K + i] = v[i];
  }
  return r;
}
} // namespace detail

/// tl.sort(x, dim=DIM, descending=DESCENDING): each row of x (along its last dim, the only one
/// Triton sorts along) in order: integers by value, floating-point values by IEEE 754 totalOrder
/// (docs/language.md "Sorting").
template <int DIM = -1, bool DESCENDING = false, class X> X sort(const X &x) {
  static_assert(detail::valueTile<X>, "tl::sort: the operand must be a tile of numbers");
  static_assert(DIM == -1 || DIM == X::rank - 1, "tl::sort: tiles are sorted along their last dim");
  return detail::sortRows<X::shape.d1, DESCENDING>(x);
}

/// tl.topk(x, K, dim=DIM): the K largest elements of each row of x (its last dim), descending, in
/// tl::sort's order; K a power of two no larger than the row.
template <int K, int DIM = -1, class X> auto topk(const X &x) {
  static_assert(detail::valueTile<X>, "tl::topk: the operand must be a tile of numbers");
  static_assert(DIM == -1 || DIM == X::rank - 1, "tl::topk: tiles are sorted along their last dim");
  static_assert(K > 0 && K <= X::shape.d1, "tl::topk: K must be at most the length of a row");
  return detail::sortRows<K, true>(x);
}

// ================================================================================================
// Shapes: the elements in row-major order, rearranged
// ================================================================================================

/// tl.reshape(x, shape): x's elements in row-major order, in a tile of shape D... (as many
/// elements). Triton's `can_reorder` lets the compiler change the order; tilec keeps it, which
/// satisfies either value.
template <int... D, class X> auto reshape(const X &x, bool can_reorder = false) {
  static_assert(detail::valueTile<X>, "tl::reshape: the operand must be a tile of numbers");
  static_assert(tile<detail::Elem<X>, D...>::size == X::size,
                "tl::reshape: the new shape must have as many elements as the tile");
  (void)can_reorder;
  tile<detail::Elem<X>, D...> r;
  if constexpr (decltype(r)::size == X::size) // else the static_assert above is the one error
    r.data = x.data;
  return r;
}

/// tl.ravel(x): x's elements in row-major order, as a 1-D tile.
template <class X> auto ravel(const X &x) {
  static_assert(detail::valueTile<X>, "tl::ravel: the operand must be a tile of numbers");
  tile<detail::Elem<X>, X::size> r;
  r.data = x.data;
  return r;
}

/// tl.permute(x, dims): the tile whose dim i is x's dim DIMS[i]; for rank 2, <1, 0> is tl::trans.
template <int... DIMS, class X> auto permute(const X &x) {
  static_assert(detail::valueTile<X>, "tl::permute: the operand must be a tile of numbers");
  static_assert(sizeof...(DIMS) == X::rank, "tl::permute: one dim for each dim of the tile");
  static_assert(detail::isPermutation<X::rank, DIMS...>(),
                "tl::permute: the dims must be a permutation of 0 .. rank - 1");
  constexpr std::array<int, 3> perm{DIMS...};
  constexpr detail::Shape s = X::shape;
  constexpr std::array<int, 3> from = detail::dimsOf(s);
  // r's element at index q is x's element whose dim perm[e] is q[e].
  constexpr detail::Shape outShape = detail::permutedShape(s, perm);
  detail::TileFor<detail::Elem<X>, outShape> r;
  detail::forEachIndex<decltype(r)::shape>([&](int l, int i, int j, int k) {
    const std::array<int, 3> q = detail::leftAligned(decltype(r)::shape, l, i, j);
    std::array<int, 3> p{};
    for (int e = 0; e < X::rank; ++e)
      p[perm[e]] = q[e];
    int flat = 0;
    for (int e = 0; e < X::rank; ++e)
      flat = flat * from[e] + p[e];
    r.data[k] = x.data[flat];
  });
  return r;
}

/// tl.split(x): the two halves of a tile [..., 2] along its last dim, x[..., 0] and x[..., 1]
/// (of rank one less); bind them where it is called: auto [a, b] = tl::split(x);
template <class X> auto split(const X &x) {
  static_assert(detail::valueTile<X>, "tl::split: the operand must be a tile of numbers");
  static_assert(X::rank >= 2 && X::shape.d1 == 2, "tl::split: the tile's last dim must be 2");
  constexpr detail::Shape outShape = detail::withoutDim(X::shape, X::rank - 1);
  detail::TileFor<detail::Elem<X>, outShape> a, b;
  for (int i = 0; i < X::size / 2; ++i) {
    a.data[i] = x.data[2 * i];
    b.data[i] = x.data[2 * i + 1];
  }
  return std::make_tuple(a, b);
}

/// tl.interleave(a, b): a's and b's elements alternating along the last dim, a's first: the last
/// dim doubles. a and b are tiles of one type and shape.
template <class A, class B> auto interleave(const A &a, const B &b) {
  static_assert(detail::valueTile<A> && std::is_same_v<A, B>,
                "tl::interleave: the operands must be tiles of numbers of one type and shape");
  using T = detail::Elem<A>;
  constexpr detail::Shape s = A::shape;
  constexpr detail::Shape outShape = detail::Shape{s.rank, s.d0, 2 * s.d1, s.lead};
  detail::TileFor<T, outShape> r;
  for (int i = 0; i < A::size; ++i) {
    r.data[2 * i] = a.data[i];
    r.data[2 * i + 1] = b.data[i];
  }
  return r;
}

/// tl.join(a, b): the tile of one more dim, 2 long, last: [N] -> [N, 2] whose row i is (a[i],
/// b[i]); [M, N] -> [M, N, 2]. a and b are tiles of one type and shape, of rank 1 or 2.
template <class A, class B> auto join(const A &a, const B &b) {
  static_assert(detail::valueTile<A> && std::is_same_v<A, B>,
                "tl::join: the operands must be tiles of numbers of one type and shape");
  static_assert(A::rank <= 2, "tl::join: tiles have rank <= 3, so join takes 1-D or 2-D tiles");
  if constexpr (A::rank == 1)
    return reshape<A::size, 2>(interleave(a, b));
  else
    return reshape<A::shape.d0, A::shape.d1, 2>(interleave(a, b));
}

/// tl.cat(a, b): a's elements, then b's, along dim 0 (rows of b after the rows of a). Triton's
/// `can_reorder` lets the compiler change the order (Triton's cat needs it true); tilec keeps it.
template <class A, class B> auto cat(const A &a, const B &b, bool can_reorder = false) {
  static_assert(detail::valueTile<A> && std::is_same_v<A, B>,
                "tl::cat: the operands must be tiles of numbers of one type and shape");
  (void)can_reorder;
  using T = detail::Elem<A>;
  constexpr std::array<int, 3> dims = detail::dimsOf(A::shape);
  constexpr detail::Shape outShape =
      detail::shapeFromDims(A::rank, {2 * dims[0], dims[1], dims[2]});
  detail::TileFor<T, outShape> r;
  for (int i = 0; i < A::size; ++i) {
    r.data[i] = a.data[i];
    r.data[A::size + i] = b.data[i];
  }
  return r;
}

// ================================================================================================
// Reductions
// ================================================================================================

namespace detail {

/// A reduction: Acc<T> is the result type, first(v, k) starts from element k = 0, step(acc, v, k)
/// folds in element k (sequentially from index 0), done(acc) gives the result.
struct SumRed {
  /// Integers narrower than 32 bits sum in 32 bits of their signedness (bool as int32), as
  /// Triton's tl.sum.
  template <class T>
  using Acc =
      std::conditional_t<std::is_same_v<T, bool> || (isIntElem<T> && sizeof(T) < 4),
                         std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                            std::uint32_t, std::int32_t>,
                         T>;
  template <class T> static Acc<T> first(T v, int) { return convert<Acc<T>>(v); }
  template <class T> static Acc<T> step(Acc<T> acc, T v, int) {
    return addElem(acc, convert<Acc<T>>(v));
  }
  template <class T> static Acc<T> done(Acc<T> acc) { return acc; }
};
struct MaxRed {
  template <class T> using Acc = T;
  template <class T> static T first(T v, int) { return v; }
  template <class T> static T step(T acc, T v, int) {
    if constexpr (std::is_same_v<T, bool>)
      return acc || v;
    else
      return maxElem(acc, v);
  }
  template <class T> static T done(T acc) { return acc; }
};
struct MinRed {
  template <class T> using Acc = T;
  template <class T> static T first(T v, int) { return v; }
  template <class T> static T step(T acc, T v, int) {
    if constexpr (std::is_same_v<T, bool>)
      return acc && v;
    else
      return minElem(acc, v);
  }
  template <class T> static T done(T acc) { return acc; }
};

template <class T> bool isNanElem(T v) {
  if constexpr (isFloatLike<T>)
    return std::isnan(static_cast<double>(v));
  else
    return false;
}
template <class T> struct ArgPair {
  T value;
  std::int32_t index;
};
/// argmax/argmin: the first index of the best value; a NaN beats every number (for both), so the
/// first NaN wins when there is one.
template <bool MAX> struct ArgRed {
  template <class T> using Acc = ArgPair<T>;
  template <class T> static ArgPair<T> first(T v, int k) { return {v, k}; }
  template <class T> static ArgPair<T> step(ArgPair<T> acc, T v, int k) {
    if (isNanElem(acc.value))
      return acc;
    if (isNanElem(v))
      return {v, k};
    const auto x = asFloatIf16(acc.value), y = asFloatIf16(v);
    const bool better = MAX ? (y > x) : (y < x);
    return better ? ArgPair<T>{v, k} : acc;
  }
  template <class T> static std::int32_t done(ArgPair<T> acc) { return acc.index; }
};

template <class Red, class T>
using RedOut = decltype(Red::template done<T>(std::declval<typename Red::template Acc<T>>()));

/// fp8 tiles are neither reduced nor scanned (Triton's fail too): they are converted first.
template <class T> constexpr auto requireNotFloat8() {
  static_assert(!isFloat8<T>, "tl: reductions and scans of fp8 tiles are not supported; convert "
                              "to float first (tl::cast<float>(x))");
  return true;
}

/// Reduces all elements in row-major order (the flattened index for argmax/argmin).
template <class Red, class T, int... D> auto reduceAll(const tile<T, D...> &x) {
  static_assert(!std::is_pointer_v<T>, "tl: reductions need a value tile");
  requireNotFloat8<T>();
  auto acc = Red::template first<T>(x.data[0], 0);
  for (int k = 1; k < tile<T, D...>::size; ++k)
    acc = Red::template step<T>(acc, x.data[k], k);
  return Red::template done<T>(acc);
}

/// Reduces along AXIS: a 1-D tile gives a scalar, a 2-D or 3-D tile the tile of the other dims.
template <class Red, int AXIS, class T, int... D> auto reduceAxis(const tile<T, D...> &x) {
  using X = tile<T, D...>;
  static_assert(!std::is_pointer_v<T>, "tl: reductions need a value tile");
  requireNotFloat8<T>();
  constexpr int axis = AXIS < 0 ? AXIS + X::rank : AXIS;
  static_assert(axis >= 0 && axis < X::rank, "tl: reduction axis out of range");
  if constexpr (X::rank == 1) {
    return reduceAll<Red>(x);
  } else {
    constexpr AxisWalk w = axisWalk<X>(axis);
    constexpr Shape outShape = withoutDim(X::shape, axis);
    TileFor<RedOut<Red, T>, outShape> r;
    for (int o = 0; o < w.lines; ++o) {
      auto acc = Red::template first<T>(x.data[w.at(o, 0)], 0);
      for (int k = 1; k < w.length; ++k)
        acc = Red::template step<T>(acc, x.data[w.at(o, k)], k);
      r.data[o] = Red::template done<T>(acc);
    }
    return r;
  }
}

} // namespace detail

// tl::OP(x) reduces every element to a scalar; tl::OP<AXIS>(x) removes dim AXIS (1-D -> scalar).
#define TILEC_REDUCTION(NAME, RED)                                                                 \
  template <class T, int... D> auto NAME(const tile<T, D...> &x) {                                 \
    return detail::reduceAll<RED>(x);                                                              \
  }                                                                                                \
  template <int AXIS, class T, int... D> auto NAME(const tile<T, D...> &x) {                       \
    return detail::reduceAxis<RED, AXIS>(x);                                                       \
  }

TILEC_REDUCTION(sum, detail::SumRed)

TILEC_REDUCTION(max, detail::MaxRed)
TILEC_REDUCTION(min, detail::MinRed)
TILEC_REDUCTION(argmax, detail::ArgRed<true>)
TILEC_REDUCTION(argmin, detail::ArgRed<false>)
#undef TILEC_REDUCTION

namespace detail {
/// Whether AXIS names a dim of a tile of rank RANK (negative axes count from the end).
template <int AXIS, std::size_t RANK>
inline constexpr bool isAxis = AXIS >= -static_cast<int>(RANK) && AXIS < static_cast<int>(RANK);

/// Folds x with `step` along AXIS (every element, row-major, when ALL): sequentially from index 0.
template <bool ALL, int AXIS, class T, int... D, class Step>
auto foldWith(const tile<T, D...> &x, Step step) {
  using X = tile<T, D...>;
  static_assert(!std::is_pointer_v<T>, "tl: reductions need a value tile");
  requireNotFloat8<T>();
  if constexpr (ALL || X::rank == 1) {
    T acc = x.data[0];
    for (int k = 1; k < X::size; ++k)
      acc = step(acc, x.data[k]);
    return acc;
  } else {
    constexpr int axis = AXIS < 0 ? AXIS + X::rank : AXIS; // in range: the callers check
    constexpr AxisWalk w = axisWalk<X>(axis);
    constexpr Shape outShape = withoutDim(X::shape, axis);
    TileFor<T, outShape> r;
    for (int o = 0; o < w.lines; ++o) {
      T acc = x.data[w.at(o, 0)];
      for (int k = 1; k < w.length; ++k)
        acc = step(acc, x.data[w.at(o, k)]);
      r.data[o] = acc;
    }
    return r;
  }
}
} // namespace detail

/// tl.reduce(x, None, combine_fn): every element combined with the kernel's own combine function,
/// `combine(a, b)` of two elements given as a lambda, its result converted to the element type.
/// The CPU combines sequentially in row-major order; the GPU in a tree (as tl::sum), so the
/// function must be associative and commutative.
template <class T, int... D, class F> T reduce(const tile<T, D...> &x, F combine) {
  static_assert(std::is_invocable_v<const F &, T, T>,
                "tl: the combine function must take two elements of the tile");
  // tilec's translator inlines the call `combine(a, b)` below, with a and b scalars of its own.
  return detail::foldWith<true, 0>(
      x, [&combine](T a, T b) { return detail::convert<T>(combine(a, b)); });
}
/// tl.reduce(x, AXIS, combine_fn): dim AXIS removed (1-D: a scalar), as tl::sum<AXIS>.
template <int AXIS, class T, int... D, class F> auto reduce(const tile<T, D...> &x, F combine) {
  static_assert(detail::isAxis<AXIS, sizeof...(D)>, "tl: reduction axis out of range");
  static_assert(std::is_invocable_v<const F &, T, T>,
                "tl: the combine function must take two elements of the tile");
  return detail::foldWith<false, AXIS>(
      x, [&combine](T a, T b) { return detail::convert<T>(combine(a, b)); });
}

// ================================================================================================
// Gather and flip
// ================================================================================================

/// tl.gather(src, index, axis=AXIS): the tile of index's shape whose element p is src's element at
/// p but along AXIS at index[p]: out[i][j] = src[index[i][j]][j] for AXIS 0. index is an integer
/// tile of src's rank whose other dims are src's. An index outside [0, n) (n: src's size along
/// AXIS) is taken modulo n, as the generated code takes it (Triton leaves it undefined).
template <int AXIS, class T, int... D, class I, int... E>
tile<T, E...> gather(const tile<T, D...> &src, const tile<I, E...> &index) {
  using X = tile<T, D...>;
  using Y = tile<I, E...>;
  static_assert(sizeof...(D) == sizeof...(E), "tl: gather's index has the rank of its source");
  static_assert(detail::isAxis<AXIS, sizeof...(D)>, "tl: gather axis out of range");
  static_assert(detail::isIntElem<I>, "tl: gather's indices are integers");
  static_assert(!std::is_pointer_v<T>, "tl: gather needs a value tile");
  constexpr int axis = AXIS < 0 ? AXIS + X::rank : AXIS;
  constexpr std::array<int, 3> from = detail::dimsOf(X::shape);
  static_assert(detail::withoutDim(X::shape, axis) == detail::withoutDim(Y::shape, axis),
                "tl: gather's index has its source's size along the other dims");
  tile<T, E...> r;
  detail::forEachIndex<Y::shape>([&](int l, int i, int j, int p) {
    std::array<int, 3> q = detail::leftAligned(Y::shape, l, i, j);
    q[axis] = static_cast<int>(static_cast<unsigned long long>(index.data[p]) % from[axis]);
    int flat = 0;
    for (int e = 0; e < X::rank; ++e)
      flat = flat * from[e] + q[e];
    r.data[p] = src.data[flat];
  });
  return r;
}

/// tl.histogram(x, NUM_BINS, mask): the counts of x's values in bins 0 .. NUM_BINS - 1 (width 1),
/// as int32; elements whose mask is false, and values outside [0, NUM_BINS), count nowhere (Triton
/// leaves such values undefined).
template <int NUM_BINS, class T, int N>
tile<std::int32_t, NUM_BINS> histogram(const tile<T, N> &x, const tile<bool, N> &mask) {
  static_assert(detail::isIntElem<T>, "tl: histogram counts integers");
  tile<std::int32_t, NUM_BINS> r{};
  for (int i = 0; i < N; ++i)
    if (mask.data[i] && static_cast<unsigned long long>(x.data[i]) < NUM_BINS)
      ++r.data[static_cast<int>(x.data[i])];
  return r;
}
template <int NUM_BINS, class T, int N>
tile<std::int32_t, NUM_BINS> histogram(const tile<T, N> &x) {
  tile<bool, N> all;
  all.data.fill(true);
  return histogram<NUM_BINS>(x, all);
}

/// tl.flip(x, dim=DIM): x reversed along DIM (the last by default; negative counts from the end).
template <int DIM = -1, class T, int... D> tile<T, D...> flip(const tile<T, D...> &x) {
  using X = tile<T, D...>;
  static_assert(detail::isAxis<DIM, sizeof...(D)>, "tl: flip dim out of range");
  constexpr int dim = DIM < 0 ? DIM + X::rank : DIM;
  constexpr detail::AxisWalk w = detail::axisWalk<X>(dim);
  tile<T, D...> r;
  for (int o = 0; o < w.lines; ++o)
    for (int k = 0; k < w.length; ++k)
      r.data[w.at(o, k)] = x.data[w.at(o, w.length - 1 - k)];
  return r;
}

// ================================================================================================
// Scans
// ================================================================================================

namespace detail {

/// Scans combine as Triton's tl.cumsum and tl.cumprod: bfloat16 is scanned in float (the result is
/// float); cumsum also adds integers narrower than 32 bits in 32 bits of their signedness (bool as
/// int32), as tl::sum does.
template <class T> using ScanIn = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;
template <class T> using CumsumOut = SumRed::Acc<ScanIn<T>>;

/// The inclusive scan of x along AXIS: element i combines elements 0 .. i along it (i .. n-1 when
/// REVERSE), one combination at a time in the scan's direction: r[i] = combine(r[i -+ 1], x[i]).
template <class R, int AXIS, bool REVERSE, class T, int... D, class F>
tile<R, D...> scanAxis(const tile<T, D...> &x, F combine) {
  using X = tile<T, D...>;
  static_assert(!std::is_pointer_v<T>, "tl: scans need a value tile");
  requireNotFloat8<T>();
  constexpr int axis = AXIS < 0 ? AXIS + X::rank : AXIS; // in range: the callers check
  constexpr AxisWalk w = axisWalk<X>(axis);
  tile<R, D...> r;
  for (int o = 0; o < w.lines; ++o)
    for (int n = 0; n < w.length; ++n) {
      const int k = REVERSE ? w.length - 1 - n : n;
      const R v = convert<R>(x.data[w.at(o, k)]);
      r.data[w.at(o, k)] = n == 0 ? v : combine(r.data[w.at(o, REVERSE ? k + 1 : k - 1)], v);
    }
  return r;
}

} // namespace detail

/// tl.associative_scan(x, AXIS, combine_fn, reverse=REVERSE): the inclusive scan of x along AXIS
/// with the kernel's own combine function, `combine(a, b)` of two elements (a the earlier one in
/// the scan's direction), given as a lambda; its result is converted to the element type. The
/// CPU combines sequentially; the GPU in another order (docs/language.md "Scans"), so the function
/// must be associative.
template <int AXIS, bool REVERSE = false, class T, int... D, class F>
auto associative_scan(const tile<T, D...> &x, F combine) {
  static_assert(detail::isAxis<AXIS, sizeof...(D)>, "tl: scan axis out of range");
  static_assert(std::is_invocable_v<const F &, T, T>,
                "tl: the combine function must take two elements of the tile");
  // tilec's translator inlines the call `combine(a, b)` below, with a and b scalars of its own.
  return detail::scanAxis<T, AXIS, REVERSE>(
      x, [&combine](T a, T b) { return detail::convert<T>(combine(a, b)); });
}

/// tl.cumsum(x, axis=AXIS, reverse=REVERSE): the running sums along AXIS (negative counts from the
/// end), from the last element backwards when REVERSE. bool and integers narrower than 32 bits sum
/// in 32 bits of their signedness (int32 for bool), bfloat16 in float; fp16 rounds after every
/// addition.
template <int AXIS = 0, bool REVERSE = false, class T, int... D>
auto cumsum(const tile<T, D...> &x) {
  static_assert(detail::isAxis<AXIS, sizeof...(D)>, "tl: scan axis out of range");
  using R = detail::CumsumOut<T>;
  return detail::scanAxis<R, AXIS, REVERSE>(x, [](R a, R b) { return detail::addElem(a, b); });
}
/// tl.cumprod(x, axis=AXIS, reverse=REVERSE): the running products along AXIS, as cumsum (integers
/// keep their type and wrap; bfloat16 multiplies in float).
template <int AXIS = 0, bool REVERSE = false, class T, int... D>
auto cumprod(const tile<T, D...> &x) {
  static_assert(detail::isAxis<AXIS, sizeof...(D)>, "tl: scan axis out of range");
  static_assert(!std::is_same_v<T, bool>, "tl: cumprod of bool; cast to an integer type first");
  using R = detail::ScanIn<T>;
  return detail::scanAxis<R, AXIS, REVERSE>(x, [](R a, R b) { return detail::mulElem(a, b); });
}

// ================================================================================================
// Compiler hints
// ================================================================================================

/// Promises every element of x is a multiple of n (n a constant); returns x unchanged.
template <class X> X multiple_of(const X &x, int /*n*/) { return x; }
/// Promises runs of n consecutive elements of x are contiguous (n a constant); returns x.
template <class X> X max_contiguous(const X &x, int /*n*/) { return x; }

} // namespace tl

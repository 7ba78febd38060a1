#pragma once
/// \file The Tile IR: immutable expression and statement trees (Halide's model, sized down).
///
/// A kernel is a statement tree over scalar and tile values. Expressions are side-effect free and
/// immutable; passes rebuild what they change (IRMutator). Variables are the one mutable part: a
/// `VarNode` is shared by its declaration and all its uses, and layout assignment sets the layout of
/// its type in place. Every node carries the source location it came from; synthesized nodes take
/// the location of the node they replace.
///
/// Semantics of each node are given at its struct. Tile ops follow Triton's semantics
/// (docs/language.md); elementwise ops require operands of identical shape (the translator makes
/// broadcasts explicit with ExpandDims/Broadcast/Splat) and, after layout assignment, identical
/// layouts.

#include "ir/Type.h"

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilec::ir {

/// A position in a kernel source file. `file` indexes Module::files; 0-based index, 1-based line/col.
struct SourceLoc {
  int file = -1;
  int line = 0;
  int col = 0;
  /// On the first statement of an inlined function: its entry in Kernel::inlinedCalls (passes
  /// that rebuild a statement keep its location, and so the mark). -1: none.
  int inlined = -1;
  bool valid() const { return file >= 0 && line > 0; }
};

enum class ExprKind : uint8_t {
#define TILEC_EXPR(N) N,
#include "ir/Nodes.def"
};
enum class StmtKind : uint8_t {
#define TILEC_STMT(N) N,
#include "ir/Nodes.def"
};
const char *name(ExprKind k);
const char *name(StmtKind k);

enum class UnaryOp : uint8_t { Neg, Not, BitNot };
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, Mod,      // Div/Mod on integers truncate toward zero (C semantics)
  And, Or, Xor, Shl, Shr,       // bitwise (Shr is arithmetic on signed types)
  LAnd, LOr,                    // logical, on bool operands, no short circuit on tiles
  Lt, Le, Gt, Ge, Eq, Ne,       // result element type Bool
  Min, Max                      // minimum / maximum (floats: fmin/fmax semantics, NaN loses)
};
enum class MathOp : uint8_t {
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Sigmoid,
  Tanh,
  Erf,
  Abs,
  Floor,
  Ceil, // unary
  Fma,  // a * b + c, one rounding
  Cdiv, // (a + b - 1) / b, ints
  // unary, floating point (the C library's float functions)
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Expm1,
  Log1p,
  Log10,
  Cbrt,
  Erfc,
  Lgamma,
  Rint,
  Round,
  Trunc,
  // binary, floating point
  Pow,
  Atan2,
  Hypot,
  Copysign,
  Fmod,
  Remainder,
  DivRn,
  DivRz,
  Fdiv,   // a / b rounded to nearest, toward zero, and the fast approximate one
  SqrtRn, // unary: sqrt rounded to nearest
  Popc,
  Clz,    // unary, integers: set bits, leading zeros
  Umulhi, // binary, integers: the high half of the unsigned product
  // Triton's random numbers (tilec/detail/philox.hpp); their result types are not their operands':
  Philox, // (seed u64, offset u32 or u64, lane u32 constant 0-3): output `lane` of Philox 4x32-10
          // of the counter (offset's low half, high half, 0, 0), u32
  UniformFromBits, // (bits u32): Triton's uint32_to_uniform_float, f32 in [0, 1)
  NormalFromBits,  // (bits1 u32, bits2 u32, which u32 constant 0/1): Box-Muller's cos or sin, f32
  InlineAsm // tl::inline_asm_elementwise: Kernel::asms[Math::asmFn] of any number of operands
};
/// Combine: the user's combine function (tl::reduce, tl::associative_scan), the node's
/// Kernel::combines[combineFn].
enum class ReduceOp : uint8_t { Sum, Max, Min, ArgMax, ArgMin, Combine };
enum class ScanOp : uint8_t { Sum, Prod, Max, Min, Combine };
/// How a Reshape takes its operands' elements (Reshape's comment).
enum class ReshapeKind : uint8_t { Reshape, Cat, Interleave, Even, Odd };
/// What a Scan computes: the whole scan (before lower-reductions), or one of the two parts it is
/// lowered to (Scan's comment).
enum class ScanPart : uint8_t { Whole, InWarp, Carry };
/// A store's read-modify-write (tl::atomic_*; None: a plain store), its memory ordering and scope
/// (Triton's `sem` and `scope`).
enum class AtomicOp : uint8_t { None, Add, Max, Min, And, Or, Xor, Xchg, Cas };
enum class MemSem : uint8_t { Relaxed, Acquire, Release, AcqRel };
enum class MemScope : uint8_t { Cta, Gpu, Sys };
/// A load's or store's cache hints (Triton's `cache_modifier`, `eviction_policy` and `volatile`):
/// PTX's cache operators (.ca .cg .cv for loads; .wb .cg .cs .wt for stores), its L1/L2 eviction
/// priorities, and ld.volatile. They change no result.
enum class CacheModifier : uint8_t { None, Ca, Cg, Cv, Wb, Cs, Wt };
enum class EvictionPolicy : uint8_t { Normal, EvictFirst, EvictLast };
struct MemHints {
  CacheModifier cache = CacheModifier::None;
  EvictionPolicy evict = EvictionPolicy::Normal;
  bool isVolatile = false;
  bool any() const {
    return cache != CacheModifier::None || evict != EvictionPolicy::Normal || isVolatile;
  }
  bool operator==(const MemHints &) const = default;
};
/// What a Cast does (tl::cast's options): converts the value (floats round to nearest even),
/// converts it rounding a narrower float toward zero (Triton's `fp_downcast_rounding="rtz"`), or
/// keeps the bits (`bitcast=True`; a type of the same width that is not the same kind: float <->
/// int, fp16 <-> bf16; the translator writes a bitcast between integers as a conversion, which
/// keeps the bits).
enum class CastMode : uint8_t { Convert, ConvertTowardZero, Bitcast };
/// How a dot of fp32 tiles multiplies (tl::ieee, tl::tf32, tl::tf32x3; docs/language.md).
enum class DotPrecision : uint8_t { Ieee, Tf32, Tf32x3 };
enum class HintKind : uint8_t { MultipleOf, MaxContiguous };
enum class VarKind : uint8_t { Param, Local, LoopIndex };

const char *name(UnaryOp o);
const char *name(BinaryOp o);
const char *name(MathOp o);
const char *name(ReduceOp o);
const char *name(ScanOp o);
const char *name(ReshapeKind k);
/// The number of elements a Reshape of kind `k` gives from operands of `n` elements each.
int64_t reshapedCount(ReshapeKind k, int64_t n);
/// A Reshape of kind `k` takes two operands (Cat, Interleave) rather than one.
bool reshapeTakesTwo(ReshapeKind k);
/// The stem of the names of variables that hold a reduction's or a scan's result: `sum`, `argmax`,
/// `reduce` (a combine function's); `cumsum`, `cumprod`, `scan`.
std::string resultStem(ReduceOp o);
std::string resultStem(ScanOp o);
const char *name(AtomicOp o); // add, max, ..., cas ("" for None)
const char *name(MemSem s);   // relaxed, acquire, release, acq_rel
const char *name(MemScope s); // cta, gpu, sys
const char *name(CacheModifier c);  // ca, cg, ... ("" for None)
const char *name(EvictionPolicy e); // evict_normal, evict_first, evict_last
const char *name(CastMode m);       // convert, rtz, bitcast
const char *name(DotPrecision p);
const char *name(HintKind k);
bool isComparison(BinaryOp o);
int arity(MathOp o);
/// The element type of a Math op's result: its first operand's, but for the random-number ops.
ScalarType resultElem(MathOp o, ScalarType firstOperand);

/// A named storage location: kernel parameter, local variable or loop index. Identity is the object;
/// `name` is the user's identifier (a hint: the emitter makes names unique).
struct VarNode {
  std::string name;
  Type type;
  VarKind kind = VarKind::Local;
  SourceLoc loc;
  int id = 0; ///< unique within a kernel, in creation order (stable, for printing)
};
using Var = std::shared_ptr<VarNode>;

// ---- expressions ---------------------------------------------------------------------------------
struct ExprNode {
  const ExprKind kind;
  Type type;
  SourceLoc loc;
  explicit ExprNode(ExprKind k) : kind(k) {}
  virtual ~ExprNode() = default;
};
using Expr = std::shared_ptr<const ExprNode>;

template <class T> const T *as(const Expr &e) {
  return e && e->kind == T::Kind ? static_cast<const T *>(e.get()) : nullptr;
}

#define TILEC_EXPR_NODE(N)                                                                         \
  static constexpr ExprKind Kind = ExprKind::N;                                                    \
  N() : ExprNode(ExprKind::N) {}

/// Integer or bool constant; `type` is a scalar integer or Bool type. `symbol` names the
/// meta-parameter (template parameter) the value came from, if any, so the output can say `BLOCK`
/// rather than `1024`; folding a constant drops it.
struct IntImm : ExprNode {
  TILEC_EXPR_NODE(IntImm)
  int64_t value = 0;
  std::string symbol;
  static Expr make(ScalarType t, int64_t v, SourceLoc loc = {});
  static Expr makeSymbol(ScalarType t, int64_t v, std::string symbol, SourceLoc loc = {});
};
/// Floating constant; `type` is a scalar float type. The value is exact in `type`.
struct FloatImm : ExprNode {
  TILEC_EXPR_NODE(FloatImm)
  double value = 0;
  std::string symbol; ///< the floating-point meta-parameter it is the value of (`EPS`), if any
  static Expr make(ScalarType t, double v, SourceLoc loc = {});
  static Expr makeSymbol(ScalarType t, double v, std::string symbol, SourceLoc loc = {});
};
struct VarRef : ExprNode {
  TILEC_EXPR_NODE(VarRef)
  Var var;
  static Expr make(Var v, SourceLoc loc = {}); // type = v->type
};
/// Neg: arithmetic negation; Not: logical not of Bool; BitNot: bitwise complement of integers.
struct Unary : ExprNode {
  TILEC_EXPR_NODE(Unary)
  UnaryOp op{};
  Expr a;
  static Expr make(UnaryOp op, Expr a, SourceLoc loc = {});
};
/// Elementwise binary op. Operands have identical element type and shape (the translator inserts
/// casts for promotion and broadcasts), except pointer + integer offset (Add/Sub), whose result is
/// the pointer type, and shifts. Comparisons give Bool.
struct Binary : ExprNode {
  TILEC_EXPR_NODE(Binary)
  BinaryOp op{};
  Expr a, b;
  static Expr make(BinaryOp op, Expr a, Expr b, SourceLoc loc = {});
};
/// Elementwise math function; float operands (f32, or f16/bf16 computed in f32 and rounded) except
/// Abs (any numeric) and Cdiv (integers).
struct Math : ExprNode {
  TILEC_EXPR_NODE(Math)
  MathOp op{};
  std::vector<Expr> args;
  /// InlineAsm: the Kernel::asms entry, and whether it has effects besides its value (Triton's
  /// is_pure = False: no two such calls are the same expression).
  int asmFn = -1;
  bool asmEffects = false;
  static Expr make(MathOp op, std::vector<Expr> args, SourceLoc loc = {});
  /// An InlineAsm of operands of one shape; its result element type `result`.
  static Expr makeAsm(int fn, bool effects, ScalarType result, std::vector<Expr> args,
                      SourceLoc loc = {});
};
/// where(cond, a, b): cond is Bool, a and b have the result type.
struct Select : ExprNode {
  TILEC_EXPR_NODE(Select)
  Expr cond, a, b;
  static Expr make(Expr cond, Expr a, Expr b, SourceLoc loc = {});
};
/// Convert each element to `type.elem` (floats round to nearest even; float->int truncates toward
/// zero; ->Bool is `!= 0`), or with `mode` round a float toward zero or reinterpret its bits
/// (CastMode). Only a Convert is a value conversion that the analyses may look through.
struct Cast : ExprNode {
  TILEC_EXPR_NODE(Cast)
  Expr a;
  CastMode mode = CastMode::Convert;
  static Expr make(ScalarType to, Expr a, SourceLoc loc = {}, CastMode mode = CastMode::Convert);
};
/// program_id(axis) (count=false) or num_programs(axis) (count=true); scalar i32.
struct ProgramId : ExprNode {
  TILEC_EXPR_NODE(ProgramId)
  int axis = 0;
  bool count = false;
  static Expr make(int axis, bool count, SourceLoc loc = {});
};
/// arange(start, end): 1-D i32 tile [end-start] with element k = start + k.
struct Arange : ExprNode {
  TILEC_EXPR_NODE(Arange)
  int64_t start = 0, end = 0;
  static Expr make(int64_t start, int64_t end, SourceLoc loc = {});
};
/// Every element equal to the scalar `a`; `type.shape` is the tile shape.
struct Splat : ExprNode {
  TILEC_EXPR_NODE(Splat)
  Expr a;
  static Expr make(Expr a, std::vector<int64_t> shape, SourceLoc loc = {});
};
/// Insert a dimension of size 1 before position `axis` (0 <= axis <= rank).
struct ExpandDims : ExprNode {
  TILEC_EXPR_NODE(ExpandDims)
  Expr a;
  int axis = 0;
  static Expr make(Expr a, int axis, SourceLoc loc = {});
};
/// Stretch the size-1 dimensions of `a` to `type.shape` (same rank).
struct Broadcast : ExprNode {
  TILEC_EXPR_NODE(Broadcast)
  Expr a;
  static Expr make(Expr a, std::vector<int64_t> shape, SourceLoc loc = {});
};
/// A tile with its dims permuted (tl::permute; tl::trans for rank 2): dim e of the result is `a`'s
/// dim perm[e], so for rank 2 (perm [1, 0], the transpose) element [i][j] is `a`'s [j][i]. A view:
/// after layout assignment `a` is in Layout::permuted(result's layout, inversePermutation(perm)),
/// so every thread holds the same values in both and nothing moves.
struct Trans : ExprNode {
  TILEC_EXPR_NODE(Trans)
  Expr a;
  std::vector<int> perm; ///< a permutation of 0 .. rank - 1 other than the identity
  /// The transpose of a rank-2 tile.
  static Expr make(Expr a, SourceLoc loc = {});
  /// The tile with its dims in the order `perm`.
  static Expr permute(Expr a, std::vector<int> perm, SourceLoc loc = {});
  /// The index into `a` of the result's element at `idx` (a vector of any element type).
  template <class V> V operandIndex(const V &idx) const {
    V in = idx;
    for (size_t e = 0; e < perm.size(); ++e)
      in[perm[e]] = idx[e];
    return in;
  }
};
/// Load through a pointer (scalar or tile). Masked-off elements (mask false) do not touch memory and
/// yield `other` (zero when absent). `mask` is Bool of the pointer's shape; `other` has the result
/// type. `vec` (set by coalescing) is how many contiguous elements one access moves; `aligned`
/// says the address of each vector is proven aligned to its size.
struct Load : ExprNode {
  TILEC_EXPR_NODE(Load)
  Expr ptr, mask, other;
  int vec = 1;
  bool aligned = false;
  bool maskAtLast = false; ///< each vector's mask is all true exactly when its last element is
  bool maskAllOrNone = false; ///< each vector's mask bits are all equal
  MemHints hints;
  static Expr make(Expr ptr, Expr mask, Expr other, SourceLoc loc = {}, MemHints hints = {});
};
/// Reduce `a` along `axis`; the result has that dimension removed (a scalar for 1-D input). Sum of
/// Bool/I8 accumulates in I32; ArgMax/ArgMin give I32 indices (smallest index among equal values;
/// a NaN beats every number for both, so they return the first NaN's index).
struct Reduce : ExprNode {
  TILEC_EXPR_NODE(Reduce)
  ReduceOp op{};
  int axis = 0;
  int combineFn = -1; ///< op Combine: its Kernel::combines entry
  Expr a;
  static Expr make(ReduceOp op, int axis, Expr a, SourceLoc loc = {}, int combineFn = -1);
};
/// The inclusive scan of `a` along `axis` (tl::cumsum, tl::cumprod): element i of the result
/// combines elements 0 .. i of `a` along that axis (i .. n-1 when `reverse`), earlier elements on
/// the left of each combination; same type as `a` (the translator widens narrow integers first).
/// lower-reductions splits it into two parts, each the whole init/value of a Decl/Assign:
///  - InWarp: each element combined with the elements before it along `axis` (after it when
///    `reverse`) that the threads of its own warp hold in the same repetition of the layout; when
///    one warp holds the axis's distinct elements, across the repetitions too: the whole scan.
///  - Carry: `a`, an InWarp result, combined with the totals that a shared_write_scan_totals
///    stored in `buffer` for the warps and repetitions before its own (after it when `reverse`).
struct Scan : ExprNode {
  TILEC_EXPR_NODE(Scan)
  ScanOp op{};
  int axis = 0;
  bool reverse = false;
  ScanPart part = ScanPart::Whole;
  int buffer = -1;    ///< Carry: the totals' buffer
  int combineFn = -1; ///< op Combine: its Kernel::combines entry
  Expr a;
  static Expr make(ScanOp op, int axis, bool reverse, Expr a, SourceLoc loc = {},
                   int combineFn = -1);
  /// The same scan's part `part` on `a` (with the totals in `buffer` for Carry).
  static Expr makePart(const Scan &whole, ScanPart part, Expr a, int buffer = -1);
};
/// tl::histogram: tile<numBins x i32> whose element b counts the elements of the 1-D integer tile
/// `a` equal to b (where `mask`, when set, is true); values outside [0, numBins) count nowhere.
/// lower-layout-conversions counts into a shared buffer (SharedWrite's count form).
struct Histogram : ExprNode {
  TILEC_EXPR_NODE(Histogram)
  Expr a, mask; ///< mask may be null
  int64_t numBins = 0;
  static Expr make(Expr a, Expr mask, int64_t numBins, SourceLoc loc = {});
};
/// tl::gather along `axis`: element p of the result (the shape of `index`) is `src`'s element at
/// p with its coordinate along `axis` replaced by index[p] modulo the size of `src` along `axis`
/// (a power of two; Triton leaves an index out of range undefined). `index` is an integer tile of
/// `src`'s rank whose other dims are `src`'s; the result has `src`'s element type and `index`'s
/// layout. lower-layout-conversions stages `src` in shared memory (SharedRead's gather form).
struct Gather : ExprNode {
  TILEC_EXPR_NODE(Gather)
  Expr src, index;
  int axis = 0;
  static Expr make(Expr src, Expr index, int axis, SourceLoc loc = {});
};
/// `a`'s rows (its last dim, a power of two) sorted: ascending, or descending when `descending`,
/// in the order docs/language.md "Sorting" states (integers by value; floats, including the 16- and
/// 8-bit ones, by IEEE 754 totalOrder of their bits, so -0 before +0 and NaNs at the ends by sign).
/// The result keeps the first `type`'s last dim of each sorted row: all of it (tl::sort), or k
/// (tl::topk, descending). lower-layout-conversions sorts a staging of `a` in shared memory
/// (SharedWrite's sort form) and reads the rows' first elements back.
struct Sort : ExprNode {
  TILEC_EXPR_NODE(Sort)
  bool descending = false;
  Expr a;
  static Expr make(Expr a, bool descending, int64_t keep, SourceLoc loc = {});
};
/// The elements of `a` (and of `b`, of a's type) in row-major order, rearranged into `type`'s
/// shape: element l (row-major) of the result is
///  - Reshape (tl::reshape, tl::ravel): element l of `a` (the same number of elements);
///  - Cat (tl::cat): element l of `a`, then of `b` (2n elements);
///  - Interleave (tl::interleave, and tl::join into [n, 2]): element l / 2 of `a` where l is even,
///    of `b` where it is odd (2n elements);
///  - Even, Odd (tl::split's two results): element 2l (2l + 1) of `a` (n / 2 elements).
/// lower-layout-conversions stages the operands in shared memory in their own layouts and reads
/// the result back in its layout (SharedRead's reshape form).
struct Reshape : ExprNode {
  TILEC_EXPR_NODE(Reshape)
  ReshapeKind how = ReshapeKind::Reshape;
  Expr a, b; ///< b: Cat and Interleave only
  static Expr make(ReshapeKind how, Expr a, Expr b, std::vector<int64_t> shape, SourceLoc loc = {});
};
/// The matrix product of `a` [M, K] and `b` [K, N], plus `acc` [M, N] when set (tl::dot): operands
/// both f16, both bf16, both f32 or both i8; the result (`type`) is f32 (i32 for i8; f16 allowed
/// for f16 operands), in the order and precision docs/language.md "Matrix products" states.
struct Dot : ExprNode {
  TILEC_EXPR_NODE(Dot)
  Expr a, b, acc; ///< acc may be null
  DotPrecision precision = DotPrecision::Ieee;
  static Expr make(Expr a, Expr b, Expr acc, ScalarType result, DotPrecision precision,
                   SourceLoc loc = {});
};
/// Returns `a` unchanged; tells axis analysis that along each dim the values are multiples of
/// `values[d]` (MultipleOf) or come in runs of `values[d]` contiguous values (MaxContiguous).
struct Hint : ExprNode {
  TILEC_EXPR_NODE(Hint)
  HintKind hint{};
  Expr a;
  std::vector<int64_t> values; // one per dim (one for scalars)
  static Expr make(HintKind k, Expr a, std::vector<int64_t> values, SourceLoc loc = {});
};
/// The same tile in the layout of `type.layout`.
struct ConvertLayout : ExprNode {
  TILEC_EXPR_NODE(ConvertLayout)
  Expr a;
  static Expr make(Expr a, LayoutRef to, SourceLoc loc = {});
};
/// Lowered reduction, step 1: each thread combines the elements it owns along `axis`. The result has
/// the reduced shape in the slice layout (a scalar for 1-D input) and is the thread's partial; for
/// ArgMax/ArgMin it is an argPair type.
struct ThreadReduce : ExprNode {
  TILEC_EXPR_NODE(ThreadReduce)
  ReduceOp op{};
  int axis = 0;
  int combineFn = -1; ///< as Reduce's
  Expr a; // the tile being reduced (its layout gives the per-thread elements)
  static Expr make(ReduceOp op, int axis, Expr a, Type resultType, SourceLoc loc = {},
                   int combineFn = -1);
};
/// Lowered reduction, step 2: combine partials across the lanes of a warp with xor shuffles, one
/// per entry of `laneMasks` (e.g. 16 8 4 2 1). Afterwards every participating lane holds the
/// combination over the lanes that differ only in those bits. `warpSize` is the target's (32/64).
struct WarpReduce : ExprNode {
  TILEC_EXPR_NODE(WarpReduce)
  ReduceOp op{};
  int combineFn = -1; ///< as Reduce's
  Expr a;
  std::vector<int> laneMasks;
  int warpSize = 32;
  static Expr make(ReduceOp op, Expr a, std::vector<int> laneMasks, int warpSize,
                   SourceLoc loc = {}, int combineFn = -1);
};
/// Read from shared buffer `buffer` (index into Kernel::buffers).
/// Tile mode (op unset): the tile of `type` (its layout) that a SharedWrite stored; with `index`
/// set (a lowered Gather), the element at each position's coordinates but along `gatherAxis` at
/// `index`'s element there (modulo the buffer's size along it; `index` in `type`'s layout).
/// With `reshape` set (a lowered Reshape), the element that Reshape's rule (`reshape`) takes for
/// each position: `buffer` holds its `a`, `bufferB` its `b` (Cat, Interleave), each row-major.
/// Combine mode (op set): combine the `numParts` per-warp partials stored by a SharedWrite in
/// Partials mode, giving the reduced value in `type`'s (slice) layout.
struct SharedRead : ExprNode {
  TILEC_EXPR_NODE(SharedRead)
  int buffer = -1;
  bool combine = false;
  ReduceOp op{};
  int numParts = 1;
  int combineFn = -1; ///< as Reduce's
  Expr index;         ///< a gather's indices (tile mode), or null
  int gatherAxis = -1;
  std::optional<ReshapeKind> reshape; ///< a lowered Reshape's rule, or none
  int bufferB = -1;                   ///< reshape: the buffer of its `b`, or -1
  /// Tile mode: the first `type`'s last dim of each of the buffer's rows (a lowered tl::topk),
  /// where otherwise `type` has the buffer's shape.
  bool prefix = false;
  static Expr makeTile(int buffer, Type type, SourceLoc loc = {});
  static Expr makeGather(int buffer, Type type, Expr index, int axis, SourceLoc loc = {});
  static Expr makeReshape(ReshapeKind how, int buffer, int bufferB, Type type, SourceLoc loc = {});
  static Expr makePrefix(int buffer, Type type, SourceLoc loc = {});
  static Expr makeCombine(int buffer, ReduceOp op, int numParts, Type type, SourceLoc loc = {},
                          int combineFn = -1);
};
/// The value (index=false) or index (index=true) half of an argPair value.
struct PairValue : ExprNode {
  TILEC_EXPR_NODE(PairValue)
  Expr a;
  bool index = false;
  static Expr make(Expr a, bool index, SourceLoc loc = {});
};
/// Lowered dot (lower-dots): `acc + A x B` for the [M, K] tile in shared buffer `bufferA` and the
/// [K, N] tile in `bufferB` (both row-major at their rowStride, in the operand element type), in
/// `type`'s layout: each thread computes the elements it owns, starting from `acc` (in `type`'s
/// layout; zero when null) and adding the products in increasing k, as Dot's order states.
/// `transA` / `transB` (mma layouts only): the buffer holds the operand transposed — A as its
/// [K, M] transpose, B as [N, K] — as `tl::dot(tl::trans(x), ...)` loaded it.
struct SharedDot : ExprNode {
  TILEC_EXPR_NODE(SharedDot)
  int bufferA = -1, bufferB = -1;
  bool transA = false, transB = false;
  Expr acc; ///< may be null
  DotPrecision precision = DotPrecision::Ieee;
  Expr stage; ///< scalar int: the stage of both buffers it reads (pipeline-dots); null: one stage
  /// Left in flight (pipeline-dots, wgmma only): the product is the value of an `acc = ...` that
  /// is its loop's only access to `acc`; it runs on while the next iteration starts, on an
  /// accumulator kept in the tensor cores' registers across the loop and handed back to `acc`
  /// after it (the emitter: wgmma_wait<1> in the loop, wgmma_wait<0> after it). Its loop issues
  /// the next copies after it and a barrier, so that no copy overwrites the stage it still reads.
  bool inFlight = false;
  static Expr make(int bufferA, int bufferB, Expr acc, DotPrecision precision, Type type,
                   SourceLoc loc = {}, Expr stage = nullptr, bool transA = false,
                   bool transB = false, bool inFlight = false);
};
#undef TILEC_EXPR_NODE

/// The shared buffers expression node `n` itself reads (not its operands): a SharedRead's buffer,
/// a SharedDot's two, a scan's Carry part's totals; empty for every other node.
std::vector<int> sharedBuffersRead(const ExprNode &n);

/// A stage of a two-stage buffer named relative to a variable (pipeline-dots' double buffering):
/// `v` (`other` false) or `1 - v` (`other` true); `var` null when the stage expression is neither.
/// While `v` keeps its value, an access naming (v, false) and one naming (v, true) touch different
/// stages: the barrier pass and the verifier need no barrier between them.
struct StageRef {
  const VarNode *var = nullptr;
  bool other = false;
};
StageRef stageRef(const Expr &stage);
/// The stage a shared read names (a SharedDot's), as stageRef.
StageRef stageRead(const ExprNode &n);

// ---- statements ----------------------------------------------------------------------------------
/// A call of the user's own function that tilec inlined (translator/LoweringCalls.cpp): the
/// function's qualified name and where it was called.
struct InlinedCall {
  std::string function;
  SourceLoc at;
};

struct StmtNode {
  const StmtKind kind;
  SourceLoc loc;
  explicit StmtNode(StmtKind k) : kind(k) {}
  virtual ~StmtNode() = default;
};
using Stmt = std::shared_ptr<const StmtNode>;

template <class T> const T *as(const Stmt &s) {
  return s && s->kind == T::Kind ? static_cast<const T *>(s.get()) : nullptr;
}

#define TILEC_STMT_NODE(N)                                                                         \
  static constexpr StmtKind Kind = StmtKind::N;                                                    \
  N() : StmtNode(StmtKind::N) {}

struct Block : StmtNode {
  TILEC_STMT_NODE(Block)
  std::vector<Stmt> stmts;
  static Stmt make(std::vector<Stmt> stmts, SourceLoc loc = {});
};
/// Declares `var` (a Local) in the enclosing block; `init` may be null (tiles then start as zeros
/// only if the user wrote so; uninitialised scalars are rejected by the translator).
struct Decl : StmtNode {
  TILEC_STMT_NODE(Decl)
  Var var;
  Expr init;
  static Stmt make(Var var, Expr init, SourceLoc loc = {});
};
struct Assign : StmtNode {
  TILEC_STMT_NODE(Assign)
  Var var;
  Expr value;
  static Stmt make(Var var, Expr value, SourceLoc loc = {});
};
/// Store `value` through `ptr` where `mask` (may be null) is true. Shapes of ptr, value and mask
/// match (value and mask broadcast by the translator). `vec`/`aligned` as for Load.
/// An atomic store (`atomic` not None; tl::atomic_add ...) combines `value` with each element
/// in memory as one read-modify-write (Cas: writes `value` where memory equals `cmp`), with the
/// ordering `sem` at `scope`, one element at a time (vec 1), and when `result` is set writes the
/// old values into that variable (0 where masked off). Passes treat it as a store.
struct Store : StmtNode {
  TILEC_STMT_NODE(Store)
  Expr ptr, value, mask;
  int vec = 1;
  bool aligned = false;
  bool maskAtLast = false; ///< each vector's mask is all true exactly when its last element is
  bool maskAllOrNone = false; ///< each vector's mask bits are all equal
  AtomicOp atomic = AtomicOp::None;
  Expr cmp;   ///< Cas: the expected values
  Var result; ///< the old values, or null
  MemSem sem = MemSem::AcqRel;
  MemScope scope = MemScope::Gpu;
  MemHints hints; ///< a plain store's (never volatile)
  static Stmt make(Expr ptr, Expr value, Expr mask, SourceLoc loc = {}, MemHints hints = {});
  static Stmt makeAtomic(AtomicOp op, Expr ptr, Expr value, Expr cmp, Expr mask, Var result,
                         MemSem sem, MemScope scope, SourceLoc loc = {});
};
/// for (var = begin; var < end; var += step) body  — scalar integer bounds, step > 0 unless
/// `unroll` (static_range: constant bounds, fully unrolled in the output), whose constant step may
/// be negative: then the loop counts down, `var > end`.
/// `for (var = begin; var < end; var += step)` (`<=` when `inclusive`; `>` when step is a negative
/// constant); `var` is not assigned in the body.
struct For : StmtNode {
  TILEC_STMT_NODE(For)
  Var var;
  Expr begin, end, step;
  Stmt body;
  bool unroll = false;
  bool inclusive = false;
  /// `tl::range<N>`: this loop's num_stages (prefetch-loads, pipeline-dots); 0: the kernel's.
  int numStages = 0;
  static Stmt make(Var var, Expr begin, Expr end, Expr step, Stmt body, bool unroll,
                   SourceLoc loc = {}, bool inclusive = false, int numStages = 0);
};

/// The products loop `f` leaves in flight (SharedDot::inFlight): the `acc = shared_dot(...)`
/// statements directly in its body whose product is marked so, with that product.
std::vector<std::pair<const Assign *, const SharedDot *>> productsInFlight(const For &f);
struct While : StmtNode {
  TILEC_STMT_NODE(While)
  Expr cond;
  Stmt body;
  static Stmt make(Expr cond, Stmt body, SourceLoc loc = {});
};
/// What an `if` of the software pipelines holds (the printed IR and the emitted comments say it):
/// prefetch-loads' loads of a loop's first iteration, before the loop, or of the next iteration,
/// inside it; pipeline-dots' copies of a dot loop's first iterations (into stages 0 .. S - 2) or of
/// the iteration S - 1 ahead; and pipeline-dots' write of the next iteration's tiles into the
/// stage of a double buffer that iteration reads (StageNext); and the flip of a TMA ring's phase
/// parity as its read or copy position wraps around (PhaseFlip: `if (stage == S - 1) phase = 1 -
/// phase`).
enum class Prefetch : uint8_t {
  None,
  FirstIteration,
  NextIteration,
  PipelineFirst,
  PipelineNext,
  StageNext,
  PhaseFlip
};
struct If : StmtNode {
  TILEC_STMT_NODE(If)
  Expr cond;
  Stmt thenS, elseS; // elseS may be null
  Prefetch prefetch = Prefetch::None;
  /// An early return of the kernel's own block (`if (c) { A; return; } B;`, the translator): the
  /// program ends after thenS, and elseS holds the rest of the kernel. Emitted in that form.
  bool earlyReturn = false;
  static Stmt make(Expr cond, Stmt thenS, Stmt elseS, SourceLoc loc = {});
};
struct Barrier : StmtNode {
  TILEC_STMT_NODE(Barrier)
  /// Set when the barrier orders global memory (program order of the source, docs/language.md
  /// "Program order"): the earlier access it orders before the statement after it, for the
  /// emitted comment. Invalid for barriers that order shared memory only.
  SourceLoc globalEarlier;
  bool globalEarlierWrite = false, globalLaterWrite = false;
  bool globalLaterInLoop = false; ///< the later access is in the loop that follows the barrier
  /// The kernel's own `tl::debug_barrier()`: kept where it is, whatever it orders.
  bool debug = false;
  static Stmt make(SourceLoc loc = {}, bool debug = false);
};
/// tl::device_assert(cond, message): where an element of `cond` (a Bool tile or scalar) is false,
/// the kernel stops with the message, the condition's source text `text` and the location (C's
/// assert: the generated code leaves it out under NDEBUG).
struct Assert : StmtNode {
  TILEC_STMT_NODE(Assert)
  Expr cond;
  std::string message, text;
  static Stmt make(Expr cond, std::string message, std::string text, SourceLoc loc = {});
};
/// One operand of tl::device_print(prefix, operands...): a line per element of `value` (a tile or
/// scalar; null for a print of the prefix alone), "pid (x, y, z) idx (i, j)<prefix><value>", with
/// "(operand N) " before the value when the print has several (`operands`); `hex`: the value's bits
/// in hexadecimal. `prefix` is as Triton shapes it (" name: ").
struct Print : StmtNode {
  TILEC_STMT_NODE(Print)
  Expr value;
  std::string prefix;
  int operand = 0, operands = 0;
  bool hex = false;
  static Stmt make(Expr value, std::string prefix, int operand, int operands, bool hex,
                   SourceLoc loc = {});
};
/// Write to shared buffer `buffer`.
/// Tile mode (partials=false): every element of tile `value` (in its layout) at its row-major place
/// (rows padded to the buffer's rowStride); replicated elements are written by one owner only.
/// Partials mode: `value` is a per-thread partial of a reduction along `axis` of a tile of layout
/// `srcLayout`/`srcShape`; lane 0 (along `axis`) of each warp writes its partial to the slot of its
/// warp index along `axis`.
/// Count mode (count): `value` is a tile of integers (in its own layout); for each of its elements
/// (its owner only; where `mask` is true) that lies in [0, n) for the buffer's n int32 counters,
/// counter `value` is incremented atomically (tl::histogram).
/// Scan totals mode (scanTotals): `value` is the InWarp part of a scan along `axis` (`reverse`) in
/// layout `srcLayout`; the last lane along `axis` of each warp (the first when `reverse`) writes,
/// for each repetition r of the layout along the axis and each element along the other dim, its
/// total to row r * W + w (W the warps holding distinct elements along the axis, w its own) at the
/// column of that element (lower-reductions sizes the buffer: [R * W] or [R * W, other dim]).
struct SharedWrite : StmtNode {
  TILEC_STMT_NODE(SharedWrite)
  int buffer = -1;
  Expr value;
  bool partials = false;
  bool scanTotals = false;
  bool reverse = false; ///< scan totals of a reverse scan
  bool count = false;
  Expr mask; ///< count mode: which elements count (null: all)
  /// Sort mode (a tile write): after the tile is written, the block sorts each row of the buffer
  /// (its last dim) in place, descending when `descending` (Sort's order), with barriers between
  /// its steps; a barrier must still follow before the rows are read.
  bool sort = false;
  bool descending = false;
  int axis = 0;
  LayoutRef srcLayout;
  std::vector<int64_t> srcShape;
  Expr stage; ///< scalar int: the stage of a buffer of several stages written (tiles only)
  static Stmt makeTile(int buffer, Expr value, SourceLoc loc = {}, Expr stage = nullptr);
  static Stmt makePartials(int buffer, Expr partial, int axis, LayoutRef srcLayout,
                           std::vector<int64_t> srcShape, SourceLoc loc = {});
  static Stmt makeScanTotals(int buffer, Expr inWarp, int axis, bool reverse, SourceLoc loc = {});
  static Stmt makeCount(int buffer, Expr values, Expr mask, SourceLoc loc = {});
  static Stmt makeSort(int buffer, Expr value, bool descending, SourceLoc loc = {});
};
/// Starts copying the tile `ptr` points at from global memory into stage `stage` of `buffer`
/// (laid out as a SharedWrite of a tile in ptr's layout would), `vec` elements (4, 8 or 16 bytes)
/// a copy,
/// without passing through registers (`cp.async` on CUDA). A vector whose mask is false is not
/// read and lands as zeros. The bytes land when an AsyncWait completes the group (AsyncCommit) the
/// copy belongs to; other threads see them after that and a barrier (pipeline-dots).
/// The TMA form (`row` and `col` set, `ptr` and `mask` null; the buffer's SharedBuffer::tma set):
/// one thread of the block copies the box of the buffer's shape whose first element is (row, col)
/// of the buffer's tensor (TmaTensor), elements outside the tensor landing as zeros; the bytes
/// land, for every thread, when the stage's AsyncWait (its TMA form) returns.
struct AsyncCopy : StmtNode {
  TILEC_STMT_NODE(AsyncCopy)
  int buffer = -1;
  Expr stage; ///< scalar int
  Expr ptr;   ///< pointer tile with a blocked layout, `vec` consecutive elements a thread
  Expr mask;  ///< may be null; alike over each vector
  int vec = 1;
  Expr row, col; ///< TMA: the box's first element in the tensor (scalar ints)
  bool tma() const { return row != nullptr; }
  static Stmt make(int buffer, Expr stage, Expr ptr, Expr mask, int vec, SourceLoc loc = {});
  static Stmt makeTma(int buffer, Expr stage, Expr row, Expr col, SourceLoc loc = {});
};
/// Closes the group of the AsyncCopies this thread started since its last commit.
struct AsyncCommit : StmtNode {
  TILEC_STMT_NODE(AsyncCommit)
  static Stmt make(SourceLoc loc = {});
};
/// Waits until at most `pending` (a constant scalar int) of this thread's committed groups are in
/// flight: the others' bytes are in shared memory.
/// The TMA form (`stage` and `phase` set, `pending` null): waits until the TMA copies into stage
/// `stage` of the ring whose first buffer is `ring` have landed, the stage's "full" mbarrier
/// completing its phase of parity `phase`; every thread that waits sees their bytes (no barrier
/// needed).
struct AsyncWait : StmtNode {
  TILEC_STMT_NODE(AsyncWait)
  Expr pending;
  int ring = -1;     ///< TMA: the ring's first buffer (SharedBuffer::tma's ring)
  Expr stage, phase; ///< TMA: scalar ints
  bool tma() const { return stage != nullptr; }
  static Stmt make(Expr pending, SourceLoc loc = {});
  static Stmt makeTma(int ring, Expr stage, Expr phase, SourceLoc loc = {});
};
/// The "empty" side of a TMA ring (the ring whose first buffer is `ring`) in a warp-specialized
/// kernel (WarpSpecialize). The release form (`phase` null), in the consumers: this thread is done
/// reading stage `stage` (the wgmma products that read it have retired); when every consumer
/// thread has released it, the stage's "empty" mbarrier completes a phase and the producer may
/// refill it. The wait form (`phase` set), in the producer: waits until the stage's empty
/// mbarrier completes its phase of parity `phase` (a fresh barrier counts as having completed the
/// phase before its first, of parity 1), which orders every consumer's reads of the stage before
/// the copies that follow.
struct StageFree : StmtNode {
  TILEC_STMT_NODE(StageFree)
  int ring = -1;
  Expr stage; ///< scalar int
  Expr phase; ///< scalar int, the wait form only
  bool wait() const { return phase != nullptr; }
  static Stmt make(int ring, Expr stage, SourceLoc loc = {});
  static Stmt makeWait(int ring, Expr stage, Expr phase, SourceLoc loc = {});
};
/// Warp specialization (pipeline-dots, CUDA sm_90): the block has a producer warpgroup of
/// Kernel::producerThreads threads beside the kernel's own NUM_THREADS, the consumers, whose
/// layouts every tile uses. One producer thread runs `producer`: scalar code, TMA copies
/// (AsyncCopy's TMA form) and StageFree waits, nothing else. The consumers run `consumers`; a
/// Barrier in it synchronizes the consumers only (the producer never takes part). Shared memory
/// between the two is ordered by the ring's mbarriers alone: a stage's copies land for the
/// consumers at their AsyncWait (TMA form), and the producer refills a stage only after its
/// StageFree wait. The node is the kernel body's last statement: the producer's threads return
/// after it.
struct WarpSpecialize : StmtNode {
  TILEC_STMT_NODE(WarpSpecialize)
  Stmt producer, consumers;
  static Stmt make(Stmt producer, Stmt consumers, SourceLoc loc = {});
};
#undef TILEC_STMT_NODE

// ---- kernels and modules -------------------------------------------------------------------------
/// An XOR swizzle of a shared buffer's rows (Triton's `#shared{vec, perPhase, maxPhase}`): each row
/// is cut into chunks of `vec` elements (16 bytes), and chunk c of row r is stored at chunk
/// `c ^ (r / perPhase % maxPhase)` of the same row. Rows of one phase share a 128-byte line, and
/// the eight rows an ldmatrix (or a column of 16-byte vectors) names fall in eight different
/// groups of four banks without padding. `vec == 0`: not swizzled.
struct SharedSwizzle {
  int vec = 0;
  int perPhase = 1;
  int maxPhase = 1;
  bool on() const { return vec > 0; }
  bool operator==(const SharedSwizzle &) const = default;
};

/// The 2-D row-major tensor a buffer's TMA copies read (pipeline-dots on sm_90), as the launcher's
/// tensor map describes it: `rows`, `cols` and `rowStride` (elements) are host-side scalar
/// expressions over the kernel's scalar parameters (as KernelSettings::grid's), the tensor starts
/// at pointer parameter `param` (16-byte aligned: an aligned variant's assumption), and each copy
/// moves a box of the buffer's shape (or of one column block of it), laid out with its swizzle.
struct TmaTensor {
  int param = -1; ///< the pointer parameter's id
  Expr rows, cols, rowStride;
  int ring = -1; ///< the first buffer of the ring (its stages share "full" mbarriers)
};

/// A statically sized shared-memory buffer. Allocation sets `offsetBytes` (buffers whose lifetimes do
/// not overlap share bytes).
struct SharedBuffer {
  std::string name;          ///< for the emitted code, e.g. `row_max_smem`
  Type elemType;             ///< scalar element type (argPair allowed)
  std::vector<int64_t> shape; ///< logical shape; Partials mode: [numWarpsAlongAxis, reduced...]
  int64_t rowStride = 0;     ///< elements between rows (>= last dim; padding avoids bank conflicts)
  int64_t sizeBytes = 0;     ///< all stages
  int64_t offsetBytes = -1;  ///< set by shared-memory allocation
  int64_t stages = 1;        ///< copies of the buffer side by side (a ring: pipeline-dots)
  SharedSwizzle swizzle{};   ///< rows' chunks permuted (rank 2; rowStride is then the last dim)
  /// Columns per block, 0: none. A swizzled rank-2 buffer whose rows are wider than a swizzle's
  /// 128-byte row is stored as column blocks ([cols / colBlock][rows][colBlock], each block
  /// swizzled alike), as wgmma's and TMA's shared-memory layouts are.
  int64_t colBlock = 0;
  int64_t alignBytes = 16; ///< the alignment of its start (and of each stage): wgmma's swizzle atom
  std::optional<TmaTensor> tma; ///< its stages are filled by TMA copies (AsyncCopy's TMA form)
};

/// Kernel-level settings from the annotation (`TILEC_KERNEL(num_warps = 4)`).
struct KernelSettings {
  int numWarps = 4;
  /// `num_stages = N`: how many iterations of a loop's loads are in flight at once (Triton's
  /// num_stages). 2 or more turns prefetch-loads on, and pipeline-dots for loops with a dot; 0: not
  /// given (one stage, as 1).
  int numStages = 0;
  /// The meta-parameter `num_stages` names (`num_stages = NUM_STAGES`), if it names one.
  std::string numStagesName;
  /// The launch grid from the annotation (`grid = (cdiv(n, BLOCK))`): up to 3 host-side scalar
  /// expressions over the kernel's scalar parameters (VarRef), integer constants (meta-parameters are
  /// already substituted), Binary Add/Sub/Mul/Div/Mod, Math Cdiv, Unary Neg (`-n`) and Cast to I64
  /// (an int beside an int64_t operand). Empty: the caller gives the grid.
  std::vector<Expr> grid;
  /// `warp_specialize = true|false`: a producer warpgroup issues a dot loop's TMA copies and the
  /// blocks loop over the programs (pipeline-dots); Auto: where tilec expects it to pay.
  enum class WarpSpecialization : uint8_t { Auto, On, Off };
  WarpSpecialization warpSpecialize = WarpSpecialization::Auto;
};

/// A meta-parameter value of the instantiation being compiled (e.g. BLOCK = 1024).
struct MetaParam {
  std::string name;
  int64_t value = 0; ///< the value; an unsigned one past INT64_MAX keeps its bits
  bool isBool = false;
  /// The parameter's C++ type, as the output declares its constant (`int`, `unsigned int`, `long`;
  /// an enumeration's underlying type), and its value spelled for that type (`4294967295U`);
  /// empty: `int` and the plain number.
  std::string type, literal;
  /// Whether the constant's name can stand for the value in int arithmetic of the output: a type
  /// that promotes to int (int, short, char, ...). Others are printed as numbers.
  bool promotesToInt = true;
  /// A float or double meta-parameter (`template <float EPS>`, C++20): its value is `floatValue`
  /// (`value` unused), `type` is `float` or `double` and `literal` spells it exactly.
  bool isFloat = false;
  double floatValue = 0;
  /// An enumeration meta-parameter whose value is one of its enumerators: that enumerator as the
  /// source spells it (`Edge::Clip`); it names the instance and the constant's comment.
  std::string enumerator;
  /// An int meta-parameter (BLOCK = 1024).
  static MetaParam ofInt(std::string name, int64_t value) {
    MetaParam m;
    m.name = std::move(name);
    m.value = value;
    return m;
  }
};

/// A named namespace that encloses a kernel in its source (`namespace a { inline namespace v1 {`).
/// The generated code declares the instantiation's namespace and launchers in the same namespaces,
/// so that host code names them as it names the kernel (`a::launch_k_128`).
struct EnclosingNamespace {
  std::string name;
  bool isInline = false;
};

/// A combine function of the user's (the lambda given to tl::reduce or tl::associative_scan),
/// inlined into one expression: `body` combines the scalars `a` (the earlier value) and `b`, reads
/// nothing else but constants, and has their element type.
struct CombineFunction {
  Var a, b;
  Expr body;
  SourceLoc loc; ///< where the function is written
};

/// The assembly of a tl::inline_asm_elementwise (Triton's, with its operands `$0` (the result),
/// `$1` ...), its constraints ("=r,r,r": the result's, then each operand's), and its reference:
/// `reference` computes the result from the scalars `params` (one a operand) and constants, for
/// the targets that cannot run the assembly (HIP, the CPU emulator) and the CPU reference.
struct AsmFunction {
  std::string text, constraints;
  std::vector<Var> params;
  Expr reference;
  ScalarType result{};
  bool effects = false; ///< Triton's is_pure = False: `asm volatile`
  SourceLoc loc;        ///< the call
};

struct Kernel {
  std::string name;         ///< the function's name, e.g. `add_kernel`
  /// The C++ namespaces around the kernel, outermost first (anonymous ones left out); the
  /// instantiation's namespace and launchers are declared in them.
  std::vector<EnclosingNamespace> scope;
  /// Unique C identifier of this instantiation in its scope, e.g. `add_kernel_1024` (ASCII; the
  /// translator disambiguates overloads and look-alikes, see translator/InstanceNames.h).
  std::string instanceName;
  std::string templateArgs; ///< as the user spells them, e.g. `<1024>` ("" for non-templates)
  std::vector<MetaParam> metaParams;
  std::vector<Var> params;
  KernelSettings settings;
  Stmt body;
  SourceLoc loc;
  std::vector<SharedBuffer> buffers;
  int64_t sharedBytes = 0; ///< total, set by shared-memory allocation
  int warpSize = 32;       ///< of the target (32 CUDA, 64 HIP); set by the driver before passes
  /// The calls of the user's functions that tilec inlined, each as the chain of calls (outermost
  /// first) whose body starts at the statement whose location names it (SourceLoc::inlined).
  std::vector<std::vector<InlinedCall>> inlinedCalls;
  /// The combine functions the kernel's reductions and scans of op Combine name by index.
  std::vector<CombineFunction> combines;
  /// The inline assembly the kernel's InlineAsm nodes name by index.
  std::vector<AsmFunction> asms;
  int nextVarId = 0;
  Var newVar(std::string name, Type type, VarKind kind, SourceLoc loc);
  /// Parameters (by id) this compilation assumes divisible by 16: a pointer's address a multiple of
  /// 16 bytes, an integer's value a multiple of 16 (Triton's divisibility-16 specialization). Set
  /// only on an aligned variant, whose launcher checks them; empty for the general kernel.
  std::set<int> divisibleBy16;
  /// Integer parameters (by id) this compilation assumes equal to 1 (Triton's specialization of
  /// arguments equal to 1: a unit stride makes `offs * stride` contiguous). Set only on an aligned
  /// variant, whose launcher checks them; disjoint from `divisibleBy16`.
  std::set<int> equalToOne;
  /// The same instantiation compiled under `divisibleBy16` / `equalToOne` assumptions, where that
  /// changes the code (wider or unchecked vector accesses); the launcher picks it when its
  /// arguments qualify. Set by the driver after the pipeline (driver/AlignedVariants.h); null when
  /// there is none.
  std::shared_ptr<const Kernel> alignedVariant;
  /// Warp-specialized (WarpSpecialize): the threads of the producer warpgroup beside the kernel's
  /// num_warps; 0 otherwise.
  int producerThreads = 0;
  /// A persistent kernel (pipeline-dots): the number of programs the launch asks for, a scalar
  /// int parameter after the kernel's own (the launcher passes the grid's x); the kernel runs on
  /// fewer blocks (one per SM), each looping over programs. Null otherwise.
  Var programs;
};

/// A source file a kernel came from: its name as given on the command line and its lines (for
/// provenance comments and diagnostics).
struct SourceFile {
  std::string name;
  std::vector<std::string> lines;
  /// Where `#line` directives say lines come from (diagnostics name that place, as Clang's do):
  /// from physical line `from` on, the lines of `file` from `line` on. Empty without directives.
  struct Origin {
    int from = 1;
    std::string file;
    int line = 1;
  };
  std::vector<Origin> origins;
  /// The file name and line that diagnostics give for physical line `line`.
  std::pair<std::string, int> presumed(int line) const;
};

struct Module {
  std::vector<SourceFile> files;
  std::vector<Kernel> kernels;
  /// What the sources declare at global scope (outside system headers) and the macros they
  /// define: host code that compiles a source beside the output sees both, so the output's global
  /// names avoid the first and all its names avoid the second.
  std::set<std::string> globalNames, sourceMacros;
};

} // namespace tilec::ir

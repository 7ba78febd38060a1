// Differential test of the promotion rules: the translator (LoweringTypes.cpp `promoted`, the casts
// `elementwise` and the compound assignments insert) against tl.hpp's CPU semantics
// (detail::ResultElem and friends), which this file includes and asks with decltype.
//
// For every operand form (tile<T> op tile<U>, tile<T> op S, S op tile<T>), every element pair
// (T, U in bool, the signed and unsigned integers of 8 to 64 bits, the fp8 types, half, bfloat16,
// float, double;
// S in bool int8_t int16_t int int64_t uint8_t unsigned uint64_t float double tl::half, each
// scalar once as a kernel variable and once as a literal) and every op in
// { + - * / % < == & << tl::where tl::minimum tl::maximum } that tl.hpp accepts, a kernel line
// `auto rN = EXPR;` is translated and its IR checked:
//   - the element type of rN is the element type of decltype(EXPR) in this file;
//   - the IR node is the op, and after stripping broadcasts each operand has tl.hpp's computation
//     type (the promoted type; the left type for shifts), being either the operand itself or one
//     Cast of it (a folded constant for literals);
// and for the compound forms (`c += x`, -= *= /= %= &=) the assigned value is the Binary in the
// promoted type, converted back to c's element type.
//
// Which combinations tl.hpp rejects is decided by `accepted` below, a copy of the static_assert
// conditions of tl.hpp: the operators have deduced return types and reject with static_assert in
// their bodies, so a requires-expression cannot see the rejection (it would be a hard error). Both
// directions are checked instead: an accepted combination that tl.hpp rejects does not compile here
// (decltype instantiates the body), and every rejected combination is translated and must draw a
// Clang error on its line (RejectedByHeader).
#include "ir/IR.h"
#include "ir/Printer.h"
#include "translator/Translator.h"

#include <tilec/tl.hpp>

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

using namespace tilec;
using ir::ScalarType;

namespace {

constexpr int N = 16;
template <class T> using Tile = tl::tile<T, N>;

// ---- element types and scalars ---------------------------------------------------------------------

template <class T> struct Info;
#define TILEC_INFO(T, SUFFIX, CXX, LITERAL, VALUE, IRT)                                            \
  template <> struct Info<T> {                                                                     \
    static constexpr const char *suffix = SUFFIX;                                                  \
    static constexpr const char *cxx = CXX;                                                        \
    static constexpr const char *literal = LITERAL;                                                \
    static T value() { return VALUE; }                                                             \
    static constexpr ScalarType ir = ScalarType::IRT;                                              \
  };
// The literals' values make the conversions visible: 300 wraps in int8, 4294967297 in int32 and
// int8, 0.1 rounds to float.
TILEC_INFO(bool, "b", "bool", "true", true, Bool)
// 70000 wraps in int16 and uint16, 4294967295u is -1 in int32, 18446744073709551615 -1 in int64.
TILEC_INFO(std::int8_t, "i8", "int8_t", "int8_t(-128)", -128, I8)
TILEC_INFO(std::int16_t, "i16", "int16_t", "int16_t(-30000)", -30000, I16)
TILEC_INFO(std::int32_t, "i32", "int", "300", 300, I32)
TILEC_INFO(std::int64_t, "i64", "int64_t", "int64_t(4294967297)", 4294967297, I64)
TILEC_INFO(std::uint8_t, "u8", "uint8_t", "uint8_t(200)", 200, U8)
TILEC_INFO(std::uint16_t, "u16", "uint16_t", "uint16_t(60000)", 60000, U16)
TILEC_INFO(std::uint32_t, "u32", "unsigned", "4294967295u", 4294967295u, U32)
TILEC_INFO(std::uint64_t, "u64", "uint64_t", "uint64_t(18446744073709551615ull)",
           18446744073709551615ull, U64)
TILEC_INFO(tl::half, "f16", "tl::half", "tl::half(1.5f)", tl::half(1.5f), F16)
TILEC_INFO(tl::bfloat16, "bf16", "tl::bfloat16", "tl::bfloat16(1.5f)", tl::bfloat16(1.5f), BF16)
TILEC_INFO(tl::float8_e4m3, "e4m3", "tl::float8_e4m3", "tl::float8_e4m3(1.5f)",
           tl::float8_e4m3(1.5f), F8E4M3)
TILEC_INFO(tl::float8_e5m2, "e5m2", "tl::float8_e5m2", "tl::float8_e5m2(1.5f)",
           tl::float8_e5m2(1.5f), F8E5M2)
TILEC_INFO(float, "f32", "float", "2.5f", 2.5f, F32)
// fp64 tiles; a double scalar is an fp32 constant (its Elem is float, whose Info applies)
TILEC_INFO(double, "f64", "double", "0.1", 0.1, F64)
#undef TILEC_INFO

using Elems = std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                         std::uint16_t, std::uint32_t, std::uint64_t, tl::float8_e4m3,
                         tl::float8_e5m2, tl::half, tl::bfloat16, float, double>;
using Scalars = std::tuple<bool, std::int8_t, std::int16_t, int, std::int64_t, std::uint8_t,
                           std::uint32_t, std::uint64_t, float, double, tl::half>;

/// An operand of a generated expression: a tile variable, a scalar variable or a scalar literal.
template <class X> struct Operand {
  static std::string tileVar() { return std::string("t_") + Info<X>::suffix; }
  static std::string scalarVar() { return std::string("s_") + Info<X>::suffix; }
};

// ---- ops ---------------------------------------------------------------------------------------------

enum class Rule { Arith, Compare, Bitwise, Shift, Any };

#define TILEC_BINOP(NAME, OP, IROP, RULE, COMPOUND)                                                \
  struct NAME {                                                                                    \
    static constexpr Rule rule = Rule::RULE;                                                       \
    static constexpr const char *compound = COMPOUND;                                              \
    static constexpr bool select = false;                                                          \
    static constexpr ir::BinaryOp irOp = ir::BinaryOp::IROP;                                       \
    static std::string spell(const std::string &a, const std::string &b) {                         \
      return a + " " #OP " " + b;                                                                  \
    }                                                                                              \
    template <class A, class B> static auto apply(const A &a, const B &b) { return a OP b; }      \
  };
TILEC_BINOP(Add, +, Add, Arith, "+=")
TILEC_BINOP(Sub, -, Sub, Arith, "-=")
TILEC_BINOP(Mul, *, Mul, Arith, "*=")
TILEC_BINOP(Div, /, Div, Arith, "/=")
TILEC_BINOP(Mod, %, Mod, Arith, "%=")
TILEC_BINOP(Lt, <, Lt, Compare, nullptr)
TILEC_BINOP(Eq, ==, Eq, Compare, nullptr)
TILEC_BINOP(BitAnd, &, And, Bitwise, "&=")
TILEC_BINOP(Shl, <<, Shl, Shift, nullptr)
#undef TILEC_BINOP

#define TILEC_CALLOP(NAME, FN, IROP)                                                               \
  struct NAME {                                                                                    \
    static constexpr Rule rule = Rule::Any;                                                        \
    static constexpr const char *compound = nullptr;                                               \
    static constexpr bool select = false;                                                          \
    static constexpr ir::BinaryOp irOp = ir::BinaryOp::IROP;                                       \
    static std::string spell(const std::string &a, const std::string &b) {                         \
      return "tl::" #FN "(" + a + ", " + b + ")";                                                  \
    }                                                                                              \
    template <class A, class B> static auto apply(const A &a, const B &b) { return tl::FN(a, b); } \
  };
TILEC_CALLOP(Minimum, minimum, Min)
TILEC_CALLOP(Maximum, maximum, Max)
#undef TILEC_CALLOP

struct Where {
  static constexpr Rule rule = Rule::Any;
  static constexpr const char *compound = nullptr;
  static constexpr bool select = true;
  static constexpr ir::BinaryOp irOp = ir::BinaryOp::Add; // unused
  static std::string spell(const std::string &a, const std::string &b) {
    return "tl::where(m, " + a + ", " + b + ")";
  }
  template <class A, class B> static auto apply(const A &a, const B &b) {
    return tl::where(Tile<bool>{}, a, b);
  }
};

using Ops = std::tuple<Add, Sub, Mul, Div, Mod, Lt, Eq, BitAnd, Shl, Where, Minimum, Maximum>;

/// Whether tl.hpp accepts `Op(A, B)`: the conditions of its static_asserts (see the file comment).
template <class Op, class A, class B> constexpr bool accepted() {
  using R = tl::detail::ResultElem<A, B>;
  if constexpr (Op::rule == Rule::Arith)
    return !std::is_same_v<R, bool>; // detail::requireArith
  else if constexpr (Op::rule == Rule::Bitwise)
    return std::is_integral_v<R>; // detail::bitwise
  else if constexpr (Op::rule == Rule::Shift)
    return tl::detail::isIntElem<tl::detail::Elem<A>> && tl::detail::isIntElem<tl::detail::Elem<B>>;
  else
    return true;
}

/// The element type tl.hpp computes `Op(A, B)` in: both operands are converted to it.
template <class Op, class A, class B> constexpr ScalarType computationType() {
  if constexpr (Op::rule == Rule::Shift)
    return Info<tl::detail::Elem<A>>::ir; // detail::shift: the left operand's type
  else
    return Info<tl::detail::ResultElem<A, B>>::ir; // detail::arith/compare/bitwise/minMax, where
}

template <class X> ScalarType elemOfResult() {
  using E = typename std::remove_cvref_t<X>::value_type;
  return Info<E>::ir;
}

// ---- generated cases -----------------------------------------------------------------------------------

struct Case {
  std::string what;      ///< e.g. "tile<int8> + int (literal)"
  std::string expr;      ///< the C++ expression
  std::string compound;  ///< `OP=` for compound cases (expr is then the right-hand side)
  std::string lhsTile;   ///< compound: the tile variable copied into the assigned variable
  ir::BinaryOp op{};
  bool select = false;
  ScalarType result{};   ///< element type of the result (tl.hpp's decltype)
  ScalarType comp{};     ///< computation type of the operands
  ScalarType srcA{}, srcB{}; ///< the operands' own element types (canonical for scalars)
  bool boolArith = false;    ///< rejected as arithmetic on bool (detail::requireArith<bool>)
  /// A shift by a literal outside [0, width): undefined (docs/language.md), so tilec rejects it
  /// with a located error although tl.hpp computes something (the amount modulo the width).
  bool undefinedShift = false;
  /// For a literal operand: its value converted to `comp` by tl.hpp (detail::convert), which a
  /// folded constant in the IR must equal.
  std::optional<double> constA, constB;
};

template <class R, class S> double convertedLiteral() {
  R r = tl::detail::convert<R>(static_cast<tl::detail::Canon<S>>(Info<S>::value()));
  if constexpr (std::is_integral_v<R>)
    return static_cast<double>(static_cast<std::int64_t>(r));
  else if constexpr (std::is_same_v<R, double>)
    return r;
  else
    return static_cast<double>(static_cast<float>(r));
}

struct Cases {
  std::vector<Case> accepted;
  std::vector<Case> rejected; ///< only the variable spellings
};

template <class X> std::string formName(bool tile) {
  return tile ? std::string("tile<") + Info<X>::cxx + ">" : std::string(Info<X>::cxx);
}

/// A: the C++ operand type as tl.hpp sees it (tile or scalar); aIsTile says which.
template <class Op, class A, class B>
void addCase(Cases &cs, const std::string &sa, const std::string &sb, const std::string &what,
             bool variables) {
  Case c;
  c.what = what + " [" + Op::spell("a", "b") + "]";
  c.expr = Op::spell(sa, sb);
  c.op = Op::irOp;
  c.select = Op::select;
  if constexpr (accepted<Op, A, B>()) {
    using R = decltype(Op::apply(std::declval<const A &>(), std::declval<const B &>()));
    c.result = elemOfResult<R>();
    c.comp = computationType<Op, A, B>();
    c.srcA = Info<tl::detail::Elem<A>>::ir;
    c.srcB = Info<tl::detail::Elem<B>>::ir;
    using Comp = std::conditional_t<Op::rule == Rule::Shift, tl::detail::Elem<A>, tl::detail::ResultElem<A, B>>;
    if constexpr (!tl::detail::isTile<A>)
      if (!variables)
        c.constA = convertedLiteral<Comp, A>();
    if constexpr (!tl::detail::isTile<B>)
      if (!variables) {
        c.constB = convertedLiteral<Comp, B>();
        if constexpr (Op::rule == Rule::Shift) {
          const double amount = static_cast<double>(Info<B>::value());
          c.undefinedShift = amount < 0 || amount >= 8.0 * sizeof(tl::detail::Elem<A>);
        }
      }
    if constexpr (Op::rule == Rule::Compare)
      static_assert(std::is_same_v<typename R::value_type, bool>);
    else if constexpr (Op::rule != Rule::Shift)
      static_assert(std::is_same_v<typename R::value_type, tl::detail::ResultElem<A, B>>);
    cs.accepted.push_back(c);
    // Compound assignment: tile<T> OP= B.
    if constexpr (Op::compound != nullptr && tl::detail::isTile<A>) {
      Case cc = c;
      cc.what = what + " [a " + Op::compound + " b]";
      cc.compound = Op::compound;
      cc.lhsTile = sa;
      cc.expr = sb;
      using T = typename A::value_type;
      cc.result = Info<T>::ir;
      cs.accepted.push_back(cc);
    }
  } else {
    c.boolArith = Op::rule == Rule::Arith;
    if (variables)
      cs.rejected.push_back(c);
  }
}

template <class Op, class T, class U> void addTileTile(Cases &cs) {
  addCase<Op, Tile<T>, Tile<U>>(cs, Operand<T>::tileVar(), Operand<U>::tileVar(),
                                formName<T>(true) + " op " + formName<U>(true), true);
}

/// tile<T> op S and S op tile<T>, S written as a variable and as a literal.
template <class Op, class T, class S> void addTileScalar(Cases &cs) {
  std::string tn = formName<T>(true), sn = formName<S>(false);
  addCase<Op, Tile<T>, S>(cs, Operand<T>::tileVar(), Operand<S>::scalarVar(), tn + " op " + sn + " (variable)", true);
  addCase<Op, Tile<T>, S>(cs, Operand<T>::tileVar(), Info<S>::literal, tn + " op " + sn + " (literal)", false);
  addCase<Op, S, Tile<T>>(cs, Operand<S>::scalarVar(), Operand<T>::tileVar(), sn + " op " + tn + " (variable)", true);
  addCase<Op, S, Tile<T>>(cs, Info<S>::literal, Operand<T>::tileVar(), sn + " op " + tn + " (literal)", false);
}

template <class Op, class T> void addForElem(Cases &cs) {
  std::apply([&](auto... u) { (addTileTile<Op, T, decltype(u)>(cs), ...); }, Elems{});
  std::apply([&](auto... s) { (addTileScalar<Op, T, decltype(s)>(cs), ...); }, Scalars{});
}

template <class Op> void addOp(Cases &cs) {
  std::apply([&](auto... t) { (addForElem<Op, decltype(t)>(cs), ...); }, Elems{});
}

Cases allCases() {
  Cases cs;
  std::apply([&](auto... op) { (addOp<decltype(op)>(cs), ...); }, Ops{});
  return cs;
}

// ---- kernels -------------------------------------------------------------------------------------------

const char *kParams =
    "const bool *p_b, const int8_t *p_i8, const int16_t *p_i16, const int *p_i32, "
    "const int64_t *p_i64, const uint8_t *p_u8, const uint16_t *p_u16, "
    "const unsigned *p_u32, const uint64_t *p_u64, const tl::half *p_f16, "
    "const tl::bfloat16 *p_bf16, const float *p_f32, const double *p_f64, "
    "const tl::float8_e4m3 *p_e4m3, const tl::float8_e5m2 *p_e5m2, "
    "bool s_b, int8_t s_i8, int16_t s_i16, int s_i32, int64_t s_i64, uint8_t s_u8, "
    "unsigned s_u32, uint64_t s_u64, float s_f32, tl::half s_f16";

std::string kernelPrologue(const std::string &name) {
  return "template <int B>\nTILEC_KERNEL(num_warps = 4)\nvoid " + name + "(" + kParams +
         ") {\n"
         "  auto o = tl::arange<0, B>();\n"
         "  auto t_b = tl::load(p_b + o); auto t_i8 = tl::load(p_i8 + o);\n"
         "  auto t_i16 = tl::load(p_i16 + o); auto t_i32 = tl::load(p_i32 + o);\n"
         "  auto t_i64 = tl::load(p_i64 + o); auto t_u8 = tl::load(p_u8 + o);\n"
         "  auto t_u16 = tl::load(p_u16 + o); auto t_u32 = tl::load(p_u32 + o);\n"
         "  auto t_u64 = tl::load(p_u64 + o); auto t_f16 = tl::load(p_f16 + o);\n"
         "  auto t_bf16 = tl::load(p_bf16 + o); auto t_f32 = tl::load(p_f32 + o);\n"
         "  auto t_f64 = tl::load(p_f64 + o); auto t_e4m3 = tl::load(p_e4m3 + o);\n"
         "  auto t_e5m2 = tl::load(p_e5m2 + o);\n"
         "  double s_f64 = s_f32;\n"
         "  auto m = t_i32 < 3;\n";
}
std::string kernelEpilogue(const std::string &name) {
  return "}\ntemplate void " + name + "<" + std::to_string(N) + ">(" + kParams + ");\n";
}

/// The statements of one case, on one line; its result variable is `r<i>`.
std::string caseLine(const Case &c, size_t i) {
  std::string v = "r" + std::to_string(i);
  if (!c.compound.empty())
    return "  auto " + v + " = " + c.lhsTile + "; " + v + " " + c.compound + " " + c.expr + ";\n";
  return "  auto " + v + " = " + c.expr + ";\n";
}

struct Translation {
  bool ok = false;
  ir::Module module;
  std::string err;
};

Translation translate(const std::string &code) {
  Translation t;
  translator::TranslateOptions opts;
  opts.includeDirs.push_back(TILEC_RUNTIME_HEADERS_DIR);
  opts.clangArgs = {"-ferror-limit=0", "-ftemplate-backtrace-limit=0"};
  std::ostringstream err;
  t.ok = translator::translateCode(code, "snippet.cpp", opts, t.module, err);
  t.err = err.str();
  return t;
}

ir::Expr stripShape(ir::Expr e) {
  for (;;) {
    if (auto *s = ir::as<ir::Splat>(e))
      e = s->a;
    else if (auto *b = ir::as<ir::Broadcast>(e))
      e = b->a;
    else if (auto *x = ir::as<ir::ExpandDims>(e))
      e = x->a;
    else
      return e;
  }
}

/// An operand of the computation: in `comp`, and, when its own element type `src` differs, one
/// Cast from `src` (or a folded constant).
std::string checkOperand(const char *which, ir::Expr e, ScalarType comp, ScalarType src,
                         std::optional<double> literal) {
  e = stripShape(e);
  std::string where = std::string(which) + " operand " + ir::toString(e) + ": ";
  if (e->type.pointer || e->type.elem != comp)
    return where + "element type " + ir::name(e->type.elem) + ", tl.hpp computes in " + ir::name(comp);
  std::optional<double> folded;
  if (auto *i = ir::as<ir::IntImm>(e))
    folded = static_cast<double>(i->value);
  if (auto *f = ir::as<ir::FloatImm>(e))
    folded = f->value;
  if (folded && literal && *folded != *literal)
    return where + "the constant is " + std::to_string(*folded) + ", tl.hpp converts the literal to " +
           std::to_string(*literal);
  if (src == comp || ir::as<ir::IntImm>(e) || ir::as<ir::FloatImm>(e))
    return "";
  auto *c = ir::as<ir::Cast>(e);
  if (!c)
    return where + "not converted from " + ir::name(src) + " to " + ir::name(comp);
  if (ir::Expr in = stripShape(c->a); in->type.elem != src)
    return where + "converts from " + ir::name(in->type.elem) + ", the operand is " + ir::name(src);
  return "";
}

/// Checks the IR of case `c` (statement(s) of variable r<i>); "" when it agrees with tl.hpp.
std::string checkCase(const Case &c, const ir::Kernel &k, size_t i) {
  std::string v = "r" + std::to_string(i);
  auto *body = ir::as<ir::Block>(k.body);
  if (!body)
    return "no body";
  ir::Expr value;
  for (auto &s : body->stmts) {
    if (auto *d = ir::as<ir::Decl>(s); d && d->var->name == v && c.compound.empty())
      value = d->init;
    if (auto *a = ir::as<ir::Assign>(s); a && a->var->name == v && !c.compound.empty())
      value = a->value;
  }
  if (!value)
    return "no statement for " + v;
  if (value->type.elem != c.result)
    return std::string("result ") + ir::name(value->type.elem) + ", tl.hpp gives " + ir::name(c.result) +
           " (" + ir::toString(value) + ")";
  if (!c.compound.empty() && c.comp != c.result) {
    auto *cast = ir::as<ir::Cast>(value);
    if (!cast)
      return "compound result not converted back from " + std::string(ir::name(c.comp)) + ": " + ir::toString(value);
    value = cast->a;
  }
  ir::Expr a, b;
  if (c.select) {
    auto *s = ir::as<ir::Select>(value);
    if (!s)
      return "not a select: " + ir::toString(value);
    a = s->a;
    b = s->b;
  } else {
    auto *bin = ir::as<ir::Binary>(value);
    if (!bin || bin->op != c.op)
      return std::string("not a ") + ir::name(c.op) + ": " + ir::toString(value);
    a = bin->a;
    b = bin->b;
  }
  if (!c.compound.empty()) {
    // The left operand is the assigned variable (of the tile's type).
    if (auto r = checkOperand("left", a, c.comp, c.result, std::nullopt); !r.empty())
      return r;
  } else if (auto r = checkOperand("left", a, c.comp, c.srcA, c.constA); !r.empty()) {
    return r;
  }
  return checkOperand("right", b, c.comp, c.srcB, c.constB);
}

} // namespace

TEST(PromotionDiff, TranslatorAgreesWithHeader) {
  Cases cs = allCases();
  // Shifts by a literal out of range: each a located error.
  size_t undefinedShifts = 0;
  for (const Case &c : cs.accepted) {
    if (!c.undefinedShift)
      continue;
    ++undefinedShifts;
    Translation one = translate("#include <tilec/tl.hpp>\n" + kernelPrologue("k") + caseLine(c, 0) +
                                kernelEpilogue("k"));
    EXPECT_FALSE(one.ok) << c.what << ": `" << c.expr << "` was translated";
    EXPECT_NE(one.err.find("error: shift by "), std::string::npos) << c.what << ": `" << c.expr << "`";
  }
  EXPECT_GT(undefinedShifts, 0u);
  std::erase_if(cs.accepted, [](const Case &c) { return c.undefinedShift; });
  // Coverage: 12 ops x (49 tile-tile + 2 x 49 tile-scalar + 2 x 49 scalar-tile) combinations,
  // the scalars written once as variables and once as literals.
  size_t combos = 0, compounds = 0;
  for (auto &c : cs.accepted)
    (c.compound.empty() ? combos : compounds)++;
  std::printf("[promotion] %zu accepted expressions (+%zu compound assignments), %zu rejected by "
              "tl.hpp (variable spellings)\n",
              combos, compounds, cs.rejected.size());

  // A few kernels of up to 600 lines each.
  const size_t perKernel = 600;
  int failures = 0;
  for (size_t first = 0; first < cs.accepted.size(); first += perKernel) {
    size_t last = std::min(cs.accepted.size(), first + perKernel);
    std::string code = "#include <tilec/tl.hpp>\n" + kernelPrologue("k");
    for (size_t i = first; i < last; ++i)
      code += caseLine(cs.accepted[i], i);
    code += kernelEpilogue("k");
    Translation t = translate(code);
    if (!t.ok) {
      // Find the failing cases one by one.
      for (size_t i = first; i < last; ++i) {
        Translation one = translate("#include <tilec/tl.hpp>\n" + kernelPrologue("k") +
                                    caseLine(cs.accepted[i], i) + kernelEpilogue("k"));
        if (!one.ok) {
          ADD_FAILURE() << cs.accepted[i].what << ": `" << cs.accepted[i].expr
                        << "` is accepted by tl.hpp but not translated:\n" << one.err;
          if (++failures > 20)
            return;
        }
      }
      continue;
    }
    ASSERT_EQ(t.module.kernels.size(), 1u);
    for (size_t i = first; i < last; ++i) {
      std::string r = checkCase(cs.accepted[i], t.module.kernels[0], i);
      if (!r.empty()) {
        ADD_FAILURE() << cs.accepted[i].what << ": `" << caseLine(cs.accepted[i], i) << "`: " << r;
        if (++failures > 40)
          return;
      }
    }
  }
}

TEST(PromotionDiff, RejectedByHeader) {
  // Every combination `accepted` calls rejected must draw a Clang error (a static_assert of tl.hpp)
  // on its own line. detail::requireArith<bool> is one template for all arithmetic on bool, so it
  // fires once per translation unit: those cases get a translation each.
  Cases cs = allCases();
  std::vector<const Case *> batch, alone;
  for (auto &c : cs.rejected)
    (c.boolArith ? alone : batch).push_back(&c);
  std::string code = "#include <tilec/tl.hpp>\n" + kernelPrologue("k");
  int line = static_cast<int>(std::count(code.begin(), code.end(), '\n')) + 1;
  std::map<int, const Case *> lines;
  for (size_t i = 0; i < batch.size(); ++i) {
    lines[line++] = batch[i];
    code += caseLine(*batch[i], i);
  }
  code += kernelEpilogue("k");
  Translation t = translate(code);
  EXPECT_FALSE(t.ok);
  std::set<int> errorLines;
  std::regex at("snippet\\.cpp:([0-9]+):");
  for (std::sregex_iterator it(t.err.begin(), t.err.end(), at), end; it != end; ++it)
    errorLines.insert(std::stoi((*it)[1]));
  for (auto &[l, c] : lines)
    EXPECT_TRUE(errorLines.count(l)) << c->what << ": `" << c->expr
                                     << "` is skipped as rejected, but tl.hpp accepts it";
  for (const Case *c : alone) {
    Translation one = translate("#include <tilec/tl.hpp>\n" + kernelPrologue("k") + caseLine(*c, 0) +
                                kernelEpilogue("k"));
    EXPECT_FALSE(one.ok) << c->what << ": `" << c->expr << "` is skipped as rejected, but tl.hpp accepts it";
    EXPECT_NE(one.err.find("arithmetic on bool operands"), std::string::npos) << one.err;
  }
  std::printf("[promotion] %zu rejected combinations checked (%zu alone)\n", cs.rejected.size(),
              alone.size());
}

// KernelEmitter, expressions: the C++ spelling of IR types and the printing of expression trees,
// once per tile element on the device (`elem`) and as plain scalar text for the host's launch grid
// (`hostExpr`). Expressions come back as Code (text + precedence) so that callers add only the
// parentheses the precedence table asks for. 16- and 8-bit floats are computed in float and rounded
// back, as the CPU reference in tilec/tl.hpp does: operands go through asFloat, results roundTo.
#include "emitters/KernelEmitter.h"

#include "ir/Printer.h"

#include <cmath>
#include <cstdio>

namespace tilec::emitters {

using namespace ir;

namespace {

const char *scalarName(ScalarType t, const TargetHooks &hooks) {
  switch (t) {
  case ScalarType::Bool: return "bool";
  case ScalarType::I8: return "int8_t";
  case ScalarType::I16: return "int16_t";
  case ScalarType::I32: return "int";
  case ScalarType::I64: return "int64_t";
  case ScalarType::U8: return "uint8_t";
  case ScalarType::U16: return "uint16_t";
  case ScalarType::U32: return "uint32_t";
  case ScalarType::U64: return "uint64_t";
  case ScalarType::F8E4M3:
    return hooks.f8e4m3Type;
  case ScalarType::F8E5M2:
    return hooks.f8e5m2Type;
  case ScalarType::F16: return "__half";
  case ScalarType::BF16: return hooks.bf16Type;
  case ScalarType::F32: return "float";
  case ScalarType::F64: return "double";
  }
  return "int";
}

bool is16(ScalarType t) { return t == ScalarType::F16 || t == ScalarType::BF16; }

/// The floats narrower than float (fp16, bf16, fp8): computed in float, results rounded back.
bool narrowFloat(ScalarType t) { return is16(t) || isFloat8(t); }

/// Integers that C++ computes in int: their results are narrowed back right away.
bool narrowInt(ScalarType t) { return isInt(t) && byteSize(t) < 4; }

/// The C library's function `base` for the float type t: `expf` for fp32, `exp` for fp64.
std::string libm(const char *base, ScalarType t) {
  return t == ScalarType::F64 ? std::string(base) : std::string(base) + "f";
}

} // namespace

std::string cppType(const Type &t, const TargetHooks &hooks) {
  std::string s = scalarName(t.elem, hooks);
  if (t.argPair)
    return "tilec::rt::ArgPair<" + s + ">";
  return s;
}

std::string paramDecl(const Type &t, const std::string &name, const TargetHooks &hooks,
                      bool unnamed) {
  if (t.isTile())
    internalError("tile-typed kernel parameter '" + name + "'");
  std::string n = unnamed ? "/*" + name + "*/" : name;
  if (t.pointer)
    return (t.constPointee ? "const " : "") + cppType(t, hooks) + (unnamed ? " * " : " *") + n;
  return cppType(t, hooks) + " " + n;
}

// ---- expressions --------------------------------------------------------------------------------

std::string KernelEmitter::asFloat(const Code &c, ScalarType t) {
  return narrowFloat(t) ? "tilec::rt::to_float(" + c.text + ")" : c.text;
}

Code KernelEmitter::roundTo(ScalarType t, const std::string &floatExpr) {
  const char *fn = t == ScalarType::F16      ? "tilec::rt::to_f16("
                   : t == ScalarType::F8E4M3 ? "tilec::rt::to_f8e4m3("
                   : t == ScalarType::F8E5M2 ? "tilec::rt::to_f8e5m2("
                                             : "tilec::rt::to_bf16(";
  return {fn + floatExpr + ")", Prec::Postfix};
}

std::string KernelEmitter::zero(const Type &t) {
  switch (t.elem) {
  case ScalarType::Bool: return "false";
  case ScalarType::F32: return "0.0f";
  case ScalarType::F16: return "tilec::rt::to_f16(0.0f)";
  case ScalarType::BF16: return "tilec::rt::to_bf16(0.0f)";
  case ScalarType::F8E4M3:
    return "tilec::rt::to_f8e4m3(0.0f)";
  case ScalarType::F8E5M2:
    return "tilec::rt::to_f8e5m2(0.0f)";
  case ScalarType::F64: return "0.0";
  case ScalarType::I32: return "0";
  case ScalarType::U32: return "0u";
  default: return std::string(scalarName(t.elem, hooks_)) + "{0}";
  }
}

/// Whether the meta-parameter constant `i` names has `i`'s type in the output's arithmetic: an int
/// constant (or one that promotes to int) for an int, a 64-bit one for an int64_t. An int
/// meta-parameter widened to int64_t prints as its value, so that no product overflows in int.
bool KernelEmitter::symbolStandsFor(const IntImm &i) const {
  for (const MetaParam &p : k_.metaParams)
    if (p.name == i.symbol && p.value == i.value && !p.isBool && !p.isFloat)
      return i.type.elem == ScalarType::I32 ? p.promotesToInt
             : i.type.elem == ScalarType::I64 ? p.type == "long" || p.type == "long long"
                                               : false;
  return false;
}

/// The output's name of the float meta-parameter a constant is the value of (`EPS`), or null: a
/// float constant of a float meta-parameter of the same value.
const std::string *KernelEmitter::floatMetaName(const FloatImm &f) {
  if (f.symbol.empty() || f.type.elem != ScalarType::F32)
    return nullptr;
  for (const MetaParam &p : k_.metaParams)
    if (p.isFloat && p.name == f.symbol && p.type == "float" &&
        static_cast<float>(p.floatValue) == static_cast<float>(f.value)) {
      usedMeta_.insert(p.name);
      return &metaNames_.at(p.name);
    }
  return nullptr;
}

Code KernelEmitter::intImm(const IntImm *i, bool host) {
  if (i->type.elem == ScalarType::Bool)
    return {i->value ? "true" : "false"};
  if (!i->symbol.empty() && symbolStandsFor(*i)) {
    auto meta = metaNames_.find(i->symbol);
    if (meta == metaNames_.end())
      internalError("constant '" + i->symbol + "' names no meta-parameter");
    if (host)
      return {k_.instanceName + "::" + meta->second};
    usedMeta_.insert(i->symbol);
    return {meta->second};
  }
  const ScalarType t = i->type.elem;
  if (t == ScalarType::U64) // held as its bits
    return {"uint64_t{" + std::to_string(static_cast<uint64_t>(i->value)) + "ull}", Prec::Postfix};
  std::string lit = std::to_string(i->value);
  if (t == ScalarType::U32)
    return {lit + "u", Prec::Primary};
  // No literal spells the most negative value: 9223372036854775808 has no signed type.
  if (i->value == INT64_MIN)
    lit = "-9223372036854775807 - 1";
  if (t == ScalarType::I64 || narrowInt(t))
    return {std::string(scalarName(t, hooks_)) + "{" + lit + "}", Prec::Postfix};
  if (i->value == INT32_MIN)
    return {"(-2147483647 - 1)"};
  return {lit, i->value < 0 ? Prec::Unary : Prec::Primary};
}

Code KernelEmitter::cast(Code a, const Type &from, ScalarType to) {
  ScalarType f = from.elem;
  if (f == to && !from.pointer)
    return a;
  if (to == ScalarType::Bool) {
    if (isFloat(f))
      return {operand({asFloat(a, f), narrowFloat(f) ? Prec::Postfix : a.prec}, Prec::Equality) +
                  " != 0.0f",
              Prec::Equality};
    return {operand(a, Prec::Equality) + " != 0", Prec::Equality};
  }
  if (narrowFloat(to)) {
    // int32/int64 -> bf16 through float would round twice (float keeps 24 bits, bf16 8); fp16's
    // and fp8's ranges end below 2^24, where every integer is exact in float (past it they
    // saturate), and int8 is always exact.
    if (to == ScalarType::BF16 && isInt(f) && byteSize(f) >= 4)
      return {"tilec::rt::int_to_bf16(" + a.text + ")", Prec::Postfix};
    // fp64 through float would round twice: the float is rounded to odd first (as int_to_bf16).
    if (f == ScalarType::F64)
      return roundTo(to, "tilec::rt::to_float_round_odd(" + a.text + ")");
    std::string fl = f == ScalarType::F32 ? a.text
                     : narrowFloat(f)     ? asFloat(a, f)
                                          : "static_cast<float>(" + a.text + ")";
    return roundTo(to, fl);
  }
  if (narrowFloat(f) && to == ScalarType::F32)
    return {asFloat(a, f), Prec::Postfix};
  std::string src = narrowFloat(f) ? asFloat(a, f) : a.text;
  return {"static_cast<" + std::string(scalarName(to, hooks_)) + ">(" + src + ")", Prec::Postfix};
}

/// A float narrowed rounding toward zero (tl::cast's `rtz`): fp64 to float first (exact for the
/// 16-bit targets: every bf16 and fp16 value is a float, so the float toward zero of x has the same
/// 16-bit value toward zero as x).
Code KernelEmitter::castTowardZero(Code a, ScalarType from, ScalarType to) {
  std::string x = a.text;
  if (from == ScalarType::F64)
    x = "tilec::rt::to_float_toward_zero(" + x + ")";
  if (to == ScalarType::F16)
    x = "tilec::rt::to_f16_toward_zero(" + x + ")";
  else if (to == ScalarType::BF16)
    x = "tilec::rt::to_bf16_toward_zero(" + x + ")";
  return {x, Prec::Postfix};
}

std::string KernelEmitter::deref(const Expr &ptr, const Idx &idx) {
  // `base[offset]` for pointer + offset, `*p` otherwise.
  if (auto b = as<Binary>(ptr); b && b->op == BinaryOp::Add && b->a->type.pointer)
    return operand(elem(b->a, idx), Prec::Postfix) + "[" + elem(b->b, idx).text + "]";
  return "*" + operand(elem(ptr, idx), Prec::Unary);
}

std::string KernelEmitter::hinted(const void *node, const MemHints &h, const std::string &addr) {
  if (!h.any())
    return addr;
  auto it = hintNames_.find(node);
  return "tilec::rt::hinted<" + (it != hintNames_.end() ? it->second : hintBits(h)) + ">(" + addr +
         ")";
}

std::string KernelEmitter::hintBits(const MemHints &h) {
  std::string bits;
  auto add = [&](const std::string &b) {
    bits += (bits.empty() ? "" : " | ") + ("tilec::rt::hint::" + b);
  };
  if (h.cache != CacheModifier::None)
    add(name(h.cache));
  if (h.evict != EvictionPolicy::Normal)
    add(name(h.evict));
  if (h.isVolatile)
    add("volatile_access");
  return bits;
}

std::string KernelEmitter::loadAccess(const Load *ld, const Idx &idx) {
  if (!ld->hints.any())
    return deref(ld->ptr, idx);
  return hinted(ld, ld->hints, elem(ld->ptr, idx).text) + ".load()";
}

void KernelEmitter::storeAccess(const Store *st, const Idx &idx, const std::string &value) {
  if (!st->hints.any())
    w_->line(deref(st->ptr, idx) + " = " + value + ";");
  else
    call(hinted(st, st->hints, elem(st->ptr, idx).text) + ".store(", {value}, ");");
}

/// Whether a tile's elements may differ from each other (not a splat of a scalar, possibly expanded,
/// broadcast or converted). Scalars do not vary.
static bool variesPerElement(const Expr &e) {
  if (!e->type.isTile() || as<Splat>(e))
    return false;
  if (auto x = as<Broadcast>(e))
    return variesPerElement(x->a);
  if (auto x = as<ExpandDims>(e))
    return variesPerElement(x->a);
  if (auto x = as<Trans>(e))
    return variesPerElement(x->a);
  if (auto x = as<Cast>(e))
    return variesPerElement(x->a);
  return true;
}

bool KernelEmitter::indexArithmetic(const Expr &e) const {
  switch (e->kind) {
  case ExprKind::IntImm:
  case ExprKind::ProgramId:
  case ExprKind::Arange: return true;
  case ExprKind::VarRef: {
    const Var &v = as<VarRef>(e)->var;
    return v->kind == VarKind::Param ? v->type.isScalar() : !dataVars_.count(v->id);
  }
  case ExprKind::Splat: return indexArithmetic(as<Splat>(e)->a);
  case ExprKind::Broadcast: return indexArithmetic(as<Broadcast>(e)->a);
  case ExprKind::ExpandDims: return indexArithmetic(as<ExpandDims>(e)->a);
  case ExprKind::Trans: return indexArithmetic(as<Trans>(e)->a);
  case ExprKind::Hint: return indexArithmetic(as<Hint>(e)->a);
  case ExprKind::Cast: return !isFloat(as<Cast>(e)->a->type.elem) && indexArithmetic(as<Cast>(e)->a);
  case ExprKind::Unary: return indexArithmetic(as<Unary>(e)->a);
  case ExprKind::Binary: {
    auto b = as<Binary>(e);
    return indexArithmetic(b->a) && indexArithmetic(b->b);
  }
  case ExprKind::Select: {
    auto s = as<Select>(e);
    return indexArithmetic(s->a) && indexArithmetic(s->b);
  }
  case ExprKind::Math: {
    auto m = as<Math>(e);
    return m->op != MathOp::InlineAsm &&
           std::all_of(m->args.begin(), m->args.end(),
                       [&](const Expr &a) { return indexArithmetic(a); });
  }
  default: return false; // loads, reductions, ...
  }
}

/// Whether computing `e` calls tilec::rt's fast math (fdiv, exp, exp2, sigmoid), which CUDA's
/// runtime writes as inline assembly (cuda/runtime.cuh).
bool KernelEmitter::callsFastMath(const Expr &e) {
  if (!e)
    return false;
  switch (e->kind) {
  case ExprKind::Unary: return callsFastMath(as<Unary>(e)->a);
  case ExprKind::Cast: return callsFastMath(as<Cast>(e)->a);
  case ExprKind::Select: {
    auto s = as<Select>(e);
    return callsFastMath(s->cond) || callsFastMath(s->a) || callsFastMath(s->b);
  }
  case ExprKind::Binary: {
    auto b = as<Binary>(e);
    const ScalarType t = b->a->type.elem;
    if (b->op == BinaryOp::Div && e->type.isTile() && !e->type.pointer && isFloat(t) && t != ScalarType::F64)
      return true; // tilec::rt::fdiv
    return callsFastMath(b->a) || callsFastMath(b->b);
  }
  case ExprKind::Math: {
    auto m = as<Math>(e);
    if (m->op == MathOp::InlineAsm) // the kernel's own inline assembly
      return true;
    const bool f64 = m->args[0]->type.elem == ScalarType::F64;
    if (!f64 && (m->op == MathOp::Exp || m->op == MathOp::Exp2 || m->op == MathOp::Sigmoid || m->op == MathOp::Fdiv))
      return true;
    return std::any_of(m->args.begin(), m->args.end(), [](const Expr &a) { return callsFastMath(a); });
  }
  default: return false; // variables, constants, loads (their values are computed before)
  }
}

/// Integer tile arithmetic that may overflow on data: int32 and int64 (int8 computes in int and
/// narrows, which is defined).
bool KernelEmitter::wraps(const Expr &a, const Expr &b, const Type &result) const {
  return result.isTile() && !result.pointer &&
         (result.elem == ScalarType::I32 || result.elem == ScalarType::I64) &&
         !(indexArithmetic(a) && (!b || indexArithmetic(b)));
}

Code KernelEmitter::binary(const Binary *b, const Idx &idx) {
  Code a = elem(b->a, idx), c = elem(b->b, idx);
  ScalarType t = b->a->type.elem;
  bool ptr = b->a->type.pointer;
  struct Info {
    const char *op;
    Prec prec;
  };
  Info info{};
  switch (b->op) {
  case BinaryOp::Add: info = {"+", Prec::Additive}; break;
  case BinaryOp::Sub: info = {"-", Prec::Additive}; break;
  case BinaryOp::Mul: info = {"*", Prec::Multiplicative}; break;
  case BinaryOp::Div: info = {"/", Prec::Multiplicative}; break;
  case BinaryOp::Mod: info = {"%", Prec::Multiplicative}; break;
  // On bools the logical operators: the same values (the operands have no side effects), and
  // clang warns of `&` between comparisons (-Wbitwise-instead-of-logical, an error under -Werror).
  case BinaryOp::And: info = t == ScalarType::Bool ? Info{"&&", Prec::LogicalAnd} : Info{"&", Prec::BitAnd}; break;
  case BinaryOp::Or: info = t == ScalarType::Bool ? Info{"||", Prec::LogicalOr} : Info{"|", Prec::BitOr}; break;
  case BinaryOp::Xor: info = t == ScalarType::Bool ? Info{"!=", Prec::Equality} : Info{"^", Prec::BitXor}; break;
  case BinaryOp::Shl: info = {"<<", Prec::Shift}; break;
  case BinaryOp::Shr: info = {">>", Prec::Shift}; break;
  case BinaryOp::LAnd: info = {"&&", Prec::LogicalAnd}; break;
  case BinaryOp::LOr: info = {"||", Prec::LogicalOr}; break;
  case BinaryOp::Lt: info = {"<", Prec::Relational}; break;
  case BinaryOp::Le: info = {"<=", Prec::Relational}; break;
  case BinaryOp::Gt: info = {">", Prec::Relational}; break;
  case BinaryOp::Ge: info = {">=", Prec::Relational}; break;
  case BinaryOp::Eq: info = {"==", Prec::Equality}; break;
  case BinaryOp::Ne: info = {"!=", Prec::Equality}; break;
  case BinaryOp::Min:
  case BinaryOp::Max: {
    bool mx = b->op == BinaryOp::Max;
    if (narrowFloat(t)) // one of the operands, exact (tilec::rt::hmax, hmin)
      return {std::string(mx ? "tilec::rt::hmax(" : "tilec::rt::hmin(") + a.text + ", " + c.text +
                  ")",
              Prec::Postfix};
    if (isFloat(t))
      return {libm(mx ? "fmax" : "fmin", t) + "(" + a.text + ", " + c.text + ")", Prec::Postfix};
    return {std::string(mx ? "tilec::rt::maximum(" : "tilec::rt::minimum(") + a.text + ", " + c.text + ")",
            Prec::Postfix};
  }
  }
  if (!ptr && isFloat(t) && t != ScalarType::F64 && b->op == BinaryOp::Div && b->type.isTile()) {
    // Float division on tiles is Triton's: approximate (tilec::rt::fdiv, 2 ulp), not IEEE.
    std::string call = "tilec::rt::fdiv(" + asFloat(a, t) + ", " + asFloat(c, t) + ")";
    return narrowFloat(t) ? roundTo(t, call) : Code{call, Prec::Postfix};
  }
  if (!ptr && isFloat(t) && b->op == BinaryOp::Mod) {
    std::string call = libm("fmod", t) + "(" + asFloat(a, t) + ", " + asFloat(c, t) + ")";
    return narrowFloat(t) ? roundTo(t, call) : Code{call, Prec::Postfix};
  }
  if (!ptr && is16(t) &&
      (b->op == BinaryOp::Add || b->op == BinaryOp::Sub || b->op == BinaryOp::Mul)) {
    // 16-bit +, -, *: rounded once to nearest even (tilec::rt::hadd, hsub, hmul: the GPU's 16-bit
    // instructions where it has them), the same value as computing in float and rounding back.
    const char *fn = b->op == BinaryOp::Add   ? "tilec::rt::hadd("
                     : b->op == BinaryOp::Sub ? "tilec::rt::hsub("
                                              : "tilec::rt::hmul(";
    return {fn + a.text + ", " + c.text + ")", Prec::Postfix};
  }
  if (!ptr && narrowFloat(t)) {
    // Other 16-bit operators and the fp8 ones compute in float; arithmetic results round back,
    // comparisons do not.
    Code fa{asFloat(a, t), Prec::Postfix}, fc{asFloat(c, t), Prec::Postfix};
    std::string text = operand(fa, info.prec) + " " + info.op + " " + operand(fc, info.prec, true);
    if (isComparison(b->op))
      return {text, info.prec};
    return roundTo(t, text);
  }
  if (!ptr && !isFloat(t) && (b->op == BinaryOp::Div || b->op == BinaryOp::Mod) && variesPerElement(b->b)) {
    // A tile of divisors may hold 0 (a masked-off lane loads 0) or -1 beside MIN: C leaves both
    // undefined, the host CPU traps, so the division takes the reference's definition.
    std::string call = std::string(b->op == BinaryOp::Div ? "tilec::rt::div_int(" : "tilec::rt::rem_int(") +
                       a.text + ", " + c.text + ")";
    return {call, Prec::Postfix};
  }
  if (!ptr && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub || b->op == BinaryOp::Mul) &&
      wraps(b->a, b->b, b->type)) {
    // Signed overflow is undefined in C++ and compilers use that ((x + x) / 4 may become x / 2);
    // tile arithmetic wraps, as the reference's and Triton's does.
    const char *fn = b->op == BinaryOp::Add   ? "tilec::rt::wrapping_add("
                     : b->op == BinaryOp::Sub ? "tilec::rt::wrapping_sub("
                                              : "tilec::rt::wrapping_mul(";
    return {fn + a.text + ", " + c.text + ")", Prec::Postfix};
  }
  // uint16_t * uint16_t computes in int, where 65535 * 65535 overflows: in unsigned instead.
  if (!ptr && b->op == BinaryOp::Mul && isUnsigned(t) && narrowInt(t))
    a = {"static_cast<unsigned>(" + a.text + ")", Prec::Postfix};
  Code r{operand(a, info.prec) + " " + info.op + " " + operand(c, info.prec, true), info.prec};
  // 8- and 16-bit arithmetic wraps like the reference: C++ computes in int, so narrow right away.
  if (!ptr && narrowInt(b->type.elem))
    return {"static_cast<" + std::string(scalarName(b->type.elem, hooks_)) + ">(" + r.text + ")",
            Prec::Postfix};
  return r;
}

Code KernelEmitter::math(const Math *m, const Idx &idx) {
  std::vector<Code> args;
  for (const Expr &a : m->args)
    args.push_back(elem(a, idx));
  ScalarType t = m->args[0]->type.elem;
  if (m->op == MathOp::InlineAsm) {
    std::vector<std::string> texts;
    for (const Code &a : args)
      texts.push_back(a.text);
    std::string call = "Asm" + std::to_string(m->asmFn) + "::apply(";
    for (size_t i = 0; i < texts.size(); ++i)
      call += (i ? ", " : "") + texts[i];
    return {call + ")", Prec::Postfix};
  }
  if (m->op == MathOp::Cdiv)
    return {"tilec::rt::cdiv(" + args[0].text + ", " + args[1].text + ")", Prec::Postfix};
  if (m->op == MathOp::Philox || m->op == MathOp::UniformFromBits ||
      m->op == MathOp::NormalFromBits) {
    const char *fn = m->op == MathOp::Philox            ? "tilec::rt::philox_randint("
                     : m->op == MathOp::UniformFromBits ? "tilec::rt::uniform_from_bits("
                                                        : "tilec::rt::normal_from_bits(";
    std::string call = fn;
    for (size_t i = 0; i < args.size(); ++i)
      call += (i ? ", " : "") + args[i].text;
    return {call + ")", Prec::Postfix};
  }
  if (m->op == MathOp::Abs && isUnsigned(t))
    return args[0];
  if (m->op == MathOp::Abs && !isFloat(t)) {
    Code r{"tilec::rt::iabs(" + args[0].text + ")", Prec::Postfix};
    return r;
  }
  if (m->op == MathOp::Popc || m->op == MathOp::Clz || m->op == MathOp::Umulhi) {
    // CUDA's and HIP's bit intrinsics take unsigned (popc, umulhi) or signed (clz) operands.
    const bool wide = byteSize(t) == 8;
    const std::string u = wide ? "static_cast<unsigned long long>(" : "static_cast<unsigned>(";
    const std::string back = "static_cast<" + std::string(scalarName(t, hooks_)) + ">(";
    if (m->op == MathOp::Popc)
      return {back + (wide ? "__popcll(" : "__popc(") + u + args[0].text + ")))", Prec::Postfix};
    if (m->op == MathOp::Clz)
      return {back + (wide ? "__clzll(" : "__clz(") + args[0].text + "))", Prec::Postfix};
    return {back + (wide ? "__umul64hi(" : "__umulhi(") + u + args[0].text + "), " + u + args[1].text + ")))",
            Prec::Postfix};
  }
  std::string x = asFloat(args[0], t);
  Code xc{x, narrowFloat(t) ? Prec::Postfix : args[0].prec};
  const bool f64 = t == ScalarType::F64;
  std::string f;
  switch (m->op) {
  // fp64: the C library's functions (Triton's fp64 math is libdevice's, rounded as these).
  case MathOp::Exp: f = f64 ? "exp(" + x + ")" : "tilec::rt::exp(" + x + ")"; break;
  case MathOp::Exp2: f = f64 ? "exp2(" + x + ")" : "tilec::rt::exp2(" + x + ")"; break;
  case MathOp::Log: f = libm("log", t) + "(" + x + ")"; break;
  case MathOp::Log2: f = libm("log2", t) + "(" + x + ")"; break;
  case MathOp::Sqrt: f = libm("sqrt", t) + "(" + x + ")"; break;
  case MathOp::Rsqrt: f = libm("rsqrt", t) + "(" + x + ")"; break;
  case MathOp::Sigmoid: f = "tilec::rt::sigmoid(" + x + ")"; break;
  case MathOp::Tanh: f = libm("tanh", t) + "(" + x + ")"; break;
  case MathOp::Erf: f = libm("erf", t) + "(" + x + ")"; break;
  case MathOp::Abs: f = libm("fabs", t) + "(" + x + ")"; break;
  case MathOp::Floor: f = libm("floor", t) + "(" + x + ")"; break;
  case MathOp::Ceil: f = libm("ceil", t) + "(" + x + ")"; break;
  case MathOp::Fma: f = libm("fma", t) + "(" + x + ", " + asFloat(args[1], t) + ", " + asFloat(args[2], t) + ")"; break;
  case MathOp::Cdiv: break;
  case MathOp::DivRn: f = std::string(f64 ? "__ddiv_rn(" : "__fdiv_rn(") + x + ", " + asFloat(args[1], t) + ")"; break;
  case MathOp::DivRz: f = "tilec::rt::div_rz(" + x + ", " + asFloat(args[1], t) + ")"; break;
  case MathOp::Fdiv: // as `/` divides: fp64 rounded to nearest
    if (f64)
      return {operand(args[0], Prec::Multiplicative) + " / " + operand(args[1], Prec::Multiplicative, true),
              Prec::Multiplicative};
    f = "tilec::rt::fdiv(" + x + ", " + asFloat(args[1], t) + ")";
    break;
  case MathOp::SqrtRn: f = std::string(f64 ? "__dsqrt_rn(" : "__fsqrt_rn(") + x + ")"; break;
  default: {
    // The C library's function of the op's name: sinf, powf, ... (fp64: sin, pow, ...)
    f = libm(name(m->op), t) + "(" + x;
    for (size_t i = 1; i < args.size(); ++i)
      f += ", " + asFloat(args[i], t);
    f += ")";
    break;
  }
  }
  if (narrowFloat(t))
    return roundTo(t, f);
  return {f, Prec::Postfix};
}

std::string KernelEmitter::elemCount(const Type &t, int dim) {
  std::string l = layoutName(t);
  return t.rank() == 1 ? l + "::ELEMS" : l + "::ELEMS" + std::to_string(dim);
}

Code KernelEmitter::elem(const Expr &e, const Idx &idx) {
  if (e->type.isTile() && static_cast<int>(idx.size()) != e->type.rank())
    internalError("element index of the wrong rank for " + toString(e));
  switch (e->kind) {
  case ExprKind::IntImm: return intImm(as<IntImm>(e), false);
  case ExprKind::FloatImm: {
    double v = as<FloatImm>(e)->value;
    if (const std::string *name = floatMetaName(*as<FloatImm>(e))) {
      Code c{*name, Prec::Primary};
      if (narrowFloat(e->type.elem))
        return roundTo(e->type.elem, c.text);
      return c;
    }
    std::string lit;
    if (std::isnan(v))
      lit = "NAN";
    else if (std::isinf(v))
      lit = v > 0 ? "INFINITY" : "-INFINITY";
    else {
      const bool f64 = e->type.elem == ScalarType::F64;
      char buf[64];
      std::snprintf(buf, sizeof buf, f64 ? "%.17g" : "%.9g", v);
      lit = buf;
      if (lit.find_first_of(".en") == std::string::npos)
        lit += ".0";
      if (!f64)
        lit += "f";
    }
    Code c{lit, lit[0] == '-' ? Prec::Unary : Prec::Primary};
    if (narrowFloat(e->type.elem))
      return roundTo(e->type.elem, c.text);
    return c;
  }
  case ExprKind::VarRef: {
    auto r = as<VarRef>(e);
    return {lhs(r->var, idx), r->var->type.isTile() ? Prec::Postfix : Prec::Primary};
  }
  case ExprKind::Unary: {
    auto u = as<Unary>(e);
    Code a = elem(u->a, idx);
    ScalarType t = u->a->type.elem;
    if (u->op == UnaryOp::Neg && narrowFloat(t))
      return roundTo(t, "-" + operand({asFloat(a, t), Prec::Postfix}, Prec::Unary));
    // `~` on bool is logical not (tl.hpp); C++'s `~` would promote to int (~1 == -2: still true).
    bool logical = u->op == UnaryOp::Not || (u->op == UnaryOp::BitNot && t == ScalarType::Bool);
    const char *op = u->op == UnaryOp::Neg ? "-" : logical ? "!" : "~";
    if (u->op == UnaryOp::Neg && wraps(u->a, nullptr, u->type))
      return {"tilec::rt::wrapping_neg(" + a.text + ")", Prec::Postfix}; // -MIN == MIN
    std::string inner = operand(a, Prec::Unary);
    if (inner[0] == '-' || inner[0] == '~' || inner[0] == '!')
      inner = parens(inner); // never print `--x`
    Code r{op + inner, Prec::Unary};
    if (u->op != UnaryOp::Not && narrowInt(t))
      return {"static_cast<" + std::string(scalarName(t, hooks_)) + ">(" + r.text + ")",
              Prec::Postfix};
    return r;
  }
  case ExprKind::Binary: return binary(as<Binary>(e), idx);
  case ExprKind::Math: return math(as<Math>(e), idx);
  case ExprKind::Select: {
    auto s = as<Select>(e);
    Code c = elem(s->cond, idx), a = elem(s->a, idx), b = elem(s->b, idx);
    // An arm that calls the runtime's inline-assembly math is computed before the choice: nvcc
    // would branch around it per element (tutorial 04's dropout ran 6% slower so).
    if (callsFastMath(s->a) || callsFastMath(s->b))
      return {"tilec::rt::select(" + c.text + ", " + a.text + ", " + b.text + ")", Prec::Postfix};
    return {operand(c, Prec::LogicalOr) + " ? " + operand(a, Prec::LogicalOr) + " : " +
                operand(b, Prec::LogicalOr),
            Prec::Conditional};
  }
  case ExprKind::Cast: {
    auto c = as<Cast>(e);
    if (c->mode == CastMode::Bitcast)
      return {"tilec::rt::bit_cast<" + std::string(scalarName(c->type.elem, hooks_)) + ">(" +
                  elem(c->a, idx).text + ")",
              Prec::Postfix};
    if (c->mode == CastMode::ConvertTowardZero)
      return castTowardZero(elem(c->a, idx), c->a->type.elem, c->type.elem);
    return cast(elem(c->a, idx), c->a->type, c->type.elem);
  }
  case ExprKind::ProgramId: {
    auto p = as<ProgramId>(e);
    static const char *const dims[] = {"x", "y", "z"};
    if (p->axis < 0 || p->axis > 2)
      internalError("program_id axis out of range");
    return {std::string("static_cast<int>(") + (p->count ? "gridDim." : "blockIdx.") + dims[p->axis] + ")",
            Prec::Postfix};
  }
  case ExprKind::Arange: {
    auto a = as<Arange>(e);
    std::string c = layoutName(e->type) + "::coord0(" + idx[0] + ")";
    if (a->start == 0)
      return {c, Prec::Postfix};
    return {std::to_string(a->start) + " + " + c, Prec::Additive};
  }
  case ExprKind::Splat: return scalar(as<Splat>(e)->a);
  case ExprKind::ExpandDims: {
    auto x = as<ExpandDims>(e);
    if (x->a->type.isScalar())
      return scalar(x->a);
    Idx in = idx; // the operand's index: the inserted dim's left out
    in.erase(in.begin() + x->axis);
    return elem(x->a, in);
  }
  case ExprKind::Broadcast: {
    auto b = as<Broadcast>(e);
    if (b->a->type.isScalar())
      return scalar(b->a);
    Idx sub = idx;
    for (int d = 0; d < e->type.rank(); ++d)
      if (b->a->type.shape[d] == 1 && e->type.shape[d] != 1)
        sub[d] = "0";
    return elem(b->a, sub);
  }
  case ExprKind::Trans: // a's layout is the permuted one: the same thread holds the element
    return elem(as<Trans>(e)->a, as<Trans>(e)->operandIndex(idx));
  case ExprKind::Hint: return elem(as<Hint>(e)->a, idx);
  case ExprKind::PairValue: {
    auto p = as<PairValue>(e);
    return {operand(elem(p->a, idx), Prec::Postfix) + (p->index ? ".index" : ".value"), Prec::Postfix};
  }
  case ExprKind::Load:
    if (e->type.isScalar()) {
      // A scalar load used inside an expression (scalar code): plain or masked access.
      auto ld = as<Load>(e);
      std::string d = loadAccess(ld, idx);
      if (!ld->mask)
        return {d, Prec::Postfix};
      return {operand(scalar(ld->mask), Prec::LogicalOr) + " ? " + d + " : " +
                  (ld->other ? operand(scalar(ld->other), Prec::LogicalOr) : zero(e->type)),
              Prec::Conditional};
    }
    internalError("tile load inside an expression (must be a whole Decl/Assign value)");
  case ExprKind::Reduce: internalError("Reduce reached the emitter (reductions must be lowered)");
  case ExprKind::ConvertLayout: internalError("ConvertLayout reached the emitter (must be lowered)");
  case ExprKind::Dot:
    internalError("Dot reached the emitter (lower-dots must run)");
  case ExprKind::Histogram:
    internalError("Histogram reached the emitter (lower-layout-conversions must run)");
  case ExprKind::Gather:
    internalError("Gather reached the emitter (lower-layout-conversions must run)");
  case ExprKind::Reshape:
    internalError("Reshape reached the emitter (lower-layout-conversions must run)");
  case ExprKind::Sort:
    internalError("Sort reached the emitter (lower-layout-conversions must run)");
  case ExprKind::Scan:
  case ExprKind::ThreadReduce:
  case ExprKind::SharedDot:
  case ExprKind::WarpReduce:
  case ExprKind::SharedRead:
    internalError(std::string(name(e->kind)) + " inside an expression (must be a whole Decl/Assign value)");
  }
  internalError("unknown expression kind");
}

std::string KernelEmitter::hostExpr(const Expr &e) {
  switch (e->kind) {
  case ExprKind::IntImm: return intImm(as<IntImm>(e), true).text;
  case ExprKind::VarRef: {
    auto v = as<VarRef>(e)->var;
    if (v->kind != VarKind::Param || v->type.isTile())
      internalError("grid expression reads a non-parameter '" + v->name + "'");
    return varNames_[v->id];
  }
  case ExprKind::Binary: {
    auto b = as<Binary>(e);
    const char *op = nullptr;
    Prec p = Prec::Additive;
    switch (b->op) {
    case BinaryOp::Add: op = "+"; break;
    case BinaryOp::Sub: op = "-"; break;
    case BinaryOp::Mul: op = "*"; p = Prec::Multiplicative; break;
    case BinaryOp::Div: op = "/"; p = Prec::Multiplicative; break;
    case BinaryOp::Mod: op = "%"; p = Prec::Multiplicative; break;
    default: internalError("grid expression operator");
    }
    // Operands are parenthesized conservatively (they are short): `(a + b) * c`.
    auto sub = [&](const Expr &x, bool right) {
      std::string t = hostExpr(x);
      auto xb = as<Binary>(x);
      if (!xb)
        return t;
      Prec xp = (xb->op == BinaryOp::Add || xb->op == BinaryOp::Sub) ? Prec::Additive : Prec::Multiplicative;
      return operand({t, xp}, p, right);
    };
    return sub(b->a, false) + " " + op + " " + sub(b->b, true);
  }
  case ExprKind::Cast: // an int operand beside an int64_t one: `n + 4294967296`
    return "static_cast<" + std::string(scalarName(e->type.elem, hooks_)) + ">(" +
           hostExpr(as<Cast>(e)->a) + ")";
  case ExprKind::Unary: {
    // `grid = (-n)`: the settings fold a negated constant, not a negated parameter or expression.
    auto u = as<Unary>(e);
    if (u->op != UnaryOp::Neg)
      internalError("grid expression operator");
    std::string t = hostExpr(u->a);
    // Parentheses around an operation, and around a negation (`- -n` must not read `--n`).
    bool wrap = as<Binary>(u->a) || t.front() == '-';
    return wrap ? "-(" + t + ")" : "-" + t;
  }
  case ExprKind::Math: {
    auto m = as<Math>(e);
    if (m->op != MathOp::Cdiv)
      internalError("grid expression function");
    return "tilec::rt::cdiv(" + hostExpr(m->args[0]) + ", " + hostExpr(m->args[1]) + ")";
  }
  default: internalError("grid expression node " + std::string(name(e->kind)));
  }
}

} // namespace tilec::emitters

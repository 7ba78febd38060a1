#!/usr/bin/env python3
"""The operator matrix (issue 16 item 4; docs/robustness.md "The operator matrix").

Writes, for one cell of element type x rank, a kernel source holding one kernel per elementwise
operator and math function that accepts the type (tile-tile and tile-scalar forms of the binary
ones, every compound assignment, every cast), and a host program that runs each kernel through the
CPU reference (tl.hpp) and through the generated code (the emulator, or a GPU), on fresh random
inputs from the operation's domain (NaN, infinities and signed zeros where the operation defines
them), at ragged sizes, with the outputs poisoned, and checks both against a float64 oracle written
here (tests/matrix/matrix.h).

  gen.py --cell TYPE:RANK --out DIR   write DIR/k.cpp and DIR/main.cpp
  gen.py --list                       the cells and how many kernels each holds
  gen.py --self-test                  every cell renders, deterministically, with unique names

run.py translates, compiles (nvcc, hipcc, warnings as errors) and runs the cells.
"""

import argparse
import functools
import os
import re
import sys

# ------------------------------------------------------------------------------------------------
# Element types
# ------------------------------------------------------------------------------------------------


class Ty:
    def __init__(self, key, cxx, short, kind, bits, unsigned=False):
        self.key, self.cxx, self.short, self.kind, self.bits = key, cxx, short, kind, bits
        self.unsigned = unsigned

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def is_int(self):
        return self.kind == "int"

    @property
    def is_bool(self):
        return self.kind == "bool"


TYPES = [
    Ty("bool", "bool", "b1", "bool", 1),
    Ty("int8", "int8_t", "i8", "int", 8),
    Ty("int16", "int16_t", "i16", "int", 16),
    Ty("int32", "int32_t", "i32", "int", 32),
    Ty("int64", "int64_t", "i64", "int", 64),
    Ty("uint8", "uint8_t", "u8", "int", 8, unsigned=True),
    Ty("uint16", "uint16_t", "u16", "int", 16, unsigned=True),
    Ty("uint32", "uint32_t", "u32", "int", 32, unsigned=True),
    Ty("uint64", "uint64_t", "u64", "int", 64, unsigned=True),
    Ty("fp16", "tl::half", "f16", "float", 16),
    Ty("bf16", "tl::bfloat16", "bf16", "float", 16),
    Ty("fp32", "float", "f32", "float", 32),
    Ty("fp64", "double", "f64", "float", 64),
    Ty("fp8e4m3", "tl::float8_e4m3", "f8e4m3", "float", 8),
    Ty("fp8e5m2", "tl::float8_e5m2", "f8e5m2", "float", 8),
]
BY_KEY = {t.key: t for t in TYPES}
BOOL = BY_KEY["bool"]

# ------------------------------------------------------------------------------------------------
# Domains: where an operand's values come from (matrix::Domain), and the value a scalar operand
# takes in the tile-scalar form.
# ------------------------------------------------------------------------------------------------


def int_range(t):
    if t.is_bool:
        return (0, 1)
    if t.unsigned:
        return (0, (1 << t.bits) - 1)
    return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1)


def lit(v):
    """A C++ long double literal for a domain bound."""
    if isinstance(v, int):
        if v == -(1 << 63):
            return "(-9223372036854775807.0L - 1)"
        return "%d.0L" % v
    return repr(float(v)) + "L"


class Dom:
    """lo, hi: the interval; alternate: every other element negated; specials: every k-th element
    NaN/inf/-inf/-0/+0 (floats); avoid: integers replaced (divisors); scalar: the tile-scalar
    form's scalar."""

    def __init__(self, lo, hi, alternate=False, specials=0, avoid=(), scalar=None, whole=False):
        self.lo, self.hi, self.alternate, self.specials, self.avoid = lo, hi, alternate, specials, avoid
        self.scalar, self.whole = scalar, whole

    def cxx(self):
        return "matrix::Domain{%s, %s, %s, %s, %d, {%s}}" % (
            lit(self.lo), lit(self.hi), "true" if self.whole else "false", "true" if self.alternate else "false",
            self.specials,
            ", ".join("%dLL" % a for a in self.avoid))


def d_any(t):
    """Any value of the type: integers over their whole range (wrapping is part of the meaning),
    floats over [-100, 100] with special values."""
    if t.is_float:
        return Dom(-100.0, 100.0, specials=7, scalar=-2.75)
    lo, hi = int_range(t)
    return Dom(lo, hi, scalar=1 if t.is_bool else 77)


def d_few(t):
    """A few small values, so that equal operands and zeros are common (comparisons, logic)."""
    if t.is_bool:
        return Dom(0, 1, scalar=1)
    if t.is_float:
        return Dom(-3.0, 3.0, specials=9, scalar=1.0, whole=True)
    return Dom(0 if t.unsigned else -3, 3, scalar=1)


def d_moderate(t):
    """Values whose products and sums do not overflow a 16-bit float."""
    if t.is_float:
        return Dom(-100.0, 100.0, specials=7, scalar=1.5)
    return d_any(t)


def d_divisor(t):
    """Divisors: integers in +-[1, 100] without 0 and -1 (x / 0 and MIN / -1 are undefined on
    the GPU); floats in +-[0.5, 8]."""
    if t.is_float:
        return Dom(0.5, 8.0, alternate=True, scalar=-3.25)
    hi = min(100, int_range(t)[1])
    if t.unsigned:
        return Dom(1, hi, avoid=(0,), scalar=7)
    return Dom(1, hi, alternate=True, avoid=(0, -1), scalar=-7)


def d_shift(t):
    return Dom(0, t.bits - 1, scalar=3)


def d_cast_from(t, to):
    """Values a cast from t to `to` defines: floats to integers only in range (out of range is
    undefined), and over [-100, 100] (int8's range) with NaN and infinities only towards types that
    hold them (and bool: NaN is true). Wide integers to fp16 over +-1e5: about two thirds of the
    values are finite (checked to the rounding of fp16), the rest overflow to infinity. (Over the
    whole range of int32 or int64 nearly every value overflows, and a wrong oracle went unseen.)"""
    if t.is_float:
        if to.is_int:
            return Dom(0.0, 100.0) if to.unsigned else Dom(-100.0, 100.0)
        if to.key == "fp16":
            return Dom(-1.0e5, 1.0e5, specials=7)  # overflow to infinity
        return Dom(-100.0, 100.0, specials=7)
    if to.key == "fp16" and not t.is_bool and t.bits > 16:
        return Dom(0 if t.unsigned else -100000, 100000, scalar=77)
    if to.is_float and to.bits == 8 and t.is_int and t.bits > 8:
        # fp8 saturates past 448 (e4m3) or 57344 (e5m2): most of the range, and some beyond
        return Dom(0 if t.unsigned else -1000, 1000, scalar=77)
    return d_any(t)


def d_f(lo, hi, scalar, specials=0):
    return lambda t: Dom(lo, hi, specials=specials, scalar=scalar)


# ------------------------------------------------------------------------------------------------
# Operations
# ------------------------------------------------------------------------------------------------


class Op:
    """One elementwise operation.
      name      the kernel's name after mx_
      expr      the kernel's expression of the operand tiles a, b, c (and the cast's target)
      accepts   the element types it takes (function of Ty)
      doms      one domain function per operand (function of Ty)
      result    the result's element type (function of Ty)
      oracle    a C++ expression of A, B, C (the operands as double, or as __int128 for integers
                and bools) giving the exact result (double, or an integer/bool)
      tol       for floating-point results: (ulps, floor) against the oracle
      exact     the generated code must give the reference's bits (operations exact by definition)
      scalar    also the tile-scalar and scalar-tile forms (`a OP s`, `s OP b`; s a kernel argument
                of the element type)
      stmts     the kernel's statements instead of `out = expr` (compound assignment)
    """

    def __init__(self, name, expr, accepts, doms, oracle, result=None, tol=(1, 0), exact=True,
                 scalar=False, stmts=None, operand_types=None, rejects=None):
        self.name, self.expr, self.accepts, self.doms, self.oracle = name, expr, accepts, doms, oracle
        # The types the language rejects it for (default: those it does not accept); the integer
        # chains below are tested on integers only but are valid C++ on every number type.
        self.rejects = rejects or (lambda t: not accepts(t))
        self.result = result or (lambda t: t)
        self.tol, self.exact, self.scalar, self.stmts = tol, exact, scalar, stmts
        self.operand_types = operand_types  # per operand: function of Ty (default: the cell's type)


def is_num(t):
    return not t.is_bool


def is_int(t):
    return t.is_int


def is_intlike(t):
    return t.is_int or t.is_bool


def is_float(t):
    return t.is_float


def any_type(t):
    return True


def to_bool(t):
    return BOOL


def int_or_float(int_expr, float_expr):
    """An oracle that depends on the kind of the cell's type ({T}: the element type's C++ name)."""
    return lambda t: float_expr if t.is_float else int_expr.replace("{T}", t.cxx)


def W(expr):
    """An integer oracle wrapped to the element type."""
    return "matrix::wrap<{T}>(%s)" % expr


OPS = []


def add(op):
    OPS.append(op)


# Arithmetic (bool operands are rejected: cast first).
add(Op("add", "a + b", is_num, [d_any, d_any], int_or_float(W("A + B"), "A + B"), scalar=True))
add(Op("sub", "a - b", is_num, [d_any, d_any], int_or_float(W("A - B"), "A - B"), scalar=True))
add(Op("mul", "a * b", is_num, [d_any, d_moderate], int_or_float(W("A * B"), "A * B"), scalar=True))
# Float `/` is the GPU's approximate division (2 ulp).
add(Op("div", "a / b", is_num, [d_any, d_divisor], int_or_float(W("A / B"), "A / B"), scalar=True,
       tol=(2, 0), exact=False))
add(Op("mod", "a % b", is_num, [d_any, d_divisor], int_or_float(W("A % B"), "std::fmod(A, B)"), scalar=True))

# Wrapping feeding more arithmetic: an optimizing compiler that takes signed overflow as
# impossible may compute (a + b) / 2 differently from the wrapped sum halved.
def never(t):
    return False


add(Op("twice_half", "(a + a) / 2", is_int, [d_any], lambda t: W("%s / 2" % W("A + A")).replace("{T}", t.cxx),
       rejects=never))
add(Op("mul_div", "(a * b) / b", is_int, [d_any, d_divisor], lambda t: W("%s / B" % W("A * B")).replace("{T}", t.cxx),
       rejects=never))
add(Op("inc_gt", "a + 1 > a", is_int, [d_any], lambda t: "%s > A" % W("A + 1").replace("{T}", t.cxx), result=to_bool,
       rejects=never))
# (the oracle compares as __int128: on an unsigned type `wrap(-A) < 0` is a comparison nvcc calls
# pointless, an error under -Werror)
add(Op("neg_cmp", "-a < 0", is_int, [d_any], lambda t: "matrix::wide(%s) < 0" % W("-A").replace("{T}", t.cxx),
       result=to_bool, rejects=never))

# Comparisons: every type; a bool result.
for name, sym in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="), ("eq", "=="), ("ne", "!=")):
    add(Op(name, "a %s b" % sym, any_type, [d_few, d_few], "A %s B" % sym, result=to_bool, scalar=True))

# Bitwise and shifts.
for name, sym in (("and", "&"), ("or", "|"), ("xor", "^")):
    add(Op("bit" + name, "a %s b" % sym, is_intlike, [d_any, d_any],
           lambda t, sym=sym: "(A %s B) != 0" % sym if t.is_bool else W("A %s B" % sym), scalar=True))
add(Op("shl", "a << b", is_int, [d_any, d_shift],
       lambda t: W("static_cast<__int128>(static_cast<unsigned __int128>(A) << B)").replace("{T}", t.cxx),
       scalar=True))
add(Op("shr", "a >> b", is_int, [d_any, d_shift], lambda t: W("A >> B").replace("{T}", t.cxx), scalar=True))

# Logical operators: operands converted to bool (NaN is true).
add(Op("land", "a && b", any_type, [d_few, d_few], "(A != 0) && (B != 0)", result=to_bool, scalar=True))
add(Op("lor", "a || b", any_type, [d_few, d_few], "(A != 0) || (B != 0)", result=to_bool, scalar=True))
add(Op("lnot", "!a", any_type, [d_few], "A == 0", result=to_bool))

# Unary.
add(Op("neg", "-a", is_num, [d_any], int_or_float(W("-A"), "-A")))
add(Op("bitnot", "~a", is_intlike, [d_any], lambda t: "A == 0" if t.is_bool else W("~A").replace("{T}", t.cxx)))
add(Op("abs", "tl::abs(a)", any_type, [d_any],
       lambda t: "std::fabs(A)" if t.is_float else ("A" if t.is_bool else W("A < 0 ? -A : A").replace("{T}", t.cxx))))

# Compound assignment: `r = a; r OP= b`.
for name, sym, accepts, dom_b, ora_i, ora_f, exact in (
        ("add", "+", is_num, d_any, "A + B", "A + B", True),
        ("sub", "-", is_num, d_any, "A - B", "A - B", True),
        ("mul", "*", is_num, d_moderate, "A * B", "A * B", True),
        ("div", "/", is_num, d_divisor, "A / B", "A / B", False),
        ("mod", "%", is_num, d_divisor, "A % B", "std::fmod(A, B)", True),
        ("and", "&", is_intlike, d_any, "A & B", None, True),
        ("or", "|", is_intlike, d_any, "A | B", None, True),
        ("xor", "^", is_intlike, d_any, "A ^ B", None, True)):
    def ora(t, ora_i=ora_i, ora_f=ora_f):
        if t.is_float:
            return ora_f
        if t.is_bool:
            return "(%s) != 0" % ora_i
        return W(ora_i).replace("{T}", t.cxx)
    add(Op("assign_" + name, None, accepts, [d_any, dom_b], ora, tol=(2, 0) if not exact else (1, 0),
           exact=exact, stmts=["auto r = a;", "r %s= b;" % sym], scalar=False))

# Selection.
add(Op("where", "tl::where(c, a, b)", any_type, [d_any, d_any, lambda t: Dom(0, 1)], "C ? A : B",
       operand_types=[None, None, to_bool]))
add(Op("maximum", "tl::maximum(a, b)", any_type, [d_any, d_any],
       lambda t: "std::fmax(A, B)" if t.is_float else ("(A || B)" if t.is_bool else "std::max(A, B)"), scalar=True))
add(Op("minimum", "tl::minimum(a, b)", any_type, [d_any, d_any],
       lambda t: "std::fmin(A, B)" if t.is_float else ("(A && B)" if t.is_bool else "std::min(A, B)"), scalar=True))

# Shape ops (tl::join, split, interleave, cat, reshape, ravel, permute): each moves a's and b's
# elements through a round trip whose result, element for element, is one operand; a wrong rule
# mixes the operands or permutes the elements. {SHAPE} is the tile's dims, {N} its element count.
add(Op("join_split", None, any_type, [d_any, d_any], "B",
       stmts=["auto [x, y] = tl::split(tl::join(tl::ravel(a), tl::ravel(b)));",
              "auto r = tl::reshape<{SHAPE}>(y);"]))
add(Op("interleave", None, any_type, [d_any, d_any], "A",
       stmts=["auto [x, y] = tl::split(tl::reshape<{N}, 2>(tl::interleave(tl::ravel(a), tl::ravel(b))));",
              "auto r = tl::reshape<{SHAPE}>(x);"]))
add(Op("cat_permute", None, any_type, [d_any, d_any], "B",
       stmts=["auto [x, y] = tl::split(tl::permute<1, 0>(tl::reshape<2, {N}>(tl::cat(tl::ravel(a), tl::ravel(b)))));",
              "auto r = tl::reshape<{SHAPE}>(y);"]))


def d_lo(t):
    if t.is_float:
        return Dom(-50.0, 0.0)
    return Dom(0, 20) if t.unsigned else Dom(max(-50, int_range(t)[0]), 0)


def d_hi(t):
    if t.is_float:
        return Dom(0.0, 50.0)
    return Dom(20, 50) if t.unsigned else Dom(0, min(50, int_range(t)[1]))


add(Op("clamp", "tl::clamp(a, b, c)", any_type, [d_any, d_lo, d_hi],
       lambda t: "std::fmin(std::fmax(A, B), C)" if t.is_float else "std::min(std::max(A, B), C)"))
add(Op("fma", "tl::fma(a, b, c)", is_float, [d_f(-10.0, 10.0, 0), d_f(-10.0, 10.0, 0), d_f(-10.0, 10.0, 0)],
       "std::fma(A, B, C)"))
add(Op("cdiv", "tl::cdiv(a, b)", is_int,
       [lambda t: Dom(0, min(60, int_range(t)[1] // 2)), lambda t: Dom(1, min(60, int_range(t)[1] // 2))],
       lambda t: W("(A + B - 1) / B").replace("{T}", t.cxx)))

# Casts to every element type.
for to in TYPES:
    def cast_oracle(t, to=to):
        if to.is_bool:
            return "A != 0"
        if t.is_bool:
            return "A ? 1 : 0"
        if to.is_float:
            return "static_cast<double>(A)"
        if t.is_float:
            return "std::trunc(A)"
        return "matrix::wrap<%s>(A)" % to.cxx
    add(Op("cast_" + to.short, "tl::cast<%s>(a)" % to.cxx, any_type,
           [lambda t, to=to: d_cast_from(t, to)], cast_oracle, result=lambda t, to=to: to))

# Math functions of one operand: (name, domain, oracle, tolerance in ulps on the result type,
# floor). Floats only. Tolerances: the CPU's and the GPU's math libraries are a few ulp from the
# exact value; exp, exp2 and sigmoid are ex2.approx based (docs/language.md).
MATH1 = [
    ("exp", -10, 10, "std::exp(A)", 16, 0),
    ("exp2", -14, 14, "std::exp2(A)", 4, 0),
    ("log", 0.01, 1000, "std::log(A)", 4, 1),
    ("log2", 0.01, 1000, "std::log2(A)", 4, 1),
    ("log10", 0.01, 1000, "std::log10(A)", 4, 1),
    ("sqrt", 0, 1000, "std::sqrt(A)", 2, 0),
    ("sqrt_rn", 0, 1000, "std::sqrt(A)", 1, 0),
    ("rsqrt", 0.01, 1000, "1 / std::sqrt(A)", 4, 0),
    ("sigmoid", -20, 20, "1 / (1 + std::exp(-A))", 16, 0),
    ("tanh", -5, 5, "std::tanh(A)", 4, 0),
    ("erf", -3, 3, "std::erf(A)", 4, 0),
    ("erfc", -3, 5, "std::erfc(A)", 8, 0),
    ("floor", -100, 100, "std::floor(A)", 0, 0),
    ("ceil", -100, 100, "std::ceil(A)", 0, 0),
    ("rint", -100, 100, "std::rint(A)", 0, 0),
    ("round", -100, 100, "std::round(A)", 0, 0),
    ("trunc", -100, 100, "std::trunc(A)", 0, 0),
    ("sin", -10, 10, "std::sin(A)", 4, 1),
    ("cos", -10, 10, "std::cos(A)", 4, 1),
    ("tan", -1.4, 1.4, "std::tan(A)", 4, 1),
    ("asin", -1, 1, "std::asin(A)", 4, 0),
    ("acos", -1, 1, "std::acos(A)", 4, 0),
    ("atan", -20, 20, "std::atan(A)", 4, 0),
    ("sinh", -5, 5, "std::sinh(A)", 4, 0),
    ("cosh", -5, 5, "std::cosh(A)", 4, 0),
    ("asinh", -20, 20, "std::asinh(A)", 4, 0),
    ("acosh", 1, 20, "std::acosh(A)", 4, 1),
    ("atanh", -0.95, 0.95, "std::atanh(A)", 4, 0),
    ("expm1", -5, 5, "std::expm1(A)", 4, 0),
    ("log1p", -0.9, 100, "std::log1p(A)", 4, 0),
    ("cbrt", -100, 100, "std::cbrt(A)", 4, 0),
    ("lgamma", 0.1, 20, "std::lgamma(A)", 8, 1),
]
EXACT_MATH1 = {"sqrt_rn", "floor", "ceil", "rint", "round", "trunc"}
for name, lo, hi, oracle, ulps, floor in MATH1:
    add(Op(name, "tl::%s(a)" % name, is_float, [d_f(lo, hi, 0)], oracle, tol=(max(ulps, 1), floor),
           exact=name in EXACT_MATH1))

# Math functions of two operands (tile-tile and tile-scalar).
MATH2 = [
    ("pow", d_f(0.1, 4, 1.5), d_f(-3, 3, -1.25), "std::pow(A, B)", 8, 0, False),
    ("atan2", d_f(-10, 10, 2.5), d_f(-10, 10, -3.5), "std::atan2(A, B)", 4, 0, False),
    ("hypot", d_f(-100, 100, 3.0), d_f(-100, 100, -4.5), "std::hypot(A, B)", 4, 0, False),
    ("copysign", d_any, d_any, "std::copysign(A, B)", 1, 0, True),
    ("fmod", d_any, d_divisor, "std::fmod(A, B)", 1, 0, True),
    ("remainder", d_any, d_divisor, "std::remainder(A, B)", 1, 0, True),
    ("div_rn", d_any, d_divisor, "A / B", 1, 0, True),
    ("div_rz", d_any, d_divisor, "A / B", 1, 0, True),
    ("fdiv", d_any, d_divisor, "A / B", 2, 0, False),
]
for name, da, db, oracle, ulps, floor, exact in MATH2:
    add(Op(name, "tl::%s(a, b)" % name, is_float, [da, db], oracle, tol=(ulps, floor), exact=exact, scalar=True))

# Predicates: a bool result.
for name in ("isnan", "isinf", "isfinite", "signbit"):
    add(Op(name, "tl::%s(a)" % name, is_float, [lambda t: Dom(-100.0, 100.0, specials=3)], "std::%s(A)" % name,
           result=to_bool))

# Bits of 32- and 64-bit integers.
def is_int_32_64(t):
    return t.is_int and t.bits >= 32


add(Op("popc", "tl::popc(a)", is_int_32_64, [d_any],
       lambda t: "std::popcount(static_cast<std::make_unsigned_t<%s>>(A))" % t.cxx))
add(Op("clz", "tl::clz(a)", is_int_32_64, [d_any],
       lambda t: "std::countl_zero(static_cast<std::make_unsigned_t<%s>>(A))" % t.cxx))
add(Op("umulhi", "tl::umulhi(a, b)", is_int_32_64, [d_any, d_any],
       lambda t: ("static_cast<%s>(static_cast<uint32_t>((uint64_t(uint32_t(A)) * uint32_t(B)) >> 32))" % t.cxx
                  if t.bits == 32 else
                  "static_cast<%s>(static_cast<uint64_t>((static_cast<unsigned __int128>(uint64_t(A))"
                  " * uint64_t(B)) >> 64))" % t.cxx), scalar=True))

# ------------------------------------------------------------------------------------------------
# Rendering
# ------------------------------------------------------------------------------------------------

# Every host program takes `--mutate`: then every oracle is wrong on purpose (the integer result's
# lowest bit flipped, the float result scaled and moved) and every kernel must fail, which shows that
# the checks of every cell can fail (run.py runs each program both ways).

RANK1 = dict(n=1237, block=256)  # 5 programs, the last one ragged
RANK2 = dict(m=37, n=45, stride=48, bm=16, bn=32)  # 3 x 2 programs, ragged both ways
# 3 matrices (`batches`) of 5 x 45, rows `stride` apart and matrices 5 rows apart: 2 x 2 x 2 programs of
# [2, 4, 32], ragged along every dim. Rank 3 runs on the types of RANK3_TYPES.
RANK3 = dict(b=3, m=5, n=45, stride=48, bb=2, bm=4, bn=32)
RANK3_TYPES = ("bool", "int32", "uint8", "fp16", "fp32")


class Kernel:
    def __init__(self, op, t, rank, form):
        # form: "tile" (every operand a tile), "scalar" (`a OP s`: the last operand a kernel
        # argument) or "rscalar" (`s OP b`: the first one)
        self.op, self.t, self.rank, self.form = op, t, rank, form
        self.name = "mx_" + op.name + {"tile": "", "scalar": "_s", "rscalar": "_rs"}[form]
        self.rt = op.result(t)
        n = len(op.doms)
        self.otypes = [(op.operand_types[i](t) if op.operand_types and op.operand_types[i] else t)
                       for i in range(n)]

    def operands(self):
        """(letter, type, domain, is_scalar) per operand."""
        out = []
        for i, dom in enumerate(self.op.doms):
            letter = "abc"[i]
            scalar = i == self.scalar_index()
            out.append((letter, self.otypes[i], dom(self.t), scalar))
        return out

    def oracle(self):
        o = self.op.oracle
        return (o(self.t) if callable(o) else o).replace("{T}", self.t.cxx)

    def scalar_index(self):
        return {"tile": None, "scalar": len(self.op.doms) - 1, "rscalar": 0}[self.form]

    def expr(self):
        if self.form == "tile":
            return self.op.expr
        return re.sub(r"\b%s\b" % "abc"[self.scalar_index()], "s", self.op.expr)


class DescKernel:
    """The memory-access form of tensor descriptors (tl::make_tensor_descriptor) for the type: a
    copy through a load descriptor whose block is shifted by SHIFT (its blocks hang over the
    tensor's lower edges, and over its upper ones at the ragged end) and a store descriptor whose
    blocks hang over the upper edges: out[r][c] = a[r - SHIFT_R][c - SHIFT_C], 0 outside."""

    SHIFT_R, SHIFT_C = 1, 3

    def __init__(self, t, rank):
        self.t, self.rank, self.rt, self.name = t, rank, t, "mx_desc_shift"

    def operands(self):
        return [("a", self.t, d_any(self.t), False)]


def kernels_of(t, rank):
    ks = []
    for op in OPS:
        if not op.accepts(t):
            continue
        ks.append(Kernel(op, t, rank, "tile"))
        if op.scalar:
            ks.append(Kernel(op, t, rank, "scalar"))
            ks.append(Kernel(op, t, rank, "rscalar"))
    if rank <= 2:  # tensor descriptors have rank 1 or 2
        ks.append(DescKernel(t, rank))
    return ks


def scalar_literal(t, v):
    if t.is_bool:
        return "true" if v else "false"
    if t.is_float:
        f = "%sf" % repr(float(v))
        return f if t.key == "fp32" else "%s(%s)" % (t.cxx, f)
    return "%s(%d)" % (t.cxx, v)


def render_desc_kernel(k):
    t, rank, sr, sc = k.t, k.rank, DescKernel.SHIFT_R, DescKernel.SHIFT_C
    lines = ["// %s: out = a shifted by (%d, %d) through tensor descriptors, zero outside" % (
        k.name, sr if rank == 2 else 0, sc)]
    if rank == 1:
        lines += ["template <int BLOCK>",
                  "TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))",
                  "void %s(const %s *pa, %s *out, int n) {" % (k.name, t.cxx, t.cxx),
                  "  auto a_desc = tl::make_tensor_descriptor<BLOCK>(pa, {n}, {1});",
                  "  auto out_desc = tl::make_tensor_descriptor<BLOCK>(out, {n}, {1});",
                  "  int start = tl::program_id(0) * BLOCK;",
                  "  out_desc.store({start}, a_desc.load({start - %d}));" % sc,
                  "}",
                  "template void %s<%d>(const %s *, %s *, int);" % (k.name, RANK1["block"], t.cxx, t.cxx)]
    else:
        lines += ["template <int BM, int BN>",
                  "TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM), cdiv(n, BN)))",
                  "void %s(const %s *pa, %s *out, int m, int n, int stride) {" % (k.name, t.cxx, t.cxx),
                  "  auto a_desc = tl::make_tensor_descriptor<BM, BN>(pa, {m, n}, {stride, 1});",
                  "  auto out_desc = tl::make_tensor_descriptor<BM, BN>(out, {m, n}, {stride, 1});",
                  "  int r0 = tl::program_id(0) * BM, c0 = tl::program_id(1) * BN;",
                  "  out_desc.store({r0, c0}, a_desc.load({r0 - %d, c0 - %d}));" % (sr, sc),
                  "}",
                  "template void %s<%d, %d>(const %s *, %s *, int, int, int);" % (
                      k.name, RANK2["bm"], RANK2["bn"], t.cxx, t.cxx)]
    return "\n".join(lines) + "\n"


def render_kernel(k):
    """The kernel and its explicit instantiation."""
    if isinstance(k, DescKernel):
        return render_desc_kernel(k)
    t, rank = k.t, k.rank
    params = []
    for letter, ot, dom, scalar in k.operands():
        params.append("%s s" % ot.cxx if scalar else "const %s *p%s" % (ot.cxx, letter))
    params.append("%s *out" % k.rt.cxx)
    params += SIZE_PARAMS[rank]
    shape = {"{SHAPE}": {1: "BLOCK", 2: "BM, BN", 3: "BB, BM, BN"}[rank],
             "{N}": {1: "BLOCK", 2: "BM * BN", 3: "BB * BM * BN"}[rank]}
    stmts = [functools.reduce(lambda s, kv: s.replace(*kv), shape.items(), st) for st in k.op.stmts or []]
    lines = ["// %s: %s" % (k.name, "; ".join(stmts) if stmts else k.expr())]
    if rank == 1:
        lines += ["template <int BLOCK>",
                  "TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))",
                  "void %s(%s) {" % (k.name, ", ".join(params)),
                  "  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();",
                  "  auto mask = offs < n;"]
    elif rank == 2:
        lines += ["template <int BM, int BN>",
                  "TILEC_KERNEL(num_warps = 4, grid = (cdiv(m, BM), cdiv(n, BN)))",
                  "void %s(%s) {" % (k.name, ", ".join(params)),
                  "  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();",
                  "  auto cols = tl::program_id(1) * BN + tl::arange<0, BN>();",
                  "  auto mask = tl::expand_dims<1>(rows < m) & tl::expand_dims<0>(cols < n);",
                  "  auto offs = tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols);"]
    else:
        lines += ["template <int BB, int BM, int BN>",
                  "TILEC_KERNEL(num_warps = 4, grid = (cdiv(batches, BB), cdiv(m, BM), cdiv(n, BN)))",
                  "void %s(%s) {" % (k.name, ", ".join(params)),
                  "  auto mats = tl::expand_dims<1>(tl::expand_dims<1>(tl::program_id(0) * BB + tl::arange<0, BB>()));",
                  "  auto rows = tl::expand_dims<0>(tl::expand_dims<1>(tl::program_id(1) * BM + tl::arange<0, BM>()));",
                  "  auto cols = tl::expand_dims<0>(tl::expand_dims<0>(tl::program_id(2) * BN + tl::arange<0, BN>()));",
                  "  auto mask = (mats < batches) & (rows < m) & (cols < n);",
                  "  auto offs = (mats * m + rows) * stride + cols;"]
    for letter, ot, dom, scalar in k.operands():
        if not scalar:
            lines.append("  auto %s = tl::load(p%s + offs, mask);" % (letter, letter))
    if k.op.stmts:
        lines += ["  " + s for s in stmts]
        lines.append("  tl::store(out + offs, r, mask);")
    else:
        lines.append("  tl::store(out + offs, %s, mask);" % k.expr())
    lines.append("}")
    types = ", ".join(("%s" if sc else "const %s *") % ot.cxx for _, ot, _, sc in k.operands())
    types += ", %s *, " % k.rt.cxx + ", ".join("int" for _ in SIZE_PARAMS[rank])
    meta = META[rank]
    lines.append("template void %s<%s>(%s);" % (k.name, meta, types))
    return "\n".join(lines) + "\n"


# Each rank's size parameters, meta-parameters and instance-name suffix.
SIZE_PARAMS = {1: ["int n"], 2: ["int m", "int n", "int stride"],
               3: ["int batches", "int m", "int n", "int stride"]}
META = {1: "%d" % RANK1["block"], 2: "%d, %d" % (RANK2["bm"], RANK2["bn"]),
        3: "%d, %d, %d" % (RANK3["bb"], RANK3["bm"], RANK3["bn"])}
SUFFIX = {r: "_" + META[r].replace(", ", "_") for r in META}


def render_source(t, rank, ks):
    head = ["// Generated by tests/matrix/gen.py: the operator matrix, element type %s, rank %d." % (t.key, rank),
            "// One kernel per elementwise operation that accepts the type; see tests/matrix/gen.py.",
            "#include <tilec/tl.hpp>", ""]
    return "\n".join(head) + "\n".join(render_kernel(k) for k in ks)


def oracle_operand(ot, element):
    """How the oracle reads an operand element: double for floats, __int128 for integers, bool."""
    if ot.is_float:
        return "matrix::asDouble(%s)" % element
    if ot.is_bool:
        return "static_cast<bool>(%s)" % element
    return "matrix::wide(%s)" % element


def launcher(k):
    """The generated host launcher's name and declaration (as tilec writes it; CUDA's type names,
    which the emulator's HIP headers share)."""
    dev = lambda ot: "difftest::DeviceType<%s>::type" % ot.cxx
    params = ["cudaStream_t"] + [dev(ot) if scalar else "const %s *" % dev(ot) for _, ot, _, scalar in k.operands()]
    params += ["%s *" % dev(k.rt)] + ["int"] * len(SIZE_PARAMS[k.rank])
    name = "launch_" + k.name + SUFFIX[k.rank]
    return name, "cudaError_t %s(%s);" % (name, ", ".join(params))


def render_run(k, seed):
    t, rank = k.t, k.rank
    name = k.name
    # Rank 3's matrices are consecutive runs of m rows: the region's rows are all of them.
    region = {1: "matrix::Region{1, %d, %d}" % (RANK1["n"], RANK1["n"]),
              2: "matrix::Region{%d, %d, %d}" % (RANK2["m"], RANK2["n"], RANK2["stride"]),
              3: "matrix::Region{%d, %d, %d}" % (RANK3["b"] * RANK3["m"], RANK3["n"], RANK3["stride"])}[rank]
    lines = ["static void run_%s(difftest::Run &run) {" % name,
             '  if (!run.selected("%s")) return;' % name,
             "  const matrix::Region region = %s;" % region]
    args_ref, args_dev, reads = [], [], []
    for i, (letter, ot, dom, scalar) in enumerate(k.operands()):
        if scalar:
            lines.append("  const %s s = %s;" % (ot.cxx, scalar_literal(ot, dom.scalar)))
            args_ref.append("s")
            args_dev.append("matrix::toDevice(s)")
            element = "s"
        else:
            lines.append("  auto %s = matrix::input<%s>(region, %s, %dull);" % (letter, ot.cxx, dom.cxx(),
                                                                               seed * 16 + i))
            args_ref.append("%s.ref()" % letter)
            args_dev.append("%s.dev()" % letter)
            element = "%s.ref()[i]" % letter
        # The oracle reads the operand as double (floats), __int128 (integers) or bool.
        reads.append("const auto %s = %s;" % (letter.upper(), oracle_operand(ot, element)))
    lines.append("  auto out = difftest::output<%s>(region.size());" % k.rt.cxx)
    args_ref.append("out.ref()")
    args_dev.append("out.dev()")
    if rank == 1:
        sizes = ["%d" % RANK1["n"]]
        grid = "tl::grid3{tl::cdiv(%d, %d)}" % (RANK1["n"], RANK1["block"])
    elif rank == 2:
        sizes = ["%d" % RANK2["m"], "%d" % RANK2["n"], "%d" % RANK2["stride"]]
        grid = "tl::grid3{tl::cdiv(%d, %d), tl::cdiv(%d, %d)}" % (RANK2["m"], RANK2["bm"], RANK2["n"], RANK2["bn"])
    else:
        sizes = ["%d" % RANK3[d] for d in ("b", "m", "n", "stride")]
        grid = "tl::grid3{tl::cdiv(%d, %d), tl::cdiv(%d, %d), tl::cdiv(%d, %d)}" % (
            RANK3["b"], RANK3["bb"], RANK3["m"], RANK3["bm"], RANK3["n"], RANK3["bn"])
    inst, launch = "%s<%s>" % (name, META[rank]), "launch_" + name + SUFFIX[rank]
    lines.append("  tl::launch(%s, %s, %s);" % (grid, inst, ", ".join(args_ref + sizes)))
    lines.append('  run.launched("%s", %s(cudaStream_t{}, %s));' % (name, launch, ", ".join(args_dev + sizes)))
    lines.append('  matrix::Check<%s> check(run, "%s", "out", out, region);' % (k.rt.cxx, name))
    lines.append("  check.poisonKept();")
    if isinstance(k, DescKernel):
        # The element the shift brings to i, or zero; wrong on purpose (the unshifted element) with
        # --mutate.
        sr, sc = (DescKernel.SHIFT_R if rank == 2 else 0), DescKernel.SHIFT_C
        stride = RANK2["stride"] if rank == 2 else RANK1["n"]
        lines.append("  check.exact([&](size_t i) -> %s {" % t.cxx)
        lines.append("    const size_t r = i / %d, c = i %% %d;" % (stride, stride))
        lines.append("    if (matrix::mutated) return a.ref()[i];")
        # (no `r >= 0` for rank 1: a comparison nvcc calls pointless, an error under -Werror)
        inside = "r >= %d && c >= %d" % (sr, sc) if sr else "c >= %d" % sc
        lines.append("    return %s ? a.ref()[(r - %d) * %d + (c - %d)] : %s(0);" % (
            inside, sr, stride, sc, t.cxx))
        lines.append("  });")
        lines.append("}")
        return "\n".join(lines) + "\n"
    body = " ".join(reads)
    oracle = k.oracle()
    if k.rt.is_float:
        ulps, floor = k.op.tol
        lines.append("  check.near([&](size_t i) -> double { %s const double o = %s; "
                     "return matrix::mutated ? o * 1.0625 + 1 : o; }, matrix::Tolerance{%d, %d});" % (
                         body, oracle, ulps, floor))
    else:
        lines.append("  check.exact([&](size_t i) { %s const auto o = static_cast<%s>(%s); "
                     "return matrix::mutated ? static_cast<%s>(o ^ 1) : o; });" % (body, k.rt.cxx, oracle, k.rt.cxx))
    if k.op.exact:
        lines.append("  check.sameBits();")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_main(t, rank, ks):
    """The host program. With MATRIX_LAUNCHERS_APART (run.py, on the emulator) it declares the
    launchers, and k.cu or k.hip is a translation unit of its own: one host object serves both
    targets. Otherwise (nvcc for a GPU, tools/gpu-matrix.sh) it includes the generated code."""
    out = ["// Generated by tests/matrix/gen.py: host program of the operator matrix, %s, rank %d." % (t.key, rank),
           '#include "matrix.h"', '#include "k.cpp"', "#if defined(MATRIX_LAUNCHERS_APART)"]
    out += [launcher(k)[1] for k in ks]
    out += ["#elif defined(TILEC_EMULATE_HIP)", '#include "k.hip"', "#else", '#include "k.cu"', "#endif", ""]
    base = TYPES.index(t) * 1000 + rank * 100000
    for i, k in enumerate(ks):
        out.append(render_run(k, base + i))
    out.append("int main(int argc, char **argv) {")
    out.append("  matrix::mutated = matrix::flag(argc, argv, \"--mutate\");")
    out.append("  difftest::Run run(argc, argv);")
    out += ["  run_%s(run);" % k.name for k in ks]
    out.append("  return run.finish();")
    out.append("}")
    return "\n".join(out) + "\n"


def rejected_of(t, rank):
    """The operations that do not accept the type: each must be a located error (run.py
    --rejections)."""
    return [Kernel(op, t, rank, "tile") for op in OPS if op.rejects(t)]


def render_rejections(t, rank, ks):
    """A source of kernels that each misuse one operation on type t; the line of each misuse."""
    text = render_source(t, rank, ks)
    lines = text.split("\n")
    where = {}
    current = None
    for i, line in enumerate(lines, 1):
        m = re.match(r"void (mx_\w+)\(", line)
        if m:
            current = m.group(1)
        if current and ("tl::store(out" in line or line.strip().startswith("r ")):
            where.setdefault(current, []).append(i)
    # The misuse is the compound assignment's line, else the store's.
    return text, {name: lines_[-1] if len(lines_) == 1 else lines_[0] for name, lines_ in where.items()}


def cells():
    return [(t, r) for t in TYPES for r in (1, 2, 3) if r < 3 or t.key in RANK3_TYPES]


def parse_cell(s):
    try:
        key, rank = s.split(":")
        if int(rank) not in (1, 2, 3):
            raise ValueError
        return BY_KEY[key], int(rank)
    except (ValueError, KeyError):
        sys.exit("gen.py: a cell is TYPE:RANK with TYPE one of %s and RANK 1, 2 or 3, not %r" % (
            ", ".join(t.key for t in TYPES), s))


def write_cell(t, rank, d):
    ks = kernels_of(t, rank)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "k.cpp"), "w") as f:
        f.write(render_source(t, rank, ks))
    with open(os.path.join(d, "main.cpp"), "w") as f:
        f.write(render_main(t, rank, ks))
    return ks


def self_test():
    total = 0
    for t, r in cells():
        ks = kernels_of(t, r)
        names = [k.name for k in ks]
        assert len(names) == len(set(names)), "duplicate kernel names in %s:%d" % (t.key, r)
        a = render_source(t, r, ks) + render_main(t, r, ks)
        b = render_source(t, r, kernels_of(t, r)) + render_main(t, r, kernels_of(t, r))
        assert a == b, "not deterministic: %s:%d" % (t.key, r)
        total += len(ks)
    print("gen.py: %d cells, %d kernels, all render deterministically" % (len(cells()), total))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cell", help="TYPE:RANK")
    ap.add_argument("--out", help="directory for k.cpp and main.cpp")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.list:
        for t, r in cells():
            ks = kernels_of(t, r)
            print("%s:%d %d kernels: %s" % (t.key, r, len(ks), " ".join(k.name[3:] for k in ks)))
        return
    if not a.cell or not a.out:
        ap.error("--cell and --out (or --list, --self-test)")
    t, r = parse_cell(a.cell)
    write_cell(t, r, a.out)


if __name__ == "__main__":
    main()

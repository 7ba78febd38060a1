#!/usr/bin/env python3
"""Random valid tilec kernels for differential testing (docs/robustness.md, "Differential testing").

Each kernel is C++ within the language of docs/language.md: elementwise expression trees over 1-D and
2-D tiles with masks, every element type and cast, reductions on either axis, `where`, integer ops with
their C semantics, scalar parameters, loops (`for`, `while`, `tl::static_range`) and `if`/`else`, at a
random block size and `num_warps`. With each kernel comes its host-side test: random inputs, the CPU
reference (the same source through tl.hpp) and the generated code's launcher on the same inputs, and a
comparison of every output.

The oracle. Every value carries what the generator knows about it: an interval bounding it, and
whether the CPU reference and the GPU compute it *exactly alike* (IEEE + - * sqrt fma, conversions,
integer ops, comparisons, min/max, where: the same bits on both sides), or only within an absolute
error bound (float sums, whose order differs; exp, exp2, log, log2, tanh, erf, sigmoid, rsqrt and float
division, which the GPU computes with approximate instructions). Operations whose result jumps with
its input (comparisons, floor/ceil, fmod, float-to-integer and float-to-bool casts, argmax/argmin) take
only exact operands, so an output is either exact (compared for equality; NaN equals NaN) or has a
derived tolerance: the propagated error bound. Intervals also keep every input within the domain of
each operation: no integer division by zero or MIN / -1, no shift by the width or more, no float to
integer conversion out of range, no log of a non-positive number, no fp16 overflow on inexact paths.

A kernel is generated from one integer seed (`Kernel(seed)`), so one failing kernel of a batch can
be regenerated and reduced (`reduce`) alone.
"""

import math
import random

# ---------------------------------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------------------------------


class Ty:
    def __init__(self, name, cpp, kind, bits, eps=0.0, fmax=0.0, tiny=0.0):
        self.name = name  # short name: the instance-name spelling tilec uses for type arguments
        self.cpp = cpp  # C++ spelling in the kernel
        self.kind = kind  # 0 bool, 1 integer, 2 floating point (Triton's kinds)
        self.bits = bits
        self.eps = eps  # unit roundoff (half an ulp at 1)
        self.fmax = fmax  # largest finite value
        self.tiny = tiny  # smallest normal
        if kind == 1:
            self.lo, self.hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        elif kind == 0:
            self.lo, self.hi = 0, 1
        else:
            self.lo, self.hi = -fmax, fmax

    is_bool = property(lambda s: s.kind == 0)
    is_int = property(lambda s: s.kind == 1)
    is_float = property(lambda s: s.kind == 2)

    def __repr__(self):
        return self.name


BOOL = Ty("b1", "bool", 0, 1)
I8 = Ty("i8", "int8_t", 1, 8)
I32 = Ty("i32", "int32_t", 1, 32)
I64 = Ty("i64", "int64_t", 1, 64)
F16 = Ty("f16", "tl::half", 2, 16, eps=2.0**-11, fmax=65504.0, tiny=2.0**-14)
BF16 = Ty("bf16", "tl::bfloat16", 2, 16, eps=2.0**-8, fmax=3.3895e38, tiny=2.0**-126)
F32 = Ty("f32", "float", 2, 32, eps=2.0**-24, fmax=3.4028e38, tiny=2.0**-126)
TYPES = [BOOL, I8, I32, I64, F16, BF16, F32]
INTS = [I8, I32, I64]
FLOATS = [F16, BF16, F32]

# Float intervals stay far from overflow so that inexact paths keep finite error bounds.
FLOAT_BOUND = {F16: 6.0e4, BF16: 1.0e30, F32: 1.0e30}


def promote(a, b):
    """Tile-tile promotion: higher kind, then wider, fp16 beats bf16 (docs/language.md)."""
    if a is b:
        return a
    if a.kind != b.kind:
        return a if a.kind > b.kind else b
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    return F16


def promote_scalar(t, s):
    """A tile of element t next to a C++ scalar of canonical type s."""
    if s.kind > t.kind:
        return s
    if s.kind == 1 and t.kind == 1 and s.bits > 32 and s.bits > t.bits:
        return s
    return t


def ulp(ty, m):
    """A generous bound on one rounding of a value of magnitude <= m in type ty (two half-ulps, plus
    the subnormal spacing)."""
    return 2.0 * ty.eps * m + ty.eps * ty.tiny


# ---------------------------------------------------------------------------------------------------
# Values and shapes
# ---------------------------------------------------------------------------------------------------


def broadcast(a, b):
    """numpy broadcasting of two shapes (tuples; () is a scalar), or None."""
    if a == ():
        return b
    if b == ():
        return a
    ra, rb = len(a), len(b)
    pa = (1,) * (2 - ra) + a
    pb = (1,) * (2 - rb) + b
    out = []
    for x, y in zip(pa, pb):
        if x != y and x != 1 and y != 1:
            return None
        out.append(max(x, y))
    r = max(ra, rb)
    return tuple(out[2 - r:])


class Val:
    """An expression with what the generator knows of it."""

    def __init__(self, ty, shape, lo, hi, text, exact=True, err=0.0, deps=frozenset(), prec=0):
        self.ty = ty
        self.shape = shape
        self.lo, self.hi = lo, hi
        self.text = text
        self.exact = exact
        self.err = 0.0 if exact else err
        self.deps = frozenset(deps)
        self.prec = prec  # 0: primary (name, call, literal); 1: needs parentheses as an operand

    @property
    def mag(self):
        return max(abs(self.lo), abs(self.hi))

    def paren(self):
        return "(" + self.text + ")" if self.prec else self.text


def clamp_int(ty, lo, hi):
    """An integer interval after wrap-around: the type's full range if it may wrap."""
    if lo < ty.lo or hi > ty.hi:
        return ty.lo, ty.hi
    return lo, hi


def cpp_number(ty, x):
    """x as a C++ literal of ty's kind that every compiler reads exactly (INT64_MIN included)."""
    if ty.is_float:
        return repr(float(x))
    x = int(x)
    if x == -(1 << 63):
        return "(-9223372036854775807ll - 1)"
    return "%dll" % x


def fmt_float(x):
    """A float literal that C++ reads as exactly this float."""
    if x == int(x) and abs(x) < 1e6:
        return "%d.0f" % int(x)
    return repr(float(x)) + "f"


# ---------------------------------------------------------------------------------------------------
# Kernel generation
# ---------------------------------------------------------------------------------------------------


class Param:
    def __init__(self, kind, name, ty, value=None, lo=None, hi=None, layout=None):
        self.kind = kind  # "in", "out", "scalar", "size"
        self.name = name
        self.ty = ty
        self.value = value  # scalar parameters: the value the test passes
        self.lo, self.hi = lo, hi  # inputs: the interval of their random values
        self.layout = layout  # inputs and outputs: how they are indexed (see Kernel.buffer_size)


class Stmt:
    def __init__(self, text, defines=(), deps=frozenset(), output=None):
        self.text = text  # one or more lines, without the final newline
        self.defines = set(defines)
        self.deps = set(deps)
        self.output = output  # the Param an output statement writes


class Kernel:
    """One random kernel; everything follows from `seed`."""

    def __init__(self, seed, name=None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.name = name or "dt%d" % (seed % 1000000007)
        self.params = []
        self.stmts = []
        self.pool = []  # values available to later statements
        self.counter = 0
        self.iters = None  # value of the loop-count parameter, if any
        self._generate()

    # -- small helpers ------------------------------------------------------------------------------

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    def add_param(self, kind, stem, ty, **kw):
        p = Param(kind, self.fresh(stem) if stem else kw.pop("name"), ty, **kw)
        self.params.append(p)
        return p

    def bind(self, v, stem="t"):
        """`auto tN = expr;` and the value named tN."""
        name = self.fresh(stem)
        self.stmts.append(Stmt("auto %s = %s;" % (name, v.text), [name], v.deps))
        nv = Val(v.ty, v.shape, v.lo, v.hi, name, v.exact, v.err, {name})
        self.pool.append(nv)
        return nv

    # -- the frame: grid, offsets, masks ------------------------------------------------------------

    def _generate(self):
        r = self.rng
        self.rank = 1 if self.chance(0.5) else 2
        self.num_warps = self.pick([1, 2, 4, 4, 8])
        # Sometimes a kernel that is not a template (rank 1): BLOCK is a local constant.
        self.plain = False
        if self.rank == 1:
            b = self.pick([16, 32, 64, 128, 256, 512, 1024])
            self.meta = [("BLOCK", b)]
            self.plain = self.chance(0.1)
            self.block = (b,)
            self.n = r.randint(1, 3 * b + 50)
        else:
            bm = self.pick([1, 2, 4, 8, 16, 32, 64])
            bn = self.pick([1, 4, 8, 16, 32, 64, 128])
            while bm * bn > 4096 or bm * bn < 4:
                bm = self.pick([1, 2, 4, 8, 16, 32, 64])
                bn = self.pick([4, 8, 16, 32, 64, 128])
            self.meta = [("BM", bm), ("BN", bn)]
            self.block = (bm, bn)
            self.m = r.randint(1, 2 * bm + 9)
            self.n = r.randint(1, 2 * bn + 9)
        self._frame()
        for _ in range(r.randint(2, 6)):
            self.pool.append(self.load())
        steps = r.randint(3, 14)
        for _ in range(steps):
            self.step()
        outs = r.randint(1, 4)
        for _ in range(outs):
            self.output()
        if not any(s.output for s in self.stmts):
            self.output()

    def _frame(self):
        if self.rank == 1:
            if self.plain:
                self.stmts.append(Stmt("constexpr int BLOCK = %d;" % self.block[0], ["BLOCK"]))
            self.stmts.append(Stmt("int pid = tl::program_id(0);", ["pid"]))
            if self.chance(0.2):
                off = "tl::max_contiguous(tl::multiple_of(pid * BLOCK + tl::arange<0, BLOCK>(), BLOCK), BLOCK)"
            else:
                off = "pid * BLOCK + tl::arange<0, BLOCK>()"
            self.stmts.append(Stmt("auto offs = %s;" % off, ["offs"], {"pid", "BLOCK"}))
            self.stmts.append(Stmt("auto mask = offs < n;", ["mask"], {"offs"}))
        else:
            self.stmts.append(Stmt("int pid_m = tl::program_id(0);", ["pid_m"]))
            self.stmts.append(Stmt("int pid_n = tl::program_id(1);", ["pid_n"]))
            self.stmts.append(Stmt("auto rows = pid_m * BM + tl::arange<0, BM>();", ["rows"], {"pid_m"}))
            self.stmts.append(Stmt("auto cols = pid_n * BN + tl::arange<0, BN>();", ["cols"], {"pid_n"}))
            self.stmts.append(Stmt("auto row_mask = rows < M;", ["row_mask"], {"rows"}))
            self.stmts.append(Stmt("auto col_mask = cols < N;", ["col_mask"], {"cols"}))
            self.stmts.append(Stmt("auto mask = tl::expand_dims<1>(row_mask) & tl::expand_dims<0>(col_mask);",
                                   ["mask"], {"row_mask", "col_mask"}))
        # The frame's values join the pool as exact integer and bool tiles.
        if self.rank == 1:
            b = self.block[0]
            hi = (self.n // b + 1) * b
            self.pool.append(Val(I32, self.block, 0, hi, "offs", deps={"offs"}))
            self.pool.append(Val(BOOL, self.block, 0, 1, "mask", deps={"mask"}))
        else:
            bm, bn = self.block
            self.pool.append(Val(I32, (bm,), 0, (self.m // bm + 1) * bm, "rows", deps={"rows"}))
            self.pool.append(Val(I32, (bn,), 0, (self.n // bn + 1) * bn, "cols", deps={"cols"}))
            self.pool.append(Val(BOOL, self.block, 0, 1, "mask", deps={"mask"}))

    def shapes(self):
        """The tile shapes this kernel works with."""
        if self.rank == 1:
            return [self.block]
        bm, bn = self.block
        return [(bm, bn), (bm, 1), (1, bn), (bn,), (bm,)]

    def ok_shape(self, s):
        return s == () or s in self.shapes()

    # -- inputs ---------------------------------------------------------------------------------------

    def input_range(self, ty):
        if ty.is_bool:
            return 0, 1
        if ty.is_int:
            return self.pick({I8: [(-100, 100), (-128, 127), (0, 20)],
                              I32: [(-1000, 1000), (-2**31, 2**31 - 1), (0, 50)],
                              I64: [(-10**6, 10**6), (-2**63, 2**63 - 1), (0, 50)]}[ty])
        return self.pick([(-1.0, 1.0), (-4.0, 4.0), (0.5, 2.0), (-100.0, 100.0), (1.0, 8.0), (-0.25, 0.25)])

    def load(self):
        """A masked load from a new input buffer, shaped as one of the kernel's tiles (or a scalar
        load: one value per program)."""
        ty = self.pick(TYPES + [F32, F32, I32])
        lo, hi = self.input_range(ty)
        if self.chance(0.12):
            p = self.add_param("in", "in", ty, lo=lo, hi=hi, layout="per_program")
            where = "pid" if self.rank == 1 else "pid_m * tl::num_programs(1) + pid_n"
            v = Val(ty, (), lo, hi, "tl::load(%s + %s)" % (p.name, where),
                    deps={"pid"} if self.rank == 1 else {"pid_m", "pid_n"})
            return self.bind(v, "x")
        if self.rank == 1:
            layout, shape = "flat", self.block
            ptr, mask = "offs", "mask"
        else:
            layout = self.pick(["2d", "2d", "2d_t", "rowvec", "colvec", "rowvec_b"])
            bm, bn = self.block
            if layout == "2d":
                shape, ptr, mask = (bm, bn), "tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols)", "mask"
            elif layout == "2d_t":  # the input stored transposed: N x M
                shape, ptr, mask = (bm, bn), "tl::expand_dims<0>(cols) * M + tl::expand_dims<1>(rows)", "mask"
            elif layout == "rowvec":  # one value per column, a 1-D tile
                shape, ptr, mask = (bn,), "cols", "col_mask"
            elif layout == "rowvec_b":  # the same as a [1, BN] tile
                shape, ptr, mask = (1, bn), "tl::expand_dims<0>(cols)", "tl::expand_dims<0>(col_mask)"
            else:  # one value per row, as a [BM, 1] tile
                shape, ptr, mask = (bm, 1), "tl::expand_dims<1>(rows)", "tl::expand_dims<1>(row_mask)"
        p = self.add_param("in", "in", ty, lo=lo, hi=hi, layout=layout)
        deps = {"offs", "mask"} if self.rank == 1 else {"rows", "cols", "row_mask", "col_mask", "mask"}
        # `other` for masked-off elements: inside the input's interval, so masked lanes stay in range.
        other = None
        if self.chance(0.6):
            other = self.literal_in(ty, lo, hi)
        elif not (lo <= 0 <= hi):
            other = self.literal_in(ty, lo, hi)
        if other is None:
            text = "tl::load(%s + %s, %s)" % (p.name, ptr, mask)
            olo, ohi = 0, 0
        else:
            text = "tl::load(%s + %s, %s, %s)" % (p.name, ptr, mask, other[0])
            olo = ohi = other[1]
        v = Val(ty, shape, min(lo, olo), max(hi, ohi), text, deps=deps)
        if ty.is_int:
            v.lo, v.hi = int(v.lo), int(v.hi)
        return self.bind(v, "x")

    def literal_in(self, ty, lo, hi):
        """(C++ text, value) of a literal of ty's kind inside [lo, hi]."""
        if ty.is_bool:
            return ("true", 1) if self.chance(0.5) else ("false", 0)
        if ty.is_int:
            v = self.rng.randint(int(max(lo, -50)), int(min(hi, 50))) if lo <= 50 and hi >= -50 else int(lo)
            if ty is I64 and self.chance(0.3):
                return ("int64_t{%d}" % v, v)
            return (str(v), v)
        v = round(self.rng.uniform(lo, hi) * 4) / 4
        v = min(max(v, lo), hi)
        if v != round(v * 4) / 4:
            v = lo
        return (fmt_float(v), v)

    # -- values for operands ------------------------------------------------------------------------

    def operand(self, pred=lambda v: True, depth=0):
        """A value from the pool satisfying pred, or a fresh subexpression; None if nothing fits."""
        cands = [v for v in self.pool if pred(v)]
        if depth < 2 and self.chance(0.25):
            v = self.expr(depth + 1)
            if v is not None and pred(v):
                return v
        return self.pick(cands) if cands else None

    def scalar_literal(self, kind):
        """A C++ scalar: (Val) of an int, float or double literal, or a scalar parameter."""
        r = self.rng
        if kind == "int":
            if self.chance(0.3):
                p = self.scalar_param(I32)
                return p
            v = r.randint(-9, 9)
            return Val(I32, (), v, v, str(v) if v >= 0 else "(%d)" % v)
        if kind == "i64":
            v = r.randint(-9, 9)
            return Val(I64, (), v, v, "int64_t{%d}" % v)
        if self.chance(0.3):
            return self.scalar_param(F32)
        v = self.pick([0.5, 1.5, 2.0, 0.25, -1.0, 3.0, -0.75])
        if self.chance(0.3):  # a double literal: an fp32 constant in Triton's rules
            return Val(F32, (), v, v, repr(v) if v >= 0 else "(%s)" % repr(v))
        return Val(F32, (), v, v, fmt_float(v) if v >= 0 else "(%s)" % fmt_float(v))

    def scalar_param(self, ty):
        for p in self.params:
            if p.kind == "scalar" and p.ty is ty:
                return Val(ty, (), p.value, p.value, p.name)
        if ty is F32:
            value = self.pick([0.5, 1.25, 2.0, -1.5, 0.75])
        else:
            value = self.rng.randint(1, 7)
        p = self.add_param("scalar", "s", ty, value=value)
        return Val(ty, (), value, value, p.name)

    # -- statements -----------------------------------------------------------------------------------

    def step(self):
        r = self.rng.random()
        if r < 0.62:
            v = self.expr(0)
            if v is not None:
                self.bind(v)
        elif r < 0.72:
            self.reduction()
        elif r < 0.76:
            self.loop()
        elif r < 0.82:
            self.chunk_loop()
        elif r < 0.87:
            self.branch()
        elif r < 0.92:
            self.pool.append(self.load())
        else:
            self.compound()

    def expr(self, depth=0):
        """One operation on pool values (or nested subexpressions)."""
        for _ in range(8):
            op = self.pick(OPS)
            v = op(self, depth)
            if v is not None and self.ok_shape(v.shape) and self.in_bounds(v):
                return v
        return None

    def in_bounds(self, v):
        if v.ty.is_float:
            if not (math.isfinite(v.lo) and math.isfinite(v.hi)):
                return False
            if v.mag > FLOAT_BOUND[v.ty]:
                return False
            if not v.exact and not (v.err < 1e-3 * max(1.0, v.mag) + 1e-3):
                return False  # an error bound this loose would make the comparison meaningless
        return True

    # -- reductions -------------------------------------------------------------------------------------

    def reduction(self):
        kind = self.pick(["sum", "sum", "max", "min", "argmax", "argmin"])
        arg = kind.startswith("arg")
        x = self.operand(lambda v: v.shape != () and not (arg and (v.ty.is_bool or not v.exact)))
        if x is None:
            return
        axes = [None]
        if len(x.shape) == 2:
            axes += [0, 1, -1, -2]
        elif len(x.shape) == 1:
            axes += [0, -1]
        axis = self.pick(axes)
        if axis is None:
            shape, n = (), math.prod(x.shape)
            call = "tl::%s(%s)" % (kind, x.text)
        else:
            a = axis % len(x.shape)
            shape = tuple(d for i, d in enumerate(x.shape) if i != a)
            n = x.shape[a]
            call = "tl::%s<%d>(%s)" % (kind, axis, x.text)
        if shape not in self.shapes() and shape != ():
            return
        if kind == "sum":
            ty = I32 if x.ty in (BOOL, I8) else x.ty
            if ty.is_int:
                lo, hi = clamp_int(ty, n * min(x.lo, 0), n * max(x.hi, 0))
                v = Val(ty, shape, lo, hi, call, deps=x.deps)
            else:
                m = n * x.mag
                if m > FLOAT_BOUND[ty]:
                    return
                # Both orders (sequential on the CPU, a tree on the GPU) stay within
                # (n - 1) * eps * sum|x| of the exact sum, on top of the operands' own errors.
                err = n * x.err + 2 * (n + 1) * ty.eps * m + n * ty.eps * ty.tiny
                v = Val(ty, shape, n * min(x.lo, 0), n * max(x.hi, 0), call, exact=False, err=err, deps=x.deps)
        elif kind in ("max", "min"):
            v = Val(x.ty, shape, x.lo, x.hi, call, x.exact, x.err, x.deps)
        else:
            v = Val(I32, shape, 0, n - 1, call, deps=x.deps)
        if not self.in_bounds(v):
            return
        self.bind(v, "r")

    # -- control flow -----------------------------------------------------------------------------------

    def iters_param(self):
        if self.iters is None:
            self.iters = self.rng.randint(0, 4)
            self.params.append(Param("scalar", "iters", I32, value=self.iters))
        return self.iters

    def loop(self):
        """An accumulator updated in a loop: `for`, `while` or `tl::static_range`."""
        x = self.operand(lambda v: v.shape != () and v.ty.kind >= 1)
        if x is None:
            return
        ty = x.ty
        style = self.pick(["for", "while", "static"])
        if style == "static":
            begin, step = self.rng.randint(0, 3), self.pick([1, 1, 2, 3, -1, -2])
            count = self.rng.randint(0, 4)
            end = begin + count * step  # (the range stops before end)
            if step < 0:
                begin, end = begin + 9, begin + 9 + count * step
            count = len(range(begin, end, step))
        else:
            count = self.iters_param()
        acc = self.fresh("acc")
        init_v = self.literal_in(ty, 0, 2)
        lines = ["auto %s = tl::full<%s, %s>(%s);" % (acc, ty.cpp, ", ".join(self.dims_text(x.shape)), init_v[0])]
        # The body adds x times a small integer that depends on the iteration (i % 3 + 1): the loop
        # variable reaches the tile code.
        if style == "static":
            head = "for (int i : tl::static_range<%d, %d%s>()) {" % (begin, end, "" if step == 1 else ", %d" % step)
            tail = ["}"]
            ivar = "i"
        elif style == "for":
            head = "for (int i = 0; i < iters; ++i) {"
            tail = ["}"]
            ivar = "i"
        else:
            lines.append("int %s_i = 0;" % acc)
            head = "while (%s_i < iters) {" % acc
            ivar = "%s_i" % acc
            tail = ["  %s_i += 1;" % acc, "}"]
        lines.append(head)
        lines.append("  %s += %s * (%s %% 3 + 1);" % (acc, x.paren(), ivar))
        lines.extend(tail)
        n = count
        lo, hi = init_v[1] + 3 * n * min(x.lo, 0), init_v[1] + 3 * n * max(x.hi, 0)
        if ty.is_int:
            lo, hi = clamp_int(ty, int(lo), int(hi))
            v = Val(ty, x.shape, lo, hi, acc, True, 0.0, {acc})
        else:
            # acc += x * k rounds in the same order on both sides: exact when x is; otherwise each
            # iteration adds x's error (times k <= 3) and two roundings.
            m = max(abs(lo), abs(hi))
            v = Val(ty, x.shape, lo, hi, acc, x.exact, 3 * n * x.err + 2 * (n + 1) * ulp(ty, m), {acc})
        if not self.in_bounds(v):
            return
        self.stmts.append(Stmt("\n".join(lines), [acc], set(x.deps) | ({"iters"} if style != "static" else set())))
        self.pool.append(v)

    def chunk_loop(self):
        """A loop over `iters` chunks of a new input: each iteration loads the next chunk (through a
        pointer tile advanced by `+=`, or by offset), computes with it and with values from before
        the loop, and accumulates into a tile and, sometimes, a scalar (a reduction per iteration)."""
        iters = self.iters_param()
        ty = self.pick([F32, F32, I32, I64, F16, BF16, I8])
        lo, hi = self.input_range(ty)
        if self.rank == 1:
            shape, off, mask, layout = self.block, "offs", "mask", "chunks"
            stride = "n"
        else:
            shape, layout = self.block, "chunks2d"
            off, mask, stride = "tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols)", "mask", "M * N"
        p = self.add_param("in", "in", ty, lo=lo, hi=hi, layout=layout)
        c = self.fresh("c")
        acc = self.fresh("acc")
        by_pointer = self.chance(0.5)
        lines = []
        if by_pointer:
            ptr = self.fresh("ptr")
            lines.append("auto %s = %s + %s;" % (ptr, p.name, off))
            load = "tl::load(%s, %s)" % (ptr, mask)
        else:
            load = "tl::load(%s + %s * %s + %s, %s)" % (p.name, c, stride, off, mask)
        v = Val(ty, shape, min(lo, 0), max(hi, 0), "v", deps=set())
        # The body: an expression of the chunk and of values from before the loop.
        saved = self.pool
        self.pool = [x for x in saved if x.shape != () or True] + [v]
        body = None
        for _ in range(6):
            e = self.expr(1)
            if e is not None and "v" in e.deps and e.shape == shape and e.ty.kind >= 1:
                body = e
                break
        self.pool = saved
        if body is None:
            body = v
        bty = body.ty
        init = self.literal_in(bty, 0, 1)
        lines.append("auto %s = tl::full<%s, %s>(%s);" % (acc, bty.cpp, ", ".join(self.dims_text(shape)), init[0]))
        scalar = None
        if self.chance(0.5):
            scalar = self.fresh("total")
            if ty.is_float:
                lines.append("float %s = 0.0f;" % scalar)
            else:
                lines.append("%s %s = 0;" % ("int64_t" if ty is I64 else "int", scalar))
        lines.append("for (int %s = 0; %s < iters; ++%s) {" % (c, c, c))
        lines.append("  auto v = %s;" % load)
        lines.append("  %s += %s;" % (acc, body.text))
        n = math.prod(shape)
        if scalar:
            lines.append("  %s += tl::sum(v);" % scalar)
        if by_pointer:
            lines.append("  %s += %s;" % (ptr, stride))
        lines.append("}")
        deps = (set(body.deps) - {"v"}) | {"offs", "mask"} if self.rank == 1 else \
            (set(body.deps) - {"v"}) | {"rows", "cols", "mask"}
        self.stmts.append(Stmt("\n".join(lines), [acc] + ([scalar] if scalar else []), deps))
        # acc: init + iters * body, in the same order on both sides (exact when the body is).
        blo, bhi = init[1] + iters * min(body.lo, 0), init[1] + iters * max(body.hi, 0)
        if bty.is_int:
            blo, bhi = clamp_int(bty, int(blo), int(bhi))
            self.pool.append(Val(bty, shape, blo, bhi, acc, True, 0.0, {acc}))
        elif bty.is_float:
            m = max(abs(blo), abs(bhi))
            av = Val(bty, shape, blo, bhi, acc, body.exact, iters * (body.err + ulp(bty, m)), {acc})
            if self.in_bounds(av):
                self.pool.append(av)
        if scalar:
            # total += tl::sum(v): a C++ scalar (int, int64_t or float) of the chunk sums.
            sty = I32 if ty in (BOOL, I8) else (F32 if ty.is_float else ty)
            vlo, vhi = min(lo, 0), max(hi, 0)
            if sty.is_int:
                slo, shi = clamp_int(sty, int(iters * n * vlo), int(iters * n * vhi))
                self.pool.append(Val(sty, (), slo, shi, scalar, True, 0.0, {scalar}))
            else:
                m = iters * n * max(abs(vlo), abs(vhi))
                # Each chunk's sum is rounded in its own type (fp16 sums round at every step).
                err = iters * (2 * (n + 1) * ty.eps * n * max(abs(vlo), abs(vhi)) + ulp(F32, m))
                sv = Val(F32, (), iters * n * vlo, iters * n * vhi, scalar, False, err, {scalar})
                if self.in_bounds(sv):
                    self.pool.append(sv)

    def dims_text(self, shape):
        return [str(d) for d in shape]

    def branch(self):
        """`if`/`else` on a scalar condition, assigning one of two values of the same type."""
        a = self.operand(lambda v: v.shape != ())
        if a is None:
            return
        b = self.operand(lambda v: v.shape == a.shape and v is not a and self.castable(v, a.ty))
        if b is None:
            return
        var = self.fresh("sel")
        pid = "pid" if self.rank == 1 else "pid_n"
        size = "n" if self.rank == 1 else "N"
        cond = self.pick(["%s %% 2 == 0" % pid, "%s < 1" % pid, "%s > %d" % (size, self.rng.randint(1, 40))])
        cb = self.cast_val(b, a.ty)
        text = "auto %s = %s;\nif (%s) {\n  %s = %s;\n}" % (var, a.text, cond, var, cb.text)
        lo, hi, exact, err = self.join_range(a, cb)
        deps = set(a.deps) | set(b.deps) | ({"pid"} if self.rank == 1 else {"pid_n"})
        if self.chance(0.5):
            c = self.operand(lambda v: v.shape == a.shape and self.castable(v, a.ty))
            if c is not None:
                cc = self.cast_val(c, a.ty)
                text += " else {\n  %s = %s;\n}" % (var, cc.text)
                # Both branches assign: a's value is overwritten either way.
                lo, hi, exact, err = self.join_range(cb, cc)
                deps |= set(c.deps)
        self.stmts.append(Stmt(text, [var], deps))
        self.pool.append(Val(a.ty, a.shape, lo, hi, var, exact, err, {var}))

    def join_range(self, a, b):
        return min(a.lo, b.lo), max(a.hi, b.hi), a.exact and b.exact, max(a.err, b.err)

    def compound(self):
        """`a op= b` on a fresh copy: the result converted back to a's type."""
        a = self.operand(lambda v: v.shape != () and v.ty.kind >= 1)
        if a is None:
            return
        b = self.operand(lambda v: broadcast(v.shape, a.shape) == a.shape and v.ty.kind >= 1)
        if b is None:
            return
        op = self.pick(["+", "-", "*", "+", "-", "*", "&", "|", "^", "/", "%"])
        rhs = b.text
        if op in "+-*":
            res = arith(self, op, a, b)
        elif op in "&|^":
            if a.ty.is_float or b.ty.is_float:
                return
            ty = result_type(a, b)
            res = Val(ty, a.shape, ty.lo, ty.hi, "", True, 0.0, set(a.deps) | set(b.deps))
        else:
            if not (a.ty.is_int and b.ty.is_int):
                return
            # An integer divisor in [1, 16] (b & 15 keeps b's type).
            rhs = "(%s & 15) + 1" % b.paren()
            ty = result_type(a, b)
            lo, hi = (min(a.lo, 0), max(a.hi, 0)) if op == "/" else (-15 if a.lo < 0 else 0, 15 if a.hi > 0 else 0)
            res = Val(ty, a.shape, lo, hi, "", True, 0.0, set(a.deps) | set(b.deps))
        if res is None or not self.in_bounds(res):
            return
        back = self.cast_val(res, a.ty)
        if back is None or not self.in_bounds(back):
            return
        var = self.fresh("c")
        self.stmts.append(Stmt("auto %s = %s;\n%s %s= %s;" % (var, a.text, var, op, rhs), [var],
                               set(a.deps) | set(b.deps)))
        self.pool.append(Val(a.ty, a.shape, back.lo, back.hi, var, back.exact, back.err, {var}))

    # -- conversions ------------------------------------------------------------------------------------

    def castable(self, v, ty):
        return self.cast_val(v, ty) is not None

    def cast_val(self, v, ty, text=None):
        """The value of tl::cast<ty>(v), or None where the conversion is undefined or would compare
        values that jump (an inexact float to an integer or bool)."""
        text = text or "tl::cast<%s>(%s)" % (ty.cpp, v.text)
        if ty is v.ty:
            return Val(ty, v.shape, v.lo, v.hi, v.text, v.exact, v.err, v.deps, v.prec)
        if ty.is_bool:
            if v.ty.is_float and not v.exact:
                return None
            lo, hi = (0, 1)
            if v.lo > 0 or v.hi < 0:
                lo = 1
            if v.lo == 0 and v.hi == 0:
                hi = 0
            return Val(BOOL, v.shape, lo, hi, text, True, 0.0, v.deps)
        if ty.is_int:
            if v.ty.is_float:
                if not v.exact:
                    return None
                if v.lo <= ty.lo or v.hi >= ty.hi:
                    return None
                return Val(ty, v.shape, int(math.trunc(v.lo)), int(math.trunc(v.hi)), text, True, 0.0, v.deps)
            lo, hi = clamp_int(ty, int(v.lo), int(v.hi))
            return Val(ty, v.shape, lo, hi, text, True, 0.0, v.deps)
        # to a float type
        if v.mag > FLOAT_BOUND[ty]:
            return None
        err = 0.0 if v.exact else v.err + ulp(ty, v.mag)
        return Val(ty, v.shape, float(v.lo), float(v.hi), text, v.exact, err, v.deps)

    # -- outputs ------------------------------------------------------------------------------------------

    def output(self):
        cands = [v for v in self.pool if v.text not in ("offs", "mask", "rows", "cols")] or self.pool
        v = self.pick(cands)
        out_ty = v.ty
        if self.chance(0.25):  # store through a conversion (tl::store's implicit tl::cast)
            t = self.pick(TYPES)
            if self.castable(v, t):
                out_ty = t
        stored = self.cast_val(v, out_ty, text=v.text)
        if stored is None or not self.in_bounds(stored):
            return
        if self.rank == 1:
            layouts = {(self.block[0],): "flat", (): "per_program"}
        else:
            bm, bn = self.block
            layouts = {(bm, bn): "2d", (bm, 1): "per_row", (1, bn): "per_col", (bn,): "per_col_1d",
                       (bm,): "per_row_1d", (): "per_program"}
        layout = layouts.get(v.shape)
        if layout == "2d" and self.chance(0.3):
            layout = "2d_t"  # stored transposed: N x M
        if layout is None:
            return
        p = self.add_param("out", "out", out_ty, layout=layout)
        p.tol = None if stored.exact else stored.err + ulp(out_ty, stored.mag)
        p.value_range = (stored.lo, stored.hi)
        extra = ""
        if self.rank == 1:
            where = {"flat": ("offs", "mask"), "per_program": ("pid", None)}[layout]
        else:
            where = {
                "2d": ("tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols)", "mask"),
                "2d_t": ("tl::expand_dims<0>(cols) * M + tl::expand_dims<1>(rows)", "mask"),
                "per_row": ("pid_n * M + tl::expand_dims<1>(rows)", "tl::expand_dims<1>(row_mask)"),
                "per_row_1d": ("pid_n * M + rows", "row_mask"),
                "per_col": ("pid_m * N + tl::expand_dims<0>(cols)", "tl::expand_dims<0>(col_mask)"),
                "per_col_1d": ("pid_m * N + cols", "col_mask"),
                "per_program": ("pid_m * tl::num_programs(1) + pid_n", None),
            }[layout]
        ptr, mask = where
        # Sometimes a mask that also depends on the data (an exact bool tile of the same shape).
        if mask is not None and self.chance(0.3):
            extra_m = [b for b in self.pool if b.ty.is_bool and b.exact and b.shape == v.shape and b.text != "mask"]
            if extra_m:
                m = self.pick(extra_m)
                mask = "%s & %s" % (mask, m.paren())
                extra = m
        deps = set(v.deps) | ({"offs", "mask", "pid"} if self.rank == 1 else
                              {"rows", "cols", "row_mask", "col_mask", "mask", "pid_m", "pid_n"})
        if extra:
            deps |= set(extra.deps)
        if mask is None:
            text = "tl::store(%s + %s, %s);" % (p.name, ptr, v.text)
        else:
            text = "tl::store(%s + %s, %s, %s);" % (p.name, ptr, v.text, mask)
        self.stmts.append(Stmt(text, [], deps, output=p))

    # -- rendering ------------------------------------------------------------------------------------------

    def grid(self):
        if self.rank == 1:
            return (-(-self.n // self.block[0]), 1)
        return (-(-self.m // self.block[0]), -(-self.n // self.block[1]))

    def signature(self):
        """(type, name) of each parameter."""
        parts = []
        for p in self.params:
            if p.kind == "in":
                parts.append(("const %s *" % p.ty.cpp, p.name))
            elif p.kind == "out":
                parts.append(("%s *" % p.ty.cpp, p.name))
            else:
                parts.append(("%s " % p.ty.cpp, p.name))
        parts += [("int ", "n")] if self.rank == 1 else [("int ", "M"), ("int ", "N")]
        return parts

    def template_args(self):
        return ", ".join(str(v) for _, v in self.meta)

    def instance(self):
        if self.plain:
            return self.name + "_instance"
        return self.name + "_" + "_".join(str(v) for _, v in self.meta)

    def reference(self):
        """The CPU reference's function (an instantiation, or the plain function)."""
        return self.name if self.plain else "%s<%s>" % (self.name, self.template_args())

    def source(self):
        """The kernel and its explicit instantiation."""
        tparams = ", ".join("int %s" % k for k, _ in self.meta)
        if self.rank == 1:
            grid = "cdiv(n, %s)" % (self.block[0] if self.plain else "BLOCK")
        else:
            grid = "cdiv(M, BM), cdiv(N, BN)"
        sig = self.signature()
        lines = ["// seed %d" % self.seed]
        if not self.plain:
            lines.append("template <%s>" % tparams)
        lines += ["TILEC_KERNEL(num_warps = %d, grid = (%s))" % (self.num_warps, grid),
                  "void %s(%s) {" % (self.name, ", ".join(t + n for t, n in sig))]
        for s in self.live_stmts():
            for line in s.text.split("\n"):
                lines.append("  " + line)
        lines.append("}")
        if not self.plain:
            types = ", ".join(t.strip() for t, _ in sig)
            lines.append("template void %s<%s>(%s);" % (self.name, self.template_args(), types))
        return "\n".join(lines) + "\n"

    def live_stmts(self):
        """Statements that outputs need (dead code removed: the reducer drops outputs)."""
        need = set()
        keep = []
        for s in reversed(self.stmts):
            if s.output is not None or s.defines & need:
                keep.append(s)
                need |= s.deps
        return list(reversed(keep))

    def buffer_size(self, p):
        gm, gn = self.grid()
        if p.layout in ("chunks", "chunks2d"):
            return self.iters * (self.n if self.rank == 1 else self.m * self.n)
        if self.rank == 1:
            return {"flat": self.n, "per_program": gm}[p.layout]
        return {"2d": self.m * self.n, "2d_t": self.m * self.n, "rowvec": self.n, "rowvec_b": self.n,
                "colvec": self.m, "per_row": gn * self.m, "per_row_1d": gn * self.m,
                "per_col": gm * self.n, "per_col_1d": gm * self.n, "per_program": gm * gn}[p.layout]

    def harness(self):
        """The host function that runs this kernel both ways and compares (difftest.h)."""
        live_outs = {s.output.name for s in self.live_stmts() if s.output is not None}
        gm, gn = self.grid()
        L = ["static void run_%s(difftest::Run &run) {" % self.name,
             "  if (!run.selected(\"%s\")) return;" % self.name]
        sizes = ["%d" % self.n] if self.rank == 1 else ["%d" % self.m, "%d" % self.n]
        args_ref, args_dev = [], []
        for i, p in enumerate(self.params):
            if p.kind == "in":
                L.append("  auto %s = difftest::input<%s>(%d, %s, %s, %dull);" % (
                    p.name, p.ty.cpp, self.buffer_size(p), cpp_number(p.ty, p.lo), cpp_number(p.ty, p.hi),
                    (self.seed * 1000003 + i) % (1 << 62)))
                args_ref.append("%s.ref()" % p.name)
                args_dev.append("%s.dev()" % p.name)
            elif p.kind == "out":
                L.append("  auto %s = difftest::output<%s>(%d);" % (p.name, p.ty.cpp, self.buffer_size(p)))
                args_ref.append("%s.ref()" % p.name)
                args_dev.append("%s.dev()" % p.name)
            else:
                val = repr(float(p.value)) + "f" if p.ty is F32 else str(p.value)
                args_ref.append(val)
                args_dev.append(val)
        args_ref += sizes
        args_dev += sizes
        L.append("  tl::launch(tl::grid3{%d, %d}, %s, %s);" % (gm, gn, self.reference(), ", ".join(args_ref)))
        L.append("  run.launched(\"%s\", launch_%s(cudaStream_t{}, %s));" % (self.name, self.instance(),
                                                                          ", ".join(args_dev)))
        for p in self.params:
            if p.kind == "out" and p.name in live_outs:
                tol = "-1.0" if p.tol is None else repr(p.tol)
                L.append("  %s.compare(run, \"%s\", \"%s\", %s);" % (p.name, self.name, p.name, tol))
        L.append("}")
        return "\n".join(L) + "\n"

    def describe(self):
        return "%s: rank %d, block %s, num_warps %d, %d statements, %d outputs" % (
            self.name, self.rank, "x".join(str(v) for _, v in self.meta), self.num_warps,
            len(self.live_stmts()), sum(1 for s in self.live_stmts() if s.output is not None))


# ---------------------------------------------------------------------------------------------------
# Operations: each takes the kernel and a depth, picks operands, returns a Val or None
# ---------------------------------------------------------------------------------------------------


def result_type(a, b):
    """Element type of an elementwise op on a and b (tiles or scalars), as tl.hpp computes it."""
    if a.shape != () and b.shape != ():
        return promote(a.ty, b.ty)
    if a.shape != ():
        return promote_scalar(a.ty, b.ty)
    if b.shape != ():
        return promote_scalar(b.ty, a.ty)
    return promote(a.ty, b.ty)


def arith(k, op, a, b):
    """a op b for + - * with Triton promotion; None if undefined or out of bounds."""
    shape = broadcast(a.shape, b.shape)
    if shape is None or shape == ():
        return None
    ty = result_type(a, b)
    if ty.is_bool:
        return None
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty)
    if ca is None or cb is None:
        return None
    text = "%s %s %s" % (a.paren(), op, b.paren())
    deps = set(a.deps) | set(b.deps)
    if op == "+":
        lo, hi = ca.lo + cb.lo, ca.hi + cb.hi
    elif op == "-":
        lo, hi = ca.lo - cb.hi, ca.hi - cb.lo
    else:
        ps = [ca.lo * cb.lo, ca.lo * cb.hi, ca.hi * cb.lo, ca.hi * cb.hi]
        lo, hi = min(ps), max(ps)
    if ty.is_int:
        lo, hi = clamp_int(ty, int(lo), int(hi))
        return Val(ty, shape, lo, hi, text, True, 0.0, deps, 1)
    exact = ca.exact and cb.exact
    m = max(abs(lo), abs(hi))
    if op == "*":
        err = ca.mag * cb.err + cb.mag * ca.err + ca.err * cb.err
    else:
        err = ca.err + cb.err
    return Val(ty, shape, lo, hi, text, exact, err + ulp(ty, m), deps, 1)


def op_arith(k, depth):
    op = k.pick(["+", "-", "*", "+", "-"])
    a = k.operand(lambda v: not v.ty.is_bool or v.shape != (), depth)
    if a is None:
        return None
    if k.chance(0.3) and a.shape != ():
        b = k.scalar_literal(k.pick(["int", "float", "i64"]))
        if k.chance(0.5):
            a, b = b, a
    else:
        b = k.operand(lambda v: broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    return arith(k, op, a, b)


def op_div(k, depth):
    """Integer / and % with a divisor in [1, 16]; float / by a value bounded away from zero."""
    a = k.operand(lambda v: v.shape != () and v.ty.kind >= 1, depth)
    if a is None:
        return None
    if a.ty.is_int:
        b = k.operand(lambda v: v.ty.is_int and broadcast(v.shape, a.shape) is not None, depth)
        if b is None:
            return None
        ty = result_type(a, b)
        # (b & 15) + 1 keeps b's element type (the literals are int32 and do not join an integer
        # tile), so the divisor is in [1, 16] and never 0 or -1.
        dv = Val(b.ty, b.shape, 1, 16, "(%s & 15) + 1" % b.paren(), deps=b.deps, prec=1)
        op = k.pick(["/", "%"])
        shape = broadcast(a.shape, b.shape)
        ca = k.cast_val(a, ty, a.text)
        if op == "/":
            lo, hi = min(ca.lo, ca.lo // 16 if ca.lo < 0 else 0, 0), max(ca.hi, 0)
        else:
            lo, hi = (-15 if ca.lo < 0 else 0), (15 if ca.hi > 0 else 0)
        return Val(ty, shape, lo, hi, "%s %s (%s)" % (a.paren(), op, dv.text), True, 0.0,
                   set(a.deps) | set(b.deps), 1)
    b = k.operand(lambda v: v.ty.kind >= 1 and broadcast(v.shape, a.shape) is not None
                  and (v.ty.is_float or v.ty.is_int), depth)
    if b is None:
        return None
    shape = broadcast(a.shape, b.shape)
    ty = result_type(a, b)
    if not ty.is_float:
        return None
    if k.chance(0.3) and a.exact and b.exact:
        # fmod: exact in IEEE arithmetic, but it jumps, so both operands must be exact.
        # The divisor in the result's type (an integer b would make `tl::abs(b) + 1.0f` a float
        # tile, and the remainder a float one).
        cb = k.cast_val(b, ty)
        if cb is None or not cb.exact:
            return None
        den = Val(ty, b.shape, 1.0, cb.mag + 1.0, "tl::abs(%s) + 1.0f" % cb.paren(), deps=b.deps, prec=1)
        ca = k.cast_val(a, ty, a.text)
        if ca is None:
            return None
        m = min(ca.mag, den.hi)
        return Val(ty, shape, -m if ca.lo < 0 else 0.0, m if ca.hi > 0 else 0.0,
                   "%s %% (%s)" % (a.paren(), den.text), True, 0.0, set(a.deps) | set(b.deps), 1)
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty)
    if ca is None or cb is None:
        return None
    # Divide by |b| + 1 (at least 1): the quotient is bounded, and the GPU's approximate division
    # (2 ulp) plus the operands' errors bound the difference.
    q_hi = ca.mag
    err = ca.err + ca.mag * cb.err + 4 * ulp(ty, q_hi)
    return Val(ty, shape, -q_hi if ca.lo < 0 else 0.0, q_hi if ca.hi > 0 else 0.0,
               "%s / (tl::abs(%s) + 1.0f)" % (a.paren(), cb.paren()), False, err,
               set(a.deps) | set(b.deps), 1)


def op_compare(k, depth):
    a = k.operand(lambda v: v.exact, depth)
    if a is None:
        return None
    b = k.operand(lambda v: v.exact and broadcast(v.shape, a.shape) is not None and
                  (v.ty.is_bool == a.ty.is_bool or True), depth)
    if b is None or (a.shape == () and b.shape == ()):
        return None
    shape = broadcast(a.shape, b.shape)
    op = k.pick(["<", "<=", ">", ">=", "==", "!="])
    return Val(BOOL, shape, 0, 1, "%s %s %s" % (a.paren(), op, b.paren()), True, 0.0,
               set(a.deps) | set(b.deps), 1)


def op_logic(k, depth):
    """& | ^ on bool or integer tiles; && || on anything exact."""
    a = k.operand(lambda v: v.shape != () and (v.ty.kind <= 1), depth)
    if a is None:
        return None
    b = k.operand(lambda v: v.ty.kind <= 1 and broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    shape = broadcast(a.shape, b.shape)
    if k.chance(0.25):
        op = k.pick(["&&", "||"])
        return Val(BOOL, shape, 0, 1, "%s %s %s" % (a.paren(), op, b.paren()), True, 0.0,
                   set(a.deps) | set(b.deps), 1)
    ty = result_type(a, b)
    op = k.pick(["&", "|", "^"])
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty, b.text)
    if ty.is_bool:
        lo, hi = 0, 1
    elif ca.lo >= 0 and cb.lo >= 0:
        top = (1 << max(int(ca.hi), int(cb.hi)).bit_length()) - 1
        lo, hi = 0, (min(ca.hi, cb.hi) if op == "&" else top)
    else:
        lo, hi = ty.lo, ty.hi
    return Val(ty, shape, lo, hi, "%s %s %s" % (a.paren(), op, b.paren()), True, 0.0,
               set(a.deps) | set(b.deps), 1)


def op_shift(k, depth):
    a = k.operand(lambda v: v.shape != () and v.ty.is_int, depth)
    if a is None:
        return None
    w = a.ty.bits
    b = k.operand(lambda v: v.ty.is_int and broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    shape = broadcast(a.shape, b.shape)
    op = k.pick(["<<", ">>"])
    # The amount is b & (w - 1): in [0, w) for a non-negative mask, in the left operand's width.
    amount = "(%s & %d)" % (b.paren(), w - 1)
    if op == ">>":
        lo, hi = min(a.lo, -1 if a.lo < 0 else 0), max(a.hi, 0)
    else:
        lo, hi = a.ty.lo, a.ty.hi
    return Val(a.ty, shape, lo, hi, "%s %s %s" % (a.paren(), op, amount), True, 0.0,
               set(a.deps) | set(b.deps), 1)


def op_unary(k, depth):
    a = k.operand(lambda v: v.shape != (), depth)
    if a is None:
        return None
    choice = k.pick(["-", "~", "!", "abs"])
    if choice == "-":
        if a.ty.is_bool:
            return None
        if a.ty.is_int:
            lo, hi = clamp_int(a.ty, -int(a.hi), -int(a.lo))
        else:
            lo, hi = -a.hi, -a.lo
        return Val(a.ty, a.shape, lo, hi, "-%s" % a.paren(), a.exact, a.err, a.deps, 1)
    if choice == "~":
        if a.ty.is_float:
            return None
        if a.ty.is_bool:
            return Val(BOOL, a.shape, 0, 1, "~%s" % a.paren(), True, 0.0, a.deps, 1)
        return Val(a.ty, a.shape, -int(a.hi) - 1, -int(a.lo) - 1, "~%s" % a.paren(), True, 0.0, a.deps, 1)
    if choice == "!":
        if a.ty.is_float and not a.exact:
            return None
        return Val(BOOL, a.shape, 0, 1, "!%s" % a.paren(), True, 0.0, a.deps, 1)
    if a.ty.is_int:
        if a.lo == a.ty.lo:
            lo, hi = a.ty.lo, a.ty.hi
        else:
            lo, hi = (0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))), max(abs(a.lo), abs(a.hi))
    elif a.ty.is_bool:
        lo, hi = a.lo, a.hi
    else:
        lo, hi = (0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))), a.mag
    return Val(a.ty, a.shape, lo, hi, "tl::abs(%s)" % a.text, a.exact, a.err, a.deps)


def op_where(k, depth):
    c = k.operand(lambda v: v.ty.is_bool and v.exact, depth)
    if c is None:
        return None
    a = k.operand(lambda v: broadcast(v.shape, c.shape) is not None, depth)
    if a is None:
        return None
    b = k.operand(lambda v: broadcast(broadcast(v.shape, c.shape) or (), a.shape) is not None, depth)
    if b is None:
        return None
    shape = broadcast(broadcast(c.shape, a.shape), b.shape)
    if shape is None or shape == ():
        return None
    ty = result_type(a, b)
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty)
    if ca is None or cb is None:
        return None
    lo, hi, exact, err = k.join_range(ca, cb)
    return Val(ty, shape, lo, hi, "tl::where(%s, %s, %s)" % (c.text, a.text, b.text), exact, err,
               set(c.deps) | set(a.deps) | set(b.deps))


def op_minmax(k, depth):
    a = k.operand(lambda v: True, depth)
    if a is None:
        return None
    b = k.operand(lambda v: broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    shape = broadcast(a.shape, b.shape)
    if shape == ():
        return None
    ty = result_type(a, b)
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty)
    if ca is None or cb is None:
        return None
    f = k.pick(["maximum", "minimum"])
    if f == "maximum":
        lo, hi = max(ca.lo, cb.lo), max(ca.hi, cb.hi)
    else:
        lo, hi = min(ca.lo, cb.lo), min(ca.hi, cb.hi)
    return Val(ty, shape, lo, hi, "tl::%s(%s, %s)" % (f, a.text, b.text), ca.exact and cb.exact,
               max(ca.err, cb.err), set(a.deps) | set(b.deps))


def op_cast(k, depth):
    a = k.operand(lambda v: v.shape != (), depth)
    if a is None:
        return None
    ty = k.pick(TYPES)
    if ty is a.ty:
        return None
    return k.cast_val(a, ty)


def op_math(k, depth):
    """Math functions on float tiles, with domains kept by construction."""
    a = k.operand(lambda v: v.shape != () and v.ty.is_float, depth)
    if a is None:
        return None
    ty, m, e = a.ty, a.mag, a.err
    f = k.pick(["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sigmoid", "tanh", "erf", "floor", "ceil", "fma"])
    deps = a.deps
    if f in ("exp", "exp2"):
        if a.hi > 20 or a.lo < -60:
            return None
        base = math.e if f == "exp" else 2.0
        hi, lo = base ** a.hi, base ** a.lo
        # ex2.approx: 2 ulp, plus the rounding of x * log2(e) for exp: relative (|x| + 4) * 2^-22.
        rel = e * math.log(base) + (m + 4) * 2.0**-22
        err = hi * rel * 1.01 + 4 * ulp(ty, hi)
        return Val(ty, a.shape, lo, hi, "tl::%s(%s)" % (f, a.text), False, err, deps)
    if f in ("log", "log2"):
        # log(|x| + 1): the argument is at least 1.
        arg_hi = m + 1.0
        hi = math.log(arg_hi) / (1.0 if f == "log" else math.log(2.0))
        err = e * (1.0 if f == "log" else 1.0 / math.log(2.0)) + 4 * ulp(ty, max(hi, 1.0))
        return Val(ty, a.shape, 0.0, hi, "tl::%s(tl::abs(%s) + 1.0f)" % (f, a.text), False, err, deps)
    if f == "sqrt":
        # sqrt(|x|): correctly rounded on both sides, so exact for an exact operand.
        hi = math.sqrt(m)
        lo = 0.0 if a.lo <= 0 <= a.hi else math.sqrt(min(abs(a.lo), abs(a.hi)))
        err = math.sqrt(e) + ulp(ty, hi)
        return Val(ty, a.shape, lo, hi, "tl::sqrt(tl::abs(%s))" % a.text, a.exact, err, deps)
    if f == "rsqrt":
        hi = 1.0
        lo = 1.0 / math.sqrt(m + 1.0)
        err = 0.5 * e + 4 * ulp(ty, 1.0)
        return Val(ty, a.shape, lo, hi, "tl::rsqrt(tl::abs(%s) + 1.0f)" % a.text, False, err, deps)
    if f == "sigmoid":
        lo, hi = 1 / (1 + math.exp(-max(a.lo, -80))), 1 / (1 + math.exp(-min(a.hi, 80)))
        err = 0.25 * e + 8 * ulp(ty, 1.0)
        return Val(ty, a.shape, lo, hi, "tl::sigmoid(%s)" % a.text, False, err, deps)
    if f == "tanh":
        return Val(ty, a.shape, math.tanh(a.lo), math.tanh(a.hi), "tl::tanh(%s)" % a.text, False,
                   e + 4 * ulp(ty, 1.0), deps)
    if f == "erf":
        return Val(ty, a.shape, math.erf(a.lo), math.erf(a.hi), "tl::erf(%s)" % a.text, False,
                   1.13 * e + 4 * ulp(ty, 1.0), deps)
    if f in ("floor", "ceil"):
        if not a.exact:
            return None
        fn = math.floor if f == "floor" else math.ceil
        return Val(ty, a.shape, float(fn(a.lo)), float(fn(a.hi)), "tl::%s(%s)" % (f, a.text), True, 0.0, deps)
    # fma(a, b, c)
    b = k.operand(lambda v: v.ty.is_float and broadcast(v.shape, a.shape) is not None, depth)
    c = k.operand(lambda v: v.ty.is_float and broadcast(v.shape, a.shape) is not None, depth)
    if b is None or c is None:
        return None
    shape = broadcast(broadcast(a.shape, b.shape), c.shape)
    if shape is None:
        return None
    rty = promote(promote(a.ty, b.ty), c.ty)
    ca, cb, cc = (k.cast_val(x, rty, x.text) for x in (a, b, c))
    if None in (ca, cb, cc):
        return None
    ps = [ca.lo * cb.lo, ca.lo * cb.hi, ca.hi * cb.lo, ca.hi * cb.hi]
    lo, hi = min(ps) + cc.lo, max(ps) + cc.hi
    exact = ca.exact and cb.exact and cc.exact
    err = ca.mag * cb.err + cb.mag * ca.err + ca.err * cb.err + cc.err + ulp(rty, max(abs(lo), abs(hi)))
    return Val(rty, shape, lo, hi, "tl::fma(%s, %s, %s)" % (a.text, b.text, c.text), exact, err,
               set(a.deps) | set(b.deps) | set(c.deps))


def op_broadcast(k, depth):
    """expand_dims / broadcast_to between the kernel's shapes."""
    if k.rank == 1:
        return None
    bm, bn = k.block
    a = k.operand(lambda v: v.shape in ((bm,), (bn,), (bm, 1), (1, bn)), depth)
    if a is None:
        return None
    if a.shape == (bm,):
        return Val(a.ty, (bm, 1), a.lo, a.hi, "tl::expand_dims<1>(%s)" % a.text, a.exact, a.err, a.deps)
    if a.shape == (bn,):
        if k.chance(0.5):
            return Val(a.ty, (1, bn), a.lo, a.hi, "tl::expand_dims<0>(%s)" % a.text, a.exact, a.err, a.deps)
        return Val(a.ty, (bm, bn), a.lo, a.hi, "tl::broadcast_to<BM, BN>(%s)" % a.text, a.exact, a.err, a.deps)
    return Val(a.ty, (bm, bn), a.lo, a.hi, "tl::broadcast_to<BM, BN>(%s)" % a.text, a.exact, a.err, a.deps)


def op_create(k, depth):
    """tl::zeros / tl::full of one of the kernel's shapes."""
    shape = k.pick([sh for sh in k.shapes() if len(sh) >= 1])
    ty = k.pick(TYPES)
    dims = ", ".join(k.dims_text(shape))
    if k.chance(0.3):
        v = 0
        return Val(ty, shape, v, v, "tl::zeros<%s, %s>()" % (ty.cpp, dims))
    text, v = k.literal_in(ty, -4, 4)
    return Val(ty, shape, v, v, "tl::full<%s, %s>(%s)" % (ty.cpp, dims, text))


def op_cdiv(k, depth):
    """tl::cdiv on integer tiles: (a + d - 1) / d with d = (b & 15) + 1 in [1, 16]."""
    a = k.operand(lambda v: v.shape != () and v.ty.is_int, depth)
    if a is None:
        return None
    b = k.operand(lambda v: v.ty.is_int and broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    ty = result_type(a, b)
    lo, hi = min(a.lo, 0), max(a.hi, 0) + 1
    if a.hi + 15 > ty.hi:
        lo, hi = ty.lo, ty.hi  # a + d - 1 may wrap
    return Val(ty, broadcast(a.shape, b.shape), lo, hi, "tl::cdiv(%s, (%s & 15) + 1)" % (a.text, b.paren()),
               True, 0.0, set(a.deps) | set(b.deps))


def op_scalar_where(k, depth):
    """tl::where with a scalar condition on the program index."""
    a = k.operand(lambda v: v.shape != (), depth)
    if a is None:
        return None
    b = k.operand(lambda v: broadcast(v.shape, a.shape) is not None, depth)
    if b is None:
        return None
    pid = "pid" if k.rank == 1 else k.pick(["pid_m", "pid_n"])
    ty = result_type(a, b)
    ca, cb = k.cast_val(a, ty, a.text), k.cast_val(b, ty)
    if ca is None or cb is None:
        return None
    lo, hi, exact, err = k.join_range(ca, cb)
    cond = k.pick(["%s %% 2 == 1" % pid, "%s == tl::num_programs(%d) - 1" % (pid, 0 if pid != "pid_n" else 1)])
    return Val(ty, broadcast(a.shape, b.shape), lo, hi, "tl::where(%s, %s, %s)" % (cond, a.text, b.text),
               exact, err, set(a.deps) | set(b.deps) | {pid})


OPS = [op_arith, op_arith, op_arith, op_div, op_compare, op_logic, op_shift, op_unary, op_where,
       op_minmax, op_cast, op_cast, op_math, op_math, op_broadcast, op_create, op_cdiv, op_scalar_where]


# ---------------------------------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------------------------------


def batch_source(kernels):
    return ("// Generated by tests/difftest/gen.py: random kernels for differential testing.\n"
            "#include <tilec/tl.hpp>\n\n" + "\n".join(k.source() for k in kernels))


def batch_harness(kernels, kernel_file):
    names = [k.name for k in kernels]
    out = ["// Generated by tests/difftest/gen.py: runs each kernel on the CPU reference and through",
           "// the generated code's launcher, on the same random inputs, and compares every output.",
           '#include "difftest.h"',
           '#include "%s.cpp"' % kernel_file,
           "#if defined(TILEC_EMULATE_HIP)",
           '#include "%s.hip"' % kernel_file,
           "#else",
           '#include "%s.cu"' % kernel_file,
           "#endif",
           ""]
    for k in kernels:
        out.append(k.harness())
    out.append("int main(int argc, char **argv) {")
    out.append("  difftest::Run run(argc, argv);")
    for n in names:
        out.append("  run_%s(run);" % n)
    out.append("  return run.finish();")
    out.append("}")
    return "\n".join(out) + "\n"


def self_test(count):
    """Every kernel of seeds 0..count-1 renders, has an output, and renders the same twice."""
    bad = 0
    for seed in range(count):
        a, b = Kernel(seed), Kernel(seed)
        text = a.source() + a.harness()
        if text != b.source() + b.harness():
            print("gen.py: seed %d renders differently twice" % seed)
            bad += 1
        if not any(st.output is not None for st in a.live_stmts()):
            print("gen.py: seed %d has no output" % seed)
            bad += 1
    print("gen.py: %d kernels, %d problems" % (count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test(int(sys.argv[2])))
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py SEED (prints the kernel and its host function) | gen.py --self-test COUNT")
    k = Kernel(int(sys.argv[1]))
    print(batch_source([k]))
    print(k.harness())

#!/usr/bin/env python3
"""Adversarial valid programs for tilec (docs/robustness.md, "Adversarial programs").

Metamorphic testing: every program is one of gen.py's random kernels (valid by construction, with a
known meaning), rewritten by transformations that keep it valid C++ and keep its meaning, but that
stress what a translator's naming, parsing and printing must get right. Its outputs must still
compile warning-free with nvcc and hipcc and match the CPU reference of the rewritten source on the
emulator (difftest.py --adversarial runs them through that pipeline).

A unit is generated from one integer seed: its primary gen.py kernel (gen.Kernel(seed)), sometimes a
partner kernel or two (also gen.py kernels, from seeds derived from it), and the transformations,
each chosen (or not) from the seed:

1. Hostile names. The kernel's parameters, locals and meta-parameters (template parameters) are
   renamed, injectively, to identifiers that the generated CUDA/HIP itself uses or that CUDA, HIP or
   the C++ library define: NUM_THREADS, NUM_WARPS, L0, X_VEC, i, smem, config, grid, stream,
   cudaSuccess, cudaStream_t, hipLaunchKernelGGL, dim3, threadIdx, warpSize, expf, min, max, abs,
   tilec, std, main, launch, TILEC_WARP_SIZE, cudaStreamPerThread...; the kernel's own name, its
   instance name (`<kernel>_<args>`) and launcher name (`launch_<instance>`); names with a leading
   underscore that are not reserved (`_x`, `_`), long names, names differing only in case. The pool
   also holds every identifier of tilec's golden outputs (golden/*/*.cu, *.hip) and every macro the
   runtime headers define. Excluded: keywords, reserved identifiers, the macros of the C++ reference
   context (`<tilec/tl.hpp>` and what it includes, with the standard headers the host programs add:
   PROBE_HEAD, as the host compiler's `-dM -E` lists them), the identifiers the kernel itself uses
   for something else (its types), and for kernel and namespace names seen from the global scope
   whatever the host compiler refuses to declare there (probed once per process).
2. Namespaces and overloads. Kernels in namespaces (nested, `inline`, anonymous), the explicit
   instantiation inside the namespace or outside with a qualified name (also through an inline
   namespace), and partners: a twin (same name, same template arguments, another namespace), an
   overload (same name and template arguments, other parameter types), `k<A, B>` beside a kernel
   `k_A` instantiated `<B>`, a plain (non-template) kernel beside a template one of the same or a
   similar name, and `k` beside `K`. The harness finds each kernel's launcher in tilec's output: the
   function after the `/// Launches NAME<ARGS>` comment (parameter types tell overloads apart);
   it does not assume tilec's naming scheme.
3. Constants. Integer literals respelled with the same type and value (hex, octal, binary, digit
   separators, `static_cast<int>`, `int{}`, constexpr locals); in template arguments and
   `program_id` axes, where only the value counts, also char literals and `u`/`l`/`ll` suffixes;
   in `int64_t{}` `l`/`ll` suffixes and `INT64_MAX + INT64_MIN + ...`; float literals as hex
   floats, with exponents, with other suffix case; the same in the `TILEC_KERNEL` settings (integer
   literals only, each of type int) and in the explicit instantiation's template arguments.
4. Whitespace and line endings. CRLF (whole units or line by line, so a batch mixes them), tabs, form
   feeds, vertical tabs, line splices (backslash-newline) between tokens and inside identifiers,
   numbers and operators; block and line comments between tokens with `??/`, `*/`-like text, quotes,
   backslashes and lone CRs (in block comments); a backslash, `??/` or a backslash followed by
   spaces at the end of a line comment (followed by another comment line, so that either reading
   of the splice means the same); no final newline at the end of the file.
5. Deep nesting. Redundant parentheses (up to 50 deep) around names, literals and whole
   initializers; the rest of the body wrapped in nested `{ }` blocks, `if` on a scalar parameter that
   is true at run time (or on `true`), `if (!p) {} else {...}`, and loops of one iteration (`for`
   with a runtime bound, `while`, `tl::static_range` counting up or down).
6. Functions of your own (docs/language.md). Parts of the kernel move into helper functions that it
   calls and tilec inlines: the initializer of `auto tN = EXPR;` (or a part of it), the right side of
   an assignment or compound assignment in straight-line code and loop bodies, an `if`'s condition,
   become a call whose arguments are the expression's free variables (meta-parameters as template
   arguments). A helper is a function template (`class T` parameters, abbreviated `auto`
   parameters, tile dims deduced) or a plain function with the exact types the generator knows,
   taking each parameter by value or by `const &` (east const too), named as the arguments, afresh,
   or with the arguments' names swapped around; returning `auto`, `decltype(auto)` or the exact
   tile type (also as a trailing return type); its body a return, locals computed step by step (some
   named as the kernel's variables), a call of another helper, or an `if constexpr` at its end
   choosing the return; literals as parameters with default arguments; in the kernel's scope, in a
   namespace (nested, `A::B`, inline, anonymous), or a static member of a struct, class or class
   template (meta-parameters as its template arguments), sometimes named as one of tl's operations
   or of the generated code where the call is qualified; sometimes declared before the kernel and
   defined after it (out of its class too). Some declarations are computed twice (a second variable
   from the same call, read by some later statements). Stores `tl::store(P, V, M)` move into void
   helpers taking the pointer (or its base and offsets), the value and the mask. A call whose
   function has statements (locals, copies of arguments, defaults) never goes where tilec documents
   that it cannot run them: a loop's condition, the right of `&&` or `||`, a branch of `?:`.

The transformations reach into `TILEC_KERNEL(...)` too (the `settings` key of --transforms).

Every transformed program must still be valid C++ meaning what the untransformed kernel means:
`--self-test N` renders N units twice (alike), compiles them with the host compiler beside their
untransformed kernels, and runs both CPU references on the same inputs: their outputs must be equal
bit for bit. Units put into one batch (one translation unit) whose declarations would clash get a
namespace of their own (`dtN`).

  adversarial.py SEED           print one unit: its kernels and the CPU reference wrappers
  adversarial.py --self-test N  the generator's own checks (CTest: difftest.adversarial.generator)
  difftest.py --adversarial ... run units through tilec, nvcc, hipcc and the emulator
  difftest.py --adversarial --transforms all,no-settings ...   only some transformations (triage)
  difftest.py --adversarial --transforms +functions ...        one of them in every unit
"""

import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

# ---------------------------------------------------------------------------------------------------
# C++ tokens
# ---------------------------------------------------------------------------------------------------

PUNCTS = sorted("""<=> ... ->* <<= >>= :: -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##
                   .* { } [ ] ( ) < > ; : , . ? ~ ! + - * / % ^ & | = #""".split(), key=len, reverse=True)
TOKEN_RE = re.compile(
    r"(?P<ws>(?:[ \t\f\v\r\n]|\\[ \t]*\r?\n)+)"
    r"|(?P<comment>//[^\r\n]*|/\*.*?\*/)"
    r"|(?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<char>'(?:\\.|[^'\\\n])*')"
    r"|(?P<string>\"(?:\\.|[^\"\\\n])*\")"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in PUNCTS) + r")"
    r"|(?P<other>.)", re.S)


class Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos=0):
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self):
        return "%s:%r" % (self.kind, self.text)


def tokenize(text):
    return [Tok(m.lastgroup, m.group(), m.start()) for m in TOKEN_RE.finditer(text)]


KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return
    co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for
    friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
    protected public register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned
    using virtual void volatile wchar_t while xor xor_eq import module""".split())
TYPE_WORDS = {"auto", "int", "float", "bool", "double", "char", "long", "int8_t", "int32_t", "int64_t", "void"}


def reserved(name, global_scope=False):
    return "__" in name or re.match(r"_[A-Z]", name) is not None or (global_scope and name.startswith("_"))


# ---------------------------------------------------------------------------------------------------
# The name pool
# ---------------------------------------------------------------------------------------------------

# Names the generated code uses, CUDA/HIP/the C++ library define, or tilec's runtime headers define.
HOSTILE = """NUM_THREADS NUM_WARPS SMEM_BYTES L0 L1 L2 L3 X_VEC OUT_STORE_VEC X_LOAD_VEC ELEMS BLOCK BM BN M N n
    i j k smem config grid stream cudaSuccess cudaError_t cudaStream_t cudaLaunchKernelEx cudaLaunchConfig_t
    cudaGetLastError cudaStreamPerThread cudaStreamLegacy cudaEventDefault hipStreamPerThread hipSuccess
    hipLaunchKernelGGL hipGetLastError hipError_t hipStream_t dim3 uint3 uint4 float4 int4 half2 threadIdx
    blockIdx blockDim gridDim warpSize expf exp2f logf log2f sqrtf rsqrtf tanhf erff floorf ceilf fabsf fmaf
    fmaxf fminf min max abs tilec rt std main launch tl cuda hip emu detail TILEC_WARP_SIZE TILEC_UNROLL
    TILEC_NO_UNROLL TILEC_CHECK_VECTOR_ACCESS TILEC_NOINLINE num_warps cdiv load store cast where sum
    x_load x_smem x_part sum_x max_x mask_store offs_store load_vec store_vec coord0 lane Blocked1 Blocked2
    fdiv sigmoid pid offs mask rows cols assert size_t uint32_t printf exit memcpy final override _ _x _0 x_
    run only half nv_bfloat16 hip_bfloat16 isnan isinf signbit atomicAdd make_float2 uint8_t
    uint64_t ptrdiff_t CUDART_INF_F cudaDeviceSynchronize hipDeviceSynchronize cudaMalloc
    syncthreads""".split()


# The context the source's names are checked in: the CPU reference's (<tilec/tl.hpp>), and the standard
# headers the host programs include beside the generated code (difftest.h) or the source (the
# self-test): a name they declare at global scope would clash there, not in tilec's output.
PROBE_HEAD = "#include <tilec/tl.hpp>\n" + "".join("#include <%s>\n" % h for h in (
    "cmath", "cstdint", "cstdio", "cstdlib", "cstring", "limits", "memory", "random", "string", "type_traits",
    "vector"))


class Pool:
    """The names to draw from, by role, filtered through the host compiler once per process."""

    _lock = threading.Lock()
    _cache = {}

    def __init__(self, cxx):
        self.cxx = cxx
        found = set(HOSTILE)
        for d in sorted(os.listdir(os.path.join(ROOT, "golden"))):
            p = os.path.join(ROOT, "golden", d)
            if not os.path.isdir(p):
                continue
            for f in sorted(os.listdir(p)):
                if f.endswith((".cu", ".hip")):
                    with open(os.path.join(p, f)) as fh:
                        found |= {t.text for t in tokenize(fh.read()) if t.kind == "ident"}
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "runtime_headers"))):
            for f in sorted(files):
                with open(os.path.join(dirpath, f)) as fh:
                    found |= set(re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", fh.read(), re.M))
        self.macros = self._macros()  # in the reference's context and the host programs' (PROBE_HEAD)
        # tl.hpp's own macros are the kernel source's under Clang (tilec) even where the host
        # compiler does not define them (TILEC_KERNEL_ANNOTATE_ is Clang's only): no name for a user.
        with open(os.path.join(ROOT, "runtime_headers", "tilec", "tl.hpp")) as fh:
            self.macros |= set(re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", fh.read(), re.M))
        local = sorted(n for n in found if n not in KEYWORDS and not reserved(n) and n not in self.macros)
        self.local = local
        self.hostile = [n for n in HOSTILE if n in set(local)]
        bad_fn = self._probe(local, "template <int B_> void %s(const float *, int);")
        bad_plain = self._probe(local, "void %s(const float *, int);")
        bad_ns = self._probe(local, "namespace %s {}")
        self.global_fn = [n for n in local if n not in bad_fn and n not in bad_plain and not reserved(n, True)
                          and n not in ("main", "std", "tl")]
        # Namespaces std and posix are the library's; tl and tilec may be reopened, but only around a
        # namespace of the unit's own (see Unit.namespace_path); a namespace main would clash with the
        # host program's main() where the generated code is included (a harness's limit, not tilec's).
        self.global_ns = [n for n in local if n not in bad_ns and not reserved(n, True)
                          and n not in ("std", "posix", "main")]
        # Names the reference's context does not declare at global scope at all.
        self.global_free = set(self.global_fn) & set(self.global_ns) - {"tl", "tilec"}

    @classmethod
    def get(cls, cxx="g++"):
        with cls._lock:
            if cxx not in cls._cache:
                cls._cache[cxx] = Pool(cxx)
            return cls._cache[cxx]

    def _run(self, text, extra):
        d = tempfile.mkdtemp(prefix="tilec-adversarial-")
        try:
            with open(os.path.join(d, "p.cpp"), "w") as f:
                f.write(text)
            p = subprocess.run([self.cxx, "-std=c++20", "-I", os.path.join(ROOT, "runtime_headers")] + extra +
                               ["p.cpp"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            return p.stdout.decode("utf-8", "replace")
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def _macros(self):
        out = self._run(PROBE_HEAD, ["-dM", "-E"])
        return set(re.findall(r"^#define ([A-Za-z_]\w*)", out, re.M))

    def _probe(self, names, decl):
        """The names that the host compiler refuses in `decl` at global scope after tl.hpp."""
        lines = [decl % n for n in names]
        out = self._run(PROBE_HEAD + "\n".join(lines) + "\n", ["-fsyntax-only", "-fmax-errors=0", "-w"])
        bad = set()
        first = PROBE_HEAD.count("\n") + 1
        for m in re.finditer(r"^p\.cpp:(\d+):\d+: error:", out, re.M):
            i = int(m.group(1)) - first
            if 0 <= i < len(names):
                bad.add(names[i])
        return bad


# ---------------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------------


def with_separators(rng, digits, prefix=""):
    """Digit separators at random places between the digits."""
    if len(digits) < 2 or rng.random() < 0.4:
        return prefix + digits
    out = digits[0]
    for c in digits[1:]:
        if rng.random() < 0.4:
            out += "'"
        out += c
    return prefix + out


def int_spelling(rng, v, ctx):
    """v >= 0 spelled as an integer constant. ctx: 'int' (the type must stay int), 'value' (only the
    value counts: template arguments, axes), 'i64' (int64_t{...}: any integer type, value kept),
    'ann' (TILEC_KERNEL settings: a literal of type int)."""
    forms = ["dec", "hex", "oct", "bin"]
    if ctx in ("int", "value", "i64"):
        forms += ["cast", "brace", "func"]
    if ctx == "value":
        forms += ["char", "suffix", "suffix"]
    if ctx == "i64":
        forms += ["ll", "ll", "extreme"]
    f = rng.choice(forms)
    if v >= 2**31 and f not in ("ll", "dec"):
        f = "dec"
    if f == "dec":
        return with_separators(rng, str(v))
    if f == "hex":
        return with_separators(rng, ("%x" if rng.random() < 0.5 else "%X") % v, rng.choice(["0x", "0X"]))
    if f == "oct":
        return "0" if v == 0 and rng.random() < 0.5 else with_separators(rng, "0%o" % v)
    if f == "bin":
        return with_separators(rng, "%s" % bin(v)[2:], rng.choice(["0b", "0B"]))
    inner = int_spelling(rng, v, "ann")
    if f == "cast":
        return "static_cast<int>(%s)" % inner
    if f == "brace":
        return "int{%s}" % inner
    if f == "func":
        return "int(%s)" % inner
    if f == "char":
        if v >= 128:
            return str(v)
        c = rng.choice(["x", "o", "p"])
        if c == "p" and 32 < v < 127 and chr(v) not in "'\\":
            return "'%s'" % chr(v)
        if c == "o" or v == 0:
            return "'\\%o'" % v
        return "'\\x%x'" % v
    if f == "suffix":
        return inner + rng.choice(["u", "U", "l", "L", "ll", "LL", "ul", "uLL", "Lu", "ull"])
    if f == "ll":
        return inner + rng.choice(["l", "L", "ll", "LL"])
    # extreme: INT64_MAX + INT64_MIN is -1 (int64_t); the sum never leaves int64_t.
    return "(INT64_MAX + INT64_MIN + %s)" % int_spelling(rng, v + 1, "ann")


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def hex_float(x):
    h = float(x).hex()  # 0x1.4000000000000p+1
    m = re.match(r"(-?)0x([01])\.?([0-9a-f]*)p([+-]\d+)", h)
    sign, lead, frac, exp = m.groups()
    frac = frac.rstrip("0")
    return "%s0x%s%sp%s" % (sign, lead, "." + frac if frac else "", exp)


def float_spelling(rng, text):
    """A float literal (gen.py's spelling) respelled: same type, same value."""
    is_f = text[-1] in "fF"
    body = text[:-1] if is_f else text
    v = float(body)
    if is_f:
        v = f32(v)
    suffix = rng.choice(["f", "F"]) if is_f else ""
    form = rng.choice(["hex", "exp", "exp", "dot", "plain"])
    if form == "hex":
        h = hex_float(v)
        if rng.random() < 0.3:
            h = h.upper().replace("0X", "0X")
        return h + suffix
    r = repr(v)  # shortest round trip of the (float-exact) value
    if "e" in r or "E" in r:
        mant, e = r.lower().split("e")
        e = int(e)
    else:
        mant, e = r, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    fp = fp.rstrip("0")
    digits = (ip + fp).lstrip("0") or "0"
    e -= len(fp)
    if form == "exp":
        return "%s%s%d%s" % (digits, rng.choice(["e", "E"]), e, suffix)
    if form == "dot" and e == -len(fp):
        # 0.25 -> .25, 2 -> 2.
        s = "%s.%s" % (ip if ip != "0" else "", fp)
        if s == ".":
            s = "0."
        return s + suffix
    return body + ("0" if "." in body and "e" not in body.lower() else "") + suffix


# ---------------------------------------------------------------------------------------------------
# One kernel, transformed
# ---------------------------------------------------------------------------------------------------


class Arg:
    """A kernel parameter: one of gen's (in, out, scalar), a size, or an extra one (always true)."""

    def __init__(self, kind, cpp, name, value=None, param=None, index=None):
        self.kind = kind  # in, out, scalar, size, extra
        self.cpp = cpp  # C++ type as written
        self.name = name  # the name before renaming
        self.value = value  # scalars, sizes, extras: the argument's text
        self.param = param  # gen.Param
        self.index = index  # index in gen's params (input seeds)


def canon_type(cpp):
    """(pointer, base) of a C++ parameter type, whatever spelling: gen's or the generated code's."""
    ptr = cpp.count("*")
    base = cpp.replace("*", " ").replace("const", " ")
    base = " ".join(base.split())
    if "bf16" in base or "bfloat" in base:
        b = "bf16"
    elif "f16" in base or "half" in base:
        b = "f16"
    elif "float" in base:
        b = "f32"
    elif "int64" in base or "long" in base:
        b = "i64"
    elif "int8" in base or "char" in base:
        b = "i8"
    elif "bool" in base:
        b = "b1"
    elif "int" in base:
        b = "i32"
    else:
        b = base
    return (ptr, b)


class AdvKernel:
    """A gen.Kernel with its rendering decisions: name, namespace path, plain or template."""

    def __init__(self, g, name, path, plain=None):
        self.g = g
        self.name = name
        self.path = path  # [(name or None for anonymous, inline)]
        self.plain = g.plain if plain is None else plain
        self.inst_outside = False
        self.inst_via_inline = False
        self.args = []  # filled by render

    def template_args(self):
        return ", ".join(str(v) for _, v in self.g.meta)

    def instance_names(self):
        """Names tilec gives this kernel's instance today (only as more hostile names)."""
        inst = self.name + ("_instance" if self.plain else "_" + "_".join(str(v) for _, v in self.g.meta))
        return [inst, "launch_" + inst]

    def base_args(self):
        g = self.g
        args = []
        for i, p in enumerate(g.params):
            if p.kind == "in":
                args.append(Arg("in", "const %s *" % p.ty.cpp, p.name, param=p, index=i))
            elif p.kind == "out":
                args.append(Arg("out", "%s *" % p.ty.cpp, p.name, param=p, index=i))
            else:
                val = repr(float(p.value)) + "f" if p.ty is gen.F32 else str(p.value)
                args.append(Arg("scalar", "%s " % p.ty.cpp, p.name, value=val, param=p, index=i))
        if g.rank == 1:
            args.append(Arg("size", "int ", "n", value=str(g.n)))
        else:
            args.append(Arg("size", "int ", "M", value=str(g.m)))
            args.append(Arg("size", "int ", "N", value=str(g.n)))
        return args

    def signature_key(self):
        return (not self.plain, len(self.g.meta), tuple(canon_type(a.cpp) for a in self.base_args()))

    def qualified(self, unit_ns=None):
        """The kernel as the reference wrapper names it."""
        segs = ([unit_ns] if unit_ns else []) + [n for n, _ in self.path if n is not None]
        q = "::" + "::".join(segs + [self.name])
        return q if self.plain else "%s<%s>" % (q, self.template_args())

    def descriptions(self, unit_ns=None):
        """The ways tilec may print this kernel in its `/// Launches ...` comment (spaces removed)."""
        full = ([unit_ns] if unit_ns else []) + [n if n is not None else "(anonymousnamespace)" for n, _ in self.path]
        no_inline = ([unit_ns] if unit_ns else []) + [n for n, inl in self.path if n is not None and not inl]
        named = ([unit_ns] if unit_ns else []) + [n for n, _ in self.path if n is not None]
        t = "" if self.plain else "<%s>" % self.template_args().replace(" ", "")
        out = []
        for segs in (full, named, no_inline, []):
            for lead in ("", "::"):
                out.append(lead + "::".join(segs + [self.name]) + t)
        return out


# Statement-level declarations in gen.py's kernels (and ours): `auto x =`, `int i =`, `for (int i :`.
DECL_RE = re.compile(r"\b(?:auto|int|float|bool|double|int64_t|int32_t|int8_t)\s+([A-Za-z_]\w*)\s*[=:;]")


class Renderer:
    """Renders one AdvKernel with the unit's transformation choices (rng: the unit's render rng)."""

    def __init__(self, unit, k, rng, pool):
        self.unit, self.k, self.rng, self.pool = unit, k, rng, pool
        self.opts = unit.opts
        self.counter = 0

    def fresh(self, stem):
        self.counter += 1
        return "%s_%d" % (stem, self.counter)

    def chance(self, p):
        return self.rng.random() < p

    # -- the kernel's text before the token transformations -----------------------------------------

    def render(self):
        k, g, o = self.k, self.k.g, self.opts
        args = k.base_args()
        body = [s.text for s in g.live_stmts()]
        if k.plain and not g.plain:
            # Made plain here: BLOCK becomes a local constant, as in gen.py's own plain kernels.
            body.insert(0, "constexpr int BLOCK = %d;" % g.block[0])
        metas = [] if k.plain else [n for n, _ in g.meta]
        # Functions of your own: parts of the statements move into helpers (before the wrappers, which
        # then wrap their calls).
        helpers_before = helpers_after = ""
        self.outliner = None
        if o.get("functions"):
            frng = random.Random("adversarial-functions-%d-%d-%d" % (self.unit.seed, len(g.stmts),
                                                                      self.unit.kernels.index(k)))
            ol = Outliner(self, k, frng, metas or (["BLOCK"] if g.rank == 1 else []), args)
            body = ol.apply(body)
            helpers_before, helpers_after = ol.render()
            self.outliner = ol
        # Deep nesting: the rest of the body from some statement on, wrapped.
        wrappers = []
        extra = {}
        if o.get("nesting"):
            n_wrap = self.rng.choice([1, 2, 3, 4, 6, 8]) if not self.chance(0.15) else self.rng.randint(20, 40)
            for _ in range(n_wrap):
                at = self.rng.randint(0, len(body))
                kind = self.rng.choice(["block", "block", "if", "if_true", "if_else", "for", "for_down", "static",
                                        "static_down", "while"])
                if kind in ("if", "if_else") and "always" not in extra:
                    extra["always"] = Arg("extra", self.rng.choice(["bool ", "int "]), "always",
                                          value="1")
                if kind in ("for", "for_down", "while") and "one" not in extra:
                    extra["one"] = Arg("extra", "int ", "one", value="1")
                wrappers.append((at, kind, self.fresh("q")))
            wrappers.sort(key=lambda w: w[0])
        for a in extra.values():
            args.insert(self.rng.randint(0, len(args)), a)
        k.args = args
        lines = []
        closers = []
        wi = 0
        for i in range(len(body) + 1):
            while wi < len(wrappers) and wrappers[wi][0] == i:
                _, kind, q = wrappers[wi]
                opener, closer = self.wrapper(kind, q, extra)
                lines.extend(opener)
                closers.append(closer)
                wi += 1
            if i < len(body):
                lines.extend(body[i].split("\n"))
        for c in reversed(closers):
            lines.extend(c)
        # Redundant parentheses around whole initializers.
        if o.get("parens"):
            for i, line in enumerate(lines):
                m = re.match(r"^(auto \w+ = )(.*);$", line)
                if m and self.chance(0.3):
                    d = self.depth()
                    lines[i] = m.group(1) + "(" * d + m.group(2) + ")" * d + ";"
        body_text = "\n".join(lines)
        # The pieces: the template header, the settings, the signature, the body.
        if g.rank == 1:
            grid = "cdiv(n, %s)" % (g.block[0] if k.plain else "BLOCK")
        else:
            grid = "cdiv(M, BM), cdiv(N, BN)"
        ann = "num_warps = %d, grid = (%s)" % (g.num_warps, grid)
        header = "" if k.plain else "template <%s>\n" % ", ".join("int %s" % n for n in metas)
        # Constants (before renaming: constexpr locals become names of the kernel too).
        consts = []
        if o.get("constants"):
            body_text = self.constants(body_text, "body", consts)
            if helpers_before or helpers_after:
                # The helpers' literals too (no constexpr locals there: a helper without statements
                # stays one).
                helpers_before = self.constants(helpers_before, "body", None)
                helpers_after = self.constants(helpers_after, "body", None)
            if self.chance(0.5) and o.get("settings"):
                ann = self.constants(ann, "ann", consts)
        if consts:
            body_text = "\n".join(consts) + "\n" + body_text
        if o.get("parens"):
            body_text = self.parens(body_text, "body")
            if o.get("settings"):
                ann = self.parens(ann, "ann")
        sig = ", ".join(a.cpp + a.name for a in args)
        text = "%s%sTILEC_KERNEL(%s)\nvoid KERNEL_NAME_PLACEHOLDER(%s) {\n%s\n}\n%s" % (
            helpers_before, header, ann, sig, "\n".join("  " + l for l in body_text.split("\n")), helpers_after)
        # Names (the helpers' parameters and locals are renamed alike).
        own = set(metas) | {a.name for a in args} | set(DECL_RE.findall(body_text))
        if self.outliner is not None:
            own |= set(self.outliner.own)
        mapping = self.names(text, own, metas)
        if mapping:
            toks = tokenize(text)
            text = "".join(mapping.get(t.text, t.text) if t.kind == "ident" and not self.after_scope(toks, j)
                           else t.text for j, t in enumerate(toks))
        text = text.replace("KERNEL_NAME_PLACEHOLDER", k.name)
        inst = ""
        if not k.plain:
            types = ", ".join(a.cpp.strip() for a in args)
            targs = k.template_args()
            if o.get("constants") and self.chance(0.5):
                # The explicit instantiation's arguments: only their values count.
                targs = ", ".join(int_spelling(self.rng, v, "value") for _, v in g.meta)
            inst = "template void %%s<%s>(%s);\n" % (targs, types)
        return text, inst

    @staticmethod
    def after_scope(toks, j):
        """Whether token j follows `::` or `.` (a member, not one of the kernel's names)."""
        i = j - 1
        while i >= 0 and toks[i].kind in ("ws", "comment"):
            i -= 1
        return i >= 0 and toks[i].text in ("::", ".", "->")

    def depth(self):
        if self.chance(0.1):
            return self.rng.randint(20, 50)
        return self.rng.choice([1, 1, 2, 3, 5])

    def wrapper(self, kind, q, extra):
        always = "always"
        one = "one"
        if kind == "block":
            n = self.rng.choice([1, 1, 2, 5, 10])
            return ["{" * n], ["}" * n]
        if kind == "if":
            cond = always if extra["always"].cpp.strip() == "bool" else self.rng.choice(
                ["%s" % always, "%s == 1" % always, "%s > 0" % always, "%s != 0" % always])
            return ["if (%s) {" % cond], ["}"]
        if kind == "if_true":
            return ["if (%s) {" % self.rng.choice(["true", "1", "!false", "1 == 1"])], ["}"]
        if kind == "if_else":
            return ["if (!%s) {" % always, "} else {"], ["}"]
        if kind == "for":
            return ["for (int %s = 0; %s < %s; ++%s) {" % (q, q, one, q)], ["}"]
        if kind == "for_down":
            return ["for (int %s = %s; %s > 0; --%s) {" % (q, one, q, q)], ["}"]
        if kind == "static":
            return ["for (int %s : tl::static_range<0, 1>()) {" % q], ["}"]
        if kind == "static_down":
            return ["for (int %s : tl::static_range<5, 4, -1>()) {" % q], ["}"]
        # while
        return ["int %s = 0;" % q, "while (%s < %s) {" % (q, one)], ["  %s += 1;" % q, "}"]

    # -- constants --------------------------------------------------------------------------------------

    def constants(self, text, where, consts):
        """Respells the literals of `text` (the body or the settings); constexpr locals go to consts."""
        toks = tokenize(text)
        sig = [i for i, t in enumerate(toks) if t.kind not in ("ws", "comment")]
        rate = self.rng.uniform(0.3, 1.0)
        # Contexts: template arguments of tl:: functions ('value'), program_id axes ('value'),
        # int64_t{...} ('i64'), otherwise 'int' (or 'ann' in the settings).
        stack = []  # entries: ('targs', angle depth) / ('paren', ctx) / ('brace', ctx)
        out = [t.text for t in toks]
        for si, ti in enumerate(sig):
            t = toks[ti]
            prev = toks[sig[si - 1]].text if si > 0 else ""
            prev2 = toks[sig[si - 2]].text if si > 1 else ""
            prev3 = toks[sig[si - 3]].text if si > 2 else ""
            if t.text == "<" and prev3 == "tl" and prev2 == "::" and toks[sig[si - 1]].kind == "ident":
                stack.append(["targs", 0])
                continue
            if stack and stack[-1][0] == "targs":
                if t.text == "<":
                    stack[-1][1] += 1
                elif t.text == ">":
                    if stack[-1][1] == 0:
                        stack.pop()
                        continue
                    stack[-1][1] -= 1
            if t.text == "(":
                ctx = "value" if prev in ("program_id", "num_programs") and prev2 == "::" else None
                stack.append(["paren", ctx])
                continue
            if t.text == ")" and stack and stack[-1][0] == "paren":
                stack.pop()
                continue
            if t.text == "{" and prev == "int64_t":
                stack.append(["brace", "i64"])
                continue
            if t.text == "}" and stack and stack[-1][0] == "brace":
                stack.pop()
                continue
            if t.kind != "number" or not self.chance(rate):
                continue
            ctx = "int"
            for e in reversed(stack):
                if e[0] == "targs":
                    ctx = "value"
                    break
                if e[0] in ("paren", "brace") and e[1]:
                    ctx = e[1]
                    break
            if where == "ann":
                ctx = "ann"
            negated = prev == "-" and prev2 in ("<", ",", "(", "{", "=", "")
            is_float = re.search(r"[.eEfF]", t.text) is not None and not t.text.startswith("0x")
            if is_float:
                new = float_spelling(self.rng, t.text)
                if where == "body" and consts is not None and self.chance(0.15):
                    name = self.fresh("kf")
                    ty = "float" if t.text[-1] in "fF" else "double"
                    consts.append("constexpr %s %s = %s;" % (ty, name, new))
                    new = name
                out[ti] = new
                continue
            if not re.fullmatch(r"\d+", t.text):
                continue
            v = int(t.text)
            c = ctx
            if negated and c == "value":
                c = "int"  # no unsigned spelling under a minus
            new = int_spelling(self.rng, v, c)
            if where == "body" and consts is not None and self.chance(0.15):
                name = self.fresh("kc")
                ty = "int64_t" if ctx == "i64" else "int"
                consts.append("constexpr %s %s = %s;" % (ty, name, new))
                new = name
            out[ti] = new
        return "".join(out)

    # -- parentheses ----------------------------------------------------------------------------------

    def parens(self, text, where):
        toks = tokenize(text)
        sig = [i for i, t in enumerate(toks) if t.kind not in ("ws", "comment")]
        rate = self.rng.uniform(0.05, 0.3)
        out = [t.text for t in toks]
        in_grid = where != "ann"
        for si, ti in enumerate(sig):
            t = toks[ti]
            prev = toks[sig[si - 1]].text if si > 0 else ""
            nxt = toks[sig[si + 1]].text if si + 1 < len(sig) else ""
            if where == "ann" and t.text == "grid":
                in_grid = True
            if not in_grid:
                continue
            if t.kind == "ident":
                if t.text in KEYWORDS or prev in ("::", ".") or nxt == "::" or nxt == "(" or nxt == "<":
                    continue
                if prev in TYPE_WORDS or prev == "constexpr" or t.text in TYPE_WORDS:
                    continue
                if t.text in ("tl", "grid", "num_warps", "cdiv", "INT64_MAX", "INT64_MIN", "true", "false"):
                    continue
                if t.text.startswith(("kf_", "kc_")) and prev == "float":
                    continue
            elif t.kind != "number":
                continue
            if prev == "=" and where == "ann" and toks[sig[si - 2]].text == "num_warps":
                continue
            if self.chance(rate):
                d = self.depth()
                out[ti] = "(" * d + t.text + ")" * d
        return "".join(out)

    # -- names ----------------------------------------------------------------------------------------

    def names(self, text, own, metas):
        toks = tokenize(text)
        used = {t.text for j, t in enumerate(toks) if t.kind == "ident" and not self.after_scope(toks, j)}
        forbidden = (used - own - {"tl", "grid", "num_warps", "cdiv", "KERNEL_NAME_PLACEHOLDER"}) | KEYWORDS
        rate = self.rng.uniform(0.4, 1.0)
        order = sorted(own)
        # A template parameter may not share the template's name: such a one is always renamed.
        renamed = [n for n in order if (self.opts.get("names") and self.chance(rate)) or
                   (n in metas and n == self.k.name)]
        if not renamed:
            return {}
        taken = {n for n in order if n not in renamed}
        mapping = {}
        extra = list(self.unit.extra_names) + self.k.instance_names() + [self.k.name]
        chosen = []
        for n in renamed:
            for _ in range(50):
                cand = self.candidate(extra, chosen)
                if cand is None or cand in taken or cand in forbidden or cand in KEYWORDS:
                    continue
                if cand in self.pool.macros or reserved(cand):
                    continue
                if n in metas and cand == self.k.name:
                    continue  # a template parameter may not share the template's name
                mapping[n] = cand
                taken.add(cand)
                chosen.append(cand)
                break
        return mapping

    def candidate(self, extra, chosen):
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(self.pool.hostile)
        if r < 0.75:
            return self.rng.choice(self.pool.local)
        if r < 0.85:
            return self.rng.choice(extra)
        if r < 0.95 and chosen:
            # Differing only in case from a name already taken.
            base = self.rng.choice(chosen)
            return self.rng.choice([base.upper(), base.lower(), base.capitalize(), base.swapcase()])
        if r < 0.98:
            return self.long_name()
        return self.rng.choice(["_x", "_", "_0", "x_", "_k_", "_launch"])

    def long_name(self):
        n = self.rng.choice([64, 255, 256, 1000, 2048])
        stem = "a_long_name_that_goes_on_"
        s = (stem * (n // len(stem) + 1))[:n - 1]
        return s + self.rng.choice("xyzXYZ")


# ---------------------------------------------------------------------------------------------------
# Whitespace and line endings
# ---------------------------------------------------------------------------------------------------

ODD_BLOCK = ["??/", "* /", "/ *", "/*", "**", "\"", "'", "\\", "\\\\", "'\"'", "\r", "a\rb", "??=", "\\ x",
             "tl::store(x, y); // not code", "#define X 1", "*\\/"]
ODD_LINE = ["*/", "/*", "\"", "'", "it's", "\\x", "??/ x", "\" unterminated", "*/ int x = 1;", "??!", "\\\\ a"]


def whitespace(rng, text, opts):
    """Re-renders text with odd whitespace, comments and line splices between (and inside) tokens."""
    toks = tokenize(text)
    rate = rng.uniform(0.05, 0.4)
    out = []
    depth = None  # parentheses inside TILEC_KERNEL(...)
    for i, t in enumerate(toks):
        if t.kind == "ws":
            out.append(t.text)
            continue
        # This token is inside the parentheses, or opens them (a comment before the parenthesis
        # is in the settings' text for a reader of the source text).
        inside = depth is not None and (depth > 0 or t.text == "(")
        if t.text == "TILEC_KERNEL" and depth is None:
            depth = 0
        elif depth is not None and t.text == "(":
            depth += 1
        elif depth is not None and t.text == ")":
            depth -= 1
            if depth == 0:
                depth = None
        if inside and not opts.get("settings"):
            out.append(t.text)
            continue
        # Between the previous token and this one.
        if rng.random() < rate:
            out.append(separator(rng, opts))
        s = t.text
        if opts.get("splices") and len(s) >= 2 and t.kind in ("ident", "number", "punct") and rng.random() < 0.08:
            cut = rng.randint(1, len(s) - 1)
            s = s[:cut] + "\\" + rng.choice(["\n", "\r\n"]) + s[cut:]
        out.append(s)
    return "".join(out)


def separator(rng, opts):
    parts = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        r = rng.random()
        if r < 0.3 and opts.get("odd_ws"):
            parts.append("".join(rng.choice([" ", "\t", "\f", "\v", "  "]) for _ in range(rng.randint(1, 3))))
        elif r < 0.4 and opts.get("odd_ws"):
            parts.append(rng.choice([" ", "\t", " \t "]) + "\n" + rng.choice(["", "  ", "\t", "\f"]))
        elif r < 0.65 and opts.get("comments"):
            parts.append("/*" + block_comment_text(rng) + "*/")
        elif r < 0.85 and opts.get("comments"):
            body = "//" + " ".join(rng.choice(ODD_LINE) for _ in range(rng.randint(1, 2)))
            end = rng.random()
            if end < 0.25:
                body += " \\\n// (continued)"
            elif end < 0.4:
                body += " \\  \t\n// (continued after a backslash and spaces)"
            elif end < 0.5:
                body += " ??/\n// (continued after ??/)"
            parts.append(" " + body + "\n")
        elif opts.get("splices"):
            parts.append(" \\" + rng.choice(["\n", "\r\n"]))
        else:
            parts.append(" ")
    return "".join(parts)


def block_comment_text(rng):
    """Odd text for a block comment that still ends where it should: no `*/` inside, even after line
    splices (a backslash before a line end, CR alone included, is one)."""
    text = "".join(rng.choice(ODD_BLOCK) for _ in range(rng.randint(1, 3)))
    text = re.sub(r"\\(?=[ \t]*[\r\n]|$)", r"\\x", text)
    while "*/" in text:
        text = text.replace("*/", "* /")
    if text.endswith("*") or text.endswith("\\"):
        text += " "
    return text


def line_endings(rng, text, mode):
    if mode == "crlf":
        return re.sub(r"(?<!\r)\n", "\r\n", text)
    if mode == "mixed":
        return re.sub(r"(?<!\r)\n", lambda m: "\r\n" if rng.random() < 0.5 else "\n", text)
    return text


# ---------------------------------------------------------------------------------------------------
# Functions of your own: parts of the kernels outlined into helper functions
# ---------------------------------------------------------------------------------------------------

# gen.py's binary operators, loosest first (C++'s precedence).
BINOPS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("<<", ">>"),
          ("+", "-"), ("*", "/", "%"))
# Arguments that must stay constants (program_id's axis, the hints' divisor): never a call, a
# parameter or a local.
CONST_ARGS = {"tl::program_id": (0,), "tl::num_programs": (0,), "tl::multiple_of": (1,),
              "tl::max_contiguous": (1,)}
# Names for helpers that are only called qualified (a namespace's or a struct's member): tl's own
# operations and names of the generated code. Unqualified, argument-dependent lookup would bring in
# tl's function of the same name.
HELPER_NAMES = """load store sum max min argmax argmin where cast exp exp2 log log2 sqrt rsqrt abs full zeros
    arange program_id num_programs cdiv maximum minimum expand_dims broadcast_to fma sigmoid tanh erf floor ceil
    launch tile half bfloat16 main kernel""".split()


class ParseError(Exception):
    pass


class Ex:
    """A node of one of gen.py's expressions, parsed back from its text: num, name, qual (tl::inf),
    call (text: the callee; targs: the template arguments' text; tnames: their identifiers), brace
    (int64_t{...}), paren, un (op), bin (op), or raw (a call or a name put in a node's place)."""

    __slots__ = ("kind", "text", "kids", "op", "targs", "tnames")

    def __init__(self, kind, text="", kids=(), op="", targs=None, tnames=()):
        self.kind, self.text, self.kids, self.op = kind, text, list(kids), op
        self.targs, self.tnames = targs, tuple(tnames)

    def render(self):
        k = self.kind
        if k == "paren":
            return "(" + self.kids[0].render() + ")"
        if k == "un":
            return self.op + self.kids[0].render()
        if k == "bin":
            return "%s %s %s" % (self.kids[0].render(), self.op, self.kids[1].render())
        if k == "brace":
            return "%s{%s}" % (self.text, self.kids[0].render())
        if k == "call":
            t = "" if self.targs is None else "<%s>" % self.targs
            return "%s%s(%s)" % (self.text, t, ", ".join(a.render() for a in self.kids))
        return self.text

    def walk(self, restricted=False, frozen=False):
        """(node, restricted, frozen) for every node: restricted on the right of && or || (where a
        call may not bring statements), frozen where a constant must stay."""
        yield self, restricted, frozen
        if self.kind == "bin":
            yield from self.kids[0].walk(restricted, frozen)
            yield from self.kids[1].walk(restricted or self.op in ("&&", "||"), frozen)
        elif self.kind == "call":
            consts = CONST_ARGS.get(self.text, ())
            for i, a in enumerate(self.kids):
                yield from a.walk(restricted, frozen or i in consts)
        elif self.kind != "brace":
            for a in self.kids:
                yield from a.walk(restricted, frozen)

    def names(self, targs=False):
        """The names the expression reads, in order (targs: the template arguments' identifiers)."""
        out = []
        for n, _, _ in self.walk():
            if targs:
                out.extend(n.tnames)
            elif n.kind == "name" and n.text not in ("true", "false"):
                out.append(n.text)
        return list(dict.fromkeys(out))

    def is_literal(self):
        return self.kind in ("num", "brace") or (self.kind == "name" and self.text in ("true", "false"))

    def replace(self, target, new):
        if self is target:
            return new
        if not self.kids:
            return self
        kids = [a.replace(target, new) for a in self.kids]
        if all(a is b for a, b in zip(kids, self.kids)):
            return self
        return Ex(self.kind, self.text, kids, self.op, self.targs, self.tnames)

    def rename(self, mapping):
        """Names (not the template arguments': meta-parameters keep their names) renamed."""
        if self.kind == "name" and self.text in mapping:
            return Ex("name", mapping[self.text])
        if not self.kids:
            return self
        return Ex(self.kind, self.text, [a.rename(mapping) for a in self.kids], self.op, self.targs, self.tnames)

    def size(self):
        return 1 + sum(a.size() for a in self.kids)


class ExprParser:
    """gen.py's expressions (and the helpers' calls): C++ operators, tl:: calls with template
    arguments, int64_t{...}, literals and names."""

    def __init__(self, text):
        self.src = text
        self.toks = [t for t in tokenize(text) if t.kind not in ("ws", "comment")]
        self.i = 0

    def parse(self):
        e = self.expr(0)
        if self.i != len(self.toks):
            raise ParseError(self.src)
        return e

    def peek(self):
        return self.toks[self.i].text if self.i < len(self.toks) else ""

    def take(self, want=None):
        if self.i >= len(self.toks) or (want is not None and self.toks[self.i].text != want):
            raise ParseError(self.src)
        self.i += 1
        return self.toks[self.i - 1]

    def expr(self, level):
        if level == len(BINOPS):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek() in BINOPS[level]:
            op = self.take().text
            left = Ex("bin", kids=[left, self.expr(level + 1)], op=op)
        return left

    def unary(self):
        if self.peek() in ("-", "~", "!", "+"):
            op = self.take().text
            return Ex("un", kids=[self.unary()], op=op)
        return self.primary()

    def primary(self):
        if self.i >= len(self.toks):
            raise ParseError(self.src)
        t = self.toks[self.i]
        if t.text == "(":
            self.take()
            e = self.expr(0)
            self.take(")")
            return Ex("paren", kids=[e])
        if t.kind == "number":
            self.i += 1
            return Ex("num", t.text)
        if t.kind != "ident":
            raise ParseError(self.src)
        name = self.take().text
        while self.peek() == "::":
            self.take()
            name += "::" + self.take().text
        targs, tnames = None, []
        if self.peek() == "<" and "::" in name:
            lt = self.take()
            depth = 1
            while depth:
                t = self.take()
                if t.text == "<":
                    depth += 1
                elif t.text == ">":
                    depth -= 1
                elif t.text == ">>":
                    depth -= 2
                elif t.kind == "ident" and self.toks[self.i - 2].text != "::":
                    tnames.append(t.text)
            targs = self.src[lt.pos + 1:t.pos]
        if self.peek() == "{" and targs is None:
            self.take()
            inner = self.expr(0)
            self.take("}")
            return Ex("brace", name, [inner])
        if self.peek() == "(":
            self.take()
            args = []
            if self.peek() != ")":
                args.append(self.expr(0))
                while self.peek() == ",":
                    self.take()
                    args.append(self.expr(0))
            self.take(")")
            return Ex("call", name, args, targs=targs, tnames=[n for n in tnames if n not in ("tl",)])
        if targs is not None:
            raise ParseError(self.src)
        return Ex("qual" if "::" in name else "name", name)


def parse_expr(text):
    try:
        return ExprParser(text).parse()
    except (ParseError, IndexError):
        return None


def same_tokens(a, b):
    return [t.text for t in tokenize(a) if t.kind != "ws"] == [t.text for t in tokenize(b) if t.kind != "ws"]


def tile_type(ty, shape):
    return "tl::tile<%s, %s>" % (ty.cpp, ", ".join(str(d) for d in shape))


def literal_type(node):
    """The C++ type of a literal node (a parameter with it as its default has the same type)."""
    if node.kind == "brace":
        return node.text
    if node.kind == "name":
        return "bool"
    t = node.text
    if re.search(r"[fF]$", t) and not t.lower().startswith("0x"):
        return "float"
    if re.search(r"[.eE]", t) and not t.lower().startswith("0x"):
        return "double"
    return "int"


class Container:
    """Where helpers are defined: `here` (the kernel's scope), a namespace (`ns`) or a struct."""

    def __init__(self, kind, name="", style="", metas=()):
        self.kind, self.name, self.style, self.metas = kind, name, style, list(metas)
        self.members = []  # Helpers, in the order of their definitions
        self.qual = ""
        if kind == "ns":
            inner = name + "_in"
            self.qual = {"plain": name + "::", "nested": "%s::%s::" % (name, inner), "inline": name + "::",
                         "inline_full": "%s::%s::" % (name, inner), "anonymous": ""}[style]
        elif kind == "struct":
            self.qual = name + ("<%s>" % ", ".join(self.metas) if self.metas else "") + "::"

    def opening(self):
        if self.kind == "ns":
            inner = self.name + "_in"
            return {"plain": "namespace %s {" % self.name, "nested": "namespace %s::%s {" % (self.name, inner),
                    "inline": "namespace %s { inline namespace %s {" % (self.name, inner),
                    "inline_full": "namespace %s { inline namespace %s {" % (self.name, inner),
                    "anonymous": "namespace {"}[self.style]
        if self.kind == "struct":
            head = "template <%s>\n" % ", ".join("int " + m for m in self.metas) if self.metas else ""
            return head + ("class %s {\npublic:" if self.style == "class" else "struct %s {") % self.name
        return ""

    def closing(self):
        if self.kind == "ns":
            return "} }" if self.style.startswith("inline") else "}"
        if self.kind == "struct":
            return "};"
        return ""


class Helper:
    """One generated function: its template head, return type, parameters (declaration text,
    default), body lines; `late`: declared before the kernel, defined after it."""

    def __init__(self, name, container):
        self.name, self.container = name, container
        self.tparams = []  # "int BLOCK", "class T0"
        self.ret = "auto"
        self.trailing = None
        self.params = []  # (declaration, default text or None)
        self.body = []
        self.specs = []  # inline, static, [[nodiscard]]
        self.noexcept = False
        self.late = False

    def head(self, defaults, in_class, qualified=""):
        lines = []
        if self.container.kind == "struct" and qualified and self.container.metas:
            lines.append("template <%s>" % ", ".join("int " + m for m in self.container.metas))
        if self.tparams:
            lines.append("template <%s>" % ", ".join(self.tparams))
        specs = [s for s in self.specs if in_class or s != "static"]
        if in_class:
            specs = [s for s in specs if s.startswith("[[")] + ["static"] + [s for s in specs if s == "inline"]
        elif qualified:
            specs = [s for s in specs if s == "inline"]
        params = ", ".join(d + (" = " + v if v is not None and defaults else "") for d, v in self.params)
        ret = "auto" if self.trailing else self.ret
        sig = "%s%s %s%s(%s)%s%s" % ("".join(s + " " for s in specs), ret, qualified, self.name, params,
                                     " noexcept" if self.noexcept else "",
                                     " -> " + self.trailing if self.trailing else "")
        lines.append(sig)
        return "\n".join(lines)

    def definition(self, defaults=True, in_class=False, qualified=""):
        return self.head(defaults, in_class, qualified) + " {\n" + "".join("  " + l + "\n" for l in self.body) + "}"

    def declaration(self, in_class=False):
        return self.head(True, in_class) + ";"


class Outliner:
    """Rewrites one kernel's statements so that parts of them run in helper functions the kernel
    calls (docs/language.md, "Functions of your own"), and writes those helpers. Everything follows
    from rng (the unit's seed, the statement count, the kernel's index)."""

    def __init__(self, renderer, k, rng, metas, args):
        self.rdr, self.k, self.g, self.rng = renderer, k, k.g, rng
        unit = renderer.unit
        self.opts = renderer.opts
        self.tag = "%s_%d" % (unit.name, unit.kernels.index(k))
        self.metas = list(metas)
        self.containers = []
        self.helpers = []
        self.own = []  # parameter and local names: the names transformation renames them too
        self.counter = 0
        self.stats = {}
        self.env = self.type_env(args)
        self.idents = set(self.metas) | set(self.env) | {a.name for a in args}
        for s in self.g.live_stmts():
            self.idents |= {t.text for t in tokenize(s.text) if t.kind == "ident"}

    # -- what the generator knows of the kernel's names ---------------------------------------------

    def type_env(self, args):
        """The exact C++ type of each name whose type the generator knows: parameters, the frame,
        variables declared with a type, and tiles of gen.py's pool."""
        g = self.g
        env = {}
        for a in args:
            env[a.name] = a.cpp.strip()
        if g.rank == 1:
            b = g.block
            env.update({"pid": "int", "offs": tile_type(gen.I32, b), "mask": tile_type(gen.BOOL, b)})
        else:
            bm, bn = g.block
            env.update({"pid_m": "int", "pid_n": "int", "rows": tile_type(gen.I32, (bm,)),
                        "cols": tile_type(gen.I32, (bn,)), "row_mask": tile_type(gen.BOOL, (bm,)),
                        "col_mask": tile_type(gen.BOOL, (bn,)), "mask": tile_type(gen.BOOL, (bm, bn))})
        for s in g.live_stmts():
            for m in re.finditer(r"(?:^|\n)\s*(int|float|int64_t|bool) (\w+) = ", s.text):
                env[m.group(2)] = m.group(1)
            for m in re.finditer(r"for \(int (\w+)", s.text):
                env[m.group(1)] = "int"
        for v in g.pool:
            if re.fullmatch(r"[A-Za-z_]\w*", v.text) and v.shape != () and v.text not in env:
                env[v.text] = tile_type(v.ty, v.shape)
        return env

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    def count(self, what):
        self.stats[what] = self.stats.get(what, 0) + 1

    # -- the kernel's statements ----------------------------------------------------------------------

    def apply(self, body):
        """The statements (texts) with parts moved into helpers; the same number of statements."""
        rate = self.rng.uniform(0.3, 0.9)
        out = []
        for i, text in enumerate(body):
            lines = text.split("\n")
            new = []
            top = len(lines) == 1
            for line in lines:
                if not self.chance(rate):
                    new.append(line)
                    continue
                new.extend(self.line(line, top, body, i, out))
            out.append("\n".join(new))
        return out

    def line(self, line, top, body, index, done):
        """One line of a statement: a declaration, an assignment, a store or an if's condition. Loop
        heads and conditions stay as they are."""
        m = re.match(r"^(\s*)(auto|int|float|int64_t|bool) (\w+) = (.*);$", line)
        if m and (self.opts.get("calls")):
            ind, ty, name, rhs = m.groups()
            e = parse_expr(rhs)
            if e is None:
                return [line]
            known = self.env.get(name) if ty == "auto" else ty
            if known is not None and not (known.startswith("tl::tile<") or ty != "auto"):
                known = None
            call = self.outline_in(e, known)
            if call is None:
                return [line]
            text = "%s%s %s = %s;" % (ind, ty, name, call.render())
            if top and ty == "auto" and self.chance(0.12):
                # Called twice: a second variable computing the same, read by some later statements.
                twin = self.fresh(name + "_twice")
                self.own.append(twin)
                self.count("called twice")
                for j in range(index + 1, len(body)):
                    body[j] = re.sub(r"\b%s\b" % re.escape(name),
                                     lambda mm: twin if self.chance(0.5) else name, body[j])
                return ["%sauto %s = %s;" % (ind, twin, call.render()), text]
            return [text]
        m = re.match(r"^(\s*)(\w+) (\+|-|\*|/|%|&|\||\^|)= (.*);$", line)
        if m and self.opts.get("calls"):
            ind, name, op, rhs = m.groups()
            e = parse_expr(rhs)
            call = self.outline_in(e, None) if e is not None else None
            return ["%s%s %s= %s;" % (ind, name, op, call.render())] if call is not None else [line]
        m = re.match(r"^(\s*)if \((.*)\) \{$", line)
        if m and self.opts.get("calls"):
            ind, cond = m.groups()
            e = parse_expr(cond)
            call = self.outline_in(e, None) if e is not None else None
            if call is not None:
                self.count("if condition")
                return ["%sif (%s) {" % (ind, call.render())]
            return [line]
        m = re.match(r"^(\s*)tl::store\((.*)\);$", line)
        if m and self.opts.get("stores"):
            e = parse_expr("tl::store(%s)" % m.group(2))
            if e is not None and e.kind == "call" and len(e.kids) in (2, 3):
                return [m.group(1) + self.store(e) + ";"]
        return [line]

    def outline_in(self, e, known):
        """The expression with the whole of it, or a part, replaced by a call to a new helper."""
        cands = [(n, r) for n, r, f in e.walk() if not f and not (n.kind == "paren")]
        if not cands:
            return None
        if self.chance(0.55) or len(cands) == 1:
            node, restricted = e, False
        else:
            node, restricted = self.pick(cands[1:])
            known = None
        call = self.build(node, dict(self.env), restricted, 0, known)
        return e.replace(node, call)

    # -- helpers ----------------------------------------------------------------------------------------

    def helper_name(self, container):
        """Unique in its container; a name of tl's or of the generated code where the call is
        qualified, but none of the kernel's own (the names transformation renames those)."""
        taken = {h.name for h in container.members}
        if container.qual and self.chance(0.35):
            cands = [n for n in HELPER_NAMES + self.rdr.pool.hostile[:40]
                     if n not in taken and n not in self.idents and n not in container.metas]
            if cands:
                return self.pick(cands)
        return "h_%s_%d" % (self.tag, len(self.helpers) + 1)

    def container(self, metas, join=None):
        """A container for a new helper (a new one, or join's, the container of a helper it calls)."""
        if join is not None and join.kind in ("ns", "struct") and self.chance(0.3) and \
                (join.kind == "ns" or join.metas == [] or join.metas == metas):
            return join
        r = self.rng.random()
        if r < 0.4:
            c = Container("here")
        elif r < 0.7:
            c = Container("ns", "hn_%s_%d" % (self.tag, len(self.containers) + 1),
                          self.pick(["plain", "plain", "nested", "inline", "inline_full", "anonymous"]))
        else:
            c = Container("struct", "hs_%s_%d" % (self.tag, len(self.containers) + 1),
                          self.pick(["struct", "struct", "class"]),
                          metas if metas and self.chance(0.5) else ())
        self.containers.append(c)
        return c

    def build(self, node, types, restricted, depth, known):
        """A helper computing `node` (in the caller's names; types: the caller's names' known types)
        and the call that replaces it. restricted: the call is on the right of && or || (no
        statements may come with it: no locals, no defaults, no parameter copies)."""
        names = node.names()
        metas = [m for m in self.metas if m in names or m in node.names(targs=True)]
        free = [n for n in names if n not in self.metas]
        if self.chance(0.3):
            self.rng.shuffle(free)
        lits = [n for n, r, f in node.walk() if n.is_literal() and not f and n is not node]
        lits = list({id(n): n for n in lits}.values())
        defaults = [] if restricted or not lits or not self.chance(0.35) else \
            self.rng.sample(lits, min(len(lits), self.rng.randint(1, 2)))
        # Parameter names: the arguments' own, fresh ones, or the arguments' names swapped around.
        style = self.pick(["same", "fresh", "swapped"])
        if style == "same":
            pnames = list(free)
        elif style == "swapped" and len(free) > 1:
            pnames = free[1:] + free[:1]
        else:
            pnames = [self.fresh("p") for _ in free]
        dnames = [self.fresh("d") for _ in defaults]
        self.own += pnames + dnames
        body = node.rename(dict(zip(free, pnames)))
        for lit, dn in zip(defaults, dnames):
            # the same literal node, reached through the renamed tree: replace by identity
            body = self.replace_literal(body, node, lit, dn)
        h = Helper(None, None)
        ptypes = {}
        tcount = [0]

        def tparam():
            tcount[0] += 1
            t = "T%d" % (tcount[0] - 1)
            h.tparams.append("class " + t)
            return t

        decls = []
        for fname, pname in zip(free, pnames):
            ty = types.get(fname)
            mode = self.pick(["value", "cref", "east", "abbrev", "concrete", "concrete", "concrete_cref", "dims"])
            tile = (ty or "").startswith("tl::tile<")
            if (ty is None and mode.startswith("concrete")) or (mode == "dims" and not tile):
                mode = self.pick(["value", "cref", "east", "abbrev"])
            if mode == "value":
                decls.append("%s %s" % (tparam(), pname))
            elif mode == "cref":
                decls.append("const %s &%s" % (tparam(), pname))
            elif mode == "east":
                decls.append("%s const &%s" % (tparam(), pname))
            elif mode == "abbrev":
                decls.append(self.pick(["auto %s", "const auto &%s", "auto const &%s"]) % pname)
            elif mode == "concrete":
                decls.append("%s%s%s" % (ty, "" if ty.endswith("*") else " ", pname))
                ptypes[pname] = ty
            elif mode == "concrete_cref":
                decls.append(("%s const &%s" if ty.endswith("*") else "const %s &%s") % (ty, pname))
                ptypes[pname] = ty
            else:
                m = re.match(r"tl::tile<(.*?), ([\d, ]+)>$", ty)
                dims = [d.strip() for d in m.group(2).split(",")]
                dn = [self.fresh("D") for _ in dims]
                h.tparams.extend("int " + d for d in dn)
                decls.append("const tl::tile<%s, %s> &%s" % (m.group(1), ", ".join(dn), pname))
                ptypes[pname] = ty
            self.count("parameter " + mode)
        for lit, dn in zip(defaults, dnames):
            decls.append("%s %s" % (literal_type(lit), dn))
            ptypes[dn] = literal_type(lit)
        # The body: a return, locals step by step, a nested helper, an if constexpr at the end.
        lines = []
        shape = "return" if restricted else self.pick(["return", "steps", "steps", "nested", "nested", "ifc"])
        if restricted and depth < 2 and self.chance(0.3):
            shape = "nested"
        plain_body = body
        inner_container = None
        if shape in ("nested",) or (shape == "steps" and depth < 2 and self.chance(0.3)):
            sub = [(n, r) for n, r, f in body.walk() if not f and n is not body and n.kind != "paren"
                   and n.size() > 1]
            if sub and depth < 2:
                n, r = self.pick(sub)
                call = self.build(n, dict(ptypes), restricted or r, depth + 1, None)
                inner_container = self.helpers[-1].container
                body = body.replace(n, call)
                self.count("nested")
        locals_ = []
        if shape in ("steps", "ifc") and not restricted:
            for _ in range(self.rng.randint(1, 3)):
                sub = [n for n, r, f in body.walk() if not f and not r and n is not body and n.kind != "paren"
                       and not (n.kind == "raw" and self.chance(0.5))]
                if not sub:
                    break
                n = self.pick(sub)
                local = self.fresh("l") if self.chance(0.7) else \
                    self.shadow_name(free + pnames + dnames + locals_)
                locals_.append(local)
                self.own.append(local)
                lines.append("%s %s = %s;" % (self.pick(["auto", "auto", "const auto", "auto const"]), local,
                                              self.expr_text(n)))
                body = body.replace(n, Ex("raw", local))
            if lines:
                self.count("locals")
        ret_expr = self.expr_text(body)
        if shape == "ifc" and not restricted:
            conds = ["true", "1 + 1 == 2", "sizeof(int) == 4", "!false"]
            tps = [t.split()[1] for t in h.tparams if t.startswith("class ")]
            if tps:
                t = self.pick(tps)
                conds += ["std::is_same_v<%s, %s>" % (t, t), "sizeof(%s) > 0" % t, "!std::is_void_v<%s>" % t]
            cond = self.pick(conds)
            tile_known = known if known and known.startswith("tl::tile<") else None
            alt = self.expr_text(plain_body) if not (tile_known and self.chance(0.4)) else \
                "tl::zeros<%s>()" % tile_known[len("tl::tile<"):-1]
            taken = lines + ["return %s;" % ret_expr]
            if self.chance(0.5):
                lines = ["if constexpr (%s) {" % cond] + ["  " + l for l in taken] + \
                    ["} else {", "  return %s;" % alt, "}"]
            else:
                lines = ["if constexpr (!(%s)) {" % cond, "  return %s;" % alt, "} else {"] + \
                    ["  " + l for l in taken] + ["}"]
            self.count("if constexpr")
        else:
            lines.append("return %s;" % ret_expr)
        h.body = lines
        h.params = [(d, None) for d in decls[:len(free)]] + [(decls[len(free) + i], defaults[i].render())
                                                              for i in range(len(defaults))]
        # The return type: deduced, or the exact type where the generator knows it.
        late_ok = False
        if known and self.chance(0.6):
            if self.chance(0.25):
                h.trailing = known
            else:
                h.ret = known
            late_ok = True
            self.count("concrete return")
        elif self.chance(0.1) and (body.kind in ("bin", "un", "call", "brace", "num") or
                                   (body.kind == "raw" and body.op == "call")):
            h.ret = "decltype(auto)"
        h.specs = [s for s in ("[[nodiscard]]", "inline", "static") if self.chance(0.15)]
        h.noexcept = self.chance(0.1)
        # Where it lives, and the call.
        c = self.container(metas, inner_container)
        h.container = c
        h.name = self.helper_name(c)
        if c.kind != "struct" or not c.metas:
            h.tparams = ["int " + m for m in metas] + h.tparams
        c.members.append(h)
        if late_ok and c.kind in ("here", "ns", "struct") and c.style != "anonymous" and not c.metas \
                and self.chance(0.3):
            h.late = True
            self.count("defined after the kernel")
        self.helpers.append(h)
        self.count("helper in " + (c.kind if c.kind != "ns" else "namespace " + c.style))
        targs = "<%s>" % ", ".join(metas) if metas and not (c.kind == "struct" and c.metas) else ""
        args = list(free)
        n_explicit = self.rng.randint(0, len(defaults)) if defaults else 0
        args += [d.render() for d in defaults[:n_explicit]]
        if defaults:
            self.count("default arguments")
        return Ex("raw", "%s%s%s(%s)" % (c.qual, h.name, targs, ", ".join(args)), op="call")

    @staticmethod
    def replace_literal(body, orig, lit, dname):
        """body is orig renamed (same shape): replace the node at lit's position in orig."""
        def walk(a, b):
            if a is lit:
                return Ex("name", dname)
            if not a.kids:
                return b
            kids = [walk(x, y) for x, y in zip(a.kids, b.kids)]
            return Ex(b.kind, b.text, kids, b.op, b.targs, b.tnames)
        return walk(orig, body)

    def shadow_name(self, avoid):
        """A local named as one of the kernel's variables (the inlined code must keep them apart)."""
        names = [n for n in self.env if n not in avoid and n not in self.metas]
        return self.pick(names) if names else self.fresh("l")

    def expr_text(self, e):
        text = e.render()
        if self.opts.get("parens"):
            text = self.rdr.parens(text, "body")
        return text

    def store(self, e):
        """tl::store(P, V[, M]) as a call of a void helper that stores."""
        p, v = e.kids[0], e.kids[1]
        m = e.kids[2] if len(e.kids) == 3 else None
        parts, pnames, decls, args = [], [], [], []
        h = Helper(None, None)
        tn = [0]

        def param(arg, stem):
            name = self.fresh(stem)
            self.own.append(name)
            ty = self.env.get(arg.text) if arg.kind == "name" else None
            mode = self.pick(["value", "cref", "concrete", "abbrev"])
            if ty is None and mode == "concrete":
                mode = "value"
            if mode == "concrete":
                if self.chance(0.5):
                    decls.append("%s%s%s" % (ty, "" if ty.endswith("*") else " ", name))
                else:
                    decls.append(("%s const &%s" if ty.endswith("*") else "const %s &%s") % (ty, name))
            elif mode == "abbrev":
                decls.append("const auto &%s" % name)
            else:
                tn[0] += 1
                t = "S%d" % tn[0]
                h.tparams.append("class " + t)
                decls.append(("%s %s" if mode == "value" else "const %s &%s") % (t, name))
            args.append(arg.render())
            return name

        # The pointer: whole, or its base and the offsets added to it (in their order).
        chain = []
        q = p
        while q.kind == "bin" and q.op == "+":
            chain.insert(0, q.kids[1])
            q = q.kids[0]
        if q.kind == "name" and chain and self.chance(0.6):
            ptr = param(q, "base")
            ptr_text = " + ".join([ptr] + [param(x, "off") for x in chain])
            self.count("store with the pointer's offsets")
        else:
            ptr_text = param(p, "ptr")
        val = param(v, "value")
        mask_text = None
        if m is not None:
            if m.kind == "bin" and m.op == "&" and self.chance(0.5):
                mask_text = "%s & %s" % (param(m.kids[0], "mask"), param(m.kids[1], "mask"))
            else:
                mask_text = param(m, "mask")
        lines = []
        r = self.rng.random()
        if r < 0.3:
            q = self.fresh("where")
            self.own.append(q)
            lines.append("auto %s = %s;" % (q, ptr_text))
            ptr_text = q
        store = "tl::store(%s, %s%s);" % (ptr_text, val, "" if mask_text is None else ", " + mask_text)
        if self.chance(0.03):
            lines.append("return " + store)  # a void function may return a void expression
            self.count("return of a store")
        else:
            lines.append(store)
            if self.chance(0.2):
                lines.append("return;")
        h.body = lines
        h.params = [(d, None) for d in decls]
        h.ret = "void"
        h.specs = [s for s in ("inline", "static") if self.chance(0.15)]
        metas = []
        c = self.container(metas)
        h.container = c
        h.name = self.helper_name(c)
        c.members.append(h)
        if c.style != "anonymous" and not c.metas and self.chance(0.3):
            h.late = True
            self.count("defined after the kernel")
        self.helpers.append(h)
        self.count("store helper")
        return "%s%s(%s)" % (c.qual, h.name, ", ".join(args))

    # -- rendering ----------------------------------------------------------------------------------------

    def render(self):
        """(before the kernel, after the kernel): the containers with their helpers."""
        before, after = [], []
        for c in self.containers:
            if not c.members:
                continue
            early = [h for h in c.members if not h.late]
            late = [h for h in c.members if h.late]
            if c.kind == "struct":
                body = []
                members = list(c.members)
                # A member defined in the class may come after one that calls it (the class is
                # complete in member bodies) where its return type is not deduced.
                for h in members:
                    if h.late:
                        body.append(h.declaration(in_class=True))
                    else:
                        body.append(h.definition(in_class=True))
                before.append(c.opening() + "\n" + "\n".join(body) + "\n" + c.closing())
                for h in late:
                    after.append(h.definition(defaults=False, qualified=c.name + "::"))
                continue
            text = [c.opening()] if c.opening() else []
            text += [h.declaration() if h.late else h.definition() for h in c.members]
            if c.closing():
                text.append(c.closing())
            before.append("\n".join(text))
            if late:
                text = [c.opening()] if c.opening() else []
                text += [h.definition(defaults=False) for h in late]
                if c.closing():
                    text.append(c.closing())
                after.append("\n".join(text))
        return "".join(t + "\n" for t in before), "".join(t + "\n" for t in after)


# ---------------------------------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------------------------------


# Namespaces inside a kernel's namespace that would hide what its source names: tl, its types.
NESTED_NS_BAD = {"tl", "std", "int8_t", "int32_t", "int64_t"}


def visible_globally(path):
    """Whether what a path declares is visible in the global scope (inline and anonymous namespaces)."""
    return all(n is None or inl for n, inl in path)


def derived_seed(seed, j):
    return (seed * 1000003 + j * 104729 + 7) % (1 << 40)


class Unit:
    """One adversarial unit: a primary gen.py kernel (gen.Kernel(seed)), maybe partners, and the
    transformations chosen from the seed. `name` and `seed` are difftest.py's handles."""

    def __init__(self, seed, cxx=None, force=None):
        self.seed = seed
        self.pool = Pool.get(cxx or CONFIG["cxx"])
        self.primary = gen.Kernel(seed)
        self.name = self.primary.name
        rng = random.Random("adversarial-%d" % seed)
        self.rng = rng
        o = {}
        o["names"] = rng.random() < 0.7
        o["constants"] = rng.random() < 0.6
        o["whitespace"] = rng.random() < 0.6
        o["comments"] = rng.random() < 0.7
        o["splices"] = rng.random() < 0.4
        o["endings"] = rng.choice(["lf", "lf", "crlf", "mixed"]) if o["whitespace"] else "lf"
        o["no_final_newline"] = rng.random() < 0.3
        o["nesting"] = rng.random() < 0.5
        o["parens"] = rng.random() < 0.5
        o["settings"] = True  # the transformations reach into TILEC_KERNEL(...) too
        o["odd_ws"] = o["whitespace"]  # tabs, form feeds, vertical tabs, trailing blanks, line breaks
        # Functions of your own, drawn apart so that the other choices of a seed stay as they were.
        frng = random.Random("adversarial-functions-%d" % seed)
        o["functions"] = frng.random() < 0.7
        o["calls"] = o["functions"] and frng.random() < 0.9  # expressions into helpers
        o["stores"] = o["functions"] and (frng.random() < 0.6 or not o["calls"])  # stores into void helpers
        for key in CONFIG["force"] if force is None else force:
            o[key] = True
            for part in PARTS.get(key, ()):
                o[part] = True
            if key == "whitespace":
                o["odd_ws"] = True
            if key == "nesting":
                o["parens"] = True
        self.opts = o
        self.fn_stats = {}
        self.relation = rng.choice(["none", "none", "none", "twin", "overload", "prefix", "plain", "case"])
        self.kernels = []
        self.unit_ns = None  # set by the batch when the unit's declarations would clash with another's
        self.extra_names = []
        self._build()
        self.restrict(CONFIG["transforms"])

    # -- structure ----------------------------------------------------------------------------------

    def kernel_name(self, global_scope, avoid):
        rng = self.rng
        pool = self.pool.global_fn if global_scope else self.pool.local
        if rng.random() < 0.5:
            for _ in range(20):
                n = rng.choice(pool if rng.random() < 0.7 else self.pool.hostile)
                if n in avoid or (global_scope and n not in self.pool.global_fn):
                    continue
                if n in ("int8_t", "int32_t", "int64_t"):
                    continue  # the signature's types
                return n
        return self.name

    def name_ok(self, name, path):
        """Whether a kernel of this name at this path is found by its qualified name: where it is
        visible in the global scope, the reference's context must allow a function template of that
        name there, and, through an anonymous namespace, declare nothing of that name there."""
        if not visible_globally(path):
            return True
        if name not in self.pool.global_fn:
            return False
        return not any(n is None for n, _ in path) or name in self.pool.global_free

    def namespace_path(self, avoid=()):
        """A namespace path [(name or None for anonymous, inline)]. Names that an inline or anonymous
        namespace makes visible in the global scope are drawn from the names valid there."""
        rng = self.rng
        if rng.random() < 0.45:
            return []
        path = []
        for depth in range(rng.choice([1, 1, 2, 3])):
            if rng.random() < 0.07:
                path.append((None, False))  # anonymous
                continue
            fresh = "ns%d_%s" % (depth, self.name)
            if visible_globally(path):
                n = rng.choice(self.pool.global_ns) if rng.random() < 0.6 else fresh
                if n in ("tl", "tilec"):
                    if path:
                        n = fresh  # a second namespace tl would make every tl:: ambiguous
                    else:
                        path.append((n, False))  # theirs, reopened around a namespace of the unit's own
                        n = "ns_%s" % self.name
            else:
                n = rng.choice(self.pool.local) if rng.random() < 0.6 else fresh
                if n in NESTED_NS_BAD:
                    n = fresh
            if n in avoid or n in KEYWORDS:
                n = fresh
            path.append((n, rng.random() < 0.3))
        return path

    def partner(self, pred, tries=300):
        for j in range(1, tries):
            g = gen.Kernel(derived_seed(self.seed, j))
            if pred(g):
                return g
        return None

    def _build(self):
        rng, p = self.rng, self.primary
        path = self.namespace_path()
        name = self.kernel_name(visible_globally(path), set())
        a = AdvKernel(p, name, path)
        if not p.plain and p.rank == 1 and self.relation == "none" and rng.random() < 0.1:
            a.plain = True
        self.kernels = [a]
        rel = self.relation
        if rel == "twin":
            g = self.partner(lambda g: g.meta == p.meta and g.plain == p.plain)
            if g:
                other = self.namespace_path(avoid={n for n, _ in path})
                if self.scope_key(other) == self.scope_key(path):
                    other = [("twin_%s" % self.name, rng.random() < 0.5)] + [x for x in other if x[0] is not None][:1]
                    if self.scope_key(other) == self.scope_key(path):
                        other = [("twin_%s" % self.name, False)]
                if visible_globally(other) and name not in self.pool.global_fn:
                    other = [("twin_%s" % self.name, False)]
                self.kernels.append(AdvKernel(g, name, other))
        elif rel == "overload":
            g = self.partner(lambda g: g.meta == p.meta and g.plain == p.plain and
                             AdvKernel(g, "", []).signature_key() != a.signature_key())
            if g:
                self.kernels.append(AdvKernel(g, name, path))
        elif rel == "prefix":
            # k<A, B> beside k_A<B> (both instances would be `k_A_B`), or k<B> beside k_B plain.
            if p.rank == 2:
                g = self.partner(lambda g: g.rank == 1 and not g.plain and g.meta[0][1] == p.meta[1][1])
                if g:
                    self.kernels.append(AdvKernel(g, "%s_%d" % (name, p.meta[0][1]), path))
            elif not p.plain:
                g = self.partner(lambda g: g.rank == 1)
                if g:
                    self.kernels.append(AdvKernel(g, "%s_%d" % (name, p.meta[0][1]), path, plain=True))
        elif rel == "plain":
            # A plain kernel beside a template one: the same name, or a similar one.
            g = self.partner(lambda g: g.rank == 1)
            if g and not p.plain:
                other = rng.choice([name, name, name + "_", "%s_%d" % (name, p.meta[0][1]) if p.rank == 1 else name])
                self.kernels.append(AdvKernel(g, other, path, plain=True))
            elif g:
                self.kernels.append(AdvKernel(g, name, path, plain=False) if not g.plain else
                                    AdvKernel(g, name + "_", path))
        elif rel == "case":
            g = self.partner(lambda g: True)
            if g:
                other = name.swapcase() if name.swapcase() != name else name + "_"
                if other in ("main", "std", "tl") or (not path and other not in self.pool.global_fn):
                    other = name + "_K"
                self.kernels.append(AdvKernel(g, other, path))
        for k in self.kernels:
            if not k.plain:
                k.inst_outside = rng.random() < 0.3 and bool(k.path) and all(n is not None for n, _ in k.path)
                k.inst_via_inline = k.inst_outside and any(inl for _, inl in k.path) and rng.random() < 0.5
        for i, k in enumerate(self.kernels):
            if not self.name_ok(k.name, k.path):
                # A name the reference's context declares where the kernel would be found.
                k.path = [("p%d_%s" % (i, self.name), False)] + k.path
                k.inst_outside = k.inst_via_inline = False
        for k in self.kernels:
            self.extra_names += k.instance_names() + [k.name]
        if not self.valid_layout():
            # A clash within the unit (rare): each partner alone in a namespace of its own.
            for i, k in enumerate(self.kernels[1:], 1):
                k.path = [("p%d_%s" % (i, self.name), False)] + k.path
                k.inst_outside = False

    @staticmethod
    def scope_key(path):
        return tuple(n for n, inl in path if n is not None and not inl)

    def declarations(self, prefix=()):
        """What the unit declares, for clashes: ('fn', scope, name, (anonymous, signature)) and
        ('ns', scope, name, (path, inline)); scopes without their inline and anonymous namespaces."""
        decls = []
        for k in self.kernels:
            full = tuple(prefix) + tuple((n, inl) for n, inl in k.path)
            for i in range(len(full)):
                n, inl = full[i]
                if n is None:
                    continue
                decls.append(("ns", Unit.scope_key(full[:i]), n, (full[:i + 1], inl)))
            # A kernel in an anonymous namespace is found by qualified lookup only where its scope
            # declares nothing of its name directly (it comes through a using-directive).
            anon = any(n is None for n, _ in full)
            decls.append(("fn", Unit.scope_key(full), k.name, (anon, k.signature_key())))
        return decls

    @staticmethod
    def clash(a, b):
        """Whether two declarations (of two units, or of one) cannot stand in one translation unit."""
        if a[1] != b[1] or a[2] != b[2]:
            return False
        if a[0] == "fn" and b[0] == "fn":
            if a[3][0] != b[3][0]:
                return True  # one hides the other, in an anonymous namespace, from qualified names
            return a[3] == b[3]  # a redefinition, or an ambiguity through an inline namespace
        if a[0] != b[0]:
            return True  # a function and a namespace of one name in one scope
        (pa, ia), (pb, ib) = a[3], b[3]
        if [n for n, _ in pa] != [n for n, _ in pb]:
            return True  # one name reached through different inline or anonymous namespaces
        return ia != ib  # reopened inline where it was not (or the reverse)

    def valid_layout(self):
        decls = self.declarations()
        return not any(Unit.clash(decls[i], decls[j]) for i in range(len(decls))
                       for j in range(i + 1, len(decls)) if decls[i] != decls[j])

    def restrict(self, only):
        """Turns off the transformations not in `only` (a set of TRANSFORMS and their parts, for
        triage: --transforms), after every choice was drawn, so that the rest stay as the seed made them."""
        if only is None:
            return
        o = self.opts
        for key in ("names", "constants", "comments", "splices", "parens", "settings", "calls", "stores"):
            o[key] = o.get(key) and key in only
        o["functions"] = o["functions"] and bool({"functions", "calls", "stores"} & only)
        o["odd_ws"] = o["whitespace"] and "whitespace" in only
        o["whitespace"] = o["whitespace"] and bool({"whitespace", "comments", "splices"} & only)
        if "endings" not in only:
            o["endings"] = "lf"
            o["no_final_newline"] = False
        o["nesting"] = o["nesting"] and "wrappers" in only
        if "names" not in only:
            old = self.kernels[0].name
            for k in self.kernels:
                if k.name.startswith(old):
                    k.name = self.name + k.name[len(old):]
                elif k.name == old.swapcase():
                    k.name = self.name.swapcase()
        if "namespaces" not in only:
            self.kernels = self.kernels[:1]
            self.kernels[0].path = []
            self.kernels[0].inst_outside = False
            self.relation = "none"

    # -- difftest.py's reducer works on the primary kernel's statements --------------------------------

    @property
    def stmts(self):
        return self.primary.stmts

    @stmts.setter
    def stmts(self, v):
        self.primary.stmts = v

    def live_stmts(self):
        return self.primary.live_stmts()

    def describe(self):
        return "%s: %s; %s" % (self.name, self.summary(), "; ".join(k.g.describe() for k in self.kernels))

    def summary(self):
        o = self.opts
        parts = [n for n in ("names", "constants", "nesting", "parens") if o.get(n)]
        if o.get("functions"):
            parts.append("functions(%s)" % ", ".join(n for n in ("calls", "stores") if o.get(n)))
        if o.get("whitespace"):
            parts.append("whitespace(%s%s%s)" % (o["endings"], ", comments" if o["comments"] else "",
                                                  ", splices" if o["splices"] else ""))
        if len(self.kernels) > 1 or self.kernels[0].path:
            parts.append("namespaces(%s)" % self.relation)
        return ", ".join(parts) or "untransformed"

    # -- rendering --------------------------------------------------------------------------------------

    def render(self):
        """(source, wrapper definitions) of the unit; deterministic from the seed and the statements."""
        rng = random.Random("adversarial-render-%d-%d" % (self.seed, len(self.primary.stmts)))
        lines_out = []
        prefix = [(self.unit_ns, False)] if self.unit_ns else []
        self.fn_stats = {}
        for k in self.kernels:
            r = Renderer(self, k, rng, self.pool)
            text, inst = r.render()
            if r.outliner is not None:
                for key, n in r.outliner.stats.items():
                    self.fn_stats[key] = self.fn_stats.get(key, 0) + n
            full = prefix + k.path
            opens = "".join("%snamespace %s{\n" % ("inline " if inl else "", n + " " if n else "") for n, inl in full)
            closes = "}\n" * len(full)
            if k.plain:
                lines_out.append(opens + text + closes)
                continue
            if not k.inst_outside:
                lines_out.append(opens + text + (inst % k.name) + closes)
            else:
                segs = [n for n, inl in k.path if not (inl and k.inst_via_inline)]
                q = "::".join(segs + [k.name])
                uopen = "namespace %s {\n" % self.unit_ns if self.unit_ns else ""
                uclose = "}\n" if self.unit_ns else ""
                lines_out.append(opens + text + closes + uopen + (inst % q) + uclose)
        src = "".join(lines_out)
        if self.opts.get("whitespace"):
            src = whitespace(rng, src, self.opts)
        src = "// %s: seed %d; %s\n" % (self.name, self.seed, self.summary()) + src
        src = line_endings(rng, src, self.opts["endings"])
        return src

    def wrappers(self):
        """The reference wrappers (ref.cpp): `void ref_ID_J(args)` runs kernel J on the CPU."""
        out = []
        for j, k in enumerate(self.kernels):
            types = [a.cpp.strip() for a in k.args]
            fn = "void (*)(%s)" % ", ".join(types)
            gm, gn = k.g.grid()
            out.append("void ref_%s_%d(%s) {\n  tl::launch(tl::grid3{%d, %d}, static_cast<%s>(&%s)%s);\n}\n" % (
                self.name, j, ", ".join("%s a%d" % (t, i) for i, t in enumerate(types)), gm, gn, fn,
                k.qualified(self.unit_ns), "".join(", a%d" % i for i in range(len(types)))))
        return "".join(out)

    def harness(self, launchers, target):
        """The host function that runs each kernel both ways and compares (difftest.h)."""
        L = ["static void run_%s(difftest::Run &run) {" % self.name,
             "  if (!run.selected(\"%s\")) return;" % self.name]
        decls = []
        for j, k in enumerate(self.kernels):
            types = [a.cpp.strip() for a in k.args]
            decls.append("void ref_%s_%d(%s);" % (self.name, j, ", ".join(types)))
            launcher = find_launcher(launchers, k, self.unit_ns)
            L.append("  {  // %s" % k.qualified(self.unit_ns)[:200])
            if launcher is None or launcher == "ambiguous":
                L.append("    run.fail(\"%s\", \"tilec's output has %s launcher for kernel %d, %s\");" % (
                    self.name, "no" if launcher is None else "more than one", j,
                    cstr(k.qualified(self.unit_ns)[:200])))
                L.append("  }")
                continue
            live = {s.output.name for s in k.g.live_stmts() if s.output is not None}
            ref, dev, cmp = [], [], []
            for a in k.args:
                if a.kind in ("in", "out"):
                    b = "b%d_%d" % (j, a.index)
                    p = a.param
                    if a.kind == "in":
                        L.append("    auto %s = difftest::input<%s>(%d, %s, %s, %dull);" % (
                            b, p.ty.cpp, k.g.buffer_size(p), gen.cpp_number(p.ty, p.lo), gen.cpp_number(p.ty, p.hi),
                            (k.g.seed * 1000003 + a.index) % (1 << 62)))
                    else:
                        L.append("    auto %s = difftest::output<%s>(%d);" % (b, p.ty.cpp, k.g.buffer_size(p)))
                        if p.name in live:
                            tol = "-1.0" if p.tol is None else repr(p.tol)
                            cmp.append("    %s.compare(run, \"%s\", \"k%d.%s\", %s);" % (b, self.name, j, p.name, tol))
                    ref.append("%s.ref()" % b)
                    dev.append("%s.dev()" % b)
                else:
                    ref.append(a.value)
                    dev.append(a.value)
            L.append("    ref_%s_%d(%s);" % (self.name, j, ", ".join(ref)))
            L.append("    run.launched(\"%s\", %s(cudaStream_t{}%s));" % (
                self.name, launcher, "".join(", " + x for x in dev)))
            L.extend(cmp)
            L.append("  }")
        L.append("}")
        return "\n".join(decls) + "\n" + "\n".join(L) + "\n"


def cstr(s):
    return s.replace("\\", "\\\\").replace("\"", "\\\"")


# ---------------------------------------------------------------------------------------------------
# tilec's output: the launchers
# ---------------------------------------------------------------------------------------------------


def parse_launchers(text):
    """Every host launcher of a generated file: (description, qualified name, [parameter types]) for
    each function defined after a `/// Launches DESCRIPTION on ...` comment."""
    toks = tokenize(text)
    out = []
    stack = []  # namespace names (or None for other braces)
    desc = None
    i = 0
    n = len(toks)
    pending_ns = None
    while i < n:
        t = toks[i]
        if t.kind == "comment":
            if t.text.startswith("/// Launches "):
                # The description may go on over more /// lines.
                parts = [t.text[4:]]
                j = i + 1
                while j < n and toks[j].kind in ("ws", "comment") and " on `" not in " ".join(parts):
                    if toks[j].kind == "comment" and toks[j].text.startswith("///"):
                        parts.append(toks[j].text[3:])
                    j += 1
                m = re.match(r"Launches (.*?) on `", " ".join(parts), re.S)
                desc = re.sub(r"\s+", "", m.group(1)) if m else None
            i += 1
            continue
        if t.kind == "ws":
            i += 1
            continue
        if t.text == "namespace":
            names = []
            j = i + 1
            while j < n and toks[j].text != "{" and toks[j].text != ";":
                if toks[j].kind == "ident" and toks[j].text != "inline":
                    names.append(toks[j].text)
                j += 1
            pending_ns = names or ["(anonymous)"]
            i = j
            continue
        if t.text == "{":
            stack.append(pending_ns)
            pending_ns = None
            i += 1
            continue
        if t.text == "}":
            if stack:
                stack.pop()
            i += 1
            continue
        if (t.kind == "ident" and "launch" in t.text and desc is not None and all(s is not None for s in stack)):
            # name ( ... ) {  at namespace scope
            j = i + 1
            while j < n and toks[j].kind in ("ws", "comment"):
                j += 1
            if j < n and toks[j].text == "(":
                depth, k = 0, j
                params, cur = [], []
                while k < n:
                    x = toks[k]
                    if x.text == "(":
                        depth += 1
                        if depth == 1:
                            k += 1
                            continue
                    elif x.text == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    if depth == 1 and x.text == ",":
                        params.append(cur)
                        cur = []
                    elif x.kind not in ("ws", "comment"):
                        cur.append(x)
                    k += 1
                if cur:
                    params.append(cur)
                m = k + 1
                while m < n and toks[m].kind in ("ws", "comment"):
                    m += 1
                if m < n and toks[m].text == "{":
                    # Qualifiers written before the name (ns::launch_x) count too.
                    q = [t.text]
                    b = i - 1
                    while b > 0 and toks[b].text == "::" and toks[b - 1].kind == "ident":
                        q.insert(0, toks[b - 1].text)
                        b -= 2
                    ns = [x for s in stack for x in s if x != "(anonymous)"]
                    types = [param_type(p) for p in params]
                    out.append((desc, "::" + "::".join(ns + q), types))
                    i = m
                    continue
        i += 1
    return out


def param_type(toks):
    texts = [t.text for t in toks]
    if len(texts) >= 2 and toks[-1].kind == "ident" and texts[-2] != "::" and texts[-1] not in TYPE_WORDS | {
            "char", "short", "long", "signed", "unsigned"}:
        texts = texts[:-1]
    return " ".join(texts)


def find_launcher(launchers, k, unit_ns):
    """The launcher (stream first, then the kernel's arguments) that tilec wrote for kernel k: its
    `/// Launches` comment names k and its parameter types are k's; where several are (one name in
    two namespaces), the one in k's namespace. None if there is none; "ambiguous" if several remain."""
    descs = set(k.descriptions(unit_ns))
    want = [canon_type(a.cpp) for a in k.args]
    cands = []
    for desc, name, types in launchers:
        if desc not in descs:
            continue
        if len(types) != len(want) + 1 or "stream" not in types[0].lower():
            continue
        if [canon_type(t) for t in types[1:]] != want:
            continue
        if name not in cands:
            cands.append(name)
    if len(cands) > 1:
        named = ([unit_ns] if unit_ns else []) + [n for n, _ in k.path if n is not None]
        plain = ([unit_ns] if unit_ns else []) + [n for n, inl in k.path if n is not None and not inl]
        homes = {"::".join(named), "::".join(plain)}
        cands = [c for c in cands if "::".join(c.split("::")[1:-1]) in homes] or cands
    if not cands:
        return None
    return cands[0] if len(cands) == 1 else "ambiguous"


# ---------------------------------------------------------------------------------------------------
# Batches (difftest.py --adversarial)
# ---------------------------------------------------------------------------------------------------

TRANSFORMS = ("names", "namespaces", "constants", "whitespace", "nesting", "settings", "functions")
# Parts, for --transforms: whitespace is odd whitespace, comments, splices and line endings; nesting is
# wrappers (blocks, ifs and loops) and parens; settings lets the others into TILEC_KERNEL(...);
# functions is calls (expressions into helpers) and stores (stores into void helpers).
PARTS = {"whitespace": ("comments", "splices", "endings"), "nesting": ("wrappers", "parens"),
         "functions": ("calls", "stores")}
# Keys that `+KEY` may force on in every unit (the others are chosen per seed only).
FORCEABLE = ("names", "constants", "whitespace", "nesting", "functions", "calls", "stores")
CONFIG = {"cxx": "g++", "transforms": None, "force": ()}


def expand_transforms(items):
    """--transforms's list (keys, `all`, `no-KEY`, `+KEY`) as the set of keys and parts it turns on."""
    known = set(TRANSFORMS) | {p for ps in PARTS.values() for p in ps}
    on = set()
    for item in items:
        neg = item.startswith("no-")
        key = item[3:] if neg else item.lstrip("+")
        keys = known if key == "all" else {key} | set(PARTS.get(key, ()))
        if not keys <= known:
            raise SystemExit("adversarial.py: unknown transformation %r (known: all, %s; no-KEY removes one)" % (
                key, ", ".join(sorted(known))))
        on = on - keys if neg else on | keys
    return on


def configure(cxx, transforms=None):
    """The host compiler (the pool's filter) and the transformations to apply (None: all). `+KEY`
    in transforms applies KEY in every unit instead of in the units whose seed chooses it."""
    CONFIG["cxx"] = cxx
    CONFIG["transforms"] = None if transforms is None else expand_transforms(transforms)
    force = [t[1:] for t in (transforms or []) if t.startswith("+")]
    for key in force:
        if key not in FORCEABLE:
            raise SystemExit("adversarial.py: +%s: only %s can be forced on" % (key, ", ".join(FORCEABLE)))
    CONFIG["force"] = tuple(force)


def Kernel(seed):  # noqa: N802 (difftest.py's name for "what a seed gives")
    return Unit(seed)


def compose(units):
    """Puts a unit whose declarations would clash with an earlier one's into a namespace of its own."""
    seen = []
    for u in units:
        u.unit_ns = None
        mine = u.declarations()
        if any(Unit.clash(a, b) for a in mine for b in seen):
            u.unit_ns = u.name
            mine = u.declarations(prefix=[(u.name, False)])
        seen += mine


def batch_source(units):
    compose(units)
    text = ("// Generated by tests/difftest/adversarial.py: adversarial valid kernels (transformed gen.py kernels).\n"
            "#include <tilec/tl.hpp>\n\n" + "\n".join(u.render() for u in units))
    if units and units[-1].opts.get("no_final_newline"):
        text = text.rstrip("\r\n")
    return text


def write_batch(d, units):
    os.makedirs(d, exist_ok=True)
    src = batch_source(units)
    with open(os.path.join(d, "k.cpp"), "w", newline="") as f:
        f.write(src)
    with open(os.path.join(d, "ref.cpp"), "w") as f:
        f.write("// The CPU reference of each kernel of k.cpp, in a translation unit of its own (the\n"
                "// kernels' names may be macros where the generated code is compiled).\n"
                "#include <tilec/tl.hpp>\n#include \"k.cpp\"\n\n" + "".join(u.wrappers() for u in units))
    for f in ("main_cuda.cpp", "main_hip.cpp", "ref.o"):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))


def harness_sources(d, units, target):
    """After tilec: the host program for `target`, calling the launchers found in its output."""
    ext = "cu" if target == "cuda" else "hip"
    with open(os.path.join(d, "k." + ext), newline="") as f:
        launchers = parse_launchers(f.read())
    main = "main_%s.cpp" % target
    out = ["// Generated by tests/difftest/adversarial.py: runs each kernel on the CPU reference (ref.cpp)",
           "// and through the launcher tilec wrote for it, on the same random inputs, and compares.",
           '#include "difftest.h"', '#include "k.%s"' % ext, ""]
    for u in units:
        out.append(u.harness(launchers, target))
    out.append("int main(int argc, char **argv) {")
    out.append("  difftest::Run run(argc, argv);")
    for u in units:
        out.append("  run_%s(run);" % u.name)
    out.append("  return run.finish();")
    out.append("}")
    with open(os.path.join(d, main), "w") as f:
        f.write("\n".join(out) + "\n")
    return [main, "ref.cpp"]


# ---------------------------------------------------------------------------------------------------
# Self-test: deterministic, valid, and meaning what the untransformed kernels mean
# ---------------------------------------------------------------------------------------------------

CHECK_MAIN = r"""
#include <cstring>
#include <random>
#include <vector>
/// Bytes holding n elements and a guard of 64 (std::vector<bool> would not give a bool *).
template <class T> struct Buf {
  std::vector<unsigned char> bytes;
  explicit Buf(size_t n) : bytes((n + 64) * sizeof(T)) {}
  T *data() { return reinterpret_cast<T *>(bytes.data()); }
  size_t size() const { return bytes.size() / sizeof(T); }
};
template <class T> Buf<T> input(size_t n, long double lo, long double hi, uint64_t seed) {
  Buf<T> v(n);
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 7);
  for (size_t i = 0; i < v.size(); ++i) {
    T &x = v.data()[i];
    if constexpr (std::is_same_v<T, bool>) {
      x = (rng() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      const auto l = static_cast<int64_t>(lo), h = static_cast<int64_t>(hi);
      const uint64_t span = static_cast<uint64_t>(h) - static_cast<uint64_t>(l);
      const uint64_t r = span == ~uint64_t{0} ? rng() : rng() % (span + 1);
      x = static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(l) + r));
    } else {
      std::uniform_real_distribution<double> d(static_cast<double>(lo), static_cast<double>(hi));
      T t = T(static_cast<float>(d(rng)));
      if (static_cast<float>(t) < static_cast<float>(lo)) t = T(static_cast<float>(lo));
      if (static_cast<float>(t) > static_cast<float>(hi)) t = T(static_cast<float>(hi));
      x = t;
    }
  }
  return v;
}
template <class T> Buf<T> output(size_t n) {
  Buf<T> v(n);
  std::memset(v.bytes.data(), 0x5A, v.bytes.size());
  return v;
}
static int failures = 0;
template <class T> void same(const Buf<T> &a, const Buf<T> &b, const char *what) {
  if (a.bytes != b.bytes) {
    std::printf("DIFFERENT %s\n", what);
    ++failures;
  }
}
"""


def check_program(units):
    """A program running each kernel of the units both transformed (through ref.cpp's wrappers, as
    difftest.py compiles them) and as gen.py wrote it (here), on the same inputs."""
    origs = {}
    for u in units:
        for k in u.kernels:
            origs[k.g.seed] = k.g
    src = ["#include <tilec/tl.hpp>", CHECK_MAIN, "namespace difftest_orig {"]
    for s in sorted(origs):
        src.append(origs[s].source())
    src.append("}  // namespace difftest_orig")
    for u in units:
        for j, k in enumerate(u.kernels):
            src.append("void ref_%s_%d(%s);" % (u.name, j, ", ".join(a.cpp.strip() for a in k.args)))
    src.append("int main() {")
    for u in units:
        for j, k in enumerate(u.kernels):
            g = k.g
            L = ["  {"]
            orig_args, new_args, outs = {}, [], []
            for a in k.args:
                if a.kind in ("in", "out"):
                    p = a.param
                    b = "b%d" % a.index
                    if a.kind == "in":
                        L.append("    auto %s = input<%s>(%d, %s, %s, %dull);" % (
                            b, p.ty.cpp, g.buffer_size(p), gen.cpp_number(p.ty, p.lo), gen.cpp_number(p.ty, p.hi),
                            (g.seed * 1000003 + a.index) % (1 << 62)))
                    else:
                        L.append("    auto %s = output<%s>(%d), %s_orig = %s;" % (b, p.ty.cpp, g.buffer_size(p), b, b))
                        outs.append(b)
                    new_args.append("%s.data()" % b)
                    orig_args[a.name] = "%s%s.data()" % (b, "_orig" if a.kind == "out" else "")
                elif a.kind == "extra":
                    new_args.append(a.value)
                else:
                    new_args.append(a.value)
                    orig_args[a.name] = a.value
            gm, gn = g.grid()
            order = [n for _, n in g.signature()]
            L.append("    ref_%s_%d(%s);" % (u.name, j, ", ".join(new_args)))
            L.append("    tl::launch(tl::grid3{%d, %d}, difftest_orig::%s, %s);" % (
                gm, gn, g.reference(), ", ".join(orig_args[n] for n in order)))
            for b in outs:
                L.append("    same(%s, %s_orig, \"%s kernel %d %s\");" % (b, b, u.name, j, b))
            L.append("  }")
            src.extend(L)
    src.append("  std::printf(\"checked: %d different\\n\", failures);")
    src.append("  return failures ? 1 : 0;")
    src.append("}")
    return "\n".join(src) + "\n"


# Line shapes the outliner rewrites (Outliner.line), to check that it reads every one of gen.py's.
OUTLINED_LINE = re.compile(r"^\s*(?:(?:auto|int|float|int64_t|bool) \w+ = (.*);|\w+ (?:[-+*/%&|^])?= (.*);|"
                           r"if \((.*)\) \{|tl::store\((.*)\);)$")
# Variants of the functions transformation that the self-test must see in 40 units or more.
FN_VARIANTS = ("helper in here", "helper in struct", "helper in namespace plain", "helper in namespace nested",
               "helper in namespace inline", "helper in namespace anonymous", "nested", "locals",
               "if constexpr", "default arguments", "called twice", "store helper", "concrete return",
               "defined after the kernel", "parameter dims", "parameter abbrev", "parameter concrete_cref",
               "if condition", "store with the pointer's offsets")


def unread_lines(g):
    """Lines of gen.py's kernel that the outliner would rewrite but cannot parse back exactly."""
    bad = []
    for st in g.live_stmts():
        for line in st.text.split("\n"):
            m = OUTLINED_LINE.match(line)
            if not m:
                continue
            text = next(x for x in m.groups() if x is not None)
            if m.group(4) is not None:
                text = "tl::store(%s)" % text
            e = parse_expr(text)
            if e is None or not same_tokens(e.render(), text):
                bad.append(line.strip())
    return bad


def self_test(count, cxx, batch=40, start=0):
    configure(cxx)
    bad = 0
    seeds = [derived_seed(start, i) for i in range(count)]
    # Every other unit has the functions transformation forced on (otherwise chosen per seed).
    force = {s: ("functions",) if i % 2 else () for i, s in enumerate(seeds)}
    for s in seeds:
        a, b = Unit(s, force=force[s]), Unit(s, force=force[s])
        compose([a])
        compose([b])
        ta, tb = a.render() + a.wrappers(), b.render() + b.wrappers()
        if ta != tb:
            print("adversarial.py: seed %d renders differently twice" % s)
            bad += 1
        for k in a.kernels:
            for line in unread_lines(k.g):
                print("adversarial.py: seed %d: the functions transformation cannot read back %r" % (s, line))
                bad += 1
    stats = {}
    work = tempfile.mkdtemp(prefix="tilec-adversarial-check-")
    try:
        for i in range(0, len(seeds), batch):
            units = [Unit(s, force=force[s]) for s in seeds[i:i + batch]]
            d = os.path.join(work, "b%d" % i)
            write_batch(d, units)
            for u in units:
                for key, n in u.fn_stats.items():
                    stats[key] = stats.get(key, 0) + n
            with open(os.path.join(d, "check.cpp"), "w") as f:
                f.write(check_program(units))
            p = subprocess.run([cxx, "-std=c++20", "-O0", "-w", "-I", os.path.join(ROOT, "runtime_headers"), "-I", d,
                                "ref.cpp", "check.cpp", "-o", "check"], cwd=d, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            if p.returncode != 0:
                out = p.stdout.decode("utf-8", "replace")
                print("adversarial.py: seeds %d..: the transformed sources do not compile (%s):\n%s" % (
                    seeds[i], d, "\n".join(out.splitlines()[:40])))
                bad += 1
                continue
            p = subprocess.run(["./check"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            out = p.stdout.decode("utf-8", "replace")
            if p.returncode != 0:
                print("adversarial.py: transformed kernels compute something else (%s):\n%s" % (d, out))
                bad += 1
    finally:
        if not bad:
            shutil.rmtree(work, ignore_errors=True)
    helpers = stats.get("store helper", 0) + sum(n for key, n in stats.items() if key.startswith("helper in "))
    print("adversarial.py: functions: %d helpers (%s)" % (helpers, ", ".join(
        "%s %d" % kv for kv in sorted(stats.items()))))
    missing = [v for v in FN_VARIANTS if not stats.get(v)]
    if count >= 40 and missing:
        print("adversarial.py: functions: no %s in %d units" % (", ".join(missing), count))
        bad += 1
    print("adversarial.py: %d units, %d problems" % (count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", nargs="?", type=int)
    ap.add_argument("--self-test", type=int, metavar="N")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--transforms", metavar="LIST", help="as difftest.py's (printing one unit)")
    a = ap.parse_args()
    if a.self_test is not None:
        sys.exit(self_test(a.self_test, a.cxx))
    if a.seed is None:
        ap.error("a seed or --self-test N")
    configure(a.cxx, a.transforms.split(",") if a.transforms else None)
    u = Unit(a.seed)
    sys.stdout.write(batch_source([u]) + "\n\n// ref.cpp:\n" + u.wrappers())

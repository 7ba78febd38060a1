#!/usr/bin/env python3
"""Differential testing of tilec's generated code (docs/robustness.md, "Differential testing").

Generates random valid kernels (gen.py) in batches, translates each batch with tilec to CUDA and to
HIP, compiles each output with its host program for tilec's CPU emulator (with its race and bounds
checker), runs it, and compares every output with the CPU reference of the same source on the same
inputs. Optionally also compiles each output with nvcc and hipcc, warnings as errors.

  difftest.py --build BUILD [--seed S] [--kernels N] [--batch K] [--jobs J] [--targets cuda,hip]
              [--nvcc] [--hipcc] [--work DIR] [--keep] [--reduce] [--kept FILE...] [--adversarial]

A failing kernel is reported with its seed; `difftest.py --build BUILD --only-seed SEED --reduce`
regenerates it alone and shrinks it (dropping outputs and the statements only they need) while it
still fails the same way, and writes the reduced kernel and host program to the work directory.
A reduced kernel, shrunk further by hand, is kept as a test in tests/difftest/kept/ (kernel, then
its `static void run_NAME` host function, as `gen.py SEED` prints them); `--kept FILE...` runs such
files as one batch (CTest: difftest.kept). `--adversarial` runs adversarial.py's units instead:
gen.py's kernels rewritten by meaning-preserving transformations (hostile names, namespaces and
overloads, constants, whitespace and line endings, deep nesting, functions of your own; CTest:
difftest.adversarial).
Exit status: 0 when every kernel matched on every target, 1 otherwise.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402


class Env:
    def __init__(self, args, work):
        b = os.path.abspath(args.build)
        tilec = args.tilec or os.path.join(b, "tools", "tilec", "tilec")
        emu_lib = os.path.join(b, "emu", "libtilec_emu.a")
        for f in (tilec, emu_lib):
            if not os.path.exists(f):
                sys.exit("difftest: %s not found (build tilec first: tools/build.sh)" % f)
        # Copies: a rebuild during a long run must not change (or remove) the programs under test.
        os.makedirs(os.path.join(work, "bin"), exist_ok=True)
        self.tilec = os.path.join(work, "bin", "tilec")
        self.emu_lib = os.path.join(work, "bin", "libtilec_emu.a")
        shutil.copy2(tilec, self.tilec)
        shutil.copy2(emu_lib, self.emu_lib)
        self.cxx = args.cxx
        self.nvcc = args.nvcc_path or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        self.hipcc = args.hipcc_path or shutil.which("hipcc") or "hipcc"


def kernel_seed(seed, i):
    """The seed of kernel i of a run: reproducible on its own."""
    return (seed * 1000003 + i * 7919 + 12345) % (1 << 40)


def run(cmd, cwd, timeout=600):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode("utf-8", "replace") if e.stdout else ""
        return 124, out + "\n(timed out after %d s)" % timeout


class GenKernels:
    """Where the kernels come from: gen.py's, with one host program (main.cpp) for every target.
    `--adversarial` puts adversarial.py in its place, which has the same three functions."""

    Kernel = gen.Kernel

    @staticmethod
    def write_batch(d, kernels):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "k.cpp"), "w") as f:
            f.write(gen.batch_source(kernels))
        with open(os.path.join(d, "main.cpp"), "w") as f:
            f.write(gen.batch_harness(kernels, "k"))

    @staticmethod
    def harness_sources(d, kernels, target):
        """The host program's sources for `target`, once tilec has written k.cu or k.hip."""
        return ["main.cpp"]


KERNELS = GenKernels


def write_batch(d, kernels):
    KERNELS.write_batch(d, kernels)


class Kept:
    """A reduced kernel kept as a test (tests/difftest/kept/*.cpp): the kernel, then its host
    function `static void run_NAME(difftest::Run &)`, as gen.py prints one kernel."""

    def __init__(self, path):
        text = open(path).read()
        m = re.search(r"^static void run_(\w+)\(", text, re.M)
        if not m:
            sys.exit("difftest: %s: no `static void run_NAME(difftest::Run &run)`" % path)
        self.name, self.seed = m.group(1), os.path.basename(path)
        self.source, self.run = text[:m.start()], text[m.start():]


def write_kept(d, kept):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "k.cpp"), "w") as f:
        f.write("".join(k.source for k in kept))
    with open(os.path.join(d, "main.cpp"), "w") as f:
        f.write('#include "difftest.h"\n#include "k.cpp"\n#if defined(TILEC_EMULATE_HIP)\n#include "k.hip"\n'
                '#else\n#include "k.cu"\n#endif\n\n' + "\n".join(k.run for k in kept) +
                "\nint main(int argc, char **argv) {\n  difftest::Run run(argc, argv);\n" +
                "".join("  run_%s(run);\n" % k.name for k in kept) + "  return run.finish();\n}\n")


class Result:
    def __init__(self):
        self.failures = []  # (seed, target, stage, text)
        self.kernels = {}  # target -> kernels run
        self.stage_time = {}

    def add_time(self, stage, t):
        self.stage_time[stage] = self.stage_time.get(stage, 0.0) + t


def check_batch(env, d, kernels, targets, opts):
    """Translate, compile and run one batch directory. Returns (failures, per-stage times,
    kernels run per target); a failure names the kernel seed when it can be told apart."""
    res = Result()
    by_name = {k.name: k for k in kernels}
    for target in targets:
        ext = "cu" if target == "cuda" else "hip"
        t0 = time.time()
        rc, out = run([env.tilec, "--target=" + target, "k.cpp", "-o", "k." + ext], d)
        res.add_time("translate", time.time() - t0)
        if rc != 0:
            res.failures.append((None, target, "tilec", "exit %d\n%s" % (rc, out)))
            continue
        if (target == "cuda" and opts.nvcc) or (target == "hip" and opts.hipcc):
            t0 = time.time()
            if target == "cuda":
                cmd = [env.nvcc, "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", "-Werror", "all-warnings",
                       "-I", os.path.join(ROOT, "runtime_headers"), "-c", "k.cu", "-o", "k_nvcc.o"]
            else:
                cmd = [env.hipcc, "-std=c++17", "--offload-arch=gfx90a", "-Wall", "-Werror", "-Wno-unused-parameter",
                       "-I", os.path.join(ROOT, "runtime_headers"), "-c", "k.hip", "-o", "k_hipcc.o"]
            rc, out = run(cmd, d)
            res.add_time(target == "cuda" and "nvcc" or "hipcc", time.time() - t0)
            if rc != 0:
                res.failures.append((None, target, "nvcc" if target == "cuda" else "hipcc", out))
        exe = "main_" + target
        cmd = [env.cxx, "-std=c++20", "-O0", "-g", "-fsanitize=thread", "-DTILEC_EMULATE", "-w"]
        includes = ["-I", os.path.join(ROOT, "runtime_headers"), "-I", HERE, "-I", "."]
        sources = KERNELS.harness_sources(d, kernels, target)
        t0 = time.time()
        rc, out = 0, ""
        if "ref.cpp" in sources:
            # The CPU reference in a unit of its own (adversarial.py) is the same for both targets:
            # compiled once.
            if not os.path.exists(os.path.join(d, "ref.o")):
                rc, out = run(cmd + includes + ["-c", "ref.cpp", "-o", "ref.o"], d)
            sources = ["ref.o" if s == "ref.cpp" else s for s in sources]
        if target == "hip":
            cmd.append("-DTILEC_EMULATE_HIP")
        cmd += includes + sources + [env.emu_lib, "-lboost_context", "-ldl", "-o", exe]
        if rc == 0:
            rc, out = run(cmd, d)
        res.add_time("compile", time.time() - t0)
        if rc != 0:
            res.failures.append((None, target, "compile", out))
            continue
        t0 = time.time()
        rc, out = run(["./" + exe], d, timeout=opts.run_timeout)
        res.add_time("run", time.time() - t0)
        res.kernels[target] = len(kernels)
        if rc == 0:
            continue
        named = set()
        for line in out.splitlines():
            m = re.match(r"MISMATCH (\S+) (.*)", line)
            if m and m.group(1) in by_name:
                named.add(m.group(1))
        for name in sorted(named):
            lines = [l for l in out.splitlines() if l.startswith("MISMATCH %s " % name)]
            res.failures.append((by_name[name].seed, target, "mismatch", "\n".join(lines)))
        if rc != 1 or not named:
            # A checker report (exit 66), a crash or a hang: run each kernel alone to find which.
            culprits = []
            for k in kernels:
                if k.name in named:
                    continue
                krc, kout = run(["./" + exe, "--only", k.name], d, timeout=opts.run_timeout)
                if krc != 0:
                    culprits.append(k)
                    res.failures.append((k.seed, target, "emulator exit %d" % krc, tail(kout)))
            if not culprits and not named:
                res.failures.append((None, target, "emulator exit %d" % rc, tail(out)))
    return res


def tail(text, n=40):
    lines = text.splitlines()
    return "\n".join(lines[-n:])


def blame(d, text, kernels):
    """The kernels that the file:line locations of a diagnostic fall in: a line of k.cpp belongs to
    the kernel defined above it (or the unit: `// dtN: seed S`), a line of k.cu / k.hip to the
    instance namespace above it (or to the k.cpp lines of the statements around it), a line of a host
    program (main.cpp, main_TARGET.cpp, ref.cpp) to the run_ or ref_ function above it."""
    names = {k.name: k for k in kernels}
    found = []
    patterns = {"k.cpp": r"void (dt\d+)\(|^// (dt\d+): seed", "k.cu": r"namespace (dt\d+)_",
                "k.hip": r"namespace (dt\d+)_", "main.cpp": r"static void run_(dt\d+)\(",
                "main_cuda.cpp": r"static void run_(dt\d+)\(", "main_hip.cpp": r"static void run_(dt\d+)\(",
                "ref.cpp": r"void ref_(dt\d+)_\d+\("}
    # file:line (Clang, GCC) or file(line) (nvcc)
    for m in re.finditer(r"\b(k\.cpp|k\.cu|k\.hip|main\.cpp|main_cuda\.cpp|main_hip\.cpp|ref\.cpp)(?::|\()(\d+)",
                         text):
        try:
            with open(os.path.join(d, m.group(1))) as f:
                lines = f.read().split("\n")
        except OSError:
            continue
        at = int(m.group(2))
        opened = [l for l in reversed(lines[:at]) if re.match(r"\s*(inline\s+)?namespace\b", l)][:1]
        if m.group(1) in ("k.cu", "k.hip") and not (opened and re.search(patterns["k.cu"], opened[0])):
            # Not in an instance namespace of a kernel named dtN: the source lines of the statements
            # nearest above and below (`// k.cpp:LINE: ...`), as a launcher follows its kernel and
            # the constants of a kernel precede it.
            near = [l for l in reversed(lines[:at]) if re.search(r"// k\.cpp:\d+:", l)][:1] + \
                [l for l in lines[at:] if re.search(r"// k\.cpp:\d+:", l)][:1]
            for l in near:
                src = "k.cpp:" + re.search(r"// k\.cpp:(\d+):", l).group(1)
                found += [k for k in blame(d, src, kernels) if k not in found]
            continue
        for line in reversed(lines[:at]):
            hit = re.search(patterns[m.group(1)], line)
            if hit:
                name = next(g for g in hit.groups() if g)
                if name in names and names[name] not in found:
                    found.append(names[name])
                break
    return found


def isolate(env, work, kernels, targets, opts, failure, d):
    """A batch failed as a whole (tilec or a compiler): check the kernels its diagnostics point
    at alone, or else each kernel alone."""
    found = []
    suspects = blame(d, failure[3], kernels) or kernels
    for k in suspects:
        d = os.path.join(work, "single-%d" % k.seed)
        write_batch(d, [k])
        r = check_batch(env, d, [k], [failure[1]], opts)
        for f in r.failures:
            found.append((k.seed,) + f[1:])
        if not opts.keep:
            shutil.rmtree(d, ignore_errors=True)
    if not found:
        found.append(failure)  # only the batch fails: keep the batch's failure
    return found


def do_batch(env, work, seeds, targets, opts, index):
    """One batch. When tilec or a compiler fails on the batch as a whole, the kernels to blame are
    found (isolate) and the batch runs again without them, so that one failure does not hide the
    others' results."""
    kernels = [KERNELS.Kernel(s) for s in seeds]
    d = os.path.join(work, "batch-%05d" % index)
    failures, ran, times = [], {}, {}
    todo = list(targets)
    for attempt in range(4):
        write_batch(d, kernels)
        res = check_batch(env, d, kernels, todo, opts)
        for s, t in res.stage_time.items():
            times[s] = times.get(s, 0.0) + t
        for t, c in res.kernels.items():
            ran[t] = ran.get(t, 0) + c
        blamed = set()
        whole = [f for f in res.failures if f[0] is None and f[2] in ("tilec", "compile", "nvcc", "hipcc")]
        failures += [f for f in res.failures if f not in whole]
        for f in whole:
            found = isolate(env, work, kernels, targets, opts, f, d) if len(kernels) > 1 else \
                [(kernels[0].seed,) + f[1:]]
            failures += found
            blamed |= {x[0] for x in found if x[0] is not None}
        if not whole:
            break
        rest = [k for k in kernels if k.seed not in blamed]
        if not blamed or not rest:
            break
        kernels = rest
        todo = sorted({f[1] for f in whole})
    if not failures and not opts.keep:
        shutil.rmtree(d, ignore_errors=True)
    return index, len(seeds), ran, times, failures


def reduce_kernel(env, work, seed, target, opts):
    """Drop outputs (and the statements only they need) while the kernel still fails on `target`
    in the same stage; writes the smallest failing version to work/reduced-SEED/."""
    k = KERNELS.Kernel(seed)
    d = os.path.join(work, "reduce-%d" % seed)

    def fails(kk):
        write_batch(d, [kk])
        r = check_batch(env, d, [kk], [target], opts)
        return r.failures[0][2] if r.failures else None

    stage = fails(k)
    if stage is None:
        print("difftest: kernel %d passes on %s; nothing to reduce" % (seed, target))
        return None
    changed = True
    while changed:
        changed = False
        outs = [s for s in k.stmts if s.output is not None]
        for s in outs:
            if len([t for t in k.stmts if t.output is not None]) <= 1:
                break
            i = k.stmts.index(s)
            k.stmts.pop(i)
            if fails(k) == stage:
                changed = True
            else:
                k.stmts.insert(i, s)
        # Statements not needed by the remaining outputs are gone from live_stmts already; try
        # removing the frame's optional values too.
        k.stmts = k.live_stmts()
    out = os.path.join(work, "reduced-%d" % seed)
    write_batch(out, [k])
    print("difftest: kernel %d reduced (%s, %s): %s" % (seed, target, stage, k.describe()))
    print("  " + ", ".join(os.path.join(out, f) for f in sorted(os.listdir(out))))
    shutil.rmtree(d, ignore_errors=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="tilec's build directory (tools/build.sh: build)")
    ap.add_argument("--tilec", help="the tilec binary (default: BUILD/tools/tilec/tilec)")
    ap.add_argument("--cxx", default="g++", help="host C++ compiler for the emulator (default g++)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernels", type=int, default=200, help="kernels to generate (each runs on every target)")
    ap.add_argument("--batch", type=int, default=40, help="kernels per translation unit")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--targets", default="cuda,hip")
    ap.add_argument("--nvcc", action="store_true", help="also compile the CUDA output with nvcc -Werror")
    ap.add_argument("--hipcc", action="store_true", help="also compile the HIP output with hipcc -Werror")
    ap.add_argument("--nvcc-path", help="nvcc to use (default: on the PATH, else /usr/local/cuda/bin)")
    ap.add_argument("--hipcc-path", help="hipcc to use (default: on the PATH)")
    ap.add_argument("--work", help="work directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep every batch directory")
    ap.add_argument("--run-timeout", type=int, default=300)
    ap.add_argument("--only-seed", type=int, help="run the kernel of this seed alone")
    ap.add_argument("--reduce", action="store_true", help="reduce failing kernels")
    ap.add_argument("--adversarial", action="store_true",
                    help="run adversarial.py's units: gen.py's kernels under meaning-preserving transformations")
    ap.add_argument("--transforms", metavar="LIST",
                    help="with --adversarial, for triage: only these transformations (comma-separated: names, "
                         "namespaces, constants, whitespace, nesting, settings, functions, or the parts comments, "
                         "splices, endings, wrappers, parens, calls, stores; all; no-KEY takes one away; +KEY "
                         "applies KEY in every unit, not only where the seed chooses it)")
    ap.add_argument("--kept", nargs="+", metavar="FILE",
                    help="run these kept kernels (tests/difftest/kept/*.cpp) instead of generated ones")
    opts = ap.parse_args()
    global KERNELS
    if opts.adversarial and opts.kept:
        ap.error("--kept runs kept gen.py kernels; it does not go with --adversarial")
    if opts.adversarial:
        import adversarial
        adversarial.configure(opts.cxx, opts.transforms.split(",") if opts.transforms else None)
        KERNELS = adversarial
    targets = [t for t in opts.targets.split(",") if t]
    work = os.path.abspath(opts.work) if opts.work else tempfile.mkdtemp(prefix="tilec-difftest-")
    os.makedirs(work, exist_ok=True)
    env = Env(opts, work)

    if opts.kept:
        kept = [Kept(p) for p in opts.kept]
        d = os.path.join(work, "kept")
        write_kept(d, kept)
        res = check_batch(env, d, kept, targets, opts)
        for f in res.failures:
            print("FAIL %s, %s, %s:\n%s" % (f[0] or "batch", f[1], f[2], f[3]), flush=True)
        print("difftest: %d kept kernels on %s; %d failures" % (len(kept), ",".join(targets), len(res.failures)))
        if not opts.work and not res.failures:
            shutil.rmtree(work, ignore_errors=True)
        return 1 if res.failures else 0
    if opts.only_seed is not None:
        seeds = [opts.only_seed]
    else:
        seeds = [kernel_seed(opts.seed, i) for i in range(opts.kernels)]
    batches = [seeds[i:i + opts.batch] for i in range(0, len(seeds), opts.batch)]
    start = time.time()
    failures, ran, times = [], {t: 0 for t in targets}, {}
    done = 0
    print("difftest: %d kernels in %d batches, targets %s, seed %d, %d jobs, work %s" % (
        len(seeds), len(batches), ",".join(targets), opts.seed, opts.jobs, work), flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
        futs = [ex.submit(do_batch, env, work, b, targets, opts, i) for i, b in enumerate(batches)]
        for fut in concurrent.futures.as_completed(futs):
            index, n, kernels_run, stage_time, fails = fut.result()
            done += n
            for t, c in kernels_run.items():
                ran[t] += c
            for s, t in stage_time.items():
                times[s] = times.get(s, 0.0) + t
            failures += fails
            for f in fails:
                print("FAIL kernel seed %s, %s, %s:\n%s" % (f[0], f[1], f[2], f[3]), flush=True)
            print("difftest: %d/%d kernels, %d failures, %.0f s" % (done, len(seeds), len(failures),
                                                                  time.time() - start), flush=True)
    elapsed = time.time() - start
    print("difftest: %s; %d failures; %.0f s wall (%s)" % (
        ", ".join("%d kernels on %s" % (ran[t], t) for t in targets), len(failures), elapsed,
        ", ".join("%s %.0f s" % kv for kv in sorted(times.items()))))
    if failures and opts.reduce:
        for seed in sorted({f[0] for f in failures if f[0] is not None}):
            target = next(f[1] for f in failures if f[0] == seed)
            reduce_kernel(env, work, seed, target, opts)
    if not opts.work and not opts.keep and not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

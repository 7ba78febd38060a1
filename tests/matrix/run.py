#!/usr/bin/env python3
"""Runs cells of the operator matrix (gen.py): for each element type x rank, the kernel source is
translated by tilec for CUDA and for HIP, the CUDA compiled by nvcc and the HIP by hipcc for gfx90a
(warnings as errors), and the host program run on tilec's CPU emulator (with its race and bounds
checker) for both targets against the CPU reference and the float64 oracle. The CUDA architecture
alternates with the rank (CUDA_ARCH): rank 1 is translated and compiled for sm_80, rank 2 for sm_90a,
so that every operation on every type it accepts is compiled for both, each once.

  run.py --build BUILD [--cells fp16:1,fp16:2 | --cells all] [--nvcc] [--hipcc] [--work DIR] [--jobs J]

A matrix cell is one operation x element type x rank x target. Prints one line per (type, rank)
and the total: cells tried, cells passing. Exit status 0 when every cell passes.
A kernel that tilec or a compiler rejects fails its cells; the rest of its translation unit is
translated again without it, so that one failure does not hide the others.
With --mutated each host program also runs with every oracle wrong on purpose (`--mutate`, gen.py):
a cell passes only if it then fails at its oracle, which shows that the checks can fail.
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
DIFFTEST = os.path.join(ROOT, "tests", "difftest")
sys.path.insert(0, HERE)
import gen  # noqa: E402

TARGETS = ("cuda", "hip")


def run(cmd, cwd, timeout=900):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode("utf-8", "replace") if e.stdout else ""
        return 124, out + "\n(timed out after %d s)" % timeout


def blamed(text, d, names, files):
    """The kernels whose lines a diagnostic names: a line of k.cpp belongs to the kernel defined
    above it; a line of k.cu / k.hip to the instance namespace above it."""
    found = set()
    for m in re.finditer(r"\b(k\.cpp|k\.cu|k\.hip)(?::|\()(\d+)", text):
        lines = files.get(m.group(1))
        if lines is None:
            try:
                with open(os.path.join(d, m.group(1))) as f:
                    lines = files[m.group(1)] = f.read().split("\n")
            except OSError:
                continue
        for line in reversed(lines[:int(m.group(2))]):
            hit = re.match(r"void (mx_\w+)\(|namespace (mx_\w+?)_\d", line)
            if hit:
                name = hit.group(1) or hit.group(2)
                if name in names:
                    found.add(name)
                break
    return found


class Cell:
    def __init__(self, t, rank, work):
        self.t, self.rank = t, rank
        self.dir = os.path.join(work, "%s-%d" % (t.key, rank))
        self.kernels = gen.kernels_of(t, rank)
        self.failed = {}  # (kernel, target) -> why
        self.times = {}

    def fail(self, name, target, why):
        self.failed.setdefault((name, target), why)

    def timed(self, stage, cmd, cwd=None):
        t0 = time.time()
        rc, out = run(cmd, cwd or self.dir)
        self.times[stage] = self.times.get(stage, 0.0) + time.time() - t0
        return rc, out


# The CUDA architecture of each rank's cells: tilec translates for it (--arch) and nvcc compiles
# for it alone. The ranks run the same operations on the same types; what the architecture can
# change (the runtime headers' arch-dependent paths, the code tilec chooses) is in the operations,
# not in the rank's indexing.
CUDA_ARCH = {1: "sm_80", 2: "sm_90a", 3: "sm_80"}


def gencode(arch):
    return "-gencode=arch=compute_%s,code=%s" % (arch[3:], arch)


# How the generated code is optimized for the emulator: as GPU compilers always optimize, so that
# undefined behaviour in the output (a signed overflow, a type pun) shows in the results where a
# compiler exploits it. GCC exploits it in constant folding and loop-bound inference (every level),
# in value-range propagation (-ftree-vrp, -fipa-vrp), through type-based aliasing
# (-fstrict-aliasing) and on paths that dereference null (-fisolate-erroneous-paths-dereference):
# -O1 with those, which -O2 adds. -O2's other passes (scheduling, vectorization, more inlining and
# redundancy elimination) add 40% to the compile time (fp16 rank 2: 6.8 -> 9.6 s a target).
EMU_OPT = ["-O1", "-ftree-vrp", "-fipa-vrp", "-fstrict-aliasing", "-fisolate-erroneous-paths-dereference"]


def emu_cmd(env, target, *rest):
    """The host compiler as the emulator needs it for the generated code: optimized (EMU_OPT), and
    -fsanitize=thread, which instruments every memory access for the emulator's checker. (Linking
    needs the flag too.)"""
    cmd = [env.cxx, "-std=c++20"] + EMU_OPT + ["-fsanitize=thread", "-DTILEC_EMULATE", "-w"]
    if target == "hip":
        cmd.append("-DTILEC_EMULATE_HIP")
    return cmd + list(rest)


def host_cmd(env, *rest):
    """The host compiler for the host part of the program (the CPU reference of k.cpp, the oracles,
    the checks, main): no kernel runs there, so the emulator's checker has nothing to see (it ignores
    accesses outside a kernel) and needs no instrumentation, and nothing in it is the generated code
    whose optimization matters. Unoptimized, as tests/emu and difftest build their host programs: it
    compiles in a quarter of the time of -O2 with -fsanitize=thread, and runs in well under a
    second."""
    return [env.cxx, "-std=c++20", "-O0", "-DTILEC_EMULATE", "-w"] + list(rest)


def check_cell(cell, env):
    os.makedirs(cell.dir, exist_ok=True)
    hosts = {}  # kernel names -> the host program's object (main.cpp), shared by both targets
    includes = ["-I", os.path.join(ROOT, "runtime_headers"), "-I", DIFFTEST, "-I", HERE, "-I", "."]
    for target in TARGETS:
        ext = "cu" if target == "cuda" else "hip"
        kernels = list(cell.kernels)
        # Translate and compile; drop the kernels a stage blames, and try again.
        for attempt in range(6):
            key = tuple(k.name for k in kernels)
            host = hosts.get(key)
            with open(os.path.join(cell.dir, "k.cpp"), "w") as f:
                f.write(gen.render_source(cell.t, cell.rank, kernels))
            with open(os.path.join(cell.dir, "main.cpp"), "w") as f:
                f.write(gen.render_main(cell.t, cell.rank, kernels))
            names = set(key)
            arch = ["--arch=" + CUDA_ARCH[cell.rank]] if target == "cuda" else []
            stages = [("tilec", [env.tilec, "--target=" + target] + arch + ["k.cpp", "-o", "k." + ext])]
            if target == "cuda" and env.nvcc:
                stages.append(("nvcc", [env.nvcc, "-std=c++17", gencode(CUDA_ARCH[cell.rank]), "-Werror",
                                        "all-warnings", "-I", os.path.join(ROOT, "runtime_headers"), "-c", "k.cu",
                                        "-o", "k_nvcc.o"]))
            if target == "hip" and env.hipcc:
                stages.append(("hipcc", [env.hipcc, "-std=c++17", "--offload-arch=gfx90a", "-Wall", "-Werror",
                                         "-Wno-unused-parameter", "-I", os.path.join(ROOT, "runtime_headers"),
                                         "-c", "k.hip", "-o", "k_hipcc.o"]))
            # The emulator's program: the host part (the CPU reference of k.cpp, the checks, main)
            # compiled once for both targets (the emulator's CUDA and HIP headers give the launchers
            # one signature), the generated code as a translation unit of its own per target.
            exe = "main_" + target
            if host is None:
                host = "main%d.o" % len(hosts)
                stages.append(("compile", host_cmd(env, "-DMATRIX_LAUNCHERS_APART", *includes, "-c", "main.cpp",
                                                   "-o", host)))
            stages.append(("compile", emu_cmd(env, target, *includes, "-x", "c++", "-c", "k." + ext, "-o",
                                              "k_emu_%s.o" % target)))
            stages.append(("compile", emu_cmd(env, target, host, "k_emu_%s.o" % target, env.emu_lib,
                                              "-lboost_context", "-ldl", "-o", exe)))
            broken = None
            for stage, cmd in stages:
                rc, out = cell.timed(stage, cmd)
                if rc != 0:
                    broken = (stage, out)
                    break
                if cmd[-1] == host:
                    hosts[key] = host
            if broken is None:
                break
            stage, out = broken
            guilty = blamed(out, cell.dir, names, {})
            if not guilty:  # nothing to blame: every remaining kernel fails on this target
                for k in kernels:
                    cell.fail(k.name, target, "%s failed on the unit:\n%s" % (stage, tail(out)))
                kernels = []
                break
            for name in guilty:
                lines = [l for l in out.splitlines() if name in l or "error" in l][:12]
                cell.fail(name, target, "%s:\n%s" % (stage, "\n".join(lines)))
            kernels = [k for k in kernels if k.name not in guilty]
            if not kernels:
                break
        if not kernels:
            continue
        for mutated in (False, True) if env.mutated else (False,):
            args = ["--mutate"] if mutated else []
            rc, out = cell.timed("run", ["./main_" + target] + args)
            found = {}
            for line in out.splitlines():
                m = re.match(r"MISMATCH (\S+) (.*)", line)
                if m:
                    found.setdefault(m.group(1), []).append(line)
            if mutated:
                # Every kernel must fail, and at its oracle: the checks of every cell can fail.
                for k in kernels:
                    if not any("float64 oracle" in l for l in found.get(k.name, [])):
                        cell.fail(k.name, target, "NOT CAUGHT: passed with a wrong oracle (--mutate)%s" % (
                            "" if rc == 0 or found else ":\n" + tail(out)))
                continue
            for name, lines in found.items():
                cell.fail(name, target, "\n".join(lines))
            if rc != 0 and not found:
                # A checker report, a crash or a hang: each kernel alone.
                for k in kernels:
                    krc, kout = cell.timed("run", ["./main_" + target, "--only", k.name])
                    if krc != 0:
                        cell.fail(k.name, target, "emulator exit %d:\n%s" % (krc, tail(kout)))
    return cell


def tail(text, n=30):
    return "\n".join(text.splitlines()[-n:])


def check_rejections(t, rank, env, work, jobs, compare_all=False):
    """The other half of 'every type it accepts': each operation that does not accept t, used on a
    tile of t, is one error located at the misuse in the user's source (not inside tl.hpp, no
    cascade of follow-on errors), and tilec writes nothing. One translation unit per misuse (Clang
    reports an error in an instantiation of tl.hpp once per unit). Returns (misuses, failures).

    tilec reads <tilec/tl.hpp> precompiled (--pch-dir WORK/pch, built by the first run): parsing
    the header would be most of each run's time. The first misuse of each type and rank (with
    compare_all, every one) is also translated without it, and both runs must print the same."""
    ks = gen.rejected_of(t, rank)
    d = os.path.join(work, "%s-%d-rejections" % (t.key, rank))
    os.makedirs(d, exist_ok=True)
    pch_dir = os.path.join(work, "pch")
    compared = {k.name for k in (ks if compare_all else ks[:1])}

    def one(k):
        text, misuse = gen.render_rejections(t, rank, [k])
        src, out_file = k.name + ".cpp", os.path.join(d, k.name + ".cu")
        with open(os.path.join(d, src), "w") as f:
            f.write(text)
        if os.path.exists(out_file):
            os.remove(out_file)
        cmd = [env.tilec, "--target=cuda", src, "-o", k.name + ".cu"]
        rc, out = run(cmd[:1] + ["--pch-dir", pch_dir] + cmd[1:], d)
        problems = []
        if k.name in compared:
            plain_rc, plain = run(cmd, d)
            if (plain_rc, plain) != (rc, out):
                problems.append("with --pch-dir tilec exited %d and printed:\n%s\nwithout it, exited %d and printed:\n%s"
                                % (rc, tail(out, 20), plain_rc, tail(plain, 20)))
        errors = re.findall(r"^(\S+?):(\d+):(\d+): error: ", out, re.M)
        want = (src, misuse[k.name])
        got = [(os.path.basename(f), int(l)) for f, l, _ in errors]
        if rc == 0 or os.path.exists(out_file):
            problems.append("tilec exit %d%s" % (rc, ", and it wrote the output" if os.path.exists(out_file) else ""))
        if got != [want]:
            problems.append("want one error at %s:%d, got %s" % (want + (", ".join("%s:%d" % g for g in got) or "none",)))
        if re.search(r"internal error|Assertion|Segmentation|Aborted", out):
            problems.append("tilec crashed")
        return k.name, problems, out

    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, problems, out in ex.map(one, ks):
            if problems:
                failures.append((name, "; ".join(problems) + "\n" + tail(out, 20)))
    return len(ks), failures


class Env:
    def __init__(self, a):
        b = os.path.abspath(a.build)
        self.tilec = a.tilec or os.path.join(b, "tools", "tilec", "tilec")
        self.emu_lib = os.path.join(b, "emu", "libtilec_emu.a")
        for f in (self.tilec, self.emu_lib):
            if not os.path.exists(f):
                sys.exit("matrix: %s not found (build tilec first: tools/build.sh)" % f)
        self.cxx = a.cxx
        self.nvcc = (a.nvcc_path or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc") if a.nvcc else None
        self.hipcc = (a.hipcc_path or shutil.which("hipcc") or "hipcc") if a.hipcc else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="tilec's build directory")
    ap.add_argument("--tilec", help="the tilec binary (default: BUILD/tools/tilec/tilec)")
    ap.add_argument("--cxx", default="g++", help="host C++ compiler for the emulator (default g++)")
    ap.add_argument("--cells", default="all", help="TYPE:RANK,... or all")
    ap.add_argument("--nvcc", action="store_true", help="compile the CUDA output with nvcc -Werror")
    ap.add_argument("--hipcc", action="store_true", help="compile the HIP output with hipcc -Werror")
    ap.add_argument("--nvcc-path")
    ap.add_argument("--hipcc-path")
    ap.add_argument("--work", help="work directory (default: a temporary one, removed when all pass)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--mutated", action="store_true",
                    help="also run each host program with wrong oracles (--mutate): every cell must then fail "
                         "at its oracle")
    ap.add_argument("--emit-gpu", metavar="DIR",
                    help="instead: write each cell's kernel source, CUDA and host program to DIR/TYPE-RANK "
                         "for tools/gpu-matrix.sh on a GPU machine")
    ap.add_argument("--rejections", action="store_true",
                    help="instead: each operation on each type it does not accept must be one located error")
    ap.add_argument("--pch-compare-all", action="store_true",
                    help="with --rejections: translate every misuse also without --pch-dir (not only the first of "
                         "each type and rank) and require the same diagnostics")
    a = ap.parse_args()
    env = Env(a)
    env.mutated = a.mutated
    cells = gen.cells() if a.cells == "all" else [gen.parse_cell(c) for c in a.cells.split(",") if c]
    work = os.path.abspath(a.work) if a.work else tempfile.mkdtemp(prefix="tilec-matrix-")
    start = time.time()
    tried = passed = 0
    if a.emit_gpu:
        for t, r in cells:
            d = os.path.join(os.path.abspath(a.emit_gpu), "%s-%d" % (t.key, r))
            ks = gen.write_cell(t, r, d)
            rc, out = run([env.tilec, "--target=cuda", "k.cpp", "-o", "k.cu"], d)
            if rc != 0:
                sys.exit("matrix: tilec failed on %s:\n%s" % (d, out))
            print("matrix: %s (%d kernels)" % (d, len(ks)))
        return 0
    if a.rejections:
        for t, r in cells:
            n, failures = check_rejections(t, r, env, work, a.jobs, a.pch_compare_all)
            ok = n - len(failures)
            tried += n
            passed += ok
            for name, why in failures:
                print("FAIL %s %s rank %d: %s" % (name, t.key, r, why), flush=True)
            print("matrix rejections %s rank %d: %d misuses, %d located errors" % (t.key, r, n, ok), flush=True)
        print("matrix rejections: %d misuses (operation x element type it does not accept x rank), %d a located "
              "error; %.0f s" % (tried, passed, time.time() - start))
        if passed == tried and not a.work:
            shutil.rmtree(work, ignore_errors=True)
        return 0 if passed == tried else 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(check_cell, Cell(t, r, work), env) for t, r in cells]
        for fut in concurrent.futures.as_completed(futs):
            c = fut.result()
            n = len(c.kernels) * len(TARGETS)
            bad = len(c.failed)
            for (name, target), why in sorted(c.failed.items()):
                print("FAIL %s %s rank %d %s:\n%s" % (name[3:], c.t.key, c.rank, target, why), flush=True)
            tried += n
            passed += n - bad
            print("matrix %s rank %d: %d operations x %d targets: %d cells, %d %s (%s)" % (
                c.t.key, c.rank, len(c.kernels), len(TARGETS), n, n - bad, "pass",
                ", ".join("%s %.0f s" % kv for kv in sorted(c.times.items()))), flush=True)
    stages = ["tilec", "emulator"] + (["nvcc (%s)" % ", ".join("rank %d %s" % kv for kv in sorted(CUDA_ARCH.items()))] if env.nvcc else []) + (["hipcc gfx90a"] if env.hipcc else [])
    print("matrix: %d cells (operation x element type x rank x target) tried, %d pass%s; %s; %.0f s" % (
        tried, passed, " (and fail at their oracle when it is wrong on purpose)" if a.mutated else "",
        ", ".join(stages), time.time() - start))
    if passed == tried and not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if passed == tried else 1


if __name__ == "__main__":
    sys.exit(main())

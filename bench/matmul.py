#!/usr/bin/env python3
"""Matrix multiplication on one GPU: tilec's examples/matmul/matmul.cpp (bench/gen/matmul.cu through
bench/shim/matmul_shim.cu) beside Triton's tutorial-03 kernel with the same meta-parameters and
cuBLAS (torch.mm). fp16 A [M, K] and B [K, N], row-major, an fp32 accumulator, fp16 C [M, N].

Run it through bench/matmul.sh, which builds the shim:
    python3 bench/matmul.py LIB.so [--out DIR] [--shapes MxNxK,...] [--nvcc-version V]

Method:
  * Correctness first, for every provider and shape: fresh random inputs (randn * 0.1), the output
    filled with NaN before the run, compared with a float64 reference (A.double() @ B.double() on the
    GPU) by ||out - ref|| / ||ref||; tolerance 1e-2 (the fp16 rounding of C alone gives ~3e-4). A
    provider that fails is reported as FAIL and not timed. After timing, the output is poisoned again,
    the provider run once more and checked again. Two extra shapes are only checked: ragged sizes
    (odd M, N, K) and a column-major B.
  * Timing as triton.testing.do_bench does it: the L2 flushed (a 256 MB buffer zeroed) before every
    repetition, each repetition timed alone with CUDA events, about 25 ms of warm-up, then the median
    over at least 20 repetitions (up to ~150 ms worth, at most 1000).
  * Triton runs at num_stages=3 (its tutorial's usual setting: cp.async software pipelining) and at
    num_stages=1 (no pipelining); tilec at its configuration's NUM_STAGES (pipeline-dots). Speed ratios are time ratios: "vs cuBLAS" is
    t_cuBLAS / t (1.0 = as fast as cuBLAS), "tilec vs Triton" is t_Triton / t_tilec.
  * cuBLAS is timed first for each shape (its TF/s column) and again just before each tilec
    configuration: a long run heats the GPU and its clocks fall (tilec's and Triton's big tiles 7%
    slower over the 16 configurations of Run M22 in bench/NOTES.md than in a short call), so each
    per-configuration "vs cuBLAS" ratio, tilec's and that configuration's Triton rows', divides by
    the cuBLAS time measured beside it; the best-of table divides by the median of the shape's
    cuBLAS timings and gives their range (cuBLAS alone spreads by up to 10% within a call).
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import subprocess
import sys

import torch
import triton
import triton.language as tl

# The tilec configurations (bench/kernels.txt; the shim's `config` argument is the index):
# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, NUM_STAGES). Triton runs each block shape once
# per TRITON_STAGES, whatever tilec's NUM_STAGES.
CONFIGS = [
    (64, 64, 32, 8, 4, 3),    # 0: the example's own instantiation
    (128, 64, 32, 8, 4, 3),   # 1
    (128, 128, 32, 8, 8, 2),  # 2
    (128, 128, 32, 8, 8, 1),  # 3: 2 without the pipeline (one stage)
    (128, 128, 32, 8, 8, 3),  # 4: above 48 KB of shared memory from here on (dynamic)
    (128, 128, 32, 8, 4, 4),  # 5
    (128, 256, 32, 8, 8, 3),  # 6
    (128, 128, 64, 8, 8, 3),  # 7
    (128, 128, 64, 8, 4, 3),  # 8
    (256, 128, 32, 8, 8, 3),  # 9
    (128, 128, 32, 8, 4, 5),  # 10
    (128, 256, 32, 8, 8, 4),  # 11: swizzled operands (no padding) leave room for a fourth stage
    (256, 128, 32, 8, 8, 4),  # 12
    (128, 256, 64, 8, 8, 3),  # 13: CUTLASS's usual Hopper tile (K steps of 64)
    (256, 128, 64, 8, 8, 3),  # 14
    (128, 256, 32, 8, 8, 6),  # 15: 11 with six stages (the warp-specialized ring runs further ahead)
]
TRITON_STAGES = (1, 3)
TOL = 1e-2
FLUSH_BYTES = 256 * 1024 * 1024  # as triton.testing.do_bench


# Triton's tutorial 03 (python/tutorials/03-matrix-multiplication.py), without autotune and the
# activation: fp16 in, fp32 accumulator, fp16 out, grouped ordering; the same algorithm as
# examples/matmul/matmul.cpp line for line.
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# ---------------------------------------------------------------------------------------- shapes

def timed_shapes():
    """(label, M, N, K), deduplicated: 4096^3 is both a square and an LLM shape."""
    shapes = [(f"square {n}", n, n, n) for n in (256, 512, 1024, 2048, 4096, 8192)]
    shapes += [("LLM", 4096, 4096, 4096), ("LLM", 4096, 11008, 4096), ("LLM", 4096, 4096, 11008)]
    shapes += [("skinny", 16, 4096, 4096), ("skinny", 64, 4096, 4096)]
    out, seen = [], {}
    for label, m, n, k in shapes:
        if (m, n, k) in seen:
            i = seen[(m, n, k)]
            out[i] = (out[i][0] + " / " + label, m, n, k)
        else:
            seen[(m, n, k)] = len(out)
            out.append((label, m, n, k))
    return out


# Checked, not timed: sizes that are multiples of nothing (masks, % M / % N wrap, odd strides) and a
# column-major B (stride_bk = 1).
CHECK_ONLY = [("ragged", 333, 517, 1003, False), ("B col-major", 512, 384, 640, True)]


def parse_shapes(text):
    out = []
    for item in text.split(","):
        m, n, k = (int(v) for v in item.lower().split("x"))
        out.append(("custom", m, n, k))
    return out


def shape_name(m, n, k):
    return f"{m}x{n}x{k}"


# ------------------------------------------------------------------------------------- providers

class Provider:
    """One way of computing C = A B: name, kind (cublas, tilec, triton), config index, stages."""

    def __init__(self, name, kind, config=None, stages=None):
        self.name, self.kind, self.config, self.stages = name, kind, config, stages

    def run(self, a, b, c):
        raise NotImplementedError


class Cublas(Provider):
    def __init__(self):
        super().__init__("cuBLAS", "cublas")

    def run(self, a, b, c):
        torch.mm(a, b, out=c)


class Tilec(Provider):
    def __init__(self, lib, config):
        bm, bn, bk, g, w, st = CONFIGS[config]
        super().__init__(f"tilec {bm}x{bn}x{bk} w{w} s{st}", "tilec", config, st)
        self.fn = lib.tilec_matmul

    def run(self, a, b, c):
        m, k = a.shape
        n = b.shape[1]
        rc = self.fn(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), self.config,
                     ctypes.c_void_p(a.data_ptr()), ctypes.c_void_p(b.data_ptr()),
                     ctypes.c_void_p(c.data_ptr()), m, n, k, a.stride(0), a.stride(1),
                     b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        if rc != 0:
            raise RuntimeError(f"tilec_matmul returned {rc}"
                               + (" (config not generated)" if rc == -1 else " (cudaError_t)"))


class Triton(Provider):
    def __init__(self, config, stages):
        bm, bn, bk, g, w, _ = CONFIGS[config]
        super().__init__(f"Triton {bm}x{bn}x{bk} w{w} s{stages}", "triton", config, stages)
        self.compiled = {}  # Triton's CompiledKernel per specialization seen (the last one kept)

    def run(self, a, b, c):
        m, k = a.shape
        n = b.shape[1]
        bm, bn, bk, g, w, _ = CONFIGS[self.config]
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
        ck = matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                 b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                                 BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=g, num_warps=w,
                                 num_stages=self.stages)
        if ck is not None:
            self.compiled[shape_name(m, n, k)] = ck


def triton_kernel_info(ck):
    """Registers, spills, shared memory and the instructions that tell the code apart (wgmma or
    mma.sync, cp.async pipelining, TMA) of one compiled Triton kernel; whatever this Triton exposes."""
    info = {}
    for key in ("n_regs", "n_spills"):
        v = getattr(ck, key, None)
        if isinstance(v, int):
            info[key] = v
    md = getattr(ck, "metadata", None)
    shared = getattr(md, "shared", None) if md is not None else None
    if shared is None and isinstance(md, dict):
        shared = md.get("shared")
    if isinstance(shared, int):
        info["shared_bytes"] = shared
    ptx = (getattr(ck, "asm", None) or {}).get("ptx", "")
    if ptx:
        info["wgmma"] = "wgmma.mma_async" in ptx
        info["mma.sync"] = "mma.sync" in ptx
        info["cp.async"] = "cp.async.cg" in ptx or "cp.async.ca" in ptx
        info["tma"] = "cp.async.bulk.tensor" in ptx
        info["ld.global.v4"] = "ld.global.v4" in ptx
    return info


# ---------------------------------------------------------------------------------- measurements

def rel_err(out, ref):
    out = out.double()
    den = torch.linalg.vector_norm(ref).item()
    num = torch.linalg.vector_norm(out - ref).item()
    if math.isnan(num):
        return float("nan")
    return num / den if den else num


def check(p, a, b, c, ref):
    """Poison C, run once, compare: (ok, error, message)."""
    try:
        c.fill_(float("nan"))
        p.run(a, b, c)
        torch.cuda.synchronize()
        err = rel_err(c, ref)
    except Exception as e:  # noqa: BLE001 (a failing provider is reported, the others go on)
        return False, None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    ok = err <= TOL  # False for NaN
    return ok, err, "" if ok else f"rel err {err:.3g} > {TOL:g}"


def bench_ms(fn, flush, warmup_ms=25.0, target_ms=150.0, min_reps=20, max_reps=1000):
    """do_bench's method: L2 flushed before each repetition, each repetition timed alone; returns
    the median, quartiles and count of the repetitions (ms)."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        flush.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    est = max(start.elapsed_time(end) / 5, 1e-3)
    for _ in range(max(1, int(warmup_ms / est))):
        fn()
    reps = max(min_reps, min(max_reps, int(target_ms / est)))
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(reps)]
    for s, e in events:
        flush.zero_()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in events)
    q = statistics.quantiles(times, n=4)
    return {"ms": statistics.median(times), "ms_min": times[0], "ms_q25": q[0], "ms_q75": q[2],
            "reps": reps}


def make_inputs(m, n, k, b_col_major, seed):
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    a = (torch.randn(m, k, device="cuda", generator=g) * 0.1).half()
    if b_col_major:  # B [K, N] with stride_bk = 1
        b = (torch.randn(n, k, device="cuda", generator=g) * 0.1).half().t()
    else:
        b = (torch.randn(k, n, device="cuda", generator=g) * 0.1).half()
    ref = a.double() @ b.double()
    return a, b, ref


# ------------------------------------------------------------------------------------- reporting

def fmt(v, spec):
    return "" if v is None else format(v, spec)


def ratio(t_num, t_den):
    return t_num / t_den if t_num and t_den else None


def tables(results, shapes):
    """The per-(shape, config) table and the best-of table, as markdown lines."""
    by = {(r["shape"], r["provider"]): r for r in results}

    def cell(r):
        if r is None:
            return ""
        if not r["ok"]:
            return "FAIL"
        return fmt(r.get("tflops"), ".1f")

    def err(r):
        if r is None:
            return "-"
        if r["err"] is None:
            return "FAIL"
        return ("" if r["ok"] else "FAIL ") + f"{r['err']:.1e}"

    lines = ["| M×N×K | cuBLAS ms | cuBLAS TF/s | config (BM×BN×BK w, tilec stages) | tilec ms | tilec TF/s | "
             "Triton s1 TF/s | Triton s3 TF/s | tilec ÷cuBLAS | Triton s1 ÷cuBLAS | "
             "Triton s3 ÷cuBLAS | tilec ÷Triton s1 | tilec ÷Triton s3 | rel err (cuBLAS) tilec / s1 / s3 |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for label, m, n, k in shapes:
        s = shape_name(m, n, k)
        cb = by.get((s, "cuBLAS"))
        t_cb = cb.get("ms") if cb and cb["ok"] else None
        for ci, (bm, bn, bk, g, w, st) in enumerate(CONFIGS):
            tc = by.get((s, f"tilec {bm}x{bn}x{bk} w{w} s{st}"))
            t1 = by.get((s, f"Triton {bm}x{bn}x{bk} w{w} s1"))
            t3 = by.get((s, f"Triton {bm}x{bn}x{bk} w{w} s3"))
            ms = {key: (r.get("ms") if r and r["ok"] else None)
                  for key, r in (("tc", tc), ("t1", t1), ("t3", t3))}
            first = ci == 0
            t_cbr = tc.get("cublas_beside_ms", t_cb) if tc else t_cb  # cuBLAS beside this config
            lines.append("| " + " | ".join([
                f"{s} ({label})" if first else "",
                (fmt(t_cb, ".4f") + ("" if not cb or cb["ok"] else "FAIL")) if first else "",
                cell(cb) if first else "",
                f"{bm}×{bn}×{bk} w{w} s{st}",
                fmt(ms["tc"], ".4f") if ms["tc"] else cell(tc),
                cell(tc), cell(t1), cell(t3),
                fmt(ratio(t_cbr, ms["tc"]), ".2f"), fmt(ratio(t_cbr, ms["t1"]), ".2f"),
                fmt(ratio(t_cbr, ms["t3"]), ".2f"),
                fmt(ratio(ms["t1"], ms["tc"]), ".2f"), fmt(ratio(ms["t3"], ms["tc"]), ".2f"),
                (f"({err(cb)}) " if first else "") + " / ".join(err(r) for r in (tc, t1, t3)),
            ]) + " |")

    best = ["| M×N×K | cuBLAS TF/s, median (range) | best tilec TF/s (config) | best Triton s1 TF/s (config) | "
            "best Triton s3 TF/s (config) | best tilec ÷cuBLAS | best tilec ÷best Triton s1 | "
            "best tilec ÷best Triton s3 |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, m, n, k in shapes:
        s = shape_name(m, n, k)
        cb = by.get((s, "cuBLAS"))

        def pick(kind, stages=None):
            rs = [r for r in results if r["shape"] == s and r["kind"] == kind and r["ok"]
                  and r.get("ms") and (stages is None or r["stages"] == stages)]
            return min(rs, key=lambda r: r["ms"]) if rs else None

        bt, b1, b3 = pick("tilec"), pick("triton", 1), pick("triton", 3)

        def tf(r):
            if r is None:
                return "FAIL"
            bm, bn, bk, g, w, st = CONFIGS[r["config"]]
            stages = f" s{st}" if r["kind"] == "tilec" else ""
            return f"{r['tflops']:.1f} ({bm}×{bn}×{bk} w{w}{stages})"

        # cuBLAS: the median of its timings on this shape (first, and beside each configuration),
        # with their range: its own spread within one call is several percent.
        t_cbs = ([cb["ms"]] if cb and cb["ok"] else []) + [
            r["cublas_beside_ms"] for r in results
            if r["shape"] == s and r["kind"] == "tilec" and "cublas_beside_ms" in r]
        t_cb = statistics.median(t_cbs) if t_cbs else None
        flops = 2.0 * m * n * k
        cb_cell = "FAIL" if t_cb is None else (
            f"{flops / (t_cb * 1e-3) / 1e12:.1f} ({flops / (max(t_cbs) * 1e-3) / 1e12:.0f}-"
            f"{flops / (min(t_cbs) * 1e-3) / 1e12:.0f})")
        t_bt = bt["ms"] if bt else None
        best.append("| " + " | ".join([
            f"{s} ({label})", cb_cell, tf(bt), tf(b1), tf(b3),
            fmt(ratio(t_cb, t_bt), ".2f"),
            fmt(ratio(b1["ms"] if b1 else None, t_bt), ".2f"),
            fmt(ratio(b3["ms"] if b3 else None, t_bt), ".2f"),
        ]) + " |")
    return lines, best


# ------------------------------------------------------------------------------------------ main

def version_of(cmd, pattern_word):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        if pattern_word in line:
            return line.strip()
    return out.strip().splitlines()[0] if out.strip() else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib", help="the shim, built by bench/matmul.sh (libtilec_matmul.so)")
    ap.add_argument("--out", help="folder for results.json and table.md")
    ap.add_argument("--shapes", help="MxNxK,... instead of the default list")
    ap.add_argument("--no-check-only", action="store_true", help="skip the ragged / col-major checks")
    ap.add_argument("--configs", help="I,J,...: only these tilec configurations (indices into "
                    "CONFIGS; Triton runs their block shapes)")
    ap.add_argument("--nvcc-version", help="as bench/matmul.sh reads it (else `nvcc --version`)")
    args = ap.parse_args()

    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False  # fp32 sums, as ours
    dev = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(dev)
    env = {
        "gpu": torch.cuda.get_device_name(dev),
        "sms": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "triton": triton.__version__,
        "nvcc": args.nvcc_version or version_of(["nvcc", "--version"], "release"),
        "driver": version_of(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             "."),
        "cublas_fp16_reduced_precision_reduction": False,
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "lib": os.path.abspath(args.lib),
        "tolerance": TOL,
    }
    print(f"GPU: {env['gpu']} ({env['sms']} SMs, L2 {env['l2_bytes']} bytes), driver {env['driver']}")
    print(f"torch {env['torch']} (CUDA {env['torch_cuda']}), triton {env['triton']}, "
          f"nvcc {env['nvcc']}")

    lib = ctypes.CDLL(os.path.abspath(args.lib))
    lib.tilec_matmul.restype = ctypes.c_int
    lib.tilec_matmul.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_void_p] * 3 \
        + [ctypes.c_int] * 9
    providers = [Cublas()]
    blocks = set()
    only = {int(i) for i in args.configs.split(",")} if args.configs else None
    for ci, config in enumerate(CONFIGS):
        if only is not None and ci not in only:
            continue
        providers.append(Tilec(lib, ci))
        if config[:5] not in blocks:  # Triton once per block shape
            blocks.add(config[:5])
            providers += [Triton(ci, st) for st in TRITON_STAGES]

    shapes = parse_shapes(args.shapes) if args.shapes else timed_shapes()
    flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    results, checks = [], []
    t_start = datetime.datetime.now()

    if not args.no_check_only:
        print("\n## Check-only shapes (no timing)")
        for si, (label, m, n, k, col_major) in enumerate(CHECK_ONLY):
            a, b, ref = make_inputs(m, n, k, col_major, seed=1000 + si)
            c = torch.empty(m, n, dtype=torch.float16, device="cuda")
            for p in providers:
                ok, err, msg = check(p, a, b, c, ref)
                checks.append({"shape": shape_name(m, n, k), "label": label, "provider": p.name,
                               "b_col_major": col_major, "ok": ok, "err": err, "message": msg})
                print(f"  {shape_name(m, n, k):>16} {label:<12} {p.name:<26} "
                      f"{'ok  ' if ok else 'FAIL'} err {fmt(err, '.2e') or '-'} {msg}")
            del a, b, ref, c

    print("\n## Timed shapes")
    for si, (label, m, n, k) in enumerate(shapes):
        s = shape_name(m, n, k)
        flops = 2.0 * m * n * k
        a, b, ref = make_inputs(m, n, k, False, seed=si)
        c = torch.empty(m, n, dtype=torch.float16, device="cuda")
        t_cublas = t_beside = None
        for p in providers:
            if p.kind == "tilec" and t_cublas is not None:  # cuBLAS again, beside this config
                t_beside = bench_ms(lambda: providers[0].run(a, b, c), flush)["ms"]
            r = {"shape": s, "label": label, "M": m, "N": n, "K": k, "provider": p.name,
                 "kind": p.kind, "config": p.config, "stages": p.stages}
            if p.kind != "cublas" and t_beside is not None:
                r["cublas_beside_ms"] = t_beside
            ok, err, msg = check(p, a, b, c, ref)
            r.update(ok=ok, err=err, message=msg)
            if ok:
                try:
                    r.update(bench_ms(lambda: p.run(a, b, c), flush))
                    ok2, err2, msg2 = check(p, a, b, c, ref)  # again after timing
                    r.update(recheck_err=err2)
                    if not ok2:
                        r.update(ok=False, message="after timing: " + msg2)
                except Exception as e:  # noqa: BLE001
                    r.update(ok=False, message=f"timing: {type(e).__name__}: {e}")
            if r["ok"]:
                r["tflops"] = flops / (r["ms"] * 1e-3) / 1e12
                if p.kind == "cublas":
                    t_cublas = r["ms"]
                r["vs_cublas"] = ratio(r.get("cublas_beside_ms", t_cublas), r["ms"])
            results.append(r)
            if r["ok"]:
                print(f"  {s:>16} {p.name:<26} {r['ms']:9.4f} ms {r['tflops']:7.1f} TFLOP/s "
                      f"x{fmt(r['vs_cublas'], '.2f') or '?':>5} cuBLAS  err {err:.2e}  "
                      f"({r['reps']} reps, IQR {r['ms_q25']:.4f}-{r['ms_q75']:.4f})")
            else:
                print(f"  {s:>16} {p.name:<26} FAIL  err {fmt(err, '.2e') or '-'}  {r['message']}")
        for p in providers:  # tilec vs Triton with the same config, on this shape
            if p.kind != "tilec":
                continue
            rt = next(x for x in results if x["shape"] == s and x["provider"] == p.name)
            bm, bn, bk, g, w, _ = CONFIGS[p.config]
            for st in TRITON_STAGES:
                rr = next(x for x in results if x["shape"] == s
                          and x["provider"] == f"Triton {bm}x{bn}x{bk} w{w} s{st}")
                if rt["ok"] and rr["ok"]:
                    rt[f"vs_triton_s{st}"] = rr["ms"] / rt["ms"]
        del a, b, ref, c
        torch.cuda.empty_cache()

    elapsed = (datetime.datetime.now() - t_start).total_seconds()
    kinfo = {}
    for p in providers:
        if isinstance(p, Triton):
            for s, ck in p.compiled.items():
                kinfo.setdefault(p.name, {})[s] = triton_kernel_info(ck)
    print("\n## Triton kernels (as compiled for the largest timed shape)")
    timed = {shape_name(m, n, k) for _, m, n, k in shapes}
    for name, per in kinfo.items():
        cands = [kv for kv in per.items() if kv[0] in timed] or list(per.items())
        s, info = max(cands, key=lambda kv: math.prod(int(x) for x in kv[0].split("x")))
        print(f"  {name:<26} {s:>16}: " + ", ".join(f"{k}={v}" for k, v in info.items()))

    lines, best = tables(results, shapes)
    n_fail = sum(1 for r in results if not r["ok"]) + sum(1 for r in checks if not r["ok"])
    header = [f"# Matmul, {env['gpu']}: fp16 A[M,K] @ B[K,N] row-major, fp32 accumulate, fp16 out",
              "",
              f"torch {env['torch']}, triton {env['triton']}, nvcc {env['nvcc']}, "
              f"driver {env['driver']}; {env['date']}; {elapsed:.0f} s",
              "",
              "TF/s = 2·M·N·K / median time (L2 flushed before each repetition). \"÷cuBLAS\" = "
              "t_cuBLAS / t (1.00 = cuBLAS's speed), t_cuBLAS timed again just before each tilec "
              "configuration (the cuBLAS columns give the shape's first timing); \"tilec ÷Triton\" = t_Triton / t_tilec "
              "(> 1: tilec faster), same config. s1 / s3: Triton's num_stages. Rel err = "
              "‖C − C_f64‖ / ‖C_f64‖, FAIL above 1e-2 (not timed).",
              f"Failures: {n_fail} (check-only shapes: "
              f"{sum(1 for r in checks if not r['ok'])} of {len(checks)})."]
    md = header + ["", "## Per shape and configuration", ""] + lines + ["", "## Best configuration "
                                                                        "per provider", ""] + best
    print()
    print("\n".join(md))

    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump({"env": env, "configs": CONFIGS, "triton_stages": TRITON_STAGES,
                       "results": results, "check_only": checks, "triton_kernels": kinfo,
                       "elapsed_s": elapsed}, f, indent=1)
        with open(os.path.join(args.out, "table.md"), "w") as f:
            f.write("\n".join(md) + "\n")
        print(f"\nresults in {args.out}")
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())

"""tilec's layer norm backward (examples/layer_norm_bwd: dX, and dW/dB in two stages) beside
Triton's, in one process (not in CI; bench/layer_norm_bwd.sh builds the shim and runs this). Two
forms of stage 1, each in tilec and in Triton: tutorial 05's own (its partial sums in fp16, each
group's row guarded by a spin lock of atomic_cas / atomic_xchg; tilec's is the same source line
for line), and fp32 partial sums added with tl.atomic_add, relaxed. fp16 x, dy and w; M = 4096 rows; N at
tutorial 05's meta-parameters. Results are checked first against float64 (dX, dW, dB within 1e-2
relative: fp16 outputs, and the tutorial's fp16 partial sums), then timed with bench/matmul.py's
bench_ms (L2 flushed, median). Every timed call zeroes its partial sums (and the tutorial's locks),
as tutorial 05's wrapper allocates them zeroed.

    python3 layer_norm_bwd.py LIB.so [--n N ...] [--once]
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def _layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # Tutorial 05's kernel.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dx_atomic(DX, DY, DW, DB, X, W, Mean, Rstd, stride, N,
                              GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # The algorithm of examples/layer_norm_bwd: fp32 partial sums, atomic adds.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    group = row % GROUP_SIZE_M
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.)
    wdy = tl.where(mask, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx, mask=mask)
    tl.atomic_add(DW + group * N + cols, dy * xhat, mask=mask, sem="relaxed")
    tl.atomic_add(DB + group * N + cols, dy, mask=mask, sem="relaxed")


@triton.jit
def _layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr,
                         BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def meta(N):
    block = triton.next_power_of_2(N)
    warps = min(max(block // 256, 1), 8)
    group = 64
    if N <= 8192:
        group = 96
    if N <= 4096:
        group = 128
    if N <= 1024:
        group = 256
    return block, warps, group


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    ap.add_argument("--n", type=int, nargs="+", default=[1024, 1000, 4096, 8192], help="row widths")
    ap.add_argument("--once", action="store_true",
                    help="run each kernel once, untimed and unchecked (for a profiler)")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    print("| M x N | correct (tilec atomic, Triton atomic, tilec lock, tutorial) | tilec atomic us "
          "| Triton atomic us | tilec lock us | tutorial us | tilec / Triton, atomic "
          "| tilec / Triton, lock | tilec atomic / tutorial |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    failed = 0
    M = 4096
    for N in args.n:
        g = torch.Generator(device="cuda")
        g.manual_seed(N)
        x = (torch.randn(M, N, device="cuda", generator=g) * 2 + 1).half()
        dy = torch.randn(M, N, device="cuda", generator=g).half()
        w = (torch.rand(N, device="cuda", generator=g) + 0.5).half()
        xd = x.double()
        mean64 = xd.mean(1)
        rstd64 = 1 / torch.sqrt(xd.var(1, unbiased=False) + 1e-5)
        mean, rstd = mean64.float(), rstd64.float()
        xhat = (xd - mean.double()[:, None]) * rstd.double()[:, None]
        wdy = w.double() * dy.double()
        c1 = (xhat * wdy).mean(1, keepdim=True)
        c2 = wdy.mean(1, keepdim=True)
        exact = ((wdy - (xhat * c1 + c2)) * rstd.double()[:, None],
                 (dy.double() * xhat).sum(0), dy.double().sum(0))
        block, warps, group = meta(N)
        outs = [(torch.empty_like(x), torch.empty_like(w), torch.empty_like(w)) for _ in range(4)]
        parts32 = (torch.zeros(group, N, device="cuda"), torch.zeros(group, N, device="cuda"))
        parts32b = (torch.zeros(group, N, device="cuda"), torch.zeros(group, N, device="cuda"))
        parts16 = (torch.zeros(group, N, device="cuda", dtype=torch.half),
                   torch.zeros(group, N, device="cuda", dtype=torch.half))
        locks = torch.zeros(2 * group, dtype=torch.int32, device="cuda")
        parts16b = (torch.zeros(group, N, device="cuda", dtype=torch.half),
                    torch.zeros(group, N, device="cuda", dtype=torch.half))
        locksb = torch.zeros(2 * group, dtype=torch.int32, device="cuda")

        def tilec():
            dx, dw, db = outs[0]
            parts32[0].zero_()
            parts32[1].zero_()
            rc = lib.tilec_layer_norm_bwd(stream(), ptr(dx), ptr(dy), ptr(parts32[0]), ptr(parts32[1]),
                                          ptr(x), ptr(w), ptr(mean), ptr(rstd), ptr(dw), ptr(db),
                                          N, M, N)
            if rc != 0:
                raise RuntimeError(f"tilec_layer_norm_bwd returned {rc}")

        def same():
            dx, dw, db = outs[1]
            parts32b[0].zero_()
            parts32b[1].zero_()
            _layer_norm_bwd_dx_atomic[(M,)](dx, dy, parts32b[0], parts32b[1], x, w, mean, rstd, N, N,
                                            GROUP_SIZE_M=group, BLOCK_SIZE_N=block, num_warps=warps)
            _layer_norm_bwd_dwdb[(triton.cdiv(N, 128),)](parts32b[0], parts32b[1], dw, db, min(group, M), N,
                                                         BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)

        def tilec_lock():
            dx, dw, db = outs[2]
            parts16b[0].zero_()
            parts16b[1].zero_()
            locksb.zero_()
            rc = lib.tilec_layer_norm_bwd_lock(stream(), ptr(dx), ptr(dy), ptr(parts16b[0]),
                                               ptr(parts16b[1]), ptr(x), ptr(w), ptr(mean), ptr(rstd),
                                               ptr(locksb), ptr(dw), ptr(db), N, M, N)
            if rc != 0:
                raise RuntimeError(f"tilec_layer_norm_bwd_lock returned {rc}")

        def tutorial():
            dx, dw, db = outs[3]
            parts16[0].zero_()
            parts16[1].zero_()
            locks.zero_()
            _layer_norm_bwd_dx_fused[(M,)](dx, dy, parts16[0], parts16[1], x, w, mean, rstd, locks, N, N,
                                           GROUP_SIZE_M=group, BLOCK_SIZE_N=block, num_warps=warps)
            _layer_norm_bwd_dwdb[(triton.cdiv(N, 128),)](parts16[0], parts16[1], dw, db, min(group, M), N,
                                                         BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)

        runs = (tilec, same, tilec_lock, tutorial)
        for f in runs:
            f()
        torch.cuda.synchronize()
        if args.once:
            continue

        def close(got):
            return all(((a.double() - e).norm() / e.norm()).item() < 1e-2 for a, e in zip(got, exact))

        ok = tuple(close(o) for o in outs)
        failed += not all(ok)
        t = [bench_ms(f, flush)["ms"] * 1e3 for f in runs]
        print(f"| {M}x{N} | {ok} | {t[0]:.1f} | {t[1]:.1f} | {t[2]:.1f} | {t[3]:.1f} | {t[1] / t[0]:.2f} "
              f"| {t[3] / t[2]:.2f} | {t[3] / t[0]:.2f} |")
    print()
    print("all correct" if failed == 0 else f"{failed} rows wrong")


if __name__ == "__main__":
    main()

"""tilec's atomics beside Triton's on one GPU, in one process (not in CI; bench/atomics.sh builds the
shim and runs this): tests/kernels/atomics.cpp's histogram (every element one atomic add into one
of `bins` int counters, relaxed and with Triton's default acq_rel; BLOCK 256, 4 warps) and column sums (a [rows, cols] fp32 matrix,
each program of 32 rows adding its 64-column blocks' sums into sums[cols] and its row counts into
counts[cols]), against the same kernels in Triton. Results are checked first (histogram exact,
column sums within 1e-4 relative of float64; counts exact), then timed with bench/matmul.py's
bench_ms (L2 flushed before each repetition, the median); the outputs are zeroed inside the timed
function for both.

    python3 atomics.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def histogram(x_ptr, hist_ptr, n, bins, BLOCK: tl.constexpr, SEM: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(x_ptr + offs, mask=mask) % bins
    tl.atomic_add(hist_ptr + b, 1, mask=mask, sem=SEM)


@triton.jit
def column_sums(x_ptr, sums_ptr, counts_ptr, rows, cols, stride, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    for c0 in range(0, cols, BN):
        c = c0 + tl.arange(0, BN)
        mask = (r < rows)[:, None] & (c < cols)[None, :]
        tile = tl.load(x_ptr + r[:, None] * stride + c[None, :], mask=mask, other=0.0)
        tl.atomic_add(sums_ptr + c, tl.sum(tile, axis=0), mask=c < cols, sem="relaxed")
        tl.atomic_add(counts_ptr + c, tl.sum(mask.to(tl.int32), axis=0), mask=c < cols, sem="relaxed")


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    print("| kernel | size | correct (tilec, Triton) | tilec us | Triton us | tilec / Triton |")
    print("|---|---|---|---:|---:|---:|")
    failed = 0
    g = torch.Generator(device="cuda")
    for (n, bins), sem in (((1 << 24, 256), "relaxed"), ((1 << 24, 16), "relaxed"), ((1 << 24, 100000), "relaxed"),
                           ((1 << 24, 256), "acq_rel"), ((1 << 24, 100000), "acq_rel")):
        g.manual_seed(n + bins)
        x = torch.randint(0, 1 << 30, (n,), device="cuda", generator=g, dtype=torch.int32)
        exact = torch.bincount((x % bins).long(), minlength=bins).int()
        h1 = torch.zeros(bins, dtype=torch.int32, device="cuda")
        h2 = torch.zeros(bins, dtype=torch.int32, device="cuda")

        def tilec():
            h1.zero_()
            rc = lib.tilec_histogram(stream(), ptr(x), ptr(h1), n, bins, int(sem == "acq_rel"))
            if rc != 0:
                raise RuntimeError(f"tilec_histogram returned {rc}")

        def tri():
            h2.zero_()
            histogram[(triton.cdiv(n, 256),)](x, h2, n, bins, BLOCK=256, SEM=sem)

        tilec()
        tri()
        torch.cuda.synchronize()
        ok = (torch.equal(h1, exact), torch.equal(h2, exact))
        failed += not all(ok)
        t1, t2 = bench_ms(tilec, flush)["ms"], bench_ms(tri, flush)["ms"]
        print(f"| histogram {sem} | n={n} bins={bins} | {ok} | {t1 * 1e3:.1f} | {t2 * 1e3:.1f} | {t2 / t1:.2f} |")
    for rows, cols in ((16384, 4096), (4096, 16384), (100000, 257)):
        g.manual_seed(rows + cols)
        stride = cols
        x = torch.randn(rows, cols, device="cuda", generator=g)
        exact = x.double().sum(0)
        outs = [(torch.zeros(cols, device="cuda"), torch.zeros(cols, dtype=torch.int32, device="cuda"))
                for _ in range(2)]

        def tilec():
            s, c = outs[0]
            s.zero_()
            c.zero_()
            rc = lib.tilec_column_sums(stream(), ptr(x), ptr(s), ptr(c), rows, cols, stride)
            if rc != 0:
                raise RuntimeError(f"tilec_column_sums returned {rc}")

        def tri():
            s, c = outs[1]
            s.zero_()
            c.zero_()
            column_sums[(triton.cdiv(rows, 32),)](x, s, c, rows, cols, stride, BM=32, BN=64)

        tilec()
        tri()
        torch.cuda.synchronize()
        ok = tuple(bool(((s.double() - exact).norm() / exact.norm()).item() < 1e-4 and (c == rows).all().item())
                   for s, c in outs)
        failed += not all(ok)
        t1, t2 = bench_ms(tilec, flush)["ms"], bench_ms(tri, flush)["ms"]
        print(f"| column sums | {rows}x{cols} | {ok} | {t1 * 1e3:.1f} | {t2 * 1e3:.1f} | {t2 / t1:.2f} |")
    print()
    print("all correct" if failed == 0 else f"{failed} rows wrong")


if __name__ == "__main__":
    main()

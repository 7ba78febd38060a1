"""tilec's gather, flip and histogram beside Triton's on one GPU, in one process (not in CI;
bench/gather.sh builds the shim and runs this).

tests/kernels/gather.cpp's flip_rows<1024>, gather_rows<1024> and histograms<1024, 64, int32_t>
against the same kernels written in Triton here: a row of 1024 fp32 values a program reversed
(tl.flip), or gathered at 1024 int32 indices of its own (tl.gather), and the 64-bin histogram of each
block of 1024 int32 values in [0, 64) (tl.histogram); 4 warps. Outputs are checked first, exactly,
against torch (flip, gather, bincount per block), then timed with bench/matmul.py's bench_ms (L2
flushed before each repetition, the median); GB/s counts the bytes read and written.

    python3 gather.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def flip_rows(x_ptr, y_ptr, rows, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    at = tl.program_id(0) * BLOCK + cols
    v = tl.load(x_ptr + at, mask=(cols < n_cols) & (tl.program_id(0) < rows))
    tl.store(y_ptr + at, tl.flip(v, 0))


@triton.jit
def gather_rows(x_ptr, index_ptr, y_ptr, rows, BLOCK: tl.constexpr):
    at = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = tl.full([BLOCK], 1, tl.int1) & (tl.program_id(0) < rows)
    v = tl.load(x_ptr + at, mask=mask)
    i = tl.load(index_ptr + at, mask=mask)
    tl.store(y_ptr + at, tl.gather(v, i, 0), mask=mask)


@triton.jit
def histograms(x_ptr, counts_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    bins = tl.program_id(0) * BINS + tl.arange(0, BINS)
    tl.store(counts_ptr + bins, tl.histogram(x, BINS, mask=mask))


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def checked(rc, what):
    if rc != 0:
        raise RuntimeError(f"tilec {what} returned {rc}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    print("| kernel | size | tilec exact | Triton exact | tilec GB/s | Triton GB/s | tilec / Triton |")
    print("|---|---|---|---|---:|---:|---:|")
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    g = torch.Generator(device="cuda")
    g.manual_seed(20261127)
    failed = 0
    for rows in (4096, 65536):
        x = torch.randn(rows, 1024, device="cuda", generator=g)
        idx = torch.randint(0, 1024, (rows, 1024), device="cuda", generator=g, dtype=torch.int32)
        cases = [
            ("flip_rows", torch.flip(x, [1]), 2 * x.numel() * 4,
             lambda y: checked(lib.tilec_flip_rows(stream(), ptr(x), ptr(y), rows), "flip_rows"),
             lambda y: flip_rows[(rows,)](x, y, rows, 1024, BLOCK=1024, num_warps=4)),
            ("gather_rows", torch.gather(x, 1, idx.long()), 3 * x.numel() * 4,
             lambda y: checked(lib.tilec_gather_rows(stream(), ptr(x), ptr(idx), ptr(y), rows), "gather_rows"),
             lambda y: gather_rows[(rows,)](x, idx, y, rows, BLOCK=1024, num_warps=4)),
        ]
        for name, want, nbytes, run_tilec, run_triton in cases:
            y_tilec, y_triton = torch.full_like(x, float("nan")), torch.full_like(x, float("nan"))
            run_tilec(y_tilec)
            run_triton(y_triton)
            torch.cuda.synchronize()
            ok_tilec, ok_triton = torch.equal(y_tilec, want), torch.equal(y_triton, want)
            failed += not ok_tilec
            t_tilec = bench_ms(lambda: run_tilec(y_tilec), flush)["ms"]
            t_triton = bench_ms(lambda: run_triton(y_triton), flush)["ms"]
            print(f"| {name} | {rows} x 1024 | {ok_tilec} | {ok_triton} | {nbytes / t_tilec / 1e6:.0f} | "
                  f"{nbytes / t_triton / 1e6:.0f} | {t_triton / t_tilec:.2f} |")
    for n in (1 << 22, (1 << 26) + 1000):
        blocks = triton.cdiv(n, 1024)
        v = torch.randint(0, 64, (n,), device="cuda", generator=g, dtype=torch.int32)
        padded = torch.zeros(blocks * 1024, device="cuda", dtype=torch.int64)
        padded[:n] = v.long() + 1  # 0: the tail past n, counted nowhere
        want = torch.stack([torch.bincount(b, minlength=65)[1:] for b in padded.view(blocks, 1024)]) \
            if blocks <= 4096 else None
        c_tilec = torch.full((blocks * 64,), -1, device="cuda", dtype=torch.int32)
        c_triton = torch.full_like(c_tilec, -1)

        def run_tilec():
            checked(lib.tilec_histograms(stream(), ptr(v), ptr(c_tilec), n), "histograms")

        def run_triton():
            histograms[(blocks,)](v, c_triton, n, BLOCK=1024, BINS=64, num_warps=4)

        run_tilec()
        run_triton()
        torch.cuda.synchronize()
        same = torch.equal(c_tilec, c_triton)
        ok_tilec = same if want is None else torch.equal(c_tilec.view(blocks, 64), want.int())
        ok_triton = same if want is None else torch.equal(c_triton.view(blocks, 64), want.int())
        failed += not ok_tilec
        nbytes = n * 4 + blocks * 64 * 4
        t_tilec, t_triton = bench_ms(run_tilec, flush)["ms"], bench_ms(run_triton, flush)["ms"]
        print(f"| histograms | {n} | {ok_tilec} | {ok_triton} | {nbytes / t_tilec / 1e6:.0f} | "
              f"{nbytes / t_triton / 1e6:.0f} | {t_triton / t_tilec:.2f} |")
    print()
    print("all tilec outputs exact" if failed == 0 else f"{failed} tilec outputs differ")


if __name__ == "__main__":
    main()

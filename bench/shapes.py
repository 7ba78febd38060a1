"""tilec's shape ops beside Triton's on one GPU, in one process (not in CI; bench/shapes.sh builds
the shim and runs this).

tests/kernels/shapes.cpp's complex_pairs<1024, float> and group_max<8, 1024> against the same
kernels written in Triton here: 1024 complex numbers a program, stored as interleaved (re, im)
pairs, loaded as [1024, 2] tiles, split into their parts (tl.split), (z.re - w.im, z.im + w.re)
joined back into pairs (tl.join) and z's conjugate interleaved from its parts (tl.interleave); and
the maximum of each 128 consecutive values, a block of 1024 reshaped to 8 rows (tl.reshape, then
tl.max along the rows); 4 warps. Outputs are checked first, exactly, against torch, then timed with
bench/matmul.py's bench_ms (L2 flushed before each repetition, the median); GB/s counts the bytes
read and written.

    python3 shapes.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def complex_pairs(z_ptr, w_ptr, out_ptr, conj_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    pair = i[:, None] * 2 + tl.arange(0, 2)[None, :]
    mask = i[:, None] < n
    zr, zi = tl.split(tl.load(z_ptr + pair, mask=mask))
    wr, wi = tl.split(tl.load(w_ptr + pair, mask=mask))
    tl.store(out_ptr + pair, tl.join(zr - wi, zi + wr), mask=mask)
    flat = tl.program_id(0) * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    tl.store(conj_ptr + flat, tl.interleave(zr, -zi), mask=flat < 2 * n)


@triton.jit
def group_max(x_ptr, out_ptr, n, G: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    groups = tl.reshape(tl.load(x_ptr + i, mask=i < n, other=-float("inf")), (G, BLOCK // G))
    tl.store(out_ptr + tl.program_id(0) * G + tl.arange(0, G), tl.max(groups, axis=1))


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
    g.manual_seed(20261128)
    failed = 0

    def row(name, size, outs_tilec, outs_triton, want, nbytes, run_tilec, run_triton):
        nonlocal failed
        for o in outs_tilec + outs_triton:
            o.fill_(float("nan"))
        run_tilec()
        run_triton()
        torch.cuda.synchronize()
        ok_tilec = all(torch.equal(o, w) for o, w in zip(outs_tilec, want))
        ok_triton = all(torch.equal(o, w) for o, w in zip(outs_triton, want))
        failed += not ok_tilec
        t_tilec, t_triton = bench_ms(run_tilec, flush)["ms"], bench_ms(run_triton, flush)["ms"]
        print(f"| {name} | {size} | {ok_tilec} | {ok_triton} | {nbytes / t_tilec / 1e6:.0f} | "
              f"{nbytes / t_triton / 1e6:.0f} | {t_triton / t_tilec:.2f} |")

    for n in (1 << 22, (1 << 24) + 7):
        z = torch.randn(n, 2, device="cuda", generator=g)
        w = torch.randn(n, 2, device="cuda", generator=g)
        want = [torch.stack([z[:, 0] - w[:, 1], z[:, 1] + w[:, 0]], 1), torch.stack([z[:, 0], -z[:, 1]], 1)]
        mine = [torch.empty_like(z), torch.empty_like(z)]
        theirs = [torch.empty_like(z), torch.empty_like(z)]
        grid = (triton.cdiv(n, 1024),)
        row("complex_pairs", f"{n} pairs", mine, theirs, want, 4 * n * 8,
            lambda: checked(lib.tilec_complex_pairs(stream(), ptr(z), ptr(w), ptr(mine[0]), ptr(mine[1]), n),
                            "complex_pairs"),
            lambda: complex_pairs[grid](z, w, theirs[0], theirs[1], n, BLOCK=1024, num_warps=4))
    for n in (1 << 24, (1 << 26) + 1000):
        x = torch.randn(n, device="cuda", generator=g)
        blocks = triton.cdiv(n, 1024)
        padded = torch.full((blocks * 1024,), float("-inf"), device="cuda")
        padded[:n] = x
        want = [padded.view(blocks * 8, 128).amax(1)]
        mine, theirs = [torch.empty(blocks * 8, device="cuda")], [torch.empty(blocks * 8, device="cuda")]
        row("group_max", f"{n}", mine, theirs, want, n * 4 + blocks * 8 * 4,
            lambda: checked(lib.tilec_group_max(stream(), ptr(x), ptr(mine[0]), n), "group_max"),
            lambda: group_max[(blocks,)](x, theirs[0], n, G=8, BLOCK=1024, num_warps=4))
    print()
    print("all tilec outputs exact" if failed == 0 else f"{failed} tilec outputs differ")


if __name__ == "__main__":
    main()

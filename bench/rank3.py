"""tilec's rank-3 tiles beside Triton's on one GPU, in one process (not in CI; bench/rank3.sh builds
the shim and runs this).

tests/kernels/rank3.cpp's heads<BM, H, D> against the same kernel written in Triton here: BM rows a
program of H heads of D floats, loaded as [BM, H * D] and reshaped to [BM, H, D] (tl.reshape); each
head's sum of squares (tl.sum along dim 2); the block stored head-major, [H, rows, D], through
tl.permute(v, (1, 0, 2)); each head's (sum, max) joined into pairs (tl.join of 2-D tiles, [BM, H,
2]) and split back (tl.split). 4 warps. Outputs are checked first against torch (the moves and
maxima exactly, the sums to 1e-5), then timed with bench/matmul.py's bench_ms (L2 flushed before
each repetition, the median); GB/s counts the bytes read and written.

    python3 rank3.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def heads(x_ptr, norms_ptr, head_major_ptr, pairs_ptr, sums_ptr, maxima_ptr, rows,
          BM: tl.constexpr, H: tl.constexpr, D: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, H * D)
    flat = tl.load(x_ptr + r[:, None] * (H * D) + c[None, :], mask=r[:, None] < rows, other=0.0)
    v = tl.reshape(flat, (BM, H, D))
    h = tl.arange(0, H)
    rh = r[:, None] * H + h[None, :]
    in_rows = r[:, None] < rows
    tl.store(norms_ptr + rh, tl.sum(v * v, axis=2), mask=in_rows)
    hm = h[:, None, None]
    rm = r[None, :, None]
    d3 = tl.arange(0, D)[None, None, :]
    tl.store(head_major_ptr + hm * (rows * D) + rm * D + d3, tl.permute(v, (1, 0, 2)), mask=rm < rows)
    p = tl.join(tl.sum(v, axis=2), tl.max(v, axis=2))
    r3 = r[:, None, None]
    h3 = h[None, :, None]
    k3 = tl.arange(0, 2)[None, None, :]
    tl.store(pairs_ptr + r3 * (H * 2) + h3 * 2 + k3, p, mask=r3 < rows)
    s, mx = tl.split(p)
    tl.store(sums_ptr + rh, s, mask=in_rows)
    tl.store(maxima_ptr + rh, mx, mask=in_rows)


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
    print("| kernel | rows | tilec ok | Triton ok | tilec GB/s | Triton GB/s | tilec / Triton |")
    print("|---|---|---|---|---:|---:|---:|")
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    g = torch.Generator(device="cuda")
    g.manual_seed(20261128)
    failed = 0
    for bm, h, d in ((16, 4, 32), (32, 4, 32), (8, 8, 64)):
        for rows in (1 << 16, (1 << 18) + 3, (1 << 20) + 1):
            x = torch.randn(rows, h * d, device="cuda", generator=g)
            v = x.view(rows, h, d)
            want = [(v * v).sum(2), v.permute(1, 0, 2).contiguous(), torch.stack([v.sum(2), v.amax(2)], 2),
                    v.sum(2), v.amax(2)]
            exact = [False, True, False, False, True]

            def outputs():
                return [torch.empty_like(w) for w in want]

            mine, theirs = outputs(), outputs()

            def run_tilec():
                checked(lib.tilec_heads(stream(), bm, h, d, ptr(x), *(ptr(o) for o in mine), rows),
                        f"heads<{bm},{h},{d}>")

            def run_triton():
                heads[(triton.cdiv(rows, bm),)](x, *theirs, rows, BM=bm, H=h, D=d, num_warps=4)

            for o in mine + theirs:
                o.fill_(float("nan"))
            run_tilec()
            run_triton()
            torch.cuda.synchronize()

            def ok(outs):
                return all(torch.equal(o, w) if e else torch.allclose(o, w, rtol=1e-5, atol=1e-5)
                           for o, w, e in zip(outs, want, exact))

            ok_tilec, ok_triton = ok(mine), ok(theirs)
            failed += not ok_tilec
            nbytes = 4 * (2 * x.numel() + 5 * rows * h)
            t_tilec, t_triton = bench_ms(run_tilec, flush)["ms"], bench_ms(run_triton, flush)["ms"]
            print(f"| heads<{bm},{h},{d}> | {rows} | {ok_tilec} | {ok_triton} | {nbytes / t_tilec / 1e6:.0f} | "
                  f"{nbytes / t_triton / 1e6:.0f} | {t_triton / t_tilec:.2f} |")
    print()
    print("all tilec outputs correct" if failed == 0 else f"{failed} tilec outputs wrong")


if __name__ == "__main__":
    main()

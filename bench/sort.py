"""tilec's tl::sort beside Triton's on one GPU, in one process (not in CI; bench/sort.sh builds the
shim and runs this).

tests/kernels/sort.cpp's sort_blocks<1024, false, float> and sort_blocks<256, true, tl::half>
against the same kernel written in Triton here: each block of 1024 fp32 values sorted ascending,
or of 256 fp16 values descending (tl.sort), stored under the mask of the values that exist; 4
warps. Inputs are normal values (no NaNs or signed zeros, where tilec's IEEE 754 totalOrder and
Triton's comparisons could differ), so both must equal torch.sort of each block exactly, which is
checked first; then each is timed with bench/matmul.py's bench_ms (L2 flushed before each
repetition, the median); GB/s counts the bytes read and written.

    python3 sort.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def sort_blocks(x_ptr, out_ptr, n, BLOCK: tl.constexpr, DESCENDING: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, tl.sort(v, descending=DESCENDING), mask=offs < n)


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
    print("| kernel | n | tilec exact | Triton exact | tilec GB/s | Triton GB/s | tilec / Triton |")
    print("|---|---|---|---|---:|---:|---:|")
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    g = torch.Generator(device="cuda")
    g.manual_seed(20261128)
    failed = 0
    cases = [("sort f32", torch.float32, 1024, False, lib.tilec_sort_f32),
             ("sort f16 descending", torch.float16, 256, True, lib.tilec_sort_f16_descending)]
    for name, dtype, block, descending, fn in cases:
        for n in (1 << 20, (1 << 24) + 1000):
            x = torch.randn(n, device="cuda", generator=g).to(dtype)
            x = torch.where(x == 0, torch.ones_like(x), x)  # no -0, which totalOrder puts before +0
            blocks = triton.cdiv(n, block)
            padded = torch.zeros(blocks * block, device="cuda", dtype=dtype)
            padded[:n] = x
            want = torch.sort(padded.view(blocks, block), dim=1, descending=descending).values.flatten()[:n]
            mine, theirs = torch.full_like(x, float("nan")), torch.full_like(x, float("nan"))

            def run_tilec():
                checked(fn(stream(), ptr(x), ptr(mine), n), name)

            def run_triton():
                sort_blocks[(blocks,)](x, theirs, n, BLOCK=block, DESCENDING=descending, num_warps=4)

            run_tilec()
            run_triton()
            torch.cuda.synchronize()
            ok_tilec, ok_triton = torch.equal(mine, want), torch.equal(theirs, want)
            failed += not ok_tilec
            nbytes = 2 * n * x.element_size()
            t_tilec, t_triton = bench_ms(run_tilec, flush)["ms"], bench_ms(run_triton, flush)["ms"]
            print(f"| {name} | {n} | {ok_tilec} | {ok_triton} | {nbytes / t_tilec / 1e6:.0f} | "
                  f"{nbytes / t_triton / 1e6:.0f} | {t_triton / t_tilec:.2f} |")
    print()
    print("all tilec outputs exact" if failed == 0 else f"{failed} tilec outputs differ")


if __name__ == "__main__":
    main()

"""tilec's scans beside Triton's on one GPU, in one process (not in CI; bench/cumsum.sh builds the
shim and runs this).

examples/cumsum against the same two kernels written in Triton here, line for line:
  rows_cumsum      16 rows of up to 128 columns a program, each row one tl.cumsum along axis 1;
  row_cumsum_long  one program per row, 2048 columns at a time, each block's tl.cumsum plus the
                   float sum of the blocks before it;
both on 4 warps, fp32 and fp16 (summed in float, rounded once). torch.cumsum(x, dim=-1) runs
beside them. Outputs are checked against float64 first (relative L2 error; fp32 1e-5, fp16 1e-3),
then each is timed with bench/matmul.py's bench_ms (L2 flushed before each repetition, the median);
GB/s counts reading x and writing y.

    python3 cumsum.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def rows_cumsum(x_ptr, y_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offsets = rows[:, None] * stride + cols[None, :]
    v = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offsets, tl.cumsum(v, axis=1).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_cumsum_long(x_ptr, y_ptr, M, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = (cols < N) & (row < M)
        v = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (tl.cumsum(v, axis=0) + carry).to(y_ptr.dtype.element_ty),
                 mask=mask)
        carry += tl.sum(v, axis=0)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def rel_error(got, exact):
    return ((got.double() - exact).norm() / exact.norm()).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    print("| kernel | type | M x N | error tilec | error Triton | tilec GB/s | Triton GB/s | torch GB/s | tilec / Triton |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    failed = 0
    cases = [("rows_cumsum", 65536, 128), ("rows_cumsum", 262144, 100), ("rows_cumsum", 100003, 64),
             ("row_cumsum_long", 4096, 4096), ("row_cumsum_long", 1024, 32768),
             ("row_cumsum_long", 16384, 2053)]
    for kernel, m, n in cases:
        for dtype, code in ((torch.float32, 0), (torch.float16, 1)):
            g = torch.Generator(device="cuda")
            g.manual_seed(m * 31 + n + code)
            x = torch.randn(m, n, device="cuda", generator=g).to(dtype)
            y_tilec = torch.full_like(x, float("nan"))
            y_triton = torch.full_like(x, float("nan"))
            entry = getattr(lib, "tilec_" + kernel)

            def tilec():
                rc = entry(stream(), code, ptr(x), ptr(y_tilec), m, n, n)
                if rc != 0:
                    raise RuntimeError(f"tilec_{kernel} returned {rc}")

            if kernel == "rows_cumsum":
                def tri():
                    rows_cumsum[(triton.cdiv(m, 16),)](x, y_triton, m, n, n, BLOCK_M=16, BLOCK_N=128,
                                                       num_warps=4)
            else:
                def tri():
                    row_cumsum_long[(m,)](x, y_triton, m, n, n, BLOCK=2048, num_warps=4)

            def torch_cumsum():
                return torch.cumsum(x, dim=-1)

            tilec()
            tri()
            torch.cuda.synchronize()
            exact = torch.cumsum(x.double(), dim=-1)
            e_tilec, e_triton = rel_error(y_tilec, exact), rel_error(y_triton, exact)
            tol = 1e-5 if code == 0 else 1e-3
            failed += not (e_tilec <= tol)
            gbytes = 2 * m * n * x.element_size() / 1e9
            t_tilec, t_triton, t_torch = (bench_ms(f, flush)["ms"] for f in (tilec, tri, torch_cumsum))
            print(f"| {kernel} | {str(dtype).replace('torch.', '')} | {m} x {n} | {e_tilec:.1e} | "
                  f"{e_triton:.1e} | {gbytes / t_tilec * 1e3:.0f} | {gbytes / t_triton * 1e3:.0f} | "
                  f"{gbytes / t_torch * 1e3:.0f} | {t_triton / t_tilec:.2f} |")
    print()
    print("all outputs within tolerance of float64" if failed == 0 else f"{failed} outputs out of tolerance")


if __name__ == "__main__":
    main()

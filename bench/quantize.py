"""tilec's per-row quantization (examples/quantize: absmax scale, fp16 rows to int8, bf16 rows to
fp8 e4m3) beside the same algorithm in Triton and PyTorch's eager ops, in one process (not in CI;
bench/quantize.sh builds the shim and runs this). One program a row, BLOCK the next power of two of
N, 4 warps (Triton's default) on both. Each result is checked first: the dequantized rows within
the format's rounding of float64 (int8: half a step of the scale; e4m3: 2^-4 of each value), and
the quantized values against Triton's (Triton divides scalars approximately, tilec exactly, so a
value at a rounding tie may differ by one step; the count is printed). Then timed with
bench/matmul.py's bench_ms (L2 flushed, median).

    python3 quantize.py LIB.so
"""
import argparse
import ctypes

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from matmul import bench_ms


@triton.jit
def _quantize_rows(X, Q, Scales, n_cols, stride, QMAX: tl.constexpr, TO_INT8: tl.constexpr,
                   BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.max(tl.abs(v), axis=0)
    inverse = tl.where(absmax > 0, QMAX / absmax, 0.0)
    y = v * inverse
    if TO_INT8:
        y = libdevice.rint(y)
    tl.store(Q + row * stride + cols, y.to(Q.dtype.element_ty), mask=mask)
    tl.store(Scales + row, absmax / QMAX)


def torch_quantize(x, qmax, dtype):
    absmax = x.float().abs().amax(1, keepdim=True)
    inverse = torch.where(absmax > 0, qmax / absmax, torch.zeros_like(absmax))
    y = x.float() * inverse
    if dtype == torch.int8:
        y = y.round()
    return y.to(dtype), (absmax / qmax).squeeze(1)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    ap.add_argument("--only", help="one case, e.g. int8:16384x4096 (for a profiler)")
    ap.add_argument("--once", action="store_true", help="run each kernel once, untimed")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    print("| to | M x N | correct (tilec, Triton, torch) | q != Triton | tilec us | Triton us | torch us "
          "| tilec / Triton | tilec / torch |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    failed = 0
    for to_fp8, dtype_in, dtype_q, qmax, bound in ((0, torch.half, torch.int8, 127.0, None),
                                                   (1, torch.bfloat16, torch.float8_e4m3fn, 448.0, 2.0 ** -4)):
        for M, N in ((4096, 1024), (4096, 4096), (16384, 1000), (16384, 4096)):
            g = torch.Generator(device="cuda")
            g.manual_seed(M * 7 + N + to_fp8)
            x = (torch.randn(M, N, device="cuda", generator=g) * 3).to(dtype_in)
            name = "e4m3" if to_fp8 else "int8"
            if args.only and args.only != f"{name}:{M}x{N}":
                continue
            block = triton.next_power_of_2(N)
            outs = [(torch.empty(M, N, device="cuda", dtype=dtype_q), torch.empty(M, device="cuda"))
                    for _ in range(2)]

            def tilec():
                q, s = outs[0]
                rc = lib.tilec_quantize(stream(), to_fp8, ptr(x), ptr(q), ptr(s), M, N, N)
                if rc != 0:
                    raise RuntimeError(f"tilec_quantize returned {rc}")

            def triton_():
                q, s = outs[1]
                _quantize_rows[(M,)](x, q, s, N, N, QMAX=qmax, TO_INT8=not to_fp8, BLOCK=block,
                                     num_warps=4)

            result = {}

            def torch_():
                result["torch"] = torch_quantize(x, qmax, dtype_q)

            for f in (tilec, triton_, torch_):
                f()
            torch.cuda.synchronize()
            if args.once:
                continue
            xd = x.double()

            def ok(q, s):
                # q * s against x: the rounding to the format, plus float's own in x * (QMAX /
                # max|x|) and max|x| / QMAX (a few 2^-24 of x).
                deq = q.double() * s.double()[:, None]
                err = (deq - xd).abs()
                step = s.double()[:, None]
                if bound is None:  # int8: half a step of the scale
                    lim = step / 2
                else:              # fp8: 2^-4 of each value, half the smallest subnormal step below
                    lim = xd.abs() * bound + step * 2.0 ** -10
                return bool((err <= lim * (1 + 2.0 ** -16) + xd.abs() * 2.0 ** -20).all())

            checks = [ok(*outs[0]), ok(*outs[1]), ok(*result["torch"])]
            differ = int((outs[0][0].view(torch.int8) != outs[1][0].view(torch.int8)).sum())
            failed += not all(checks)
            t = [bench_ms(f, flush)["ms"] * 1e3 for f in (tilec, triton_, torch_)]
            print(f"| {name} | {M} x {N} | {', '.join('ok' if c else 'FAIL' for c in checks)} | {differ} "
                  f"| {t[0]:.1f} | {t[1]:.1f} | {t[2]:.1f} | {t[1] / t[0]:.2f} | {t[2] / t[0]:.2f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

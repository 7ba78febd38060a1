"""tilec's fused linear + bias + GELU (examples/linear_gelu: out = gelu(x @ weight^T + bias), exact
GELU, 128x256x64 on 8 warps and 3 stages) beside PyTorch's unfused F.gelu(F.linear(x, w, b)) (cuBLAS
with the bias, then a GELU kernel) and torch._addmm_activation(..., use_gelu=True) (cuBLASLt's
fused bias + GELU epilogue, which computes GELU's tanh approximation), fp16 and bf16, at MLP shapes,
in one process. Not in CI: bench/linear_gelu.sh builds the shim and runs this on a GPU.

Every output is compared with float64 (exact GELU; relative Frobenius error <= 1e-2, as
bench/matmul.py) before it is timed; timings use bench/matmul.py's bench_ms (L2 flushed before
each repetition, the median). Prints a Markdown table.

    python3 linear_gelu.py LIB.so [--shapes MxNxK,...]
"""
import argparse
import ctypes
import sys

import torch
import torch.nn.functional as F

from matmul import bench_ms, rel_err, TOL

# tokens x out_features x in_features: a Llama-7B MLP's up projection (4096 -> 11008) at 4096 and
# 8192 tokens, and a square 8192 one.
SHAPES = [(4096, 11008, 4096), (8192, 11008, 4096), (8192, 8192, 8192)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    ap.add_argument("--shapes", default=",".join(f"{m}x{n}x{k}" for m, n, k in SHAPES))
    args = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    lib = ctypes.CDLL(args.lib)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print()
    print("| type | M x N x K | unfused (linear, gelu) TF/s | cuBLASLt bias+GELU(tanh) TF/s | "
          "tilec TF/s | tilec / unfused | tilec / cuBLASLt | rel err tilec, unfused, cuBLASLt |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    failed = 0
    for dtype, code in ((torch.float16, 0), (torch.bfloat16, 1)):
        for m, n, k in shapes:
            g = torch.Generator(device="cuda")
            g.manual_seed(m + n + k + code)
            x = torch.randn(m, k, device="cuda", generator=g).to(dtype)
            w = (torch.randn(n, k, device="cuda", generator=g) / k ** 0.5).to(dtype)
            b = torch.randn(n, device="cuda", generator=g).to(dtype)
            ref = F.gelu(x.double() @ w.double().T + b.double())
            out = torch.empty(m, n, device="cuda", dtype=dtype)
            stream = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

            def tilec():
                rc = lib.tilec_linear_gelu(stream(), code, ctypes.c_void_p(x.data_ptr()),
                                           ctypes.c_void_p(w.data_ptr()), ctypes.c_void_p(b.data_ptr()),
                                           ctypes.c_void_p(out.data_ptr()), m, n, k, k, k, n)
                if rc != 0:
                    raise RuntimeError(f"tilec_linear_gelu returned {rc}")
                return out

            def unfused():
                return F.gelu(F.linear(x, w, b))

            def lt():
                return torch._addmm_activation(b, x, w.T, use_gelu=True)

            def checked(fn):
                out.fill_(float("nan"))
                result = fn()
                torch.cuda.synchronize()
                return rel_err(result, ref)

            errs = [checked(f) for f in (tilec, unfused, lt)]
            times = [bench_ms(f, flush)["ms"] for f in (unfused, lt, tilec)]
            if not errs[0] <= TOL:
                failed += 1
            tf = lambda ms: 2.0 * m * n * k / (ms * 1e-3) / 1e12
            name = "fp16" if code == 0 else "bf16"
            print(f"| {name} | {m}x{n}x{k} | {tf(times[0]):.1f} | {tf(times[1]):.1f} | "
                  f"{tf(times[2]):.1f} | {times[0] / times[2]:.3f} | {times[1] / times[2]:.3f} | "
                  f"{errs[0]:.2g}, {errs[1]:.2g}, {errs[2]:.2g} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

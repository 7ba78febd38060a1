"""tilec's random numbers beside Triton's on one GPU, in one process (not in CI; bench/dropout.sh
builds the shim and runs this).

1. Streams: tests/kernels/random.cpp (tl::randint, rand, randn of an int seed; randint4x, rand4x,
   randn4x of an int64 one) against the same Triton kernels written here, at 2^20 + 3 offsets for
   three seeds (positive, negative, and one past 2^32, whose high half keys Philox). Counts the
   elements whose bits differ: randint and rand must be identical (bits, and one conversion and one
   product in float); for randn the table gives the count and the largest difference (Box-Muller's
   logf, sqrtf, cosf and sinf are the math libraries' own on each side).
2. Dropout: examples/dropout (tutorial 04's seeded dropout, fp32 and fp16, BLOCK 1024 on 4 warps)
   against tutorial 04's Triton kernel: outputs compared bit for bit (fp16 at p = 0.1 differs where
   tilec rounds the float scalar 1 - p to half next to the half tile, docs/language.md's tile-scalar
   promotion, and Triton, whose kernel arguments are tensors that join promotion, divides in
   float), then timed with bench/matmul.py's bench_ms (L2 flushed before each repetition, the median); GB/s counts reading x
   and writing out. torch.nn.functional.dropout (another generator) is timed beside them.

    python3 dropout.py LIB.so
"""
import argparse
import ctypes

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

from matmul import bench_ms


@triton.jit
def seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial 04 ("low-memory dropout"), unchanged.
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def streams(bits_ptr, uniform_ptr, normal_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(bits_ptr + offs, tl.randint(seed, offs), mask=mask)
    tl.store(uniform_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(normal_ptr + offs, tl.randn(seed, offs), mask=mask)


@triton.jit
def streams4x(bits_ptr, uniform_ptr, normal_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    at = offs * 4
    b0, b1, b2, b3 = tl.randint4x(seed, offs)
    tl.store(bits_ptr + at, b0, mask=mask)
    tl.store(bits_ptr + at + 1, b1, mask=mask)
    tl.store(bits_ptr + at + 2, b2, mask=mask)
    tl.store(bits_ptr + at + 3, b3, mask=mask)
    u0, u1, u2, u3 = tl.rand4x(seed, offs)
    tl.store(uniform_ptr + at, u0, mask=mask)
    tl.store(uniform_ptr + at + 1, u1, mask=mask)
    tl.store(uniform_ptr + at + 2, u2, mask=mask)
    tl.store(uniform_ptr + at + 3, u3, mask=mask)
    n0, n1, n2, n3 = tl.randn4x(seed, offs)
    tl.store(normal_ptr + at, n0, mask=mask)
    tl.store(normal_ptr + at + 1, n1, mask=mask)
    tl.store(normal_ptr + at + 2, n2, mask=mask)
    tl.store(normal_ptr + at + 3, n3, mask=mask)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def differing(a, b):
    """Elements whose bits differ."""
    return int((a.view(torch.int32) != b.view(torch.int32)).sum().item())


def compare_streams(lib):
    n = (1 << 20) + 3
    print("| stream | seed | elements | bits differ | randn: largest difference |")
    print("|---|---:|---:|---:|---:|")
    failed = 0
    for seed in (20241127, -3000009, (1 << 40) + 12345):
        for four in (False, True):
            m = n * 4 if four else n
            out = {side: [torch.full((m,), -1, dtype=torch.int32, device="cuda"),
                          torch.full((m,), float("nan"), device="cuda"),
                          torch.full((m,), float("nan"), device="cuda")] for side in ("tilec", "triton")}
            t = out["tilec"]
            if four:
                rc = lib.tilec_random_streams4x(stream(), ptr(t[0]), ptr(t[1]), ptr(t[2]), n,
                                                ctypes.c_longlong(seed))
                streams4x[(triton.cdiv(n, 128),)](*out["triton"], n, seed, BLOCK=128)
            elif -(1 << 31) <= seed < (1 << 31):
                rc = lib.tilec_random_streams(stream(), ptr(t[0]), ptr(t[1]), ptr(t[2]), n, seed)
                streams[(triton.cdiv(n, 256),)](*out["triton"], n, seed, BLOCK=256)
            else:
                continue  # the int-seed kernel takes no seed past int32
            if rc != 0:
                raise RuntimeError(f"tilec launch returned {rc}")
            torch.cuda.synchronize()
            a, b = out["tilec"], out["triton"]
            suffix = "4x" if four else ""
            d_bits, d_uni, d_nor = differing(a[0], b[0]), differing(a[1], b[1]), differing(a[2], b[2])
            worst = (a[2] - b[2]).abs().max().item()
            failed += d_bits != 0 or d_uni != 0 or not worst < 1e-5
            print(f"| randint{suffix} | {seed} | {m} | {d_bits} | |")
            print(f"| rand{suffix} | {seed} | {m} | {d_uni} | |")
            print(f"| randn{suffix} | {seed} | {m} | {d_nor} | {worst:.3g} |")
    return failed


def compare_dropout(lib):
    print()
    print("| type | n | p | outputs differ | tilec GB/s | Triton GB/s | torch dropout GB/s | tilec / Triton |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    failed = 0
    for dtype, code in ((torch.float32, 0), (torch.float16, 1)):
        for n, p in (((1 << 24) + 7, 0.5), ((1 << 24) + 7, 0.1), (1 << 26, 0.5)):
            seed = 1234
            g = torch.Generator(device="cuda")
            g.manual_seed(n + code)
            x = torch.randn(n, device="cuda", generator=g).to(dtype)
            out_tilec = torch.full_like(x, float("nan"))
            out_triton = torch.full_like(x, float("nan"))

            def tilec():
                rc = lib.tilec_dropout(stream(), code, ptr(x), ptr(out_tilec), n, ctypes.c_float(p), seed)
                if rc != 0:
                    raise RuntimeError(f"tilec_dropout returned {rc}")

            def tri():
                seeded_dropout[(triton.cdiv(n, 1024),)](x, out_triton, n, p, seed, BLOCK_SIZE=1024)

            def torch_dropout():
                return F.dropout(x, p=p, training=True)

            tilec()
            tri()
            torch.cuda.synchronize()
            diff = int((out_tilec.view(torch.int16 if code else torch.int32)
                        != out_triton.view(torch.int16 if code else torch.int32)).sum().item())
            # fp16 can differ only where 1 - p is not a half (above); elsewhere the bits must agree.
            exact_in_half = float(torch.tensor(1 - p).half()) == 1 - p
            failed += diff != 0 and (code == 0 or exact_in_half)
            gbytes = 2 * n * x.element_size() / 1e9
            t_tilec, t_triton, t_torch = (bench_ms(f, flush)["ms"] for f in (tilec, tri, torch_dropout))
            print(f"| {str(dtype).replace('torch.', '')} | {n} | {p} | {diff} | {gbytes / t_tilec * 1e3:.0f} | "
                  f"{gbytes / t_triton * 1e3:.0f} | {gbytes / t_torch * 1e3:.0f} | {t_triton / t_tilec:.2f} |")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print()
    failed = compare_streams(lib) + compare_dropout(lib)
    print()
    print("randint and rand streams identical; dropout outputs identical but where 1 - p is not a half (fp16)"
          if failed == 0 else f"{failed} rows differ where they must not")


if __name__ == "__main__":
    main()

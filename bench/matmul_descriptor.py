"""tilec's tensor-descriptor matmul (examples/matmul_descriptor: Triton tutorial 09's descriptor
kernel, 128x256x64 on 8 warps and 3 stages) beside Triton's own tutorial-09 descriptor kernel at
several of the tutorial's configurations and cuBLAS (torch.matmul), fp16 and bf16, in one process.
A is M x K and B is given as N x K (the tutorial's `b.T.contiguous()`); C = A @ B^T. Not in CI:
bench/matmul_descriptor.sh builds the shim and runs this on a GPU.

Every output is compared with float64 (relative Frobenius error <= 1e-2, as bench/matmul.py) before
it is timed; timings use bench/matmul.py's bench_ms (L2 flushed before each repetition, the median
of the repetitions). Prints a Markdown table: per shape and type, TF/s of cuBLAS, tilec and the best
Triton configuration, and the ratios.

    python3 matmul_descriptor.py LIB.so [--shapes MxNxK,...]
"""
import argparse
import ctypes
import sys

import torch
import triton
import triton.language as tl

from matmul import bench_ms, rel_err, TOL

# Triton's tutorial 09 (python/tutorials/09-persistent-matmul.py), matmul_kernel_descriptor_persistent
# without autotune, warp specialization (Blackwell only there) or launch metadata: the baseline.
@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                        EPILOGUE_SUBTILE: tl.constexpr, NUM_SMS: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[N, 1],
        block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N if not EPILOGUE_SUBTILE else BLOCK_SIZE_N // 2])
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c_desc.store([offs_cm, offs_cn], acc0.to(dtype))
            c_desc.store([offs_cm, offs_cn + BLOCK_SIZE_N // 2], acc1.to(dtype))
        else:
            c_desc.store([offs_cm, offs_cn], accumulator.to(dtype))


# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, EPILOGUE_SUBTILE): from the tutorial's
# matmul_tma_persistent_get_configs (BM 128, BN 128/256, BK 64/128, stages 2-4, warps 4/8), the
# ones that fit the H100's shared memory at BK 64.
TRITON_CONFIGS = [(128, 256, 64, 8, 3, False), (128, 256, 64, 8, 3, True), (128, 256, 64, 8, 4, True),
                  (128, 128, 64, 8, 3, False), (128, 128, 64, 8, 4, False), (128, 128, 64, 4, 4, False),
                  (128, 128, 128, 8, 3, False), (128, 256, 64, 4, 3, True)]

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4096, 11008, 4096), (4096, 4096, 11008)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("lib")
    ap.add_argument("--shapes", default=",".join(f"{m}x{n}x{k}" for m, n, k in SHAPES))
    args = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    lib = ctypes.CDLL(args.lib)
    num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    triton.set_allocator(lambda size, align, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    print(f"{torch.cuda.get_device_name()}, Triton {triton.__version__}, torch {torch.__version__}")
    print()
    print("| type | M x N x K | cuBLAS TF/s | tilec TF/s | best Triton TF/s (config) | tilec / cuBLAS "
          "| tilec / Triton | rel err tilec, Triton |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    failed = 0
    for dtype, code in ((torch.float16, 0), (torch.bfloat16, 1)):
        for m, n, k in shapes:
            g = torch.Generator(device="cuda")
            g.manual_seed(m + n + k + code)
            a = (torch.randn(m, k, device="cuda", generator=g) * 0.1).to(dtype)
            bt = (torch.randn(n, k, device="cuda", generator=g) * 0.1).to(dtype)
            ref = a.double() @ bt.double().T
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            stream = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

            def tilec():
                rc = lib.tilec_matmul_descriptor(stream(), code, ctypes.c_void_p(a.data_ptr()),
                                                 ctypes.c_void_p(bt.data_ptr()),
                                                 ctypes.c_void_p(c.data_ptr()), m, n, k, k, k, n)
                if rc != 0:
                    raise RuntimeError(f"tilec_matmul_descriptor returned {rc}")

            def cublas():
                torch.matmul(a, bt.T, out=c)

            def triton_run(cfg):
                bm, bn, bk, w, st, sub = cfg
                grid = (min(num_sms, triton.cdiv(m, bm) * triton.cdiv(n, bn)),)
                matmul_kernel_descriptor_persistent[grid](a, bt, c, m, n, k, BLOCK_SIZE_M=bm,
                                                          BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                                          GROUP_SIZE_M=8, EPILOGUE_SUBTILE=sub,
                                                          NUM_SMS=num_sms, num_warps=w,
                                                          num_stages=st)

            def checked(fn):
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                return rel_err(c, ref)

            t_cublas = bench_ms(cublas, flush)["ms"]
            err_tilec = checked(tilec)
            t_tilec = bench_ms(tilec, flush)["ms"]
            best = None
            for cfg in TRITON_CONFIGS:
                try:
                    err = checked(lambda: triton_run(cfg))
                except Exception as e:  # a configuration that does not compile or fit
                    print(f"  (Triton {cfg}: {type(e).__name__})", file=sys.stderr)
                    continue
                if not err <= TOL:
                    print(f"  (Triton {cfg}: rel err {err:.3g})", file=sys.stderr)
                    continue
                t = bench_ms(lambda: triton_run(cfg), flush)["ms"]
                if best is None or t < best[0]:
                    best = (t, cfg, err)
            tf = lambda ms: 2.0 * m * n * k / (ms * 1e-3) / 1e12
            if not err_tilec <= TOL:
                failed += 1
            name = "fp16" if code == 0 else "bf16"
            bm, bn, bk, w, st, sub = best[1]
            print(f"| {name} | {m}x{n}x{k} | {tf(t_cublas):.1f} | {tf(t_tilec):.1f} | "
                  f"{tf(best[0]):.1f} ({bm}x{bn}x{bk} w{w} s{st}{' subtile' if sub else ''}) | "
                  f"{t_cublas / t_tilec:.3f} | {best[0] / t_tilec:.3f} | {err_tilec:.2g}, {best[2]:.2g} |",
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

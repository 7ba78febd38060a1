#!/usr/bin/env python3
"""Runs one fp16 matmul twice for Nsight Compute: configuration I of bench/matmul.py's CONFIGS, from
tilec's shim (bench/matmul.sh builds it) or, with --triton, Triton's tutorial-03 kernel with the same
blocks. Profile the second run (the first compiles Triton's kernel), e.g.
  ncu --kernel-name regex:matmul_kernel --launch-skip 1 --launch-count 1 --section SpeedOfLight \\
      python3 bench/matmul_profile.py LIB --config 7 [--triton] [--shape 4096x4096x4096]"""
import argparse
import ctypes
import os

import torch

from matmul import CONFIGS, Tilec, Triton, make_inputs, parse_shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib", help="the shim, built by bench/matmul.sh (libtilec_matmul.so)")
    ap.add_argument("--config", type=int, required=True, help="index into CONFIGS")
    ap.add_argument("--triton", action="store_true", help="Triton's kernel instead of tilec's")
    ap.add_argument("--stages", type=int, default=3, help="Triton's num_stages (default 3)")
    ap.add_argument("--shape", default="4096x4096x4096")
    args = ap.parse_args()
    (_, m, n, k), = parse_shapes(args.shape)
    if args.triton:
        p = Triton(args.config, args.stages)
    else:
        lib = ctypes.CDLL(os.path.abspath(args.lib))
        lib.tilec_matmul.restype = ctypes.c_int
        lib.tilec_matmul.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_void_p] * 3 \
            + [ctypes.c_int] * 9
        p = Tilec(lib, args.config)
    a, b, _ = make_inputs(m, n, k, False, 1)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    for _ in range(2):
        p.run(a, b, c)
    torch.cuda.synchronize()
    print(p.name, CONFIGS[args.config], f"{m}x{n}x{k}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs tilec's and Triton's kernel of each workload once at one large size, for Nsight Compute:
  ncu --section SpeedOfLight --section Occupancy --section LaunchStats \\
      python3 bench/profile.py --lib-dir DIR [--only NAME...]
Each kernel runs twice (the first call compiles Triton's); profile the second (ncu --launch-skip or
read the last of each pair)."""
import argparse

import torch

import bench

SIZES = {"vector_add": 2**26, "softmax": (4096, 4096), "softmax_wide": (256, 262144), "layer_norm": (4096, 8192), "rms_norm_f16": (4096, 4096), "rms_norm_bf16": (4096, 4096), "add_rms_norm_f16": (4096, 4096),
         "swiglu": 2**27, "transpose": (8192, 8192)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib-dir", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--size", action="append", default=[],
                    help="NAME=SIZE to override, e.g. softmax=4096x1024")
    args = ap.parse_args()
    sizes = dict(SIZES)
    for item in args.size:
        name, val = item.split("=")
        sizes[name] = tuple(int(v) for v in val.split("x")) if "x" in val else int(val)
    lib = bench.Lib(args.lib_dir)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    for cls in bench.WORKLOADS:
        if args.only and cls.name not in args.only:
            continue
        wl = cls(lib)
        s = wl.make(sizes[wl.name], gen)
        for p in ("tilec", "triton"):
            for _ in range(2):
                getattr(wl, p)(s)
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""One launch of each provider of the production benchmark's workloads, for Nsight Compute
(bench/production/profile.sh): after a warm-up, tilec's and Liger's kernel once each at the given
workload and width.

  profile_liger.py --lib-dir DIR --liger-src DIR/src --only swiglu_fwd --size 11008
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import torch  # noqa: E402

import bench  # noqa: E402
import bench_liger as bl  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib-dir", required=True)
    ap.add_argument("--liger-src", required=True)
    ap.add_argument("--only", nargs="+", required=True)
    ap.add_argument("--size", type=int, nargs="+", required=True)
    args = ap.parse_args()
    mods = bl.load_liger(args.liger_src)
    lib = bench.Lib(args.lib_dir)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    for cls in bl.WORKLOADS:
        if cls.name not in args.only:
            continue
        wl = cls(lib, mods)
        for n in args.size:
            s = wl.make(n, gen)
            for p in ("tilec", "liger"):
                getattr(wl, p)(s)  # warm-up (Triton compiles here)
            torch.cuda.synchronize()
            for p in ("tilec", "liger"):
                torch.cuda.nvtx.range_push(f"{wl.name} {n} {p}")
                getattr(wl, p)(s)
                torch.cuda.nvtx.range_pop()
            torch.cuda.synchronize()


if __name__ == "__main__":
    main()

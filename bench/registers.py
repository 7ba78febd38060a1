#!/usr/bin/env python3
"""tilec's register estimate beside ptxas's count for every kernel in bench/gen (issue 17, item 2).
Needs nvcc, no GPU:  python3 bench/registers.py [--arch 90a] [FILE.cu ...]
Each kernel's tunables block carries "registers: about N a thread ..." (tilec's estimate of the
registers tile values take at the peak); ptxas -v gives the real count and the spills. Prints one
Markdown row per kernel (the aligned variant as its own row) and a summary."""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def estimates(path):
    """{'ns::ns': estimate} from the generated file's namespaces and tunables comments."""
    out, stack = {}, []
    for line in open(path):
        m = re.match(r"namespace (\w+) \{", line)
        if m:
            stack.append(m.group(1))
            continue
        if re.match(r"\} // namespace ", line) and stack:
            stack.pop()
            continue
        m = re.search(r"// registers: about (\d+) ", line)
        if m and stack:
            out["::".join(stack)] = int(m.group(1))
    return out


def ptxas(path, arch):
    cmd = ["nvcc", "-std=c++20", "-O3", f"-gencode=arch=compute_{arch},code=sm_{arch}",
           "-I", os.path.join(ROOT, "runtime_headers"), "-c", path, "-o", os.devnull, "-Xptxas", "-v"]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    res, cur = {}, None
    for line in err.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            cur = subprocess.run(["c++filt", m.group(1)], capture_output=True, text=True).stdout.strip()
            cur = cur.split("(")[0].rsplit("::", 1)[0]  # the namespaces around the kernel
            res[cur] = {"regs": None, "spill": 0}
            continue
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and cur:
            res[cur]["spill"] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            res[cur]["regs"] = int(m.group(1))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="90a")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "bench", "gen", "*.cu")))
    print("| file | kernel | tilec estimate | ptxas registers | spill bytes |")
    print("|---|---|---|---|---|")
    rows = []
    for f in files:
        est, real = estimates(f), ptxas(f, args.arch)
        for ns in sorted(real):
            e, r = est.get(ns), real[ns]
            rows.append((e, r["regs"], r["spill"]))
            print(f"| {os.path.basename(f)} | {ns} | {e if e is not None else '-'} | {r['regs']} | {r['spill']} |")
    pairs = [(e, r) for e, r, _ in rows if e is not None and r is not None]
    if not pairs:
        sys.exit("no kernel carries an estimate")
    diffs = sorted(r - e for e, r in pairs)
    above = sum(1 for d in diffs if d > 0)
    spills = sum(1 for f in rows if f[2])
    print(f"\n{len(pairs)} kernels; ptxas above the estimate in {above}; ptxas minus estimate: median "
          f"{diffs[len(diffs) // 2]}, from {diffs[0]} to {diffs[-1]}; {spills} kernels spill")


if __name__ == "__main__":
    main()

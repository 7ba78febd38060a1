"""The atomic instructions in Triton's PTX of Liger's embedding backward (fp32 and bf16): what tilec's
atomic adds are compared with (bench/NOTES.md, Change P10). GPU machine:
    python3 bench/production/atomics_ptx.py LIGER_DEST    (what originals.sh wrote)"""
import collections
import re
import sys

import torch

sys.path.insert(0, sys.argv[1] + "/src")
from liger_kernel.ops.experimental import embedding as E  # noqa: E402

for dt in (torch.float32, torch.bfloat16):
    V, D, T = 1000, 1024, 512
    go = torch.randn(T, D, device="cuda", dtype=dt)
    gw = torch.zeros(V, D, device="cuda", dtype=dt)
    ids = torch.randint(0, V, (T,), device="cuda")
    k = E.embedding_backward_kernel[(4, 8)](go, gw, ids, T, embedding_dim=D, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128)
    ptx = k.asm["ptx"]
    atoms = collections.Counter(re.findall(r"\b(?:atom|red)\.[\w.]+", ptx))
    fences = len(re.findall(r"\b(?:fence|membar)\.[\w.]+", ptx))
    print(f"{dt}: {dict(atoms)}; fences: {fences}")

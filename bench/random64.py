#!/usr/bin/env python3
"""Triton's random numbers at int64 offsets against Philox 4x32-10 of the counter (low half, high
half, 0, 0), the stream tilec gives them (tilec/detail/philox.hpp; tests/gpu/random.cu checks
tilec's GPU output against the same counter). Run on a GPU machine with Triton: prints one line per
offset range and exits non-zero on a mismatch of tl.randint's bits or tl.rand's floats."""
import sys

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def streams(offsets_ptr, bits_ptr, uniform_ptr, n, seed, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    offs = tl.load(offsets_ptr + i, mask=mask)  # int64
    tl.store(bits_ptr + i, tl.randint(seed, offs), mask=mask)
    tl.store(uniform_ptr + i, tl.rand(seed, offs), mask=mask)


def philox(seed, lo, hi):
    """Output 0 of Philox 4x32-10 of counters (lo, hi, 0, 0) under the key of seed (uint64)."""
    m32 = np.uint64(0xFFFFFFFF)
    c0, c1 = lo.astype(np.uint64), hi.astype(np.uint64)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    k0, k1 = np.uint64(seed & 0xFFFFFFFF), np.uint64((seed >> 32) & 0xFFFFFFFF)
    a, b = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    for _ in range(10):
        p0, p2 = c0, c2
        c0 = ((b * p2) >> np.uint64(32)) ^ c1 ^ k0
        c2 = ((a * p0) >> np.uint64(32)) ^ c3 ^ k1
        c1 = (b * p2) & m32
        c3 = (a * p0) & m32
        k0 = (k0 + np.uint64(0x9E3779B9)) & m32
        k1 = (k1 + np.uint64(0xBB67AE85)) & m32
    return c0.astype(np.uint32)


def uniform(bits):
    x = bits.view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def main():
    seed, n, bad = 20241127, 4099, 0
    for base in (5 << 32, (1 << 32) - 700, -1000003, (1 << 62) + 12345):
        offs = torch.arange(base, base + n, dtype=torch.int64, device="cuda")
        bits = torch.empty(n, dtype=torch.int32, device="cuda")
        uni = torch.empty(n, dtype=torch.float32, device="cuda")
        streams[(triton.cdiv(n, 1024),)](offs, bits, uni, n, seed, BLOCK=1024)
        o = offs.cpu().numpy().view(np.uint64)
        want = philox(seed, o & np.uint64(0xFFFFFFFF), o >> np.uint64(32))
        got = bits.cpu().numpy().view(np.uint32)
        wrong_bits = int((got != want).sum())
        wrong_uni = int((uni.cpu().numpy() != uniform(want)).sum())
        bad += wrong_bits + wrong_uni
        print(f"offsets {base} .. {base + n - 1}: randint {n - wrong_bits}/{n} equal, rand {n - wrong_uni}/{n} equal")
    print(f"Triton {triton.__version__}: {'all equal' if bad == 0 else f'{bad} mismatches'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

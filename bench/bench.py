#!/usr/bin/env python3
"""tilec's benchmark: each example's generated CUDA beside a Triton kernel of the same algorithm
(bench/triton_kernels.py, same meta-parameters) and PyTorch's equivalent, on one GPU, in one run.

Run it through bench/run.sh, which builds the generated CUDA first. Method (see bench/NOTES.md):
  * Every size is checked before it is timed: fresh random inputs, outputs poisoned with NaN, each
    provider compared with a float64 reference by ||out - ref|| / ||ref||. After timing, the outputs of
    the last timed launch are poisoned-then-rewritten and checked again.
  * Timing: one CUDA graph per provider and size holds one launch per input set; the sets are rotated
    so that together they are several times the L2 cache (no launch finds its inputs in L2, except at
    sizes so small that thousands of sets would be needed). Each replay is timed with CUDA events;
    the result is the median over replays of (replay time / launches). The providers alternate, two
    passes each; the spread between the passes is reported as the noise.
  * Ceiling: a device-to-device copy of 1 GiB (bytes read + written) timed the same way in the same
    run; also a copy of the same bytes as each size, to show what any kernel could reach there.
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

# Triton's compile times below are for a cold cache: point it at an empty folder before importing it.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="tilec-bench-triton-cache-")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402

import triton_kernels as tk  # noqa: E402
from report import GB, MB, gbps, write_outputs  # noqa: E402

def next_pow2(n):
    return 1 << (n - 1).bit_length()


def rel_err(out, ref):
    out = out.double()
    ref = ref.double()
    den = torch.linalg.vector_norm(ref).item()
    num = torch.linalg.vector_norm(out - ref).item()
    return num / den if den else num


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


class Lib:
    """The shims in bench/shim, built by run.sh into --lib-dir."""

    def __init__(self, lib_dir):
        self.libs = {}
        self.lib_dir = lib_dir

    def get(self, name):
        if name not in self.libs:
            self.libs[name] = ctypes.CDLL(os.path.join(self.lib_dir, f"libtilec_{name}.so"))
        return self.libs[name]


def check_rc(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: tilec launcher returned {rc}")


# ---------------------------------------------------------------------------------------------
# Workloads. Each one gives: sizes to time, sizes only to check (ragged), the bytes a size must
# move at least, a set of inputs and preallocated outputs, and one launch function per provider
# that returns the outputs to check.


class VectorAdd:
    name = "vector_add"
    title = "vector add, fp32, out = x + y"
    axis = "n"
    sizes = [2**k for k in range(12, 29)]
    checks = [1000003, 2**20 + 3]
    BLOCK = 1024

    def __init__(self, lib):
        self.fn = lib.get("vector_add").tilec_vector_add
        self.fn.restype = ctypes.c_int

    def label(self, n):
        return f"2^{int(math.log2(n))}" if n & (n - 1) == 0 else str(n)

    def nbytes(self, n):
        return 12 * n

    def make(self, n, gen):
        return {"x": torch.randn(n, device="cuda", generator=gen),
                "y": torch.randn(n, device="cuda", generator=gen),
                "out": torch.empty(n, device="cuda"), "n": n}

    def outputs(self, s):
        return [s["out"]]

    def reference(self, s):
        return [s["x"].double() + s["y"].double()], [1e-6]

    def tilec(self, s):
        check_rc(self.fn(stream(), ptr(s["x"]), ptr(s["y"]), ptr(s["out"]), s["n"]), self.name)
        return [s["out"]]

    def triton(self, s):
        n = s["n"]
        tk.add_kernel[(triton.cdiv(n, self.BLOCK),)](s["x"], s["y"], s["out"], n,
                                                     BLOCK=self.BLOCK, num_warps=4)
        return [s["out"]]

    def torch(self, s):
        return [torch.add(s["x"], s["y"], out=s["out"])]


def softmax_meta(n_cols):
    block = max(256, next_pow2(n_cols))  # the smallest block bench/kernels.txt generates
    warps = 4 if block < 2048 else 8 if block < 4096 else 16
    return block, warps


class Softmax:
    name = "softmax"
    title = "fused softmax over rows, fp32, M = 4096"
    axis = "N"
    sizes = [(4096, n) for n in (256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384)]
    checks = [(1001, 1000), (37, 16000), (513, 3)]

    def __init__(self, lib):
        self.fn = lib.get("softmax").tilec_softmax
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return str(n) if m == 4096 else f"{m}x{n}"

    def nbytes(self, size):
        m, n = size
        return 8 * m * n

    def make(self, size, gen):
        m, n = size
        return {"x": torch.randn(m, n, device="cuda", generator=gen),
                "out": torch.empty(m, n, device="cuda"), "m": m, "n": n}

    def outputs(self, s):
        return [s["out"]]

    def reference(self, s):
        return [torch.softmax(s["x"].double(), dim=-1)], [1e-5]

    def tilec(self, s):
        block, warps = softmax_meta(s["n"])
        check_rc(self.fn(stream(), block, warps, ptr(s["out"]), ptr(s["x"]), s["n"], s["n"],
                         s["m"], s["n"]), self.name)
        return [s["out"]]

    def triton(self, s):
        block, warps = softmax_meta(s["n"])
        x, out = s["x"], s["out"]
        tk.softmax_kernel[(s["m"],)](out, x, x.stride(0), out.stride(0), s["m"], s["n"],
                                     BLOCK=block, num_warps=warps)
        return [out]

    def torch(self, s):
        return [torch.softmax(s["x"], dim=-1)]


class SoftmaxF16(Softmax):
    """The same source at T = tl::half (fp16 rows, fp32 arithmetic, rounded once when stored), at the
    fp32 rows' configurations, beside Triton's tutorial kernel with the same casts."""
    name = "softmax_f16"
    title = "fused softmax over rows, fp16 in/out (fp32 arithmetic), M = 4096"

    def __init__(self, lib):
        self.fn = lib.get("softmax").tilec_softmax_f16
        self.fn.restype = ctypes.c_int

    def nbytes(self, size):
        m, n = size
        return 4 * m * n

    def make(self, size, gen):
        m, n = size
        return {"x": torch.randn(m, n, device="cuda", generator=gen).half(),
                "out": torch.empty(m, n, device="cuda", dtype=torch.float16), "m": m, "n": n}

    def reference(self, s):
        # float64 of the fp16 inputs; the output is rounded to fp16 (2^-11 relative).
        return [torch.softmax(s["x"].double(), dim=-1)], [1e-3]

    def torch(self, s):
        return [torch.softmax(s["x"], dim=-1)]


class SoftmaxWide(Softmax):
    """Rows wider than one block (issue 17, item 4): softmax_looped in 4096-wide chunks on 8 warps,
    beside the same algorithm in Triton (tutorial 02's one-block kernel cannot hold such rows).
    The algorithm reads each row twice and writes it once: MB moved counts the three passes."""
    name = "softmax_wide"
    title = "softmax over rows wider than a block (looped, 4096-wide chunks), fp32"
    sizes = [((1 << 26) // n, n) for n in (32768, 65536, 131072, 262144)]
    checks = [(3, 100003), (7, 5000)]
    BLOCK, WARPS = 4096, 8

    def __init__(self, lib):
        self.fn = lib.get("softmax").tilec_softmax_looped
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return f"{m}x{n}"

    def nbytes(self, size):
        m, n = size
        return 12 * m * n

    def tilec(self, s):
        check_rc(self.fn(stream(), ptr(s["out"]), ptr(s["x"]), s["n"], s["n"], s["m"], s["n"]), self.name)
        return [s["out"]]

    def triton(self, s):
        x, out = s["x"], s["out"]
        tk.softmax_looped_kernel[(s["m"],)](out, x, x.stride(0), out.stride(0), s["n"], BLOCK=self.BLOCK,
                                            num_warps=self.WARPS)
        return [out]


class RMSNorm:
    """examples/rms_norm at BLOCK = next_pow2(N) on its 8 warps, fp16 rows (RMSNormBF16: bf16)."""
    name = "rms_norm_f16"
    title = "RMSNorm forward, fp16 in/out (Llama casting), fp32 statistics, M = 4096"
    dtype = torch.float16
    symbol = "tilec_rms_norm_f16"
    axis = "N"
    sizes = [(4096, n) for n in (1024, 2048, 4096, 8192)]
    checks = [(1001, 1000), (37, 8000), (300, 3)]
    EPS = 1e-6

    def __init__(self, lib):
        self.fn = getattr(lib.get("rms_norm"), self.symbol)
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return str(n) if m == 4096 else f"{m}x{n}"

    def nbytes(self, size):
        m, n = size
        return 2 * (2 * m * n) + 2 * n + 4 * m  # x, y; w; rstd

    def make(self, size, gen):
        m, n = size
        return {"x": torch.randn(m, n, device="cuda", generator=gen).to(self.dtype),
                "w": (torch.rand(n, device="cuda", generator=gen) + 0.5).to(self.dtype),
                "y": torch.empty(m, n, device="cuda", dtype=self.dtype),
                "rstd": torch.empty(m, device="cuda"), "m": m, "n": n}

    def outputs(self, s):
        return [s["y"], s["rstd"]]

    def reference(self, s):
        x = s["x"].double()
        rstd = torch.rsqrt((x * x).mean(dim=-1) + self.EPS)
        return [x * rstd[:, None] * s["w"].double(), rstd], [8e-3, 1e-5]

    def tilec(self, s):
        block = max(1024, next_pow2(s["n"]))
        check_rc(self.fn(stream(), block, ptr(s["x"]), ptr(s["w"]), ptr(s["y"]), ptr(s["rstd"]), s["m"], s["n"],
                         s["n"]), self.name)
        return [s["y"], s["rstd"]]

    def triton(self, s):
        block = max(1024, next_pow2(s["n"]))
        tk.rms_norm_fwd[(s["m"],)](s["x"], s["w"], s["y"], s["rstd"], s["x"].stride(0), s["n"], self.EPS,
                                   BLOCK=block, LLAMA=True, num_warps=8)
        return [s["y"], s["rstd"]]

    def torch(self, s):
        x = s["x"].float()
        rstd = torch.rsqrt((x * x).mean(dim=-1) + self.EPS)
        return [(x * rstd[:, None]).to(self.dtype) * s["w"], rstd]


class RMSNormBF16(RMSNorm):
    name = "rms_norm_bf16"
    title = "RMSNorm forward, bf16 in/out (Llama casting), fp32 statistics, M = 4096"
    dtype = torch.bfloat16
    symbol = "tilec_rms_norm_bf16"


class AddRMSNorm(RMSNorm):
    """examples/rms_norm's add_rms_norm_fwd: s = x + r (stored), then RMSNorm of s; fp16."""
    name = "add_rms_norm_f16"
    title = "fused residual add + RMSNorm forward, fp16 (Llama casting), M = 4096"
    symbol = "tilec_add_rms_norm_f16"

    def nbytes(self, size):
        m, n = size
        return 4 * (2 * m * n) + 2 * n + 4 * m  # x, r, s, y; w; rstd

    def make(self, size, gen):
        s = super().make(size, gen)
        s["r"] = torch.randn(s["m"], s["n"], device="cuda", generator=gen).to(self.dtype)
        s["s"] = torch.empty_like(s["x"])
        return s

    def outputs(self, s):
        return [s["y"], s["s"], s["rstd"]]

    def reference(self, s):
        srow = (s["x"] + s["r"]).double()  # rounded to fp16 first, as the kernels store it
        rstd = torch.rsqrt((srow * srow).mean(dim=-1) + self.EPS)
        return [srow * rstd[:, None] * s["w"].double(), srow, rstd], [8e-3, 0.0, 1e-5]

    def tilec(self, s):
        block = max(1024, next_pow2(s["n"]))
        check_rc(self.fn(stream(), block, ptr(s["x"]), ptr(s["r"]), ptr(s["w"]), ptr(s["s"]), ptr(s["y"]),
                         ptr(s["rstd"]), s["m"], s["n"], s["n"]), self.name)
        return [s["y"], s["s"], s["rstd"]]

    def triton(self, s):
        block = max(1024, next_pow2(s["n"]))
        tk.add_rms_norm_fwd[(s["m"],)](s["x"], s["r"], s["w"], s["s"], s["y"], s["rstd"], s["x"].stride(0), s["n"],
                                       self.EPS, BLOCK=block, num_warps=8)
        return [s["y"], s["s"], s["rstd"]]

    def torch(self, s):
        srow = s["x"] + s["r"]
        f = srow.float()
        rstd = torch.rsqrt((f * f).mean(dim=-1) + self.EPS)
        return [(f * rstd[:, None]).to(self.dtype) * s["w"], srow, rstd]


class CrossEntropy:
    """examples/cross_entropy (Liger-Kernel's fused forward: loss per row and the gradient of the mean
    loss written over the logits) at Liger's launch, BLOCK = min(32768, next_pow2(V)) on 32 warps,
    bf16 logits, beside the same algorithm in Triton and PyTorch eager. In place: every checked run
    gets the logits back. MB moved counts both reads of the logits and the write."""
    name = "cross_entropy"
    title = "cross-entropy loss and gradient in place (Liger's forward), bf16 logits"
    axis = "M x V"
    sizes = [(4096, 32000), (4096, 128256)]
    checks = [(37, 20001), (5, 40000)]  # ragged; BLOCK 32768, the one instantiated, at both
    in_place = True
    WARPS = 32

    def __init__(self, lib):
        self.fn = lib.get("cross_entropy").tilec_cross_entropy_bf16
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, v = size
        return f"{m}x{v}"

    def block(self, v):
        return min(32768, next_pow2(v))

    def nbytes(self, size):
        m, v = size
        return 3 * 2 * m * v + 8 * m + 4 * m  # logits read twice, gradient written; targets; losses

    def make(self, size, gen):
        m, v = size
        return {"x": (2 * torch.randn(m, v, device="cuda", generator=gen)).to(torch.bfloat16),
                "y": torch.randint(0, v, (m,), device="cuda", generator=gen),
                "loss": torch.empty(m, device="cuda"), "m": m, "v": v}

    def outputs(self, s):
        return [s["loss"], s["x"]]

    def reference(self, s):
        x = s["x"].double()
        m = s["m"]
        loss = (torch.logsumexp(x, dim=1) - x.gather(1, s["y"][:, None]).squeeze(1)) / m
        grad = torch.softmax(x, dim=1)
        grad[torch.arange(m, device="cuda"), s["y"]] -= 1.0
        return [loss, grad / m], [1e-4, 8e-3]

    def tilec(self, s):
        if self.block(s["v"]) != 32768:
            raise RuntimeError("cross_entropy: bench/kernels.txt instantiates BLOCK 32768 only")
        check_rc(self.fn(stream(), 32768, ptr(s["x"]), ctypes.c_int64(s["x"].stride(0)), ptr(s["y"]),
                         ptr(s["loss"]), s["m"], s["v"]), self.name)
        return [s["loss"], s["x"]]

    def triton(self, s):
        x = s["x"]
        tk.cross_entropy_fwd[(s["m"],)](x, x.stride(0), s["y"], s["loss"], s["m"], s["v"],
                                        BLOCK=self.block(s["v"]), num_warps=self.WARPS)
        return [s["loss"], x]

    def torch(self, s):
        x = s["x"].float()
        m = s["m"]
        loss = (torch.logsumexp(x, dim=1) - x.gather(1, s["y"][:, None]).squeeze(1)) / m
        grad = torch.softmax(x, dim=1)
        grad[torch.arange(m, device="cuda"), s["y"]] -= 1.0
        s["loss"].copy_(loss)
        s["x"].copy_(grad / m)
        return [s["loss"], s["x"]]


def layer_norm_meta(n_cols):
    block = max(512, next_pow2(n_cols))  # the smallest block bench/kernels.txt generates
    return block, min(max(block // 256, 1), 8)


class LayerNorm:
    name = "layer_norm"
    title = "layer norm forward, fp16 in/out, fp32 statistics, M = 4096"
    axis = "N"
    sizes = [(4096, n) for n in (512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384)]
    checks = [(1001, 1000), (37, 13000), (300, 3)]
    EPS = 1e-5

    def __init__(self, lib):
        self.fn = lib.get("layer_norm").tilec_layer_norm
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return str(n) if m == 4096 else f"{m}x{n}"

    def nbytes(self, size):
        m, n = size
        return 2 * (2 * m * n) + 2 * (2 * n) + 8 * m  # x, y; w, b; mean, rstd

    def make(self, size, gen):
        m, n = size
        h = torch.float16
        return {"x": torch.randn(m, n, device="cuda", generator=gen).to(h),
                "w": torch.rand(n, device="cuda", generator=gen).to(h) + 0.5,
                "b": torch.randn(n, device="cuda", generator=gen).to(h),
                "y": torch.empty(m, n, device="cuda", dtype=h),
                "mean": torch.empty(m, device="cuda"), "rstd": torch.empty(m, device="cuda"),
                "m": m, "n": n}

    def outputs(self, s):
        return [s["y"], s["mean"], s["rstd"]]

    def reference(self, s):
        x = s["x"].double()
        mean = x.mean(dim=-1)
        var = ((x - mean[:, None]) ** 2).mean(dim=-1)
        rstd = 1.0 / torch.sqrt(var + self.EPS)
        y = (x - mean[:, None]) * rstd[:, None] * s["w"].double() + s["b"].double()
        return [y, mean, rstd], [1e-3, 1e-5, 1e-5]

    def tilec(self, s):
        block, warps = layer_norm_meta(s["n"])
        check_rc(self.fn(stream(), block, warps, ptr(s["x"]), ptr(s["y"]), ptr(s["w"]),
                         ptr(s["b"]), ptr(s["mean"]), ptr(s["rstd"]), s["n"], s["m"], s["n"],
                         ctypes.c_float(self.EPS)), self.name)
        return [s["y"], s["mean"], s["rstd"]]

    def triton(self, s):
        block, warps = layer_norm_meta(s["n"])
        tk.layer_norm_fwd[(s["m"],)](s["x"], s["y"], s["w"], s["b"], s["mean"], s["rstd"],
                                     s["x"].stride(0), s["m"], s["n"], self.EPS, BLOCK=block,
                                     num_warps=warps)
        return [s["y"], s["mean"], s["rstd"]]

    def torch(self, s):
        y, mean, rstd = torch.native_layer_norm(s["x"], (s["n"],), s["w"], s["b"], self.EPS)
        return [y, mean.view(-1), rstd.view(-1)]


class LayerNormWide(LayerNorm):
    """Rows wider than a block (issue 17, item 4): examples/layer_norm looping in 4096-wide chunks on
    8 warps, each chunk loaded while the one before is computed (NUM_STAGES = 2), beside Triton's
    tutorial kernel at the same BLOCK and warps (its loop pipelined by Triton's default num_stages)."""
    name = "layer_norm_wide"
    title = "layer norm forward over rows wider than a block (looped, 4096-wide chunks), fp16"
    sizes = [((1 << 25) // n, n) for n in (16384, 32768, 65536, 131072, 262144)]
    checks = [(3, 100003), (7, 5000)]
    BLOCK, WARPS = 4096, 8

    def __init__(self, lib):
        self.fn = lib.get("layer_norm").tilec_layer_norm_looped
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return f"{m}x{n}"

    def tilec(self, s):
        check_rc(self.fn(stream(), ptr(s["x"]), ptr(s["y"]), ptr(s["w"]), ptr(s["b"]), ptr(s["mean"]),
                         ptr(s["rstd"]), s["n"], s["m"], s["n"], ctypes.c_float(self.EPS)), self.name)
        return [s["y"], s["mean"], s["rstd"]]

    def triton(self, s):
        tk.layer_norm_fwd[(s["m"],)](s["x"], s["y"], s["w"], s["b"], s["mean"], s["rstd"],
                                     s["x"].stride(0), s["m"], s["n"], self.EPS, BLOCK=self.BLOCK,
                                     num_warps=self.WARPS)
        return [s["y"], s["mean"], s["rstd"]]


class SwiGLU:
    name = "swiglu"
    title = "SwiGLU silu(a) * b, fp16 in/out, fp32 math"
    axis = "n"
    sizes = [2**k for k in range(12, 29)]
    checks = [1000003, 2**20 + 5]
    BLOCK = 2048

    def __init__(self, lib):
        self.fn = lib.get("swiglu").tilec_swiglu
        self.fn.restype = ctypes.c_int

    label = VectorAdd.label

    def nbytes(self, n):
        return 6 * n

    def make(self, n, gen):
        h = torch.float16
        return {"a": (2 * torch.randn(n, device="cuda", generator=gen)).to(h),
                "b": torch.randn(n, device="cuda", generator=gen).to(h),
                "out": torch.empty(n, device="cuda", dtype=h), "n": n}

    def outputs(self, s):
        return [s["out"]]

    def reference(self, s):
        a = s["a"].double()
        return [a * torch.sigmoid(a) * s["b"].double()], [1e-3]

    def tilec(self, s):
        check_rc(self.fn(stream(), ptr(s["a"]), ptr(s["b"]), ptr(s["out"]), s["n"]), self.name)
        return [s["out"]]

    def triton(self, s):
        n = s["n"]
        tk.swiglu_kernel[(triton.cdiv(n, self.BLOCK),)](s["a"], s["b"], s["out"], n,
                                                        BLOCK=self.BLOCK, num_warps=4)
        return [s["out"]]

    def torch(self, s):  # eager: two kernels, as a PyTorch user writes it
        return [F.silu(s["a"]) * s["b"]]


class Transpose:
    name = "transpose"
    title = "2-D transpose, fp32, M x N (the 2-D example)"
    axis = "M = N"
    sizes = [(n, n) for n in (512, 1024, 2048, 4096, 8192, 16384)]
    checks = [(1000, 3001), (4097, 63)]
    BM = BN = 64

    def __init__(self, lib):
        self.fn = lib.get("transpose").tilec_transpose
        self.fn.restype = ctypes.c_int

    def label(self, size):
        m, n = size
        return str(n) if m == n else f"{m}x{n}"

    def nbytes(self, size):
        m, n = size
        return 8 * m * n

    def make(self, size, gen):
        m, n = size
        return {"x": torch.randn(m, n, device="cuda", generator=gen),
                "out": torch.empty(n, m, device="cuda"), "m": m, "n": n}

    def outputs(self, s):
        return [s["out"]]

    def reference(self, s):
        return [s["x"].double().t()], [0.0]

    def tilec(self, s):
        m, n = s["m"], s["n"]
        check_rc(self.fn(stream(), ptr(s["x"]), ptr(s["out"]), m, n, n, m), self.name)
        return [s["out"]]

    def triton(self, s):
        m, n = s["m"], s["n"]
        grid = (triton.cdiv(m, self.BM), triton.cdiv(n, self.BN))
        tk.transpose_kernel[grid](s["x"], s["out"], m, n, n, m, BM=self.BM, BN=self.BN,
                                  num_warps=4)
        return [s["out"]]

    def torch(self, s):
        return [s["out"].copy_(s["x"].t())]


PROVIDERS = ["tilec", "triton", "torch"]


class Copy:
    """A device-to-device copy (cudaMemcpyAsync through PyTorch) of `nbytes`, counted read + write."""

    def make(self, nbytes, gen):
        half = max(nbytes // 2, 16)
        src = torch.randint(0, 256, (half,), device="cuda", dtype=torch.uint8, generator=gen)
        return {"src": src, "dst": torch.empty_like(src)}

    def run(self, s):
        s["dst"].copy_(s["src"])
        return [s["dst"]]


# ---------------------------------------------------------------------------------------------
# Timing


def poison(tensors):
    for t in tensors:
        if t.is_floating_point():
            t.fill_(float("nan"))
        else:
            t.fill_(0x5A)


def check(outs, refs, tols, what):
    errs = []
    for i, (o, r, tol) in enumerate(zip(outs, refs, tols)):
        o = o.reshape(r.shape)
        if torch.isnan(o).any().item():
            raise RuntimeError(f"{what}: output {i} has unwritten (NaN) elements")
        e = rel_err(o, r)
        if not e <= tol:
            raise RuntimeError(f"{what}: output {i} error {e:.3g} > tolerance {tol:g}")
        errs.append(e)
    return max(errs)


class Timer:
    def __init__(self, l2_bytes, target_ms):
        self.rotate_bytes = 4 * l2_bytes
        self.target_ms = target_ms

    def num_sets(self, set_bytes):
        return max(2, min(2048, math.ceil(self.rotate_bytes / max(set_bytes, 1))))

    def eager_time(self, fn, sets):
        """Median over repetitions of (time of fn over all sets, issued eagerly) / len(sets), in ms."""
        for s in sets:
            fn(s)
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for s in sets:
            fn(s)
        end.record()
        end.synchronize()
        once = max(start.elapsed_time(end), 1e-3)
        reps = max(10, min(500, int(self.target_ms / once)))
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(reps)]
        for a, b in events:
            a.record()
            for s in sets:
                fn(s)
            b.record()
        torch.cuda.synchronize()
        return statistics.median(a.elapsed_time(b) / len(sets) for a, b in events)

    def graph_time(self, fn, sets):
        """Median over replays of a graph that launches fn once per set, per launch (ms), and the
        outputs of the last launch in the graph."""
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up outside the graph (compiles, creates handles)
            fn(sets[0])
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            outs = [fn(s) for s in sets]
        graph.replay()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        once = max(start.elapsed_time(end), 1e-3)
        reps = max(10, min(500, int(self.target_ms / once)))
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(reps)]
        for a, b in events:
            a.record()
            graph.replay()
            b.record()
        torch.cuda.synchronize()
        per_launch = [a.elapsed_time(b) / len(sets) for a, b in events]
        return statistics.median(per_launch), graph, outs[-1]


def copy_time(timer, copy, sets):
    """A copy's time per launch: the better of a graph of copies and the same copies issued eagerly
    (the two can take different paths: graph memcpy nodes ran at 2.7 TB/s for 1 GiB on an H200,
    eager ones faster)."""
    ms_graph, graph, _ = timer.graph_time(copy.run, sets)
    del graph
    return min(ms_graph, timer.eager_time(copy.run, sets))


def snapshot(s):
    """The tensors of an input set, copied (for workloads that overwrite their inputs)."""
    return {k: v.clone() for k, v in s.items() if torch.is_tensor(v)}


def prepare(wl, s, saved):
    """Before a checked run: outputs poisoned, so that an element a provider fails to write is
    caught; a workload computing in place (`in_place = True`: its outputs are its inputs) instead
    gets its inputs back from `saved`, and an element it fails to write keeps the input's value,
    which the reference does not hold."""
    if getattr(wl, "in_place", False):
        for k, v in saved.items():
            s[k].copy_(v)
    else:
        poison(wl.outputs(s))


def measure_size(wl, size, timer, gen, copy):
    """Checks every provider at `size`, then times them; returns the row for the results."""
    nbytes = wl.nbytes(size)
    base = wl.make(size, gen)
    refs, tols = wl.reference(base)
    saved = snapshot(base) if getattr(wl, "in_place", False) else {}
    row = {"size": size if isinstance(size, int) else list(size), "label": wl.label(size),
           "bytes": nbytes, "err": {}, "ms": {}, "spread": {}}
    for p in PROVIDERS:
        prepare(wl, base, saved)
        outs = getattr(wl, p)(base)
        torch.cuda.synchronize()
        row["err"][p] = check(outs, refs, tols, f"{wl.name} {wl.label(size)} {p}")
    set_bytes = sum(t.numel() * t.element_size() for t in base.values() if torch.is_tensor(t))
    del base, saved
    n_sets = timer.num_sets(set_bytes)
    sets = [wl.make(size, gen) for _ in range(n_sets)]
    last_refs, _ = wl.reference(sets[-1])
    # In place, every replay overwrites the inputs again: the last set is restored before the
    # checking replay, so that its outputs come from one application to the inputs last_refs saw.
    last_saved = snapshot(sets[-1]) if getattr(wl, "in_place", False) else {}
    runs = {p: [] for p in PROVIDERS + ["copy"]}
    copy_sets = [copy.make(nbytes, gen) for _ in range(timer.num_sets(nbytes))]
    for _ in range(2):  # two passes, providers alternating
        for p in PROVIDERS:
            ms, graph, outs = timer.graph_time(getattr(wl, p), sets)
            if getattr(wl, "in_place", False):
                prepare(wl, sets[-1], last_saved)
            else:
                poison(outs)
            graph.replay()  # the timed graph itself must have written the outputs
            torch.cuda.synchronize()
            check(outs, last_refs, tols, f"{wl.name} {wl.label(size)} {p} (timed graph)")
            del graph
            runs[p].append(ms)
        runs["copy"].append(copy_time(timer, copy, copy_sets))
    for p, v in runs.items():
        row["ms"][p] = statistics.median(v)
        row["spread"][p] = abs(v[0] - v[1]) / min(v)
    row["sets"] = n_sets
    del sets, copy_sets, last_saved
    torch.cuda.empty_cache()
    return row


def check_only(wl, size, gen):
    s = wl.make(size, gen)
    refs, tols = wl.reference(s)
    saved = snapshot(s) if getattr(wl, "in_place", False) else {}
    errs = {}
    for p in PROVIDERS:
        prepare(wl, s, saved)
        outs = getattr(wl, p)(s)
        torch.cuda.synchronize()
        errs[p] = check(outs, refs, tols, f"{wl.name} {wl.label(size)} {p} (check)")
    return {"size": size if isinstance(size, int) else list(size), "label": wl.label(size),
            "err": errs}


# ---------------------------------------------------------------------------------------------
# Launch cost and compile time


def launch_cost(lib, batches=50, batch=100):
    """Host microseconds per launch of a one-block vector add (n = 1024), median of batches."""
    n = 1024
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty(n, device="cuda")
    va = lib.get("vector_add")
    va.tilec_launch_cost_us.restype = ctypes.c_double
    va.tilec_vector_add.restype = ctypes.c_int
    res = {}
    us = va.tilec_launch_cost_us(stream(), ptr(x), ptr(y), ptr(out), n, batches, batch)
    if us < 0:
        raise RuntimeError(f"launch-cost loop failed with CUDA error {-us:g}")
    res["tilec launcher, from C++"] = us

    def py_loop(launch):
        launch()  # warm (and compile)
        per = []
        for _ in range(batches):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(batch):
                launch()
            per.append((time.perf_counter() - t0) / batch * 1e6)
        torch.cuda.synchronize()
        return statistics.median(per)

    s = stream()
    px, py_, po = ptr(x), ptr(y), ptr(out)
    res["tilec launcher, from Python (ctypes)"] = py_loop(
        lambda: va.tilec_vector_add(s, px, py_, po, n))
    res["Triton, from Python"] = py_loop(
        lambda: tk.add_kernel[(1,)](x, y, out, n, BLOCK=1024, num_warps=4))
    res["PyTorch torch.add(out=), from Python"] = py_loop(lambda: torch.add(x, y, out=out))
    return res


def triton_compile_times(lib):
    """Seconds from the first call of each Triton kernel (empty cache) to its completion, minus a warm
    call: Triton's JIT compile of the example's configuration."""
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    cases = [
        (VectorAdd(lib), 4096, lambda wl, s: wl.triton(s)),
        (Softmax(lib), (64, 1000), lambda wl, s: tk.softmax_kernel[(s["m"],)](
            s["out"], s["x"], s["x"].stride(0), s["out"].stride(0), s["m"], s["n"], BLOCK=1024,
            num_warps=4)),
        (LayerNorm(lib), (64, 1000), lambda wl, s: tk.layer_norm_fwd[(s["m"],)](
            s["x"], s["y"], s["w"], s["b"], s["mean"], s["rstd"], s["x"].stride(0), s["m"],
            s["n"], wl.EPS, BLOCK=1024, num_warps=8)),
        (SwiGLU(lib), 4096, lambda wl, s: wl.triton(s)),
        (Transpose(lib), (100, 100), lambda wl, s: wl.triton(s)),
    ]
    res = {}
    # The first Triton kernel of a process also pays for Triton's one-time setup (its launcher stub
    # is compiled with the host compiler): a throwaway kernel takes that, reported on its own.
    x = torch.randn(1024, device="cuda")
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    tk.warmup_kernel[(1,)](x, 1024, BLOCK=1024)  # a kernel of its own: no example's setup
    torch.cuda.synchronize()
    res["(first Triton kernel of the process, one-time setup included)"] = time.perf_counter() - t0
    for wl, size, launch in cases:
        s = wl.make(size, gen)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch(wl, s)
        torch.cuda.synchronize()
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        launch(wl, s)
        torch.cuda.synchronize()
        warm = time.perf_counter() - t0
        res[wl.name] = cold - warm
    return res


# ---------------------------------------------------------------------------------------------
# Output


def env_info(args):
    props = torch.cuda.get_device_properties(0)
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        driver = "unknown"
    return {"date": datetime.date.today().isoformat(), "gpu": props.name,
            "sms": props.multi_processor_count, "l2_mb": props.L2_cache_size / 2**20,
            "driver": driver, "torch": torch.__version__, "triton": triton.__version__,
            "cuda_torch": torch.version.cuda, "nvcc": args.nvcc_version}


WORKLOADS = [VectorAdd, Softmax, SoftmaxF16, SoftmaxWide, LayerNorm, LayerNormWide, RMSNorm, RMSNormBF16, AddRMSNorm, CrossEntropy,
             SwiGLU, Transpose]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib-dir", required=True, help="where run.sh built libtilec_<name>.so")
    ap.add_argument("--out", required=True, help="folder for results.json, table.md, plots")
    ap.add_argument("--only", nargs="*", help="workload names (default: all)")
    ap.add_argument("--quick", action="store_true", help="every third size, shorter timing")
    ap.add_argument("--nvcc-version", default="unknown")
    ap.add_argument("--nvcc-times", help="JSON {example: seconds} from run.sh")
    ap.add_argument("--translate-times", help="JSON from bench/translate-time.sh")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lib = Lib(args.lib_dir)
    torch.backends.cuda.matmul.allow_tf32 = False

    results = {"env": env_info(args), "target_min_bytes": 16 * MB, "workloads": []}
    # First, before anything else compiles them: Triton's cold compile times.
    results["triton_compile_s"] = triton_compile_times(lib)
    if args.nvcc_times:
        with open(args.nvcc_times) as f:
            results["nvcc_s"] = json.load(f)
    if args.translate_times:
        with open(args.translate_times) as f:
            tt = json.load(f)
        results["translate_s"] = tt["seconds"]
        results["translate_machine"] = tt["machine"]

    props = torch.cuda.get_device_properties(0)
    timer = Timer(props.L2_cache_size, target_ms=10 if args.quick else 40)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(20261121)
    copy = Copy()
    ceil_sets = [copy.make(2 * 2**30, gen) for _ in range(2)]
    ceil_ms = copy_time(timer, copy, ceil_sets)
    del ceil_sets
    results["ceiling_gbps"] = 2 * 2**30 / (ceil_ms * 1e-3) / GB
    print(f"copy ceiling: {results['ceiling_gbps']:.0f} GB/s", flush=True)
    torch.cuda.empty_cache()

    for cls in WORKLOADS:
        if args.only and cls.name not in args.only:
            continue
        wl = cls(lib)
        sizes = wl.sizes[::3] if args.quick else wl.sizes
        entry = {"name": wl.name, "title": wl.title, "axis": wl.axis, "rows": [], "checks": []}
        for size in wl.checks:
            entry["checks"].append(check_only(wl, size, gen))
        for size in sizes:
            row = measure_size(wl, size, timer, gen, copy)
            entry["rows"].append(row)
            print(f"{wl.name:10} {row['label']:>7} " + "  ".join(
                f"{p} {gbps(row, p):6.0f}" for p in PROVIDERS + ["copy"]) +
                f"  tilec/triton {row['ms']['triton'] / row['ms']['tilec']:.2f}", flush=True)
        results["workloads"].append(entry)
        with open(os.path.join(args.out, "results.partial.json"), "w") as f:
            json.dump(results, f, indent=1)  # what a crash later would otherwise lose

    results["launch_cost_us"] = launch_cost(lib)
    table = write_outputs(results, args.out)
    os.remove(os.path.join(args.out, "results.partial.json"))
    print()
    print(table)


if __name__ == "__main__":
    main()

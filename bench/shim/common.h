// Shared by the benchmark's shims: each shim includes one generated file (bench/gen/<name>.cu) and
// exports C functions that bench.py calls through ctypes. They call tilec's generated host launchers,
// as a user's host code would, on the stream the caller passes (PyTorch's current stream, which is the
// capture stream while bench.py records a CUDA graph).
#pragma once
#include <cuda_runtime.h>

#define TILEC_BENCH_EXPORT extern "C" __attribute__((visibility("default")))

// Returns the launch's cudaError_t; -1 when the requested meta-parameters were not generated.
#define TILEC_BENCH_NOT_GENERATED (-1)

inline cudaStream_t bench_stream(void *stream) { return static_cast<cudaStream_t>(stream); }

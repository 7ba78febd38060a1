#pragma once
/// \file The differences between the CUDA and HIP output: spellings only. Everything else (the
/// kernel body, layouts, reductions, launchers) is printed by the shared emitter; the device-side
/// differences (shuffles, warp size, 16-bit float conversions) live in the runtime headers.

#include "ir/Target.h"

namespace tilec::emitters {

struct TargetHooks {
  const char *runtimeInclude;  ///< the device helper header the kernel file includes
  const char *hostIncludes;    ///< what the launcher declarations need (newline-separated)
  const char *errorType;       ///< cudaError_t / hipError_t
  const char *streamType;      ///< cudaStream_t / hipStream_t
  const char *success;         ///< cudaSuccess / hipSuccess
  const char *getLastError;    ///< cudaGetLastError / hipGetLastError
  const char *bf16Type;        ///< __nv_bfloat16 / hip_bfloat16
};

inline const TargetHooks &targetHooks(ir::TargetKind k) {
  static const TargetHooks cuda{"tilec/cuda/runtime.cuh",
                                "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include <cuda_runtime.h>",
                                "cudaError_t", "cudaStream_t", "cudaSuccess", "cudaGetLastError",
                                "__nv_bfloat16"};
  static const TargetHooks hip{"tilec/hip/runtime.hpp",
                               "#include <hip/hip_bfloat16.h>\n#include <hip/hip_fp16.h>\n#include <hip/hip_runtime.h>",
                               "hipError_t", "hipStream_t", "hipSuccess", "hipGetLastError",
                               "hip_bfloat16"};
  return k == ir::TargetKind::Cuda ? cuda : hip;
}

} // namespace tilec::emitters

#pragma once
/// \file The target a module is compiled for.

#include <string>

namespace tilec::ir {

enum class TargetKind { Cuda, Hip };

struct Target {
  TargetKind kind = TargetKind::Cuda;
  std::string arch = "sm_90a"; ///< sm_80, sm_90a, gfx90a, ...
  int warpSize() const { return kind == TargetKind::Cuda ? 32 : 64; }
  const char *name() const { return kind == TargetKind::Cuda ? "cuda" : "hip"; }
  /// The compute capability of a CUDA architecture (`sm_90a` -> 90); 0 for any other target.
  int smVersion() const {
    if (kind != TargetKind::Cuda || arch.rfind("sm_", 0) != 0)
      return 0;
    int v = 0;
    for (size_t i = 3; i < arch.size() && arch[i] >= '0' && arch[i] <= '9'; ++i)
      v = v * 10 + (arch[i] - '0');
    return v;
  }
  /// Whether the target has Hopper's warpgroup matrix instructions (wgmma), which only the
  /// architecture-specific sm_90a has.
  bool hasWgmma() const { return kind == TargetKind::Cuda && arch == "sm_90a"; }
  /// Whether the target has the MFMA matrix instructions tilec emits (their bf16 forms `_1k`
  /// included): CDNA2 (gfx90a) and CDNA3 (gfx94x).
  bool hasMfma() const {
    return kind == TargetKind::Hip && (arch.rfind("gfx90a", 0) == 0 || arch.rfind("gfx94", 0) == 0);
  }
};

} // namespace tilec::ir

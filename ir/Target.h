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
};

} // namespace tilec::ir

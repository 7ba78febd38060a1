#pragma once
/// \file Prints a Module that went through the whole pass pipeline as CUDA C++ or HIP C++.
///
/// One shared C++-like printer; the target differences (includes, intrinsics' spelling, launch API,
/// error type) are a small hook interface (emitters/TargetHooks.h).

#include "ir/IR.h"
#include "ir/Target.h"

#include <string>

namespace tilec::emitters {

struct EmitOptions {
  ir::Target target;
  bool provenance = true;      ///< `// file:line: source` comments before each statement
  bool lineDirectives = false; ///< `#line` directives mapping back to the kernel source
  std::string toolVersion;     ///< printed in the header comment (compared bytes: no paths, no dates)
  /// `--namespace`: everything the output declares goes into this namespace (`a` or `a::b`); the
  /// driver has checked it (validOutputNamespace).
  std::string outputNamespace;
};

/// Why `ns` cannot be the output's namespace (not `a` or `a::b` of plain identifiers, or a name the
/// output needs for itself); empty when it can.
std::string invalidOutputNamespace(const std::string &ns);

/// The whole output file: header comment, includes, per instantiation the tunables, the kernel and
/// its host launcher. Deterministic: same module, same bytes.
std::string emitModule(const ir::Module &m, const EmitOptions &opts);

/// The launcher declarations only (a header that host code can include).
std::string emitLauncherDeclarations(const ir::Module &m, const EmitOptions &opts);

} // namespace tilec::emitters

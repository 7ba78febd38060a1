#pragma once
/// \file The translator's options, as a plain struct (tools/tilec/main.cpp fills it from the command
/// line; nothing else reads the command line or the environment).

#include <string>
#include <vector>

namespace tilec {

enum class EmitKind { Ir, Cuda, Hip };

struct Options {
  std::vector<std::string> inputs;
  std::string output;                 ///< -o; empty: <input stem>.cu / .hip / .tir next to cwd
  EmitKind emit = EmitKind::Cuda;     ///< --emit; --target=hip implies Hip
  std::string arch;                   ///< --arch; empty: sm_90a for CUDA, gfx90a for HIP
  std::vector<std::string> instantiate; ///< --instantiate 'kernel<args>'
  std::vector<std::string> printAfter;  ///< --print-after
  std::string stopAfter;                ///< --stop-after
  bool provenance = true;             ///< `// file:line: source` comments
  bool lineDirectives = false;        ///< #line directives (opt-in)
  std::vector<std::string> clangArgs; ///< after `--`
  std::vector<std::string> includeDirs; ///< where <tilec/tl.hpp> lives (added by main from the install)
};

/// Run tilec on the options; returns the process exit code. Diagnostics go to `err`.
int runTilec(const Options &opts, std::ostream &out, std::ostream &err);

} // namespace tilec

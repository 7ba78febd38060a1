#pragma once
/// \file The translator's options, as a plain struct (tools/tilec/main.cpp fills it from the command
/// line; nothing else reads the command line or the environment).

#include "ir/Target.h"

#include <ostream>
#include <string>
#include <vector>

namespace tilec {

enum class EmitKind { Ir, Cuda, Hip };

struct Options {
  std::vector<std::string> inputs;
  std::string output;                 ///< -o; empty: <input stem>.cu / .hip / .tir in the cwd; "-": stdout
  std::string header;                 ///< --header: also write the launcher declarations here
  std::string depfile;                ///< --depfile: also write a Make-syntax dependency file here
  EmitKind emit = EmitKind::Cuda;     ///< --emit; --target=hip implies Hip
  ir::TargetKind target = ir::TargetKind::Cuda; ///< --target
  std::string arch;                   ///< --arch; empty: sm_90a for CUDA, gfx90a for HIP
  std::string outputNamespace;        ///< --namespace: the output's declarations go into it
  std::vector<std::string> instantiate; ///< --instantiate 'kernel<args>'
  std::vector<std::string> printAfter;  ///< --print-after (pass names or "all"); IR goes to `err`
  std::string stopAfter;                ///< --stop-after
  bool listPasses = false;            ///< --list-passes: print the pipeline and exit
  bool provenance = true;             ///< `// file:line: source` comments
  bool lineDirectives = false;        ///< #line directives (opt-in)
  bool alignedVariants = true;        ///< --no-aligned-variants turns them off (driver/AlignedVariants.h)
  std::vector<std::string> clangArgs; ///< after `--`
  std::vector<std::string> includeDirs; ///< where <tilec/tl.hpp> lives (added by main from the install)
  std::string pchDir; ///< --pch-dir: keep a precompiled <tilec/tl.hpp> here and translate with it
};

/// Exit codes of runTilec (and of the tilec command).
enum ExitCode : int {
  ExitSuccess = 0,
  ExitUserError = 1,    ///< an error in the kernel source, or an output that cannot be written
  ExitUsage = 2,        ///< a bad command line
  ExitInternalError = 3 ///< a compiler bug (a broken invariant)
};

/// Run tilec on the options; returns the process exit code. Diagnostics go to `err`; `out` receives
/// --list-passes and `-o -` output.
int runTilec(const Options &opts, std::ostream &out, std::ostream &err);

} // namespace tilec

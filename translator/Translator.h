#pragma once
/// \file Clang LibTooling front end: finds TILEC_KERNEL functions in a C++ source file, and lowers each
/// requested instantiation of them to Tile IR. The only part of tilec that includes Clang headers.

#include "ir/IR.h"

#include <ostream>
#include <string>
#include <vector>

namespace tilec::translator {

struct TranslateOptions {
  /// Extra instantiations to emit, spelled `kernel<args>` (as from --instantiate).
  std::vector<std::string> instantiate;
  /// Include directories holding <tilec/tl.hpp>.
  std::vector<std::string> includeDirs;
  /// Extra arguments for Clang (after `--` on the command line).
  std::vector<std::string> clangArgs;
};

/// Parse `path` and append one ir::Kernel per kernel instantiation (explicit instantiations in the
/// source, then those in opts.instantiate, in source order) to `module`, and the source file(s) to
/// `module.files`. Diagnostics are printed to `err` clang-style. Returns false if any error was
/// reported (the module may then be partial and must not be emitted).
///
/// With `dependencies`, also appends the files Clang read: the source, then every header it
/// included (system headers too), each once, spelled as Clang found them (for a depfile).
bool translateFile(const std::string &path, const TranslateOptions &opts, ir::Module &module,
                   std::ostream &err, std::vector<std::string> *dependencies = nullptr);

/// Same, for in-memory source (unit tests). `fileName` is used in diagnostics.
bool translateCode(const std::string &code, const std::string &fileName,
                   const TranslateOptions &opts, ir::Module &module, std::ostream &err,
                   std::vector<std::string> *dependencies = nullptr);

} // namespace tilec::translator

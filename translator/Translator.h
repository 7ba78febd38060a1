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
  /// A precompiled header of <tilec/tl.hpp> alone (writePrecompiledTl), included before the source:
  /// for callers that translate many small sources in one process (the fuzz target), where parsing
  /// the header and the C++ library it includes would dominate. Empty: none.
  std::string precompiledHeader;
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

/// Writes a precompiled header of <tilec/tl.hpp> (found through opts.includeDirs) to `path`, for
/// TranslateOptions::precompiledHeader, with the Clang that tilec links (a precompiled header is
/// only read by the Clang that wrote it). Also writes `path`.hpp, the one-line header it was built
/// from (Clang checks that it still exists when reading). Returns false, with Clang's errors on
/// `err`, on failure.
bool writePrecompiledTl(const std::string &path, const TranslateOptions &opts, std::ostream &err);

} // namespace tilec::translator

#pragma once
/// \file The driver's stages after translation, for callers that translate on their own (the fuzz
/// target, tests/fuzz): the same code path as runTilec from the translated module to the text of
/// the outputs.

#include "driver/Options.h"
#include "ir/IR.h"

#include <ostream>
#include <string>

namespace tilec {

/// The outputs' text, before anything is written.
struct Compiled {
  std::string text;   ///< CUDA or HIP source, or the Tile IR (Options::emit)
  std::string header; ///< the launcher declarations, when Options::header is set
};

/// What runTilec does between translation and writing the files, on `module` as the translator left
/// it: refuses two instantiations with one instance name, runs the pass pipeline for opts.target
/// and opts.arch (opts.stopAfter, opts.printAfter: that IR goes to `err`), then prints the module
/// as opts.emit says. Returns ExitSuccess, ExitUserError (diagnostics on `err`) or
/// ExitInternalError (a message on `err`). A broken invariant throws std::logic_error (runTilec
/// reports it as an internal error).
int compileModule(ir::Module &module, const Options &opts, Compiled &out, std::ostream &err);

} // namespace tilec

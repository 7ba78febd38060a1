#pragma once
/// \file One kernel source through tilec's whole pipeline for both targets: the code path of the
/// fuzz target (FuzzTarget.cpp), kept apart so that a unit test (FuzzPipelineTest.cpp) proves it
/// gives the goldens, byte for byte.

#include "translator/Translator.h"

#include <ostream>
#include <string>

namespace tilec::fuzz {

enum class Outcome {
  Compiled,  ///< CUDA and HIP written to the result
  UserError, ///< a diagnostic, as tilec's exit status 1 (for either target or both)
  Internal,  ///< a compiler bug: tilec would exit with ExitInternalError; the reason is on `err`
};

struct Result {
  Outcome outcome = Outcome::UserError;
  std::string ir;                ///< the translated module, printed before the passes
  std::string cuda, cudaHeader;  ///< --target=cuda output and launcher declarations
  std::string hip, hipHeader;    ///< --target=hip
};

/// Translates `code` once (as translator::translateFile would the file `fileName`), then runs
/// driver's compileModule for CUDA on the module and for HIP on a clone of it (ir::clone: passes
/// change variables in place), with tilec's default options. Also checks what tilec only assumes:
/// the translated module verifies (ir::verify), and a user error comes with an error message.
/// A broken invariant inside the pipeline throws, as in tilec.
Result compileBoth(const std::string &code, const std::string &fileName,
                   const translator::TranslateOptions &topts, std::ostream &err);

} // namespace tilec::fuzz

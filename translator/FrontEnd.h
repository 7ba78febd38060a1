#pragma once
/// \file Internal to translator/: the state shared by kernel discovery (Translator.cpp), lowering
/// (Lowering.cpp and the Lowering*.cpp files beside it, see Lowering.h) and settings parsing
/// (Settings.cpp). FrontEndContext is implemented in FrontEndContext.cpp.

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tilec::translator {

/// Thrown after a user error has been reported: lowering of the current kernel stops there.
struct LoweringStopped : std::exception {};

/// How deeply statements, expressions and grid expressions may nest (as Clang's brackets: 256).
/// The lowering, the passes, the verifier and the emitter recurse once per level; past this they
/// could run out of the 8 MB stack (the sanitizer build's frames are ten times larger), and a
/// crash is no diagnostic.
inline constexpr int kMaxNesting = 256;

/// Reports tilec diagnostics through Clang's DiagnosticsEngine (caret, source line, file names as
/// Clang knows them) and maps Clang source locations to ir::SourceLoc.
class FrontEndContext {
public:
  FrontEndContext(clang::ASTContext &ctx, ir::Module &module, unsigned mainFileLines)
      : ctx(ctx), sm(ctx.getSourceManager()), module(module), mainFileLines(mainFileLines) {}

  /// Report `id` at `loc` (its expansion location), once per (id, location); returns whether it
  /// was printed.
  bool report(DiagId id, clang::SourceLocation loc, const std::vector<std::string> &args = {});
  /// Report, add the "in instantiation" note, and stop lowering the current kernel.
  /// Inside inlined calls, a note per call first, the innermost first.
  [[noreturn]] void fail(DiagId id, clang::SourceLocation loc,
                         const std::vector<std::string> &args = {}) {
    if (report(id, loc, args)) {
      for (auto call = inlinedCalls.rbegin(); call != inlinedCalls.rend(); ++call)
        if (call->first != loc) // an error at the call itself needs no note there
          report(DiagId::NoteInlinedCall, call->first, {call->second});
      if (instantiationLoc.isValid())
        report(DiagId::NoteInInstantiation, instantiationLoc, {"'" + instantiationName + "'"});
    }
    throw LoweringStopped();
  }
  /// The calls being inlined (where, and the function's name), outermost first.
  std::vector<std::pair<clang::SourceLocation, std::string>> inlinedCalls;
  /// The explicit instantiation being lowered (for NoteInInstantiation); invalid for
  /// --instantiate requests and plain functions.
  clang::SourceLocation instantiationLoc;
  std::string instantiationName;
  ir::SourceLoc irLoc(clang::SourceLocation loc);
  /// The source text of a node (first line, shortened), for messages.
  std::string text(clang::SourceRange range) const;
  /// Index of the main file in module.files (added on first use).
  int mainFileIndex();

  clang::ASTContext &ctx;
  clang::SourceManager &sm;
  ir::Module &module;

private:
  int fileIndex(clang::FileID fid);
  unsigned mainFileLines;
  std::map<clang::FileID, int> files;
  std::set<std::pair<unsigned, int>> reported;
};

/// Lower one kernel instantiation (a FunctionDecl with every template parameter substituted) to an
/// ir::Kernel. `primary` is the annotated declaration carrying the settings. Errors are reported
/// through `fe`; returns false then.
bool lowerKernel(FrontEndContext &fe, const clang::FunctionDecl *fn, const clang::FunctionDecl *primary,
                 ir::Kernel &out);

/// Parse the TILEC_KERNEL settings of `primary` into `k.settings` (k.params and k.metaParams must be
/// filled). Throws LoweringStopped after reporting BadAnnotation.
void parseSettings(FrontEndContext &fe, const clang::FunctionDecl *primary, ir::Kernel &k);

/// The annotate attribute marking a kernel ("tilec.kernel"), or null.
const clang::AnnotateAttr *kernelAttr(const clang::Decl *d);

} // namespace tilec::translator

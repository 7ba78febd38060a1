#pragma once
/// \file tilec's diagnostics: one table (Diagnostics.def), clang-style rendering.
///
/// The translator reports while Clang's AST is alive through Clang's DiagnosticsEngine using the same
/// table (so messages carry Clang's caret and include stack); passes and the driver report through
/// `DiagnosticEngine` below, which renders `file:line:col: error: message`, the source line and a
/// caret from the Module's source files.

#include "ir/IR.h"

#include <ostream>
#include <string>
#include <vector>

namespace tilec {

enum class DiagId {
#define TILEC_DIAG(Id, Severity, Format) Id,
#include "ir/Diagnostics.def"
};
enum class Severity { Note, Warning, Error };

Severity severityOf(DiagId id);
const char *formatOf(DiagId id);
/// Replace %0, %1, ... in the format of `id` with `args`.
std::string formatMessage(DiagId id, const std::vector<std::string> &args);

struct Diagnostic {
  DiagId id;
  ir::SourceLoc loc;
  std::string message;
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(std::ostream &out) : out(out) {}
  void setModule(const ir::Module *m) { module = m; }
  void report(DiagId id, ir::SourceLoc loc, const std::vector<std::string> &args = {});
  /// Report at a file/line/col given directly (the driver, before a module exists).
  void report(DiagId id, const std::string &file, int line, int col,
              const std::vector<std::string> &args = {});
  int errorCount() const { return errors; }
  bool hasErrors() const { return errors > 0; }
  const std::vector<Diagnostic> &reported() const { return all; }

private:
  void render(Severity sev, const std::string &file, int line, int col, const std::string &msg,
              const std::string *sourceLine);
  std::ostream &out;
  const ir::Module *module = nullptr;
  int errors = 0;
  std::vector<Diagnostic> all;
};

} // namespace tilec

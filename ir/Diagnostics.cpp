#include "ir/Diagnostics.h"

namespace tilec {

Severity severityOf(DiagId id) {
  switch (id) {
#define TILEC_DIAG(Id, Sev, Format)                                                                \
  case DiagId::Id:                                                                                 \
    return Severity::Sev;
#include "ir/Diagnostics.def"
  }
  return Severity::Error;
}

const char *formatOf(DiagId id) {
  switch (id) {
#define TILEC_DIAG(Id, Sev, Format)                                                                \
  case DiagId::Id:                                                                                 \
    return Format;
#include "ir/Diagnostics.def"
  }
  return "";
}

std::string formatMessage(DiagId id, const std::vector<std::string> &args) {
  std::string f = formatOf(id), r;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '%' && i + 1 < f.size() && f[i + 1] >= '0' && f[i + 1] <= '9') {
      size_t k = static_cast<size_t>(f[i + 1] - '0');
      r += k < args.size() ? args[k] : std::string("<?>");
      ++i;
    } else {
      r += f[i];
    }
  }
  return r;
}

void DiagnosticEngine::report(DiagId id, ir::SourceLoc loc, const std::vector<std::string> &args) {
  std::string msg = formatMessage(id, args);
  all.push_back({id, loc, msg});
  Severity sev = severityOf(id);
  if (sev == Severity::Error)
    ++errors;
  std::string file = "<unknown>";
  const std::string *line = nullptr;
  if (module && loc.file >= 0 && loc.file < static_cast<int>(module->files.size())) {
    auto &f = module->files[loc.file];
    if (loc.line >= 1 && loc.line <= static_cast<int>(f.lines.size()))
      line = &f.lines[loc.line - 1];
    // As Clang's diagnostics: the file and line that `#line` directives give, the physical text.
    auto [presumedFile, presumedLine] = f.presumed(loc.line);
    render(sev, presumedFile, presumedLine, loc.col, msg, line);
    return;
  }
  render(sev, file, loc.line, loc.col, msg, line);
}

void DiagnosticEngine::report(DiagId id, const std::string &file, int line, int col,
                              const std::vector<std::string> &args) {
  std::string msg = formatMessage(id, args);
  all.push_back({id, ir::SourceLoc{}, msg});
  Severity sev = severityOf(id);
  if (sev == Severity::Error)
    ++errors;
  render(sev, file, line, col, msg, nullptr);
}

void DiagnosticEngine::render(Severity sev, const std::string &file, int line, int col,
                              const std::string &msg, const std::string *sourceLine) {
  const char *label = sev == Severity::Error ? "error" : sev == Severity::Warning ? "warning" : "note";
  out << file;
  if (line > 0)
    out << ':' << line << ':' << col;
  out << ": " << label << ": " << msg << '\n';
  if (sourceLine && col > 0) {
    out << *sourceLine << '\n';
    std::string caret;
    for (int i = 1; i < col && i <= static_cast<int>(sourceLine->size()); ++i)
      caret += (*sourceLine)[i - 1] == '\t' ? '\t' : ' ';
    out << caret << "^\n";
  }
}

} // namespace tilec

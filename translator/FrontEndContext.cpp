/// FrontEndContext: tilec's diagnostics reported through Clang's DiagnosticsEngine (once per
/// diagnostic and location, so a construct met twice, e.g. in two instantiations, is reported once),
/// and Clang source locations mapped to ir::SourceLoc. Each source file is copied into
/// module.files on first use so that later stages (provenance comments, diagnostics after the AST
/// is gone) need no SourceManager.

#include "translator/FrontEnd.h"

#include <clang/Lex/Lexer.h>

namespace tilec::translator {

bool FrontEndContext::report(DiagId id, clang::SourceLocation loc,
                             const std::vector<std::string> &args) {
  clang::SourceLocation exp = loc.isValid() ? sm.getExpansionLoc(loc) : loc;
  if (!reported.insert({exp.getRawEncoding(), static_cast<int>(id)}).second &&
      severityOf(id) != Severity::Note)
    return false;
  auto &diags = ctx.getDiagnostics();
  Severity sev = severityOf(id);
  auto level = sev == Severity::Error     ? clang::DiagnosticIDs::Error
               : sev == Severity::Warning ? clang::DiagnosticIDs::Warning
                                          : clang::DiagnosticIDs::Note;
  unsigned diagId = diags.getDiagnosticIDs()->getCustomDiagID(level, formatOf(id));
  auto builder = diags.Report(exp, diagId);
  for (auto &a : args)
    builder << a;
  return true;
}

int FrontEndContext::fileIndex(clang::FileID fid) {
  auto it = files.find(fid);
  if (it != files.end())
    return it->second;
  ir::SourceFile f;
  if (auto entry = sm.getFileEntryRefForID(fid))
    f.name = entry->getName().str();
  else
    f.name = "<unknown>";
  bool invalid = false;
  llvm::StringRef data = sm.getBufferData(fid, &invalid);
  if (!invalid) {
    // Lines as Clang counts them (and GCC): a line ends at "\r\n", "\n" or a lone "\r".
    size_t start = 0;
    while (start < data.size()) {
      size_t end = data.find_first_of("\r\n", start);
      if (end == llvm::StringRef::npos) {
        f.lines.push_back(data.substr(start).str());
        break;
      }
      f.lines.push_back(data.substr(start, end - start).str());
      start = end + (data.substr(end, 2) == "\r\n" ? 2 : 1);
    }
  }
  if (fid == sm.getMainFileID() && f.lines.size() > mainFileLines)
    f.lines.resize(mainFileLines); // drop the appended --instantiate code
  // `#line` directives: where each physical line's presumed location departs from the one the
  // line before it continues.
  std::string expectFile = f.name;
  int expectLine = 1;
  for (int line = 1; line <= static_cast<int>(f.lines.size()); ++line, ++expectLine) {
    clang::PresumedLoc p = sm.getPresumedLoc(sm.translateLineCol(fid, static_cast<unsigned>(line), 1));
    if (p.isInvalid())
      break;
    if (p.getFilename() != expectFile || static_cast<int>(p.getLine()) != expectLine) {
      f.origins.push_back({line, p.getFilename(), static_cast<int>(p.getLine())});
      expectFile = p.getFilename();
      expectLine = static_cast<int>(p.getLine());
    }
  }
  int idx = static_cast<int>(module.files.size());
  module.files.push_back(std::move(f));
  files[fid] = idx;
  return idx;
}

int FrontEndContext::mainFileIndex() { return fileIndex(sm.getMainFileID()); }

ir::SourceLoc FrontEndContext::irLoc(clang::SourceLocation loc) {
  if (loc.isInvalid())
    return {};
  clang::SourceLocation exp = sm.getExpansionLoc(loc);
  clang::FileID fid = sm.getFileID(exp);
  if (fid.isInvalid())
    return {};
  ir::SourceLoc r;
  r.file = fileIndex(fid);
  r.line = static_cast<int>(sm.getExpansionLineNumber(exp));
  r.col = static_cast<int>(sm.getExpansionColumnNumber(exp));
  return r;
}

std::string FrontEndContext::text(clang::SourceRange range) const {
  clang::CharSourceRange r = clang::CharSourceRange::getTokenRange(
      sm.getExpansionRange(range.getBegin()).getBegin(), sm.getExpansionRange(range.getEnd()).getEnd());
  std::string s = clang::Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
  size_t nl = s.find('\n');
  if (nl != std::string::npos)
    s = s.substr(0, nl) + " ...";
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

} // namespace tilec::translator

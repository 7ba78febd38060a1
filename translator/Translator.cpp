// Placeholder: replaced by the Clang front end.
#include "translator/Translator.h"
namespace tilec::translator {
bool translateFile(const std::string &, const TranslateOptions &, ir::Module &, std::ostream &) {
  return false;
}
bool translateCode(const std::string &, const std::string &, const TranslateOptions &,
                   ir::Module &, std::ostream &) {
  return false;
}
} // namespace tilec::translator

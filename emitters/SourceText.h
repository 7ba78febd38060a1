#pragma once
/// \file Text from the user's files (source lines, file names) made safe to print in the output:
/// in a `//` comment, where a stray line end or a line-continuing backslash would turn the rest of
/// the comment, or the next line of code, into something else; and in the string of a `#line`
/// directive.

#include <cstdio>
#include <string>

namespace tilec::emitters {

/// `s` as text that a `//` comment holds on its one line. Control characters become spaces: a lone
/// carriage return ends a line for Clang, GCC and nvcc, and a form feed or vertical tab between a
/// backslash and the line end still splices lines. Leading and trailing blanks go, and so does
/// whatever would continue the comment onto the next line: a trailing backslash or `??/` (the
/// backslash trigraph, for compilers that still read trigraphs).
inline std::string commentText(const std::string &s) {
  std::string r;
  r.reserve(s.size());
  for (unsigned char c : s)
    r += (c < 0x20 && c != '\t') || c == 0x7F ? ' ' : static_cast<char>(c);
  for (;;) {
    size_t end = r.find_last_not_of(" \t");
    r.erase(end == std::string::npos ? 0 : end + 1);
    if (!r.empty() && r.back() == '\\')
      r.pop_back();
    else if (r.size() >= 3 && r.compare(r.size() - 3, 3, "?\?/") == 0)
      r.erase(r.size() - 3);
    else
      break;
  }
  size_t begin = r.find_first_not_of(" \t");
  return begin == std::string::npos ? "" : r.substr(begin);
}

/// `s` as the contents of a C string literal (for `#line N "file"`): backslashes and quotes
/// escaped, control characters as octal escapes, and `?` after `?` escaped so that no trigraph
/// forms.
inline std::string stringLiteralText(const std::string &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == '"' || (c == '?' && i > 0 && s[i - 1] == '?')) {
      r += '\\';
      r += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      r += buf;
    } else {
      r += static_cast<char>(c);
    }
  }
  return r;
}

} // namespace tilec::emitters

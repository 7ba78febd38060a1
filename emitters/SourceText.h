#pragma once
/// \file Text from the user's files (source lines, file names) made safe to print in the output:
/// in a `//` comment, where a stray line end or a line-continuing backslash would turn the rest of
/// the comment, or the next line of code, into something else; and in the string of a `#line`
/// directive.

#include <cstdio>
#include <string>
#include <vector>

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

/// The statement that begins on line `first` (0-based) of `lines`, on one line: the lines after it
/// join (their indentation one space, none after an opening bracket) while a parenthesis or bracket
/// it opened is still open or a line ends in an operator or a comma, at most 8 lines in all; then
/// the comments at the ends of its lines are left out. A statement on one line is that line. `auto
/// x =` followed by its expression on the next line gives the whole declaration; `for (...) {` is
/// one line.
inline std::string statementText(const std::vector<std::string> &lines, size_t first) {
  std::string text;
  int depth = 0;
  bool inComment = false; // inside /* ... */
  for (size_t n = first; n < lines.size() && n < first + 8; ++n) {
    const std::string &line = lines[n];
    std::string code; // the line without its comments, literals kept
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (inComment) {
        if (c == '*' && i + 1 < line.size() && line[i + 1] == '/')
          inComment = false, ++i;
        continue;
      }
      if (quote) {
        if (c == '\\' && i + 1 < line.size())
          code += line[i++];
        else if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
        break;
      } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
        inComment = true, ++i;
        while (!code.empty() && code.back() == ' ')
          code.pop_back(); // (the blank after the comment separates)
        continue;
      } else if (c == '(' || c == '[') {
        ++depth;
      } else if (c == ')' || c == ']') {
        --depth;
      }
      code += c;
    }
    // A location inside a statement (its brackets close before they open): that line alone.
    if (depth < 0)
      return n == first ? line : text;
    const size_t b = code.find_first_not_of(" \t"), e = code.find_last_not_of(" \t");
    if (b == std::string::npos) {
      if (n == first)
        return line; // (a blank or comment line: as it is)
      if (depth > 0)
        continue; // a comment line inside the brackets
      break;
    }
    const bool glued = text.empty() || text.back() == '(' || text.back() == '[';
    text += (glued ? "" : " ") + code.substr(b, e - b + 1);
    const char last = code[e];
    const bool operatorEnd = std::string("=,+-*/%&|^?(").find(last) != std::string::npos;
    if (depth <= 0 && !operatorEnd)
      return n == first ? line : text; // (one line: as it is, its comment included)
  }
  return text;
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

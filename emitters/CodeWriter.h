#pragma once
/// \file Indented text output with RAII scopes: `{ auto s = w.block("for (...)"); w.line("x;"); }`
/// prints the header, the body indented by two spaces and the closing brace.

#include <algorithm>
#include <string>
#include <vector>

namespace tilec::emitters {

/// Output lines stay within this many columns where the emitter can break them (clang-format's
/// LLVM style, which the project's sources use).
constexpr int kColumnLimit = 100;

/// `head` + `items` joined by ", " + `tail` (e.g. `f(` + parameters + `) {`), broken like
/// clang-format when longer than the column limit at indentation `indent`: items packed onto lines
/// aligned after `head`, or, when that column is far right, on lines indented 4 more than `indent`
/// after breaking at the end of `head`. Continuation lines carry their indentation relative to
/// `indent`. `sep` joins items in place of "," (" &&" for a condition).
inline std::vector<std::string> wrapList(const std::string &head, const std::vector<std::string> &items,
                                         const std::string &tail, int indent,
                                         const std::string &sep = ",") {
  std::string one = head;
  for (size_t i = 0; i < items.size(); ++i)
    one += (i ? sep + " " : "") + items[i];
  one += tail;
  if (indent + static_cast<int>(one.size()) <= kColumnLimit || items.empty())
    return {one};
  size_t longest = 0;
  for (const std::string &it : items)
    longest = std::max(longest, it.size());
  int alignCol = indent + static_cast<int>(head.size());
  bool aligned = alignCol <= 50 && alignCol + static_cast<int>(longest + tail.size()) + 1 <= kColumnLimit;
  std::vector<std::string> lines;
  std::string pad(aligned ? head.size() : 4, ' ');
  std::string cur = aligned ? head : pad;
  if (!aligned)
    lines.push_back(head);
  bool first = true;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string piece = items[i] + (i + 1 < items.size() ? sep : tail);
    if (!first && indent + static_cast<int>(cur.size() + 1 + piece.size()) > kColumnLimit) {
      lines.push_back(cur);
      cur = pad;
      first = true;
    }
    cur += (first ? "" : " ") + piece;
    first = false;
  }
  lines.push_back(cur);
  return lines;
}

/// `// text` broken at spaces into lines that fit the column limit at indentation `indent`.
inline std::vector<std::string> commentLines(const std::string &text, int indent) {
  std::vector<std::string> lines;
  std::string cur = "//";
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string word = text.substr(pos, end - pos);
    if (cur.size() > 2 && indent + static_cast<int>(cur.size() + 1 + word.size()) > kColumnLimit) {
      lines.push_back(cur);
      cur = "//";
    }
    cur += " " + word;
    pos = end + 1;
  }
  lines.push_back(cur);
  return lines;
}

class CodeWriter {
public:
  /// One line at the current indentation (empty text: an empty line without trailing spaces).
  void line(const std::string &text) {
    if (!text.empty())
      out_.append(static_cast<size_t>(indent_) * 2, ' ').append(text);
    out_ += '\n';
  }
  /// Several lines at the current indentation (e.g. from wrapList).
  void lines(const std::vector<std::string> &texts) {
    for (const std::string &t : texts)
      line(t);
  }
  /// Columns of indentation the next line gets.
  int indentWidth() const { return indent_ * 2; }
  /// A line at column 0 (preprocessor directives).
  void raw(const std::string &text) { out_.append(text).append("\n"); }

  class Indent {
  public:
    explicit Indent(CodeWriter &w) : w_(w) { ++w_.indent_; }
    ~Indent() { --w_.indent_; }
    Indent(const Indent &) = delete;
    Indent &operator=(const Indent &) = delete;

  private:
    CodeWriter &w_;
  };
  /// `header {` ... `}` + closing text (e.g. ";" or "  // namespace x").
  class Scope {
  public:
    Scope(CodeWriter &w, const std::string &header, std::string close)
        : w_(w), close_(std::move(close)) {
      // A trailing `// comment` stays after the brace: `if (c) {  // why`.
      size_t c = header.find("  // ");
      if (header.empty())
        w_.line("{");
      else if (c == std::string::npos)
        w_.line(header + " {");
      else
        w_.line(header.substr(0, c) + " {" + header.substr(c));
      ++w_.indent_;
    }
    ~Scope() {
      --w_.indent_;
      w_.line("}" + close_);
    }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    CodeWriter &w_;
    std::string close_;
  };
  [[nodiscard]] Scope block(const std::string &header, std::string close = "") {
    return Scope(*this, header, std::move(close));
  }
  /// A block whose header spans several lines (wrapList without the trailing ` {`).
  [[nodiscard]] Scope block(const std::vector<std::string> &header, std::string close = "") {
    for (size_t i = 0; i + 1 < header.size(); ++i)
      line(header[i]);
    return Scope(*this, header.empty() ? "" : header.back(), std::move(close));
  }
  /// Indents the next lines without braces (single-statement bodies).
  [[nodiscard]] Indent indent() { return Indent(*this); }

  /// Appends another writer's text verbatim (it was indented for this position).
  void append(const CodeWriter &other) { out_ += other.out_; }

  const std::string &str() const { return out_; }

private:
  std::string out_;
  int indent_ = 0;
};

} // namespace tilec::emitters

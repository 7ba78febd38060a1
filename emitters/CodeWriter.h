#pragma once
/// \file Indented text output with RAII scopes: `{ auto s = w.block("for (...)"); w.line("x;"); }`
/// prints the header, the body indented by two spaces and the closing brace.

#include <string>

namespace tilec::emitters {

class CodeWriter {
public:
  /// One line at the current indentation (empty text: an empty line without trailing spaces).
  void line(const std::string &text) {
    if (!text.empty())
      out_.append(static_cast<size_t>(indent_) * 2, ' ').append(text);
    out_ += '\n';
  }
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

/// Parses the settings of `TILEC_KERNEL(...)`: `num_warps = N`, `num_stages = N` and
/// `grid = (e0[, e1[, e2]])`.
///
/// The macro stringizes its arguments into the annotate attribute; diagnostics must point into the
/// user's source, so when the attribute comes from a macro the raw text between the parentheses of
/// the macro invocation is parsed (same tokens as the string), else the string literal's contents.

#include "translator/FrontEnd.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/Lex/Lexer.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <optional>

namespace tilec::translator {
namespace {

struct Token {
  enum Kind { Ident, Int, Punct, End } kind = End;
  std::string text;
  unsigned offset = 0; // into the settings text
};

class SettingsParser {
public:
  /// `base`: where `text` starts in the source; with `atOneLocation` (text made by macros), where
  /// every diagnostic points.
  SettingsParser(FrontEndContext &fe, ir::Kernel &k, std::string text, clang::SourceLocation base,
                 bool atOneLocation = false)
      : fe(fe), k(k), text(std::move(text)), base(base), atOneLocation(atOneLocation) {}

  void run() {
    tokenize();
    if (toks.size() == 1)
      return; // no settings
    while (true) {
      parseSetting();
      if (peek().kind == Token::End)
        break;
      expectPunct(",", "',' between settings");
    }
  }

private:
  /// Where the settings text's character `offset` is in the source.
  clang::SourceLocation locAt(unsigned offset) const {
    return atOneLocation ? base : base.getLocWithOffset(static_cast<int>(offset));
  }

  [[noreturn]] void bad(unsigned offset, const std::string &what, const std::string &expected) {
    fe.fail(DiagId::BadAnnotation, locAt(offset), {what, expected});
  }

  void tokenize() {
    size_t i = 0;
    while (i < text.size()) {
      char c = text[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      Token t;
      t.offset = static_cast<unsigned>(i);
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
          ++j;
        t.kind = Token::Ident;
        t.text = text.substr(i, j - i);
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '\''))
          ++j;
        t.kind = Token::Int;
        t.text = text.substr(i, j - i);
        i = j;
      } else {
        t.kind = Token::Punct;
        t.text = std::string(1, c);
        ++i;
      }
      toks.push_back(t);
    }
    Token end;
    end.offset = static_cast<unsigned>(text.size());
    toks.push_back(end);
  }

  const Token &peek() const { return toks[pos]; }
  const Token &next() { return toks[pos < toks.size() - 1 ? pos++ : pos]; }
  bool isPunct(const char *p) const { return peek().kind == Token::Punct && peek().text == p; }
  std::string describe(const Token &t) const { return t.kind == Token::End ? "end of settings" : t.text; }
  void expectPunct(const char *p, const std::string &expected) {
    if (!isPunct(p))
      bad(peek().offset, describe(peek()), expected);
    next();
  }

  /// The text of the setting starting at token `from` (up to the next top-level comma).
  std::string settingText(size_t from) const {
    int depth = 0;
    size_t j = from;
    for (; toks[j].kind != Token::End; ++j) {
      if (toks[j].kind == Token::Punct && toks[j].text == "(")
        ++depth;
      if (toks[j].kind == Token::Punct && toks[j].text == ")")
        --depth;
      if (depth == 0 && toks[j].kind == Token::Punct && toks[j].text == ",")
        break;
    }
    unsigned b = toks[from].offset, e = toks[j].offset;
    std::string s = text.substr(b, e - b);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
      s.pop_back();
    return s;
  }

  void parseSetting() {
    size_t start = pos;
    const Token &key = next();
    if (key.kind != Token::Ident || !isPunct("="))
      bad(key.offset, settingText(start),
          "'key = value' such as 'num_warps = 4' or 'grid = (cdiv(n, BLOCK))'");
    next(); // '='
    if (key.text == "num_warps" || key.text == "num_stages") {
      const bool warps = key.text == "num_warps";
      bool &seen = warps ? seenWarps : seenStages;
      if (seen)
        bad(key.offset, settingText(start), "each setting at most once");
      seen = true;
      const Token &v = next();
      int64_t n = -1;
      if (v.kind == Token::Int)
        n = parseInt(v);
      else if (v.kind == Token::Ident) {
        for (auto &mp : k.metaParams)
          if (mp.name == v.text && !mp.isBool)
            n = mp.value;
        if (!warps)
          k.settings.numStagesName = v.text;
        if (n < 0 && !isMeta(v.text))
          bad(v.offset, v.text, "an integer literal or a meta-parameter name");
      } else {
        bad(v.offset, describe(v), "an integer literal or a meta-parameter name");
      }
      if (warps && (n < 1 || n > 32 || (n & (n - 1)) != 0))
        bad(v.offset, settingText(start),
            "a power of two between 1 and 32 for 'num_warps' (got " + std::to_string(n) + ")");
      if (!warps && (n < 1 || n > 8))
        bad(v.offset, settingText(start),
            "a number between 1 and 8 for 'num_stages' (got " + std::to_string(n) + ")");
      (warps ? k.settings.numWarps : k.settings.numStages) = static_cast<int>(n);
    } else if (key.text == "grid") {
      if (seenGrid)
        bad(key.offset, settingText(start), "each setting at most once");
      seenGrid = true;
      std::vector<ir::Expr> dims;
      std::vector<unsigned> dimOffsets;
      auto dim = [&] {
        dimOffsets.push_back(peek().offset);
        dims.push_back(parseExpr());
      };
      if (isPunct("(")) {
        // `grid = (a, b)`: a parenthesized list; `grid = (a) * 2` is one expression.
        size_t save = pos;
        next();
        dim();
        while (isPunct(",")) {
          next();
          dim();
        }
        if (isPunct(")") && dims.size() > 1) {
          next();
        } else {
          pos = save;
          dims.clear();
          dimOffsets.clear();
          dim();
        }
      } else {
        dim();
      }
      if (dims.size() > 3)
        bad(toks[start].offset, settingText(start), "at most 3 grid dimensions");
      if (peek().kind != Token::End && !isPunct(","))
        bad(peek().offset, describe(peek()), "an operator, ')' or ',' in the grid expression");
      // A launch takes up to 2^31 - 1 programs along x and 65535 along y and z (CUDA and HIP).
      for (size_t i = 0; i < dims.size(); ++i) {
        const int64_t most = i == 0 ? INT32_MAX : 65535;
        if (auto v = constantValue(dims[i]); v && (*v < 0 || *v > most))
          fe.fail(DiagId::GridOutOfRange, locAt(dimOffsets[i]),
                  {std::string(1, "xyz"[i]), std::to_string(*v), std::to_string(most)});
      }
      k.settings.grid = std::move(dims);
    } else if (key.text == "warp_specialize") {
      if (seenWarpSpecialize)
        bad(key.offset, settingText(start), "each setting at most once");
      seenWarpSpecialize = true;
      // true, false, or a bool meta-parameter's name
      const Token &v = next();
      std::optional<bool> on;
      if (v.kind == Token::Ident && (v.text == "true" || v.text == "false"))
        on = v.text == "true";
      else if (v.kind == Token::Ident)
        for (auto &mp : k.metaParams)
          if (mp.name == v.text && mp.isBool)
            on = mp.value != 0;
      if (!on)
        bad(v.offset, describe(v), "'true', 'false' or a bool meta-parameter name");
      k.settings.warpSpecialize = *on ? ir::KernelSettings::WarpSpecialization::On
                                      : ir::KernelSettings::WarpSpecialization::Off;
    } else {
      bad(key.offset, settingText(start), "'num_warps', 'num_stages', 'grid' or 'warp_specialize'");
    }
  }

  bool isMeta(const std::string &n) const {
    for (auto &mp : k.metaParams)
      if (mp.name == n)
        return true;
    return false;
  }

  int64_t parseInt(const Token &t) {
    std::string digits;
    for (char c : t.text)
      if (c != '\'')
        digits += c;
    try {
      // Base 0 reads decimal, octal and hex; C++14's binary literals have their own prefix.
      const bool binary = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B');
      size_t used = 0;
      long long v = binary ? std::stoll(digits.substr(2), &used, 2) : std::stoll(digits, &used, 0);
      if (binary)
        used += 2;
      while (used < digits.size() && (digits[used] == 'u' || digits[used] == 'U' ||
                                      digits[used] == 'l' || digits[used] == 'L'))
        ++used;
      if (used == digits.size())
        return v;
    } catch (...) {
    }
    bad(t.offset, t.text, "an integer literal");
  }

  static ir::ScalarType common(const ir::Expr &a, const ir::Expr &b) {
    return (a->type.elem == ir::ScalarType::I64 || b->type.elem == ir::ScalarType::I64)
               ? ir::ScalarType::I64
               : ir::ScalarType::I32;
  }
  static ir::Expr widen(const ir::Expr &e, ir::ScalarType t) {
    if (e->type.elem == t)
      return e;
    if (auto *imm = ir::as<ir::IntImm>(e))
      return ir::IntImm::makeSymbol(t, imm->value, imm->symbol, e->loc);
    return ir::Cast::make(t, e, e->loc);
  }
  ir::Expr binary(ir::BinaryOp op, ir::Expr a, ir::Expr b, unsigned opOffset) {
    auto t = common(a, b);
    ir::Expr e = ir::Binary::make(op, widen(a, t), widen(b, t), a->loc);
    offsetOf[e.get()] = opOffset;
    return e;
  }

  /// The value of a grid expression when it is a constant, computed as C++ computes it (in int, or
  /// int64_t when an operand is); a constant operation that overflows or divides by zero is an
  /// error at its operator, wherever it occurs (`n * (65536 * 65536)` included).
  std::optional<int64_t> constantValue(const ir::Expr &e) {
    if (auto *imm = ir::as<ir::IntImm>(e))
      return imm->value;
    if (auto *c = ir::as<ir::Cast>(e))
      return constantValue(c->a);
    if (auto *u = ir::as<ir::Unary>(e)) {
      auto a = constantValue(u->a);
      if (!a)
        return std::nullopt;
      return checked(e, ir::BinaryOp::Sub, 0, *a);
    }
    auto *b = ir::as<ir::Binary>(e);
    auto *m = ir::as<ir::Math>(e);
    if (!b && !(m && m->op == ir::MathOp::Cdiv))
      return std::nullopt;
    auto x = constantValue(b ? b->a : m->args[0]), y = constantValue(b ? b->b : m->args[1]);
    const bool divides = m || b->op == ir::BinaryOp::Div || b->op == ir::BinaryOp::Mod;
    if (divides && y == 0) // `n / 0` and `cdiv(n, 0)` too, whatever n is
      fe.fail(DiagId::GridDivisionByZero, locAt(offsetOf[e.get()]));
    if (!x || !y)
      return std::nullopt;
    if (b)
      return checked(e, b->op, *x, *y);
    // cdiv(x, y) = (x + y - 1) / y
    auto t = checked(e, ir::BinaryOp::Add, *x, *y);
    t = checked(e, ir::BinaryOp::Sub, *t, 1);
    return checked(e, ir::BinaryOp::Div, *t, *y);
  }

  std::optional<int64_t> checked(const ir::Expr &e, ir::BinaryOp op, int64_t x, int64_t y) {
    const bool wide = e->type.elem == ir::ScalarType::I64;
    const unsigned at = offsetOf.count(e.get()) ? offsetOf[e.get()] : 0;
    int64_t r = 0;
    bool overflow = false;
    switch (op) {
    case ir::BinaryOp::Add: overflow = __builtin_add_overflow(x, y, &r); break;
    case ir::BinaryOp::Sub: overflow = __builtin_sub_overflow(x, y, &r); break;
    case ir::BinaryOp::Mul: overflow = __builtin_mul_overflow(x, y, &r); break;
    case ir::BinaryOp::Div:
    case ir::BinaryOp::Mod:
      overflow = x == INT64_MIN && y == -1;
      r = overflow ? 0 : op == ir::BinaryOp::Div ? x / y : x % y;
      break;
    default: return std::nullopt;
    }
    if (!wide && (r < INT32_MIN || r > INT32_MAX))
      overflow = true;
    if (overflow) {
      const char *sym = op == ir::BinaryOp::Add ? " + " : op == ir::BinaryOp::Sub ? " - "
                        : op == ir::BinaryOp::Mul ? " * " : " / ";
      fe.fail(DiagId::GridOverflow, locAt(at),
              {std::to_string(x) + sym + std::to_string(y), wide ? "int64_t" : "int"});
    }
    return r;
  }

  static const char *exprExpected() {
    return "a scalar parameter, a meta-parameter, an integer literal, '+ - * / %', parentheses or "
           "'cdiv(a, b)' (or 'tl::cdiv(a, b)')";
  }

  ir::Expr parseExpr() {
    ir::Expr e = parseTerm();
    while (isPunct("+") || isPunct("-")) {
      unsigned at = peek().offset;
      auto op = next().text == "+" ? ir::BinaryOp::Add : ir::BinaryOp::Sub;
      e = binary(op, e, parseTerm(), at);
    }
    return e;
  }
  ir::Expr parseTerm() {
    ir::Expr e = parseFactor();
    while (isPunct("*") || isPunct("/") || isPunct("%")) {
      unsigned at = peek().offset;
      std::string o = next().text;
      auto op = o == "*" ? ir::BinaryOp::Mul : o == "/" ? ir::BinaryOp::Div : ir::BinaryOp::Mod;
      e = binary(op, e, parseFactor(), at);
    }
    return e;
  }
  ir::Expr parseFactor() {
    if (nesting == kMaxNesting)
      fe.fail(DiagId::NestingTooDeep, locAt(peek().offset),
              {"grid expression", std::to_string(kMaxNesting), "simplify it"});
    ++nesting;
    struct Leave {
      int &n;
      ~Leave() { --n; }
    } leave{nesting};
    const Token &t = next();
    ir::SourceLoc loc = fe.irLoc(locAt(t.offset));
    if (t.kind == Token::Int) {
      int64_t v = parseInt(t);
      return ir::IntImm::make(v > INT32_MAX ? ir::ScalarType::I64 : ir::ScalarType::I32, v, loc);
    }
    if (t.kind == Token::Punct && t.text == "(") {
      ir::Expr e = parseExpr();
      expectPunct(")", "')'");
      return e;
    }
    if (t.kind == Token::Punct && t.text == "-") {
      ir::Expr e = parseFactor();
      if (auto *imm = ir::as<ir::IntImm>(e))
        return ir::IntImm::make(e->type.elem, -imm->value, loc);
      ir::Expr n = ir::Unary::make(ir::UnaryOp::Neg, e, loc);
      offsetOf[n.get()] = t.offset;
      return n;
    }
    if (t.kind == Token::Ident) {
      // `tl::cdiv(a, b)`, as the kernel's body spells it, is `cdiv(a, b)`.
      bool qualified = false;
      if (t.text == "tl" && isPunct(":") && pos + 2 < toks.size() && toks[pos + 1].text == ":" &&
          toks[pos + 2].kind == Token::Ident && toks[pos + 2].text == "cdiv") {
        pos += 3; // past `::cdiv`
        qualified = true;
      }
      if ((t.text == "cdiv" || qualified) && isPunct("(")) {
        next();
        ir::Expr a = parseExpr();
        expectPunct(",", "',' between the arguments of 'cdiv'");
        ir::Expr b = parseExpr();
        expectPunct(")", "')' after the arguments of 'cdiv'");
        auto ty = common(a, b);
        ir::Expr c = ir::Math::make(ir::MathOp::Cdiv, {widen(a, ty), widen(b, ty)}, loc);
        offsetOf[c.get()] = t.offset;
        return c;
      }
      for (auto &mp : k.metaParams)
        if (mp.name == t.text) {
          if (mp.isBool || mp.promotesToInt)
            return ir::IntImm::makeSymbol(ir::ScalarType::I32, mp.value, mp.name, loc);
          // Wider and unsigned meta-parameters compute in int64_t, as a literal of their value
          // (the launcher must not compute in unsigned arithmetic where the grid means a number).
          if (mp.value < 0 && mp.type.rfind("unsigned", 0) == 0)
            bad(t.offset, t.text, "a meta-parameter whose value fits in int64_t");
          if (mp.type == "long" || mp.type == "long long")
            return ir::IntImm::makeSymbol(ir::ScalarType::I64, mp.value, mp.name, loc);
          return ir::IntImm::make(ir::ScalarType::I64, mp.value, loc);
        }
      for (auto &p : k.params)
        if (p->name == t.text) {
          if (p->type.pointer || !ir::isInt(p->type.elem))
            bad(t.offset, t.text, "an integer scalar parameter; '" + t.text + "' has type " +
                                      p->type.str());
          return ir::VarRef::make(p, loc);
        }
      bad(t.offset, t.text, exprExpected());
    }
    bad(t.offset, describe(t), exprExpected());
  }

  FrontEndContext &fe;
  ir::Kernel &k;
  std::string text;
  clang::SourceLocation base;
  bool atOneLocation;
  std::vector<Token> toks;
  size_t pos = 0;
  int nesting = 0; ///< parseFactor calls in progress (parentheses, negations, cdiv)
  bool seenWarps = false, seenStages = false, seenGrid = false, seenWarpSpecialize = false;
  /// Where each grid operation's operator (or cdiv) is in the settings text, for diagnostics.
  std::map<const ir::ExprNode *, unsigned> offsetOf;
};

} // namespace

const clang::AnnotateAttr *kernelAttr(const clang::Decl *d) {
  for (auto *a : d->specific_attrs<clang::AnnotateAttr>())
    if (a->getAnnotation() == "tilec.kernel")
      return a;
  return nullptr;
}

void parseSettings(FrontEndContext &fe, const clang::FunctionDecl *primary, ir::Kernel &k) {
  const clang::AnnotateAttr *attr = kernelAttr(primary);
  if (!attr || attr->args_size() == 0)
    return;
  const clang::Expr *arg = (*attr->args_begin())->IgnoreImplicit()->IgnoreParenImpCasts();
  if (auto *ce = llvm::dyn_cast<clang::ConstantExpr>(arg))
    arg = ce->getSubExpr()->IgnoreParenImpCasts();
  auto *lit = llvm::dyn_cast<clang::StringLiteral>(arg);
  if (!lit || !lit->isOrdinary())
    fe.fail(DiagId::BadAnnotation, attr->getLocation(),
            {"annotate", "a string of settings such as \"num_warps = 4\""});
  auto &sm = fe.sm;
  const std::string expanded = lit->getString().str();
  clang::SourceLocation litLoc = lit->getStrTokenLoc(0);
  if (!litLoc.isMacroID()) { // an annotate attribute written out
    SettingsParser(fe, k, expanded, litLoc.getLocWithOffset(1)).run();
    return;
  }
  // The string is TILEC_KERNEL's arguments after macro expansion. Where the invocation's own text
  // (in a file) reads the same, that text is parsed, so that diagnostics point at the right
  // column; where macros made the settings (`TILEC_KERNEL(WARPS)`, or TILEC_KERNEL inside the
  // user's own macro), the expanded string is, and diagnostics point at the outermost macro
  // invocation in the file.
  auto squeezed = [](const std::string &t) {
    std::string r;
    for (char c : t)
      if (!std::isspace(static_cast<unsigned char>(c)))
        r += c;
    return r;
  };
  for (clang::SourceLocation at = litLoc; at.isMacroID();) {
    clang::CharSourceRange range = sm.getImmediateExpansionRange(at);
    at = range.getBegin();
    if (at.isMacroID())
      continue;
    bool invalid = false;
    const char *b = sm.getCharacterData(at, &invalid);
    const char *e = invalid ? nullptr : sm.getCharacterData(range.getEnd(), &invalid);
    if (invalid || e < b)
      break;
    std::string full(b, e + 1);
    size_t open = full.find('('), close = full.rfind(')');
    if (full.rfind("TILEC_KERNEL", 0) == 0 && open != std::string::npos && close != std::string::npos &&
        close > open) {
      std::string raw = full.substr(open + 1, close - open - 1);
      if (squeezed(raw) == squeezed(expanded)) {
        SettingsParser(fe, k, raw, at.getLocWithOffset(static_cast<int>(open + 1))).run();
        return;
      }
    }
    break;
  }
  SettingsParser(fe, k, expanded, sm.getExpansionLoc(litLoc), /*atOneLocation=*/true).run();
}

} // namespace tilec::translator

#pragma once
/// \file C++ operator precedence for the printer: every printed expression carries its precedence,
/// and an operand is parenthesized only when the operator around it binds tighter (or when GCC's
/// -Wparentheses would ask for parentheses, e.g. `a & (b + c)`, `(a < b) == c`).

#include <string>

namespace tilec::emitters {

enum class Prec : int {
  Conditional = 2, // a ? b : c
  LogicalOr = 3,
  LogicalAnd = 4,
  BitOr = 5,
  BitXor = 6,
  BitAnd = 7,
  Equality = 8,
  Relational = 9,
  Shift = 11,
  Additive = 12,
  Multiplicative = 13,
  Unary = 15,   // -a !a ~a
  Postfix = 16, // a[i] f(x) a.b
  Primary = 17, // names, literals
};

/// A printed expression and the precedence of its outermost operator.
struct Code {
  std::string text;
  Prec prec = Prec::Primary;
};

inline std::string parens(const std::string &s) { return "(" + s + ")"; }

/// `c` as an operand of an operator of precedence `outer`; `right` for the right operand of a
/// left-associative binary operator (equal precedence needs parentheses there: `a - (b - c)`).
inline std::string operand(const Code &c, Prec outer, bool right = false) {
  int in = static_cast<int>(c.prec), out = static_cast<int>(outer);
  bool need = right ? in <= out : in < out;
  // Parentheses GCC's -Wparentheses wants although precedence does not: mixed operators under
  // bitwise/shift/|| and comparisons under comparisons.
  bool binaryInside = in < static_cast<int>(Prec::Unary);
  switch (outer) {
  case Prec::BitOr:
  case Prec::BitXor:
  case Prec::BitAnd:
  case Prec::Shift:
  case Prec::LogicalOr:
    need = need || (binaryInside && in != out);
    break;
  case Prec::Equality:
  case Prec::Relational:
    need = need || c.prec == Prec::Equality || c.prec == Prec::Relational;
    break;
  default:
    break;
  }
  return need ? parens(c.text) : c.text;
}

} // namespace tilec::emitters

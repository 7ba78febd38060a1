#pragma once
/// \file Polynomial forms of integer and pointer tiles (rank 1 or 2) and scalars: the value of each
/// element as a sum of terms, each an integer coefficient times a product of atoms. Atoms are
/// scalar variables (parameters, locals, loop indices: their values, whatever they are) and program
/// ids, a pointer
/// parameter (the address it holds, counted in elements), and the element's own index along each
/// dimension (`i0`, `i1`). `offs[:, None] * stride + k0 + arange(K)[None, :]` is
/// `i0 * stride + offs0 * stride + k0 + i1`, say, once the tile variables it reads are replaced by
/// their definitions. pipeline-dots reads TMA copies off these forms: a pointer tile whose form is
/// `p + (r0 + i0) * s + (c0 + i1)` is the box at (r0, c0) of a row-major tensor at p with rows s
/// elements apart.
///
/// Constants keep the meta-parameter they were spelled with (IntImm::symbol) while nothing combines
/// them, so that expressions made back from a form read `pid_m * BLOCK_M`, not `pid_m * 128`.

#include "ir/IR.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilec::passes {

class AffineForm {
public:
  /// A coefficient: its value, and the symbolic constant that spells it (null: the number).
  struct Coef {
    int64_t value = 0;
    ir::Expr spelled;
  };
  using Monomial = std::vector<std::string>; ///< atom keys, sorted (empty: the constant term)

  static AffineForm constant(int64_t v, ir::Expr spelled = nullptr);
  static AffineForm atom(const std::string &key, ir::Expr e);

  AffineForm operator+(const AffineForm &o) const;
  AffineForm operator-(const AffineForm &o) const;
  AffineForm operator*(const AffineForm &o) const;

  /// The form with atom `from` renamed `to` (an element index moved to another dimension).
  AffineForm renamed(const std::string &from, const std::string &to) const;
  bool isZero() const { return terms_.empty(); }
  /// Whether any term holds atom `key`.
  bool has(const std::string &key) const;
  /// The coefficient form of `key`: the terms that hold it once, with it removed (they hold it
  /// at most once; nullopt otherwise); the rest of the form into `rest`.
  std::optional<AffineForm> split(const std::string &key, AffineForm *rest) const;
  /// The constant the form is, if it is one.
  std::optional<int64_t> constantValue() const;
  /// The atoms' keys (every term's).
  std::vector<std::string> atomKeys() const;
  /// The form as an expression of scalar type `t` (atoms by their expressions).
  ir::Expr toExpr(ir::ScalarType t, ir::SourceLoc loc) const;

  /// Index atoms: the element's index along dimension d.
  static std::string indexKey(int d) { return "#" + std::to_string(d); }

private:
  std::map<Monomial, Coef> terms_; // no zero coefficients
  std::map<std::string, ir::Expr> atoms_;
  void addTerm(const Monomial &m, Coef c);
};

/// The form of `e`; nullopt for anything but integer and pointer arithmetic (add, sub, mul),
/// arange, splat, expand_dims, broadcast, casts between integer types, hints and layout
/// conversions over constants and variables. `resolve(v)` gives the definition that stands for the
/// tile variable `v` (null: not known; the form fails); scalar variables are atoms, or constants
/// where `constantOf` gives a value (the parameters an aligned variant assumes equal to 1).
std::optional<AffineForm>
affineForm(const ir::Expr &e, const std::function<ir::Expr(const ir::VarNode *)> &resolve,
           const std::function<std::optional<int64_t>(const ir::VarNode *)> &constantOf);

} // namespace tilec::passes

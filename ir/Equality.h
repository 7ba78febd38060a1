#pragma once
/// \file Structural equality of Tile IR trees.
///
/// Two trees are equal when they have the same node kinds, the same fields (ops, axes, constants,
/// vector widths, ...), the same types (element type, pointer-ness, constness, shape and layout) and
/// their children are equal. Variables compare by identity (the same `VarNode`), not by name.
/// Source locations are ignored. Used by common-subexpression elimination and by tests.

#include "ir/IR.h"

namespace tilec::ir {

/// Full type equality: element, pointer, const pointee, argPair, shape and layout.
bool equalTypes(const Type &a, const Type &b);
/// Structural equality of expressions (null equals null only).
bool equal(const Expr &a, const Expr &b);
/// Structural equality of statements (null equals null only).
bool equal(const Stmt &a, const Stmt &b);

} // namespace tilec::ir

"""Template parameters become literals (:func:`fill`), and the conditions that then compare
two literals are folded away (:func:`fold`): a weighted branch of an unweighted query is not
in the SQL at all."""

from __future__ import annotations

from collections.abc import Mapping

from sqlglot import exp

from sqlauc.compose.formulation import Param


def _literal(value: Param) -> exp.Expr:
    # A flag becomes 1 or 0, tested in templates as ``:flag = 1``: T-SQL and Oracle <= 21 have
    # no TRUE/FALSE and no boolean values outside conditions.
    if isinstance(value, bool):
        return exp.Literal.number(int(value))
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    return exp.Literal.string(value)


def fill(tree: exp.Expr, params: Mapping[str, Param]) -> exp.Expr:
    """Replace every ``:name`` parameter by its literal (a missing one is an error)."""

    def replace(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder):
            if node.name not in params:
                raise KeyError(f"template parameter :{node.name} was not given")
            return _literal(params[node.name])
        return node

    return tree.transform(replace, copy=False)


def _truth(node: exp.Expr) -> bool | None:
    """The value of a condition made of literals only (``0 = 1``, ``'a' = 'a'``), else None."""
    if isinstance(node, exp.Paren):
        return _truth(node.this)
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, (exp.EQ, exp.NEQ)):
        left, right = node.this, node.expression
        if isinstance(left, exp.Literal) and isinstance(right, exp.Literal):
            same = left.is_string == right.is_string and (
                left.this == right.this if left.is_string else float(left.this) == float(right.this)
            )
            return same if isinstance(node, exp.EQ) else not same
        return None
    if isinstance(node, exp.Not):
        inner = _truth(node.this)
        return None if inner is None else not inner
    if isinstance(node, (exp.And, exp.Or)):
        left, right = _truth(node.this), _truth(node.expression)
        absorbing = isinstance(node, exp.Or)  # TRUE absorbs OR, FALSE absorbs AND
        if left is absorbing or right is absorbing:
            return absorbing
        if left is not None and right is not None:
            return left
    return None


OPERATORS = (exp.Binary, exp.Unary, exp.Between, exp.In)


def _operand(value: exp.Expr, case: exp.Case) -> exp.Expr:
    """The branch that replaces a folded CASE, parenthesized where the CASE was an operand of
    an operator and the branch is an operation itself: ``CASE ... END * w`` whose branch is
    ``a + b`` must become ``(a + b) * w``, not ``a + b * w`` (a CASE is one term; sqlglot
    writes the tree as it is, without adding parentheses)."""
    parent = case.parent
    nested = isinstance(parent, OPERATORS) and not isinstance(parent, exp.Paren)
    if nested and isinstance(value, OPERATORS) and not isinstance(value, exp.Paren):
        return exp.Paren(this=value)
    return value


def _fold_node(node: exp.Expr) -> exp.Expr:
    if isinstance(node, (exp.And, exp.Or)):
        left, right = _truth(node.this), _truth(node.expression)
        neutral = isinstance(node, exp.And)  # TRUE is AND's neutral element, FALSE is OR's
        # what is kept is folded too (the transform does not visit a replacement's nodes)
        if left is neutral:
            return fold(node.expression)
        if right is neutral:
            return fold(node.this)
        return node
    if isinstance(node, exp.Case) and node.this is None:
        branches: list[exp.If] = []
        default = node.args.get("default")
        for branch in node.args.get("ifs") or []:
            truth = _truth(branch.this)
            if truth is False:
                continue
            if truth is True:
                default = branch.args["true"]
                break
            branches.append(branch)
        if not branches:
            return fold(_operand(default, node)) if default is not None else exp.Null()
        node.set("ifs", branches)
        node.set("default", default)
        return node
    if isinstance(node, exp.Ordered) and isinstance(node.this, exp.Case):
        # an ordering key that folds to NULL orders nothing: the key goes (a weighted
        # tie-breaker of an unweighted query)
        if isinstance(_fold_node(node.this), exp.Null):
            return None  # type: ignore[return-value]  # sqlglot removes the node
        return node
    if isinstance(node, exp.Where):
        truth = _truth(node.this)
        if truth is True:
            return None  # type: ignore[return-value]  # sqlglot removes the node
        if truth is False:
            raise ValueError("a template filter folded to FALSE: no row would be read")
    return node


def fold(tree: exp.Expr) -> exp.Expr:
    """Fold the conditions that compare literals only (what the parameters became).

    ``CASE WHEN 0 = 1 THEN a ELSE b END`` becomes ``b``, ``WHERE 0 = 0 OR x`` disappears,
    ``a AND 1 = 1`` becomes ``a``, and an ORDER BY key ``CASE WHEN 0 = 1 THEN a END`` (NULL
    on every row) goes; nothing else changes. The query means the same, and an
    unweighted query has no weighted branch left to read the weight column.
    """
    return tree.transform(_fold_node, copy=False)

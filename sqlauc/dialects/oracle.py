"""Oracle (``oracledb``, ``cx_Oracle``)."""

from sqlglot import exp

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="oracle",
    title="Oracle",
    tier="golden",
    drivers=("oracledb", "cx_Oracle"),
    sqlalchemy_names=("oracle",),
    install="oracledb",
    boolean_values=False,  # Oracle <= 21: a comparison is not a value
    # DOUBLE PRECISION (what sqlglot writes for DOUBLE) is a decimal NUMBER: NaN and inf
    # cannot be cast to it and its arithmetic is not IEEE; BINARY_DOUBLE is the IEEE double
    # every other engine computes with
    type_names={exp.DType.DOUBLE: "BINARY_DOUBLE"},
    constant_from="dual",  # Oracle <= 21: a SELECT needs a FROM (23ai made it optional)
)

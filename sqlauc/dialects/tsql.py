"""SQL Server (T-SQL; ``pymssql`` or SQLAlchemy ``mssql``)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="tsql",
    title="T-SQL",
    tier="golden",
    drivers=("pymssql",),
    sqlalchemy_names=("mssql",),
    install="pyodbc",
    boolean_values=False,  # a comparison is not a value: the label is a CASE
)

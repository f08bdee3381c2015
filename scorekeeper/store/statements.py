"""Statements that the busiest requests run on the database driver itself, compiled once.

A round change reads its match and writes its round in a handful of statements, and running
each through SQLAlchemy's execution cost several times what the driver and the database spend
on it. These statements are still built with SQLAlchemy Core from the models' tables, and
compiled by SQLAlchemy once for each database; they then run on the DB-API connection beneath an
SQLAlchemy connection, inside whatever transaction that connection is in, and their values go
through the column types' own bind and result processors, as SQLAlchemy would send and read them.
SQLAlchemy's events and echo do not see them.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.sql.selectable import Select

from scorekeeper.store.database import driver_connection

Processor = Callable[[Any], Any]
Params = Mapping[str, Any]
DriverStatementSource = Select[Any] | UpdateBase


@dataclass(frozen=True)
class _Compiled:
    """A statement as one database's driver takes it."""

    sql: str
    # Parameter names in the order the driver takes them; None where it takes them by name.
    order: tuple[str, ...] | None
    binds: tuple[tuple[str, Processor], ...]  # the parameters whose values need processing
    results: tuple[Processor | None, ...]  # by result column
    row: Any  # the named tuple type of a result row

    def parameters(self, params: Params) -> Sequence[Any] | Params:
        if self.binds:
            params = {**params, **{name: process(params[name]) for name, process in self.binds}}
        if self.order is None:
            return params
        return tuple([params[name] for name in self.order])

    def row_of(self, values: Sequence[Any]) -> Any:
        if not self.processed:
            return self.row._make(values)
        return self.row._make(
            [
                value if process is None else process(value)
                for value, process in zip(values, self.results, strict=True)
            ]
        )

    @cached_property
    def processed(self) -> bool:
        """Tell whether any result column needs processing."""
        return any(process is not None for process in self.results)


class DriverStatement:
    """A Core statement run straight on the DB-API connection, compiled once per dialect.

    `columns` names the columns an INSERT or UPDATE sets, each from the parameter of its name.
    """

    def __init__(self, statement: DriverStatementSource, *, columns: Sequence[str] = ()) -> None:
        self.statement = statement
        self.columns = tuple(columns)
        self._compiled: WeakKeyDictionary[Dialect, _Compiled] = WeakKeyDictionary()

    def rows(self, connection: Connection, params: Params) -> list[Any]:
        """Run the statement; return its result rows as named tuples."""
        compiled = self._for(connection.dialect)
        with _cursor(connection) as cursor:
            cursor.execute(compiled.sql, compiled.parameters(params))
            return [compiled.row_of(values) for values in cursor.fetchall()]

    def run(self, connection: Connection, params: Params) -> int:
        """Run the statement once; return how many rows it changed."""
        compiled = self._for(connection.dialect)
        with _cursor(connection) as cursor:
            cursor.execute(compiled.sql, compiled.parameters(params))
            changed: int = cursor.rowcount
            return changed

    def run_many(self, connection: Connection, params: Sequence[Params]) -> None:
        """Run the statement once for each set of parameters."""
        compiled = self._for(connection.dialect)
        with _cursor(connection) as cursor:
            cursor.executemany(compiled.sql, [compiled.parameters(each) for each in params])

    def _for(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect)
        if compiled is None:
            compiled = self._compiled[dialect] = self._compile(dialect)
        return compiled

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect, column_keys=list(self.columns))
        binds = tuple(
            (name, process)
            for name, bind in compiled.binds.items()
            if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None
        )
        returned = list(self.statement.exported_columns)
        results = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in returned
        )
        row = namedtuple("Row", [column.key for column in returned])  # type: ignore[misc]
        order = tuple(compiled.positiontup) if compiled.positiontup is not None else None
        return _Compiled(str(compiled), order, binds, results, row)


def _cursor(connection: Connection) -> closing[Any]:
    """Return a new cursor of the DB-API connection beneath `connection`, closed after use."""
    return closing(driver_connection(connection).cursor())

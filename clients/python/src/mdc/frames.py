"""Records as tables: one Arrow table, built once, under both pandas and
polars (the optional extras ``mdc-client[pandas]`` and ``mdc-client[polars]``).

The columns of a record type come from its type hints, flattened:

- a plain field is a column of its name (an instant a UTC timestamp, a
  ``Literal`` a string, a tuple or :class:`~mdc.Records` an Arrow list, of
  structs for records);
- a nested record's fields are columns too, prefixed with its field name
  (``outcome_target_price``, ``ohlc_open``), except where the record marks
  the field ``inline`` (a quote's ``quote_data`` and ``payload``: plain
  ``status``, ``last_price``, ``volume``); a name taken already by a plain
  field of the outer record keeps its prefix (a NIFTY quote's
  ``day_change_perc`` is the index's, its payload's is
  ``quote_data_day_change_perc``);
- the members of a oneof (``flatten: branch``: a stream event's quote, NIFTY
  quote or shortlist) share the columns of the same name and type, so a
  replay is one table with a ``kind`` column.

Absent values are null: NaN in pandas' float columns, null in polars. The
record's ``TIME`` column becomes pandas' index (tz-aware).
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mdc.convert import record_hints, unwrap_optional
from mdc.errors import missing_extra
from mdc.record import Record, Records, plain

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

#: The unit of timestamp columns (the API has whole seconds; microseconds
#: convert to pandas and polars without a cast).
TIME_UNIT = "us"

Path = tuple[str, ...]


@dataclass(frozen=True)
class Column:
    """One column: its name, where its value is in a record (a path of
    attributes; several for the members of a oneof) and its type hint."""

    name: str
    paths: tuple[Path, ...]
    hint: Any

    def value(self, record: Record) -> Any:
        for path in self.paths:
            value: Any = record
            for attribute in path:
                value = getattr(value, attribute)
                if value is None:
                    break
            if value is not None:
                return value
        return None


def _import(module: str, feature: str, extra: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise missing_extra(feature, extra, module) from None


_COLUMNS: dict[type[Record], tuple[Column, ...]] = {}


def columns(record_type: type[Record]) -> tuple[Column, ...]:
    """The flattened columns of a record type, in order."""
    found = _COLUMNS.get(record_type)
    if found is None:
        found = _COLUMNS[record_type] = tuple(_flatten(record_type))
    return found


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Record)


def _flatten(record_type: type[Record]) -> list[Column]:
    hints = record_hints(record_type)
    fields = dataclasses.fields(record_type)  # type: ignore[arg-type]
    nested = [f for f in fields if _is_record(unwrap_optional(hints[f.name])[0])]
    out = [Column(f.name, ((f.name,),), hints[f.name]) for f in fields if f not in nested]
    by_name = {c.name: i for i, c in enumerate(out)}
    branch_of: dict[str, str] = {}  # column -> the oneof member it came from
    for f in nested:
        mode = f.metadata.get("flatten", "prefix")
        inner_type = unwrap_optional(hints[f.name])[0]
        for inner in _flatten(inner_type):
            paths = tuple((f.name, *p) for p in inner.paths)
            name = inner.name if mode in ("inline", "branch") else f"{f.name}_{inner.name}"
            taken = by_name.get(name)
            if taken is not None and mode == "branch" and branch_of.get(name) not in (None, f.name) \
                    and out[taken].hint == inner.hint:
                out[taken] = Column(name, out[taken].paths + paths, inner.hint)
                continue
            if taken is not None:
                name = f"{f.name}_{inner.name}"
            by_name[name] = len(out)
            branch_of[name] = f.name
            out.append(Column(name, paths, inner.hint))
    return out


def arrow_type(pa: Any, hint: Any) -> Any:
    """The Arrow type of a record field's type hint."""
    base, _ = unwrap_optional(hint)
    origin = typing.get_origin(base)
    if origin is Records or origin is tuple:
        item = typing.get_args(base)[0]
        return pa.list_(arrow_type(pa, item))
    if origin is typing.Literal or base is str:
        return pa.string()
    if _is_record(base):
        hints = record_hints(base)
        return pa.struct([(f.name, arrow_type(pa, hints[f.name])) for f in dataclasses.fields(base)])
    simple: dict[Any, Callable[[], Any]] = {
        float: pa.float64,
        int: pa.int64,
        bool: pa.bool_,
        datetime: lambda: pa.timestamp(TIME_UNIT, tz="UTC"),
        date: pa.date32,
        time: lambda: pa.time32("s"),
    }
    return simple[base]()


def to_arrow(record_type: type[Record], items: Sequence[Record]) -> pyarrow.Table:
    """The Arrow table of ``items`` (one row each), with the columns of
    ``record_type`` even when empty."""
    pa = _import("pyarrow", "to_arrow", "pandas")
    cols = columns(record_type)
    arrays = [pa.array([plain(c.value(r)) for r in items], type=arrow_type(pa, c.hint)) for c in cols]
    return pa.Table.from_arrays(arrays, names=[c.name for c in cols])


def to_pandas(record_type: type[Record], table: pyarrow.Table, tz: str | tzinfo | None) -> pandas.DataFrame:
    """The pandas DataFrame of an Arrow table of records, indexed by the
    records' time in UTC (or ``tz``) when they have one."""
    _import("pandas", "to_pandas", "pandas")
    frame: pandas.DataFrame = table.to_pandas()
    if record_type.TIME is not None:
        frame = frame.set_index(record_type.TIME)
        if tz is not None:
            frame = frame.tz_convert(tz)
    return frame


def to_polars(record_type: type[Record], table: pyarrow.Table, tz: str | None) -> polars.DataFrame:
    """The polars DataFrame of an Arrow table of records, the time column
    first, in UTC (or ``tz``)."""
    pl = _import("polars", "to_polars", "polars")
    frame = pl.from_arrow(table)
    time_column = record_type.TIME
    if time_column is not None:
        frame = frame.select([time_column, *[c for c in frame.columns if c != time_column]])
        if tz is not None:
            frame = frame.with_columns(pl.col(time_column).dt.convert_time_zone(tz))
    return frame  # type: ignore[no-any-return]

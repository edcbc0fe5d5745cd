"""The base of the client's answer types: :class:`Record` (one frozen
dataclass per message of the contract) and :class:`Records` (a list of them
that turns into a DataFrame).

A record is plain typed Python: aware UTC ``datetime`` for instants,
``float | None`` where the wire may leave a number out (absent or null is
None, never 0.0), ``Literal`` names for enums, :class:`Records` for lists.
Which message a record stands for is its ``MESSAGE``; :mod:`mdc.convert`
fills it from that message field by field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

if TYPE_CHECKING:
    import pandas
    import polars
    import pyarrow

#: How many items the repr of a :class:`Records` shows before "... (N more)".
REPR_ITEMS = 10


class Record:
    """One answer of the API as a frozen dataclass. Its ``repr`` leaves out
    the fields that are None (a quote payload has 27, mostly absent)."""

    __slots__ = ()

    #: The full name of the ``mdc.v1`` message the record stands for.
    MESSAGE: ClassVar[str]
    #: The column that indexes a DataFrame of such records (a time), or None.
    TIME: ClassVar[str | None] = None

    def __repr__(self) -> str:
        shown = []
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if value is None:
                continue
            text = str(value) if isinstance(value, datetime) else repr(value)
            shown.append(f"{field.name}={text}")
        return f"{type(self).__name__}({', '.join(shown)})"


R = TypeVar("R", bound=Record)


class Records(Sequence[R]):
    """An immutable list of records of one type, as every list answer of the
    client is (a timeline, candles, runs, a shortlist's entries).

    Besides being a sequence it converts to tables: :meth:`to_arrow`,
    :meth:`to_pandas` and :meth:`to_polars`, one row per record with nested
    records flattened into columns (docs in :mod:`mdc.frames`). An empty list
    still has its columns.
    """

    __slots__ = ("_items", "_type")

    def __init__(self, record_type: type[R], items: Iterable[R] = ()) -> None:
        self._type = record_type
        self._items: tuple[R, ...] = tuple(items)

    @property
    def record_type(self) -> type[R]:
        """The type of the records (the columns of the tables)."""
        return self._type

    @overload
    def __getitem__(self, index: int) -> R: ...

    @overload
    def __getitem__(self, index: slice) -> Records[R]: ...

    def __getitem__(self, index: int | slice) -> R | Records[R]:
        if isinstance(index, slice):
            return Records(self._type, self._items[index])
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[R]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records):
            return self._items == other._items
        if isinstance(other, (list, tuple)):
            return self._items == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        shown = ", ".join(repr(item) for item in self._items[:REPR_ITEMS])
        more = len(self._items) - REPR_ITEMS
        return f"[{shown}{f', ... ({more} more)' if more > 0 else ''}]"

    def to_arrow(self) -> pyarrow.Table:
        """A ``pyarrow.Table``: one row per record, null for what is absent.
        Needs ``pyarrow`` (``pip install 'mdc-client[pandas]'`` or ``[polars]``)."""
        from mdc.frames import to_arrow

        return to_arrow(self._type, self._items)

    def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """A ``pandas.DataFrame`` (``pip install 'mdc-client[pandas]'``):
        indexed by the records' time (a tz-aware ``DatetimeIndex``, UTC, or
        ``tz`` such as ``"Asia/Kolkata"``) when they have one; a missing
        number is NaN."""
        from mdc.frames import to_pandas

        return to_pandas(self._type, self.to_arrow(), tz)

    def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """A ``polars.DataFrame`` (``pip install 'mdc-client[polars]'``),
        the time column first, in UTC or ``tz``; a missing number is null."""
        from mdc.frames import to_polars

        return to_polars(self._type, self.to_arrow(), tz)


class ListAnswer(Generic[R]):
    """An answer that wraps one list (candles of a series, entries of a
    shortlist): its tables are those of the list, named by ``ITEMS``."""

    __slots__ = ()

    ITEMS: ClassVar[str]

    def _records(self) -> Records[R]:
        items: Records[R] = getattr(self, self.ITEMS)
        return items

    def to_arrow(self) -> pyarrow.Table:
        """The table of the list (:meth:`Records.to_arrow`)."""
        return self._records().to_arrow()

    def to_pandas(self, *, tz: str | tzinfo | None = None) -> pandas.DataFrame:
        """The DataFrame of the list (:meth:`Records.to_pandas`)."""
        return self._records().to_pandas(tz=tz)

    def to_polars(self, *, tz: str | None = None) -> polars.DataFrame:
        """The DataFrame of the list (:meth:`Records.to_polars`)."""
        return self._records().to_polars(tz=tz)


def plain(value: Any) -> Any:
    """A record as nested dicts and lists (for Arrow structs and lists)."""
    if isinstance(value, Record):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}  # type: ignore[arg-type]
    if isinstance(value, (Records, tuple)):
        return [plain(item) for item in value]
    return value

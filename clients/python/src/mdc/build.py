"""From the caller's arguments to the request messages, checked on the way.

One generic builder, driven by the request message's descriptor, fills a
message from a dict or a record (:mod:`mdc.inputs`): every key must be a
field (a misspelled one is refused, with the field it probably meant), every
value of the field's type (a number for a number, a known name for an
enum), None leaves a field absent (null). What it refuses is an
:class:`~mdc.InvalidArgument` naming the argument as the caller wrote it
(``entries[1].price``, ``quotes['TCS'].payload.lastPrice``), raised before
anything is sent. Fields are named as the server names them in its own 400s
(``data.entries[1].price``, ``data.quotes[0].quoteData.payload.lastPrice``,
``datetime``, ``pageSize``), so a refusal reads the same whether the client
or the server made it; the description says which argument it came from
where the two differ. Whatever only the server can judge (a symbol's spelling, a
price's range, a time window) is left to the server's own 400.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any, TypeVar, cast

from google.protobuf import descriptor, message

from mdc.errors import invalid_argument
from mdc.record import Record
from mdc.times import WIRE_TIMEZONE, day, wall_clock

M = TypeVar("M", bound=message.Message)

_F = descriptor.FieldDescriptor
_FLOATS = {_F.TYPE_DOUBLE, _F.TYPE_FLOAT}
_INTS = {_F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_UINT32, _F.TYPE_UINT64, _F.TYPE_SINT32, _F.TYPE_SINT64}


def to_message(cls: type[M], value: object, path: str) -> M:
    """A message of ``cls`` filled from a dict or a record (``path`` names
    ``value`` in errors)."""
    msg = cls()
    _fill(msg, value, path)
    return msg


def request(cls: type[M], prefix: str = "", /, **fields: object) -> M:
    """A request message from keyword arguments named as its fields (None:
    absent). Errors name a field as the server does (:func:`wire_name`),
    after ``prefix`` (``"data."`` for the collector bodies)."""
    msg = cls()
    desc = cast(descriptor.Descriptor, msg.DESCRIPTOR)
    for key, value in fields.items():
        field = desc.fields_by_name[key]
        if value is not None:
            _set(msg, field, value, prefix + wire_name(field))
    return msg


def wire_name(field: descriptor.FieldDescriptor) -> str:
    """The name the server gives ``field`` in its errors: the query
    parameters of time and date keep their snake_case (``start_datetime``,
    ``end_date``), everything else is the JSON name (``pageSize``,
    ``dayChangePerc``, a payload's ``last_price``)."""
    if field.name.endswith(("datetime", "_date")) or field.name == "date":
        return field.name
    return field.json_name


def instant(field: str, moment: datetime | None, argument: str | None = None) -> str | None:
    """The API's wall clock (UTC) of the request field ``field`` (given as
    the argument ``argument``), or None."""
    return None if moment is None else wall_clock(moment, field, argument)


def timezone_of(*moments: datetime | None) -> str | None:
    """The ``timezone`` field that goes with the instants: set when any is."""
    return WIRE_TIMEZONE if any(m is not None for m in moments) else None


def trading_day(field: str, value: date, argument: str | None = None) -> str:
    """The API's ``YYYY-MM-DD`` of the request field ``field`` (given as the
    argument ``argument``)."""
    return day(value, field, argument)


def strings(name: str, values: Iterable[str]) -> list[str]:
    """A list argument of strings (a lone string is refused: it would be
    read as its characters)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise invalid_argument(name, f"expected a list of strings, got {type(values).__name__}")
    return list(values)


def _fill(msg: message.Message, value: object, path: str) -> None:
    items: Mapping[Any, object]
    if isinstance(value, Record):
        items = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]
    elif isinstance(value, Mapping):
        items = value
    else:
        raise invalid_argument(path, f"expected a dict or a record of {msg.DESCRIPTOR.name}, got {type(value).__name__}")
    desc = cast(descriptor.Descriptor, msg.DESCRIPTOR)
    for key, item in items.items():
        field = desc.fields_by_name.get(key) if isinstance(key, str) else None
        name = str(key) if field is None else field.json_name
        where = f"{path}.{name}" if path else name
        if field is None:
            raise invalid_argument(where, _unknown_key(desc, key))
        if item is not None:
            _set(msg, field, item, where)


def _set(msg: message.Message, field: descriptor.FieldDescriptor, value: object, path: str) -> None:
    name = field.name
    if field.is_repeated:
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise invalid_argument(path, f"expected a list, got {type(value).__name__}")
        target = getattr(msg, name)
        for i, item in enumerate(value):
            if field.message_type is not None:
                _fill(target.add(), item, f"{path}[{i}]")
            else:
                try:
                    target.append(_scalar(field, item, f"{path}[{i}]"))
                except (TypeError, ValueError) as exc:
                    raise invalid_argument(f"{path}[{i}]", str(exc)) from None
        return
    if field.message_type is not None:
        inner = getattr(msg, name)
        inner.SetInParent()  # an empty dict is a present (empty) message
        _fill(inner, value, path)
        return
    try:
        setattr(msg, name, _scalar(field, value, path))
    except (TypeError, ValueError) as exc:  # e.g. a whole number out of int32's range
        raise invalid_argument(path, str(exc)) from None


def _scalar(field: descriptor.FieldDescriptor, value: object, path: str) -> object:
    kind = field.type
    if field.enum_type is not None:
        names = [v.name for v in field.enum_type.values if not v.name.endswith("_UNSPECIFIED")]
        if not isinstance(value, str) or value not in names:
            raise invalid_argument(path, f"expected one of {', '.join(names)}, got {value!r}")
        return field.enum_type.values_by_name[value].number
    if kind in _FLOATS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise invalid_argument(path, f"expected a number, got {type(value).__name__} {value!r}")
        return float(value)
    if kind in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise invalid_argument(path, f"expected a whole number, got {type(value).__name__} {value!r}")
        return value
    if kind == _F.TYPE_BOOL:
        if not isinstance(value, bool):
            raise invalid_argument(path, f"expected True or False, got {type(value).__name__} {value!r}")
        return value
    if kind == _F.TYPE_STRING:
        if not isinstance(value, str):
            raise invalid_argument(path, f"expected a string, got {type(value).__name__} {value!r}")
        return value
    raise invalid_argument(path, f"fields of type {kind} are not supported")


def _abbreviated(key: str, known: list[str]) -> str | None:
    """The known key ``key`` abbreviates: its letters in order, from the
    first (``qty`` for ``quantity``), as the other clients guess."""
    short = key.lower().replace("_", "")
    for name in known:
        letters = iter(name.replace("_", ""))
        if len(short) > 1 and short[0] == name[0] and all(c in letters for c in short):
            return name
    return None


def _unknown_key(desc: descriptor.Descriptor, key: object) -> str:
    """Says that ``key`` is no field of ``desc``, and which one it may mean:
    the field whose JSON or camelCase name it is (``nseSymbol``), or the
    closest spelling."""
    known = [f.name for f in desc.fields]
    guess = None
    if isinstance(key, str):
        by_other_name = {f.json_name: f.name for f in desc.fields} | {f.camelcase_name: f.name for f in desc.fields}
        guess = (by_other_name.get(key) or _abbreviated(key, known)
                 or next(iter(difflib.get_close_matches(key, known, n=1)), None))
    hint = f"; did you mean {guess!r}?" if guess else f"; the keys are {', '.join(known)}"
    return f"unknown key {key!r} of {desc.name}{hint}"

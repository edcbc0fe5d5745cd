"""From the generated messages of an answer to the client's records.

One generic converter, driven by two descriptions that already exist: the
message's descriptor (which fields it has, which of them track presence) and
the record's type hints (what Python type each field becomes). Per field:

- a field with presence (proto3 ``optional``, a message) that the answer
  left out or sent as null is None: ``volume: null`` stays None, never 0.0;
- ``google.protobuf.Timestamp`` is an aware UTC ``datetime``;
- an enum is its name (the record's ``Literal``);
- a string the record types as ``date`` or ``time`` is parsed (``""`` is None);
- a nested message is its record, a repeated message a :class:`Records`, a
  repeated scalar a tuple;
- a field marked ``metadata={"oneof": name}`` is the name of the member of
  that oneof the message holds.

Converters are built once per record type and cached.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from datetime import UTC, date, time
from typing import Any, TypeVar

from google.protobuf import descriptor, descriptor_pool, message

from mdc.errors import MdcError
from mdc.methods import load_generated_modules
from mdc.record import Record, Records

R = TypeVar("R", bound=Record)

_TIMESTAMP = "google.protobuf.Timestamp"

Converter = Callable[[Any], Any]


def from_message(record_type: type[R], msg: message.Message) -> R:
    """The record of ``record_type`` filled from ``msg`` (its ``MESSAGE``)."""
    if msg.DESCRIPTOR.full_name != record_type.MESSAGE:
        raise TypeError(f"{record_type.__name__} is made from {record_type.MESSAGE}, not {msg.DESCRIPTOR.full_name}")
    try:
        return record_type(**{name: convert(msg) for name, convert in _converters(record_type)})
    except ValueError as exc:  # a date or time the server wrote malformed
        raise MdcError(
            f"the answer's {msg.DESCRIPTOR.name} is malformed: {exc}", http_status=200, code="UNKNOWN"
        ) from exc


def records(record_type: type[R], items: typing.Iterable[message.Message]) -> Records[R]:
    """The :class:`Records` of a repeated field of an answer."""
    return Records(record_type, [from_message(record_type, item) for item in items])


def unwrap_optional(hint: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``X | None``, else ``(hint, False)``."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


_HINTS: dict[type[Record], dict[str, Any]] = {}
_CONVERTERS: dict[type[Record], tuple[tuple[str, Converter], ...]] = {}


def record_hints(record_type: type[Record]) -> dict[str, Any]:
    """The resolved type hints of a record's fields."""
    hints = _HINTS.get(record_type)
    if hints is None:
        hints = _HINTS[record_type] = typing.get_type_hints(record_type)
    return hints


def _converters(record_type: type[Record]) -> tuple[tuple[str, Converter], ...]:
    converters = _CONVERTERS.get(record_type)
    if converters is None:
        converters = _CONVERTERS[record_type] = _make_converters(record_type)
    return converters


def _make_converters(record_type: type[Record]) -> tuple[tuple[str, Converter], ...]:
    desc = _descriptor(record_type.MESSAGE)
    hints = record_hints(record_type)
    out = []
    for f in dataclasses.fields(record_type):  # type: ignore[arg-type]
        oneof = f.metadata.get("oneof")
        if oneof is not None:
            out.append((f.name, _which(oneof)))
            continue
        pb_field = desc.fields_by_name.get(f.name)
        if pb_field is None:
            raise TypeError(f"{record_type.__name__}.{f.name}: {record_type.MESSAGE} has no such field")
        out.append((f.name, _field_converter(record_type, pb_field, hints[f.name])))
    return tuple(out)


def _descriptor(full_name: str) -> descriptor.Descriptor:
    load_generated_modules()
    return descriptor_pool.Default().FindMessageTypeByName(full_name)


def _which(oneof: str) -> Converter:
    return lambda msg: msg.WhichOneof(oneof)


def _field_converter(record_type: type[Record], field: descriptor.FieldDescriptor, hint: Any) -> Converter:
    name = field.name
    if field.is_repeated:
        if typing.get_origin(hint) is Records:
            (item_type,) = typing.get_args(hint)
            item = _value_converter(field, item_type)
            return lambda msg: Records(item_type, [item(v) for v in getattr(msg, name)])
        (item_hint, _) = typing.get_args(hint)  # tuple[X, ...]
        item = _value_converter(field, item_hint)
        return lambda msg: tuple(item(v) for v in getattr(msg, name))
    base, optional = unwrap_optional(hint)
    value = _value_converter(field, base, optional)
    if not field.has_presence:
        return lambda msg: value(getattr(msg, name))
    if optional:
        return lambda msg: value(getattr(msg, name)) if msg.HasField(name) else None

    def required(msg: message.Message) -> Any:
        if not msg.HasField(name):
            raise MdcError(
                f"the answer's {msg.DESCRIPTOR.name} has no {field.json_name}, which {record_type.__name__} needs",
                http_status=200,
                code="UNKNOWN",
            )
        return value(getattr(msg, name))

    return required


def _value_converter(field: descriptor.FieldDescriptor, hint: Any, optional: bool = False) -> Converter:
    kind = field.message_type
    if kind is not None:
        if kind.full_name == _TIMESTAMP:
            return lambda ts: ts.ToDatetime(tzinfo=UTC)
        record_type = hint
        return lambda msg: from_message(record_type, msg)
    if field.enum_type is not None:
        return _enum_converter(field.enum_type, hint, optional)
    if field.type == descriptor.FieldDescriptor.TYPE_STRING:
        if hint is date:
            return lambda text: date.fromisoformat(text) if text or not optional else None
        if hint is time:
            return lambda text: time.fromisoformat(text) if text or not optional else None
    return lambda value: value


def _enum_converter(enum: descriptor.EnumDescriptor, hint: Any, optional: bool) -> Converter:
    known = set(typing.get_args(hint))

    def name_of(number: int) -> str | None:
        value = enum.values_by_number.get(number)
        name = value.name if value is not None else str(number)
        # UNSPECIFIED (or a name this client predates) where None is allowed.
        return name if name in known or not optional else None

    return name_of

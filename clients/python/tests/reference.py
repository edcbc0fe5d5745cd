"""The API reference of clients/python/README.md, rendered from the code:
each method of mdc.Client with its types, each record with its fields and
each name set. tests/test_readme.py checks that the README holds every line,
so the README cannot fall behind the code; ``python tests/reference.py``
prints them."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import mdc
import mdc.admin
import mdc.instruments
import mdc.market
import mdc.runs
from mdc import enums, ops


def method_line(function: typing.Any) -> str:
    parts: list[str] = []
    keyword_only = False
    for p in inspect.signature(function).parameters.values():
        if p.name == "self":
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not keyword_only:
            parts.append("*")
            keyword_only = True
        text = f"{p.name}: {p.annotation}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        parts.append(text)
    returned = inspect.signature(function).return_annotation
    return f"{function.__name__}({', '.join(parts)}) -> {returned}"


def method_lines() -> list[str]:
    names = [n for n in vars(mdc.Client) if not n.startswith("_") and callable(getattr(mdc.Client, n))]
    return [method_line(getattr(mdc.Client, n)) for n in names if n in vars(ops) or n in {"call", "paginate"}]


def record_lines() -> list[str]:
    lines = []
    for module in (mdc.market, mdc.runs, mdc.admin, mdc.instruments):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, mdc.Record) and value.__module__ == module.__name__:
                fields = ", ".join(f"{f.name}: {f.type}" for f in dataclasses.fields(value))  # type: ignore[arg-type]
                lines.append(f"{value.__name__}({fields})")
    return lines


def name_lines() -> list[str]:
    return [f"{name} = {' | '.join(repr(a) for a in typing.get_args(value))}"
            for name, value in vars(enums).items() if typing.get_origin(value) is typing.Literal]


if __name__ == "__main__":
    print("\n".join(method_lines()), "\n")
    print("\n".join(record_lines()), "\n")
    print("\n".join(name_lines()))

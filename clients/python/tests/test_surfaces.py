"""mdc.Client and mdc.AsyncClient cannot drift apart: each has a method for
every method description of mdc.ops (a public function answering an Op or a
StreamCall: the one description of the methods) with
the very same parameters, the answer the function describes (awaited in the
async client), and no other public method but their shared plumbing."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Generator
from pathlib import Path

import pandas
import pytest

import mdc
from mdc import ops


def describes_a_method(function: object) -> bool:
    """A public function of mdc.ops answering an Op, a StreamCall, an
    ExportCall or an ImportCall."""
    if not inspect.isfunction(function) or function.__module__ != ops.__name__ or function.__name__[0] == "_":
        return False
    answer = typing.get_type_hints(function)["return"]
    return answer in (ops.StreamCall, ops.ExportCall, ops.ImportCall) or typing.get_origin(answer) is Generator


OPS = sorted(name for name, f in vars(ops).items() if describes_a_method(f))
# Public on both clients besides the ops (the low level, the clock).
COMMON = {"call", "paginate", "backtest_clock"}
LIFECYCLE = {mdc.Client: {"close"}, mdc.AsyncClient: {"aclose"}}
STREAMS = {mdc.Client: mdc.EventStream, mdc.AsyncClient: mdc.AsyncEventStream}


def public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


# The clients name pandas in annotations only (it is an optional extra).
HINT_NAMES = {"pandas": pandas}


def parameters(function: typing.Any) -> list[tuple[str, object, object, object]]:
    hints = typing.get_type_hints(function, localns=HINT_NAMES)
    return [(p.name, p.kind, p.default, hints.get(p.name))
            for p in inspect.signature(function).parameters.values() if p.name != "self"]


def test_there_are_the_methods_of_the_issue() -> None:
    assert {"quote", "quote_timeline", "candles", "replay_day", "save_quotes", "create_run", "quotes",
            "export", "import_"} <= set(OPS)


@pytest.mark.parametrize("cls", [mdc.Client, mdc.AsyncClient], ids=lambda c: c.__name__)
def test_a_client_has_exactly_the_ops_as_methods(cls: type) -> None:
    assert public(cls) == set(OPS) | COMMON | LIFECYCLE[cls]


@pytest.mark.parametrize("name", OPS)
def test_both_clients_take_and_answer_what_the_op_describes(name: str) -> None:
    op = getattr(ops, name)
    described = typing.get_type_hints(op)["return"]
    for cls in (mdc.Client, mdc.AsyncClient):
        method = getattr(cls, name)
        assert parameters(method) == parameters(op), f"{cls.__name__}.{name}"
        assert inspect.iscoroutinefunction(method) == (cls is mdc.AsyncClient), f"{cls.__name__}.{name}"
        answer = typing.get_type_hints(method, localns=HINT_NAMES)["return"]
        if described is ops.StreamCall:
            assert answer is STREAMS[cls], f"{cls.__name__}.{name}"
        elif described is ops.ExportCall:  # a file, or its DataFrame without a path
            assert answer == Path | pandas.DataFrame, f"{cls.__name__}.{name}"
        elif described is ops.ImportCall:  # what the import stored
            assert answer is mdc.ImportResult, f"{cls.__name__}.{name}"
        else:
            assert typing.get_origin(described) is Generator
            assert answer == typing.get_args(described)[2], f"{cls.__name__}.{name} answers {answer}, not {described}"


def test_the_common_methods_match_too() -> None:
    for name in COMMON - {"backtest_clock"}:
        assert parameters(getattr(mdc.Client, name)) == parameters(getattr(mdc.AsyncClient, name)), name
    sync_init = parameters(mdc.Client.__init__)
    async_init = parameters(mdc.AsyncClient.__init__)
    assert [p[:3] for p in sync_init] == [p[:3] for p in async_init]


def test_the_async_methods_carry_the_sync_documentation() -> None:
    for name in OPS:
        assert getattr(mdc.AsyncClient, name).__doc__ == getattr(mdc.Client, name).__doc__ is not None, name

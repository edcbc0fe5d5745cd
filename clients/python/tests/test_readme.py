"""The README's quick start, run verbatim against the test stack."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdc_stack import Stack

README = Path(__file__).resolve().parent.parent / "README.md"


def quick_start() -> str:
    """The first ```python block under "## Quick start"."""
    section = README.read_text().split("## Quick start", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "README.md: no python block under ## Quick start"
    return match.group(1)


def test_the_quick_start_is_short() -> None:
    assert len(quick_start().strip().splitlines()) <= 10


def test_the_quick_start_runs(
    stack: Stack, developer_token: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDC_URL", stack.base_url)
    monkeypatch.setenv("MDC_TOKEN", developer_token)
    exec(compile(quick_start(), str(README), "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert 'nse_symbol: "RELIANCE"' in printed
    assert "price: 1234.5" in printed

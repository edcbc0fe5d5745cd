"""The Python quick starts, run verbatim against the test stack: the
```python block under "## Quick start" in clients/python/README.md and the one
under "## Clients" in the top-level README.md; and the streams example under
"## Streams" in clients/python/README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdc_stack import Stack

CLIENT = Path(__file__).resolve().parent.parent
ROOT = CLIENT.parent.parent

# (README, the section whose first ```python block is the quick start)
QUICK_STARTS = [
    pytest.param(CLIENT / "README.md", "## Quick start", id="clients/python/README.md"),
    pytest.param(ROOT / "README.md", "## Clients", id="README.md"),
]


def quick_start(readme: Path, heading: str) -> str:
    """The first ```python block of the section `heading` (up to the next `## `)."""
    text = readme.read_text()
    start = re.search(rf"^{re.escape(heading)}[ \t]*$", text, re.MULTILINE)
    assert start, f"{readme}: no {heading!r} section"
    section = re.split(r"^## ", text[start.end() :], maxsplit=1, flags=re.MULTILINE)[0]
    match = re.search(r"^```python\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert match, f"{readme}: no python block under {heading}"
    return match.group(1)


@pytest.mark.parametrize(("readme", "heading"), QUICK_STARTS)
def test_the_quick_start_is_short(readme: Path, heading: str) -> None:
    lines = quick_start(readme, heading).strip().splitlines()
    assert len(lines) <= 10, f"{readme}: the quick start has {len(lines)} lines, at most 10 wanted"


@pytest.mark.parametrize(("readme", "heading"), QUICK_STARTS)
def test_the_quick_start_runs(
    readme: Path,
    heading: str,
    stack: Stack,
    developer_token: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MDC_URL", stack.base_url)
    monkeypatch.setenv("MDC_GRPC_ADDR", stack.grpc_addr)
    monkeypatch.setenv("MDC_TOKEN", developer_token)
    exec(compile(quick_start(readme, heading), str(readme), "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert 'nse_symbol: "RELIANCE"' in printed
    assert "price: 1234.5" in printed


def test_the_streams_example_runs(
    stack: Stack,
    developer_token: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    readme = CLIENT / "README.md"
    monkeypatch.setenv("MDC_URL", stack.base_url)
    monkeypatch.setenv("MDC_TOKEN", developer_token)
    exec(compile(quick_start(readme, "## Streams"), str(readme), "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert "watched TCS 3521.0" in printed
    assert "replayed TCS 2025-01-02 05:01:00+00:00" in printed

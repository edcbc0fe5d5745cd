"""The Python quick starts, run verbatim against the test stack: the
```python block under "## Quick start" in clients/python/README.md and the one
under "## Clients" in the top-level README.md; the async and streams examples
of clients/python/README.md; and its API reference, which must hold every
line tests/reference.py renders from the code."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import reference
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
    assert len(lines) <= 12, f"{readme}: the quick start has {len(lines)} lines, at most 12 wanted"


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
    # The shortlist record, and the DataFrame: IST index, the null volume NaN.
    assert "entries=[ShortlistEntry(nse_symbol='RELIANCE', name='Reliance', price=1234.5)]" in printed
    assert re.search(r"^2025-01-02 10:30:00\+05:30\s+1234\.5\s+NaN$", printed, re.MULTILINE), printed
    if "client.quotes(" in quick_start(readme, heading):  # the cross-section: one found, one missing
        line = next((row for row in printed.splitlines() if row.startswith("QuoteCrossSection(")), "")
        assert "nse_symbol='RELIANCE'" in line and "last_price=1234.5" in line and "missing=('TCS',)" in line, printed


def run_example(heading: str, stack: Stack, token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = CLIENT / "README.md"
    monkeypatch.setenv("MDC_URL", stack.base_url)
    monkeypatch.setenv("MDC_TOKEN", token)
    exec(compile(quick_start(readme, heading), str(readme), "exec"), {"__name__": "__readme__"})


def test_the_async_example_runs(
    stack: Stack, developer_token: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_example("## Async", stack, developer_token, monkeypatch)
    assert "async RELIANCE 1234.5 1\n" in capsys.readouterr().out


def test_the_streams_example_runs(
    stack: Stack, developer_token: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run_example("## Streams", stack, developer_token, monkeypatch)
    printed = capsys.readouterr().out
    assert "watched quote StockQuote(timestamp=2025-01-02 05:01:00+00:00, nse_symbol='TCS'" in printed
    assert "replayed quote 2025-01-02 05:01:00+00:00" in printed
    assert re.search(r"^2025-01-02 05:01:00\+00:00\s+quote\s+TCS\s+3521\.0$", printed, re.MULTILINE), printed


@pytest.mark.parametrize("lines", [reference.method_lines, reference.record_lines, reference.name_lines],
                         ids=["methods", "records", "names"])
def test_the_api_reference_is_the_code(lines: Callable[[], list[str]]) -> None:
    text = (CLIENT / "README.md").read_text()
    rendered = lines()
    assert len(rendered) > 5
    missing = [line for line in rendered if f"\n{line}\n" not in text]
    assert missing == [], "clients/python/README.md, API reference: update to (python tests/reference.py)"

"""mypy --strict over code that uses the client: tests/typing/usage.py must
type-check with the types it asserts, and every mistake marked in
tests/typing/misuse.py (a misspelled key, an unknown enum name, a number
that may be None used as a float, a coroutine not awaited) must be an error,
with nothing else flagged."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from mypy import api

CLIENT = Path(__file__).resolve().parent.parent
USAGE = CLIENT / "tests" / "typing" / "usage.py"
MISUSE = CLIENT / "tests" / "typing" / "misuse.py"
MARK = re.compile(r"#\s*error:\s*\"([^\"]+)\"")


def mypy(*files: Path) -> list[tuple[str, int, str]]:
    """(file name, line, message) of each error mypy --strict reports."""
    cache = os.environ.get("MDC_MYPY_CACHE") or os.path.join(tempfile.gettempdir(), "mdc-mypy-cache")
    out, err, _ = api.run(["--config-file", str(CLIENT / "pyproject.toml"), "--strict", "--cache-dir", cache,
                           "--no-error-summary", "--show-error-codes", *map(str, files)])
    assert not err.strip(), err
    errors = []
    for line in out.splitlines():
        found = re.match(r"(.+?):(\d+): error: (.*)", line)
        if found:
            errors.append((Path(found.group(1)).name, int(found.group(2)), found.group(3)))
    return errors


def test_typed_usage_passes_and_each_marked_misuse_is_an_error() -> None:
    errors = mypy(USAGE, MISUSE)
    assert [e for e in errors if e[0] == USAGE.name] == []
    marked = {n: MARK.search(text).group(1)  # type: ignore[union-attr]
              for n, text in enumerate(MISUSE.read_text().splitlines(), start=1) if MARK.search(text)}
    assert len(marked) >= 9
    flagged = {line: message for name, line, message in errors if name == MISUSE.name}
    assert set(flagged) == set(marked), f"flagged {sorted(flagged)}, marked {sorted(marked)}"
    for line, text in marked.items():
        assert text in flagged[line], f"misuse.py:{line}: {flagged[line]!r} does not say {text!r}"

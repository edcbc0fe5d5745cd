"""What the tests of NSE's files share (docs/api.md section 13.2)."""

from __future__ import annotations


def isin_with_check_digit(body: str) -> str:
    """An ISIN of the 11 characters ``body`` and its ISO 6166 check digit
    (letters as 10-35, then Luhn over the digits), which the server checks."""
    digits = "".join(str(ord(c) - ord("A") + 10) if c.isalpha() else c for c in body)
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return body + str((10 - total % 10) % 10)

"""Export files (docs/api.md section 11): where a download is written while
it arrives, what a broken one raises, and the DataFrame of a Parquet one.
Shared by :class:`mdc.Client` and :class:`mdc.AsyncClient`, which read the
answer their own way."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from mdc.errors import MdcError, Unavailable

if TYPE_CHECKING:
    import pandas


def partial(path: Path) -> Path:
    """Where a file is written until its last byte has arrived: a broken
    export never leaves a file that looks whole at ``path``."""
    return path.with_name(path.name + ".part")


def broken(rpc: str, exc: httpx.HTTPError) -> MdcError:
    """The error of an export whose download was cut after it began. The
    gateway breaks such an answer off (a reset connection or HTTP/2 stream,
    no last chunk: docs/api.md section 11), which httpx raises on; httpx
    does not expose the ``Mdc-Export-Rows`` trailer, so that framing is
    the check."""
    return Unavailable(f"{rpc}: the download was cut before its end ({type(exc).__name__}: {exc}); ask again",
                       http_status=200, code="UNAVAILABLE")


def frame(parquet: bytes) -> pandas.DataFrame:
    """The pandas DataFrame of a Parquet export: its typed columns
    (``timestamp`` a tz-aware UTC datetime64, ``trading_day`` a date, nulls
    as None/NaN). Needs the ``pandas`` extra (pyarrow and pandas)."""
    import pyarrow.parquet

    frame: pandas.DataFrame = pyarrow.parquet.read_table(io.BytesIO(parquet)).to_pandas()
    return frame

"""A cut download cannot pass as complete (docs/api.md section 11): with
mdc-server killed in the middle of an export, ``export(path=...)`` raises
:class:`mdc.Unavailable` and leaves no file, neither under the name asked
for nor as ``.part``; a whole export is renamed into place."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import mdc
from gate_proxy import GateProxy
from mdc.enums import ExportFormat
from mdc_stack import Stack, psql

DAY = date(2035, 11, 6)
# More rows than the gateway, the sockets and gRPC's windows can hold, so
# the export cannot have ended when the server is killed.
ROWS = 200_000


@pytest.fixture(scope="module")
def many_rows(stack: Stack) -> Iterator[int]:
    """ROWS quotes of 500 symbols on DAY, stored with SQL (far faster than
    the API); QuoteData{status: SUCCESS, payload: {last_price, volume}}."""
    psql(stack.db_url, f"""INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
        SELECT 'PYCUT' || (g % 500), timestamptz '{DAY} 09:15:00+05:30' + (g / 500) * interval '1 second',
               date '{DAY}', 101.5, 1000, '\\x08011212090000000000605940210000000000408f40'::bytea
        FROM generate_series(0, {ROWS - 1}) g""")
    yield ROWS
    psql(stack.db_url, f"DELETE FROM stock_quotes WHERE trading_day = '{DAY}'")


def test_a_whole_export_is_renamed_into_place(client: mdc.Client, many_rows: int, tmp_path: Path) -> None:
    target = tmp_path / "q.csv"
    written = client.export("quotes", DAY, format="csv", symbols=["PYCUT1"], path=target)
    assert written == target and not (tmp_path / "q.csv.part").exists()
    assert len(target.read_bytes().splitlines()) == 1 + many_rows // 500


def cut_download(stack: Stack, download: Callable[[str], Any]) -> BaseException:
    """Runs ``download(base_url)`` through a gate proxy, kills mdc-server once
    the answer's first bytes have arrived, then lets the rest through; what
    the download raised."""
    with ThreadPoolExecutor(1) as runner, GateProxy(stack.http_addr) as proxy:
        pending = runner.submit(download, f"http://{proxy.addr}")
        assert proxy.first_bytes.wait(60), "no byte of the export within 60 s"
        stack.kill_server()
        try:
            proxy.release.set()
            with pytest.raises(BaseException) as raised:
                pending.result(timeout=120)
        finally:
            stack.start_server()
    return raised.value


@pytest.mark.parametrize("format", ["csv", "ndjson"])
def test_a_cut_export_raises_and_leaves_no_file(
    stack: Stack, developer_token: str, many_rows: int, tmp_path: Path, format: ExportFormat
) -> None:
    target = tmp_path / f"q.{format}"

    def download(base_url: str) -> Path:
        with mdc.Client(base_url, developer_token, retries=0) as proxied:
            return proxied.export("quotes", DAY, format=format, path=target)

    error = cut_download(stack, download)
    assert isinstance(error, mdc.Unavailable), repr(error)
    assert "cut" in error.message and error.code == "UNAVAILABLE"
    assert not target.exists() and not (tmp_path / f"q.{format}.part").exists()


def test_the_async_client_raises_too(stack: Stack, developer_token: str, many_rows: int, tmp_path: Path) -> None:
    target = tmp_path / "q.csv"

    def download(base_url: str) -> Path:
        async def run() -> Path:
            async with mdc.AsyncClient(base_url, developer_token, retries=0) as proxied:
                return await proxied.export("quotes", DAY, format="csv", path=target)

        return asyncio.run(run())

    error = cut_download(stack, download)
    assert isinstance(error, mdc.Unavailable), repr(error)
    assert not target.exists() and not (tmp_path / "q.csv.part").exists()

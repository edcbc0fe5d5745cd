"""``mdc.Client``: the everyday tasks of collectors and strategy code.

A thin facade over the generated messages: each method builds the request
message of one RPC, sends it through the gateway (:mod:`mdc.transport`) and
returns the generated answer message (typed by the generated ``.pyi``
stubs). Any RPC of the contract is also reachable as
``client.call("Service.Method", request)``.

Times go in as timezone-aware ``datetime`` values and dates as
``datetime.date``; instants in answers are ``google.protobuf.Timestamp``
messages, which :func:`mdc.to_datetime` (or ``ts.ToDatetime(tzinfo=UTC)``)
turns into aware datetimes. Methods that answer a bare instant return the
datetime directly.
"""

from __future__ import annotations

import contextvars
import os
import ssl
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, TypeVar

import httpx
from google.protobuf import field_mask_pb2, json_format, message

from mdc.methods import find_method
from mdc.streams import IDLE_TIMEOUT, EventStream
from mdc.times import WIRE_TIMEZONE, day, to_datetime, wall_clock
from mdc.transport import RetryPolicy, Transport
from mdc.v1 import (
    admin_pb2,
    collector_pb2,
    dashboard_pb2,
    developer_pb2,
    health_pb2,
    market_pb2,
    stream_pb2,
)

M = TypeVar("M", bound=message.Message)

#: A message, or its JSON form as docs/api.md writes it (a dict).
EntryLike = market_pb2.ShortlistEntry | Mapping[str, Any]
QuoteDataLike = market_pb2.QuoteData | Mapping[str, Any]


class Client:
    """A connection to one mdc gateway, configured once.

    Args:
        base_url: the gateway, e.g. ``"http://127.0.0.1:8080"``.
        token: a developer or admin token (``Authorization: Bearer``).
        timeout: seconds each attempt of a call may take.
        retries: how many times a call is sent again after a 503, a 429
            with ``Retry-After`` (the rate limit; waited out, up to 60 s) or
            a network failure (never after another answer); 0 disables.
        backoff: seconds before the first retry; doubled each time (with
            jitter), at most ``max_backoff``.
        run_id: sent as ``X-Run-Id`` on every call (logged by the server).
        http: an ``httpx.Client`` to send with (proxies, custom transports);
            the client creates and owns one when absent.
        ca_file: for an ``https://`` gateway whose certificate a private CA
            signed (``MDC_TLS_CERT``, docs/operations.md "TLS"): the PEM file
            of the CA certificates to verify it with, instead of the system's.
            Not together with ``http`` (configure that client's ``verify``).

    Thread-safe. Use as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None,
        *,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.25,
        max_backoff: float = 5.0,
        run_id: str | None = None,
        http: httpx.Client | None = None,
        ca_file: str | os.PathLike[str] | None = None,
    ) -> None:
        if ca_file is not None and http is not None:
            raise ValueError("give ca_file or http, not both: set verify on your httpx.Client")
        self._retry = RetryPolicy(retries=retries, initial_backoff=backoff, max_backoff=max_backoff)
        self._transport = Transport(
            base_url,
            token,
            timeout=timeout,
            retry=self._retry,
            http=http,
            verify=True if ca_file is None else ssl.create_default_context(cafile=os.fspath(ca_file)),
        )
        self._headers = {"X-Run-Id": run_id} if run_id else {}
        # The backtest clock of the calls in this context (thread, task).
        self._clock: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
            f"mdc_clock_{id(self)}", default={}
        )

    def close(self) -> None:
        """Closes the connections."""
        self._transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Generic access ---------------------------------------------------------

    def call(self, method: str, request: message.Message) -> message.Message:
        """Calls any RPC of the contract by name, e.g.
        ``client.call("DeveloperService.GetList", developer_pb2.GetListRequest(type="TOP_GAINERS"))``.

        Raises:
            KeyError: no such RPC.
            MdcError: the call failed.
        """
        return self._transport.call(find_method(method), request, self._call_headers())

    def paginate(self, method: str, request: M, items: str) -> Iterator[Any]:
        """Every item of a paged list RPC, following ``nextPageToken``.

        ``items`` names the repeated field of the answer, e.g. ``"runs"``.
        Pages are fetched as the iterator is consumed, with the headers
        (backtest clock, run id) in force when ``paginate`` was called.
        """
        rpc = find_method(method)
        headers = self._call_headers()
        page_request = type(request)()
        page_request.CopyFrom(request)

        def pages() -> Iterator[Any]:
            seen: set[str] = set()
            while True:
                answer = self._transport.call(rpc, page_request, headers)
                yield from getattr(answer, items)
                token: str = getattr(answer, "next_page_token")
                if not token:
                    return
                if token in seen:
                    raise RuntimeError(f"{method}: the server repeated page token {token!r}")
                seen.add(token)
                setattr(page_request, "page_token", token)

        return pages()

    # Backtest clock ----------------------------------------------------------

    @contextmanager
    def backtest_clock(self, now: datetime, *, run_id: str | None = None) -> Iterator[None]:
        """Sets "now" for the calls made inside the ``with`` block.

        Reads then see nothing stamped at or after ``now``, and asking for an
        instant at or after it is refused (403 ``PERMISSION_DENIED``). Blocks
        nest; the clock belongs to the current thread or asyncio task.

        Raises:
            ValueError: ``now`` is naive.
        """
        headers = {"X-Current-Timestamp": wall_clock(now), "X-Current-Timezone": WIRE_TIMEZONE}
        if run_id:
            headers["X-Run-Id"] = run_id
        token = self._clock.set(headers)
        try:
            yield
        finally:
            self._clock.reset(token)

    # Collector writes (idempotent: the same key again replaces) ------------------

    def save_shortlist(
        self,
        at: datetime,
        shortlist_type: str,
        entries: Iterable[EntryLike],
        *,
        scope: str | None = None,
    ) -> None:
        """Stores a shortlist snapshot taken at ``at``.

        ``shortlist_type`` is ``"TOP_GAINERS"`` or ``"VOLUME_SHOCKERS"``,
        ``scope`` ``"TOP_5"`` (the default) or ``"FULL"``. Entries are
        messages or dicts in the documented JSON shape
        (``{"nseSymbol": "RELIANCE", "name": "Reliance", "price": 2950.5}``),
        in rank order; an empty list is a valid observation.
        """
        data = collector_pb2.ShortlistData(
            timestamp=wall_clock(at),
            timezone=WIRE_TIMEZONE,
            shortlist_type=shortlist_type,
            scope=scope or None,
            entries=[_message(market_pb2.ShortlistEntry, e) for e in entries],
        )
        self._call("CollectorService.SaveShortlist", collector_pb2.SaveShortlistRequest(data=data))

    def save_nifty(self, at: datetime, quote: QuoteDataLike, day_change_perc: float) -> None:
        """Stores the NIFTY 50 quote taken at ``at``.

        ``quote`` is a ``QuoteData`` or its JSON,
        ``{"status": "SUCCESS", "payload": {"last_price": ..., "ohlc": {...}}}``.
        """
        data = collector_pb2.NiftyData(
            timestamp=wall_clock(at),
            timezone=WIRE_TIMEZONE,
            quote_data=_message(market_pb2.QuoteData, quote),
            day_change_perc=day_change_perc,
        )
        self._call("CollectorService.SaveNifty", collector_pb2.SaveNiftyRequest(data=data))

    def save_quotes(self, at: datetime, quotes: Mapping[str, QuoteDataLike]) -> None:
        """Stores the quotes of several stocks taken at ``at``, all or none.

        ``quotes`` maps each NSE symbol to its ``QuoteData`` (or its JSON).
        """
        data = collector_pb2.QuotesData(
            timestamp=wall_clock(at),
            timezone=WIRE_TIMEZONE,
            quotes=[
                collector_pb2.QuoteItem(nse_symbol=symbol, quote_data=_message(market_pb2.QuoteData, q))
                for symbol, q in quotes.items()
            ],
        )
        self._call("CollectorService.SaveQuotes", collector_pb2.SaveQuotesRequest(data=data))

    def check_holiday(self, trading_day: date) -> collector_pb2.CheckHolidayResponse:
        """Whether ``trading_day`` is a holiday, and whether the exchange trades."""
        return self._call(
            "CollectorService.CheckHoliday",
            collector_pb2.CheckHolidayRequest(date=day(trading_day)),
            collector_pb2.CheckHolidayResponse,
        )

    # Developer reads ---------------------------------------------------------------

    def shortlist(
        self, shortlist_type: str, *, as_of: datetime | None = None, scope: str | None = None
    ) -> market_pb2.Shortlist:
        """The shortlist snapshot as of ``as_of`` (now, or the backtest clock,
        when absent). ``MdcError`` ``NOT_FOUND`` when that trading day has none
        at or before it."""
        request = developer_pb2.GetListRequest(type=shortlist_type, scope=scope or "")
        _set_instant(request, "datetime", as_of)
        return self._call("DeveloperService.GetList", request, market_pb2.Shortlist)

    def quote(self, symbol: str, *, as_of: datetime | None = None) -> market_pb2.StockQuote:
        """The stock's quote as of ``as_of`` (the latest stored when absent)."""
        request = developer_pb2.GetQuoteRequest(symbol=symbol)
        _set_instant(request, "datetime", as_of)
        return self._call("DeveloperService.GetQuote", request, market_pb2.StockQuote)

    def nifty(self, *, as_of: datetime | None = None) -> market_pb2.NiftyQuote:
        """The NIFTY 50 quote as of ``as_of`` (the latest stored when absent)."""
        request = developer_pb2.GetNiftyRequest()
        _set_instant(request, "datetime", as_of)
        return self._call("DeveloperService.GetNifty", request, market_pb2.NiftyQuote)

    def quote_timeline(
        self,
        symbol: str,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        page_size: int = 0,
    ) -> Iterator[market_pb2.StockQuote]:
        """Every stored quote of ``symbol`` in [start, end), ascending, fetched
        page by page. ``end`` defaults to now (or the backtest clock),
        ``start`` to 09:15 IST of end's trading day."""
        request = developer_pb2.GetQuoteTimelineRequest(symbol=symbol, page_size=page_size)
        _set_instant(request, "start_datetime", start)
        _set_instant(request, "end_datetime", end)
        return self.paginate("DeveloperService.GetQuoteTimeline", request, "quotes")

    def nifty_timeline(
        self, *, start: datetime | None = None, end: datetime | None = None, page_size: int = 0
    ) -> Iterator[market_pb2.NiftyQuote]:
        """Every stored NIFTY quote in [start, end), ascending, page by page."""
        request = developer_pb2.GetNiftyTimelineRequest(page_size=page_size)
        _set_instant(request, "start_datetime", start)
        _set_instant(request, "end_datetime", end)
        return self.paginate("DeveloperService.GetNiftyTimeline", request, "quotes")

    def candles(
        self,
        symbol: str,
        interval: str,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
    ) -> market_pb2.CandleSeries:
        """OHLCV candles of ``symbol`` (``"NIFTY"`` for the index) built from
        the quotes stamped in [start, end); ``interval`` is one of
        ``1minute`` ... ``1month`` (docs/api.md section 1)."""
        request = developer_pb2.GetHistoricalCandlesRequest(symbol=symbol, interval=interval)
        _set_instant(request, "start_datetime", start)
        _set_instant(request, "end_datetime", end)
        return self._call("DeveloperService.GetHistoricalCandles", request, market_pb2.CandleSeries)

    def holidays(self, year: int | None = None) -> list[market_pb2.Holiday]:
        """The exchange holidays of ``year`` (this year when absent), ascending."""
        request = developer_pb2.ListHolidaysRequest(year=year or 0)
        answer = self._call("DeveloperService.ListHolidays", request, market_pb2.ListHolidaysResponse)
        return list(answer.holidays)

    # Streams (docs/api.md section 10) -------------------------------------------------

    def watch_quotes(
        self,
        symbols: Iterable[str],
        *,
        cursor: str | None = None,
        resume: bool = True,
        idle_timeout: float | None = IDLE_TIMEOUT,
    ) -> EventStream:
        """The stock quotes of ``symbols`` as their writes commit, as an
        iterator of ``stream_pb2.MarketEvent`` (``event.quote``) that never
        ends by itself. ``cursor``: resume after it (``stream.cursor`` of an
        earlier watch). With ``resume``, a watch cut off by a server shutdown,
        a database outage, a lost connection or reading too slowly (429
        ``WATCHER_FELL_BEHIND``) reconnects from its last cursor by itself,
        within the client's retries. A connection on which nothing arrives
        for ``idle_timeout`` seconds (not even the heartbeat the server sends
        an idle watch every ``MDC_WATCH_HEARTBEAT`` seconds) counts as lost;
        None waits for ever.

        Raises:
            MdcError: when the watch cannot open (bad symbol, token; the
                backtest clock set: 412), and from the iterator when it
                fails for good.
        """
        request = stream_pb2.WatchQuotesRequest(symbols=list(symbols))
        return self._stream("StreamService.WatchQuotes", request, cursor, resume, idle_timeout, ends=False)

    def watch_nifty(
        self, *, cursor: str | None = None, resume: bool = True, idle_timeout: float | None = IDLE_TIMEOUT
    ) -> EventStream:
        """NIFTY 50 quotes as their writes commit (``event.nifty``); as
        :meth:`watch_quotes`."""
        request = stream_pb2.WatchNiftyRequest()
        return self._stream("StreamService.WatchNifty", request, cursor, resume, idle_timeout, ends=False)

    def watch_shortlists(
        self,
        shortlist_type: str,
        *,
        scope: str | None = None,
        cursor: str | None = None,
        resume: bool = True,
        idle_timeout: float | None = IDLE_TIMEOUT,
    ) -> EventStream:
        """Shortlist snapshots of one type and scope (``TOP_5`` by default)
        as their writes commit (``event.shortlist``); as :meth:`watch_quotes`."""
        request = stream_pb2.WatchShortlistsRequest(type=shortlist_type, scope=scope or "")
        return self._stream("StreamService.WatchShortlists", request, cursor, resume, idle_timeout, ends=False)

    def replay_day(
        self,
        trading_day: date,
        *,
        symbols: Iterable[str] = (),
        kinds: Iterable[str] = (),
        cursor: str | None = None,
        resume: bool = True,
        idle_timeout: float | None = IDLE_TIMEOUT,
    ) -> EventStream:
        """Every stored record of ``trading_day`` in time order (NIFTY before
        stock quotes before shortlists at one instant), as an iterator of
        ``stream_pb2.MarketEvent`` that ends after the last one. ``symbols``
        filters the stock quotes (empty: all), ``kinds`` is any of
        ``"quotes"``, ``"nifty"``, ``"shortlists"`` (empty: all). Under
        :meth:`backtest_clock`, only records stamped before it. ``cursor``,
        ``resume`` and ``idle_timeout`` as for :meth:`watch_quotes` (a replay
        sends without pause, so a silent one has lost its connection too).
        """
        request = stream_pb2.ReplayDayRequest(date=day(trading_day), symbols=list(symbols), kinds=list(kinds))
        return self._stream("StreamService.ReplayDay", request, cursor, resume, idle_timeout, ends=True)

    # Dashboard: the caller's runs and orders ------------------------------------------

    def runs(self, *, tag: str | None = None, page_size: int = 0) -> Iterator[dashboard_pb2.Run]:
        """The caller's runs, newest first, page by page."""
        request = dashboard_pb2.ListRunsRequest(tag=tag or "", page_size=page_size)
        return self.paginate("DashboardService.ListRuns", request, "runs")

    def create_run(
        self,
        start: datetime,
        end: datetime,
        *,
        name: str | None = None,
        tags: Iterable[str] = (),
    ) -> dashboard_pb2.Run:
        """Creates a run covering [start, end]."""
        request = dashboard_pb2.CreateRunRequest(
            start_datetime=wall_clock(start),
            end_datetime=wall_clock(end),
            timezone=WIRE_TIMEZONE,
            name=name or "",
            tags=list(tags),
        )
        return self._call("DashboardService.CreateRun", request, dashboard_pb2.Run)

    def update_run(
        self,
        run_id: str,
        *,
        completed: bool | None = None,
        name: str | None = None,
        tags: Iterable[str] | None = None,
    ) -> dashboard_pb2.Run:
        """Changes only the fields given (``name=""`` clears the name,
        ``tags=[]`` the tags) and returns the run."""
        update = dashboard_pb2.RunUpdate()
        mask = field_mask_pb2.FieldMask()
        if completed is not None:
            update.completed = completed
            mask.paths.append("completed")
        if name is not None:
            update.name = name
            mask.paths.append("name")
        if tags is not None:
            update.tags.extend(tags)
            mask.paths.append("tags")
        request = dashboard_pb2.UpdateRunRequest(run_id=run_id, run=update, update_mask=mask)
        return self._call("DashboardService.UpdateRun", request, dashboard_pb2.Run)

    def delete_run(self, run_id: str) -> None:
        """Deletes a run and its orders."""
        self._call("DashboardService.DeleteRun", dashboard_pb2.DeleteRunRequest(run_id=run_id))

    def orders(
        self,
        run_id: str,
        *,
        target_gain_percentage: float | None = None,
        page_size: int = 0,
    ) -> Iterator[dashboard_pb2.Order]:
        """A run's orders ascending by time, each with its outcome, page by page."""
        request = dashboard_pb2.ListOrdersRequest(run_id=run_id, page_size=page_size)
        if target_gain_percentage is not None:
            request.target_gain_percentage = target_gain_percentage
        return self.paginate("DashboardService.ListOrders", request, "orders")

    def create_order(
        self,
        run_id: str,
        symbol: str,
        at: datetime,
        *,
        entry_price: float,
        stop_loss_price: float,
        take_profit_price: float,
    ) -> dashboard_pb2.Order:
        """Adds an order placed at ``at`` to a run."""
        request = dashboard_pb2.CreateOrderRequest(
            run_id=run_id,
            nse_symbol=symbol,
            entry_price=entry_price,
            stop_loss_price=stop_loss_price,
            take_profit_price=take_profit_price,
            datetime=wall_clock(at),
            timezone=WIRE_TIMEZONE,
        )
        return self._call("DashboardService.CreateOrder", request, dashboard_pb2.Order)

    def snapshot_times(self, trading_day: date) -> list[datetime]:
        """The instants of ``trading_day``'s shortlist snapshots, ascending."""
        answer = self._call(
            "DashboardService.ListAvailableDatetimes",
            dashboard_pb2.ListAvailableDatetimesRequest(date=day(trading_day)),
            dashboard_pb2.ListAvailableDatetimesResponse,
        )
        wanted = day(trading_day)
        return [to_datetime(ts) for d in answer.dates if d.date == wanted for ts in d.timestamps]

    # Admin and health -------------------------------------------------------------------

    def create_developer(self, username: str, *, role: str = "developer") -> market_pb2.Developer:
        """Creates a developer (admin token needed); its ``token`` is in the
        answer, this once."""
        request = admin_pb2.CreateDeveloperRequest(username=username, role=role)
        return self._call("AdminService.CreateDeveloper", request, market_pb2.Developer)

    def health(self) -> health_pb2.HealthCheckResponse:
        """The service's health (no token needed). A service that cannot reach
        its database answers 503, raised as ``MdcError`` after the retries."""
        return self._call("HealthService.Check", health_pb2.HealthCheckRequest(), health_pb2.HealthCheckResponse)

    # Plumbing ------------------------------------------------------------------------------

    def _call_headers(self) -> dict[str, str]:
        return {**self._headers, **self._clock.get()}

    def _stream(
        self,
        method: str,
        request: message.Message,
        cursor: str | None,
        resume: bool,
        idle_timeout: float | None,
        *,
        ends: bool,
    ) -> EventStream:
        """Opens a streaming RPC with the headers in force now. Every wait
        for the answer's next bytes (heartbeats included) may take up to
        ``idle_timeout`` seconds; past that the stream reconnects."""
        if idle_timeout is not None and not idle_timeout > 0:
            raise ValueError("idle_timeout must be > 0 seconds, or None")
        rpc = find_method(method)
        headers = self._call_headers()

        def open_from(at: str | None) -> httpx.Response:
            sent = type(request)()
            sent.CopyFrom(request)
            setattr(sent, "cursor", at or "")
            return self._transport.open_stream(rpc, sent, headers, read_timeout=idle_timeout)

        retry = self._retry if resume else None
        return EventStream(open_from, cursor=cursor, ends=ends, retry=retry, idle_timeout=idle_timeout)

    def _call(self, method: str, request: message.Message, answer: type[M] | None = None) -> M:
        response = self.call(method, request)
        if answer is not None and not isinstance(response, answer):
            raise TypeError(f"{method} answered {type(response).__name__}, not {answer.__name__}")
        return response  # type: ignore[return-value]


def _message(cls: type[M], value: M | Mapping[str, Any]) -> M:
    """``value`` itself, or the message its JSON form (a dict) describes.

    Unknown keys are ignored, as the server ignores them: a collector can
    pass an upstream payload that grew new fields.
    """
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        try:
            return json_format.ParseDict(dict(value), cls(), ignore_unknown_fields=True)
        except json_format.ParseError as exc:
            raise ValueError(f"not a {cls.DESCRIPTOR.name} in JSON form: {exc}") from exc
    raise TypeError(f"expected {cls.__name__} or a dict, got {type(value).__name__}")


def _set_instant(request: message.Message, field: str, moment: datetime | None) -> None:
    """Sets ``field`` and ``timezone`` of a read request from an aware datetime."""
    if moment is None:
        return
    setattr(request, field, wall_clock(moment))
    setattr(request, "timezone", WIRE_TIMEZONE)

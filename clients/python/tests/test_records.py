"""The records, their inputs and their tables (no server): each record
matches its message of the contract, the Literal names match the proto enums,
the input TypedDicts match the records, a null or absent number is None and
NaN, never 0.0."""

from __future__ import annotations

import dataclasses
import typing
from datetime import UTC, date, datetime, time

import pytest
from google.protobuf import descriptor_pool, json_format
from mdc.v1 import market_pb2, stream_pb2

import mdc
import mdc.admin
import mdc.coverage
import mdc.market
import mdc.runs
from mdc import inputs
from mdc.convert import from_message, record_hints, unwrap_optional
from mdc.frames import columns
from mdc.methods import load_generated_modules

RECORDS = [
    value
    for module in (mdc.market, mdc.runs, mdc.admin, mdc.coverage)
    for value in vars(module).values()
    if isinstance(value, type) and issubclass(value, mdc.Record) and value.__module__ == module.__name__
]


def message_of(record_type: type[mdc.Record]) -> typing.Any:
    load_generated_modules()
    return descriptor_pool.Default().FindMessageTypeByName(record_type.MESSAGE)


def test_every_record_is_exported() -> None:
    assert len(RECORDS) == 26
    assert all(getattr(mdc, r.__name__) is r for r in RECORDS)


@pytest.mark.parametrize("record_type", RECORDS, ids=lambda r: r.__name__)
def test_a_record_has_every_field_of_its_message(record_type: type[mdc.Record]) -> None:
    desc = message_of(record_type)
    fields = {f.name: f for f in dataclasses.fields(record_type)}  # type: ignore[arg-type]
    oneofs = {name for name, f in fields.items() if "oneof" in f.metadata}
    assert set(fields) - oneofs == set(desc.fields_by_name), f"{record_type.__name__} and {desc.full_name} differ"
    for oneof in oneofs:
        assert fields[oneof].metadata["oneof"] in desc.oneofs_by_name
    hints = record_hints(record_type)
    for field in desc.fields:
        _, optional = unwrap_optional(hints[field.name])
        if field.has_presence and field.message_type is None:  # proto3 optional: null on the wire is None
            assert optional, f"{record_type.__name__}.{field.name} may be absent: type it X | None"


def test_the_literal_names_are_the_proto_enums() -> None:
    def names(enum: typing.Any) -> set[str]:
        return {v.name for v in enum.DESCRIPTOR.values if not v.name.endswith("_UNSPECIFIED")}

    from mdc.v1 import health_pb2

    assert set(typing.get_args(mdc.ShortlistType)) == names(market_pb2.ShortlistType)
    assert set(typing.get_args(mdc.Scope)) == names(market_pb2.Scope)
    assert set(typing.get_args(mdc.QuoteStatus)) == names(market_pb2.QuoteStatus)
    assert set(typing.get_args(mdc.ServingStatus)) == names(health_pb2.HealthCheckResponse.ServingStatus)
    assert set(typing.get_args(mdc.EventKind)) == {
        f.name for f in stream_pb2.MarketEvent.DESCRIPTOR.oneofs_by_name["record"].fields}


@pytest.mark.parametrize(
    ("typed_dict", "record_type"),
    [
        (inputs.OhlcDict, mdc.Ohlc),
        (inputs.DepthLevelDict, mdc.DepthLevel),
        (inputs.DepthDict, mdc.Depth),
        (inputs.QuotePayloadDict, mdc.QuotePayload),
        (inputs.QuoteDataDict, mdc.QuoteData),
        (inputs.ShortlistEntryDict, mdc.ShortlistEntry),
    ],
    ids=lambda t: t.__name__,
)
def test_an_input_dict_has_the_keys_of_its_record(typed_dict: typing.Any, record_type: type[mdc.Record]) -> None:
    assert list(typing.get_type_hints(typed_dict)) == [f.name for f in dataclasses.fields(record_type)]  # type: ignore[arg-type]


def parse(json: str, message: typing.Any) -> typing.Any:
    return json_format.Parse(json, message, ignore_unknown_fields=True)


def test_null_and_absent_numbers_are_none_not_zero() -> None:
    answer = parse(
        '{"timestamp": "2025-01-02T05:00:00Z", "nseSymbol": "TCS", "quoteData": {"status": "SUCCESS",'
        ' "payload": {"volume": null, "day_change": 0, "ohlc": {"open": 1}}}}',
        market_pb2.StockQuote(),
    )
    quote = from_message(mdc.StockQuote, answer)
    assert quote.timestamp == datetime(2025, 1, 2, 5, 0, tzinfo=UTC) and quote.timestamp.tzinfo is UTC
    assert quote.payload.volume is None and quote.payload.last_price is None  # null, absent
    assert quote.payload.day_change == 0.0  # a real zero stays zero
    assert quote.payload.ohlc == mdc.Ohlc(open=1.0) and quote.payload.depth is None
    assert repr(quote) == (
        "StockQuote(timestamp=2025-01-02 05:00:00+00:00, nse_symbol='TCS', quote_data=QuoteData("
        "status='SUCCESS', payload=QuotePayload(day_change=0.0, ohlc=Ohlc(open=1.0))))"
    )

    frame = mdc.Records(mdc.StockQuote, [quote]).to_pandas()
    assert frame["volume"].isna().all() and frame["last_price"].isna().all()
    assert frame["day_change"].tolist() == [0.0] and frame["ohlc_open"].tolist() == [1.0]
    polars_frame = mdc.Records(mdc.StockQuote, [quote]).to_polars()
    assert polars_frame["volume"].to_list() == [None] and polars_frame["day_change"].to_list() == [0.0]


def test_strings_typed_as_dates_and_times_are_parsed() -> None:
    session = from_message(mdc.Holiday, market_pb2.Holiday(date="2031-11-02", name="Muhurat",
                                                            session_open="18:00", session_close="19:15"))
    assert session == mdc.Holiday(date=date(2031, 11, 2), name="Muhurat",
                                  session_open=time(18, 0), session_close=time(19, 15))
    holiday = from_message(mdc.Holiday, market_pb2.Holiday(date="2031-10-02"))
    assert holiday.session_open is None and holiday.session_close is None


def test_a_table_has_its_columns_even_when_empty_and_a_tz_aware_index() -> None:
    empty = mdc.Records(mdc.Candle).to_pandas()
    assert list(empty.columns) == ["open", "high", "low", "close", "volume", "symbol"] and empty.index.name == "time"
    assert mdc.Records(mdc.Candle).to_polars().columns == ["time", "open", "high", "low", "close", "volume", "symbol"]
    candle = mdc.Candle(time=datetime(2025, 1, 2, 3, 45, tzinfo=UTC), open=1, high=2, low=0.5, close=1.5, volume=10)
    frame = mdc.Records(mdc.Candle, [candle]).to_pandas(tz=mdc.IST)
    assert str(frame.index.dtype) == "datetime64[us, Asia/Kolkata]" and frame.index[0].strftime("%H:%M") == "09:15"
    in_ist = mdc.Records(mdc.Candle, [candle]).to_polars(tz="Asia/Kolkata")
    assert in_ist["time"].dt.hour().to_list() == [9]


def test_nested_records_flatten_into_prefixed_or_inline_columns() -> None:
    order = [c.name for c in columns(mdc.Order)]
    assert order[:8] == ["id", "run_id", "nse_symbol", "entry_price", "stop_loss_price", "take_profit_price",
                         "time", "created_time"]
    assert "outcome_target_price" in order and "outcome_minutes_to_target" in order
    nifty = [c.name for c in columns(mdc.NiftyQuote)]
    # The index's own day change keeps its name; its payload's gets a prefix.
    assert nifty[:4] == ["timestamp", "day_change_perc", "status", "last_price"]
    assert "quote_data_day_change_perc" in nifty
    events = [c.name for c in columns(mdc.MarketEvent)]
    assert events[:4] == ["cursor", "kind", "timestamp", "nse_symbol"]
    assert len(events) == len(set(events)) and {"shortlist_type", "entries", "depth_buy"} <= set(events)


def test_records_are_frozen_hashable_and_compare_to_lists() -> None:
    entry = mdc.ShortlistEntry(nse_symbol="TCS", price=1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.price = 2.0  # type: ignore[misc]
    listed = mdc.Records(mdc.ShortlistEntry, [entry, entry])
    assert listed == [entry, entry] and listed[1:] == [entry] and len({listed, listed}) == 1
    many = mdc.Records(mdc.ShortlistEntry, [entry] * 12)
    assert repr(many).endswith(", ... (2 more)]")

"""The closed sets of names of the API, as ``Literal`` types: a misspelled
name is a mypy error where it is written, and a plain string everywhere else
(printing, comparing, a DataFrame column).

The names of the proto enums are the contract's; ``tests/test_records.py``
fails when one of these lists and its enum in ``proto/mdc/v1`` differ.
"""

from __future__ import annotations

from typing import Literal

#: ``mdc.v1.ShortlistType``: the ranking a shortlist snapshot records.
ShortlistType = Literal["TOP_GAINERS", "VOLUME_SHOCKERS"]

#: ``mdc.v1.Scope``: how much of the ranking a snapshot holds (TOP_5 when
#: not given).
Scope = Literal["TOP_5", "FULL"]

#: ``mdc.v1.QuoteStatus``: whether the collector's upstream call succeeded.
QuoteStatus = Literal["SUCCESS", "FAILURE"]

#: ``mdc.v1.HealthCheckResponse.ServingStatus``.
ServingStatus = Literal["SERVING", "NOT_SERVING"]

#: A candle interval (docs/api.md section 6).
Interval = Literal[
    "1minute", "2minute", "3minute", "5minute", "10minute", "15minute", "30minute",
    "1hour", "4hour", "1day", "1week", "1month",
]

#: What an adjusted read applies (docs/api.md section 13.4): ``"raw"``
#: (what was stored), ``"split"`` (splits, bonuses, consolidations) or
#: ``"all"`` (also dividends and rights issues).
Adjustment = Literal["raw", "split", "all"]

#: The kind of a corporate action (docs/api.md section 13.3).
CorporateActionKind = Literal["split", "bonus", "consolidation", "dividend", "rights"]

#: Which of NSE's instrument files an import reads (docs/api.md section
#: 13.2): ``EQUITY_L.csv`` or the symbol-change list.
InstrumentFile = Literal["equity_list", "symbol_changes"]

#: What a day replay may select (``ReplayDayRequest.kinds``).
ReplayKind = Literal["quotes", "nifty", "shortlists"]

#: Which record a stream event carries (the ``record`` oneof of
#: ``mdc.v1.MarketEvent``).
EventKind = Literal["quote", "nifty", "shortlist"]

#: A developer's role.
Role = Literal["developer", "admin"]

#: What an export reads (docs/api.md section 11): its route's last segment.
ExportKind = Literal["quotes", "nifty", "shortlists", "candles"]

#: The file format of an export.
ExportFormat = Literal["parquet", "csv", "ndjson"]

"""Records of the security master and corporate actions (docs/api.md
section 13, ``proto/mdc/v1/developer.proto`` and ``admin.proto``):
instruments with their symbol over time, corporate actions with their
adjustment factors, and what an import of one of NSE's files did."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from mdc.record import Record, Records


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class InstrumentSymbol(Record):
    """One period of an instrument's symbol: from ``valid_from`` (inclusive)
    to ``valid_to`` (exclusive; None for the current symbol)."""

    MESSAGE = "mdc.v1.InstrumentSymbol"

    symbol: str
    valid_from: date
    valid_to: date | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Instrument(Record):
    """An instrument of the security master, identified by its ISIN."""

    MESSAGE = "mdc.v1.InstrumentInfo"

    isin: str
    #: Its symbol on the day asked for; "" before its listing.
    symbol: str
    name: str
    series: str
    #: None when NSE gives none.
    listing_date: date | None
    face_value: float | None
    market_lot: int | None
    paid_up_value: float | None
    #: Every symbol it has had, ascending.
    symbols: Records[InstrumentSymbol]


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class CorporateAction(Record):
    """A split, bonus, consolidation, dividend or rights issue, with the
    factors an adjusted read multiplies earlier prices and volumes by."""

    MESSAGE = "mdc.v1.CorporateActionInfo"

    isin: str
    #: The first trading day without the entitlement.
    ex_date: date
    #: "split", "bonus", "consolidation", "dividend" or "rights".
    kind: str
    #: The part of NSE's PURPOSE it was read from.
    description: str
    #: Bonus and rights a:b: a (0 otherwise).
    new_shares: float
    #: Bonus and rights a:b: b (0 otherwise).
    held_shares: float
    #: Split and consolidation: face values before and after (0 otherwise).
    old_face_value: float
    new_face_value: float
    #: Dividend: rupees a share; rights: the price of a new share.
    amount: float
    #: None for a dividend or rights issue without a stored close before
    #: its ex-date (it is then not applied).
    price_factor: float | None
    volume_factor: float | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class ImportedRow(Record):
    """A row of an imported file that was rejected or passed over."""

    MESSAGE = "mdc.v1.ImportedRowNote"

    #: 1-based; the header is line 1.
    line: int
    #: Why, naming the column.
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class CorporateActionEntry(Record):
    """What an admin's entry of one corporate action did (docs/api.md
    section 13.7): the action as stored and whether it is new (False: the
    same action was stored already, nothing changed)."""

    MESSAGE = "mdc.v1.CreateCorporateActionResponse"

    action: CorporateAction
    created: bool


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class FileImportResult(Record):
    """What an import of NSE's equity list, symbol changes or corporate
    actions did: rows imported (added or changed something), unchanged
    (stored so already), rejected (with line and reason) and, for corporate
    actions, ignored (no price effect, such as an AGM)."""

    MESSAGE = "mdc.v1.ImportFileResponse"

    #: "equity_list", "symbol_changes" or "corporate_actions".
    kind: str
    imported: int
    unchanged: int
    rejected: Records[ImportedRow]
    ignored: Records[ImportedRow]

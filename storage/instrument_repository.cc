#include "storage/instrument_repository.h"

#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/time.h"

namespace mdc::storage {
namespace {

constexpr Oid kPgDateOid = 1082;
constexpr Oid kPgInt4Oid = 23;

// Imports serialise on this lock; reads are not blocked by it.
constexpr char kLockMaster[] =
    "LOCK TABLE instruments IN SHARE ROW EXCLUSIVE MODE";

constexpr Statement kAllInstruments{
    "instruments_all",
    "SELECT isin, name, series, listing_date, paid_up_value, market_lot, "
    "face_value FROM instruments"};
constexpr Statement kAllSymbols{
    "instrument_symbols_all",
    "SELECT isin, symbol, valid_from FROM instrument_symbols "
    "ORDER BY isin, valid_from"};
constexpr Statement kUpsertInstrument{
    "instruments_upsert",
    "INSERT INTO instruments (isin, name, series, listing_date, "
    "paid_up_value, market_lot, face_value) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (isin) DO UPDATE SET "
    "name = EXCLUDED.name, series = EXCLUDED.series, "
    "listing_date = EXCLUDED.listing_date, "
    "paid_up_value = EXCLUDED.paid_up_value, "
    "market_lot = EXCLUDED.market_lot, face_value = EXCLUDED.face_value"};
constexpr Statement kDeleteSymbols{
    "instrument_symbols_delete",
    "DELETE FROM instrument_symbols WHERE isin = $1"};
constexpr Statement kInsertSymbols{
    "instrument_symbols_insert",
    "INSERT INTO instrument_symbols (isin, symbol, valid_from) "
    "SELECT $1, s, d FROM unnest($2::text[], $3::date[]) AS t (s, d)"};
constexpr Statement kInsertAction{
    "corporate_actions_insert",
    "INSERT INTO corporate_actions (isin, ex_date, kind, description, "
    "ratio_a, ratio_b, amount, symbol) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING"};

constexpr Statement kActionNumbers{
    "corporate_action_numbers",
    "SELECT ratio_a, ratio_b, amount FROM corporate_actions "
    "WHERE isin = $1 AND ex_date = $2 AND kind = $3 AND description = $4"};

constexpr Statement kInstrumentsByIsin{
    "instruments_by_isin",
    "SELECT isin, name, series, listing_date, paid_up_value, market_lot, "
    "face_value FROM instruments WHERE isin = $1"};
constexpr Statement kInstrumentsBySymbol{
    "instruments_by_symbol",
    "SELECT isin, name, series, listing_date, paid_up_value, market_lot, "
    "face_value FROM instruments WHERE isin IN "
    "(SELECT isin FROM instrument_symbols WHERE symbol = $1) "
    "ORDER BY isin LIMIT $2"};
constexpr Statement kInstrumentsByPrefix{
    "instruments_by_prefix",
    "SELECT isin, name, series, listing_date, paid_up_value, market_lot, "
    "face_value FROM instruments "
    "WHERE starts_with(upper(name), upper($1)) ORDER BY isin LIMIT $2"};
constexpr Statement kSymbolsOf{
    "instrument_symbols_of",
    "SELECT isin, symbol, valid_from FROM instrument_symbols "
    "WHERE isin = ANY($1) ORDER BY isin, valid_from"};
constexpr Statement kLatestIsinOfSymbol{
    "instrument_symbols_latest_isin",
    "SELECT isin FROM instrument_symbols WHERE symbol = $1 "
    "ORDER BY valid_from DESC LIMIT 1"};
constexpr Statement kActions{
    "corporate_actions_of",
    "SELECT isin, ex_date, kind, description, ratio_a, ratio_b, amount "
    "FROM corporate_actions WHERE isin = $1 AND ex_date BETWEEN $2 AND $3 "
    "ORDER BY ex_date, kind, description"};

domain::Instrument ReadInstrument(const Result& r, int row) {
  domain::Instrument i;
  i.isin = r.String(row, 0);
  i.name = r.String(row, 1);
  i.series = r.String(row, 2);
  if (!r.IsNull(row, 3)) i.listing_date = r.Date(row, 3);
  i.paid_up_value = r.OptionalDouble(row, 4);
  if (!r.IsNull(row, 5)) i.market_lot = static_cast<int>(r.Int64(row, 5));
  i.face_value = r.OptionalDouble(row, 6);
  return i;
}

Params InstrumentParams(const domain::Instrument& i) {
  Params p;
  p.Text(i.isin).Text(i.name).Text(i.series);
  if (i.listing_date.has_value()) {
    p.Date(*i.listing_date);
  } else {
    p.Null(kPgDateOid);
  }
  p.OptionalDouble(i.paid_up_value);
  if (i.market_lot.has_value()) {
    p.Int32(*i.market_lot);
  } else {
    p.Null(kPgInt4Oid);
  }
  p.OptionalDouble(i.face_value);
  return p;
}

absl::StatusOr<domain::SecurityMaster> LoadMaster(Connection& conn) {
  domain::SecurityMaster master;
  auto instruments = conn.Exec(kAllInstruments);
  if (!instruments.ok()) return instruments.status();
  for (int row = 0; row < instruments->rows(); ++row) {
    domain::Instrument i = ReadInstrument(*instruments, row);
    master.instruments[i.isin] = std::move(i);
  }
  auto symbols = conn.Exec(kAllSymbols);
  if (!symbols.ok()) return symbols.status();
  for (int row = 0; row < symbols->rows(); ++row) {
    master.symbols[symbols->String(row, 0)].push_back(
        {symbols->String(row, 1), symbols->Date(row, 2)});
  }
  return master;
}

// Writes the instruments and symbol histories of `after` that differ from
// `before`.
absl::Status WriteChanges(Connection& conn,
                          const domain::SecurityMaster& before,
                          const domain::SecurityMaster& after) {
  for (const auto& [isin, instrument] : after.instruments) {
    auto old = before.instruments.find(isin);
    if (old != before.instruments.end() && old->second == instrument) continue;
    auto written = conn.Exec(kUpsertInstrument, InstrumentParams(instrument));
    if (!written.ok()) return written.status();
  }
  for (const auto& [isin, history] : after.symbols) {
    auto old = before.symbols.find(isin);
    if (old != before.symbols.end() && old->second == history) continue;
    auto deleted = conn.Exec(kDeleteSymbols, Params().Text(isin));
    if (!deleted.ok()) return deleted.status();
    std::vector<std::string> symbols;
    std::vector<absl::CivilDay> days;
    for (const auto& period : history) {
      symbols.push_back(period.symbol);
      days.push_back(period.valid_from);
    }
    auto inserted = conn.Exec(
        kInsertSymbols, Params().Text(isin).TextArray(symbols).DateArray(days));
    if (!inserted.ok()) return inserted.status();
  }
  return absl::OkStatus();
}

// Runs `merge` over the master under its lock and writes what it changed.
template <typename Merge>
absl::StatusOr<domain::ImportOutcome> MergeMaster(ConnectionPool& pool,
                                                  Merge merge) {
  domain::ImportOutcome outcome;
  absl::Status done = pool.InTransaction([&](Connection& conn) -> absl::Status {
    if (auto locked = conn.ExecScript(kLockMaster); !locked.ok()) {
      return locked.status();
    }
    auto before = LoadMaster(conn);
    if (!before.ok()) return before.status();
    domain::SecurityMaster after = *before;
    outcome = merge(after);
    return WriteChanges(conn, *before, after);
  });
  if (!done.ok()) return done;
  return outcome;
}

absl::StatusOr<std::vector<InstrumentRecord>> WithSymbols(Connection& conn,
                                                          const Result& rows) {
  std::vector<InstrumentRecord> records;
  std::map<std::string, size_t> index;
  std::vector<std::string> isins;
  for (int row = 0; row < rows.rows(); ++row) {
    InstrumentRecord record;
    record.instrument = ReadInstrument(rows, row);
    index[record.instrument.isin] = records.size();
    isins.push_back(record.instrument.isin);
    records.push_back(std::move(record));
  }
  if (records.empty()) return records;
  auto symbols = conn.Exec(kSymbolsOf, Params().TextArray(isins));
  if (!symbols.ok()) return symbols.status();
  for (int row = 0; row < symbols->rows(); ++row) {
    records[index[symbols->String(row, 0)]].symbols.push_back(
        {symbols->String(row, 1), symbols->Date(row, 2)});
  }
  return records;
}

}  // namespace

absl::StatusOr<domain::ImportOutcome> InstrumentRepository::ImportEquityList(
    const std::vector<domain::EquityListEntry>& rows) {
  return MergeMaster(pool_, [&](domain::SecurityMaster& master) {
    return domain::MergeEquityList(master, rows);
  });
}

absl::StatusOr<domain::ImportOutcome> InstrumentRepository::ImportSymbolChanges(
    const std::vector<domain::SymbolChange>& rows) {
  return MergeMaster(pool_, [&](domain::SecurityMaster& master) {
    return domain::ApplySymbolChanges(master, rows);
  });
}

absl::StatusOr<domain::ImportOutcome>
InstrumentRepository::ImportCorporateActions(
    const std::vector<domain::CorporateActionRow>& rows) {
  domain::ImportOutcome outcome;
  absl::Status done =
      pool_.InTransaction([&](Connection& conn) -> absl::Status {
        outcome = domain::ImportOutcome();
        if (auto locked = conn.ExecScript(kLockMaster); !locked.ok()) {
          return locked.status();
        }
        auto master = LoadMaster(conn);
        if (!master.ok()) return master.status();
        for (const domain::CorporateActionRow& row : rows) {
          auto isin = domain::IsinOfSymbolOn(*master, row.symbol, row.ex_date);
          if (!isin.has_value()) {
            outcome.rejected.push_back(
                {row.line,
                 absl::StrCat("SYMBOL: ", row.symbol,
                              " is the symbol of no known instrument "
                              "on its EX-DATE; import the equity list "
                              "and symbol changes first")});
            continue;
          }
          int64_t inserted = 0;
          for (const domain::CorporateAction& action : row.actions) {
            auto written = conn.Exec(
                kInsertAction, Params()
                                   .Text(*isin)
                                   .Date(action.ex_date)
                                   .Text(domain::ActionKindName(action.kind))
                                   .Text(action.description)
                                   .Double(action.ratio_a)
                                   .Double(action.ratio_b)
                                   .Double(action.amount)
                                   .Text(row.symbol));
            if (!written.ok()) return written.status();
            inserted += written->affected_rows();
          }
          if (inserted > 0) {
            ++outcome.imported;
          } else {
            ++outcome.unchanged;
          }
        }
        return absl::OkStatus();
      });
  if (!done.ok()) return done;
  return outcome;
}

absl::StatusOr<bool> InstrumentRepository::EnterAction(
    const std::string& isin, const std::string& symbol,
    const domain::CorporateAction& action) {
  bool created = false;
  absl::Status done =
      pool_.InTransaction([&](Connection& conn) -> absl::Status {
        const std::string kind(domain::ActionKindName(action.kind));
        auto written = conn.Exec(kInsertAction, Params()
                                                    .Text(isin)
                                                    .Date(action.ex_date)
                                                    .Text(kind)
                                                    .Text(action.description)
                                                    .Double(action.ratio_a)
                                                    .Double(action.ratio_b)
                                                    .Double(action.amount)
                                                    .Text(symbol));
        if (!written.ok()) return written.status();
        created = written->affected_rows() > 0;
        if (created) return absl::OkStatus();
        // Its key was taken: the same action again, or another one.
        auto stored = conn.Exec(kActionNumbers, Params()
                                                    .Text(isin)
                                                    .Date(action.ex_date)
                                                    .Text(kind)
                                                    .Text(action.description));
        if (!stored.ok()) return stored.status();
        if (stored->rows() == 1 && stored->Double(0, 0) == action.ratio_a &&
            stored->Double(0, 1) == action.ratio_b &&
            stored->Double(0, 2) == action.amount) {
          return absl::OkStatus();
        }
        return absl::FailedPreconditionError(absl::StrCat(
            "a ", kind, " of ", isin, " ex ",
            domain::FormatDate(action.ex_date), " described \"",
            action.description,
            "\" is stored with other numbers; to enter a second one, "
            "give another description"));
      });
  if (!done.ok()) return done;
  return created;
}

absl::StatusOr<std::vector<InstrumentRecord>> InstrumentRepository::List(
    const InstrumentQuery& query, int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  absl::StatusOr<Result> rows = absl::InvalidArgumentError("no query");
  if (!query.isin.empty()) {
    rows = (*conn)->Exec(kInstrumentsByIsin, Params().Text(query.isin));
  } else if (!query.symbol.empty()) {
    rows = (*conn)->Exec(kInstrumentsBySymbol,
                         Params().Text(query.symbol).Int32(limit));
  } else {
    rows = (*conn)->Exec(kInstrumentsByPrefix,
                         Params().Text(query.prefix).Int32(limit));
  }
  if (!rows.ok()) return rows.status();
  return WithSymbols(**conn, *rows);
}

absl::StatusOr<std::optional<InstrumentRecord>>
InstrumentRepository::FindBySymbol(const std::string& symbol) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto isin = (*conn)->Exec(kLatestIsinOfSymbol, Params().Text(symbol));
  if (!isin.ok()) return isin.status();
  if (isin->rows() == 0) return std::optional<InstrumentRecord>();
  auto rows =
      (*conn)->Exec(kInstrumentsByIsin, Params().Text(isin->String(0, 0)));
  if (!rows.ok()) return rows.status();
  auto records = WithSymbols(**conn, *rows);
  if (!records.ok()) return records.status();
  if (records->empty()) return std::optional<InstrumentRecord>();
  return std::optional<InstrumentRecord>(std::move(records->front()));
}

absl::StatusOr<std::vector<domain::CorporateAction>>
InstrumentRepository::Actions(const std::string& isin, absl::CivilDay first,
                              absl::CivilDay last) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto rows =
      (*conn)->Exec(kActions, Params().Text(isin).Date(first).Date(last));
  if (!rows.ok()) return rows.status();
  std::vector<domain::CorporateAction> actions;
  for (int row = 0; row < rows->rows(); ++row) {
    domain::CorporateAction a;
    a.isin = rows->String(row, 0);
    a.ex_date = rows->Date(row, 1);
    a.kind = domain::ParseActionKind(rows->String(row, 2))
                 .value_or(domain::ActionKind::kDividend);
    a.description = rows->String(row, 3);
    a.ratio_a = rows->Double(row, 4);
    a.ratio_b = rows->Double(row, 5);
    a.amount = rows->Double(row, 6);
    actions.push_back(std::move(a));
  }
  return actions;
}

}  // namespace mdc::storage

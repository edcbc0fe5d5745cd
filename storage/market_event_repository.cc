#include "storage/market_event_repository.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "domain/market_enums.h"
#include "storage/compacted_nifty.h"
#include "storage/compacted_nifty_fast.h"
#include "storage/compacted_reads_fast.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"

namespace mdc::storage {
namespace {

// The horizon of a read: every transaction with a smaller id has ended, so
// records with txid below it are final (migration 0009).
#define MDC_HORIZON                                                            \
  "WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS " \
  "x) "

constexpr Statement kLatestPosition{
    "market_events_latest_position", MDC_HORIZON
    "SELECT txid::text::int8, seq FROM ("
    "(SELECT txid, seq FROM stock_quotes WHERE txid < (SELECT x FROM h) "
    "ORDER BY txid DESC, seq DESC LIMIT 1) "
    "UNION ALL (SELECT txid, seq FROM nifty_quotes "
    "WHERE txid < (SELECT x FROM h) ORDER BY txid DESC, seq DESC LIMIT 1) "
    "UNION ALL (SELECT txid, seq FROM shortlist_snapshots "
    "WHERE txid < (SELECT x FROM h) ORDER BY txid DESC, seq DESC LIMIT 1) "
    "UNION ALL SELECT '0'::xid8, 0) p ORDER BY 1 DESC, 2 DESC LIMIT 1"};

// Columns of every record read by position: txid, seq, kind
// (domain::RecordKind), observed_at, key1, key2, payload, day_change_perc.
// Each part is limited on its own, so each is a short range of its (txid,
// seq) index. The last row, kind -1 and nothing else, is there only when
// committed records wait behind the horizon.
#define MDC_AFTER "(txid, seq) > ($1::text::xid8, $2) "
constexpr Statement kListCommitted{
    "market_events_committed", MDC_HORIZON
    "SELECT * FROM ("
    "(SELECT txid::text::int8 AS t, seq, 1 AS kind, observed_at, "
    "nse_symbol AS key1, ''::text AS key2, quote_data AS payload, "
    "NULL::float8 AS day_change_perc FROM stock_quotes WHERE " MDC_AFTER
    "AND txid < (SELECT x FROM h) ORDER BY txid, seq LIMIT $3) "
    "UNION ALL (SELECT txid::text::int8, seq, 0, observed_at, '', '', "
    "quote_data, day_change_perc FROM nifty_quotes WHERE " MDC_AFTER
    "AND txid < (SELECT x FROM h) ORDER BY txid, seq LIMIT $3) "
    "UNION ALL (SELECT txid::text::int8, seq, 2, observed_at, shortlist_type, "
    "scope, entries, NULL FROM shortlist_snapshots WHERE " MDC_AFTER
    "AND txid < (SELECT x FROM h) ORDER BY txid, seq LIMIT $3) "
    "ORDER BY 1, 2 LIMIT $3) e "
    "UNION ALL SELECT NULL, NULL, -1, NULL, NULL, NULL, NULL, NULL FROM h "
    "WHERE EXISTS (SELECT 1 FROM stock_quotes WHERE txid >= h.x) "
    "OR EXISTS (SELECT 1 FROM nifty_quotes WHERE txid >= h.x) "
    "OR EXISTS (SELECT 1 FROM shortlist_snapshots WHERE txid >= h.x)"};

// The durability of what a read saw (docs/deployment.md, "High
// availability"). A primary whose postmaster died can make a commit
// visible that its synchronous standby never received (the backend stops
// waiting for the standby when the postmaster dies, then ends its
// transaction): read in that moment, such a record would reach watchers
// and then vanish with the failover, and the collector's retry would send
// it a second time. So the hub delivers what a page read only once the
// synchronous standby has flushed the primary's WAL up to where it stood
// after the read, asked on the same connection: every commit visible to
// the read was flushed by then. Without synchronous_standby_names there is
// nothing to wait for.
constexpr Statement kFlushedLsn{"market_events_flushed_lsn",
                                "SELECT pg_current_wal_flush_lsn()::text"};
constexpr Statement kOnSynchronousStandby{
    "market_events_on_synchronous_standby",
    "SELECT current_setting('synchronous_standby_names') = '' OR EXISTS "
    "(SELECT 1 FROM pg_stat_replication WHERE sync_state IN ('sync', "
    "'quorum') AND flush_lsn >= $1::text::pg_lsn)"};
// How long the hub waits for the standby before giving the page up (it
// reads it again later, from the same position).
constexpr absl::Duration kDurableWait = absl::Seconds(2);

#define MDC_BETWEEN MDC_AFTER "AND (txid, seq) <= ($3::text::xid8, $4) "

constexpr Statement kQuotesSince{
    "market_events_quotes_since",
    "SELECT txid::text::int8, seq, 1, observed_at, nse_symbol, '', "
    "quote_data, NULL::float8 FROM stock_quotes WHERE " MDC_BETWEEN
    "AND nse_symbol = ANY($5) ORDER BY txid, seq LIMIT $6"};

constexpr Statement kNiftySince{
    "market_events_nifty_since",
    "SELECT txid::text::int8, seq, 0, observed_at, '', '', quote_data, "
    "day_change_perc FROM nifty_quotes WHERE " MDC_BETWEEN
    "ORDER BY txid, seq LIMIT $5"};

constexpr Statement kShortlistsSince{
    "market_events_shortlists_since",
    "SELECT txid::text::int8, seq, 2, observed_at, shortlist_type, scope, "
    "entries, NULL::float8 FROM shortlist_snapshots WHERE " MDC_BETWEEN
    "AND shortlist_type = $5 AND scope = $6 ORDER BY txid, seq LIMIT $7"};

// Replay pages, in the order of the (trading_day, observed_at, keys COLLATE
// "C") indexes. Columns: observed_at, key1, key2, payload, day_change_perc.
#define MDC_REPLAY_QUOTES                                                 \
  "SELECT observed_at, nse_symbol, '', quote_data, NULL::float8 "         \
  "FROM stock_quotes WHERE trading_day = $1 "                             \
  "AND (observed_at, nse_symbol COLLATE \"C\") > ($2, $3 COLLATE \"C\") " \
  "AND observed_at < $4 "
#define MDC_REPLAY_QUOTES_ORDER \
  "ORDER BY observed_at, nse_symbol COLLATE \"C\" LIMIT $5"

constexpr Statement kReplayQuotes{"market_events_replay_quotes",
                                  MDC_REPLAY_QUOTES MDC_REPLAY_QUOTES_ORDER};

constexpr Statement kReplayQuotesOf{
    "market_events_replay_quotes_of",
    MDC_REPLAY_QUOTES "AND nse_symbol = ANY($6) " MDC_REPLAY_QUOTES_ORDER};

constexpr Statement kReplayNifty{
    "market_events_replay_nifty",
    "SELECT observed_at, '', '', quote_data, day_change_perc "
    "FROM nifty_quotes WHERE trading_day = $1 AND observed_at > $2 "
    "AND observed_at < $3 ORDER BY observed_at LIMIT $4"};

constexpr Statement kReplayShortlists{
    "market_events_replay_shortlists",
    "SELECT observed_at, shortlist_type, scope, entries, NULL::float8 "
    "FROM shortlist_snapshots WHERE trading_day = $1 "
    "AND (observed_at, shortlist_type COLLATE \"C\", scope COLLATE \"C\") > "
    "($2, $3 COLLATE \"C\", $4 COLLATE \"C\") AND observed_at < $5 "
    "ORDER BY observed_at, shortlist_type COLLATE \"C\", scope COLLATE \"C\" "
    "LIMIT $6"};

// The columns of a record read as an event (by position or for replay),
// from `col` on: observed_at, key1, key2, payload, day_change_perc.

// A stock quote's columns but its payload: instant and symbol.
void ReadQuoteColumns(const Result& result, int row, int col,
                      v1::StockQuote& quote) {
  SetStoredTimestamp(result.Time(row, col), "stock_quotes",
                     quote.mutable_timestamp());
  const absl::string_view symbol = result.Bytes(row, col + 1);
  quote.set_nse_symbol(symbol.data(), symbol.size());
}

// A NIFTY quote's columns but its payload: instant and day change.
void ReadNiftyColumns(const Result& result, int row, int col,
                      v1::NiftyQuote& quote) {
  SetStoredTimestamp(result.Time(row, col), "nifty_quotes",
                     quote.mutable_timestamp());
  quote.set_day_change_perc(result.Double(row, col + 4));
}

absl::Status ReadShortlist(const Result& result, int row, int col,
                           v1::Shortlist& shortlist) {
  const absl::string_view entries = result.Bytes(row, col + 3);
  if (!shortlist.ParseFromArray(entries.data(),
                                static_cast<int>(entries.size()))) {
    return absl::DataLossError("stored shortlist entries are unreadable");
  }
  SetStoredTimestamp(result.Time(row, col), "shortlist_snapshots",
                     shortlist.mutable_timestamp());
  v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
  v1::Scope scope = v1::SCOPE_UNSPECIFIED;
  v1::ShortlistType_Parse(result.String(row, col + 1), &type);
  v1::Scope_Parse(result.String(row, col + 2), &scope);
  shortlist.set_shortlist_type(type);
  shortlist.set_scope(scope);
  return absl::OkStatus();
}

// Fills `event` with the record of kind `kind` whose columns start at `col`,
// its payload parsed.
absl::Status ReadRecord(const Result& result, int row, int col,
                        domain::RecordKind kind, v1::MarketEvent& event) {
  const absl::string_view payload = result.Bytes(row, col + 3);
  switch (kind) {
    case domain::RecordKind::kQuote: {
      v1::StockQuote* quote = event.mutable_quote();
      ReadQuoteColumns(result, row, col, *quote);
      if (!ParseQuoteData(payload, quote->mutable_quote_data())) {
        return absl::DataLossError("stored quote is unreadable");
      }
      return absl::OkStatus();
    }
    case domain::RecordKind::kNifty: {
      v1::NiftyQuote* quote = event.mutable_nifty();
      ReadNiftyColumns(result, row, col, *quote);
      if (!ParseQuoteData(payload, quote->mutable_quote_data())) {
        return absl::DataLossError("stored NIFTY quote is unreadable");
      }
      return absl::OkStatus();
    }
    case domain::RecordKind::kShortlist:
      return ReadShortlist(result, row, col, *event.mutable_shortlist());
  }
  return absl::InternalError("unknown record kind");
}

constexpr int kHeldBackMarker = -1;

// Rows of txid, seq, kind, then the record columns; a marker row (kind -1)
// sets `held_back` when given.
absl::StatusOr<std::vector<StreamEvent>> ReadStreamEvents(
    const Result& result, bool* held_back = nullptr) {
  std::vector<StreamEvent> events;
  events.reserve(result.rows());
  for (int row = 0; row < result.rows(); ++row) {
    const int64_t kind = result.Int64(row, 2);
    if (kind == kHeldBackMarker && held_back != nullptr) {
      *held_back = true;
      continue;
    }
    StreamEvent& out = events.emplace_back();
    out.position = {result.Int64(row, 0), result.Int64(row, 1)};
    if (auto read = ReadRecord(
            result, row, 3, static_cast<domain::RecordKind>(kind), out.event);
        !read.ok()) {
      return read;
    }
    out.event.set_cursor(domain::EncodeWatchCursor(out.position));
    out.wire_bytes = static_cast<int64_t>(out.event.ByteSizeLong());
  }
  return events;
}

Params& Position(Params& params, const domain::StreamPosition& position) {
  return params.Int64(position.txid).Int64(position.seq);
}

absl::StatusOr<std::vector<ReplayRecord>> ReadReplayRecords(
    const Result& result, domain::RecordKind kind) {
  std::vector<ReplayRecord> records(result.rows());
  for (int row = 0; row < result.rows(); ++row) {
    ReplayRecord& out = records[row];
    if (auto read = ReadRecord(result, row, 0, kind, out.event); !read.ok()) {
      return read;
    }
    out.position = {result.Time(row, 0), kind, result.String(row, 1),
                    result.String(row, 2)};
    out.event.set_cursor(domain::EncodeReplayCursor(out.position));
  }
  return records;
}

absl::StatusOr<StoredRecordPage> AsPage(absl::StatusOr<Result> rows) {
  if (!rows.ok()) return rows.status();
  return StoredRecordPage(*std::move(rows));
}

absl::StatusOr<Result> Exec(ConnectionPool& pool, const Statement& statement,
                            const Params& params) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)->Exec(statement, params);
}

}  // namespace

absl::StatusOr<domain::StreamPosition> MarketEventRepository::LatestPosition() {
  auto result = Exec(pool_, kLatestPosition, Params());
  if (!result.ok()) return result.status();
  return domain::StreamPosition{result->Int64(0, 0), result->Int64(0, 1)};
}

absl::StatusOr<CommittedPage> MarketEventRepository::ListCommitted(
    domain::StreamPosition after, int limit) {
  Params params;
  Position(params, after).Int32(limit);
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListCommitted, params);
  if (!result.ok()) return result.status();
  CommittedPage page;
  auto events = ReadStreamEvents(*result, &page.held_back);
  if (!events.ok()) return events.status();
  page.events = *std::move(events);
  if (page.events.empty()) return page;
  auto flushed = (*conn)->Exec(kFlushedLsn);
  if (!flushed.ok()) return flushed.status();
  Params lsn;
  lsn.Text(flushed->String(0, 0));
  const absl::Time deadline = absl::Now() + kDurableWait;
  absl::Duration pause = absl::Milliseconds(1);
  while (true) {
    auto durable = (*conn)->Exec(kOnSynchronousStandby, lsn);
    if (!durable.ok()) return durable.status();
    if (durable->Bool(0, 0)) return page;
    if (absl::Now() >= deadline) {
      return absl::UnavailableError(
          "records read are not on the synchronous standby yet");
    }
    absl::SleepFor(pause);
    pause = std::min(pause * 2, absl::Milliseconds(50));
  }
}

absl::StatusOr<std::vector<StreamEvent>> MarketEventRepository::ListQuotesSince(
    const std::vector<std::string>& symbols, domain::StreamPosition after,
    domain::StreamPosition up_to, int limit) {
  Params params;
  Position(Position(params, after), up_to).TextArray(symbols).Int32(limit);
  auto result = Exec(pool_, kQuotesSince, params);
  if (!result.ok()) return result.status();
  return ReadStreamEvents(*result);
}

absl::StatusOr<std::vector<StreamEvent>> MarketEventRepository::ListNiftySince(
    domain::StreamPosition after, domain::StreamPosition up_to, int limit) {
  Params params;
  Position(Position(params, after), up_to).Int32(limit);
  auto result = Exec(pool_, kNiftySince, params);
  if (!result.ok()) return result.status();
  return ReadStreamEvents(*result);
}

absl::StatusOr<std::vector<StreamEvent>>
MarketEventRepository::ListShortlistsSince(v1::ShortlistType type,
                                           v1::Scope scope,
                                           domain::StreamPosition after,
                                           domain::StreamPosition up_to,
                                           int limit) {
  Params params;
  Position(Position(params, after), up_to)
      .Text(domain::ShortlistTypeName(type))
      .Text(domain::ScopeName(domain::EffectiveScope(scope)))
      .Int32(limit);
  auto result = Exec(pool_, kShortlistsSince, params);
  if (!result.ok()) return result.status();
  return ReadStreamEvents(*result);
}

absl::StatusOr<DayPage> MarketEventRepository::QuotesPage(
    absl::CivilDay day, const std::vector<std::string>& symbols,
    const domain::KeysetBound& bound, absl::Time end, int limit) {
  Params params;
  params.Date(day).Time(bound.at).Text(bound.key1).Time(end).Int32(limit);
  if (!symbols.empty()) params.TextArray(symbols);
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return DayPageOfQuotes(**conn,
                         symbols.empty() ? kReplayQuotes : kReplayQuotesOf,
                         std::move(params), day, symbols, bound, end, limit);
}

absl::StatusOr<Result> MarketEventRepository::NiftyPage(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  // The first `limit` compacted quotes after bound.at, one more in case
  // one is at bound.at itself (storage/compacted_nifty.h).
  CompactedNiftyFilter compacted{day, day, bound.at, end};
  if (limit > 0 && limit < INT32_MAX) compacted.first_count = limit + 1;
  return NiftyPageSeeingCompacted(
      **conn, kReplayNifty,
      Params().Date(day).Time(bound.at).Time(end).Int32(limit), compacted,
      /*start=*/bound.at, bound.at, end, limit, NiftyPageColumns::kReplay);
}

absl::StatusOr<Result> MarketEventRepository::ShortlistsPage(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  return Exec(pool_, kReplayShortlists,
              Params()
                  .Date(day)
                  .Time(bound.at)
                  .Text(bound.key1)
                  .Text(bound.key2)
                  .Time(end)
                  .Int32(limit));
}

absl::StatusOr<std::vector<ReplayRecord>> MarketEventRepository::ReplayQuotes(
    absl::CivilDay day, const std::vector<std::string>& symbols,
    const domain::KeysetBound& bound, absl::Time end, int limit) {
  auto page = QuotesPage(day, symbols, bound, end, limit);
  if (!page.ok()) return page.status();
  return ReadReplayRecords(RowsOf(*std::move(page)),
                           domain::RecordKind::kQuote);
}

absl::StatusOr<std::vector<ReplayRecord>> MarketEventRepository::ReplayNifty(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  auto result = NiftyPage(day, bound, end, limit);
  if (!result.ok()) return result.status();
  return ReadReplayRecords(*result, domain::RecordKind::kNifty);
}

absl::StatusOr<std::vector<ReplayRecord>>
MarketEventRepository::ReplayShortlists(absl::CivilDay day,
                                        const domain::KeysetBound& bound,
                                        absl::Time end, int limit) {
  auto result = ShortlistsPage(day, bound, end, limit);
  if (!result.ok()) return result.status();
  return ReadReplayRecords(*result, domain::RecordKind::kShortlist);
}

absl::StatusOr<StoredRecordPage> MarketEventRepository::ExportQuotes(
    absl::CivilDay day, const std::vector<std::string>& symbols,
    const domain::KeysetBound& bound, absl::Time end, int limit) {
  auto page = QuotesPage(day, symbols, bound, end, limit);
  if (!page.ok()) return page.status();
  return StoredRecordPage(*std::move(page));
}

absl::StatusOr<StoredRecordPage> MarketEventRepository::ExportNifty(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  return AsPage(NiftyPage(day, bound, end, limit));
}

absl::StatusOr<StoredRecordPage> MarketEventRepository::ExportShortlists(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  return AsPage(ShortlistsPage(day, bound, end, limit));
}

int StoredRecordPage::size() const {
  if (const auto* quotes = std::get_if<CompactedDayPage>(&rows_)) {
    return static_cast<int>(quotes->quotes.size());
  }
  return result().rows();
}

domain::KeysetBound StoredRecordPage::BoundAfter(int row) const {
  if (const auto* quotes = std::get_if<CompactedDayPage>(&rows_)) {
    const domain::QuoteRef& ref = quotes->quotes[row];
    return {absl::FromUnixMicros(ref.quote->observed_at_us), *ref.symbol, ""};
  }
  return {result().Time(row, 0), result().String(row, 1),
          result().String(row, 2)};
}

void StoredRecordPage::CopyTo(int row, v1::StockQuote& out) const {
  // The field number from the generated code: the bytes become exactly
  // StockQuote.quote_data on the wire.
  if (const auto* quotes = std::get_if<CompactedDayPage>(&rows_)) {
    const domain::QuoteRef& ref = quotes->quotes[row];
    SetStoredTimestamp(absl::FromUnixMicros(ref.quote->observed_at_us),
                       "stock_quotes", out.mutable_timestamp());
    out.set_nse_symbol(*ref.symbol);
    ForwardQuoteData(ref.quote->quote_data,
                     v1::StockQuote::kQuoteDataFieldNumber, out);
    return;
  }
  ReadQuoteColumns(result(), row, 0, out);
  ForwardQuoteData(result().Bytes(row, 3),
                   v1::StockQuote::kQuoteDataFieldNumber, out);
}

void StoredRecordPage::CopyTo(int row, v1::NiftyQuote& out) const {
  ReadNiftyColumns(result(), row, 0, out);
  ForwardQuoteData(result().Bytes(row, 3),
                   v1::NiftyQuote::kQuoteDataFieldNumber, out);
}

absl::Status StoredRecordPage::CopyTo(int row, v1::Shortlist& out) const {
  return ReadShortlist(result(), row, 0, out);
}

}  // namespace mdc::storage

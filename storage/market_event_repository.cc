#include "storage/market_event_repository.h"

#include <string>
#include <vector>

#include "domain/market_enums.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"

namespace mdc::storage {
namespace {

constexpr Statement kLatestSeq{
    "market_events_latest_seq",
    "SELECT GREATEST((SELECT max(seq) FROM stock_quotes), "
    "(SELECT max(seq) FROM nifty_quotes), "
    "(SELECT max(seq) FROM shortlist_snapshots), 0)"};

// Columns of every record read by seq: seq, kind (domain::RecordKind),
// observed_at, key1, key2, payload, day_change_perc. Each part is limited on
// its own, so each is a short range of its seq index.
constexpr Statement kListSince{
    "market_events_since",
    "(SELECT seq, 1 AS kind, observed_at, nse_symbol AS key1, ''::text AS "
    "key2, quote_data AS payload, NULL::float8 AS day_change_perc "
    "FROM stock_quotes WHERE seq > $1 ORDER BY seq LIMIT $2) "
    "UNION ALL (SELECT seq, 0, observed_at, '', '', quote_data, "
    "day_change_perc FROM nifty_quotes WHERE seq > $1 ORDER BY seq LIMIT $2) "
    "UNION ALL (SELECT seq, 2, observed_at, shortlist_type, scope, entries, "
    "NULL FROM shortlist_snapshots WHERE seq > $1 ORDER BY seq LIMIT $2) "
    "ORDER BY seq LIMIT $2"};

constexpr Statement kQuotesSince{
    "market_events_quotes_since",
    "SELECT seq, 1, observed_at, nse_symbol, '', quote_data, NULL::float8 "
    "FROM stock_quotes WHERE seq > $1 AND seq <= $2 "
    "AND nse_symbol = ANY($3) ORDER BY seq LIMIT $4"};

constexpr Statement kNiftySince{
    "market_events_nifty_since",
    "SELECT seq, 0, observed_at, '', '', quote_data, day_change_perc "
    "FROM nifty_quotes WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3"};

constexpr Statement kShortlistsSince{
    "market_events_shortlists_since",
    "SELECT seq, 2, observed_at, shortlist_type, scope, entries, NULL::float8 "
    "FROM shortlist_snapshots WHERE seq > $1 AND seq <= $2 "
    "AND shortlist_type = $3 AND scope = $4 ORDER BY seq LIMIT $5"};

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

// Fills `event` with the record of kind `kind` whose columns start at `col`:
// observed_at, key1, key2, payload, day_change_perc.
absl::Status ReadRecord(const Result& result, int row, int col,
                        domain::RecordKind kind, v1::MarketEvent& event) {
  const absl::Time at = result.Time(row, col);
  const absl::string_view payload = result.Bytes(row, col + 3);
  switch (kind) {
    case domain::RecordKind::kQuote: {
      v1::StockQuote* quote = event.mutable_quote();
      SetStoredTimestamp(at, "stock_quotes", quote->mutable_timestamp());
      quote->set_nse_symbol(std::string(result.Bytes(row, col + 1)));
      if (!ParseQuoteData(payload, quote->mutable_quote_data())) {
        return absl::DataLossError("stored quote is unreadable");
      }
      return absl::OkStatus();
    }
    case domain::RecordKind::kNifty: {
      v1::NiftyQuote* quote = event.mutable_nifty();
      SetStoredTimestamp(at, "nifty_quotes", quote->mutable_timestamp());
      quote->set_day_change_perc(result.Double(row, col + 4));
      if (!ParseQuoteData(payload, quote->mutable_quote_data())) {
        return absl::DataLossError("stored NIFTY quote is unreadable");
      }
      return absl::OkStatus();
    }
    case domain::RecordKind::kShortlist: {
      v1::Shortlist* shortlist = event.mutable_shortlist();
      if (!shortlist->ParseFromArray(payload.data(),
                                     static_cast<int>(payload.size()))) {
        return absl::DataLossError("stored shortlist entries are unreadable");
      }
      SetStoredTimestamp(at, "shortlist_snapshots",
                         shortlist->mutable_timestamp());
      v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
      v1::Scope scope = v1::SCOPE_UNSPECIFIED;
      v1::ShortlistType_Parse(result.String(row, col + 1), &type);
      v1::Scope_Parse(result.String(row, col + 2), &scope);
      shortlist->set_shortlist_type(type);
      shortlist->set_scope(scope);
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown record kind");
}

// Rows of seq, kind, then the record columns.
absl::StatusOr<std::vector<SeqEvent>> ReadSeqEvents(const Result& result) {
  std::vector<SeqEvent> events(result.rows());
  for (int row = 0; row < result.rows(); ++row) {
    SeqEvent& out = events[row];
    out.seq = result.Int64(row, 0);
    const auto kind = static_cast<domain::RecordKind>(result.Int64(row, 1));
    if (auto read = ReadRecord(result, row, 2, kind, out.event); !read.ok()) {
      return read;
    }
    out.event.set_cursor(domain::EncodeWatchCursor(out.seq));
    out.wire_bytes = static_cast<int64_t>(out.event.ByteSizeLong());
  }
  return events;
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

absl::StatusOr<Result> Exec(ConnectionPool& pool, const Statement& statement,
                            const Params& params) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)->Exec(statement, params);
}

}  // namespace

absl::StatusOr<int64_t> MarketEventRepository::LatestSeq() {
  auto result = Exec(pool_, kLatestSeq, Params());
  if (!result.ok()) return result.status();
  return result->Int64(0, 0);
}

absl::StatusOr<std::vector<SeqEvent>> MarketEventRepository::ListSince(
    int64_t after, int limit) {
  auto result = Exec(pool_, kListSince, Params().Int64(after).Int32(limit));
  if (!result.ok()) return result.status();
  return ReadSeqEvents(*result);
}

absl::StatusOr<std::vector<SeqEvent>> MarketEventRepository::ListQuotesSince(
    const std::vector<std::string>& symbols, int64_t after, int64_t up_to,
    int limit) {
  auto result =
      Exec(pool_, kQuotesSince,
           Params().Int64(after).Int64(up_to).TextArray(symbols).Int32(limit));
  if (!result.ok()) return result.status();
  return ReadSeqEvents(*result);
}

absl::StatusOr<std::vector<SeqEvent>> MarketEventRepository::ListNiftySince(
    int64_t after, int64_t up_to, int limit) {
  auto result =
      Exec(pool_, kNiftySince, Params().Int64(after).Int64(up_to).Int32(limit));
  if (!result.ok()) return result.status();
  return ReadSeqEvents(*result);
}

absl::StatusOr<std::vector<SeqEvent>>
MarketEventRepository::ListShortlistsSince(v1::ShortlistType type,
                                           v1::Scope scope, int64_t after,
                                           int64_t up_to, int limit) {
  auto result = Exec(pool_, kShortlistsSince,
                     Params()
                         .Int64(after)
                         .Int64(up_to)
                         .Text(domain::ShortlistTypeName(type))
                         .Text(domain::ScopeName(domain::EffectiveScope(scope)))
                         .Int32(limit));
  if (!result.ok()) return result.status();
  return ReadSeqEvents(*result);
}

absl::StatusOr<std::vector<ReplayRecord>> MarketEventRepository::ReplayQuotes(
    absl::CivilDay day, const std::vector<std::string>& symbols,
    const domain::KeysetBound& bound, absl::Time end, int limit) {
  Params params;
  params.Date(day).Time(bound.at).Text(bound.key1).Time(end).Int32(limit);
  if (!symbols.empty()) params.TextArray(symbols);
  auto result =
      Exec(pool_, symbols.empty() ? kReplayQuotes : kReplayQuotesOf, params);
  if (!result.ok()) return result.status();
  return ReadReplayRecords(*result, domain::RecordKind::kQuote);
}

absl::StatusOr<std::vector<ReplayRecord>> MarketEventRepository::ReplayNifty(
    absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
    int limit) {
  auto result = Exec(pool_, kReplayNifty,
                     Params().Date(day).Time(bound.at).Time(end).Int32(limit));
  if (!result.ok()) return result.status();
  return ReadReplayRecords(*result, domain::RecordKind::kNifty);
}

absl::StatusOr<std::vector<ReplayRecord>>
MarketEventRepository::ReplayShortlists(absl::CivilDay day,
                                        const domain::KeysetBound& bound,
                                        absl::Time end, int limit) {
  auto result = Exec(pool_, kReplayShortlists,
                     Params()
                         .Date(day)
                         .Time(bound.at)
                         .Text(bound.key1)
                         .Text(bound.key2)
                         .Time(end)
                         .Int32(limit));
  if (!result.ok()) return result.status();
  return ReadReplayRecords(*result, domain::RecordKind::kShortlist);
}

}  // namespace mdc::storage

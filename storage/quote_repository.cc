#include "storage/quote_repository.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"
#include "storage/rows_written.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

// One statement for any batch size: the rows travel as parallel arrays.
// Writes only when a developer holds the token hash $7 (see MDC_WRITER_CTE).
// The conflict key holds trading_day, which the server computes from
// observed_at: the same uniqueness as without it (migration 0010).
constexpr Statement kUpsertBatch{
    "quotes_upsert_batch",
    MDC_WRITER_CTE("$7")
    ", stored AS (INSERT INTO stock_quotes (nse_symbol, observed_at, "
    "trading_day, last_price, volume, quote_data, written_by) "
    "SELECT q.nse_symbol, $2, $3, q.last_price, q.volume, q.quote_data, "
    "writer.id FROM writer, "
    "unnest($1::text[], $4::float8[], $5::float8[], $6::bytea[]) "
    "AS q(nse_symbol, last_price, volume, quote_data) "
    "ON CONFLICT (nse_symbol, observed_at, trading_day) DO UPDATE SET "
    "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "
    "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "
    "written_at = now()) "
    "SELECT " MDC_DEVELOPER_COLUMNS " FROM writer"};

// Every read by instant also bounds trading_day ($4, $5 here; the last two
// parameters of the pages), so only the partitions of those days are read
// (storage/trading_day_bounds.h).
constexpr Statement kFindLatest{
    "quotes_find_latest",
    "SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at <= $3 "
    "AND trading_day BETWEEN $4 AND $5 "
    "ORDER BY observed_at DESC LIMIT 1"};

// Keyset pages: $4 is the last instant of the previous page (or just before
// $2 on the first page).
constexpr Statement kListRange{
    "quotes_list_range",
    "SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND trading_day BETWEEN $6 AND $7 "
    "ORDER BY observed_at LIMIT $5"};

constexpr Statement kPricePoints{
    "quotes_price_points",
    "SELECT observed_at, last_price, volume FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND last_price IS NOT NULL "
    "AND trading_day BETWEEN $6 AND $7 ORDER BY observed_at LIMIT $5"};

// The latest quote of one symbol `s.symbol` in [$2, $3] within the
// trading days $4-$5: one descent of the primary key, in the partition of
// that day.
#define MDC_LATEST_OF_SYMBOL                                                 \
  "CROSS JOIN LATERAL (SELECT observed_at, quote_data FROM stock_quotes "    \
  "WHERE nse_symbol = s.symbol AND observed_at >= $2 AND observed_at <= $3 " \
  "AND trading_day BETWEEN $4 AND $5 ORDER BY observed_at DESC LIMIT 1) q "

constexpr Statement kFindLatestOfEach{
    "quotes_find_latest_of_each",
    "SELECT s.symbol, q.observed_at, q.quote_data "
    "FROM unnest($1::text[]) WITH ORDINALITY AS s(symbol, "
    "n) " MDC_LATEST_OF_SYMBOL "ORDER BY s.n"};

// The distinct symbols after $1 of the partitions of the trading days $2-$3
// (widened to whole months, PartitionFrom): a loose index scan, one descent
// of the primary key per symbol instead of a read of every row.
#define MDC_SYMBOLS_AFTER(from, to)                                      \
  "WITH RECURSIVE s(symbol) AS ("                                        \
  "(SELECT nse_symbol FROM stock_quotes WHERE nse_symbol > $1 "          \
  "AND trading_day BETWEEN " from " AND " to                             \
  " ORDER BY nse_symbol LIMIT 1) "                                       \
  "UNION ALL SELECT (SELECT nse_symbol FROM stock_quotes "               \
  "WHERE nse_symbol > s.symbol AND trading_day BETWEEN " from " AND " to \
  " ORDER BY nse_symbol LIMIT 1) FROM s WHERE s.symbol IS NOT NULL) "

constexpr Statement kFindLatestOfEvery{
    "quotes_find_latest_of_every",
    MDC_SYMBOLS_AFTER("$6", "$7")
    "SELECT s.symbol, q.observed_at, q.quote_data FROM s "
    MDC_LATEST_OF_SYMBOL "WHERE s.symbol IS NOT NULL LIMIT $8"};

constexpr Statement kListSymbols{
    "quotes_list_symbols",
    MDC_SYMBOLS_AFTER(
        "$2", "$3") "SELECT symbol FROM s WHERE symbol IS NOT NULL LIMIT $4"};

// Rows of (symbol, observed_at, quote_data).
absl::StatusOr<v1::StockQuote> SymbolQuoteAt(const Result& result, int row) {
  v1::StockQuote quote;
  quote.set_nse_symbol(result.String(row, 0));
  SetStoredTimestamp(result.Time(row, 1), "stock_quotes",
                     quote.mutable_timestamp());
  if (!ParseQuoteData(result.Bytes(row, 2), quote.mutable_quote_data())) {
    return absl::DataLossError("stored quote is unreadable");
  }
  return quote;
}

absl::StatusOr<v1::StockQuote> QuoteAt(const Result& result, int row,
                                       const std::string& symbol) {
  v1::StockQuote quote;
  SetStoredTimestamp(result.Time(row, 0), "stock_quotes",
                     quote.mutable_timestamp());
  quote.set_nse_symbol(symbol);
  if (!ParseQuoteData(result.Bytes(row, 1), quote.mutable_quote_data())) {
    return absl::DataLossError("stored quote is unreadable");
  }
  return quote;
}

// Runs `page`, a keyset page statement over the quotes of `symbol` in
// [start, end): ($1 symbol, $2 start, $3 end, $4 after, $5 limit, $6 and
// $7 the trading days of after and end: a later page skips earlier months).
absl::StatusOr<Result> ExecPage(ConnectionPool& pool, const Statement& page,
                                const std::string& symbol, absl::Time start,
                                absl::Time end, std::optional<absl::Time> after,
                                int limit) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)->Exec(page, Params()
                                 .Text(symbol)
                                 .Time(start)
                                 .Time(end)
                                 .Time(PageAfter(after, start))
                                 .Int32(limit)
                                 .Date(TradingDayFrom(PageAfter(after, start)))
                                 .Date(TradingDayTo(end)));
}

}  // namespace

void QuoteRepository::UpsertBatch(const domain::QuoteBatch& batch,
                                  const std::string& token_hash,
                                  DeveloperCallback done) {
  std::vector<std::string> symbols;
  std::vector<std::optional<double>> last_prices;
  std::vector<std::optional<double>> volumes;
  std::vector<std::string> payloads;
  symbols.reserve(batch.quotes.size());
  last_prices.reserve(batch.quotes.size());
  volumes.reserve(batch.quotes.size());
  payloads.reserve(batch.quotes.size());
  for (const auto& quote : batch.quotes) {
    symbols.push_back(quote.symbol);
    last_prices.push_back(LastPrice(quote.quote));
    volumes.push_back(Volume(quote.quote));
    payloads.push_back(quote.quote.SerializeAsString());
  }
  pool_.SubmitBulkWrite(
      kUpsertBatch,
      Params()
          .TextArray(symbols)
          .Time(batch.observed_at)
          .Date(domain::TradingDay(batch.observed_at))
          .DoubleArray(last_prices)
          .DoubleArray(volumes)
          .BytesArray(payloads)
          .Bytes(token_hash),
      CountRowsWritten(pool_.observer(), "stock_quotes",
                       static_cast<int64_t>(batch.quotes.size()),
                       ReportDeveloper(std::move(done))));
}

absl::StatusOr<std::optional<v1::StockQuote>> QuoteRepository::FindLatest(
    const std::string& symbol, absl::Time not_before, absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFindLatest, Params()
                                               .Text(symbol)
                                               .Time(not_before)
                                               .Time(at)
                                               .Date(TradingDayFrom(not_before))
                                               .Date(TradingDayTo(at)));
  if (!result.ok()) return result.status();
  return ReadFirstRow<v1::StockQuote>(*result, QuoteAt, symbol);
}

absl::StatusOr<std::vector<v1::StockQuote>> QuoteRepository::ListRange(
    const std::string& symbol, absl::Time start, absl::Time end,
    std::optional<absl::Time> after, int limit) {
  auto result = ExecPage(pool_, kListRange, symbol, start, end, after, limit);
  if (!result.ok()) return result.status();
  return ReadRows<v1::StockQuote>(*result, QuoteAt, symbol);
}

absl::StatusOr<std::vector<v1::StockQuote>> QuoteRepository::FindLatestOfEach(
    const std::vector<std::string>& symbols, absl::Time not_before,
    absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kFindLatestOfEach, Params()
                                           .TextArray(symbols)
                                           .Time(not_before)
                                           .Time(at)
                                           .Date(TradingDayFrom(not_before))
                                           .Date(TradingDayTo(at)));
  if (!result.ok()) return result.status();
  return ReadRows<v1::StockQuote>(*result, SymbolQuoteAt);
}

absl::StatusOr<std::vector<v1::StockQuote>> QuoteRepository::FindLatestOfEvery(
    const std::string& after, absl::Time not_before, absl::Time at, int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(
      kFindLatestOfEvery, Params()
                              .Text(after)
                              .Time(not_before)
                              .Time(at)
                              .Date(TradingDayFrom(not_before))
                              .Date(TradingDayTo(at))
                              .Date(PartitionFrom(TradingDayFrom(not_before)))
                              .Date(PartitionTo(TradingDayTo(at)))
                              .Int32(limit));
  if (!result.ok()) return result.status();
  return ReadRows<v1::StockQuote>(*result, SymbolQuoteAt);
}

absl::StatusOr<std::vector<std::string>> QuoteRepository::ListSymbols(
    const std::string& after, absl::CivilDay first, absl::CivilDay last,
    int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListSymbols, Params()
                                                .Text(after)
                                                .Date(PartitionFrom(first))
                                                .Date(PartitionTo(last))
                                                .Int32(limit));
  if (!result.ok()) return result.status();
  std::vector<std::string> symbols;
  symbols.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    symbols.push_back(result->String(row, 0));
  }
  return symbols;
}

absl::StatusOr<std::vector<domain::PricePoint>> QuoteRepository::PricePoints(
    const std::string& symbol, absl::Time start, absl::Time end,
    std::optional<absl::Time> after, int limit) {
  auto result = ExecPage(pool_, kPricePoints, symbol, start, end, after, limit);
  if (!result.ok()) return result.status();
  return ReadPricePoints(*result);
}

}  // namespace mdc::storage

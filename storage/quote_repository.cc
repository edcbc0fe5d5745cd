#include "storage/quote_repository.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/committed_write.h"
#include "storage/compacted_reads_fast.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"
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
constexpr Statement kFindLatestQuote{
    "quotes_find_latest",
    "SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at <= $3 "
    "AND trading_day BETWEEN $4 AND $5 "
    "ORDER BY observed_at DESC LIMIT 1"};

// Keyset pages: $4 is the last instant of the previous page (or just before
// $2 on the first page).
constexpr Statement kListQuoteRange{
    "quotes_list_range",
    "SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND trading_day BETWEEN $6 AND $7 "
    "ORDER BY observed_at LIMIT $5"};

constexpr Statement kQuotePricePoints{
    "quotes_price_points",
    "SELECT observed_at, last_price, volume FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND last_price IS NOT NULL "
    "AND trading_day BETWEEN $6 AND $7 ORDER BY observed_at LIMIT $5"};

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
                                int limit, SymbolPageColumns columns) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  const absl::Time page_after = PageAfter(after, start);
  return SymbolPageSeeingCompacted(**conn, page,
                                   Params()
                                       .Text(symbol)
                                       .Time(start)
                                       .Time(end)
                                       .Time(page_after)
                                       .Int32(limit)
                                       .Date(TradingDayFrom(page_after))
                                       .Date(TradingDayTo(end)),
                                   symbol, start, end, page_after, limit,
                                   columns);
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
      ReportCollectorWrite(
          pool_.observer(),
          CollectorWrite{"stock_quotes", domain::RecordKind::kQuote,
                         batch.observed_at,
                         static_cast<int64_t>(batch.quotes.size())},
          std::move(done)));
}

absl::StatusOr<std::optional<v1::StockQuote>> QuoteRepository::FindLatest(
    const std::string& symbol, absl::Time not_before, absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  CompactedFilter compacted{TradingDayFrom(not_before),
                            TradingDayTo(at),
                            std::vector<std::string>{symbol},
                            not_before,
                            at,
                            /*latest_only=*/true};
  auto result = LatestSeeingCompacted(**conn, kFindLatestQuote,
                                      Params()
                                          .Text(symbol)
                                          .Time(not_before)
                                          .Time(at)
                                          .Date(TradingDayFrom(not_before))
                                          .Date(TradingDayTo(at)),
                                      compacted, /*with_symbol=*/false);
  if (!result.ok()) return result.status();
  return ReadFirstRow<v1::StockQuote>(*result, QuoteAt, symbol);
}

absl::StatusOr<std::vector<v1::StockQuote>> QuoteRepository::ListRange(
    const std::string& symbol, absl::Time start, absl::Time end,
    std::optional<absl::Time> after, int limit) {
  auto result = ExecPage(pool_, kListQuoteRange, symbol, start, end, after,
                         limit, SymbolPageColumns::kQuotes);
  if (!result.ok()) return result.status();
  return ReadRows<v1::StockQuote>(*result, QuoteAt, symbol);
}

absl::StatusOr<std::vector<domain::PricePoint>> QuoteRepository::PricePoints(
    const std::string& symbol, absl::Time start, absl::Time end,
    std::optional<absl::Time> after, int limit) {
  auto result = ExecPage(pool_, kQuotePricePoints, symbol, start, end, after,
                         limit, SymbolPageColumns::kPricePoints);
  if (!result.ok()) return result.status();
  return ReadPricePoints(*result);
}

}  // namespace mdc::storage

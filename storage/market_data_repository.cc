#include "storage/market_data_repository.h"

#include <string>
#include <vector>

#include "storage/compacted_nifty.h"
#include "storage/compacted_quotes.h"

namespace mdc::storage {
namespace {

constexpr Statement kListDates{
    "market_data_list_dates",
    "SELECT day, sum(shortlists)::int8, sum(quotes)::int8, sum(nifty)::int8 "
    "FROM ("
    "  SELECT trading_day AS day, count(*) AS shortlists, 0 AS quotes, "
    "         0 AS nifty FROM shortlist_snapshots GROUP BY trading_day"
    "  UNION ALL SELECT trading_day, 0, count(*), 0 FROM stock_quotes "
    "         GROUP BY trading_day"
    // Compacted quotes (migration 0013); days in both stores are counted
    // again below (QuotesInBothStores).
    "  UNION ALL SELECT trading_day, 0, sum(row_count), 0 "
    "         FROM stock_quote_batches GROUP BY trading_day"
    "  UNION ALL SELECT trading_day, 0, 0, count(*) FROM nifty_quotes "
    "         GROUP BY trading_day"
    // Compacted NIFTY quotes (migration 0015), likewise.
    "  UNION ALL SELECT trading_day, 0, 0, sum(row_count) "
    "         FROM nifty_quote_batches GROUP BY trading_day"
    ") AS per_kind GROUP BY day ORDER BY day"};

// A day is deleted row by row within its month's partition. A month whose
// every day is asked for is emptied whole first (TRUNCATE of its partition:
// no row-by-row delete, no dead rows left to vacuum), so the DELETEs then
// find nothing there. Three counts: the rows the partitions held.
constexpr Statement kEmptyWholeMonths{
    "market_data_empty_whole_months",
    "SELECT mdc_truncate_whole_months('shortlist_snapshots', $1), "
    "mdc_truncate_whole_months('stock_quotes', $1), "
    "mdc_truncate_whole_months('nifty_quotes', $1)"};
constexpr Statement kDeleteShortlistDays{
    "market_data_delete_shortlist_days",
    "WITH deleted AS (DELETE FROM shortlist_snapshots "
    "WHERE trading_day = ANY($1) RETURNING 1) SELECT count(*) FROM deleted"};
// The compacted quotes of the days go too (their batches: the count is of
// the quotes they held).
constexpr Statement kDeleteQuoteDays{
    "market_data_delete_quote_days",
    "WITH deleted AS (DELETE FROM stock_quotes "
    "WHERE trading_day = ANY($1) RETURNING 1), "
    "batches AS (DELETE FROM stock_quote_batches "
    "WHERE trading_day = ANY($1) RETURNING row_count) "
    "SELECT (SELECT count(*) FROM deleted) + "
    "(SELECT coalesce(sum(row_count), 0) FROM batches)::int8"};
constexpr Statement kDeleteNiftyDays{
    "market_data_delete_nifty_days",
    "WITH deleted AS (DELETE FROM nifty_quotes "
    "WHERE trading_day = ANY($1) RETURNING 1), "
    "batches AS (DELETE FROM nifty_quote_batches "
    "WHERE trading_day = ANY($1) RETURNING row_count) "
    "SELECT (SELECT count(*) FROM deleted) + "
    "(SELECT coalesce(sum(row_count), 0) FROM batches)::int8"};

// Partitions whose whole month is before $1 are dropped, the rest deleted
// row by row (migration 0010, mdc_purge_before). Each returns the rows
// removed.
constexpr Statement kPurgeShortlists{
    "market_data_purge_shortlists",
    "SELECT mdc_purge_before('shortlist_snapshots', $1)"};
constexpr Statement kPurgeQuotes{"market_data_purge_quotes",
                                 "SELECT mdc_purge_before('stock_quotes', $1)"};
constexpr Statement kPurgeNifty{"market_data_purge_nifty",
                                "SELECT mdc_purge_before('nifty_quotes', $1)"};
constexpr Statement kCountBefore{
    "market_data_count_before",
    "SELECT (SELECT count(*) FROM shortlist_snapshots WHERE trading_day < $1),"
    "       (SELECT count(*) FROM stock_quotes WHERE trading_day < $1) + "
    "       (SELECT coalesce(sum(row_count), 0) FROM stock_quote_batches "
    "        WHERE trading_day < $1)::int8,"
    "       (SELECT count(*) FROM nifty_quotes WHERE trading_day < $1) + "
    "       (SELECT coalesce(sum(row_count), 0) FROM nifty_quote_batches "
    "        WHERE trading_day < $1)::int8"};

// The days with quotes in both stores: compacted, then written again.
constexpr Statement kDaysInBothStores{
    "market_data_days_in_both_stores",
    "SELECT DISTINCT q.trading_day FROM stock_quotes q "
    "WHERE q.trading_day IN (SELECT trading_day FROM stock_quote_batches) "
    "ORDER BY 1"};
constexpr Statement kRowStoreSymbolsOfDay{
    "market_data_row_store_symbols",
    "SELECT DISTINCT nse_symbol FROM stock_quotes WHERE trading_day = $1"};
// Read with the compacted quotes of the day's row-store symbols (the only
// batches a later write can have replaced a quote of).
constexpr Statement kCountQuotesOfSymbols{
    "market_data_count_quotes_of_symbols",
    "SELECT count(*) FROM stock_quotes WHERE trading_day = $1 "
    "AND nse_symbol = ANY($2)"};
constexpr Statement kCompactedQuotesOfOtherSymbols{
    "market_data_compacted_other_symbols",
    "SELECT coalesce(sum(row_count), 0)::int8 FROM stock_quote_batches "
    "WHERE trading_day = $1 AND NOT nse_symbol = ANY($2)"};

// The NIFTY days with quotes in both stores, and their quotes each counted
// once, read with the day's compacted quotes (storage/compacted_nifty.h).
constexpr Statement kNiftyDaysInBothStores{
    "market_data_nifty_days_in_both_stores",
    "SELECT DISTINCT q.trading_day FROM nifty_quotes q "
    "WHERE q.trading_day IN (SELECT trading_day FROM nifty_quote_batches) "
    "ORDER BY 1"};
constexpr Statement kCountNiftyOfDay{
    "market_data_count_nifty_of_day",
    "SELECT count(*) FROM nifty_quotes WHERE trading_day = $1"};

// The quotes of `day`, a day with quotes in both stores, each counted once
// (a later write that replaced a compacted quote is one quote).
absl::StatusOr<int64_t> QuotesInBothStores(Connection& conn,
                                           absl::CivilDay day) {
  auto symbols_result = conn.Exec(kRowStoreSymbolsOfDay, Params().Date(day));
  if (!symbols_result.ok()) return symbols_result.status();
  std::vector<std::string> symbols;
  for (int row = 0; row < symbols_result->rows(); ++row) {
    symbols.push_back(symbols_result->String(row, 0));
  }
  auto merged = ExecSeeingCompactedQuotes(
      conn, kCountQuotesOfSymbols, Params().Date(day).TextArray(symbols),
      CompactedFilter{day, day, symbols, std::nullopt, std::nullopt});
  if (!merged.ok()) return merged.status();
  auto others = conn.Exec(kCompactedQuotesOfOtherSymbols,
                          Params().Date(day).TextArray(symbols));
  if (!others.ok()) return others.status();
  return merged->Int64(0, 0) + others->Int64(0, 0);
}

// Runs the three per-kind deletes in one transaction, after `first` if
// given (it returns three counts of rows it removed: shortlists, quotes,
// NIFTY quotes); each delete returns the rows it removed.
absl::StatusOr<DataCounts> DeleteEachKind(ConnectionPool& pool,
                                          const Statement& shortlists,
                                          const Statement& quotes,
                                          const Statement& nifty,
                                          const Params& params,
                                          const Statement* first = nullptr) {
  DataCounts counts;
  absl::Status status = pool.InTransaction([&](Connection& conn) {
    if (first != nullptr) {
      auto removed = conn.Exec(*first, params);
      if (!removed.ok()) return removed.status();
      counts.shortlists = removed->Int64(0, 0);
      counts.quotes = removed->Int64(0, 1);
      counts.nifty_quotes = removed->Int64(0, 2);
    }
    struct Step {
      const Statement& statement;
      int64_t* count;
    };
    for (const Step& step :
         {Step{shortlists, &counts.shortlists}, Step{quotes, &counts.quotes},
          Step{nifty, &counts.nifty_quotes}}) {
      auto removed = conn.Exec(step.statement, params);
      if (!removed.ok()) return removed.status();
      *step.count += removed->Int64(0, 0);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return counts;
}

}  // namespace

absl::StatusOr<DataCounts> MarketDataRepository::DeleteDays(
    const std::vector<absl::CivilDay>& days) {
  return DeleteEachKind(pool_, kDeleteShortlistDays, kDeleteQuoteDays,
                        kDeleteNiftyDays, Params().DateArray(days),
                        &kEmptyWholeMonths);
}

absl::StatusOr<DataCounts> MarketDataRepository::PurgeBefore(absl::CivilDay day,
                                                             bool dry_run) {
  if (!dry_run) {
    return DeleteEachKind(pool_, kPurgeShortlists, kPurgeQuotes, kPurgeNifty,
                          Params().Date(day));
  }
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto counted = (*conn)->Exec(kCountBefore, Params().Date(day));
  if (!counted.ok()) return counted.status();
  DataCounts counts;
  counts.shortlists = counted->Int64(0, 0);
  counts.quotes = counted->Int64(0, 1);
  counts.nifty_quotes = counted->Int64(0, 2);
  return counts;
}

absl::StatusOr<std::vector<DataDateCounts>> MarketDataRepository::ListDates() {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListDates);
  if (!result.ok()) return result.status();
  std::vector<DataDateCounts> dates;
  dates.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    dates.push_back({result->Date(row, 0), result->Int64(row, 1),
                     result->Int64(row, 2), result->Int64(row, 3)});
  }
  auto both = (*conn)->Exec(kDaysInBothStores);
  if (!both.ok()) return both.status();
  for (int row = 0; row < both->rows(); ++row) {
    const absl::CivilDay day = both->Date(row, 0);
    auto quotes = QuotesInBothStores(**conn, day);
    if (!quotes.ok()) return quotes.status();
    for (DataDateCounts& date : dates) {
      if (date.day == day) date.quotes = *quotes;
    }
  }
  auto nifty_both = (*conn)->Exec(kNiftyDaysInBothStores);
  if (!nifty_both.ok()) return nifty_both.status();
  for (int row = 0; row < nifty_both->rows(); ++row) {
    const absl::CivilDay day = nifty_both->Date(row, 0);
    auto counted = ExecSeeingCompactedNifty(
        **conn, kCountNiftyOfDay, Params().Date(day),
        CompactedNiftyFilter{day, day, std::nullopt, std::nullopt});
    if (!counted.ok()) return counted.status();
    for (DataDateCounts& date : dates) {
      if (date.day == day) date.nifty_quotes = counted->Int64(0, 0);
    }
  }
  return dates;
}

}  // namespace mdc::storage

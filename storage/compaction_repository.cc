#include "storage/compaction_repository.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/compacted_selection.h"
#include "domain/compaction.h"
#include "domain/quote_batch_codec.h"
#include "storage/compacted_quotes.h"
#include "storage/compaction_month.h"
#include "storage/nifty_compaction.h"
#include "storage/parallel_work.h"

namespace mdc::storage {
namespace {

// About this many quotes are read, encoded and written at a time: the
// memory a compaction needs stays bounded whatever the day's size (a full
// quote is about 700 bytes, so some 15 MB of rows).
constexpr int64_t kQuotesPerStep = 20000;

// Two: the machines mdc runs on have a few cores, PostgreSQL needs its own,
// and the reads go on during a compaction.
constexpr size_t kEncodeThreads = 2;

constexpr Statement kDaysToCompact{
    "compaction_days",
    "SELECT DISTINCT trading_day FROM stock_quotes WHERE trading_day <= $1 "
    "ORDER BY 1"};

// 4242032: a constant unique to mdc (issue 32), with the month's number.
constexpr Statement kTryMonthTurn{
    "compaction_try_month",
    "SELECT pg_try_advisory_xact_lock(4242032, "
    "(extract(year FROM $1::date) * 12 + extract(month FROM $1::date))::int)"};

constexpr Statement kMonthPartition{
    "compaction_month_partition",
    "SELECT p.partition::text FROM mdc_month_partitions('stock_quotes') p "
    "WHERE $1 >= p.lower AND $1 < p.upper"};

constexpr Statement kDaysWithRows{
    "compaction_days_with_rows",
    "SELECT DISTINCT trading_day FROM stock_quotes "
    "WHERE trading_day = ANY($1) ORDER BY 1"};

constexpr Statement kSymbolCounts{
    "compaction_symbol_counts",
    "SELECT nse_symbol, count(*) FROM stock_quotes WHERE trading_day = $1 "
    "GROUP BY nse_symbol ORDER BY nse_symbol"};

// The day's instants lie within its bounds in the exchange zone
// (domain::TradingDay): the bounds make each symbol one range of the
// primary key (nse_symbol, observed_at, trading_day).
constexpr Statement kRowsOfSymbols{
    "compaction_rows_of_symbols",
    "SELECT nse_symbol, observed_at, last_price, volume, quote_data, "
    "written_by, written_at, seq, txid::text::int8 FROM stock_quotes "
    "WHERE nse_symbol = ANY($2) AND trading_day = $1 "
    "AND observed_at >= $1::timestamp AT TIME ZONE 'Asia/Kolkata' "
    "AND observed_at < ($1 + 1)::timestamp AT TIME ZONE 'Asia/Kolkata' "
    "ORDER BY nse_symbol, observed_at"};

constexpr Statement kDeleteBatchesOfSymbols{
    "compaction_delete_batches",
    "DELETE FROM stock_quote_batches WHERE trading_day = $1 "
    "AND nse_symbol = ANY($2)"};

constexpr Statement kInsertBatches{
    "compaction_insert_batches",
    "INSERT INTO stock_quote_batches (nse_symbol, trading_day, "
    "first_observed_at, last_observed_at, row_count, min_seq, max_seq, "
    "columns) SELECT * FROM unnest($1::text[], $2::date[], "
    "$3::timestamptz[], $4::timestamptz[], $5::int8[], $6::int8[], "
    "$7::int8[], $8::bytea[])"};

// A month written before it had a partition (a backfill) is in the
// DEFAULT partition: its partition is made first, as the hourly maintenance
// would (taking turns with it on advisory lock 4242004, migration 0010), so
// that the swap can give the space back. Only years 1900-2199 get one.
constexpr Statement kAddMonthPartition{
    "compaction_add_month_partition",
    "SELECT mdc_create_month_partition('stock_quotes', $1) "
    "FROM (SELECT pg_advisory_xact_lock(4242004)) AS turn "
    "WHERE $1 >= '1900-01-01' AND $1 < '2200-01-01'"};

// Rows of a month in the DEFAULT partition (years outside 1900-2199) have
// no partition to swap: they are deleted instead.
constexpr Statement kDeleteDays{
    "compaction_delete_days",
    "DELETE FROM stock_quotes WHERE trading_day = ANY($1)"};

constexpr Statement kRewritePartition{
    "compaction_rewrite_partition",
    "SELECT mdc_rewrite_quote_partition_without($1::regclass, $2)"};

absl::Status SetCompactionLimits(Connection& conn, absl::Duration lock_wait) {
  return conn
      .ExecScript(absl::StrCat(
          "SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = ",
          std::max<int64_t>(1, absl::ToInt64Milliseconds(lock_wait))))
      .status();
}

// The quotes of `symbols` on `day`, from the row store and the day's
// existing batches (a day compacted before, written to since), one list
// per symbol ascending by instant. A quote in both is the row store's: it
// was written later.
absl::StatusOr<std::map<std::string, std::vector<domain::StoredQuote>>>
QuotesOfSymbols(Connection& conn, absl::CivilDay day,
                const std::vector<std::string>& symbols) {
  std::map<std::string, std::map<int64_t, domain::StoredQuote>> merged;
  auto compacted = LoadCompactedQuotes(
      conn, CompactedFilter{day, day, symbols, std::nullopt, std::nullopt});
  if (!compacted.ok()) return compacted.status();
  for (CompactedQuote& quote : *compacted) {
    merged[quote.symbol][quote.quote.observed_at_us] = std::move(quote.quote);
  }
  auto rows = conn.Exec(kRowsOfSymbols, Params().Date(day).TextArray(symbols));
  if (!rows.ok()) return rows.status();
  for (int row = 0; row < rows->rows(); ++row) {
    domain::StoredQuote quote;
    quote.observed_at_us = absl::ToUnixMicros(rows->Time(row, 1));
    quote.last_price = rows->OptionalDouble(row, 2);
    quote.volume = rows->OptionalDouble(row, 3);
    quote.quote_data = std::string(rows->Bytes(row, 4));
    if (!rows->IsNull(row, 5)) quote.written_by = rows->Int64(row, 5);
    quote.written_at_us = absl::ToUnixMicros(rows->Time(row, 6));
    quote.seq = rows->Int64(row, 7);
    quote.txid = static_cast<uint64_t>(rows->Int64(row, 8));
    merged[rows->String(row, 0)][quote.observed_at_us] = std::move(quote);
  }
  std::map<std::string, std::vector<domain::StoredQuote>> quotes;
  for (auto& [symbol, by_instant] : merged) {
    std::vector<domain::StoredQuote>& list = quotes[symbol];
    list.reserve(by_instant.size());
    for (auto& [instant, quote] : by_instant) list.push_back(std::move(quote));
  }
  return quotes;
}

// The batches encoded on kEncodeThreads threads: encoding is the
// compaction's own CPU work (docs/performance.md, "Compacted history"),
// and the batches are independent.
std::vector<std::string> EncodeBatches(
    const std::vector<std::vector<domain::StoredQuote>>& batches) {
  std::vector<std::string> columns(batches.size());
  InParallel(batches.size(), 1, kEncodeThreads, [&](size_t i) {
    columns[i] = domain::EncodeQuoteBatch(batches[i]);
  });
  return columns;
}

// Rewrites the batches of `symbols` on `day` from their quotes in both
// stores. Returns the batches written.
absl::StatusOr<int64_t> CompactSymbols(
    Connection& conn, absl::CivilDay day,
    const std::vector<std::string>& symbols) {
  auto quotes = QuotesOfSymbols(conn, day, symbols);
  if (!quotes.ok()) return quotes.status();
  std::vector<std::string> batch_symbols;
  std::vector<absl::CivilDay> days;
  std::vector<absl::Time> firsts, lasts;
  std::vector<int64_t> counts, min_seqs, max_seqs;
  std::vector<std::vector<domain::StoredQuote>> batches;
  for (auto& [symbol, list] : *quotes) {
    for (const auto& [first, end] : domain::BatchBounds(
             domain::InstantsOf(list), domain::kMaxQuotesPerBatch,
             domain::kBatchSlotMicros, domain::kBatchSlotMinQuotes)) {
      std::vector<domain::StoredQuote> batch(
          std::make_move_iterator(list.begin() + first),
          std::make_move_iterator(list.begin() + end));
      int64_t min_seq = batch.front().seq, max_seq = batch.front().seq;
      for (const auto& quote : batch) {
        min_seq = std::min(min_seq, quote.seq);
        max_seq = std::max(max_seq, quote.seq);
      }
      batch_symbols.push_back(symbol);
      days.push_back(day);
      firsts.push_back(absl::FromUnixMicros(batch.front().observed_at_us));
      lasts.push_back(absl::FromUnixMicros(batch.back().observed_at_us));
      counts.push_back(static_cast<int64_t>(batch.size()));
      min_seqs.push_back(min_seq);
      max_seqs.push_back(max_seq);
      batches.push_back(std::move(batch));
    }
  }
  const std::vector<std::string> columns = EncodeBatches(batches);
  auto deleted =
      conn.Exec(kDeleteBatchesOfSymbols, Params().Date(day).TextArray(symbols));
  if (!deleted.ok()) return deleted.status();
  if (columns.empty()) return 0;
  auto inserted = conn.Exec(kInsertBatches, Params()
                                                .TextArray(batch_symbols)
                                                .DateArray(days)
                                                .TimeArray(firsts)
                                                .TimeArray(lasts)
                                                .Int64Array(counts)
                                                .Int64Array(min_seqs)
                                                .Int64Array(max_seqs)
                                                .BytesArray(columns));
  if (!inserted.ok()) return inserted.status();
  return static_cast<int64_t>(columns.size());
}

// Compacts one day, symbols grouped into steps of about kQuotesPerStep.
absl::Status CompactDay(Connection& conn, absl::CivilDay day,
                        CompactionCounts& counts) {
  auto symbol_counts = conn.Exec(kSymbolCounts, Params().Date(day));
  if (!symbol_counts.ok()) return symbol_counts.status();
  std::vector<std::string> group;
  int64_t group_quotes = 0;
  auto flush = [&]() -> absl::Status {
    if (group.empty()) return absl::OkStatus();
    auto batches = CompactSymbols(conn, day, group);
    if (!batches.ok()) return batches.status();
    counts.batches += *batches;
    counts.quotes += group_quotes;
    group.clear();
    group_quotes = 0;
    return absl::OkStatus();
  };
  for (int row = 0; row < symbol_counts->rows(); ++row) {
    group.push_back(symbol_counts->String(row, 0));
    group_quotes += symbol_counts->Int64(row, 1);
    if (group_quotes >= kQuotesPerStep) {
      if (auto done = flush(); !done.ok()) return done;
    }
  }
  if (auto done = flush(); !done.ok()) return done;
  ++counts.days;
  return absl::OkStatus();
}

// Compacts `days` (one month's) of stock quotes in the current transaction.
absl::Status CompactMonth(Connection& conn,
                          const std::vector<absl::CivilDay>& days,
                          CompactionCounts& counts) {
  static constexpr CompactedKind kStockQuotes{
      kTryMonthTurn,          kMonthPartition, kAddMonthPartition,
      "stock_quotes_default", kDaysWithRows,   CompactDay,
      kRewritePartition,      kDeleteDays};
  return CompactMonthOf(kStockQuotes, conn, days, counts);
}

// Runs `compact_month` on each month of `days` (ascending) in a
// transaction of its own, adding what it counted to `counts`.
absl::Status CompactEachMonth(
    ConnectionPool& pool, const std::vector<absl::CivilDay>& days,
    absl::Duration lock_wait,
    absl::Status (*compact_month)(Connection&,
                                  const std::vector<absl::CivilDay>&,
                                  CompactionCounts&),
    CompactionCounts& counts) {
  size_t first = 0;
  while (first < days.size()) {
    size_t end = first;
    while (end < days.size() &&
           absl::CivilMonth(days[end]) == absl::CivilMonth(days[first])) {
      ++end;
    }
    const std::vector<absl::CivilDay> month(days.begin() + first,
                                            days.begin() + end);
    CompactionCounts month_counts;
    absl::Status status = pool.InTransaction([&](Connection& conn) {
      month_counts = CompactionCounts();
      if (auto set = SetCompactionLimits(conn, lock_wait); !set.ok()) {
        return set;
      }
      return compact_month(conn, month, month_counts);
    });
    if (!status.ok()) return status;
    counts.days += month_counts.days;
    counts.quotes += month_counts.quotes;
    counts.batches += month_counts.batches;
    counts.busy_months += month_counts.busy_months;
    counts.nifty_days += month_counts.nifty_days;
    counts.nifty_quotes += month_counts.nifty_quotes;
    counts.nifty_batches += month_counts.nifty_batches;
    first = end;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CompactionCounts> CompactionRepository::CompactThrough(
    absl::CivilDay through, absl::Duration lock_wait) {
  std::vector<absl::CivilDay> days;
  std::vector<absl::CivilDay> nifty_days;
  {
    auto conn = pool_.Acquire();
    if (!conn.ok()) return conn.status();
    auto listed = (*conn)->Exec(kDaysToCompact, Params().Date(through));
    if (!listed.ok()) return listed.status();
    for (int row = 0; row < listed->rows(); ++row) {
      days.push_back(listed->Date(row, 0));
    }
    auto nifty = NiftyDaysToCompact(**conn, through);
    if (!nifty.ok()) return nifty.status();
    nifty_days = *std::move(nifty);
  }
  CompactionCounts counts;
  if (auto done =
          CompactEachMonth(pool_, days, lock_wait, CompactMonth, counts);
      !done.ok()) {
    return done;
  }
  if (auto done = CompactEachMonth(pool_, nifty_days, lock_wait,
                                   CompactNiftyMonth, counts);
      !done.ok()) {
    return done;
  }
  return counts;
}

}  // namespace mdc::storage

#include "storage/nifty_compaction.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/nifty_batch_codec.h"
#include "storage/compacted_nifty.h"
#include "storage/compaction_month.h"

namespace mdc::storage {
namespace {

constexpr Statement kNiftyDaysToCompact{
    "nifty_compaction_days",
    "SELECT DISTINCT trading_day FROM nifty_quotes WHERE trading_day <= $1 "
    "ORDER BY 1"};

// 4242033: the NIFTY quotes' own turn per month (the stock quotes' is
// 4242032), with the month's number.
constexpr Statement kTryNiftyMonthTurn{
    "nifty_compaction_try_month",
    "SELECT pg_try_advisory_xact_lock(4242033, "
    "(extract(year FROM $1::date) * 12 + extract(month FROM $1::date))::int)"};

constexpr Statement kNiftyMonthPartition{
    "nifty_compaction_month_partition",
    "SELECT p.partition::text FROM mdc_month_partitions('nifty_quotes') p "
    "WHERE $1 >= p.lower AND $1 < p.upper"};

// As the stock quotes' compaction does (storage/compaction_repository.cc):
// a month in the DEFAULT partition gets its own first, within 1900-2199.
constexpr Statement kAddNiftyMonthPartition{
    "nifty_compaction_add_month_partition",
    "SELECT mdc_create_month_partition('nifty_quotes', $1) "
    "FROM (SELECT pg_advisory_xact_lock(4242004)) AS turn "
    "WHERE $1 >= '1900-01-01' AND $1 < '2200-01-01'"};

constexpr Statement kNiftyDaysWithRows{
    "nifty_compaction_days_with_rows",
    "SELECT DISTINCT trading_day FROM nifty_quotes "
    "WHERE trading_day = ANY($1) ORDER BY 1"};

constexpr Statement kNiftyRowsOfDay{
    "nifty_compaction_rows_of_day",
    "SELECT observed_at, last_price, volume, day_change_perc, quote_data, "
    "written_by, written_at, seq, txid::text::int8 FROM nifty_quotes "
    "WHERE trading_day = $1 ORDER BY observed_at"};

constexpr Statement kDeleteNiftyBatchesOfDay{
    "nifty_compaction_delete_batches",
    "DELETE FROM nifty_quote_batches WHERE trading_day = $1"};

constexpr Statement kInsertNiftyBatches{
    "nifty_compaction_insert_batches",
    "INSERT INTO nifty_quote_batches (trading_day, first_observed_at, "
    "last_observed_at, row_count, min_seq, max_seq, columns) "
    "SELECT * FROM unnest($1::date[], $2::timestamptz[], $3::timestamptz[], "
    "$4::int8[], $5::int8[], $6::int8[], $7::bytea[])"};

constexpr Statement kDeleteCompactedNiftyRows{
    "nifty_compaction_delete_days",
    "DELETE FROM nifty_quotes WHERE trading_day = ANY($1)"};

constexpr Statement kRewriteNiftyPartition{
    "nifty_compaction_rewrite_partition",
    "SELECT mdc_rewrite_partition_without('nifty_quotes', $1::regclass, $2)"};

// The NIFTY quotes of `day` from its existing batches (a day compacted
// before, written to since) and the row store, ascending by instant; a
// quote in both is the row store's: it was written later. `rows` counts
// the row store's.
absl::StatusOr<std::vector<domain::StoredNiftyQuote>> NiftyQuotesOfDay(
    Connection& conn, absl::CivilDay day, int64_t& rows) {
  std::map<int64_t, domain::StoredNiftyQuote> merged;
  auto compacted = LoadCompactedNifty(conn, CompactedNiftyFilter{day, day});
  if (!compacted.ok()) return compacted.status();
  for (CompactedNifty& quote : *compacted) {
    merged[quote.nifty.quote.observed_at_us] = std::move(quote.nifty);
  }
  auto result = conn.Exec(kNiftyRowsOfDay, Params().Date(day));
  if (!result.ok()) return result.status();
  rows = result->rows();
  for (int row = 0; row < result->rows(); ++row) {
    domain::StoredNiftyQuote nifty;
    domain::StoredQuote& quote = nifty.quote;
    quote.observed_at_us = absl::ToUnixMicros(result->Time(row, 0));
    quote.last_price = result->OptionalDouble(row, 1);
    quote.volume = result->OptionalDouble(row, 2);
    nifty.day_change_perc = result->Double(row, 3);
    quote.quote_data = std::string(result->Bytes(row, 4));
    if (!result->IsNull(row, 5)) quote.written_by = result->Int64(row, 5);
    quote.written_at_us = absl::ToUnixMicros(result->Time(row, 6));
    quote.seq = result->Int64(row, 7);
    quote.txid = static_cast<uint64_t>(result->Int64(row, 8));
    merged[quote.observed_at_us] = std::move(nifty);
  }
  std::vector<domain::StoredNiftyQuote> quotes;
  quotes.reserve(merged.size());
  for (auto& [instant, nifty] : merged) quotes.push_back(std::move(nifty));
  return quotes;
}

// Rewrites the batches of `day` from its quotes in both stores.
absl::Status CompactNiftyDay(Connection& conn, absl::CivilDay day,
                             CompactionCounts& counts) {
  int64_t rows = 0;
  auto quotes = NiftyQuotesOfDay(conn, day, rows);
  if (!quotes.ok()) return quotes.status();
  std::vector<absl::CivilDay> days;
  std::vector<absl::Time> firsts, lasts;
  std::vector<int64_t> sizes, min_seqs, max_seqs;
  std::vector<std::string> columns;
  for (size_t first = 0; first < quotes->size();
       first += domain::kMaxQuotesPerBatch) {
    const size_t end =
        std::min(quotes->size(), first + domain::kMaxQuotesPerBatch);
    const std::vector<domain::StoredNiftyQuote> batch(
        std::make_move_iterator(quotes->begin() + first),
        std::make_move_iterator(quotes->begin() + end));
    int64_t min_seq = batch.front().quote.seq;
    int64_t max_seq = min_seq;
    for (const auto& nifty : batch) {
      min_seq = std::min(min_seq, nifty.quote.seq);
      max_seq = std::max(max_seq, nifty.quote.seq);
    }
    days.push_back(day);
    firsts.push_back(absl::FromUnixMicros(batch.front().quote.observed_at_us));
    lasts.push_back(absl::FromUnixMicros(batch.back().quote.observed_at_us));
    sizes.push_back(static_cast<int64_t>(batch.size()));
    min_seqs.push_back(min_seq);
    max_seqs.push_back(max_seq);
    columns.push_back(domain::EncodeNiftyBatch(batch));
  }
  auto deleted = conn.Exec(kDeleteNiftyBatchesOfDay, Params().Date(day));
  if (!deleted.ok()) return deleted.status();
  if (!columns.empty()) {
    auto inserted = conn.Exec(kInsertNiftyBatches, Params()
                                                       .DateArray(days)
                                                       .TimeArray(firsts)
                                                       .TimeArray(lasts)
                                                       .Int64Array(sizes)
                                                       .Int64Array(min_seqs)
                                                       .Int64Array(max_seqs)
                                                       .BytesArray(columns));
    if (!inserted.ok()) return inserted.status();
  }
  ++counts.nifty_days;
  counts.nifty_quotes += rows;
  counts.nifty_batches += static_cast<int64_t>(columns.size());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<absl::CivilDay>> NiftyDaysToCompact(
    Connection& conn, absl::CivilDay through) {
  auto listed = conn.Exec(kNiftyDaysToCompact, Params().Date(through));
  if (!listed.ok()) return listed.status();
  std::vector<absl::CivilDay> days;
  for (int row = 0; row < listed->rows(); ++row) {
    days.push_back(listed->Date(row, 0));
  }
  return days;
}

absl::Status CompactNiftyMonth(Connection& conn,
                               const std::vector<absl::CivilDay>& days,
                               CompactionCounts& counts) {
  static constexpr CompactedKind kNiftyQuotes{
      kTryNiftyMonthTurn,     kNiftyMonthPartition,     kAddNiftyMonthPartition,
      "nifty_quotes_default", kNiftyDaysWithRows,       CompactNiftyDay,
      kRewriteNiftyPartition, kDeleteCompactedNiftyRows};
  return CompactMonthOf(kNiftyQuotes, conn, days, counts);
}

}  // namespace mdc::storage

#include "storage/compacted_nifty.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "storage/compacted_quotes.h"
#include "storage/pg_binary.h"

namespace mdc::storage {
namespace {

// The batches that meet the bounds, without their columns (NULL instants:
// no condition on them), in the order of their instants.
constexpr Statement kNiftyBatchRanges{
    "compacted_nifty_ranges",
    "SELECT trading_day, first_observed_at "
    "FROM nifty_quote_batches WHERE trading_day BETWEEN $1 AND $2 "
    "AND ($3::timestamptz IS NULL OR last_observed_at >= $3) "
    "AND ($4::timestamptz IS NULL OR first_observed_at <= $4) "
    "ORDER BY first_observed_at"};

// The columns of the batches chosen among them, in the same order.
constexpr Statement kLoadNiftyBatches{
    "compacted_nifty_load",
    "SELECT b.trading_day, b.columns FROM nifty_quote_batches b "
    "JOIN unnest($1::date[], $2::timestamptz[]) AS k(day, first) "
    "ON b.trading_day = k.day AND b.first_observed_at = k.first "
    "ORDER BY b.first_observed_at"};

// The quotes of the batches (days[i], firsts[i]) within the filter's
// bounds, appended to `quotes` in the batches' order.
absl::Status DecodeBatches(Connection& conn,
                           const std::vector<absl::CivilDay>& days,
                           const std::vector<absl::Time>& firsts,
                           const CompactedNiftyFilter& filter,
                           std::vector<CompactedNifty>& quotes) {
  auto batches =
      conn.Exec(kLoadNiftyBatches, Params().DateArray(days).TimeArray(firsts));
  if (!batches.ok()) return batches.status();
  const int64_t first_us =
      filter.not_before ? absl::ToUnixMicros(*filter.not_before) : INT64_MIN;
  const int64_t last_us =
      filter.not_after ? absl::ToUnixMicros(*filter.not_after) : INT64_MAX;
  for (int row = 0; row < batches->rows(); ++row) {
    auto decoded = domain::DecodeNiftyBatch(batches->Bytes(row, 1));
    if (!decoded.ok()) return decoded.status();
    const absl::CivilDay day = batches->Date(row, 0);
    for (domain::StoredNiftyQuote& nifty : *decoded) {
      const int64_t at = nifty.quote.observed_at_us;
      if (at < first_us || at > last_us) continue;
      if (filter.priced_only && !nifty.quote.last_price) continue;
      quotes.push_back({day, std::move(nifty)});
    }
  }
  return absl::OkStatus();
}

void AppendCompactedNifty(const std::vector<CompactedNifty>& quotes,
                          Params& params) {
  std::vector<absl::Time> observed, written_at;
  std::vector<absl::CivilDay> days;
  std::vector<std::optional<double>> prices, volumes, day_changes;
  std::vector<std::string> payloads;
  std::vector<std::optional<int64_t>> writers;
  std::vector<int64_t> seqs, txids;
  for (const CompactedNifty& compacted : quotes) {
    const domain::StoredQuote& quote = compacted.nifty.quote;
    observed.push_back(absl::FromUnixMicros(quote.observed_at_us));
    days.push_back(compacted.trading_day);
    prices.push_back(quote.last_price);
    volumes.push_back(quote.volume);
    day_changes.push_back(compacted.nifty.day_change_perc);
    payloads.push_back(quote.quote_data);
    writers.push_back(quote.written_by);
    written_at.push_back(absl::FromUnixMicros(quote.written_at_us));
    seqs.push_back(quote.seq);
    txids.push_back(static_cast<int64_t>(quote.txid));
  }
  params.TimeArray(observed)
      .DateArray(days)
      .DoubleArray(prices)
      .DoubleArray(volumes)
      .DoubleArray(day_changes)
      .BytesArray(payloads)
      .OptionalInt64Array(writers)
      .TimeArray(written_at)
      .Int64Array(seqs)
      .Int64Array(txids);
}

}  // namespace

absl::StatusOr<std::vector<CompactedNifty>> LoadCompactedNifty(
    Connection& conn, const CompactedNiftyFilter& filter) {
  Params params;
  params.Date(filter.from).Date(filter.to);
  for (const auto& bound : {filter.not_before, filter.not_after}) {
    if (bound) {
      params.Time(*bound);
    } else {
      params.Null(pg_binary::kTimestamptzOid);
    }
  }
  auto ranges = conn.Exec(kNiftyBatchRanges, params);
  if (!ranges.ok()) return ranges.status();
  std::vector<CompactedNifty> quotes;
  if (filter.latest_only) {
    // From the last batch back until one has a quote within the bounds:
    // usually the last does (its first quote follows the batch before).
    for (int row = ranges->rows() - 1; row >= 0 && quotes.empty(); --row) {
      if (auto done = DecodeBatches(conn, {ranges->Date(row, 0)},
                                    {ranges->Time(row, 1)}, filter, quotes);
          !done.ok()) {
        return done;
      }
    }
    if (quotes.size() > 1) quotes.erase(quotes.begin(), quotes.end() - 1);
    return quotes;
  }
  if (filter.first_count > 0) {
    // Batch by batch until the page is full: a page decodes the one or two
    // batches it needs, not the rest of its range.
    for (int row = 0; row < ranges->rows(); ++row) {
      if (quotes.size() >= static_cast<size_t>(filter.first_count)) break;
      if (auto done = DecodeBatches(conn, {ranges->Date(row, 0)},
                                    {ranges->Time(row, 1)}, filter, quotes);
          !done.ok()) {
        return done;
      }
    }
    if (quotes.size() > static_cast<size_t>(filter.first_count)) {
      quotes.resize(filter.first_count);
    }
    return quotes;
  }
  std::vector<absl::CivilDay> days;
  std::vector<absl::Time> firsts;
  for (int row = 0; row < ranges->rows(); ++row) {
    days.push_back(ranges->Date(row, 0));
    firsts.push_back(ranges->Time(row, 1));
  }
  if (days.empty()) return quotes;
  if (auto done = DecodeBatches(conn, days, firsts, filter, quotes);
      !done.ok()) {
    return done;
  }
  return quotes;
}

absl::StatusOr<Result> ExecSeeingCompactedNifty(
    Connection& conn, const Statement& statement, Params params,
    const CompactedNiftyFilter& filter) {
  auto compacted = LoadCompactedNifty(conn, filter);
  if (!compacted.ok()) return compacted.status();
  if (compacted->empty()) return conn.Exec(statement, params);
  const int first = params.size() + 1;
  AppendCompactedNifty(*compacted, params);
  return conn.Exec(
      WithQueryInFront(statement, "_with_compacted_nifty",
                       [first] {
                         return ShadowingQueryOf(
                             "nifty_quotes", "nifty_quote_rows",
                             {{"observed_at", "timestamptz"},
                              {"trading_day", "date"},
                              {"last_price", "float8"},
                              {"volume", "float8"},
                              {"day_change_perc", "float8"},
                              {"quote_data", "bytea"},
                              {"written_by", "int8"},
                              {"written_at", "timestamptz"},
                              {"seq", "int8"},
                              {"txid", "int8", "c.txid::text::xid8"}},
                             {"observed_at", "trading_day"}, first);
                       }),
      params);
}

}  // namespace mdc::storage

#include "storage/compacted_reads_fast.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/time/clock.h"
#include "domain/compacted_selection.h"
#include "domain/time.h"
#include "storage/day_page_read_ahead.h"
#include "storage/pg_binary.h"
#include "storage/synthesized_result.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

using pg_binary::kByteaOid;
using pg_binary::kFloat8Oid;
using pg_binary::kTextOid;
using pg_binary::kTimestamptzOid;

// The runs of `loaded`; false when one is not ascending by instant (not
// as compaction writes them: the caller reads the slow, general way).
bool RunsOf(const CompactedBatches& loaded,
            std::vector<domain::QuoteRun>& runs) {
  runs.reserve(loaded.batches.size());
  for (const CompactedBatch& batch : loaded.batches) {
    if (!batch.quotes->ascending) return false;
    runs.push_back(
        {&batch.symbol, &batch.quotes->quotes, &batch.quotes->instants});
  }
  return true;
}

// The trading day of each picked quote: its batch's.
absl::flat_hash_map<const std::string*, absl::CivilDay> DaysOfSymbols(
    const CompactedBatches& loaded) {
  absl::flat_hash_map<const std::string*, absl::CivilDay> days;
  for (const CompactedBatch& batch : loaded.batches) {
    days.emplace(&batch.symbol, batch.trading_day);
  }
  return days;
}

// Runs `statement` over both stores, seeing `picked` as the compacted
// quotes (all the statement can use).
absl::StatusOr<Result> ExecOverBothStores(
    Connection& conn, const Statement& statement, Params params,
    const CompactedBatches& loaded,
    const std::vector<domain::QuoteRef>& picked) {
  const auto days = DaysOfSymbols(loaded);
  std::vector<CompactedQuote> quotes;
  quotes.reserve(picked.size());
  for (const domain::QuoteRef& ref : picked) {
    quotes.push_back({*ref.symbol, days.at(ref.symbol), *ref.quote});
  }
  const int first = params.size() + 1;
  AppendCompactedQuotes(quotes, params);
  return conn.Exec(WithCompactedQuotes(statement, first), params);
}

// What DayPageOfQuotes checks before it serves pages read ahead:
// whether the row store holds a quote of the day ($1) of the symbols ($2,
// all when NULL) in [$3, $4], and the latest compaction of the day's
// batches (NULL: none), one descent of stock_quote_batches_by_day_compacted.
// Days are deleted whole and a compaction stamps what it writes with its
// own time, so a delete, a purge or a new compaction of the day changes it.
constexpr Statement kDayPageAheadCheck{
    "compacted_quotes_day_page_ahead_check",
    "SELECT (SELECT EXISTS (SELECT 1 FROM stock_quote_rows "
    "WHERE trading_day = $1 AND ($2::text[] IS NULL OR nse_symbol = ANY($2)) "
    "AND observed_at >= $3 AND observed_at <= $4)), "
    "(SELECT max(compacted_at) FROM stock_quote_batches "
    "WHERE trading_day = $1)"};

struct DayCheck {
  bool row_store_has_rows = false;
  std::optional<int64_t> compacted_us;  // none: no batch of the day
};

absl::StatusOr<DayCheck> CheckDay(Connection& conn, absl::CivilDay day,
                                  const std::vector<std::string>& symbols,
                                  absl::Time after, absl::Time end) {
  Params params;
  params.Date(day);
  if (symbols.empty()) {
    params.Null(pg_binary::kTextArrayOid);
  } else {
    params.TextArray(symbols);
  }
  params.Time(after).Time(end);
  auto result = conn.Exec(kDayPageAheadCheck, params);
  if (!result.ok()) return result.status();
  DayCheck check{result->Bool(0, 0), std::nullopt};
  if (!result->IsNull(0, 1)) {
    check.compacted_us = absl::ToUnixMicros(result->Time(0, 1));
  }
  return check;
}

// The page of `limit` quotes from `ahead`'s next one on; the rest kept for
// the next page.
CompactedDayPage ServeAhead(DayPageKey key, DayPageQuotes ahead, int limit) {
  const size_t stop =
      std::min(ahead.quotes.size(), ahead.next + static_cast<size_t>(limit));
  CompactedDayPage page{ahead.batches, std::vector<domain::QuoteRef>(
                                           ahead.quotes.begin() + ahead.next,
                                           ahead.quotes.begin() + stop)};
  ahead.next = stop;
  ahead.kept_at = absl::Now();
  DayPageReadAhead::Shared().Keep(std::move(key), std::move(ahead));
  return page;
}

// `page` built as the rows the day page's statement would have sent.
Result RowsOfCompacted(const CompactedDayPage& page) {
  SynthesizedResult rows(
      {kTimestamptzOid, kTextOid, kTextOid, kByteaOid, kFloat8Oid});
  for (const domain::QuoteRef& ref : page.quotes) {
    rows.AddRow();
    rows.SetTime(0, absl::FromUnixMicros(ref.quote->observed_at_us));
    rows.SetBytes(1, *ref.symbol);
    rows.SetBytes(2, "");
    rows.SetBytes(3, ref.quote->quote_data);
  }
  return std::move(rows).Take();
}

}  // namespace

Result RowsOf(DayPage page) {
  if (auto* rows = std::get_if<Result>(&page)) return std::move(*rows);
  return RowsOfCompacted(std::get<CompactedDayPage>(page));
}

absl::StatusOr<DayPage> DayPageOfQuotes(Connection& conn,
                                        const Statement& statement,
                                        Params params, absl::CivilDay day,
                                        const std::vector<std::string>& symbols,
                                        const domain::KeysetBound& bound,
                                        absl::Time end, int limit) {
  DayPageKey key{day,
                 symbols,
                 absl::ToUnixMicros(end),
                 limit,
                 absl::ToUnixMicros(bound.at),
                 bound.key1};
  const absl::Time now = absl::Now();
  // The listing of the day's batches kept from the pages before, and the
  // day as checked for this page, when it still serves.
  std::shared_ptr<const BatchListing> listing;
  std::shared_ptr<const CompactedBatches> decoded_before;
  std::optional<DayCheck> checked;
  if (auto ahead = DayPageReadAhead::Shared().Take(key, now)) {
    const size_t left = ahead->quotes.size() - ahead->next;
    auto check = CheckDay(conn, day, symbols, bound.at, end);
    if (!check.ok()) return check.status();
    if (!check->row_store_has_rows && check->compacted_us &&
        *check->compacted_us == ahead->day_compacted_us) {
      if (left >= static_cast<size_t>(limit) || ahead->to_the_end) {
        return ServeAhead(std::move(key), *std::move(ahead), limit);
      }
      listing = std::move(ahead->listing);
      decoded_before = std::move(ahead->batches);
      checked = *check;
    }
  }
  CompactedFilter filter{day, day, std::nullopt, bound.at, end};
  if (!symbols.empty()) filter.symbols = symbols;
  // Only the batches this page and the ones read ahead are in, not the
  // rest of the day.
  const int64_t wanted = int64_t{limit} * kDayPageReadAhead;
  const int pick = wanted > INT32_MAX ? INT32_MAX : static_cast<int>(wanted);
  filter.first_quotes = pick;
  if (listing == nullptr) {
    checked.reset();
    auto listed = ListCompactedBatches(conn, filter);
    if (!listed.ok()) return listed.status();
    listing = std::make_shared<const BatchListing>(*std::move(listed));
  }
  auto loaded = LoadListedBatches(conn, *listing, filter, decoded_before.get());
  decoded_before.reset();
  if (!loaded.ok()) return loaded.status();
  // A kept listing's own answer is old; the check just made is not.
  if (checked) loaded->row_store_has_rows = checked->row_store_has_rows;
  if (loaded->batches.empty() && !loaded->left_out_from_us) {
    return conn.Exec(statement, params);
  }
  auto batches = std::make_shared<const CompactedBatches>(*std::move(loaded));
  std::vector<domain::QuoteRun> runs;
  if (!RunsOf(*batches, runs)) {
    // The general way reads every batch of the page's range.
    filter.first_quotes = 0;
    auto every = LoadCompactedBatches(conn, filter);
    if (!every.ok()) return every.status();
    return ExecSeeingLoadedQuotes(conn, statement, std::move(params), *every,
                                  filter);
  }
  if (batches->row_store_has_rows) {
    // Exact even with rows in the row store: a row replaces only the
    // compacted quote of its own key, so it takes that quote's place in the
    // order, and the page's filters are all on the key.
    const std::vector<domain::QuoteRef> picked = domain::FirstQuotesAfter(
        runs, key.after_us, bound.key1, key.end_us, limit);
    return ExecOverBothStores(conn, statement, std::move(params), *batches,
                              picked);
  }
  // From the batches alone: this page and the next ones at once
  // (storage/day_page_read_ahead.h), with what the next pages check. A
  // change between the listing and this check is the window the listing
  // and the fetch of the batches have too (docs/architecture.md, Limits);
  // a day deleted meanwhile (no batches) or written to is not read ahead.
  if (!checked) {
    auto day_now = CheckDay(conn, day, symbols, bound.at, end);
    if (!day_now.ok()) return day_now.status();
    checked = *day_now;
  }
  const bool read_ahead =
      !checked->row_store_has_rows && checked->compacted_us.has_value();
  const int picked = read_ahead ? pick : limit;
  DayPageQuotes ahead;
  ahead.quotes = domain::FirstQuotesAfter(runs, key.after_us, bound.key1,
                                          key.end_us, picked);
  ahead.to_the_end = ahead.quotes.size() < static_cast<size_t>(picked) &&
                     !batches->left_out_from_us;
  if (read_ahead) {
    ahead.day_compacted_us = *checked->compacted_us;
    // The listing serves the next pages when nothing was compacted between
    // it and the check: the latest compaction it lists is the day's.
    int64_t listed_latest_us = INT64_MIN;
    for (const ListedBatch& listed : listing->batches) {
      listed_latest_us = std::max(listed_latest_us, listed.id.compacted_at_us);
    }
    if (listed_latest_us == ahead.day_compacted_us) {
      ahead.listing = std::move(listing);
    }
  }
  ahead.batches = std::move(batches);
  return ServeAhead(std::move(key), std::move(ahead), limit);
}

absl::StatusOr<Result> SymbolPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    const std::string& symbol, absl::Time start, absl::Time end,
    absl::Time after, int limit, SymbolPageColumns columns) {
  const bool priced_only = columns == SymbolPageColumns::kPricePoints;
  CompactedFilter filter{TradingDayFrom(after), TradingDayTo(end),
                         std::vector<std::string>{symbol}, after, end};
  // Price points are read from the batches without their payloads, unless
  // the statement must run (below): it is given whole quotes.
  if (priced_only) filter.parts = domain::QuoteBatchParts::kPrices;
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  if (loaded->batches.empty()) return conn.Exec(statement, params);
  std::vector<domain::QuoteRun> runs;
  if (filter.parts != domain::QuoteBatchParts::kWhole &&
      (loaded->row_store_has_rows || !RunsOf(*loaded, runs))) {
    filter.parts = domain::QuoteBatchParts::kWhole;
    loaded = LoadCompactedBatches(conn, filter);
    if (!loaded.ok()) return loaded.status();
    if (loaded->batches.empty()) return conn.Exec(statement, params);
    runs.clear();
  }
  if (runs.empty() && !RunsOf(*loaded, runs)) {
    return ExecSeeingLoadedQuotes(conn, statement, std::move(params), *loaded,
                                  filter);
  }
  // After `after` and from `start` on: after the later of the two bounds.
  const int64_t after_us =
      std::max(absl::ToUnixMicros(after), absl::ToUnixMicros(start) - 1);
  if (loaded->row_store_has_rows) {
    // A row replacing a priced compacted quote may have no price itself, so
    // a priced page cannot be cut before the statement: it gets them all.
    const std::vector<domain::QuoteRef> picked = domain::FirstQuotesAfter(
        runs, after_us, symbol, absl::ToUnixMicros(end),
        priced_only ? INT32_MAX : limit);
    return ExecOverBothStores(conn, statement, std::move(params), *loaded,
                              picked);
  }
  const std::vector<domain::QuoteRef> picked = domain::FirstQuotesAfter(
      runs, after_us, symbol, absl::ToUnixMicros(end), limit, priced_only);
  if (priced_only) {
    SynthesizedResult page({kTimestamptzOid, kFloat8Oid, kFloat8Oid});
    for (const domain::QuoteRef& ref : picked) {
      page.AddRow();
      page.SetTime(0, absl::FromUnixMicros(ref.quote->observed_at_us));
      page.SetDouble(1, *ref.quote->last_price);
      page.SetOptionalDouble(2, ref.quote->volume);
    }
    return std::move(page).Take();
  }
  SynthesizedResult page({kTimestamptzOid, kByteaOid});
  for (const domain::QuoteRef& ref : picked) {
    page.AddRow();
    page.SetTime(0, absl::FromUnixMicros(ref.quote->observed_at_us));
    page.SetBytes(1, ref.quote->quote_data);
  }
  return std::move(page).Take();
}

absl::StatusOr<Result> LatestSeeingCompacted(Connection& conn,
                                             const Statement& statement,
                                             const Params& params,
                                             const CompactedFilter& filter,
                                             bool with_symbol) {
  // Each symbol's latest compacted quote (its one batch).
  auto loaded_latest = LoadLatestCompactedQuotes(conn, filter);
  if (!loaded_latest.ok()) return loaded_latest.status();
  if (!loaded_latest->in_order) {
    auto loaded = LoadCompactedBatches(conn, filter);
    if (!loaded.ok()) return loaded.status();
    return ExecSeeingLoadedQuotes(conn, statement, params, *loaded, filter);
  }
  absl::flat_hash_map<std::string, const domain::StoredQuote*> compacted;
  for (const auto& [symbol, quote] : loaded_latest->quotes) {
    compacted[symbol] = &quote;
  }
  if (!compacted.empty() && !loaded_latest->row_store_has_rows) {
    // Nothing in the row store within the bounds: no statement to run.
    SynthesizedResult only(
        with_symbol ? std::vector<Oid>{kTextOid, kTimestamptzOid, kByteaOid}
                    : std::vector<Oid>{kTimestamptzOid, kByteaOid});
    for (const auto& [symbol, quote] : compacted) {
      only.AddRow();
      int col = 0;
      if (with_symbol) only.SetBytes(col++, symbol);
      only.SetTime(col++, absl::FromUnixMicros(quote->observed_at_us));
      only.SetBytes(col, quote->quote_data);
    }
    return std::move(only).Take();
  }
  // The row store's answer (stock_quotes itself is the row store).
  auto rows = conn.Exec(statement, params);
  if (!rows.ok() || compacted.empty()) return rows;
  const int time_col = with_symbol ? 1 : 0;
  const std::string only_symbol =
      with_symbol ? std::string() : filter.symbols->front();
  if (with_symbol) {
    SynthesizedResult merged({kTextOid, kTimestamptzOid, kByteaOid});
    for (int row = 0; row < rows->rows(); ++row) {
      const std::string symbol = rows->String(row, 0);
      auto found = compacted.find(symbol);
      // The row wins at the same instant: it replaced the compacted quote.
      if (found != compacted.end() &&
          found->second->observed_at_us >
              absl::ToUnixMicros(rows->Time(row, time_col))) {
        continue;
      }
      if (found != compacted.end()) compacted.erase(found);
      merged.AddRow();
      merged.SetBytes(0, rows->Bytes(row, 0));
      merged.SetTime(1, rows->Time(row, 1));
      merged.SetBytes(2, rows->Bytes(row, 2));
    }
    for (const auto& [symbol, quote] : compacted) {
      merged.AddRow();
      merged.SetBytes(0, symbol);
      merged.SetTime(1, absl::FromUnixMicros(quote->observed_at_us));
      merged.SetBytes(2, quote->quote_data);
    }
    return std::move(merged).Take();
  }
  auto found = compacted.find(only_symbol);
  if (found == compacted.end()) return rows;
  if (rows->rows() > 0 && absl::ToUnixMicros(rows->Time(0, time_col)) >=
                              found->second->observed_at_us) {
    return rows;
  }
  SynthesizedResult latest({kTimestamptzOid, kByteaOid});
  latest.AddRow();
  latest.SetTime(0, absl::FromUnixMicros(found->second->observed_at_us));
  latest.SetBytes(1, found->second->quote_data);
  return std::move(latest).Take();
}

bool PricesFromBatches(
    const CompactedBatches& loaded, const std::vector<domain::SymbolDay>& keys,
    absl::Time before,
    absl::flat_hash_map<domain::SymbolDay, std::vector<domain::PricePoint>>&
        found) {
  if (loaded.row_store_has_rows) return false;
  // Each key's batches, in time order (a symbol-day's never overlap).
  absl::flat_hash_map<domain::SymbolDay, std::vector<const DecodedQuotes*>>
      batches;
  for (const CompactedBatch& batch : loaded.batches) {
    if (!batch.quotes->ascending) return false;
    if (batch.quotes->quotes.empty()) continue;
    batches[domain::SymbolDay{batch.symbol, batch.trading_day}].push_back(
        batch.quotes.get());
  }
  const int64_t before_us = absl::ToUnixMicros(before);
  for (const domain::SymbolDay& key : keys) {
    auto of_key = batches.find(key);
    if (of_key == batches.end()) continue;
    std::vector<const DecodedQuotes*>& runs = of_key->second;
    std::sort(runs.begin(), runs.end(),
              [](const DecodedQuotes* a, const DecodedQuotes* b) {
                return a->quotes.front().observed_at_us <
                       b->quotes.front().observed_at_us;
              });
    // The statement's bounds: the trading day's instants (in the exchange
    // zone), before `before`, priced.
    const int64_t from_us = absl::ToUnixMicros(domain::DayStart(key.second));
    const int64_t to_us = std::min(
        before_us, absl::ToUnixMicros(domain::DayStart(key.second + 1)));
    std::vector<domain::PricePoint> points;
    for (const DecodedQuotes* run : runs) {
      for (const domain::StoredQuote& quote : run->quotes) {
        if (quote.observed_at_us < from_us || quote.observed_at_us >= to_us ||
            !quote.last_price.has_value()) {
          continue;
        }
        points.push_back(
            domain::PricePoint{absl::FromUnixMicros(quote.observed_at_us),
                               quote.last_price, quote.volume});
      }
    }
    if (!points.empty()) found[key] = std::move(points);
  }
  return true;
}

}  // namespace mdc::storage

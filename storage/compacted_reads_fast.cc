#include "storage/compacted_reads_fast.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "domain/compacted_selection.h"
#include "domain/time.h"
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

}  // namespace

absl::StatusOr<Result> DayPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    absl::CivilDay day, const std::vector<std::string>& symbols,
    const domain::KeysetBound& bound, absl::Time end, int limit) {
  CompactedFilter filter{day, day, std::nullopt, bound.at, end};
  if (!symbols.empty()) filter.symbols = symbols;
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  if (loaded->batches.empty()) return conn.Exec(statement, params);
  std::vector<domain::QuoteRun> runs;
  if (!RunsOf(*loaded, runs)) {
    return ExecSeeingLoadedQuotes(conn, statement, std::move(params), *loaded,
                                  filter);
  }
  // Exact even with rows in the row store: a row replaces only the
  // compacted quote of its own key, so it takes that quote's place in the
  // order, and the page's filters are all on the key.
  const std::vector<domain::QuoteRef> picked =
      domain::FirstQuotesAfter(runs, absl::ToUnixMicros(bound.at), bound.key1,
                               absl::ToUnixMicros(end), limit);
  if (loaded->row_store_has_rows) {
    return ExecOverBothStores(conn, statement, std::move(params), *loaded,
                              picked);
  }
  SynthesizedResult page(
      {kTimestamptzOid, kTextOid, kTextOid, kByteaOid, kFloat8Oid});
  for (const domain::QuoteRef& ref : picked) {
    page.AddRow();
    page.SetTime(0, absl::FromUnixMicros(ref.quote->observed_at_us));
    page.SetBytes(1, *ref.symbol);
    page.SetBytes(2, "");
    page.SetBytes(3, ref.quote->quote_data);
  }
  return std::move(page).Take();
}

absl::StatusOr<Result> SymbolPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    const std::string& symbol, absl::Time start, absl::Time end,
    absl::Time after, int limit, SymbolPageColumns columns) {
  CompactedFilter filter{TradingDayFrom(after), TradingDayTo(end),
                         std::vector<std::string>{symbol}, after, end};
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  if (loaded->batches.empty()) return conn.Exec(statement, params);
  std::vector<domain::QuoteRun> runs;
  if (!RunsOf(*loaded, runs)) {
    return ExecSeeingLoadedQuotes(conn, statement, std::move(params), *loaded,
                                  filter);
  }
  const bool priced_only = columns == SymbolPageColumns::kPricePoints;
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
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  const int64_t not_before_us = absl::ToUnixMicros(*filter.not_before);
  const int64_t at_us = absl::ToUnixMicros(*filter.not_after);
  // Each symbol's latest compacted quote (its one batch).
  absl::flat_hash_map<std::string, const domain::StoredQuote*> compacted;
  for (const CompactedBatch& batch : loaded->batches) {
    const domain::QuoteRun run{&batch.symbol, &batch.quotes->quotes,
                               &batch.quotes->instants};
    if (!batch.quotes->ascending) {
      return ExecSeeingLoadedQuotes(conn, statement, params, *loaded, filter);
    }
    if (const domain::StoredQuote* latest =
            domain::LatestWithin(run, not_before_us, at_us)) {
      compacted[batch.symbol] = latest;
    }
  }
  if (!compacted.empty() && !loaded->row_store_has_rows) {
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

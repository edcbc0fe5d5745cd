#include "storage/compacted_quotes.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "storage/pg_binary.h"

namespace mdc::storage {
namespace {

// NULL symbols or instants: no condition on them.
constexpr Statement kLoadBatches{
    "compacted_quotes_load",
    "SELECT nse_symbol, trading_day, columns FROM stock_quote_batches "
    "WHERE trading_day BETWEEN $1 AND $2 "
    "AND ($3::text[] IS NULL OR nse_symbol = ANY($3)) "
    "AND ($4::timestamptz IS NULL OR last_observed_at >= $4) "
    "AND ($5::timestamptz IS NULL OR first_observed_at <= $5)"};

// The WITH query that stands for stock_quotes; `first` is the number of
// the first of its ten parameters. A quote also in the row store is read
// from there only.
std::string ShadowingQuery(int first) {
  auto p = [first](int i) { return absl::StrCat("$", first + i); };
  return absl::StrCat(
      "stock_quotes AS NOT MATERIALIZED (SELECT nse_symbol, observed_at, "
      "trading_day, last_price, volume, quote_data, written_by, written_at, "
      "seq, txid FROM stock_quote_rows UNION ALL SELECT c.nse_symbol, "
      "c.observed_at, c.trading_day, c.last_price, c.volume, c.quote_data, "
      "c.written_by, c.written_at, c.seq, c.txid::text::xid8 FROM unnest(",
      p(0), "::text[], ", p(1), "::timestamptz[], ", p(2), "::date[], ", p(3),
      "::float8[], ", p(4), "::float8[], ", p(5), "::bytea[], ", p(6),
      "::int8[], ", p(7), "::timestamptz[], ", p(8), "::int8[], ", p(9),
      "::int8[]) AS c(nse_symbol, observed_at, trading_day, last_price, "
      "volume, quote_data, written_by, written_at, seq, txid) "
      "WHERE NOT EXISTS (SELECT 1 FROM stock_quote_rows r "
      "WHERE r.nse_symbol = c.nse_symbol AND r.observed_at = c.observed_at "
      "AND r.trading_day = c.trading_day))");
}

// `sql` with the WITH query `shadow` in front, joining a WITH list it may
// have.
std::string ShadowedSql(absl::string_view sql, const std::string& shadow) {
  if (absl::StartsWith(sql, "WITH RECURSIVE ")) {
    return absl::StrCat("WITH RECURSIVE ", shadow, ", ",
                        sql.substr(sizeof("WITH RECURSIVE ") - 1));
  }
  if (absl::StartsWith(sql, "WITH ")) {
    return absl::StrCat("WITH ", shadow, ", ", sql.substr(sizeof("WITH ") - 1));
  }
  return absl::StrCat("WITH ", shadow, " ", sql);
}

// The shadowed statements, built on first use and kept for the process:
// a Statement holds pointers to its name and SQL.
struct ShadowedStatement {
  std::string name;
  std::string sql;
  Statement statement;
};

}  // namespace

absl::StatusOr<std::vector<CompactedQuote>> LoadCompactedQuotes(
    Connection& conn, const CompactedFilter& filter) {
  Params params;
  params.Date(filter.from).Date(filter.to);
  if (filter.symbols) {
    params.TextArray(*filter.symbols);
  } else {
    params.Null(pg_binary::kTextArrayOid);
  }
  for (const auto& bound : {filter.not_before, filter.not_after}) {
    if (bound) {
      params.Time(*bound);
    } else {
      params.Null(pg_binary::kTimestamptzOid);
    }
  }
  auto batches = conn.Exec(kLoadBatches, params);
  if (!batches.ok()) return batches.status();
  const int64_t first_us =
      filter.not_before ? absl::ToUnixMicros(*filter.not_before) : INT64_MIN;
  const int64_t last_us =
      filter.not_after ? absl::ToUnixMicros(*filter.not_after) : INT64_MAX;
  std::vector<CompactedQuote> quotes;
  // With latest_only: the place in `quotes` of each symbol's latest.
  std::map<std::string, size_t> latest;
  for (int row = 0; row < batches->rows(); ++row) {
    auto decoded = domain::DecodeQuoteBatch(batches->Bytes(row, 2));
    if (!decoded.ok()) return decoded.status();
    const std::string symbol = batches->String(row, 0);
    const absl::CivilDay day = batches->Date(row, 1);
    for (domain::StoredQuote& quote : *decoded) {
      if (quote.observed_at_us < first_us || quote.observed_at_us > last_us) {
        continue;
      }
      if (!filter.latest_only) {
        quotes.push_back({symbol, day, std::move(quote)});
        continue;
      }
      auto [place, added] = latest.try_emplace(symbol, quotes.size());
      if (added) {
        quotes.push_back({symbol, day, std::move(quote)});
      } else if (quote.observed_at_us >
                 quotes[place->second].quote.observed_at_us) {
        quotes[place->second] = {symbol, day, std::move(quote)};
      }
    }
  }
  return quotes;
}

const Statement& WithQueryInFront(
    const Statement& statement, absl::string_view suffix,
    const std::function<std::string()>& with_query) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* built =
      new std::map<std::string, std::unique_ptr<ShadowedStatement>>();
  absl::MutexLock lock(&mutex);
  const std::string name = absl::StrCat(statement.name, suffix);
  std::unique_ptr<ShadowedStatement>& entry = (*built)[name];
  if (entry == nullptr) {
    entry = std::make_unique<ShadowedStatement>();
    entry->name = name;
    entry->sql = ShadowedSql(statement.sql, with_query());
    entry->statement = Statement{entry->name.c_str(), entry->sql.c_str(),
                                 /*merged=*/nullptr, statement.plan_each_time};
  }
  return entry->statement;
}

const Statement& WithCompactedQuotes(const Statement& statement,
                                     int first_parameter) {
  return WithQueryInFront(statement, "_with_compacted", [first_parameter] {
    return ShadowingQuery(first_parameter);
  });
}

void AppendCompactedQuotes(const std::vector<CompactedQuote>& quotes,
                           Params& params) {
  std::vector<std::string> symbols, payloads;
  std::vector<absl::Time> observed, written_at;
  std::vector<absl::CivilDay> days;
  std::vector<std::optional<double>> prices, volumes;
  std::vector<std::optional<int64_t>> writers;
  std::vector<int64_t> seqs, txids;
  for (const CompactedQuote& compacted : quotes) {
    const domain::StoredQuote& quote = compacted.quote;
    symbols.push_back(compacted.symbol);
    observed.push_back(absl::FromUnixMicros(quote.observed_at_us));
    days.push_back(compacted.trading_day);
    prices.push_back(quote.last_price);
    volumes.push_back(quote.volume);
    payloads.push_back(quote.quote_data);
    writers.push_back(quote.written_by);
    written_at.push_back(absl::FromUnixMicros(quote.written_at_us));
    seqs.push_back(quote.seq);
    txids.push_back(static_cast<int64_t>(quote.txid));
  }
  params.TextArray(symbols)
      .TimeArray(observed)
      .DateArray(days)
      .DoubleArray(prices)
      .DoubleArray(volumes)
      .BytesArray(payloads)
      .OptionalInt64Array(writers)
      .TimeArray(written_at)
      .Int64Array(seqs)
      .Int64Array(txids);
}

absl::StatusOr<Result> ExecSeeingCompactedQuotes(
    Connection& conn, const Statement& statement, Params params,
    const CompactedFilter& filter) {
  auto compacted = LoadCompactedQuotes(conn, filter);
  if (!compacted.ok()) return compacted.status();
  if (compacted->empty()) return conn.Exec(statement, params);
  const int first = params.size() + 1;
  AppendCompactedQuotes(*compacted, params);
  return conn.Exec(WithCompactedQuotes(statement, first), params);
}

}  // namespace mdc::storage

// The fast reads of compacted days (storage/compacted_reads_fast.h) against
// a real PostgreSQL: every page and every latest quote they give is the one
// the general path (the statement over both stores, compacted_quotes.h)
// gives, row for row and byte for byte: on a day compacted whole, and with
// later writes in the row store (a new instant, a replaced quote, a quote
// without a price replacing a priced one).
#include "storage/compacted_reads_fast.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "storage/compacted_quotes.h"
#include "storage/compaction_repository.h"
#include "storage/quote_batch_repository.h"
#include "storage/trading_day_bounds.h"
#include "tests/support/result_rows.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

const absl::CivilDay kDay(2026, 5, 4);
const absl::TimeZone kIst = absl::FixedTimeZone(19800);
// Symbols whose order COLLATE "C" is not a dictionary's.
const std::vector<std::string> kSymbols = {"AAA", "aab", "BB-1", "B_B"};

absl::Time At(int second) {
  return absl::FromCivil(absl::CivilSecond(2026, 5, 4, 9, 15, 0), kIst) +
         absl::Seconds(second);
}

// 1,200 quotes of each symbol, a second apart, some without a price or a
// volume; "aab" only every third second.
void WriteDay(testing::TestDatabase& db) {
  db.Query(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "last_price, volume, quote_data) SELECT s, ('2026-05-04 "
      "09:15:00+05:30'::timestamptz + g * interval '1 second'), '2026-05-04', "
      "CASE WHEN g % 7 = 3 THEN NULL ELSE 100 + g * 0.05 END, "
      "CASE WHEN g % 5 = 1 THEN NULL ELSE g * 10 END, "
      "convert_to(s || ' payload ' || g, 'UTF8') "
      "FROM generate_series(0, 1199) g, "
      "(VALUES ('AAA'), ('aab'), ('BB-1'), ('B_B')) v(s) "
      "WHERE s <> 'aab' OR g % 3 = 0");
  db.Query("SELECT mdc_ensure_partitions(0, 'stock_quotes')");
}

void Compact(testing::TestDatabase& db) {
  CompactionRepository compaction(db.pool());
  auto counts = compaction.CompactThrough(kDay, absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  ASSERT_EQ(db.Query("SELECT count(*) FROM stock_quotes WHERE trading_day = "
                     "'2026-05-04'"),
            "0");
}

// Later writes to the compacted day: a new instant, a replaced quote, and
// a quote without a price in place of a priced one.
void WriteLate(testing::TestDatabase& db) {
  db.Query(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "last_price, volume, quote_data) VALUES "
      "('AAA', '2026-05-04 09:20:00.5+05:30', '2026-05-04', 7, 7, 'late'), "
      "('BB-1', '2026-05-04 09:25:00+05:30', '2026-05-04', 8, NULL, 'again'), "
      "('B_B', '2026-05-04 09:30:01+05:30', '2026-05-04', NULL, 1, 'none')");
}

// The replay page statement's shape (storage/market_event_repository.cc).
constexpr Statement kDayPage{
    "test_fast_day_page",
    "SELECT observed_at, nse_symbol, '', quote_data, NULL::float8 "
    "FROM stock_quotes WHERE trading_day = $1 "
    "AND (observed_at, nse_symbol COLLATE \"C\") > ($2, $3 COLLATE \"C\") "
    "AND observed_at < $4 ORDER BY observed_at, nse_symbol COLLATE \"C\" "
    "LIMIT $5"};
constexpr Statement kDayPageOf{
    "test_fast_day_page_of",
    "SELECT observed_at, nse_symbol, '', quote_data, NULL::float8 "
    "FROM stock_quotes WHERE trading_day = $1 "
    "AND (observed_at, nse_symbol COLLATE \"C\") > ($2, $3 COLLATE \"C\") "
    "AND observed_at < $4 AND nse_symbol = ANY($6) "
    "ORDER BY observed_at, nse_symbol COLLATE \"C\" LIMIT $5"};

// A day page by the fast path, as the statement's rows.
absl::StatusOr<Result> DayPageRows(Connection& conn, const Statement& statement,
                                   Params params, absl::CivilDay day,
                                   const std::vector<std::string>& symbols,
                                   const domain::KeysetBound& bound,
                                   absl::Time end, int limit) {
  auto page = DayPageOfQuotes(conn, statement, std::move(params), day, symbols,
                              bound, end, limit);
  if (!page.ok()) return page.status();
  return RowsOf(*std::move(page));
}

// Pages through the day with both paths; every page must be the same.
// Returns the number of rows read.
int CompareDayPages(testing::TestDatabase& db,
                    const std::vector<std::string>& symbols, int limit) {
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  domain::KeysetBound bound{At(-1), "", ""};
  const absl::Time end = At(1100);
  int read = 0;
  for (int page = 0; page < 1000; ++page) {
    Params params;
    params.Date(kDay).Time(bound.at).Text(bound.key1).Time(end).Int32(limit);
    if (!symbols.empty()) params.TextArray(symbols);
    const Statement& statement = symbols.empty() ? kDayPage : kDayPageOf;
    auto fast = DayPageRows(**conn, statement, params, kDay, symbols, bound,
                            end, limit);
    CompactedFilter filter{kDay, kDay, std::nullopt, bound.at, end};
    if (!symbols.empty()) filter.symbols = symbols;
    auto general = ExecSeeingCompactedQuotes(**conn, statement, params, filter);
    EXPECT_TRUE(fast.ok()) << fast.status();
    EXPECT_TRUE(general.ok()) << general.status();
    if (!fast.ok() || !general.ok()) return read;
    EXPECT_EQ(testing::ResultRows(*fast), testing::ResultRows(*general))
        << "page " << page;
    read += general->rows();
    if (general->rows() < limit) break;
    const int last = general->rows() - 1;
    bound = {general->Time(last, 0), general->String(last, 1), ""};
  }
  return read;
}

// A symbol's page statements (storage/quote_repository.cc).
constexpr Statement kPricePoints{
    "test_fast_price_points",
    "SELECT observed_at, last_price, volume FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND last_price IS NOT NULL "
    "AND trading_day BETWEEN $6 AND $7 ORDER BY observed_at LIMIT $5"};
constexpr Statement kQuoteRange{
    "test_fast_quote_range",
    "SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = $1 AND observed_at >= $2 AND observed_at < $3 "
    "AND observed_at > $4 AND trading_day BETWEEN $6 AND $7 "
    "ORDER BY observed_at LIMIT $5"};

int CompareSymbolPages(testing::TestDatabase& db, const std::string& symbol,
                       SymbolPageColumns columns, int limit) {
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  const Statement& statement =
      columns == SymbolPageColumns::kPricePoints ? kPricePoints : kQuoteRange;
  const absl::Time start = At(10), end = At(1150);
  absl::Time after = start - absl::Microseconds(1);
  int read = 0;
  for (int page = 0; page < 1000; ++page) {
    Params params;
    params.Text(symbol)
        .Time(start)
        .Time(end)
        .Time(after)
        .Int32(limit)
        .Date(TradingDayFrom(after))
        .Date(TradingDayTo(end));
    auto fast = SymbolPageSeeingCompacted(**conn, statement, params, symbol,
                                          start, end, after, limit, columns);
    auto general = ExecSeeingCompactedQuotes(
        **conn, statement, params,
        CompactedFilter{TradingDayFrom(after), TradingDayTo(end),
                        std::vector<std::string>{symbol}, after, end});
    EXPECT_TRUE(fast.ok()) << fast.status();
    EXPECT_TRUE(general.ok()) << general.status();
    if (!fast.ok() || !general.ok()) return read;
    EXPECT_EQ(testing::ResultRows(*fast), testing::ResultRows(*general))
        << symbol << " page " << page;
    read += general->rows();
    if (general->rows() < limit) break;
    after = general->Time(general->rows() - 1, 0);
  }
  return read;
}

constexpr Statement kLatestOfSymbols{
    "test_fast_latest_of_symbols",
    "SELECT s.symbol, q.observed_at, q.quote_data "
    "FROM unnest($1::text[]) AS s(symbol) "
    "CROSS JOIN LATERAL (SELECT observed_at, quote_data FROM stock_quotes "
    "WHERE nse_symbol = s.symbol AND observed_at >= $2 "
    "AND observed_at <= $3 AND trading_day BETWEEN $4 AND $5 "
    "ORDER BY observed_at DESC LIMIT 1) q ORDER BY 1"};

// The rows of a latest-quotes answer, sorted by symbol (the fast path's
// rows come in no particular order).
std::vector<std::string> SortedLatestRows(const Result& result) {
  std::vector<std::string> rows;
  for (int row = 0; row < result.rows(); ++row) {
    rows.push_back(absl::StrCat(result.String(row, 0), " ",
                                absl::FormatTime(result.Time(row, 1)), " ",
                                result.String(row, 2)));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The latest quotes in [not_before, at] of every symbol and one unknown,
// by the fast path, or (`general`) by the statement over both stores.
std::vector<std::string> LatestRows(testing::TestDatabase& db,
                                    absl::Time not_before, absl::Time at,
                                    bool general = false) {
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  if (!conn.ok()) return {};
  std::vector<std::string> symbols = kSymbols;
  symbols.push_back("NONE");
  Params params;
  params.TextArray(symbols)
      .Time(not_before)
      .Time(at)
      .Date(TradingDayFrom(not_before))
      .Date(TradingDayTo(at));
  CompactedFilter filter{
      TradingDayFrom(not_before), TradingDayTo(at), symbols, not_before, at,
      /*latest_only=*/true};
  auto rows = general ? ExecSeeingCompactedQuotes(**conn, kLatestOfSymbols,
                                                  params, filter)
                      : LatestSeeingCompacted(**conn, kLatestOfSymbols, params,
                                              filter, /*with_symbol=*/true);
  EXPECT_TRUE(rows.ok()) << rows.status();
  return rows.ok() ? SortedLatestRows(*rows) : std::vector<std::string>();
}

// The latest quotes in [not_before, at] by both paths.
void CompareLatest(testing::TestDatabase& db, absl::Time not_before,
                   absl::Time at) {
  EXPECT_EQ(LatestRows(db, not_before, at),
            LatestRows(db, not_before, at, /*general=*/true))
      << absl::FormatTime(not_before) << " " << absl::FormatTime(at);
}

void CompareEveryRead(testing::TestDatabase& db) {
  for (int limit : {97, 1000}) {
    EXPECT_GT(CompareDayPages(db, {}, limit), 0);
    EXPECT_GT(CompareDayPages(db, {"aab", "B_B"}, limit), 0);
  }
  for (const std::string& symbol : kSymbols) {
    for (int limit : {250, 5000}) {
      EXPECT_GT(CompareSymbolPages(db, symbol, SymbolPageColumns::kPricePoints,
                                   limit),
                0);
      EXPECT_GT(
          CompareSymbolPages(db, symbol, SymbolPageColumns::kQuotes, limit), 0);
    }
  }
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 1199},
                                                                 {300, 301},
                                                                 {0, 900},
                                                                 {901, 901},
                                                                 {1200, 1500},
                                                                 {-100, -1},
                                                                 {1000, 1000},
                                                                 {999, 1001}}) {
    CompareLatest(db, At(from), At(to));
  }
  CompareLatest(db, At(0), At(300) + absl::Milliseconds(500));
  CompareLatest(db, At(0), At(600) + absl::Microseconds(1));
  CompareLatest(db, At(0), At(901));
}

// The dashboard's prices of (symbol, day) keys, every point written out.
std::string PricesOf(testing::TestDatabase& db, absl::Time before) {
  QuoteBatchRepository repository(db.pool());
  const std::vector<domain::SymbolDay> keys = {{"AAA", kDay},
                                               {"aab", kDay},
                                               {"B_B", kDay},
                                               {"NONE", kDay},
                                               {"AAA", kDay + 1}};
  auto prices = repository.PricesOfSymbolDays(keys, before);
  EXPECT_TRUE(prices.ok()) << prices.status();
  if (!prices.ok()) return "";
  std::string out;
  for (const domain::SymbolDay& key : keys) {
    auto found = prices->find(key);
    if (found == prices->end()) continue;
    absl::StrAppend(&out, key.first, " ", absl::FormatCivilTime(key.second),
                    ":");
    for (const domain::PricePoint& point : found->second) {
      absl::StrAppend(&out, " ", absl::FormatTime(point.time), "=",
                      point.last_price.value_or(-1), "/",
                      point.volume.value_or(-1));
    }
    out += "\n";
  }
  return out;
}

TEST(CompactedReadsFast, PricesOfSymbolDaysFromTheBatches) {
  testing::TestDatabase db;
  WriteDay(db);
  const std::string all = PricesOf(db, absl::InfiniteFuture());
  const std::string part = PricesOf(db, At(900));
  ASSERT_NE(all, part);
  Compact(db);
  EXPECT_EQ(PricesOf(db, absl::InfiniteFuture()), all);
  EXPECT_EQ(PricesOf(db, At(900)), part);
  // With later writes the statement runs over both stores: the new price
  // is there, and the priceless quote took its instant's price away.
  WriteLate(db);
  const std::string late = PricesOf(db, absl::InfiniteFuture());
  EXPECT_NE(
      late.find(absl::FormatTime(At(300) + absl::Milliseconds(500)) + "=7/7"),
      std::string::npos);
  // B_B's line: from "B_B " to the end of its line.
  auto line_of = [](const std::string& prices, const std::string& symbol) {
    const size_t start = prices.find(symbol + " ");
    if (start == std::string::npos) return std::string();
    return prices.substr(start, prices.find('\n', start) - start);
  };
  const std::string priceless_at = absl::FormatTime(At(901)) + "=";
  EXPECT_NE(line_of(all, "B_B").find(priceless_at), std::string::npos);
  EXPECT_EQ(line_of(late, "B_B").find(priceless_at), std::string::npos)
      << "B_B's 09:30:01 kept the price a later write took away";
}

// Latest quotes of batches nothing decoded whole (no page read them, so
// the cache does not hold them): each batch decodes the one quote asked
// for, and the answers are the row store's before the compaction.
TEST(CompactedReadsFast, LatestQuotesDecodeOneQuoteOfEachBatch) {
  testing::TestDatabase db;
  WriteDay(db);
  const std::vector<std::pair<int, int>> bounds = {
      {0, 1199}, {300, 301}, {0, 900},   {901, 901},  {999, 1001},
      {0, 0},    {1, 2},     {-100, -1}, {1100, 1300}};
  std::vector<std::vector<std::string>> row_wise;
  for (const auto& [from, to] : bounds) {
    row_wise.push_back(LatestRows(db, At(from), At(to)));
  }
  Compact(db);
  for (size_t i = 0; i < bounds.size(); ++i) {
    EXPECT_EQ(LatestRows(db, At(bounds[i].first), At(bounds[i].second)),
              row_wise[i])
        << bounds[i].first << " " << bounds[i].second;
  }
}

TEST(CompactedReadsFast, AnswerAsTheStatementOverBothStores) {
  testing::TestDatabase db;
  WriteDay(db);
  // Row-wise: no batch, the statement runs as it is.
  CompareEveryRead(db);
  Compact(db);
  CompareEveryRead(db);
  WriteLate(db);
  CompareEveryRead(db);
}

// The pages of a compacted day are read ahead (storage/day_page_read_ahead.h):
// a page asked for after the day changed (a late write within it, the day's
// batches compacted again or deleted) must still answer as the statement.
TEST(CompactedReadsFast, PagesReadAheadSeeWhatChangedBetweenPages) {
  testing::TestDatabase db;
  WriteDay(db);
  Compact(db);
  auto conn = db.pool().Acquire();
  ASSERT_TRUE(conn.ok());
  const absl::Time end = At(1100);
  const int limit = 100;
  domain::KeysetBound bound{At(-1), "", ""};
  // Reads the next page both ways and moves the bound past it.
  auto next_page = [&](const std::string& when) {
    Params params;
    params.Date(kDay).Time(bound.at).Text(bound.key1).Time(end).Int32(limit);
    auto fast =
        DayPageRows(**conn, kDayPage, params, kDay, {}, bound, end, limit);
    auto general = ExecSeeingCompactedQuotes(
        **conn, kDayPage, params,
        CompactedFilter{kDay, kDay, std::nullopt, bound.at, end});
    ASSERT_TRUE(fast.ok()) << fast.status();
    ASSERT_TRUE(general.ok()) << general.status();
    EXPECT_EQ(testing::ResultRows(*fast), testing::ResultRows(*general))
        << when;
    if (general->rows() > 0) {
      const int last = general->rows() - 1;
      bound = {general->Time(last, 0), general->String(last, 1), ""};
    }
  };
  // A quote of `symbol` half a second after the bound (inside the next
  // page), in the row store.
  auto write_inside_next_page = [&](const std::string& symbol, int price,
                                    const std::string& payload) {
    const std::string instant = absl::FormatTime(
        "%Y-%m-%d %H:%M:%E6S%Ez", bound.at + absl::Milliseconds(500), kIst);
    db.Query(absl::StrCat(
        "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
        "last_price, volume, quote_data) VALUES ('",
        symbol, "', '", instant, "', '2026-05-04', ", price, ", ", price, ", '",
        payload, "')"));
  };
  next_page("the first page");  // reads the next ones ahead
  next_page("a page read ahead");
  // Between two pages, a quote of a new symbol inside the next page written
  // and compacted at once: the batches of the next pages are no longer the
  // ones listed when they were read ahead, so neither the quotes read ahead
  // nor their listing may serve them.
  write_inside_next_page("ZZY", 2, "written and compacted between pages");
  Compact(db);
  next_page("after a write compacted between pages");
  next_page("the page after it");
  // A new instant of another symbol inside the next page, in the row store.
  write_inside_next_page("ZZZ", 1, "between pages");
  next_page("after a late write within the page");
  next_page("the page after the late write");
  // The late write folded in by a new compaction of the day.
  Compact(db);
  next_page("after the day was compacted again");
  next_page("the page after that");
  // The day deleted (its batches gone) while pages are read ahead.
  db.Query("DELETE FROM stock_quote_batches WHERE trading_day = '2026-05-04'");
  next_page("after the day was deleted");
  Params params;
  params.Date(kDay).Time(bound.at).Text(bound.key1).Time(end).Int32(limit);
  auto after_delete =
      DayPageRows(**conn, kDayPage, params, kDay, {}, bound, end, limit);
  ASSERT_TRUE(after_delete.ok()) << after_delete.status();
  EXPECT_EQ(after_delete->rows(), 0);
}

// A day of many batches (twenty symbols, 3,000 quotes each, a second apart:
// 25 batches a symbol, cut at two-minute slots, 500 in all, more than a
// page's first look takes): a page loads
// the batches its quotes are in, not the rest of the day, and answers as the
// statement over every batch does, at the day's start, in its middle (on and
// between batch boundaries) and at its end, page after page.
TEST(CompactedReadsFast, APageOfADayLoadsOnlyTheBatchesItNeeds) {
  testing::TestDatabase db;
  db.Query(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "last_price, volume, quote_data) SELECT s, ('2026-05-04 "
      "09:15:00+05:30'::timestamptz + g * interval '1 second' + "
      "o * interval '1 millisecond'), '2026-05-04', 100 + g * 0.05, g, "
      "convert_to(s || ' payload ' || g, 'UTF8') "
      "FROM generate_series(0, 2999) g, (SELECT 'S' || lpad(i::text, 2, '0') "
      "AS s, i * 40 AS o FROM generate_series(0, 19) i) v");
  db.Query("SELECT mdc_ensure_partitions(0, 'stock_quotes')");
  Compact(db);
  ASSERT_EQ(db.Query("SELECT count(*) FROM stock_quote_batches"), "500");
  auto conn = db.pool().Acquire();
  ASSERT_TRUE(conn.ok());
  const absl::Time end = At(3000);

  CompactedFilter first{kDay, kDay, std::nullopt, At(-1), end};
  first.first_quotes = 800;
  auto loaded = LoadCompactedBatches(**conn, first);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_LT(loaded->batches.size(), 500u);
  EXPECT_TRUE(loaded->left_out_from_us.has_value());

  for (int second : {-1, 999, 1000, 1543, 2999}) {
    for (int limit : {97, 1000}) {
      for (const std::string& after_symbol :
           std::vector<std::string>{"", "S07"}) {
        domain::KeysetBound bound{At(second), after_symbol, ""};
        // Four pages on: the first reads ahead, the next are served from it.
        for (int page = 0; page < 4; ++page) {
          Params params;
          params.Date(kDay)
              .Time(bound.at)
              .Text(bound.key1)
              .Time(end)
              .Int32(limit);
          auto fast = DayPageRows(**conn, kDayPage, params, kDay, {}, bound,
                                  end, limit);
          auto general = ExecSeeingCompactedQuotes(
              **conn, kDayPage, params,
              CompactedFilter{kDay, kDay, std::nullopt, bound.at, end});
          ASSERT_TRUE(fast.ok()) << fast.status();
          ASSERT_TRUE(general.ok()) << general.status();
          EXPECT_EQ(testing::ResultRows(*fast), testing::ResultRows(*general))
              << "second " << second << " limit " << limit << " after '"
              << after_symbol << "' page " << page;
          if (general->rows() < limit) break;
          const int last = general->rows() - 1;
          bound = {general->Time(last, 0), general->String(last, 1), ""};
        }
      }
    }
  }
}

}  // namespace
}  // namespace mdc::storage

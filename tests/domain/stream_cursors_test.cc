#include "domain/stream_cursors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "domain/stream_requests.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

const absl::Time kAt = absl::FromUnixSeconds(2000000000);

ReplayPosition Quote(absl::Time at, const char* symbol) {
  return {at, RecordKind::kQuote, symbol, ""};
}

TEST(ReplayCursor, RoundTrips) {
  for (const ReplayPosition& p :
       {ReplayPosition{kAt, RecordKind::kNifty, "", ""}, Quote(kAt, "M&M"),
        ReplayPosition{kAt + absl::Microseconds(7), RecordKind::kShortlist,
                       "TOP_GAINERS", "FULL"}}) {
    auto parsed = ParseReplayCursor(EncodeReplayCursor(p));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, p);
  }
}

TEST(ReplayCursor, RefusesWhatItDidNotMake) {
  for (const char* text : {"", "12", "r", "r!!", "rMSwy", "w1"}) {
    auto parsed = ParseReplayCursor(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find("cursor"), std::string::npos);
  }
}

TEST(ReplayOrder, InstantThenNiftyQuotesShortlistsThenKeys) {
  std::vector<ReplayPosition> sorted = {
      {kAt, RecordKind::kNifty, "", ""},
      Quote(kAt, "A"),
      Quote(kAt, "B"),
      {kAt, RecordKind::kShortlist, "TOP_GAINERS", "FULL"},
      {kAt, RecordKind::kShortlist, "TOP_GAINERS", "TOP_5"},
      {kAt + absl::Microseconds(1), RecordKind::kNifty, "", ""},
  };
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

// A source resumes exactly after the cursor: a record of kind `source` at
// position p comes next iff p > cursor, which the keyset bound expresses as
// (at, key1, key2) > bound.
bool AfterBound(const ReplayPosition& p, const KeysetBound& b) {
  return std::tie(p.at, p.key1, p.key2) > std::tie(b.at, b.key1, b.key2);
}

TEST(ResumeBound, SelectsExactlyTheRecordsAfterTheCursor) {
  std::vector<ReplayPosition> all;
  for (absl::Time at :
       {kAt - absl::Microseconds(1), kAt, kAt + absl::Microseconds(1)}) {
    all.push_back({at, RecordKind::kNifty, "", ""});
    all.push_back(Quote(at, "A"));
    all.push_back(Quote(at, "ZZ"));
    all.push_back({at, RecordKind::kShortlist, "TOP_GAINERS", "TOP_5"});
    all.push_back({at, RecordKind::kShortlist, "VOLUME_SHOCKERS", "FULL"});
  }
  for (const ReplayPosition& cursor : all) {
    for (const ReplayPosition& p : all) {
      const KeysetBound bound = ResumeBound(cursor, p.kind);
      // NIFTY rows are compared by instant only (their keys are empty).
      const bool selected =
          p.kind == RecordKind::kNifty ? p.at > bound.at : AfterBound(p, bound);
      EXPECT_EQ(selected, cursor < p) << "cursor " << EncodeReplayCursor(cursor)
                                      << " record " << EncodeReplayCursor(p);
    }
  }
}

TEST(WatchCursor, TxidDotSeq) {
  const StreamPosition position{7312, 42};
  EXPECT_EQ(EncodeWatchCursor(position), "7312.42");
  EXPECT_EQ(*ParseWatchCursor(EncodeWatchCursor(position)), position);
  for (const char* text :
       {"", "-1", "1a", "r1", "1234567890123456789", ".", "1.", ".1", "1.2.3",
        "1.-2", "-1.2", " 1.2", "1.2 ", "1234567890123456789.1"}) {
    EXPECT_FALSE(ParseWatchCursor(text).ok()) << text;
  }
}

// Cursors handed out before migration 0009 were the seq alone; the records
// stored then have txid 0, so such a cursor still resumes at its place.
TEST(WatchCursor, SeqAloneIsTxidZero) {
  EXPECT_EQ(*ParseWatchCursor("42"), (StreamPosition{0, 42}));
}

TEST(StreamPosition, OrdersByTxidThenSeq) {
  EXPECT_LT((StreamPosition{1, 900}), (StreamPosition{2, 5}));
  EXPECT_LT((StreamPosition{2, 5}), (StreamPosition{2, 6}));
  EXPECT_LE((StreamPosition{2, 6}), (StreamPosition{2, 6}));
  EXPECT_FALSE((StreamPosition{2, 6}) < (StreamPosition{2, 6}));
}

// A list parameter repeats (`symbols=A&symbols=B`) or separates items by
// commas (`symbols=A,B`), as every list parameter of the API; each item is
// exact: no blanks, no other spelling of a kind.
TEST(ParseReplayDay, CommasAndRepeatsBothList) {
  v1::ReplayDayRequest request;
  request.set_date("2024-01-02");
  request.add_symbols("INFY,TCS");
  request.add_symbols("WIPRO");
  request.add_kinds("quotes,nifty");
  auto plan = ParseReplayDay(request, BacktestClock());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->symbols, (std::vector<std::string>{"INFY", "TCS", "WIPRO"}));
  EXPECT_TRUE(plan->quotes);
  EXPECT_TRUE(plan->nifty);
  EXPECT_FALSE(plan->shortlists);
  v1::WatchQuotesRequest watch;
  watch.add_symbols("INFY,TCS");
  auto selection = ParseWatchQuotes(watch, BacktestClock());
  ASSERT_TRUE(selection.ok()) << selection.status();
  EXPECT_EQ(selection->symbol_list, (std::vector<std::string>{"INFY", "TCS"}));
}

TEST(ParseReplayDay, EachItemIsExact) {
  for (const char* symbol : {"", ",INFY", " INFY"}) {
    v1::ReplayDayRequest request;
    request.set_date("2024-01-02");
    request.add_symbols("INFY");
    request.add_symbols(symbol);
    auto plan = ParseReplayDay(request, BacktestClock());
    ASSERT_FALSE(plan.ok()) << symbol;
    EXPECT_NE(plan.status().message().find("symbols[1]"), std::string::npos)
        << plan.status();
  }
  for (const char* kind : {"", "QUOTES", "nifty,trades"}) {
    v1::ReplayDayRequest request;
    request.set_date("2024-01-02");
    request.add_kinds(kind);
    auto plan = ParseReplayDay(request, BacktestClock());
    ASSERT_FALSE(plan.ok()) << kind;
    const std::string field =
        absl::string_view(kind) == "nifty,trades" ? "kinds[1]" : "kinds[0]";
    EXPECT_NE(plan.status().message().find(field), std::string::npos)
        << plan.status();
  }
}

TEST(ParseReplayDay, RepeatedSymbolsCountOnce) {
  v1::ReplayDayRequest request;
  request.set_date("2024-01-02");
  request.add_symbols("TCS");
  request.add_symbols("INFY");
  request.add_symbols("TCS");
  auto plan = ParseReplayDay(request, BacktestClock());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->symbols, (std::vector<std::string>{"TCS", "INFY"}));
}

TEST(ParseReplayDay, NamesEveryBadParameter) {
  v1::ReplayDayRequest request;
  request.set_date("2024-02-30");
  request.add_symbols("OK");
  request.add_symbols("NOT OK");
  request.add_kinds("quotes");
  request.add_kinds("trades");
  request.set_cursor("x");
  auto plan = ParseReplayDay(request, BacktestClock());
  ASSERT_FALSE(plan.ok());
  for (const char* field : {"date", "symbols[1]", "kinds[1]", "cursor"}) {
    EXPECT_NE(plan.status().message().find(field), std::string::npos) << field;
  }
}

TEST(ParseReplayDay, TheClockCutsTheDay) {
  v1::ReplayDayRequest request;
  request.set_date("2024-01-02");
  const absl::Time ten = DayStart(absl::CivilDay(2024, 1, 2)) + absl::Hours(10);
  auto plan = ParseReplayDay(request, BacktestClock(ten));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->end, ten);
  EXPECT_TRUE(plan->quotes && plan->nifty && plan->shortlists);
  auto future = ParseReplayDay(
      request, BacktestClock(DayStart(absl::CivilDay(2024, 1, 2))));
  EXPECT_EQ(future.status().code(), absl::StatusCode::kPermissionDenied);
}

TEST(ParseWatch, TheClockHasNoMeaningForAWatch) {
  v1::WatchNiftyRequest request;
  EXPECT_TRUE(ParseWatchNifty(request, BacktestClock()).ok());
  EXPECT_EQ(ParseWatchNifty(request, BacktestClock(kAt)).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(WatchSelection, SelectsItsRecords) {
  v1::WatchQuotesRequest request;
  request.add_symbols("INFY");
  request.add_symbols("TCS");
  auto selection = ParseWatchQuotes(request, BacktestClock());
  ASSERT_TRUE(selection.ok());
  v1::MarketEvent event;
  event.mutable_quote()->set_nse_symbol("TCS");
  EXPECT_TRUE(selection->Selects(event));
  event.mutable_quote()->set_nse_symbol("tcs");
  EXPECT_FALSE(selection->Selects(event));
  event.mutable_nifty();
  EXPECT_FALSE(selection->Selects(event));
}

}  // namespace
}  // namespace mdc::domain

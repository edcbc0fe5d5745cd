// Validation of collector writes: every rule, and that errors name fields by
// the JSON paths clients write.
#include "domain/observations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/escaping.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// The google.rpc.BadRequest field names a failed status carries.
std::vector<std::string> ViolatedFields(const absl::Status& status) {
  std::vector<std::string> fields;
  auto payload = status.GetPayload(kBadRequestTypeUrl);
  if (!payload.has_value()) return fields;
  google::rpc::BadRequest bad_request;
  bad_request.ParseFromString(std::string(*payload));
  for (const auto& v : bad_request.field_violations())
    fields.push_back(v.field());
  return fields;
}

v1::ShortlistData GoodShortlist() {
  v1::ShortlistData data;
  data.set_timestamp("2025-12-31T09:15:00");
  data.set_timezone("Asia/Kolkata");
  data.set_shortlist_type(v1::TOP_GAINERS);
  data.set_scope(v1::FULL);
  auto* a = data.add_entries();
  a->set_nse_symbol("M&M");
  a->set_name("Mahindra & Mahindra");
  a->set_price(3080);
  auto* b = data.add_entries();
  b->set_nse_symbol("BAJAJ-AUTO");
  b->set_price(8900.05);
  return data;
}

TEST(ValidateShortlist, AcceptsTheSeedShapeAndKeepsRank) {
  auto snapshot = ValidateShortlist(GoodShortlist());
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(FormatInstant(snapshot->observed_at), "2025-12-31T03:45:00Z");
  EXPECT_EQ(snapshot->type, v1::TOP_GAINERS);
  EXPECT_EQ(snapshot->scope, v1::FULL);
  ASSERT_EQ(snapshot->entries.entries_size(), 2);
  EXPECT_EQ(snapshot->entries.entries(0).nse_symbol(), "M&M");
  EXPECT_EQ(snapshot->entries.entries(1).price(), 8900.05);
}

TEST(ValidateShortlist, ScopeDefaultsToTop5AndEmptyEntriesAreAnObservation) {
  v1::ShortlistData data = GoodShortlist();
  data.clear_scope();
  data.clear_entries();
  auto snapshot = ValidateShortlist(data);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->scope, v1::TOP_5);
  EXPECT_EQ(snapshot->entries.entries_size(), 0);
}

TEST(ValidateShortlist, ReportsEveryBadFieldAtOnce) {
  v1::ShortlistData data = GoodShortlist();
  data.set_timestamp("2025-02-30T10:00:00");
  data.set_timezone("Mars/Olympus");
  data.clear_shortlist_type();
  data.mutable_entries(0)->set_nse_symbol("");
  data.mutable_entries(1)->set_price(-0.5);
  auto snapshot = ValidateShortlist(data);
  ASSERT_EQ(snapshot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ViolatedFields(snapshot.status()),
            (std::vector<std::string>{
                "data.timezone", "data.timestamp", "data.shortlistType",
                "data.entries[0].nseSymbol", "data.entries[1].price"}));
}

TEST(ValidateShortlist, ImpossibleTimestampIsNamed) {
  v1::ShortlistData data = GoodShortlist();
  data.set_timestamp("2025-02-30T10:00:00");
  auto snapshot = ValidateShortlist(data);
  EXPECT_EQ(ViolatedFields(snapshot.status()),
            std::vector<std::string>{"data.timestamp"});
}

TEST(ValidateShortlist, PriceRules) {
  // 1e306 and above: outcomes built on such a price overflowed to Infinity.
  for (double price :
       {-1.0, std::nan(""), std::numeric_limits<double>::infinity(),
        1.000001e15, 1e306}) {
    v1::ShortlistData data = GoodShortlist();
    data.mutable_entries(0)->set_price(price);
    EXPECT_EQ(ViolatedFields(ValidateShortlist(data).status()),
              std::vector<std::string>{"data.entries[0].price"})
        << price;
  }
  v1::ShortlistData missing = GoodShortlist();
  missing.mutable_entries(0)->clear_price();
  EXPECT_EQ(ViolatedFields(ValidateShortlist(missing).status()),
            std::vector<std::string>{"data.entries[0].price"});
  v1::ShortlistData zero = GoodShortlist();
  zero.mutable_entries(0)->set_price(0);
  EXPECT_TRUE(ValidateShortlist(zero).ok());
  v1::ShortlistData largest = GoodShortlist();
  largest.mutable_entries(0)->set_price(1e15);
  EXPECT_TRUE(ValidateShortlist(largest).ok());
}

TEST(ValidateShortlist, AtMostAThousandEntries) {
  v1::ShortlistData data = GoodShortlist();
  data.clear_entries();
  for (int i = 0; i < 1000; ++i) {
    auto* e = data.add_entries();
    e->set_nse_symbol("S" + std::to_string(i));
    e->set_price(1);
  }
  EXPECT_TRUE(ValidateShortlist(data).ok());
  auto* extra = data.add_entries();
  extra->set_nse_symbol("ONE-TOO-MANY");
  extra->set_price(1);
  EXPECT_EQ(ViolatedFields(ValidateShortlist(data).status()),
            std::vector<std::string>{"data.entries"});
}

TEST(ValidateShortlist, NamesHoldNoControlOrFormatCharacters) {
  v1::ShortlistData data = GoodShortlist();
  data.mutable_entries(0)->set_name("Mahindra & Mahindra \xe2\x82\xb9");
  EXPECT_TRUE(ValidateShortlist(data).ok());
  for (const std::string bad :
       {std::string("M&M\x1b[31m"), std::string("M&M\0x", 5),
        std::string("M&M\r"), std::string("M&M\x7f"), std::string("M&M\t"),
        std::string("M&M\n"), std::string("M&M\xc2\x85"),
        std::string("M&M\xe2\x80\xae"), std::string("M&M\xe2\x81\xa6")}) {
    data.mutable_entries(0)->set_name(bad);
    const absl::Status status = ValidateShortlist(data).status();
    EXPECT_EQ(ViolatedFields(status),
              std::vector<std::string>{"data.entries[0].name"})
        << absl::CHexEscape(bad);
    EXPECT_NE(status.message().find("control or format characters"),
              std::string::npos)
        << status;
  }
}

TEST(ValidateShortlist, UnknownEnumNumbersFromGrpcAreRefused) {
  v1::ShortlistData data = GoodShortlist();
  data.set_shortlist_type(static_cast<v1::ShortlistType>(42));
  data.set_scope(static_cast<v1::Scope>(9));
  EXPECT_EQ(ViolatedFields(ValidateShortlist(data).status()),
            (std::vector<std::string>{"data.shortlistType", "data.scope"}));
}

TEST(CheckSymbol, Rules) {
  for (const char* good :
       {"RELIANCE", "M&M", "BAJAJ-AUTO", "L_T", "NIFTY.50", "A"}) {
    EXPECT_TRUE(CheckSymbol(good).ok()) << good;
  }
  for (const char* bad : {"", "HAS SPACE", "SEMI;COLON", "QUOTE'", "ÄBC",
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"}) {
    EXPECT_FALSE(CheckSymbol(bad).ok()) << bad;
  }
}

v1::NiftyData GoodNifty() {
  v1::NiftyData data;
  data.set_timestamp("2025-12-31T09:15:00");
  data.set_timezone("etc/UTC");
  data.mutable_quote_data()->set_status(v1::SUCCESS);
  data.mutable_quote_data()->mutable_payload()->set_last_price(26146.55);
  data.mutable_quote_data()->mutable_payload()->set_last_trade_time(
      1767152700000);
  data.set_day_change_perc(-0.12);
  return data;
}

TEST(ValidateNifty, AcceptsAndResolvesTheZone) {
  auto nifty = ValidateNifty(GoodNifty());
  ASSERT_TRUE(nifty.ok()) << nifty.status();
  EXPECT_EQ(FormatInstant(nifty->observed_at), "2025-12-31T09:15:00Z");
  EXPECT_EQ(nifty->day_change_perc, -0.12);
}

TEST(ValidateNifty, RequiredFields) {
  v1::NiftyData data = GoodNifty();
  data.clear_quote_data();
  data.clear_day_change_perc();
  data.clear_timestamp();
  EXPECT_EQ(ViolatedFields(ValidateNifty(data).status()),
            (std::vector<std::string>{"data.timestamp", "data.quoteData",
                                      "data.dayChangePerc"}));
}

TEST(ValidateNifty, QuoteRules) {
  v1::NiftyData data = GoodNifty();
  data.mutable_quote_data()->clear_status();
  auto* payload = data.mutable_quote_data()->mutable_payload();
  payload->set_volume(std::nan(""));
  payload->set_last_trade_time(1.5);
  payload->mutable_ohlc()->set_high(std::numeric_limits<double>::infinity());
  payload->mutable_depth()->add_sell()->set_price(std::nan(""));
  EXPECT_EQ(ViolatedFields(ValidateNifty(data).status()),
            (std::vector<std::string>{
                "data.quoteData.status", "data.quoteData.payload.volume",
                "data.quoteData.payload.ohlc.high",
                "data.quoteData.payload.depth.sell[0].price",
                "data.quoteData.payload.last_trade_time"}));
}

// Numbers near the double maximum are refused: candles and outcomes built
// from them would overflow.
TEST(ValidateNifty, NumbersAreBoundedBy1e15) {
  v1::NiftyData data = GoodNifty();
  auto* payload = data.mutable_quote_data()->mutable_payload();
  payload->set_volume(1e15);
  payload->set_day_change(-1e15);
  EXPECT_TRUE(ValidateNifty(data).ok());
  payload->set_volume(1e306);
  payload->set_day_change(-1.000001e15);
  payload->mutable_depth()->add_buy()->set_quantity(1.7976931348623157e308);
  payload->set_last_trade_time(1e306);
  data.set_day_change_perc(-1e306);
  const absl::Status status = ValidateNifty(data).status();
  EXPECT_EQ(
      ViolatedFields(status),
      (std::vector<std::string>{"data.quoteData.payload.day_change",
                                "data.quoteData.payload.volume",
                                "data.quoteData.payload.last_trade_time",
                                "data.quoteData.payload.depth.buy[0].quantity",
                                "data.dayChangePerc"}));
  EXPECT_NE(status.message().find("must be a finite number from -1e15 to 1e15"),
            absl::string_view::npos)
      << status;
}

// Depth is capped per side, and a depth over the cap is refused before any
// per-level work: 200,000 levels cost one violation, not 200,000 checks.
TEST(ValidateNifty, DepthIsCappedPerSide) {
  v1::NiftyData data = GoodNifty();
  auto* depth = data.mutable_quote_data()->mutable_payload()->mutable_depth();
  for (int i = 0; i < kMaxDepthLevels; ++i) {
    depth->add_buy()->set_price(100 + i);
    depth->add_sell()->set_price(200 + i);
  }
  EXPECT_TRUE(ValidateNifty(data).ok());
  for (int i = 0; i < 200'000; ++i) {
    depth->add_sell()->set_price(std::nan(""));
  }
  const absl::Status status = ValidateNifty(data).status();
  EXPECT_EQ(ViolatedFields(status),
            std::vector<std::string>{"data.quoteData.payload.depth.sell"});
  EXPECT_NE(status.message().find("has 200200 levels; at most 200"),
            absl::string_view::npos)
      << status;
}

TEST(ValidateNifty, FailureWithoutPayloadIsValid) {
  v1::NiftyData data = GoodNifty();
  data.mutable_quote_data()->set_status(v1::FAILURE);
  data.mutable_quote_data()->clear_payload();
  EXPECT_TRUE(ValidateNifty(data).ok());
}

v1::QuotesData GoodQuotes(int n) {
  v1::QuotesData data;
  data.set_timestamp("2025-12-31T10:00:00");
  for (int i = 0; i < n; ++i) {
    auto* q = data.add_quotes();
    q->set_nse_symbol("SYM" + std::to_string(i));
    q->mutable_quote_data()->set_status(v1::SUCCESS);
    q->mutable_quote_data()->mutable_payload()->set_last_price(100 + i);
  }
  return data;
}

TEST(ValidateQuotes, OneToAThousandDistinctSymbols) {
  EXPECT_TRUE(ValidateQuotes(GoodQuotes(1)).ok());
  EXPECT_TRUE(ValidateQuotes(GoodQuotes(1000)).ok());
  EXPECT_EQ(ViolatedFields(ValidateQuotes(GoodQuotes(0)).status()),
            std::vector<std::string>{"data.quotes"});
  EXPECT_EQ(ViolatedFields(ValidateQuotes(GoodQuotes(1001)).status()),
            std::vector<std::string>{"data.quotes"});
  v1::QuotesData twice = GoodQuotes(3);
  twice.mutable_quotes(2)->set_nse_symbol("SYM0");
  EXPECT_EQ(ViolatedFields(ValidateQuotes(twice).status()),
            std::vector<std::string>{"data.quotes[2].nseSymbol"});
}

// A SUCCESS quote carries its price; a FAILURE quote needs none.
TEST(ValidateQuotes, SuccessNeedsLastPrice) {
  v1::QuotesData data = GoodQuotes(3);
  data.mutable_quotes(0)->mutable_quote_data()->clear_payload();
  data.mutable_quotes(1)
      ->mutable_quote_data()
      ->mutable_payload()
      ->clear_last_price();
  data.mutable_quotes(1)->mutable_quote_data()->mutable_payload()->set_volume(
      5);
  const absl::Status status = ValidateQuotes(data).status();
  EXPECT_EQ(ViolatedFields(status),
            (std::vector<std::string>{
                "data.quotes[0].quoteData.payload.last_price",
                "data.quotes[1].quoteData.payload.last_price"}));
  EXPECT_NE(status.message().find("is required when status is SUCCESS"),
            absl::string_view::npos)
      << status;
  data.mutable_quotes(0)->mutable_quote_data()->set_status(v1::FAILURE);
  data.mutable_quotes(1)->mutable_quote_data()->set_status(v1::FAILURE);
  EXPECT_TRUE(ValidateQuotes(data).ok());
}

TEST(ValidateNifty, SuccessNeedsLastPrice) {
  v1::NiftyData data = GoodNifty();
  data.mutable_quote_data()->mutable_payload()->clear_last_price();
  EXPECT_EQ(ViolatedFields(ValidateNifty(data).status()),
            std::vector<std::string>{"data.quoteData.payload.last_price"});
}

TEST(ValidateShortlist, AnEntrysSuccessQuoteNeedsLastPrice) {
  v1::ShortlistData data = GoodShortlist();
  data.mutable_entries(1)->mutable_quote_data()->set_status(v1::SUCCESS);
  EXPECT_EQ(
      ViolatedFields(ValidateShortlist(data).status()),
      std::vector<std::string>{"data.entries[1].quoteData.payload.last_price"});
}

TEST(ValidateQuotes, EachQuoteNeedsQuoteData) {
  v1::QuotesData data = GoodQuotes(2);
  data.mutable_quotes(1)->clear_quote_data();
  EXPECT_EQ(ViolatedFields(ValidateQuotes(data).status()),
            std::vector<std::string>{"data.quotes[1].quoteData"});
}

TEST(FieldErrors, MessageListsEveryViolation) {
  FieldErrors errors;
  errors.Add("a", "is required");
  errors.Add("b[1].c", "must be positive");
  const absl::Status status = errors.ToStatus();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "a: is required; b[1].c: must be positive");
  EXPECT_TRUE(FieldErrors().ToStatus().ok());
}

}  // namespace
}  // namespace mdc::domain

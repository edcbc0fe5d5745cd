// Validation of imported records: the kind of the RPC, the instant and its
// trading day, the collector's rules, and errors that name the record by
// its place in the whole stream.
#include "domain/import_records.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domain/field_errors.h"

namespace mdc::domain {
namespace {

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

// 2025-03-06 09:15 IST.
constexpr int64_t kMorning = 1741232700;

v1::ExportRecord GoodQuote() {
  v1::ExportRecord record;
  record.set_trading_day("2025-03-06");
  auto* quote = record.mutable_quote();
  quote->mutable_timestamp()->set_seconds(kMorning);
  quote->set_nse_symbol("M&M");
  quote->mutable_quote_data()->set_status(v1::SUCCESS);
  quote->mutable_quote_data()->mutable_payload()->set_last_price(3080.5);
  return record;
}

TEST(ImportRecords, AGoodQuoteIsTakenWhole) {
  auto quote = ValidateImportedQuote(GoodQuote(), 0);
  ASSERT_TRUE(quote.ok()) << quote.status();
  EXPECT_EQ(quote->symbol, "M&M");
  EXPECT_EQ(quote->observed_at, absl::FromUnixSeconds(kMorning));
  EXPECT_EQ(quote->trading_day, absl::CivilDay(2025, 3, 6));
  EXPECT_EQ(quote->quote.payload().last_price(), 3080.5);
}

TEST(ImportRecords, ErrorsNameTheRecordByItsPlaceInTheStream) {
  v1::ExportRecord record = GoodQuote();
  record.mutable_quote()->set_nse_symbol("NO SPACES");
  auto quote = ValidateImportedQuote(std::move(record), 123456);
  ASSERT_EQ(quote.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ViolatedFields(quote.status()),
            std::vector<std::string>{"records[123456].quote.nseSymbol"});
}

TEST(ImportRecords, TheTradingDayMustBeTheInstantsInKolkata) {
  v1::ExportRecord record = GoodQuote();
  // 2025-03-06T20:00Z is 2025-03-07 01:30 in Kolkata.
  record.mutable_quote()->mutable_timestamp()->set_seconds(1741291200);
  auto quote = ValidateImportedQuote(std::move(record), 0);
  EXPECT_EQ(ViolatedFields(quote.status()),
            std::vector<std::string>{"records[0].tradingDay"});
  EXPECT_NE(quote.status().message().find("2025-03-07"), std::string::npos);

  record = GoodQuote();
  record.set_trading_day("06/03/2025");
  EXPECT_EQ(
      ViolatedFields(ValidateImportedQuote(std::move(record), 0).status()),
      std::vector<std::string>{"records[0].tradingDay"});
}

TEST(ImportRecords, ARecordOfAnotherKindIsRefused) {
  EXPECT_EQ(ViolatedFields(ValidateImportedNifty(GoodQuote(), 4).status()),
            std::vector<std::string>{"records[4].nifty"});
  EXPECT_EQ(
      ViolatedFields(ValidateImportedShortlist(v1::ExportRecord(), 5).status()),
      std::vector<std::string>{"records[5].shortlist"});
}

TEST(ImportRecords, TheCollectorsRulesApply) {
  v1::ExportRecord record = GoodQuote();
  record.mutable_quote()->mutable_quote_data()->mutable_payload()->set_volume(
      1e16);
  record.mutable_quote()
      ->mutable_quote_data()
      ->mutable_payload()
      ->clear_last_price();
  EXPECT_EQ(
      ViolatedFields(ValidateImportedQuote(std::move(record), 1).status()),
      (std::vector<std::string>{"records[1].quote.quoteData.payload.last_price",
                                "records[1].quote.quoteData.payload.volume"}));
}

TEST(ImportRecords, AnInstantIsRequiredAndSupported) {
  v1::ExportRecord record = GoodQuote();
  record.mutable_quote()->clear_timestamp();
  EXPECT_EQ(
      ViolatedFields(ValidateImportedQuote(std::move(record), 0).status()),
      std::vector<std::string>{"records[0].quote.timestamp"});
  record = GoodQuote();
  // 1800-01-01: before the supported years.
  record.mutable_quote()->mutable_timestamp()->set_seconds(-5364662400);
  EXPECT_EQ(
      ViolatedFields(ValidateImportedQuote(std::move(record), 0).status()),
      std::vector<std::string>{"records[0].quote.timestamp"});
}

TEST(ImportRecords, ANiftyQuoteNeedsItsDayChange) {
  v1::ExportRecord record;
  record.set_trading_day("2025-03-06");
  auto* nifty = record.mutable_nifty();
  nifty->mutable_timestamp()->set_seconds(kMorning);
  nifty->mutable_quote_data()->set_status(v1::FAILURE);
  EXPECT_EQ(ViolatedFields(
                ValidateImportedNifty(v1::ExportRecord(record), 0).status()),
            std::vector<std::string>{"records[0].nifty.dayChangePerc"});
  nifty->set_day_change_perc(-0.5);
  auto good = ValidateImportedNifty(std::move(record), 0);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->day_change_perc, -0.5);
}

TEST(ImportRecords, AShortlistNeedsItsTypeAndScopeAndGoodEntries) {
  v1::ExportRecord record;
  record.set_trading_day("2025-03-06");
  auto* shortlist = record.mutable_shortlist();
  shortlist->mutable_timestamp()->set_seconds(kMorning);
  shortlist->add_entries()->set_nse_symbol("TCS");
  EXPECT_EQ(
      ViolatedFields(
          ValidateImportedShortlist(v1::ExportRecord(record), 2).status()),
      (std::vector<std::string>{"records[2].shortlist.shortlistType",
                                "records[2].shortlist.scope",
                                "records[2].shortlist.entries[0].price"}));
  shortlist->set_shortlist_type(v1::VOLUME_SHOCKERS);
  shortlist->set_scope(v1::FULL);
  shortlist->mutable_entries(0)->set_price(4100);
  auto good = ValidateImportedShortlist(std::move(record), 2);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->entries.entries_size(), 1);
  EXPECT_EQ(good->scope, v1::FULL);
}

TEST(ImportRecords, AMessageHoldsAtMostTenThousandRecords) {
  EXPECT_TRUE(CheckImportMessageSize(kMaxImportRecordsPerMessage).ok());
  EXPECT_EQ(
      ViolatedFields(CheckImportMessageSize(kMaxImportRecordsPerMessage + 1)),
      std::vector<std::string>{"records"});
}

}  // namespace
}  // namespace mdc::domain

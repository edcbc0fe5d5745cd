// ExportService through a real gRPC channel on a real database: records of
// several days in time order, more than a page of them, the backtest clock,
// quotes exactly as saved (the server forwards their stored bytes), errors
// before the first message, and a cancelled export that stops.
#include <google/protobuf/util/message_differencer.h>
#include <grpcpp/client_context.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "service/streams/export_sources.h"
#include "tests/support/collector_requests.h"
#include "tests/support/service_stack.h"

namespace mdc::testing {
namespace {

class ExportStreamTest : public ServiceTest {
 protected:
  // Every record an export sends, and how it ended.
  struct Received {
    std::vector<v1::ExportRecord> records;
    grpc::Status status;
  };

  template <typename Request>
  static Received Export(
      std::unique_ptr<grpc::ClientReader<v1::ExportChunk>> (
          v1::ExportService::Stub::*rpc)(grpc::ClientContext*, const Request&),
      const Request& request, const Headers& headers) {
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + kCallDeadline));
    headers.ApplyTo(context);
    auto reader = (stack().exports().*rpc)(&context, request);
    Received received;
    v1::ExportChunk chunk;
    while (reader->Read(&chunk)) {
      for (auto& record : *chunk.mutable_records()) {
        received.records.push_back(std::move(record));
      }
    }
    received.status = reader->Finish();
    return received;
  }

  // `count` quotes of each of `symbols`, one a minute from 09:15 IST of
  // `day`.
  static void SaveQuotes(const std::string& token, const std::string& day,
                         const std::vector<std::string>& symbols, int count) {
    for (int minute = 0; minute < count; ++minute) {
      v1::SaveQuotesRequest request = QuotesRequest(
          absl::StrFormat("%sT%02d:%02d:00", day, 9 + (15 + minute) / 60,
                          (15 + minute) % 60),
          symbols[0], 100 + minute);
      for (size_t s = 1; s < symbols.size(); ++s) {
        v1::QuoteItem* item = request.mutable_data()->add_quotes();
        item->set_nse_symbol(symbols[s]);
        *item->mutable_quote_data() = Quote(200 + minute);
      }
      ASSERT_TRUE(Call(stack().collector(),
                       &v1::CollectorService::Stub::SaveQuotes, Bearer(token),
                       request)
                      .status.ok());
    }
  }
};

TEST_F(ExportStreamTest, QuotesOfSeveralDaysComeInTimeOrderAcrossPages) {
  const std::string token = stack().NewDeveloper();
  // More than a page (kExportPage) on the first day; the weekend between.
  SaveQuotes(token, "2036-01-04", {"SXA", "SXB", "SXC"}, 400);
  SaveQuotes(token, "2036-01-07", {"SXB"}, 3);
  v1::ExportQuotesRequest request;
  request.set_start_date("2036-01-04");
  request.set_end_date("2036-01-07");
  Received got =
      Export(&v1::ExportService::Stub::ExportQuotes, request, Bearer(token));
  ASSERT_TRUE(got.status.ok()) << got.status.error_message();
  ASSERT_EQ(got.records.size(), 1203u);
  ASSERT_GT(got.records.size(), static_cast<size_t>(kExportPage));
  for (size_t i = 1; i < got.records.size(); ++i) {
    const auto& a = got.records[i - 1];
    const auto& b = got.records[i];
    const auto key = [](const v1::ExportRecord& r) {
      return std::make_tuple(r.trading_day(), r.quote().timestamp().seconds(),
                             r.quote().nse_symbol());
    };
    ASSERT_LT(key(a), key(b)) << "record " << i;
  }
  EXPECT_EQ(got.records.front().trading_day(), "2036-01-04");
  EXPECT_EQ(got.records.front().quote().nse_symbol(), "SXA");
  EXPECT_EQ(got.records.back().trading_day(), "2036-01-07");

  // Some symbols only, and the backtest clock cutting the first day.
  request.add_symbols("SXC");
  got = Export(&v1::ExportService::Stub::ExportQuotes, request,
               Bearer(token).At("2036-01-04T09:20:00"));
  ASSERT_TRUE(got.status.ok()) << got.status.error_message();
  ASSERT_EQ(got.records.size(), 5u);  // 09:15 to 09:19
  EXPECT_EQ(got.records.back().quote().quote_data().payload().last_price(),
            204);
}

// A quote with a payload, OHLC and five depth levels a side (one without a
// quantity).
v1::QuoteData DeepQuote(double last_price) {
  v1::QuoteData quote = Quote(last_price);
  v1::QuotePayload* payload = quote.mutable_payload();
  payload->set_volume(98765);
  payload->mutable_ohlc()->set_high(last_price + 2);
  for (int level = 0; level < 5; ++level) {
    v1::DepthLevel* buy = payload->mutable_depth()->add_buy();
    buy->set_price(last_price - level - 1);
    buy->set_quantity(10 * (level + 1));
    v1::DepthLevel* sell = payload->mutable_depth()->add_sell();
    sell->set_price(last_price + level + 1);
    if (level != 3) sell->set_quantity(5 * (level + 1));
  }
  return quote;
}

TEST_F(ExportStreamTest, QuotesAndNiftyQuotesComeExactlyAsSaved) {
  const std::string token = stack().NewDeveloper();
  v1::SaveQuotesRequest quotes = QuotesRequest("2036-04-06T10:00:00", "SQA");
  *quotes.mutable_data()->mutable_quotes(0)->mutable_quote_data() =
      DeepQuote(812.5);
  v1::QuoteItem* bare = quotes.mutable_data()->add_quotes();
  bare->set_nse_symbol("SQB");
  bare->mutable_quote_data()->set_status(v1::FAILURE);
  const v1::SaveQuotesRequest saved_quotes = quotes;
  ASSERT_TRUE(Call(stack().collector(), &v1::CollectorService::Stub::SaveQuotes,
                   Bearer(token), quotes)
                  .status.ok());
  v1::SaveNiftyRequest deep_nifty = NiftyRequest("2036-04-06T10:00:00");
  *deep_nifty.mutable_data()->mutable_quote_data() = DeepQuote(23000.25);
  v1::SaveNiftyRequest bare_nifty =
      NiftyRequest("2036-04-06T10:01:00", 0, -0.25);
  bare_nifty.mutable_data()->mutable_quote_data()->set_status(v1::FAILURE);
  bare_nifty.mutable_data()->mutable_quote_data()->clear_payload();
  const v1::SaveNiftyRequest saved_deep = deep_nifty;
  const v1::SaveNiftyRequest saved_bare = bare_nifty;
  for (const v1::SaveNiftyRequest* nifty : {&deep_nifty, &bare_nifty}) {
    ASSERT_TRUE(Call(stack().collector(),
                     &v1::CollectorService::Stub::SaveNifty, Bearer(token),
                     *nifty)
                    .status.ok());
  }
  using google::protobuf::util::MessageDifferencer;

  v1::ExportQuotesRequest request;
  request.set_start_date("2036-04-06");
  Received got =
      Export(&v1::ExportService::Stub::ExportQuotes, request, Bearer(token));
  ASSERT_TRUE(got.status.ok()) << got.status.error_message();
  ASSERT_EQ(got.records.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const v1::QuoteItem& saved = saved_quotes.data().quotes(i);
    const v1::StockQuote& quote = got.records[i].quote();
    EXPECT_EQ(got.records[i].trading_day(), "2036-04-06");
    EXPECT_EQ(quote.nse_symbol(), saved.nse_symbol());
    EXPECT_EQ(quote.timestamp().seconds(),
              absl::ToUnixSeconds(IstInstant("2036-04-06T10:00:00")));
    EXPECT_TRUE(quote.has_quote_data()) << i;
    EXPECT_TRUE(quote.GetReflection()->GetUnknownFields(quote).empty()) << i;
    EXPECT_TRUE(
        MessageDifferencer::Equals(quote.quote_data(), saved.quote_data()))
        << i << ": " << quote.quote_data().DebugString();
  }
  EXPECT_FALSE(got.records[1].quote().quote_data().has_payload());

  v1::ExportNiftyRequest nifty_request;
  nifty_request.set_start_date("2036-04-06");
  got = Export(&v1::ExportService::Stub::ExportNifty, nifty_request,
               Bearer(token));
  ASSERT_TRUE(got.status.ok()) << got.status.error_message();
  ASSERT_EQ(got.records.size(), 2u);
  const v1::SaveNiftyRequest* saved_nifty[] = {&saved_deep, &saved_bare};
  for (int i = 0; i < 2; ++i) {
    const v1::NiftyData& saved = saved_nifty[i]->data();
    const v1::NiftyQuote& nifty = got.records[i].nifty();
    EXPECT_EQ(nifty.day_change_perc(), saved.day_change_perc()) << i;
    EXPECT_TRUE(nifty.has_quote_data()) << i;
    EXPECT_TRUE(nifty.GetReflection()->GetUnknownFields(nifty).empty()) << i;
    EXPECT_TRUE(
        MessageDifferencer::Equals(nifty.quote_data(), saved.quote_data()))
        << i << ": " << nifty.quote_data().DebugString();
  }
  EXPECT_EQ(got.records[0].nifty().timestamp().seconds(),
            absl::ToUnixSeconds(IstInstant("2036-04-06T10:00:00")));
  EXPECT_FALSE(got.records[1].nifty().quote_data().has_payload());
}

TEST_F(ExportStreamTest, BadRequestsEndBeforeAnyMessage) {
  const std::string token = stack().NewDeveloper();
  v1::ExportCandlesRequest request;
  request.set_start_date("2036-01-04");
  request.set_end_date("2036-03-04");
  request.set_interval("7minute");
  Received got =
      Export(&v1::ExportService::Stub::ExportCandles, request, Bearer(token));
  EXPECT_EQ(got.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ViolatedFields(got.status),
            (std::vector<std::string>{"end_date", "interval"}));
  EXPECT_TRUE(got.records.empty());
  v1::ExportNiftyRequest nifty;
  nifty.set_start_date("2036-01-04");
  EXPECT_EQ(Export(&v1::ExportService::Stub::ExportNifty, nifty, Anonymous())
                .status.error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(ExportStreamTest, CandlesOfEverySymbolComeSymbolAfterSymbol) {
  const std::string token = stack().NewDeveloper();
  SaveQuotes(token, "2036-02-04", {"SYB", "SYA"}, 3);
  v1::ExportCandlesRequest request;
  request.set_start_date("2036-02-04");
  request.set_interval("1minute");
  Received got =
      Export(&v1::ExportService::Stub::ExportCandles, request, Bearer(token));
  ASSERT_TRUE(got.status.ok()) << got.status.error_message();
  std::vector<std::string> order;
  for (const auto& r : got.records) {
    order.push_back(
        absl::StrCat(r.candle().symbol(), "@",
                     r.candle().candle().time().seconds() % 3600 / 60, "=",
                     r.candle().candle().open()));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"SYA@45=200", "SYA@46=201",
                                             "SYA@47=202", "SYB@45=100",
                                             "SYB@46=101", "SYB@47=102"}));
}

TEST_F(ExportStreamTest, ACancelledExportStops) {
  const std::string token = stack().NewDeveloper();
  SaveQuotes(token, "2036-03-04", {"SZA", "SZB", "SZC", "SZD"}, 375);
  v1::ExportQuotesRequest request;
  request.set_start_date("2036-03-04");
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kCallDeadline));
  Bearer(token).ApplyTo(context);
  auto reader = stack().exports().ExportQuotes(&context, request);
  v1::ExportChunk chunk;
  ASSERT_TRUE(reader->Read(&chunk));
  EXPECT_EQ(chunk.records_size(), kExportPage);
  context.TryCancel();
  while (reader->Read(&chunk)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

}  // namespace
}  // namespace mdc::testing

// ExportService through a real gRPC channel on a real database: records of
// several days in time order, more than a page of them, the backtest clock,
// errors before the first message, and a cancelled export that stops.
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

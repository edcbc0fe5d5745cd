// Builders of valid collector requests (docs/api.md section 2) for tests
// that write through the gRPC services, and the instant a wall-clock
// timestamp in them stands for. Tests break one field of a valid request to
// get an invalid one.
//
// Plain functions; thread-safe.
#ifndef MDC_TESTS_SUPPORT_COLLECTOR_REQUESTS_H_
#define MDC_TESTS_SUPPORT_COLLECTOR_REQUESTS_H_

#include <string>

#include "absl/time/time.h"
#include "domain/time.h"
#include "mdc/v1/collector.pb.h"
#include "mdc/v1/market.pb.h"

namespace mdc::testing {

// The exchange zone: the default of every timestamp without a timezone.
inline constexpr char kExchangeZone[] = "Asia/Kolkata";

// The instant of `wall_clock` (YYYY-MM-DDTHH:MM:SS) in Asia/Kolkata.
inline absl::Time IstInstant(const std::string& wall_clock) {
  return *domain::ParseInstant(wall_clock, kExchangeZone);
}

// A successful quote with only a last price.
inline v1::QuoteData Quote(double last_price) {
  v1::QuoteData quote;
  quote.set_status(v1::SUCCESS);
  quote.mutable_payload()->set_last_price(last_price);
  return quote;
}

// A TOP_GAINERS / TOP_5 shortlist observed at `timestamp` (Asia/Kolkata)
// with one entry.
inline v1::SaveShortlistRequest ShortlistRequest(
    const std::string& timestamp, const std::string& symbol = "INFY",
    double price = 1500.25) {
  v1::SaveShortlistRequest request;
  v1::ShortlistData* data = request.mutable_data();
  data->set_timestamp(timestamp);
  data->set_shortlist_type(v1::TOP_GAINERS);
  data->set_scope(v1::TOP_5);
  v1::ShortlistEntry* entry = data->add_entries();
  entry->set_nse_symbol(symbol);
  entry->set_name(symbol + " Ltd");
  entry->set_price(price);
  return request;
}

// A NIFTY quote observed at `timestamp` (Asia/Kolkata).
inline v1::SaveNiftyRequest NiftyRequest(const std::string& timestamp,
                                         double last_price = 23456.75,
                                         double day_change_perc = 0.42) {
  v1::SaveNiftyRequest request;
  v1::NiftyData* data = request.mutable_data();
  data->set_timestamp(timestamp);
  *data->mutable_quote_data() = Quote(last_price);
  data->set_day_change_perc(day_change_perc);
  return request;
}

// One stock quote observed at `timestamp` (Asia/Kolkata).
inline v1::SaveQuotesRequest QuotesRequest(const std::string& timestamp,
                                           const std::string& symbol = "TCS",
                                           double last_price = 4012.5) {
  v1::SaveQuotesRequest request;
  v1::QuotesData* data = request.mutable_data();
  data->set_timestamp(timestamp);
  v1::QuoteItem* item = data->add_quotes();
  item->set_nse_symbol(symbol);
  *item->mutable_quote_data() = Quote(last_price);
  return request;
}

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_COLLECTOR_REQUESTS_H_

// Validation of collector writes: turns the request messages into validated
// observations with resolved instants, or a status naming every bad field.
//
// Field paths in messages are the JSON paths clients write
// ("data.entries[2].price"), so errors read the same over REST and gRPC.
#ifndef MDC_DOMAIN_OBSERVATIONS_H_
#define MDC_DOMAIN_OBSERVATIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "domain/field_errors.h"
#include "domain/field_path.h"
#include "mdc/v1/collector.pb.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

inline constexpr int kMaxShortlistEntries = 1000;
inline constexpr int kMaxQuotesPerRequest = 1000;
inline constexpr int kMaxSymbolLength = 32;
inline constexpr int kMaxNameLength = 256;
// The most price levels one side (buy, sell) of a quote's depth may hold.
inline constexpr int kMaxDepthLevels = 200;

// A shortlist snapshot ready to store. `entries.entries()` keeps the posted
// order (the rank); the other fields of `entries` are unset.
struct ShortlistSnapshot {
  v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
  v1::Scope scope = v1::TOP_5;
  absl::Time observed_at;
  v1::Shortlist entries;
};

struct NiftyObservation {
  absl::Time observed_at;
  v1::QuoteData quote;
  double day_change_perc = 0;
};

struct StockObservation {
  std::string symbol;
  v1::QuoteData quote;
};

// Quotes of several stocks observed at one instant.
struct QuoteBatch {
  absl::Time observed_at;
  std::vector<StockObservation> quotes;
};

// Each takes the request's data: when it is valid, what the answer holds
// (entries, quotes) is moved out of `data` rather than copied, which leaves
// `data` emptied; when it is not, `data` is left as it was.
absl::StatusOr<ShortlistSnapshot> ValidateShortlist(v1::ShortlistData&& data);
absl::StatusOr<NiftyObservation> ValidateNifty(v1::NiftyData&& data);
absl::StatusOr<QuoteBatch> ValidateQuotes(v1::QuotesData&& data);

// The same for a caller that keeps its data: they validate a copy.
inline absl::StatusOr<ShortlistSnapshot> ValidateShortlist(
    const v1::ShortlistData& data) {
  return ValidateShortlist(v1::ShortlistData(data));
}
inline absl::StatusOr<NiftyObservation> ValidateNifty(
    const v1::NiftyData& data) {
  return ValidateNifty(v1::NiftyData(data));
}
inline absl::StatusOr<QuoteBatch> ValidateQuotes(const v1::QuotesData& data) {
  return ValidateQuotes(v1::QuotesData(data));
}

// Records under `path` (a quoteData's JSON path) every rule `quote` breaks:
// the status, last_price of a SUCCESS quote, the depth's length, every
// number's magnitude, last_trade_time. The checks of SaveQuotes and
// SaveNifty, shared with the import.
void CheckQuoteData(const v1::QuoteData& quote, const FieldPath& path,
                    FieldErrors& errors);

// Records under `entries` (their JSON path) every rule the entries of a
// shortlist break: their count, each symbol, name, price and quoteData.
void CheckShortlistEntries(
    const google::protobuf::RepeatedPtrField<v1::ShortlistEntry>& list,
    const FieldPath& entries, FieldErrors& errors);

// Whether `symbol` is a plausible NSE symbol: 1-32 characters of
// A-Z a-z 0-9 & . _ -. Returns the rule as an error message otherwise.
absl::Status CheckSymbol(absl::string_view symbol);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_OBSERVATIONS_H_

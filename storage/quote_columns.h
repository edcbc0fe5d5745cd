// How a quote maps onto its table columns: the fields candles and outcomes
// compute with (last_price, volume) are kept as columns beside the whole
// serialized mdc.v1.QuoteData.
#ifndef MDC_STORAGE_QUOTE_COLUMNS_H_
#define MDC_STORAGE_QUOTE_COLUMNS_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "domain/candles.h"
#include "google/protobuf/message.h"
#include "google/protobuf/unknown_field_set.h"
#include "mdc/v1/market.pb.h"
#include "storage/pg.h"

namespace mdc::storage {

inline std::optional<double> LastPrice(const v1::QuoteData& quote) {
  if (!quote.payload().has_last_price()) return std::nullopt;
  return quote.payload().last_price();
}

inline std::optional<double> Volume(const v1::QuoteData& quote) {
  if (!quote.payload().has_volume()) return std::nullopt;
  return quote.payload().volume();
}

inline bool ParseQuoteData(absl::string_view bytes, v1::QuoteData* out) {
  return out->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

// Puts `bytes`, a stored serialized mdc.v1.QuoteData, into `message` as
// the wire form of its QuoteData field numbered `field_number` (a
// StockQuote's or NiftyQuote's quote_data), without parsing it. It goes in
// as an unknown field, which serializes verbatim: on the wire it is the
// same tag, length and bytes as the field set to the parsed message (only
// its place among the fields may differ, which no decoder minds), so every
// receiver, in any language, decodes it as the quote_data message. An
// export forwards every stored quote of its days; parsing each one (with
// its depth) only to serialize it again was most of the server's CPU per
// exported row (docs/performance.md, "Data out").
// The bytes are not checked here: SaveQuotes and SaveNifty validated the
// quote and stored its serialization, so only a row corrupted in the
// database can be unreadable, and then the receiver fails to decode that
// message (an error, not a crash) instead of this server failing the read.
// `message`'s own QuoteData field must be unset (it would be sent twice).
inline void ForwardQuoteData(absl::string_view bytes, int field_number,
                             google::protobuf::Message& message) {
  message.GetReflection()
      ->MutableUnknownFields(&message)
      ->AddLengthDelimited(field_number)
      ->assign(bytes.data(), bytes.size());
}

// Rows of (observed_at, last_price, volume) as candle inputs.
inline std::vector<domain::PricePoint> ReadPricePoints(const Result& result) {
  std::vector<domain::PricePoint> points;
  points.reserve(result.rows());
  for (int row = 0; row < result.rows(); ++row) {
    points.push_back({result.Time(row, 0), result.OptionalDouble(row, 1),
                      result.OptionalDouble(row, 2)});
  }
  return points;
}

}  // namespace mdc::storage

#endif  // MDC_STORAGE_QUOTE_COLUMNS_H_

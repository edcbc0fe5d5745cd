// How a quote maps onto its table columns: the fields candles and outcomes
// compute with (last_price, volume) are kept as columns beside the whole
// serialized mdc.v1.QuoteData.
#ifndef MDC_STORAGE_QUOTE_COLUMNS_H_
#define MDC_STORAGE_QUOTE_COLUMNS_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "domain/candles.h"
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

// Adjusting a whole stored quote for corporate actions (docs/api.md
// section 13.4): its prices multiplied by the price factor of its trading
// day, its share quantities by the volume factor; percentages, market
// capitalisation and times left as stored.
//
// Pure functions; thread-compatible.
#ifndef MDC_DOMAIN_QUOTE_ADJUSTMENT_H_
#define MDC_DOMAIN_QUOTE_ADJUSTMENT_H_

#include "domain/adjustment.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

// Multiplies the payload's prices (last, average, bid, offer, day change,
// circuit limits, trade range, 52-week high and low, OHLC, depth prices) by
// `price` and its quantities (volume, bid, offer, last trade, total buy and
// sell, open interest and its change, depth quantities) by `volume`. Absent
// fields stay absent.
void AdjustPayload(double price, double volume, v1::QuotePayload* payload);

// AdjustPayload with the factors of the quote's trading day.
void AdjustQuote(const AdjustmentFactors& factors, v1::StockQuote* quote);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_QUOTE_ADJUSTMENT_H_

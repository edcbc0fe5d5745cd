#include "domain/quote_adjustment.h"

#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// Multiplies an optional double field of `m` through its accessors.
#define MDC_SCALE(m, field, factor) \
  if ((m)->has_##field()) (m)->set_##field((m)->field() * (factor))

}  // namespace

void AdjustPayload(double price, double volume, v1::QuotePayload* p) {
  MDC_SCALE(p, last_price, price);
  MDC_SCALE(p, day_change, price);
  MDC_SCALE(p, average_price, price);
  MDC_SCALE(p, bid_price, price);
  MDC_SCALE(p, offer_price, price);
  MDC_SCALE(p, upper_circuit_limit, price);
  MDC_SCALE(p, lower_circuit_limit, price);
  MDC_SCALE(p, high_trade_range, price);
  MDC_SCALE(p, low_trade_range, price);
  MDC_SCALE(p, week_52_high, price);
  MDC_SCALE(p, week_52_low, price);
  MDC_SCALE(p, volume, volume);
  MDC_SCALE(p, bid_quantity, volume);
  MDC_SCALE(p, offer_quantity, volume);
  MDC_SCALE(p, last_trade_quantity, volume);
  MDC_SCALE(p, total_buy_quantity, volume);
  MDC_SCALE(p, total_sell_quantity, volume);
  MDC_SCALE(p, open_interest, volume);
  MDC_SCALE(p, previous_open_interest, volume);
  MDC_SCALE(p, oi_day_change, volume);
  if (p->has_ohlc()) {
    v1::Ohlc* ohlc = p->mutable_ohlc();
    MDC_SCALE(ohlc, open, price);
    MDC_SCALE(ohlc, high, price);
    MDC_SCALE(ohlc, low, price);
    MDC_SCALE(ohlc, close, price);
  }
  if (p->has_depth()) {
    for (auto* side : {p->mutable_depth()->mutable_buy(),
                       p->mutable_depth()->mutable_sell()}) {
      for (v1::DepthLevel& level : *side) {
        MDC_SCALE(&level, price, price);
        MDC_SCALE(&level, quantity, volume);
      }
    }
  }
}

#undef MDC_SCALE

void AdjustQuote(const AdjustmentFactors& factors, v1::StockQuote* quote) {
  if (factors.identity() || !quote->has_quote_data() ||
      !quote->quote_data().has_payload()) {
    return;
  }
  const absl::CivilDay day = TradingDay(FromTimestamp(quote->timestamp()));
  AdjustPayload(factors.PriceFactor(day), factors.VolumeFactor(day),
                quote->mutable_quote_data()->mutable_payload());
}

}  // namespace mdc::domain

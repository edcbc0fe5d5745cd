#include "service/api/market_reads.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/as_of.h"
#include "domain/market_enums.h"
#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc {

absl::Status NothingAsOf(absl::string_view what, absl::Time at) {
  return absl::NotFoundError(
      absl::StrCat("no ", what, " stored on trading day ",
                   domain::FormatDate(domain::TradingDay(at)), " at or before ",
                   domain::FormatInstant(at)));
}

absl::StatusOr<v1::Shortlist> FindShortlistAsOf(
    storage::ShortlistRepository& shortlists, const domain::ShortlistKind& kind,
    absl::string_view datetime, absl::string_view timezone,
    const domain::BacktestClock& clock) {
  auto window = domain::AsOfWindowFor(datetime, timezone, clock, absl::Now(),
                                      domain::WhenAbsent::kNow);
  if (!window.ok()) return window.status();
  auto found = shortlists.FindLatest(kind.type, kind.scope, window->not_before,
                                     window->at);
  if (!found.ok()) return found.status();
  if (!found->has_value()) {
    return NothingAsOf(
        absl::StrCat(domain::ShortlistTypeName(kind.type), " ",
                     domain::ScopeName(kind.scope), " shortlist"),
        window->at);
  }
  return **std::move(found);
}

void ToProto(absl::string_view symbol, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles,
             v1::CandleSeries* out) {
  out->set_symbol(std::string(symbol));
  out->set_interval(interval.name);
  out->set_interval_minutes(interval.minutes);
  for (const domain::Candle& candle : candles) {
    v1::Candle* proto = out->add_candles();
    domain::SetTimestamp(candle.time, proto->mutable_time());
    proto->set_open(candle.open);
    proto->set_high(candle.high);
    proto->set_low(candle.low);
    proto->set_close(candle.close);
    proto->set_volume(candle.volume);
  }
}

}  // namespace mdc

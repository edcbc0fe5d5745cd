#include "service/api/adjusted_reads.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/series_symbol.h"
#include "domain/time.h"
#include "service/api/market_reads.h"

namespace mdc {
namespace {

// A close further back than this is no previous close: the instrument did
// not trade (or nothing was collected) around the ex-date.
constexpr int kPreviousCloseLookbackDays = 14;
constexpr int kClosePage = 5000;

}  // namespace

absl::StatusOr<std::optional<double>> PreviousClose(
    const domain::SymbolHistory& history, absl::CivilDay day,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty) {
  for (int back = 1; back <= kPreviousCloseLookbackDays; ++back) {
    const absl::CivilDay d = day - back;
    auto symbol = domain::SymbolOn(history, d);
    if (!symbol.has_value()) break;
    const SymbolSeries series(*symbol, quotes, nifty);
    const absl::Time begin = domain::DayStart(d);
    const absl::Time end = domain::DayStart(d + 1);
    auto latest = series.Latest(begin, end - absl::Nanoseconds(1));
    if (!latest.ok()) return latest.status();
    if (!latest->has_value()) continue;
    const v1::QuotePayload& payload = (*latest)->quote_data().payload();
    if (payload.has_last_price()) {
      return std::optional<double>(payload.last_price());
    }
    // The day's last quote carries no price (a FAILURE): the last priced
    // point of the day, read in pages.
    std::optional<double> close;
    std::optional<absl::Time> after;
    for (;;) {
      auto page = series.PricePoints(begin, end, after, kClosePage);
      if (!page.ok()) return page.status();
      for (const auto& point : *page) {
        if (point.last_price.has_value()) close = point.last_price;
      }
      if (static_cast<int>(page->size()) < kClosePage) break;
      after = page->back().time;
    }
    if (close.has_value()) return close;
  }
  return std::optional<double>();
}

namespace {

// The factors of `adjustment` for `symbol`, whose lookup in the security
// master found `record`: the one rule AdjustmentFor and
// AdjustedSymbolOf share.
absl::StatusOr<domain::AdjustmentFactors> FactorsOf(
    domain::Adjustment adjustment, const std::string& symbol,
    const std::optional<storage::InstrumentRecord>& record,
    absl::CivilDay as_of, storage::InstrumentRepository& instruments,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty,
    absl::string_view field) {
  if (adjustment == domain::Adjustment::kRaw) {
    return domain::AdjustmentFactors();
  }
  if (!record.has_value()) {
    return domain::InvalidField(
        field,
        absl::StrCat(symbol,
                     " is the symbol of no instrument in the security master, "
                     "so it has no corporate actions to adjust for; import "
                     "NSE's equity list, or ask for adjustment=raw"));
  }
  auto actions = instruments.Actions(record->instrument.isin,
                                     domain::kEarliestListing, as_of);
  if (!actions.ok()) return actions.status();
  const domain::SymbolHistory& history = record->symbols;
  return domain::AdjustmentFactors::For(
      adjustment, *actions, as_of, [&](absl::CivilDay day) {
        return PreviousClose(history, day, quotes, nifty);
      });
}

}  // namespace

absl::StatusOr<domain::AdjustmentFactors> AdjustmentFor(
    domain::Adjustment adjustment, const std::string& symbol,
    absl::CivilDay as_of, storage::InstrumentRepository& instruments,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty,
    absl::string_view field) {
  if (adjustment == domain::Adjustment::kRaw || domain::IsNiftySymbol(symbol)) {
    return domain::AdjustmentFactors();
  }
  auto record = instruments.FindBySymbol(symbol);
  if (!record.ok()) return record.status();
  return FactorsOf(adjustment, symbol, *record, as_of, instruments, quotes,
                   nifty, field);
}

absl::StatusOr<AdjustedSymbol> AdjustedSymbolOf(
    domain::Adjustment adjustment, const std::string& symbol,
    absl::CivilDay as_of, storage::InstrumentRepository& instruments,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty,
    absl::string_view field) {
  if (domain::IsNiftySymbol(symbol)) return AdjustedSymbol();
  auto record = instruments.FindBySymbol(symbol);
  if (!record.ok()) return record.status();
  auto factors = FactorsOf(adjustment, symbol, *record, as_of, instruments,
                           quotes, nifty, field);
  if (!factors.ok()) return factors.status();
  AdjustedSymbol resolved;
  resolved.factors = *std::move(factors);
  if (record->has_value()) resolved.history = std::move((*record)->symbols);
  return resolved;
}

}  // namespace mdc

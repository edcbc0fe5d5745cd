#include "domain/export_requests.h"

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/symbol_list.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// The days' fields, recorded in `errors`; meaningful only when none was.
ExportDays ParseDays(absl::string_view start_date, absl::string_view end_date,
                     FieldErrors& errors) {
  ExportDays days;
  if (start_date.empty()) {
    errors.Add("start_date", "is required: the first trading day, YYYY-MM-DD");
    return days;
  }
  auto first = ParseDate(start_date);
  if (!first.ok()) {
    errors.AddStatus("start_date", first.status());
    return days;
  }
  days.first = *first;
  days.last = *first;
  if (end_date.empty()) return days;
  auto last = ParseDate(end_date);
  if (!last.ok()) {
    errors.AddStatus("end_date", last.status());
  } else if (*last < *first) {
    errors.Add("end_date", "must not be before start_date");
  } else if (*last - *first >= kMaxExportDays) {
    errors.Add("end_date",
               absl::StrCat("must be at most ", kMaxExportDays - 1,
                            " days after start_date: an export covers at "
                            "most ",
                            kMaxExportDays, " days; ask for the rest apart"));
  } else {
    days.last = *last;
  }
  return days;
}

// The days' instants under the backtest clock, once the fields are valid.
absl::StatusOr<ExportDays> Bound(ExportDays days, const BacktestClock& clock) {
  days.start = DayStart(days.first);
  if (auto ok = clock.CheckBefore(days.start, "start_date"); !ok.ok()) {
    return ok;
  }
  days.end = clock.CutEnd(DayStart(days.last + 1));
  return days;
}

std::vector<std::string> ParseSymbols(
    const google::protobuf::RepeatedPtrField<std::string>& values,
    bool allow_nifty, FieldErrors& errors) {
  SymbolListRule rule;
  rule.max_symbols = kMaxExportSymbols;
  rule.allow_nifty = allow_nifty;
  return ParseSymbolList(values, rule, errors);
}

// The export's `adjustment`: an adjusted one needs the symbols listed,
// since only instruments of the security master have actions to adjust
// by, and every symbol of a range is not a list of instruments.
Adjustment ParseExportAdjustment(const std::string& text, bool has_symbols,
                                 FieldErrors& errors) {
  auto adjustment = ParseAdjustment(text);
  if (!adjustment.ok()) {
    errors.AddStatus("adjustment", adjustment.status());
    return Adjustment::kRaw;
  }
  if (*adjustment != Adjustment::kRaw && !has_symbols) {
    errors.Add("adjustment",
               "an adjusted export needs `symbols` (each the symbol of an "
               "instrument of the security master)");
  }
  return *adjustment;
}

}  // namespace

absl::StatusOr<QuoteExport> ParseExportQuotes(
    const v1::ExportQuotesRequest& request, const BacktestClock& clock) {
  FieldErrors errors;
  QuoteExport out;
  out.days = ParseDays(request.start_date(), request.end_date(), errors);
  out.symbols = ParseSymbols(request.symbols(), /*allow_nifty=*/false, errors);
  out.adjustment = ParseExportAdjustment(request.adjustment(),
                                         !request.symbols().empty(), errors);
  if (!errors.empty()) return errors.ToStatus();
  auto days = Bound(out.days, clock);
  if (!days.ok()) return days.status();
  out.days = *days;
  return out;
}

absl::StatusOr<ExportDays> ParseExportNifty(
    const v1::ExportNiftyRequest& request, const BacktestClock& clock) {
  FieldErrors errors;
  ExportDays days = ParseDays(request.start_date(), request.end_date(), errors);
  if (!errors.empty()) return errors.ToStatus();
  return Bound(days, clock);
}

absl::StatusOr<ShortlistExport> ParseExportShortlists(
    const v1::ExportShortlistsRequest& request, const BacktestClock& clock) {
  FieldErrors errors;
  ShortlistExport out;
  out.days = ParseDays(request.start_date(), request.end_date(), errors);
  if (!request.type().empty()) {
    auto type = ParseShortlistType(request.type());
    errors.AddStatus("type", type.status());
    if (type.ok()) out.type = *type;
  }
  if (!request.scope().empty()) {
    auto scope = ParseScope(request.scope());
    errors.AddStatus("scope", scope.status());
    if (scope.ok()) out.scope = *scope;
  }
  if (!errors.empty()) return errors.ToStatus();
  auto days = Bound(out.days, clock);
  if (!days.ok()) return days.status();
  out.days = *days;
  return out;
}

absl::StatusOr<CandleExport> ParseExportCandles(
    const v1::ExportCandlesRequest& request, const BacktestClock& clock) {
  FieldErrors errors;
  CandleExport out;
  out.days = ParseDays(request.start_date(), request.end_date(), errors);
  auto interval = ParseInterval(request.interval());
  errors.AddStatus("interval", interval.status());
  if (interval.ok()) out.interval = *interval;
  out.symbols = ParseSymbols(request.symbols(), /*allow_nifty=*/true, errors);
  out.adjustment = ParseExportAdjustment(request.adjustment(),
                                         !request.symbols().empty(), errors);
  if (!errors.empty()) return errors.ToStatus();
  auto days = Bound(out.days, clock);
  if (!days.ok()) return days.status();
  out.days = *days;
  return out;
}

bool Selects(const ShortlistExport& selection, const v1::Shortlist& shortlist) {
  return (!selection.type.has_value() ||
          shortlist.shortlist_type() == *selection.type) &&
         (!selection.scope.has_value() || EffectiveScope(shortlist.scope()) ==
                                              EffectiveScope(*selection.scope));
}

}  // namespace mdc::domain

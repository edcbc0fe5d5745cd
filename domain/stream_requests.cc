#include "domain/stream_requests.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "domain/day_reads.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/observations.h"
#include "domain/symbol_list.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Status CheckNoClock(const BacktestClock& clock) {
  if (!clock.active()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      "a watch streams records as they are written, so it cannot honour "
      "X-Current-Timestamp; replay a past day with ReplayDay instead");
}

void ParseCursor(const std::string& text, WatchSelection& selection,
                 FieldErrors& errors) {
  if (text.empty()) return;
  auto cursor = ParseWatchCursor(text);
  if (cursor.ok()) {
    selection.cursor = *cursor;
  } else {
    errors.Add("cursor", "must be a cursor a watch returned");
  }
}

}  // namespace

bool WatchSelection::Selects(const v1::MarketEvent& event) const {
  switch (kind) {
    case RecordKind::kQuote:
      return event.has_quote() && symbols.contains(event.quote().nse_symbol());
    case RecordKind::kNifty:
      return event.has_nifty();
    case RecordKind::kShortlist:
      return event.has_shortlist() &&
             event.shortlist().shortlist_type() == type &&
             event.shortlist().scope() == scope;
  }
  return false;
}

absl::StatusOr<WatchSelection> ParseWatchQuotes(
    const v1::WatchQuotesRequest& request, const BacktestClock& clock) {
  WatchSelection selection;
  selection.kind = RecordKind::kQuote;
  FieldErrors errors;
  SymbolListRule rule;
  rule.max_symbols = kMaxStreamSymbols;
  rule.required = true;
  selection.symbol_list = ParseSymbolList(request.symbols(), rule, errors);
  selection.symbols.insert(selection.symbol_list.begin(),
                           selection.symbol_list.end());
  ParseCursor(request.cursor(), selection, errors);
  if (!errors.empty()) return errors.ToStatus();
  if (auto ok = CheckNoClock(clock); !ok.ok()) return ok;
  return selection;
}

absl::StatusOr<WatchSelection> ParseWatchNifty(
    const v1::WatchNiftyRequest& request, const BacktestClock& clock) {
  WatchSelection selection;
  selection.kind = RecordKind::kNifty;
  FieldErrors errors;
  ParseCursor(request.cursor(), selection, errors);
  if (!errors.empty()) return errors.ToStatus();
  if (auto ok = CheckNoClock(clock); !ok.ok()) return ok;
  return selection;
}

absl::StatusOr<WatchSelection> ParseWatchShortlists(
    const v1::WatchShortlistsRequest& request, const BacktestClock& clock) {
  WatchSelection selection;
  selection.kind = RecordKind::kShortlist;
  FieldErrors errors;
  ShortlistKind kind =
      ParseShortlistKind(request.type(), request.scope(), errors);
  selection.type = kind.type;
  selection.scope = EffectiveScope(kind.scope);
  ParseCursor(request.cursor(), selection, errors);
  if (!errors.empty()) return errors.ToStatus();
  if (auto ok = CheckNoClock(clock); !ok.ok()) return ok;
  return selection;
}

absl::StatusOr<ReplayPlan> ParseReplayDay(const v1::ReplayDayRequest& request,
                                          const BacktestClock& clock) {
  ReplayPlan plan;
  FieldErrors errors;
  if (request.date().empty()) {
    errors.Add("date", "is required: a trading day YYYY-MM-DD");
  } else if (auto day = ParseDate(request.date()); !day.ok()) {
    errors.AddStatus("date", day.status());
  } else {
    plan.day = *day;
  }
  SymbolListRule rule;
  rule.max_symbols = kMaxStreamSymbols;
  plan.symbols = ParseSymbolList(request.symbols(), rule, errors);
  // Counted before splitting too: a request's work is bounded by the cap.
  const auto kinds = request.kinds().size() > kMaxReplayKinds
                         ? std::vector<absl::string_view>(kMaxReplayKinds + 1)
                         : SplitListValues(request.kinds());
  if (kinds.size() > static_cast<size_t>(kMaxReplayKinds)) {
    errors.Add("kinds",
               absl::StrCat("must hold at most ", kMaxReplayKinds,
                            " kinds (quotes, nifty, shortlists), repeated "
                            "(kinds=quotes&kinds=nifty) or separated by commas "
                            "(kinds=quotes,nifty)"));
  } else if (!kinds.empty()) {
    plan.quotes = plan.nifty = plan.shortlists = false;
    for (size_t i = 0; i < kinds.size(); ++i) {
      const absl::string_view kind = kinds[i];
      if (kind == "quotes") {
        plan.quotes = true;
      } else if (kind == "nifty") {
        plan.nifty = true;
      } else if (kind == "shortlists") {
        plan.shortlists = true;
      } else {
        errors.Add(absl::StrCat("kinds[", i, "]"),
                   "must be one of quotes, nifty, shortlists");
      }
    }
  }
  if (!request.cursor().empty()) {
    auto cursor = ParseReplayCursor(request.cursor());
    if (cursor.ok()) {
      plan.cursor = *cursor;
    } else {
      errors.Add("cursor", "must be a cursor a replay returned");
    }
  }
  if (!errors.empty()) return errors.ToStatus();
  auto limit = DayReadLimit(plan.day, clock);
  if (!limit.ok()) return limit.status();
  plan.day_start = DayStart(plan.day);
  plan.end = *limit + absl::Microseconds(1);
  return plan;
}

}  // namespace mdc::domain

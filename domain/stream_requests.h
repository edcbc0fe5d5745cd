// The parameters of the stream RPCs (StreamService), checked: which records
// a watch selects, and what a day replay covers. Every bad parameter is
// reported at once, named as clients write it.
#ifndef MDC_DOMAIN_STREAM_REQUESTS_H_
#define MDC_DOMAIN_STREAM_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"
#include "domain/stream_cursors.h"
#include "mdc/v1/stream.pb.h"

namespace mdc::domain {

// At most this many symbols per request.
inline constexpr int kMaxStreamSymbols = 1000;
// The most `kinds` a replay names (there are three).
inline constexpr int kMaxReplayKinds = 3;

// The records one watch receives, and where it resumes.
struct WatchSelection {
  RecordKind kind = RecordKind::kQuote;
  absl::flat_hash_set<std::string> symbols;                 // quotes
  std::vector<std::string> symbol_list;                     // the same, for SQL
  v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;  // shortlists
  v1::Scope scope = v1::TOP_5;                              // shortlists
  std::optional<StreamPosition> cursor;

  // Whether `event` is one of the records this watch receives.
  bool Selects(const v1::MarketEvent& event) const;
};

// INVALID_ARGUMENT naming each bad parameter. A watch is live, so the
// backtest clock has no meaning for it: with the clock set it is
// FAILED_PRECONDITION.
absl::StatusOr<WatchSelection> ParseWatchQuotes(
    const v1::WatchQuotesRequest& request, const BacktestClock& clock);
absl::StatusOr<WatchSelection> ParseWatchNifty(
    const v1::WatchNiftyRequest& request, const BacktestClock& clock);
absl::StatusOr<WatchSelection> ParseWatchShortlists(
    const v1::WatchShortlistsRequest& request, const BacktestClock& clock);

// What one day replay covers.
struct ReplayPlan {
  absl::CivilDay day;
  absl::Time day_start;
  absl::Time end;  // exclusive: the next day's start, cut at the clock
  bool quotes = true;
  bool nifty = true;
  bool shortlists = true;
  std::vector<std::string> symbols;  // empty: every symbol
  std::optional<ReplayPosition> cursor;
};

// INVALID_ARGUMENT naming `date`, `symbols[i]`, `kinds[i]` or `cursor`;
// PERMISSION_DENIED (FUTURE_READ) naming `date` when the day starts at or
// after the backtest clock.
absl::StatusOr<ReplayPlan> ParseReplayDay(const v1::ReplayDayRequest& request,
                                          const BacktestClock& clock);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_STREAM_REQUESTS_H_

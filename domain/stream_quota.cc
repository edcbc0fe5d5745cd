#include "domain/stream_quota.h"

#include "absl/strings/str_cat.h"
#include "domain/error_reason.h"

namespace mdc::domain {
namespace {

// What is said of each kind: its name (the metadata `kind`), the setting of
// its cap, and the cap's field.
struct KindFacts {
  const char* name;
  const char* setting;
  int StreamLimits::*limit;
};

const KindFacts& FactsOf(StreamKind kind) {
  static constexpr KindFacts kFacts[] = {
      {"exports", "MDC_MAX_EXPORTS_PER_DEVELOPER", &StreamLimits::exports},
      {"replays", "MDC_MAX_REPLAYS_PER_DEVELOPER", &StreamLimits::replays},
      {"watches", "MDC_MAX_WATCHES_PER_DEVELOPER", &StreamLimits::watches},
  };
  return kFacts[static_cast<int>(kind)];
}

}  // namespace

const char* StreamKindName(StreamKind kind) { return FactsOf(kind).name; }

int StreamLimits::Of(StreamKind kind) const {
  return this->*(FactsOf(kind).limit);
}

absl::Status StreamQuota::Take(StreamKind kind, int64_t developer_id) {
  const int limit = limits_.Of(kind);
  int& open = open_[{static_cast<int>(kind), developer_id}];
  if (limit > 0 && open >= limit) {
    const KindFacts& facts = FactsOf(kind);
    return WithRetryDelay(
        WithReason(absl::ResourceExhaustedError(absl::StrCat(
                       "this developer already has ", open, " ", facts.name,
                       " open on this server, the most ", facts.setting,
                       " allows; retry when one has ended")),
                   reason::kTooManyStreams,
                   {{"kind", facts.name}, {"limit", absl::StrCat(limit)}}),
        kStreamRetryDelay);
  }
  ++open;
  return absl::OkStatus();
}

void StreamQuota::Release(StreamKind kind, int64_t developer_id) {
  auto it = open_.find({static_cast<int>(kind), developer_id});
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

int StreamQuota::Open(StreamKind kind, int64_t developer_id) const {
  auto it = open_.find({static_cast<int>(kind), developer_id});
  return it == open_.end() ? 0 : it->second;
}

}  // namespace mdc::domain

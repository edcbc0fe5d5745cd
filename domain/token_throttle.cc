#include "domain/token_throttle.h"

#include <algorithm>
#include <vector>

namespace mdc::domain {
namespace {

// Erases the entries of `map` whose time (`time_of` its value) is at or
// before `expired_at`; if the map is still full (`max`), the older half too.
template <typename Map, typename TimeOf>
void Trim(Map& map, size_t max, absl::Time expired_at, TimeOf time_of) {
  absl::erase_if(map, [&](const auto& entry) {
    return time_of(entry.second) <= expired_at;
  });
  if (map.size() < max) return;
  std::vector<absl::Time> times;
  times.reserve(map.size());
  for (const auto& entry : map) times.push_back(time_of(entry.second));
  auto middle = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  const absl::Time cut = *middle;
  absl::erase_if(
      map, [&](const auto& entry) { return time_of(entry.second) <= cut; });
}

}  // namespace

absl::Time EndOfMinute(absl::Time t) {
  return absl::Floor(t - absl::UnixEpoch(), absl::Minutes(1)) +
         absl::UnixEpoch() + absl::Minutes(1);
}

TokenThrottleState::TokenThrottleState(size_t max_addresses, size_t max_tokens)
    : max_addresses_(std::max<size_t>(max_addresses, 2)),
      max_tokens_(std::max<size_t>(max_tokens, 2)) {}

absl::Time TokenThrottleState::Refuse(absl::string_view address,
                                      absl::string_view token_hash,
                                      absl::Time now) {
  const auto locked = locks_.find(address);
  if (locked == locks_.end() || locked->second.until <= now) {
    return absl::InfinitePast();
  }
  const auto valid = valid_at_.find(token_hash);
  if (valid != valid_at_.end() && now - valid->second < kValidTokenMemory) {
    return absl::InfinitePast();
  }
  Lock& lock = locked->second;
  if (now >= lock.next_probe) {
    lock.next_probe = now + kLockedProbeInterval;
    return absl::InfinitePast();
  }
  return std::min(lock.next_probe, lock.until);
}

void TokenThrottleState::NoteFailures(absl::string_view address, int failures,
                                      absl::Time now) {
  if (failures < kMaxFailedTokensPerMinute) return;
  if (locks_.size() >= max_addresses_ && !locks_.contains(address)) {
    Sweep(now);
  }
  Lock& lock = locks_[address];
  if (lock.until <= now) lock.next_probe = now + kLockedProbeInterval;
  lock.until = EndOfMinute(now);
}

void TokenThrottleState::NoteValid(absl::string_view token_hash,
                                   absl::Time now) {
  if (valid_at_.size() >= max_tokens_ && !valid_at_.contains(token_hash)) {
    Sweep(now);
  }
  valid_at_[token_hash] = now;
}

void TokenThrottleState::Sweep(absl::Time now) {
  Trim(locks_, max_addresses_, now,
       [](const Lock& lock) { return lock.until; });
  Trim(valid_at_, max_tokens_, now - kValidTokenMemory,
       [](absl::Time at) { return at; });
}

}  // namespace mdc::domain

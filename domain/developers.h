// Rules for developer accounts: usernames, ids in paths, paging, and when
// a developer's last-seen time is worth writing.
#ifndef MDC_DOMAIN_DEVELOPERS_H_
#define MDC_DOMAIN_DEVELOPERS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/paging.h"

namespace mdc::domain {

// 1-64 characters of A-Z a-z 0-9 _ . -
absl::Status CheckUsername(absl::string_view username);

// A developer id as it appears in a path: a positive decimal integer.
// INVALID_ARGUMENT otherwise (the message is for the `id` field).
absl::StatusOr<int64_t> ParseDeveloperId(absl::string_view text);

// List paging (API.md "Lists"): pageSize 0 means kDefaultPageSize (100);
// 1-kMaxPageSize (1000) are taken as given; anything else is
// INVALID_ARGUMENT for `pageSize`.
absl::StatusOr<int> ResolvePageSize(int64_t page_size);

// The opaque token for "the page after the developer with this id", and
// back. An empty token is the first page (after id 0); anything that is not
// a token EncodeDeveloperPageToken made is INVALID_ARGUMENT for `pageToken`.
std::string EncodeDeveloperPageToken(int64_t after_id);
absl::StatusOr<int64_t> DecodeDeveloperPageToken(absl::string_view token);

// How often a developer's last-seen time is written at most.
inline constexpr absl::Duration kLastSeenResolution = absl::Minutes(1);

// Whether a request at `now` should stamp last-seen, given the stored
// value: when there is none or it is at least kLastSeenResolution old. A
// stored time in the future (clock skew between replicas and the database)
// is left alone until `now` catches up.
bool LastSeenDue(std::optional<absl::Time> last_seen, absl::Time now);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_DEVELOPERS_H_

// Paging of timelines (docs/api.md section 1, Lists): page sizes and the
// opaque page token, which resumes a keyset read after the last instant a
// page returned.
#ifndef MDC_DOMAIN_PAGING_H_
#define MDC_DOMAIN_PAGING_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

inline constexpr int kDefaultPageSize = 100;
inline constexpr int kMaxPageSize = 1000;

// 0 (absent) → 100; above 1000 → 1000; negative → INVALID_ARGUMENT.
absl::StatusOr<int> PageSize(int32_t requested);

// The token that resumes a read after `last` (the last instant returned).
std::string EncodePageToken(absl::Time last);

// Empty → nullopt (first page). A token this service did not issue →
// INVALID_ARGUMENT (the caller names the parameter).
absl::StatusOr<std::optional<absl::Time>> DecodePageToken(
    absl::string_view token);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_PAGING_H_

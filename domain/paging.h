// Paging of lists (docs/api.md section 1, Lists): page sizes, the "one row
// more" read that tells whether a next page exists, and the opaque page
// token of timelines, which resumes a keyset read after the last instant a
// page returned (runs and orders have their own tokens, see runs.h).
#ifndef MDC_DOMAIN_PAGING_H_
#define MDC_DOMAIN_PAGING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/field_errors.h"

namespace mdc::domain {

inline constexpr int kDefaultPageSize = 100;
inline constexpr int kMaxPageSize = 1000;

// 0 (absent) → 100; above 1000 → 1000; negative → INVALID_ARGUMENT.
absl::StatusOr<int> PageSize(int32_t requested);

// How many rows a page read asks for: one more than the page holds, so the
// answer shows whether another page follows without counting the rest.
constexpr int PageReadSize(int page_size) { return page_size + 1; }

// Drops the extra row a read of PageReadSize(page_size) rows may return.
// True when there was one, i.e. a next page exists (its token resumes after
// the last row kept). `page_size` is at least 1, as PageSize returns it.
template <typename Row>
bool TrimToPage(std::vector<Row>& rows, int page_size) {
  if (static_cast<int>(rows.size()) <= page_size) return false;
  rows.erase(rows.begin() + page_size, rows.end());
  return true;
}

// The token that resumes a read after `last` (the last instant returned).
std::string EncodePageToken(absl::Time last);

// Empty → nullopt (first page). A token this service did not issue →
// INVALID_ARGUMENT (the caller names the parameter).
absl::StatusOr<std::optional<absl::Time>> DecodePageToken(
    absl::string_view token);

// The paging parameters of a timeline request, validated.
struct TimelinePage {
  int size = kDefaultPageSize;
  std::optional<absl::Time> after;  // resume after this instant
};

// `pageSize` and `pageToken` of a timeline request: each bad one is recorded
// under its JSON name in `errors`, and the page keeps its default for it.
TimelinePage ParseTimelinePage(int32_t page_size, absl::string_view page_token,
                               FieldErrors& errors);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_PAGING_H_

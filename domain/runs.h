// Rules of the dashboard's trading runs and orders: tags, names, order
// prices, run ids and list page tokens.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_RUNS_H_
#define MDC_DOMAIN_RUNS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/field_errors.h"
#include "google/protobuf/repeated_field.h"

namespace mdc::domain {

inline constexpr int kMaxTags = 10;
inline constexpr int kMaxTagLength = 50;
inline constexpr int kMaxRunNameLength = 200;

// Tags as stored: each trimmed of surrounding whitespace, 1-50 characters of
// [A-Za-z0-9_-], duplicates removed, sorted, at most 10 distinct. Every bad
// tag is recorded in `errors` as "<field>[i]"; too many as "<field>".
std::vector<std::string> NormalizeTags(
    const google::protobuf::RepeatedPtrField<std::string>& tags,
    absl::string_view field, FieldErrors& errors);

// One tag (the `tag` filter of List Runs): trimmed and checked by the same
// rule. INVALID_ARGUMENT describing the rule otherwise.
absl::StatusOr<std::string> NormalizeTag(absl::string_view tag);

// A run name: at most 200 characters, no control characters. Records a
// violation under `field`.
void CheckRunName(absl::string_view name, absl::string_view field,
                  FieldErrors& errors);

// Order prices: each given and > 0, and stop_loss < entry < take_profit.
// Records each violation under the JSON field name.
void CheckOrderPrices(std::optional<double> entry,
                      std::optional<double> stop_loss,
                      std::optional<double> take_profit, FieldErrors& errors);

// A run id as the API writes it: 1-18 ASCII digits, > 0. Anything else is
// no run (the caller answers NOT_FOUND, as for an unknown id).
std::optional<int64_t> ParseRunId(absl::string_view text);

// A position in a list ordered by (instant, id): the last row of a page.
struct PageCursor {
  absl::Time at;
  int64_t id = 0;
};

// Opaque page tokens of lists ordered by (instant, id) (page sizes: see
// paging.h): `kind` ties a token to one list so a token of another
// list is rejected.
std::string EncodeKeysetToken(absl::string_view kind, const PageCursor& cursor);
// Empty → no cursor. A token not made by EncodeKeysetToken for `kind` is
// INVALID_ARGUMENT.
absl::StatusOr<std::optional<PageCursor>> DecodeKeysetToken(
    absl::string_view kind, absl::string_view token);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_RUNS_H_

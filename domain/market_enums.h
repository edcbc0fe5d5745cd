// Parsing and naming of the API's enums as they appear in query strings,
// where both the proto names (TOP_GAINERS) and the dashed lower-case forms
// (top-gainers) are accepted.
#ifndef MDC_DOMAIN_MARKET_ENUMS_H_
#define MDC_DOMAIN_MARKET_ENUMS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "domain/field_errors.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

// "TOP_GAINERS", "top-gainers", "volume_shockers", ... (any case, '-' or
// '_'). Empty or unknown → INVALID_ARGUMENT listing the accepted values.
absl::StatusOr<v1::ShortlistType> ParseShortlistType(absl::string_view text);

// "TOP_5" / "top-5" / "FULL" (any case); empty → TOP_5.
absl::StatusOr<v1::Scope> ParseScope(absl::string_view text);

// The `type` and `scope` parameters of a shortlist read, parsed as above.
struct ShortlistKind {
  v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
  v1::Scope scope = v1::SCOPE_UNSPECIFIED;
};

// Parses both parameters, recording what is wrong under "type" and "scope".
// The result is meaningful only when nothing was recorded.
ShortlistKind ParseShortlistKind(absl::string_view type,
                                 absl::string_view scope, FieldErrors& errors);

// A scope as written, with SCOPE_UNSPECIFIED meaning the default TOP_5.
v1::Scope EffectiveScope(v1::Scope scope);

// The proto names, used in storage and messages: "TOP_GAINERS", "TOP_5".
std::string ShortlistTypeName(v1::ShortlistType type);
std::string ScopeName(v1::Scope scope);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_MARKET_ENUMS_H_

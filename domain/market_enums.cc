#include "domain/market_enums.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "domain/text.h"

namespace mdc::domain {
namespace {

// Upper case with '-' read as '_', so "top-gainers" matches "TOP_GAINERS".
std::string Canonical(absl::string_view text) {
  return absl::AsciiStrToUpper(absl::StrReplaceAll(text, {{"-", "_"}}));
}

}  // namespace

absl::StatusOr<v1::ShortlistType> ParseShortlistType(absl::string_view text) {
  v1::ShortlistType type;
  if (!text.empty() && v1::ShortlistType_Parse(Canonical(text), &type) &&
      type != v1::SHORTLIST_TYPE_UNSPECIFIED) {
    return type;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      text.empty() ? "is required"
                   : absl::StrCat(QuoteForMessage(text), " is unknown"),
      "; use TOP_GAINERS or VOLUME_SHOCKERS (or top-gainers, "
      "volume-shockers)"));
}

absl::StatusOr<v1::Scope> ParseScope(absl::string_view text) {
  if (text.empty()) return v1::TOP_5;
  v1::Scope scope;
  if (v1::Scope_Parse(Canonical(text), &scope) &&
      scope != v1::SCOPE_UNSPECIFIED) {
    return scope;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(QuoteForMessage(text), " is unknown; use TOP_5 or FULL"));
}

v1::Scope EffectiveScope(v1::Scope scope) {
  return scope == v1::SCOPE_UNSPECIFIED ? v1::TOP_5 : scope;
}

std::string ShortlistTypeName(v1::ShortlistType type) {
  return v1::ShortlistType_Name(type);
}

std::string ScopeName(v1::Scope scope) {
  return v1::Scope_Name(EffectiveScope(scope));
}

ShortlistKind ParseShortlistKind(absl::string_view type,
                                 absl::string_view scope, FieldErrors& errors) {
  ShortlistKind kind;
  auto parsed_type = ParseShortlistType(type);
  errors.AddStatus("type", parsed_type.status());
  if (parsed_type.ok()) kind.type = *parsed_type;
  auto parsed_scope = ParseScope(scope);
  errors.AddStatus("scope", parsed_scope.status());
  if (parsed_scope.ok()) kind.scope = *parsed_scope;
  return kind;
}

}  // namespace mdc::domain

#include "domain/cross_section.h"

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/observations.h"
#include "domain/paging.h"
#include "domain/symbol_list.h"

namespace mdc::domain {
namespace {

// Versioned so the format can change without misreading old tokens.
constexpr absl::string_view kSymbolTokenPrefix = "s1:";

absl::Status BadToken() {
  return absl::InvalidArgumentError(
      "is not a page token this service issued; pass nextPageToken from the "
      "previous answer unchanged");
}

}  // namespace

std::string EncodeSymbolPageToken(absl::string_view symbol) {
  return absl::WebSafeBase64Escape(absl::StrCat(kSymbolTokenPrefix, symbol));
}

absl::StatusOr<std::optional<std::string>> DecodeSymbolPageToken(
    absl::string_view token) {
  if (token.empty()) return std::optional<std::string>();
  if (token.size() > 64) return BadToken();
  std::string decoded;
  if (!absl::WebSafeBase64Unescape(token, &decoded) ||
      !absl::StartsWith(decoded, kSymbolTokenPrefix)) {
    return BadToken();
  }
  std::string symbol = decoded.substr(kSymbolTokenPrefix.size());
  if (!CheckSymbol(symbol).ok()) return BadToken();
  return std::optional<std::string>(std::move(symbol));
}

absl::StatusOr<CrossSection> ParseCrossSection(
    const v1::GetQuotesRequest& request, const BacktestClock& clock,
    absl::Time wall_now) {
  CrossSection out;
  FieldErrors errors;
  SymbolListRule rule;
  rule.max_symbols = kMaxCrossSectionSymbols;
  rule.allow_nifty = true;
  out.symbols = ParseSymbolList(request.symbols(), rule, errors);
  if (request.page_size() != 0) {
    auto size = PageSize(request.page_size());
    errors.AddStatus("pageSize", size.status());
    if (size.ok()) out.page_size = *size;
  }
  if (!request.page_token().empty() && !request.symbols().empty()) {
    errors.Add("pageToken",
               "pages only the answer without symbols; with symbols every "
               "quote is in one answer");
  } else {
    auto after = DecodeSymbolPageToken(request.page_token());
    errors.AddStatus("pageToken", after.status());
    if (after.ok()) out.after = *after;
  }
  if (!errors.empty()) return errors.ToStatus();
  auto window = AsOfWindowFor(request.datetime(), request.timezone(), clock,
                              wall_now, WhenAbsent::kNow);
  if (!window.ok()) return window.status();
  out.window = *window;
  return out;
}

}  // namespace mdc::domain

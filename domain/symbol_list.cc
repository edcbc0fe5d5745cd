#include "domain/symbol_list.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "domain/observations.h"
#include "domain/series_symbol.h"

namespace mdc::domain {

std::vector<std::string> ParseSymbolList(
    const google::protobuf::RepeatedPtrField<std::string>& values,
    const SymbolListRule& rule, FieldErrors& errors) {
  const std::string what =
      absl::StrCat("1-", rule.max_symbols, " NSE symbols",
                   rule.allow_nifty ? " (or NIFTY)" : "",
                   ", repeated (symbols=A&symbols=B) or separated by commas "
                   "(symbols=A,B)");
  // Counted before any copy: a request of a million symbols costs no more
  // than one over the limit.
  size_t count = 0;
  for (const std::string& value : values) {
    count +=
        1 + static_cast<size_t>(std::count(value.begin(), value.end(), ','));
    if (count > static_cast<size_t>(rule.max_symbols)) break;
  }
  if (count > static_cast<size_t>(rule.max_symbols)) {
    errors.Add("symbols", absl::StrCat("must hold at most ", rule.max_symbols,
                                       " symbols: ", what));
    return {};
  }
  if (count == 0) {
    if (rule.required)
      errors.Add("symbols", absl::StrCat("is required: ", what));
    return {};
  }
  absl::flat_hash_set<std::string> seen;
  std::vector<std::string> unique;
  int index = 0;
  for (absl::string_view symbol : SplitListValues(values)) {
    const absl::Status ok =
        rule.allow_nifty ? CheckSeriesSymbol(symbol) : CheckSymbol(symbol);
    if (!ok.ok()) {
      errors.AddStatus(absl::StrCat("symbols[", index, "]"), ok);
    } else {
      std::string name = IsNiftySymbol(symbol) && rule.allow_nifty
                             ? std::string(kNiftySymbol)
                             : std::string(symbol);
      if (seen.insert(name).second) unique.push_back(std::move(name));
    }
    ++index;
  }
  return unique;
}

std::vector<absl::string_view> SplitListValues(
    const google::protobuf::RepeatedPtrField<std::string>& values) {
  std::vector<absl::string_view> items;
  for (const std::string& value : values) {
    for (absl::string_view item : absl::StrSplit(value, ',')) {
      items.push_back(item);
    }
  }
  return items;
}

}  // namespace mdc::domain

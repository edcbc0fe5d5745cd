#include "domain/observations.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/field_path.h"
#include "domain/market_enums.h"
#include "domain/number_limits.h"
#include "domain/text.h"
#include "domain/time.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace mdc::domain {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The rule of every number of a quote payload and of dayChangePerc.
const std::string& MagnitudeRule() {
  static const auto* rule = new std::string(
      absl::StrCat("must be a finite number from -", kMaxMagnitudeText, " to ",
                   kMaxMagnitudeText));
  return *rule;
}

// Every number in a quote payload must be finite (JSON has no NaN, but
// protobuf JSON accepts the strings "NaN" and "Infinity" for doubles) and
// within kMaxMagnitude, so that candles and outcomes built from it stay
// finite.
void CheckPayloadNumbers(const Message& message, const FieldPath& path,
                         FieldErrors& errors) {
  const auto* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const FieldPath field_path = path.Field(field->json_name());
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      if (field->is_repeated()) continue;  // QuotePayload has none.
      if (!WithinMaxMagnitude(reflection->GetDouble(message, field))) {
        errors.Add(field_path.str(), MagnitudeRule());
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
          CheckPayloadNumbers(reflection->GetRepeatedMessage(message, field, i),
                              field_path.Item(i), errors);
        }
      } else {
        CheckPayloadNumbers(reflection->GetMessage(message, field), field_path,
                            errors);
      }
    }
  }
}

// Records `status` under the path of `field` when it is an error.
void AddIfError(const FieldPath& field, const absl::Status& status,
                FieldErrors& errors) {
  if (!status.ok()) errors.AddStatus(field.str(), status);
}

// Resolves data.timestamp in data.timezone, recording errors under both.
absl::Time ResolveObservedAt(absl::string_view timestamp,
                             absl::string_view timezone, FieldErrors& errors) {
  if (timestamp.empty()) {
    errors.Add("data.timestamp",
               "is required: a wall-clock time YYYY-MM-DDTHH:MM:SS");
  }
  const auto zone = ResolveTimeZone(timezone);
  errors.AddStatus("data.timezone", zone.status());
  if (timestamp.empty()) return absl::InfinitePast();
  const auto wall_clock = ParseWallClock(timestamp);
  errors.AddStatus("data.timestamp", wall_clock.status());
  if (!wall_clock.ok() || !zone.ok()) return absl::InfinitePast();
  // An instant outside the supported years would be stored where no read
  // can answer it (docs/api.md section 9.2).
  auto observed_at = SupportedInstantAt(*wall_clock, *zone);
  errors.AddStatus("data.timestamp", observed_at.status());
  return observed_at.value_or(absl::InfinitePast());
}

}  // namespace

void CheckQuoteData(const v1::QuoteData& quote, const FieldPath& path,
                    FieldErrors& errors) {
  if (quote.status() != v1::SUCCESS && quote.status() != v1::FAILURE) {
    errors.Add(path.Field("status").str(),
               "is required; use SUCCESS or FAILURE");
  }
  const FieldPath payload_path = path.Field("payload");
  // A SUCCESS quote is a price: candles, outcomes and the clients' flat
  // `last_price` read it. One without it is a collector bug (a misspelled
  // key, a parse that lost the field), refused rather than stored empty.
  if (quote.status() == v1::SUCCESS && !quote.payload().has_last_price()) {
    errors.Add(payload_path.Field("last_price").str(),
               "is required when status is SUCCESS (the quote's last traded "
               "price); send status FAILURE for a quote the broker did not "
               "give");
  }
  if (!quote.has_payload()) return;
  if (quote.payload().has_depth()) {
    // Before any per-level work, so that a request's work is bounded by
    // the caps, not by what it sends.
    const v1::Depth& depth = quote.payload().depth();
    const FieldPath depth_path = payload_path.Field("depth");
    bool too_long = false;
    for (const auto& [side, levels] : {std::pair{"buy", depth.buy_size()},
                                       std::pair{"sell", depth.sell_size()}}) {
      if (levels > kMaxDepthLevels) {
        errors.Add(
            depth_path.Field(side).str(),
            absl::StrCat("has ", levels, " levels; at most ", kMaxDepthLevels));
        too_long = true;
      }
    }
    if (too_long) return;
  }
  CheckPayloadNumbers(quote.payload(), payload_path, errors);
  if (quote.payload().has_last_trade_time()) {
    const double millis = quote.payload().last_trade_time();
    if (std::isfinite(millis) && (millis < 0 || std::floor(millis) != millis)) {
      errors.Add(payload_path.Field("last_trade_time").str(),
                 "must be a whole number of epoch milliseconds >= 0");
    }
  }
}

absl::Status CheckSymbol(absl::string_view symbol) {
  bool ok = !symbol.empty() && symbol.size() <= kMaxSymbolLength;
  for (char c : symbol) {
    ok = ok && (absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                c == '&' || c == '.' || c == '_' || c == '-');
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(
      symbol.empty() ? "is required"
                     : "must be 1-32 characters of A-Z a-z 0-9 & . _ -");
}

absl::StatusOr<ShortlistSnapshot> ValidateShortlist(v1::ShortlistData&& data) {
  FieldErrors errors;
  ShortlistSnapshot snapshot;
  snapshot.observed_at =
      ResolveObservedAt(data.timestamp(), data.timezone(), errors);
  if (data.shortlist_type() == v1::SHORTLIST_TYPE_UNSPECIFIED ||
      !v1::ShortlistType_IsValid(data.shortlist_type())) {
    errors.Add("data.shortlistType",
               "is required; use TOP_GAINERS or VOLUME_SHOCKERS");
  }
  snapshot.type = data.shortlist_type();
  if (!v1::Scope_IsValid(data.scope())) {
    errors.Add("data.scope", "must be TOP_5 or FULL");
  }
  snapshot.scope = EffectiveScope(data.scope());
  const FieldPath root("data");
  CheckShortlistEntries(data.entries(), root.Field("entries"), errors);
  if (!errors.empty()) return errors.ToStatus();
  // Same arena (none): a swap of pointers, not a copy of every entry.
  snapshot.entries.mutable_entries()->Swap(data.mutable_entries());
  return snapshot;
}

void CheckShortlistEntries(
    const google::protobuf::RepeatedPtrField<v1::ShortlistEntry>& list,
    const FieldPath& entries, FieldErrors& errors) {
  if (list.size() > kMaxShortlistEntries) {
    errors.Add(entries.str(),
               absl::StrCat("has ", list.size(), " entries; at most ",
                            kMaxShortlistEntries));
  }
  for (int i = 0; i < list.size() && i < kMaxShortlistEntries; ++i) {
    const v1::ShortlistEntry& entry = list[i];
    const FieldPath path = entries.Item(i);
    AddIfError(path.Field("nseSymbol"), CheckSymbol(entry.nse_symbol()),
               errors);
    if (entry.name().size() > kMaxNameLength) {
      errors.Add(path.Field("name").str(), "must be at most 256 characters");
    } else if (const auto c = FindControlOrFormatCharacter(entry.name())) {
      errors.Add(path.Field("name").str(), ControlOrFormatRule(*c));
    }
    if (!entry.has_price()) {
      errors.Add(path.Field("price").str(), "is required: a number >= 0");
    } else if (!WithinMaxMagnitude(entry.price()) || entry.price() < 0) {
      errors.Add(path.Field("price").str(),
                 absl::StrCat("must be a finite number from 0 to ",
                              kMaxMagnitudeText));
    }
    if (entry.has_quote_data()) {
      CheckQuoteData(entry.quote_data(), path.Field("quoteData"), errors);
    }
  }
}

absl::StatusOr<NiftyObservation> ValidateNifty(v1::NiftyData&& data) {
  FieldErrors errors;
  NiftyObservation nifty;
  nifty.observed_at =
      ResolveObservedAt(data.timestamp(), data.timezone(), errors);
  if (!data.has_quote_data()) {
    errors.Add("data.quoteData", "is required: {status, payload}");
  } else {
    const FieldPath root("data");
    CheckQuoteData(data.quote_data(), root.Field("quoteData"), errors);
  }
  if (!data.has_day_change_perc()) {
    errors.Add("data.dayChangePerc", "is required: a number");
  } else if (!WithinMaxMagnitude(data.day_change_perc())) {
    errors.Add("data.dayChangePerc", MagnitudeRule());
  }
  if (!errors.empty()) return errors.ToStatus();
  nifty.quote.Swap(data.mutable_quote_data());
  nifty.day_change_perc = data.day_change_perc();
  return nifty;
}

absl::StatusOr<QuoteBatch> ValidateQuotes(v1::QuotesData&& data) {
  FieldErrors errors;
  QuoteBatch batch;
  batch.observed_at =
      ResolveObservedAt(data.timestamp(), data.timezone(), errors);
  if (data.quotes_size() == 0) {
    errors.Add("data.quotes", "must hold 1 to 1000 quotes");
  } else if (data.quotes_size() > kMaxQuotesPerRequest) {
    errors.Add("data.quotes",
               absl::StrCat("has ", data.quotes_size(), " quotes; at most ",
                            kMaxQuotesPerRequest));
  }
  absl::flat_hash_set<absl::string_view> seen;
  seen.reserve(std::min(data.quotes_size(), kMaxQuotesPerRequest));
  const FieldPath root("data");
  const FieldPath quotes = root.Field("quotes");
  for (int i = 0; i < data.quotes_size() && i < kMaxQuotesPerRequest; ++i) {
    const v1::QuoteItem& item = data.quotes(i);
    const FieldPath path = quotes.Item(i);
    const absl::Status symbol_ok = CheckSymbol(item.nse_symbol());
    AddIfError(path.Field("nseSymbol"), symbol_ok, errors);
    if (symbol_ok.ok() && !seen.insert(item.nse_symbol()).second) {
      errors.Add(path.Field("nseSymbol").str(),
                 "appears more than once in this request");
    }
    if (!item.has_quote_data()) {
      errors.Add(path.Field("quoteData").str(),
                 "is required: {status, payload}");
    } else {
      CheckQuoteData(item.quote_data(), path.Field("quoteData"), errors);
    }
  }
  if (!errors.empty()) return errors.ToStatus();
  batch.quotes.resize(data.quotes_size());
  for (int i = 0; i < data.quotes_size(); ++i) {
    v1::QuoteItem& item = *data.mutable_quotes(i);
    StockObservation& quote = batch.quotes[i];
    quote.symbol.swap(*item.mutable_nse_symbol());
    quote.quote.Swap(item.mutable_quote_data());
  }
  return batch;
}

}  // namespace mdc::domain

#include "domain/import_records.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/field_path.h"
#include "domain/number_limits.h"
#include "domain/observations.h"
#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// The record's instant, checked to be supported and to fall on the
// record's trading day; errors under `path`.timestamp and the record's
// tradingDay.
absl::Time CheckInstantAndDay(const v1::ExportRecord& record,
                              const google::protobuf::Timestamp& timestamp,
                              bool has_timestamp, const FieldPath& record_path,
                              const FieldPath& path, absl::CivilDay* day,
                              FieldErrors& errors) {
  const absl::Time at = FromTimestamp(timestamp);
  if (!has_timestamp) {
    errors.Add(path.Field("timestamp").str(), "is required");
    return at;
  }
  if (timestamp.nanos() < 0 || timestamp.nanos() > 999999999) {
    errors.Add(path.Field("timestamp").str(), "has nanos outside 0-999999999");
    return at;
  }
  if (const absl::Status supported = CheckSupportedInstant(at);
      !supported.ok()) {
    errors.AddStatus(path.Field("timestamp").str(), supported);
    return at;
  }
  *day = TradingDay(at);
  const FieldPath day_path = record_path.Field("tradingDay");
  if (record.trading_day().empty()) {
    errors.Add(day_path.str(), "is required: YYYY-MM-DD");
    return at;
  }
  const auto parsed = ParseDate(record.trading_day());
  if (!parsed.ok()) {
    errors.AddStatus(day_path.str(), parsed.status());
  } else if (*parsed != *day) {
    errors.Add(day_path.str(),
               absl::StrCat("must be the trading day of the record's instant "
                            "in Asia/Kolkata, ",
                            FormatDate(*day)));
  }
  return at;
}

// The error of a record without the field of its kind.
void AddWrongKind(const v1::ExportRecord& record, const FieldPath& path,
                  absl::string_view kind, FieldErrors& errors) {
  errors.Add(path.str(),
             record.record_case() == v1::ExportRecord::RECORD_NOT_SET
                 ? absl::StrCat("is required: this import takes ", kind)
                 : absl::StrCat("is absent: the record holds another kind; "
                                "this import takes ",
                                kind));
}

}  // namespace

absl::Status CheckImportMessageSize(int records) {
  if (records <= kMaxImportRecordsPerMessage) return absl::OkStatus();
  return InvalidField("records",
                      absl::StrCat("has ", records, " records; at most ",
                                   kMaxImportRecordsPerMessage, " a message"));
}

absl::StatusOr<ImportedQuote> ValidateImportedQuote(v1::ExportRecord&& record,
                                                    int64_t index) {
  FieldErrors errors;
  const FieldPath root("records");
  const FieldPath at = root.Item(static_cast<int>(index));
  const FieldPath path = at.Field("quote");
  ImportedQuote out;
  if (!record.has_quote()) {
    AddWrongKind(record, path, "stock quotes (quote)", errors);
    return errors.ToStatus();
  }
  v1::StockQuote& quote = *record.mutable_quote();
  out.observed_at =
      CheckInstantAndDay(record, quote.timestamp(), quote.has_timestamp(), at,
                         path, &out.trading_day, errors);
  if (const absl::Status symbol = CheckSymbol(quote.nse_symbol());
      !symbol.ok()) {
    errors.AddStatus(path.Field("nseSymbol").str(), symbol);
  }
  if (!quote.has_quote_data()) {
    errors.Add(path.Field("quoteData").str(), "is required: {status, payload}");
  } else {
    CheckQuoteData(quote.quote_data(), path.Field("quoteData"), errors);
  }
  if (!errors.empty()) return errors.ToStatus();
  out.symbol = std::move(*quote.mutable_nse_symbol());
  out.quote.Swap(quote.mutable_quote_data());
  return out;
}

absl::StatusOr<ImportedNifty> ValidateImportedNifty(v1::ExportRecord&& record,
                                                    int64_t index) {
  FieldErrors errors;
  const FieldPath root("records");
  const FieldPath at = root.Item(static_cast<int>(index));
  const FieldPath path = at.Field("nifty");
  ImportedNifty out;
  if (!record.has_nifty()) {
    AddWrongKind(record, path, "NIFTY 50 quotes (nifty)", errors);
    return errors.ToStatus();
  }
  v1::NiftyQuote& nifty = *record.mutable_nifty();
  out.observed_at =
      CheckInstantAndDay(record, nifty.timestamp(), nifty.has_timestamp(), at,
                         path, &out.trading_day, errors);
  if (!nifty.has_quote_data()) {
    errors.Add(path.Field("quoteData").str(), "is required: {status, payload}");
  } else {
    CheckQuoteData(nifty.quote_data(), path.Field("quoteData"), errors);
  }
  if (!nifty.has_day_change_perc()) {
    errors.Add(path.Field("dayChangePerc").str(), "is required: a number");
  } else if (!WithinMaxMagnitude(nifty.day_change_perc())) {
    errors.Add(path.Field("dayChangePerc").str(),
               absl::StrCat("must be a finite number from -", kMaxMagnitudeText,
                            " to ", kMaxMagnitudeText));
  }
  if (!errors.empty()) return errors.ToStatus();
  out.quote.Swap(nifty.mutable_quote_data());
  out.day_change_perc = nifty.day_change_perc();
  return out;
}

absl::StatusOr<ImportedShortlist> ValidateImportedShortlist(
    v1::ExportRecord&& record, int64_t index) {
  FieldErrors errors;
  const FieldPath root("records");
  const FieldPath at = root.Item(static_cast<int>(index));
  const FieldPath path = at.Field("shortlist");
  ImportedShortlist out;
  if (!record.has_shortlist()) {
    AddWrongKind(record, path, "shortlist snapshots (shortlist)", errors);
    return errors.ToStatus();
  }
  v1::Shortlist& shortlist = *record.mutable_shortlist();
  out.observed_at = CheckInstantAndDay(record, shortlist.timestamp(),
                                       shortlist.has_timestamp(), at, path,
                                       &out.trading_day, errors);
  if (shortlist.shortlist_type() == v1::SHORTLIST_TYPE_UNSPECIFIED ||
      !v1::ShortlistType_IsValid(shortlist.shortlist_type())) {
    errors.Add(path.Field("shortlistType").str(),
               "is required; use TOP_GAINERS or VOLUME_SHOCKERS");
  }
  // A stored snapshot always has its scope; an export writes it.
  if (shortlist.scope() != v1::TOP_5 && shortlist.scope() != v1::FULL) {
    errors.Add(path.Field("scope").str(), "must be TOP_5 or FULL");
  }
  CheckShortlistEntries(shortlist.entries(), path.Field("entries"), errors);
  if (!errors.empty()) return errors.ToStatus();
  out.type = shortlist.shortlist_type();
  out.scope = shortlist.scope();
  out.entries.mutable_entries()->Swap(shortlist.mutable_entries());
  return out;
}

}  // namespace mdc::domain

// Validation of imported records (mdc.v1.ImportService): each record of an
// import stream, an mdc.v1.ExportRecord as an export wrote it, is checked
// by the rules the collector's writes follow (observations.h) and turned
// into what the import stores. Errors name the record by its place in the
// whole stream ("records[1234].quote.nseSymbol"), which the gateway turns
// into the file's line or row.
#ifndef MDC_DOMAIN_IMPORT_RECORDS_H_
#define MDC_DOMAIN_IMPORT_RECORDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "mdc/v1/export.pb.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

// The most records one message of an import stream may hold.
inline constexpr int kMaxImportRecordsPerMessage = 10000;

// A stock quote to import.
struct ImportedQuote {
  std::string symbol;
  absl::Time observed_at;
  absl::CivilDay trading_day;
  v1::QuoteData quote;
};

// A NIFTY 50 quote to import.
struct ImportedNifty {
  absl::Time observed_at;
  absl::CivilDay trading_day;
  v1::QuoteData quote;
  double day_change_perc = 0;
};

// A shortlist snapshot to import; `entries.entries()` in rank order.
struct ImportedShortlist {
  v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
  v1::Scope scope = v1::TOP_5;
  absl::Time observed_at;
  absl::CivilDay trading_day;
  v1::Shortlist entries;
};

// Each checks record number `index` of a stream (from 0) and, when valid,
// moves what it stores out of `record`. A record must hold the kind of its
// RPC, an instant in the supported years, and the trading day of that
// instant (Asia/Kolkata), as an export writes it.
absl::StatusOr<ImportedQuote> ValidateImportedQuote(v1::ExportRecord&& record,
                                                    int64_t index);
absl::StatusOr<ImportedNifty> ValidateImportedNifty(v1::ExportRecord&& record,
                                                    int64_t index);
absl::StatusOr<ImportedShortlist> ValidateImportedShortlist(
    v1::ExportRecord&& record, int64_t index);

// INVALID_ARGUMENT for a message of more than kMaxImportRecordsPerMessage
// records.
absl::Status CheckImportMessageSize(int records);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_IMPORT_RECORDS_H_

// The compressed columnar form of a closed trading day's NIFTY quotes
// (docs/architecture.md, "Compacted history"): a batch of up to
// kMaxQuotesPerBatch quotes of the one NIFTY series and one trading day.
// The same layout as a stock quote batch (domain/quote_batch_codec.h: the
// instants, prices, payload columns, writer, write time, stream order),
// with one more column, the quote's own day change in percent, compressed
// together in one zstd frame under a version byte of its own, so neither
// decoder takes the other's batches.
//
// Every stored field round-trips exactly (bit for bit, NULLs kept, the
// payload byte for byte).
#ifndef MDC_DOMAIN_NIFTY_BATCH_CODEC_H_
#define MDC_DOMAIN_NIFTY_BATCH_CODEC_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "domain/quote_batch_codec.h"

namespace mdc::domain {

// One stored NIFTY quote, as its row holds it (the trading day is the
// batch's).
struct StoredNiftyQuote {
  StoredQuote quote;
  double day_change_perc = 0;  // NOT NULL in nifty_quotes

  bool operator==(const StoredNiftyQuote& other) const;
};

// Encodes `quotes` (1 to kMaxQuotesPerBatch of them, any order; ascending
// observed_at compresses best) into one batch. The order is kept.
std::string EncodeNiftyBatch(const std::vector<StoredNiftyQuote>& quotes);

// The quotes of a batch EncodeNiftyBatch made, in its order. DataLoss when
// the bytes are not such a batch (truncated, corrupted, a stock quote
// batch, unknown version).
absl::StatusOr<std::vector<StoredNiftyQuote>> DecodeNiftyBatch(
    absl::string_view batch);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_NIFTY_BATCH_CODEC_H_

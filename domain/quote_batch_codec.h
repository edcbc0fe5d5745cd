// The compressed columnar form of a closed trading day's stock quotes
// (docs/architecture.md, "Compacted history"): a batch of up to
// kMaxQuotesPerBatch quotes of one symbol and one trading day, each stored
// column encoded for its kind, the whole compressed with zstd.
//
// Every stored field round-trips exactly (bit for bit, NULLs kept): the
// instant, the two price columns, the serialized payload, the writer, the
// write time and the stream order (seq, txid). Plain functions, no
// database: storage/ moves the bytes, tests/domain checks the round trip.
#ifndef MDC_DOMAIN_QUOTE_BATCH_CODEC_H_
#define MDC_DOMAIN_QUOTE_BATCH_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "domain/column_codec.h"

namespace mdc::domain {

// About a thousand quotes per batch, as the columnar stores do: enough for
// the codecs and zstd to find the repetition, few enough that a read of one
// instant decodes little more than it needs.
inline constexpr int kMaxQuotesPerBatch = 1000;

// One stored stock quote, as its row holds it (the symbol and the trading
// day are the batch's). Instants in microseconds since the Unix epoch,
// PostgreSQL's precision.
struct StoredQuote {
  int64_t observed_at_us = 0;
  std::optional<double> last_price;
  std::optional<double> volume;
  std::string quote_data;
  std::optional<int64_t> written_by;
  int64_t written_at_us = 0;
  int64_t seq = 0;
  uint64_t txid = 0;

  bool operator==(const StoredQuote& other) const;
};

// Encodes `quotes` (1 to kMaxQuotesPerBatch of them, any order; ascending
// observed_at compresses best) into one batch. The order is kept.
std::string EncodeQuoteBatch(const std::vector<StoredQuote>& quotes);

// What a decode gives back of each quote.
enum class QuoteBatchParts {
  kWhole,
  // The instants, last_price and volume alone (the other fields left at
  // their defaults, quote_data empty): what candles and charts read. A batch
  // of the current layout keeps them in a zstd frame of their own, so this
  // decompresses and reads that alone; older layouts pass over the rest.
  kPrices,
};

// The quotes of a batch EncodeQuoteBatch made, in its order. DataLoss when
// the bytes are not such a batch (truncated, corrupted, unknown version).
absl::StatusOr<std::vector<StoredQuote>> DecodeQuoteBatch(
    absl::string_view batch, QuoteBatchParts parts = QuoteBatchParts::kWhole);

// The quote at `at` (its place in the batch's order) alone, equal to
// DecodeQuoteBatch(batch)[at], given `prices`: the batch's
// DecodeQuoteBatch(batch, kPrices), which found `at` (taken over, not
// decoded again). The other quotes' columns are passed over and only its
// payload is written back: what the latest quote of each symbol, as-of and
// cross-sections, needs of a batch. DataLoss as DecodeQuoteBatch;
// OutOfRange when `at` is not in the batch.
absl::StatusOr<StoredQuote> DecodeQuoteAt(absl::string_view batch,
                                          std::vector<StoredQuote> prices,
                                          size_t at);

// The layers of a batch, shared with the codecs of other series that add
// columns of their own after the quotes' (domain/nifty_batch_codec.h).

// The quotes' count and columns (the current layout), uncompressed.
void PutStoredQuotes(const std::vector<StoredQuote>& quotes,
                     columns::Writer& raw);
// What PutStoredQuotes wrote; DataLoss on a bad count (a truncated column
// sets in.failed() instead: the caller checks it once at the end).
absl::StatusOr<std::vector<StoredQuote>> GetStoredQuotes(
    columns::Reader& in, QuoteBatchParts parts = QuoteBatchParts::kWhole);

// A batch's bytes: `version` (its layout), the size of `raw`, then `raw`
// compressed with zstd.
std::string FrameBatch(char version, const std::string& raw);
// The raw columns of a batch FrameBatch made; `version` is its first byte
// (-1 when there is none) even when the rest is corrupt (DataLoss).
absl::StatusOr<std::string> UnframeBatch(absl::string_view batch, int& version);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_QUOTE_BATCH_CODEC_H_

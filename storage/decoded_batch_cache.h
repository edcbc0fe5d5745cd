// Decoded compacted batches kept in memory, so a read that pages through a
// compacted day (replay, exports, a symbol's candles) decodes each batch
// once, not once per page (docs/architecture.md, "Compacted history").
//
// A batch is known by its key and by what changes when its day is
// compacted again (compacted_at, min_seq, max_seq, row_count): a batch
// rewritten by a later compaction is another entry, and the old one ages
// out. Bounded by bytes (kDecodedBatchCacheBytes), least recently used out
// first. Thread-safe; the batches are shared, immutable.
#ifndef MDC_STORAGE_DECODED_BATCH_CACHE_H_
#define MDC_STORAGE_DECODED_BATCH_CACHE_H_

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/civil_time.h"
#include "domain/quote_batch_codec.h"

namespace mdc::storage {

// 48 MiB of decoded quotes (payload bytes included): a day of 200 symbols'
// full quotes at a quote a second for 15 minutes, while the server's RSS
// stays well under 200 MB.
inline constexpr int64_t kDecodedBatchCacheBytes = int64_t{48} << 20;

// Which table a batch is stored in: a NIFTY batch has no symbol, so the
// table tells it apart from a stock batch of the same day and instant.
enum class BatchTable { kStockQuotes, kNiftyQuotes };

// What names one stored batch's content.
struct BatchIdentity {
  std::string symbol;
  absl::CivilDay trading_day;
  int64_t first_observed_at_us = 0;
  int64_t compacted_at_us = 0;
  int64_t min_seq = 0;
  int64_t max_seq = 0;
  int64_t row_count = 0;
  BatchTable table = BatchTable::kStockQuotes;
  // What of each quote was decoded: a whole decode serves every read, a
  // prices-only one (no payloads) only reads of prices.
  domain::QuoteBatchParts parts = domain::QuoteBatchParts::kWhole;
  // The batch's stored bytes, not decoded (DecodedQuotes::compressed): what
  // reads of one quote a batch keep, a tenth of a decoded batch's size.
  bool compressed = false;

  bool operator==(const BatchIdentity& other) const;
  template <typename H>
  friend H AbslHashValue(H h, const BatchIdentity& b) {
    return H::combine(std::move(h), b.symbol, b.trading_day,
                      b.first_observed_at_us, b.compacted_at_us, b.min_seq,
                      b.max_seq, b.row_count, b.table, b.parts, b.compressed);
  }
};

// A batch's quotes, and whether they are ascending by instant with no two
// at one instant (as compaction writes them; the fast reads rely on it and
// read the general way otherwise): checked once, when decoded.
struct DecodedQuotes {
  std::vector<domain::StoredQuote> quotes;
  std::vector<int64_t> instants;  // of the quotes (domain::InstantsOf)
  // A NIFTY batch's: each quote's own day change (empty for a stock batch).
  std::vector<double> day_change_perc;
  bool ascending = false;
  // kPrices: every quote_data is left empty.
  domain::QuoteBatchParts parts = domain::QuoteBatchParts::kWhole;
  // For a BatchIdentity::compressed entry: the stored bytes, and nothing
  // else set.
  std::string compressed;
};
using DecodedBatch = std::shared_ptr<const DecodedQuotes>;

class DecodedBatchCache {
 public:
  explicit DecodedBatchCache(int64_t budget_bytes) : budget_(budget_bytes) {}

  // The process's cache (kDecodedBatchCacheBytes).
  static DecodedBatchCache& Shared();

  // The decoded batch, or null when not kept.
  DecodedBatch Find(const BatchIdentity& id);
  // Keeps `batch` (dropping the least recently used beyond the budget; a
  // batch larger than the whole budget is not kept).
  void Put(const BatchIdentity& id, DecodedBatch batch);

  int64_t bytes() const;

  // The memory a kept batch takes, roughly (what the budget counts).
  static int64_t SizeOf(const BatchIdentity& id, const DecodedQuotes& batch);

 private:
  struct Entry {
    BatchIdentity id;
    DecodedBatch batch;
    int64_t bytes;
  };
  const int64_t budget_;
  mutable absl::Mutex mutex_;
  std::list<Entry> order_ ABSL_GUARDED_BY(mutex_);  // most recent first
  absl::flat_hash_map<BatchIdentity, std::list<Entry>::iterator> index_
      ABSL_GUARDED_BY(mutex_);
  int64_t bytes_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_DECODED_BATCH_CACHE_H_

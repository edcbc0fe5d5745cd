// The market records of every kind (stock quotes, NIFTY quotes, shortlist
// snapshots) read as stream events: by stream position (txid, seq), once
// their transaction is below the commit horizon (migration 0009), for live
// watches and their resumption; and
// by trading day in replay order (domain/stream_cursors.h), for day replay
// and, without parsing stored quotes, for export. Every read is one keyset
// page, so callers hold at most a page in memory.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_
#define MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/stream_cursors.h"
#include "mdc/v1/market.pb.h"
#include "mdc/v1/stream.pb.h"
#include "storage/compacted_reads_fast.h"
#include "storage/pg.h"
#include "storage/pool.h"

namespace mdc::storage {

// A record with its place in the watch streams; `event.cursor` is its watch
// cursor.
struct StreamEvent {
  domain::StreamPosition position;
  v1::MarketEvent event;
  int64_t wire_bytes = 0;  // event's serialized size
};

// A record of a day replay; `event.cursor` is its replay cursor.
struct ReplayRecord {
  domain::ReplayPosition position;
  v1::MarketEvent event;
};

// Records that have become final, in stream order.
struct CommittedPage {
  std::vector<StreamEvent> events;
  // Whether committed records exist that wait behind the horizon: an older
  // transaction was still open when they were read. Read again soon.
  bool held_back = false;
};

// A page of the records of one kind of one trading day read for export, in
// replay order. Its rows stay in the page's database result, or in the
// decoded compacted batches of a page of stock quotes answered from them
// (storage/compacted_reads_fast.h), with no copy per row until CopyTo puts
// one into the message being sent. Unlike a replay page it carries no
// cursors, and its quotes are never parsed: CopyTo forwards each stored
// QuoteData as the bytes it was saved as (ForwardQuoteData in
// storage/quote_columns.h).
class StoredRecordPage {
 public:
  // `rows`: the columns of a replay page (observed_at, key1, key2, payload,
  // day_change_perc).
  explicit StoredRecordPage(Result rows) : rows_(std::move(rows)) {}
  // Or, for stock quotes, the compacted quotes of such a page.
  explicit StoredRecordPage(DayPage rows) : rows_(std::move(rows)) {}

  int size() const;
  // The exclusive lower bound of the page after row `row` (the last row,
  // for the next page of the day).
  domain::KeysetBound BoundAfter(int row) const;

  // Fills `out`, whose quote_data must be unset, with row `row` of a page of
  // stock quotes.
  void CopyTo(int row, v1::StockQuote& out) const;
  // Fills `out`, whose quote_data must be unset, with row `row` of a page of
  // NIFTY quotes.
  void CopyTo(int row, v1::NiftyQuote& out) const;
  // Fills `out` with row `row` of a page of shortlist snapshots (their
  // entries are parsed); DATA_LOSS when the stored entries do not parse.
  absl::Status CopyTo(int row, v1::Shortlist& out) const;

 private:
  // The database's rows, or (stock quotes only) compacted quotes.
  DayPage rows_;
  const Result& result() const { return std::get<Result>(rows_); }
};

class MarketEventRepository {
 public:
  explicit MarketEventRepository(ConnectionPool& pool) : pool_(pool) {}

  // The last final position: records at or before it are all visible and
  // no record can appear there later; every record after it commits (or
  // becomes final) later. (0, 0) when there is none.
  absl::StatusOr<domain::StreamPosition> LatestPosition();

  // Up to `limit` final records of every kind after `after`, ascending.
  // "Final": its transaction is below the snapshot's horizon (migration
  // 0009), so nothing can ever commit before it; and, with synchronous
  // replication, flushed by the synchronous standby (returned only once it
  // is, waiting up to 2 s; UNAVAILABLE after that), so no record a failover
  // loses is ever sent to watchers.
  absl::StatusOr<CommittedPage> ListCommitted(domain::StreamPosition after,
                                              int limit);

  // Up to `limit` records with `after` < position <= `up_to`, ascending, of
  // one watch's selection. `up_to` must be final (from the above).
  absl::StatusOr<std::vector<StreamEvent>> ListQuotesSince(
      const std::vector<std::string>& symbols, domain::StreamPosition after,
      domain::StreamPosition up_to, int limit);
  absl::StatusOr<std::vector<StreamEvent>> ListNiftySince(
      domain::StreamPosition after, domain::StreamPosition up_to, int limit);
  absl::StatusOr<std::vector<StreamEvent>> ListShortlistsSince(
      v1::ShortlistType type, v1::Scope scope, domain::StreamPosition after,
      domain::StreamPosition up_to, int limit);

  // Up to `limit` records of trading day `day` of one kind, stamped before
  // `end`, after `bound` in replay order, ascending in replay order. An
  // empty `symbols` means every symbol.
  absl::StatusOr<std::vector<ReplayRecord>> ReplayQuotes(
      absl::CivilDay day, const std::vector<std::string>& symbols,
      const domain::KeysetBound& bound, absl::Time end, int limit);
  absl::StatusOr<std::vector<ReplayRecord>> ReplayNifty(
      absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
      int limit);
  absl::StatusOr<std::vector<ReplayRecord>> ReplayShortlists(
      absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
      int limit);

  // The same pages as the Replay reads above, for export (StoredRecordPage).
  absl::StatusOr<StoredRecordPage> ExportQuotes(
      absl::CivilDay day, const std::vector<std::string>& symbols,
      const domain::KeysetBound& bound, absl::Time end, int limit);
  absl::StatusOr<StoredRecordPage> ExportNifty(absl::CivilDay day,
                                               const domain::KeysetBound& bound,
                                               absl::Time end, int limit);
  absl::StatusOr<StoredRecordPage> ExportShortlists(
      absl::CivilDay day, const domain::KeysetBound& bound, absl::Time end,
      int limit);

 private:
  // The rows of one replay-ordered page (the columns ReadRecord reads);
  // for stock quotes, or the compacted quotes of such a page.
  absl::StatusOr<DayPage> QuotesPage(absl::CivilDay day,
                                     const std::vector<std::string>& symbols,
                                     const domain::KeysetBound& bound,
                                     absl::Time end, int limit);
  absl::StatusOr<Result> NiftyPage(absl::CivilDay day,
                                   const domain::KeysetBound& bound,
                                   absl::Time end, int limit);
  absl::StatusOr<Result> ShortlistsPage(absl::CivilDay day,
                                        const domain::KeysetBound& bound,
                                        absl::Time end, int limit);

  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_

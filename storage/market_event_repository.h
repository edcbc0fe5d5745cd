// The market records of every kind (stock quotes, NIFTY quotes, shortlist
// snapshots) read as stream events: by `seq`, the number that grows in
// commit order (migration 0008), for live watches and their resumption; and
// by trading day in replay order (domain/stream_cursors.h), for day replay.
// Every read is one keyset page, so callers hold at most a page in memory.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_
#define MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/stream_cursors.h"
#include "mdc/v1/stream.pb.h"
#include "storage/pool.h"

namespace mdc::storage {

// A record with its commit-ordered number; `event.cursor` is its watch
// cursor.
struct SeqEvent {
  int64_t seq = 0;
  v1::MarketEvent event;
  int64_t wire_bytes = 0;  // event's serialized size
};

// A record of a day replay; `event.cursor` is its replay cursor.
struct ReplayRecord {
  domain::ReplayPosition position;
  v1::MarketEvent event;
};

class MarketEventRepository {
 public:
  explicit MarketEventRepository(ConnectionPool& pool) : pool_(pool) {}

  // The largest seq of any stored record (0 when there is none): every
  // record with a larger one commits later.
  absl::StatusOr<int64_t> LatestSeq();

  // Up to `limit` records of every kind with seq > `after`, ascending.
  absl::StatusOr<std::vector<SeqEvent>> ListSince(int64_t after, int limit);

  // Up to `limit` records with `after` < seq <= `up_to`, ascending, of one
  // watch's selection.
  absl::StatusOr<std::vector<SeqEvent>> ListQuotesSince(
      const std::vector<std::string>& symbols, int64_t after, int64_t up_to,
      int limit);
  absl::StatusOr<std::vector<SeqEvent>> ListNiftySince(int64_t after,
                                                       int64_t up_to,
                                                       int limit);
  absl::StatusOr<std::vector<SeqEvent>> ListShortlistsSince(
      v1::ShortlistType type, v1::Scope scope, int64_t after, int64_t up_to,
      int limit);

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

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MARKET_EVENT_REPOSITORY_H_

// Shortlist snapshots, keyed by (type, scope, instant).
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_SHORTLIST_REPOSITORY_H_
#define MDC_STORAGE_SHORTLIST_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/observations.h"
#include "mdc/v1/market.pb.h"
#include "storage/developer_repository.h"
#include "storage/pool.h"

namespace mdc::storage {

class ShortlistRepository {
 public:
  explicit ShortlistRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts the snapshot or replaces the one with the same key, written by
  // the developer holding the token whose hash is given: returns that
  // developer, or none (and writes nothing) when no developer holds it.
  // `done` gets the answer once it is committed, on a storage thread.
  void Upsert(const domain::ShortlistSnapshot& snapshot,
              const std::string& token_hash, DeveloperCallback done);

  // The latest snapshot of (type, scope) stamped in [not_before, at], with
  // `timestamp`, `shortlist_type`, `scope` and `entries` set.
  absl::StatusOr<std::optional<v1::Shortlist>> FindLatest(
      v1::ShortlistType type, v1::Scope scope, absl::Time not_before,
      absl::Time at);

  // --- Dashboard reads (daily analytics, available datetimes). ---

  // Every snapshot of trading day `day` stamped at or before `not_after`, of
  // `scope` and of `type` (SHORTLIST_TYPE_UNSPECIFIED: every type),
  // ascending by instant; each with `timestamp`, `shortlist_type`, `scope`
  // and `entries` set. Empty snapshots are included.
  absl::StatusOr<std::vector<v1::Shortlist>> ListDaySnapshots(
      v1::ShortlistType type, v1::Scope scope, absl::CivilDay day,
      absl::Time not_after);

  struct DayInstants {
    absl::CivilDay day;
    int instants = 0;  // distinct snapshot instants, all types and scopes
  };
  // Which snapshots the reads below count: of one type, one scope or both
  // (UNSPECIFIED: any).
  struct ListKey {
    v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
    v1::Scope scope = v1::SCOPE_UNSPECIFIED;
  };
  // Trading days with snapshots stamped at or before `not_after` (of
  // `list` only, when given), ascending.
  absl::StatusOr<std::vector<DayInstants>> ListDays(
      absl::Time not_after, std::optional<ListKey> list = std::nullopt);

  // The distinct instants of `day`'s snapshots (all types and scopes, or
  // `list` only) stamped at or before `not_after`, ascending.
  absl::StatusOr<std::vector<absl::Time>> ListDayInstants(
      absl::CivilDay day, absl::Time not_after,
      std::optional<ListKey> list = std::nullopt);
  // Up to `limit` snapshots of (type, scope) stamped in [start, end) and
  // after `after` when given, ascending, each as FindLatest returns it: one
  // page of a keyset read.
  absl::StatusOr<std::vector<v1::Shortlist>> ListRange(
      v1::ShortlistType type, v1::Scope scope, absl::Time start, absl::Time end,
      std::optional<absl::Time> after, int limit);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_SHORTLIST_REPOSITORY_H_

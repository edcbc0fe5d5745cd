#include "storage/shortlist_repository.h"

#include "absl/status/status.h"
#include "service/domain/market_enums.h"
#include "service/domain/time.h"
#include "service/domain/proto_time.h"

namespace mdc::storage {
namespace {

constexpr Statement kUpsert{
    "shortlists_upsert",
    "INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at, "
    "trading_day, entry_count, entries, written_by) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) "
    "ON CONFLICT (shortlist_type, scope, observed_at) DO UPDATE SET "
    "entry_count = EXCLUDED.entry_count, entries = EXCLUDED.entries, "
    "written_by = EXCLUDED.written_by, written_at = now()"};

constexpr Statement kFindLatest{
    "shortlists_find_latest",
    "SELECT observed_at, entries FROM shortlist_snapshots "
    "WHERE shortlist_type = $1 AND scope = $2 "
    "AND observed_at >= $3 AND observed_at <= $4 "
    "ORDER BY observed_at DESC LIMIT 1"};

}  // namespace

absl::Status ShortlistRepository::Upsert(
    const domain::ShortlistSnapshot& snapshot, int64_t writer_id) {
  return pool_
      .ExecWrite(kUpsert, Params()
                              .Text(domain::ShortlistTypeName(snapshot.type))
                              .Text(domain::ScopeName(snapshot.scope))
                              .Time(snapshot.observed_at)
                              .Date(domain::TradingDay(snapshot.observed_at))
                              .Int32(snapshot.entries.entries_size())
                              .Bytes(snapshot.entries.SerializeAsString())
                              .Int64(writer_id))
      .status();
}

absl::StatusOr<std::optional<v1::Shortlist>> ShortlistRepository::FindLatest(
    v1::ShortlistType type, v1::Scope scope, absl::Time not_before,
    absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFindLatest,
                              Params()
                                  .Text(domain::ShortlistTypeName(type))
                                  .Text(domain::ScopeName(scope))
                                  .Time(not_before)
                                  .Time(at));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<v1::Shortlist>();
  v1::Shortlist shortlist;
  if (!shortlist.ParseFromArray(result->Bytes(0, 1).data(),
                                static_cast<int>(result->Bytes(0, 1).size()))) {
    return absl::DataLossError("stored shortlist entries are unreadable");
  }
  domain::SetTimestamp(result->Time(0, 0), shortlist.mutable_timestamp());
  shortlist.set_shortlist_type(type);
  shortlist.set_scope(scope);
  return std::optional<v1::Shortlist>(std::move(shortlist));
}

}  // namespace mdc::storage

#include "storage/shortlist_repository.h"

#include <string>

#include "absl/status/status.h"
#include "domain/market_enums.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/committed_write.h"
#include "storage/rows.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

// The one upsert of shortlist snapshots, for one write and for a batch of
// them alike: `input` is a query of the writes, one row each with the
// columns below, its writer's token hash and its place; `token_hashes` the
// array of those hashes. Writes only rows whose token hash a developer holds
// (see MDC_WRITERS_CTE); of several writes of one key, the last (the
// highest place) is written, as running them in order would leave it. The
// conflict key holds trading_day, which the server computes from
// observed_at: the same uniqueness as without it (migration 0010).
#define MDC_UPSERT_SHORTLISTS(input, token_hashes) \
  "WITH input AS (" input "), " MDC_WRITERS_CTE(token_hashes)                 \
  ", stored AS (INSERT INTO shortlist_snapshots (shortlist_type, scope, "    \
  "observed_at, trading_day, entry_count, entries, written_by) "              \
  "SELECT DISTINCT ON (input.shortlist_type, input.scope, "                   \
  "input.observed_at, input.trading_day) input.shortlist_type, "              \
  "input.scope, input.observed_at, input.trading_day, input.entry_count, "    \
  "input.entries, writer.id FROM input "                                      \
  "JOIN writer ON writer.token_hash = input.token_hash "                      \
  "ORDER BY input.shortlist_type, input.scope, input.observed_at, "           \
  "input.trading_day, input.place DESC "                                      \
  "ON CONFLICT (shortlist_type, scope, observed_at, trading_day) "            \
  "DO UPDATE SET "                                                            \
  "entry_count = EXCLUDED.entry_count, entries = EXCLUDED.entries, "          \
  "written_by = EXCLUDED.written_by, written_at = now()) " MDC_WRITER_ANSWER

// A batch of writes (Statement::merged): the parameters as arrays.
constexpr Statement kUpsertShortlists{
    "shortlists_upsert_merged",
    MDC_UPSERT_SHORTLISTS(
        "SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], "
        "$4::date[], $5::int4[], $6::bytea[], $7::bytea[]) "
        "WITH ORDINALITY AS i(shortlist_type, scope, observed_at, "
        "trading_day, entry_count, entries, token_hash, place)",
        "$7")};

// One write: the same statement over one row.
constexpr Statement kUpsertShortlist{
    "shortlists_upsert",
    MDC_UPSERT_SHORTLISTS(
        "SELECT $1::text AS shortlist_type, $2::text AS scope, "
        "$3::timestamptz AS observed_at, $4::date AS trading_day, "
        "$5::int4 AS entry_count, $6::bytea AS entries, "
        "$7::bytea AS token_hash, 1::bigint AS place",
        "ARRAY[$7::bytea]"),
    &kUpsertShortlists};

#undef MDC_UPSERT_SHORTLISTS

constexpr Statement kFindLatestShortlist{
    "shortlists_find_latest",
    "SELECT observed_at, entries FROM shortlist_snapshots "
    "WHERE shortlist_type = $1 AND scope = $2 "
    "AND observed_at >= $3 AND observed_at <= $4 "
    "AND trading_day BETWEEN $5 AND $6 "
    "ORDER BY observed_at DESC LIMIT 1"};

// $1 = '' means every type.
constexpr Statement kListDaySnapshots{
    "shortlists_list_day",
    "SELECT observed_at, entries, shortlist_type FROM shortlist_snapshots "
    "WHERE trading_day = $3 AND ($1 = '' OR shortlist_type = $1) "
    "AND scope = $2 AND observed_at <= $4 ORDER BY observed_at, "
    "shortlist_type"};

constexpr Statement kListDays{
    "shortlists_list_days",
    "SELECT trading_day, count(DISTINCT observed_at) FROM shortlist_snapshots "
    "WHERE observed_at <= $1 GROUP BY trading_day ORDER BY trading_day"};

constexpr Statement kListDayInstants{
    "shortlists_list_day_instants",
    "SELECT DISTINCT observed_at FROM shortlist_snapshots "
    "WHERE trading_day = $1 AND observed_at <= $2 ORDER BY observed_at"};

// The same for one type or one scope or both: "" is any ($2 type, $3 scope).
constexpr Statement kListDaysOfList{
    "shortlists_list_days_of_list",
    "SELECT trading_day, count(DISTINCT observed_at) FROM shortlist_snapshots "
    "WHERE observed_at <= $1 AND ($2 = '' OR shortlist_type = $2) "
    "AND ($3 = '' OR scope = $3) GROUP BY trading_day ORDER BY trading_day"};

constexpr Statement kListDayInstantsOfList{
    "shortlists_list_day_instants_of_list",
    "SELECT DISTINCT observed_at FROM shortlist_snapshots "
    "WHERE trading_day = $1 AND observed_at <= $2 "
    "AND ($3 = '' OR shortlist_type = $3) AND ($4 = '' OR scope = $4) "
    "ORDER BY observed_at"};

// Keyset pages: $5 is the last instant of the previous page (or just before
// $3 on the first page).
constexpr Statement kListShortlistRange{
    "shortlists_list_range",
    "SELECT observed_at, entries FROM shortlist_snapshots "
    "WHERE shortlist_type = $1 AND scope = $2 "
    "AND observed_at >= $3 AND observed_at < $4 AND observed_at > $5 "
    "AND trading_day BETWEEN $7 AND $8 ORDER BY observed_at LIMIT $6"};

absl::StatusOr<v1::Shortlist> ShortlistAt(const Result& result, int row,
                                          v1::ShortlistType type,
                                          v1::Scope scope) {
  v1::Shortlist shortlist;
  const absl::string_view entries = result.Bytes(row, 1);
  if (!shortlist.ParseFromArray(entries.data(),
                                static_cast<int>(entries.size()))) {
    return absl::DataLossError("stored shortlist entries are unreadable");
  }
  SetStoredTimestamp(result.Time(row, 0), "shortlist_snapshots",
                     shortlist.mutable_timestamp());
  shortlist.set_shortlist_type(type);
  shortlist.set_scope(scope);
  return shortlist;
}

// A list filter's parameter: the stored name, or "" for any.
std::string TypeOrAny(v1::ShortlistType type) {
  return type == v1::SHORTLIST_TYPE_UNSPECIFIED
             ? std::string()
             : domain::ShortlistTypeName(type);
}
std::string ScopeOrAny(v1::Scope scope) {
  return scope == v1::SCOPE_UNSPECIFIED ? std::string()
                                        : domain::ScopeName(scope);
}

}  // namespace

void ShortlistRepository::Upsert(const domain::ShortlistSnapshot& snapshot,
                                 const std::string& token_hash,
                                 DeveloperCallback done) {
  pool_.SubmitWrite(
      kUpsertShortlist,
      Params()
          .Text(domain::ShortlistTypeName(snapshot.type))
          .Text(domain::ScopeName(snapshot.scope))
          .Time(snapshot.observed_at)
          .Date(domain::TradingDay(snapshot.observed_at))
          .Int32(snapshot.entries.entries_size())
          .Bytes(snapshot.entries.SerializeAsString())
          .Bytes(token_hash),
      ReportCollectorWrite(
          pool_.observer(),
          CollectorWrite{"shortlist_snapshots", domain::RecordKind::kShortlist,
                         snapshot.observed_at, 1},
          std::move(done)));
}

absl::StatusOr<std::optional<v1::Shortlist>> ShortlistRepository::FindLatest(
    v1::ShortlistType type, v1::Scope scope, absl::Time not_before,
    absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFindLatestShortlist,
                              Params()
                                  .Text(domain::ShortlistTypeName(type))
                                  .Text(domain::ScopeName(scope))
                                  .Time(not_before)
                                  .Time(at)
                                  .Date(TradingDayFrom(not_before))
                                  .Date(TradingDayTo(at)));
  if (!result.ok()) return result.status();
  return ReadFirstRow<v1::Shortlist>(*result, ShortlistAt, type, scope);
}

absl::StatusOr<std::vector<v1::Shortlist>> ShortlistRepository::ListRange(
    v1::ShortlistType type, v1::Scope scope, absl::Time start, absl::Time end,
    std::optional<absl::Time> after, int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListShortlistRange,
                              Params()
                                  .Text(domain::ShortlistTypeName(type))
                                  .Text(domain::ScopeName(scope))
                                  .Time(start)
                                  .Time(end)
                                  .Time(PageAfter(after, start))
                                  .Int32(limit)
                                  .Date(TradingDayFrom(PageAfter(after, start)))
                                  .Date(TradingDayTo(end)));
  if (!result.ok()) return result.status();
  return ReadRows<v1::Shortlist>(*result, ShortlistAt, type, scope);
}

absl::StatusOr<std::vector<v1::Shortlist>>
ShortlistRepository::ListDaySnapshots(v1::ShortlistType type, v1::Scope scope,
                                      absl::CivilDay day,
                                      absl::Time not_after) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  const std::string type_name = type == v1::SHORTLIST_TYPE_UNSPECIFIED
                                    ? std::string()
                                    : domain::ShortlistTypeName(type);
  auto result =
      (*conn)->Exec(kListDaySnapshots, Params()
                                           .Text(type_name)
                                           .Text(domain::ScopeName(scope))
                                           .Date(day)
                                           .Time(not_after));
  if (!result.ok()) return result.status();
  // Each row names its own type (column 2).
  return ReadRows<v1::Shortlist>(*result, [scope](const Result& rows, int row) {
    v1::ShortlistType stored_type = v1::SHORTLIST_TYPE_UNSPECIFIED;
    v1::ShortlistType_Parse(rows.String(row, 2), &stored_type);
    return ShortlistAt(rows, row, stored_type, scope);
  });
}

absl::StatusOr<std::vector<ShortlistRepository::DayInstants>>
ShortlistRepository::ListDays(absl::Time not_after,
                              std::optional<ListKey> list) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      list.has_value()
          ? (*conn)->Exec(kListDaysOfList, Params()
                                               .Time(not_after)
                                               .Text(TypeOrAny(list->type))
                                               .Text(ScopeOrAny(list->scope)))
          : (*conn)->Exec(kListDays, Params().Time(not_after));
  if (!result.ok()) return result.status();
  std::vector<DayInstants> days;
  days.reserve(result->rows());
  for (int i = 0; i < result->rows(); ++i) {
    days.push_back(
        DayInstants{result->Date(i, 0), static_cast<int>(result->Int64(i, 1))});
  }
  return days;
}

absl::StatusOr<std::vector<absl::Time>> ShortlistRepository::ListDayInstants(
    absl::CivilDay day, absl::Time not_after, std::optional<ListKey> list) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      list.has_value()
          ? (*conn)->Exec(kListDayInstantsOfList,
                          Params()
                              .Date(day)
                              .Time(not_after)
                              .Text(TypeOrAny(list->type))
                              .Text(ScopeOrAny(list->scope)))
          : (*conn)->Exec(kListDayInstants, Params().Date(day).Time(not_after));
  if (!result.ok()) return result.status();
  std::vector<absl::Time> instants;
  instants.reserve(result->rows());
  for (int i = 0; i < result->rows(); ++i) {
    instants.push_back(result->Time(i, 0));
  }
  return instants;
}

}  // namespace mdc::storage

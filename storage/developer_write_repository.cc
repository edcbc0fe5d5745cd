#include "storage/developer_write_repository.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

namespace mdc::storage {
namespace {

// The tallies travel as parallel arrays, sorted by key ($1-$3). The join
// drops developers deleted meanwhile (the foreign key would fail the whole
// statement).
constexpr Statement kMerge{
    "developer_writes_merge",
    "INSERT INTO developer_writes AS w (developer_id, kind, trading_day, "
    "last_written_at, last_observed_at, records) "
    "SELECT t.developer_id, t.kind, t.trading_day, t.last_written_at, "
    "t.last_observed_at, t.records FROM unnest($1::bigint[], $2::text[], "
    "$3::date[], $4::timestamptz[], $5::timestamptz[], $6::bigint[]) "
    "WITH ORDINALITY AS t(developer_id, kind, trading_day, last_written_at, "
    "last_observed_at, records, i) "
    "JOIN developers d ON d.id = t.developer_id ORDER BY t.i "
    "ON CONFLICT (developer_id, kind, trading_day) DO UPDATE SET "
    "last_written_at = GREATEST(w.last_written_at, "
    "EXCLUDED.last_written_at), "
    "last_observed_at = GREATEST(w.last_observed_at, "
    "EXCLUDED.last_observed_at), "
    "records = w.records + EXCLUDED.records"};

// A few rows per developer, kind and trading day: read whole.
constexpr Statement kSummaries{
    "developer_writes_summaries",
    "SELECT w.developer_id, d.username, w.kind, max(w.last_written_at), "
    "max(w.last_observed_at), "
    "max(w.last_written_at) FILTER (WHERE w.trading_day = $1), "
    "max(w.last_observed_at) FILTER (WHERE w.trading_day = $1), "
    "coalesce(sum(w.records) FILTER (WHERE w.trading_day = $1), 0)::bigint "
    "FROM developer_writes w JOIN developers d ON d.id = w.developer_id "
    "GROUP BY w.developer_id, d.username, w.kind "
    "ORDER BY d.username COLLATE \"C\", w.kind COLLATE \"C\""};

domain::RecordKind KindNamed(absl::string_view name) {
  for (domain::RecordKind kind :
       {domain::RecordKind::kQuote, domain::RecordKind::kNifty,
        domain::RecordKind::kShortlist}) {
    if (domain::RecordKindName(kind) == name) return kind;
  }
  return domain::RecordKind::kQuote;  // the table's check allows no other
}

}  // namespace

absl::Status DeveloperWriteRepository::Merge(
    std::vector<domain::WriteTally> tallies) {
  if (tallies.empty()) return absl::OkStatus();
  auto key = [](const domain::WriteTally& t) {
    return std::make_tuple(t.developer_id, domain::RecordKindName(t.kind),
                           t.day);
  };
  std::sort(tallies.begin(), tallies.end(),
            [&](const domain::WriteTally& a, const domain::WriteTally& b) {
              return key(a) < key(b);
            });
  std::vector<int64_t> ids;
  std::vector<std::string> kinds;
  std::vector<absl::CivilDay> days;
  std::vector<absl::Time> written;
  std::vector<absl::Time> observed;
  std::vector<int64_t> records;
  for (const domain::WriteTally& t : tallies) {
    ids.push_back(t.developer_id);
    kinds.emplace_back(domain::RecordKindName(t.kind));
    days.push_back(t.day);
    written.push_back(t.last_written);
    observed.push_back(t.last_observed);
    records.push_back(t.records);
  }
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kMerge, Params()
                                          .Int64Array(ids)
                                          .TextArray(kinds)
                                          .DateArray(days)
                                          .TimeArray(written)
                                          .TimeArray(observed)
                                          .Int64Array(records));
  return result.status();
}

absl::StatusOr<std::vector<WriterSummary>> DeveloperWriteRepository::Summaries(
    absl::CivilDay day) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kSummaries, Params().Date(day));
  if (!result.ok()) return result.status();
  std::vector<WriterSummary> summaries;
  summaries.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    WriterSummary s;
    s.developer_id = result->Int64(row, 0);
    s.username = result->String(row, 1);
    s.kind = KindNamed(result->Bytes(row, 2));
    s.last_written = result->Time(row, 3);
    s.last_observed = result->Time(row, 4);
    if (!result->IsNull(row, 5)) s.day_last_written = result->Time(row, 5);
    if (!result->IsNull(row, 6)) s.day_last_observed = result->Time(row, 6);
    s.day_records = result->Int64(row, 7);
    summaries.push_back(std::move(s));
  }
  return summaries;
}

}  // namespace mdc::storage

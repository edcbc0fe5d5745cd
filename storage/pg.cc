#include "storage/pg.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "domain/error_reason.h"
#include "storage/pg_binary.h"
#include "storage/pg_notices.h"

namespace mdc::storage {
namespace {

using pg_binary::kPgEpochUnixDays;
using pg_binary::kPgEpochUnixMicros;
using pg_binary::ReadBigEndian;

constexpr char kSqlStatePayload[] = "mdc/sqlstate";
constexpr char kCommitUnconfirmedMessage[] =
    "the database did not confirm that the write reached its synchronous "
    "standby, so it may not survive a failover; send it again (writes are "
    "idempotent)";
constexpr char kTimedOut[] =
    "the database took too long: the statement ran past the server's "
    "statement timeout and was cancelled, so nothing of it took effect; retry";

absl::Status WithSqlState(absl::Status status, const char* sqlstate) {
  if (sqlstate != nullptr) {
    status.SetPayload(kSqlStatePayload, absl::Cord(sqlstate));
  }
  return status;
}

}  // namespace

// Result ---------------------------------------------------------------------

Result Result::Rows(int first, int count) const {
  Result rows = *this;
  rows.first_ = first_ + first;
  rows.count_ = count;
  return rows;
}

int64_t Result::affected_rows() const {
  const char* tuples = PQcmdTuples(result_.get());
  return tuples[0] == '\0' ? 0 : std::strtoll(tuples, nullptr, 10);
}

bool Result::IsNull(int row, int col) const {
  return PQgetisnull(result_.get(), first_ + row, col) != 0;
}

absl::string_view Result::Bytes(int row, int col) const {
  return absl::string_view(Value(row, col), Length(row, col));
}

std::string Result::String(int row, int col) const {
  return std::string(Bytes(row, col));
}

int64_t Result::Int64(int row, int col) const {
  const int length = Length(row, col);
  assert(length == 2 || length == 4 || length == 8);
  const uint64_t raw = ReadBigEndian(Value(row, col), length);
  switch (length) {
    case 2:
      return static_cast<int16_t>(raw);
    case 4:
      return static_cast<int32_t>(raw);
    default:
      return static_cast<int64_t>(raw);
  }
}

double Result::Double(int row, int col) const {
  const int length = Length(row, col);
  const uint64_t raw = ReadBigEndian(Value(row, col), length);
  if (length == 4) {
    float f;
    const uint32_t bits = static_cast<uint32_t>(raw);
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  assert(length == 8);
  double d;
  std::memcpy(&d, &raw, sizeof d);
  return d;
}

std::optional<double> Result::OptionalDouble(int row, int col) const {
  if (IsNull(row, col)) return std::nullopt;
  return Double(row, col);
}

bool Result::Bool(int row, int col) const { return Value(row, col)[0] != 0; }

absl::Time Result::Time(int row, int col) const {
  const auto micros = static_cast<int64_t>(ReadBigEndian(Value(row, col), 8));
  return absl::FromUnixMicros(micros + kPgEpochUnixMicros);
}

absl::CivilDay Result::Date(int row, int col) const {
  const auto days = static_cast<int32_t>(ReadBigEndian(Value(row, col), 4));
  return absl::CivilDay(1970, 1, 1) + (days + kPgEpochUnixDays);
}

absl::CivilMinute Result::TimeOfDay(int row, int col) const {
  const auto micros = static_cast<int64_t>(ReadBigEndian(Value(row, col), 8));
  const int64_t minutes = micros / 60000000;
  return absl::CivilMinute(1970, 1, 1, static_cast<int>(minutes / 60),
                           static_cast<int>(minutes % 60));
}

std::vector<std::string> Result::TextArray(int row, int col) const {
  std::vector<std::string> out;
  const char* data = Value(row, col);
  const int ndim = static_cast<int32_t>(ReadBigEndian(data, 4));
  if (ndim == 0) return out;
  const auto count = static_cast<int32_t>(ReadBigEndian(data + 12, 4));
  const char* p = data + 12 + 8 * ndim;
  out.reserve(count);
  for (int i = 0; i < count; ++i) {
    const auto length = static_cast<int32_t>(ReadBigEndian(p, 4));
    p += 4;
    if (length < 0) {
      out.emplace_back();
      continue;
    }
    out.emplace_back(p, length);
    p += length;
  }
  return out;
}

// Connection -----------------------------------------------------------------

absl::StatusOr<std::unique_ptr<Connection>> Connection::Open(
    const std::string& url) {
  // Later keywords override what the URL says: a bounded connect time (per
  // host of a multi-host URL) and a name that shows in pg_stat_activity.
  // Keepalives: a pooled connection to a database machine that vanished
  // (no reset ever comes) is found dead in about 25 s instead of the
  // kernel's two hours, and replaced by one to the new primary.
  const char* keywords[] = {"dbname",
                            "connect_timeout",
                            "application_name",
                            "keepalives_idle",
                            "keepalives_interval",
                            "keepalives_count",
                            nullptr};
  const char* values[] = {url.c_str(), "5", "mdc-server", "10",
                          "5",         "3", nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (PQstatus(conn) != CONNECTION_OK) {
    log::Warning("database connection failed",
                 {{"error", PQerrorMessage(conn)}});
    PQfinish(conn);
    return absl::UnavailableError("database unavailable");
  }
  std::unique_ptr<Connection> opened(new Connection(conn));
  InstallNoticeLogger(conn, &opened->sync_wait_cancelled_);
  return opened;
}

Connection::~Connection() { PQfinish(conn_); }

bool Connection::healthy() const {
  return !broken_ && PQstatus(conn_) == CONNECTION_OK;
}

absl::StatusOr<Result> Connection::Check(PGresult* raw, const char* what) {
  Result result(raw);
  const ExecStatusType status = PQresultStatus(raw);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  if (!healthy() || raw == nullptr) {
    log::Warning("database connection lost",
                 {{"statement", what}, {"error", PQerrorMessage(conn_)}});
    return absl::UnavailableError("database unavailable");
  }
  const char* sqlstate = PQresultErrorField(raw, PG_DIAG_SQLSTATE);
  const char* constraint = PQresultErrorField(raw, PG_DIAG_CONSTRAINT_NAME);
  const absl::string_view state = sqlstate ? sqlstate : "";
  if (state == kUniqueViolation || state == kForeignKeyViolation) {
    return WithSqlState(absl::AlreadyExistsError(absl::StrCat(
                            "constraint ", constraint ? constraint : "")),
                        sqlstate);
  }
  if (state == kQueryCanceled) {
    // MDC_STATEMENT_TIMEOUT (a lock held elsewhere, an overloaded database):
    // not a bug, and retrying later may work.
    log::Warning("database statement cancelled",
                 {{"statement", what}, {"error", PQresultErrorMessage(raw)}});
    return WithSqlState(domain::WithReason(absl::UnavailableError(kTimedOut),
                                           domain::reason::kDatabaseTimeout),
                        sqlstate);
  }
  // Anything else is a bug or an outage: log it in full, tell the client
  // nothing internal.
  log::Error("database statement failed",
             {{"statement", what},
              {"sqlstate", state},
              {"error", PQresultErrorMessage(raw)}});
  if (state == kReadOnlyTransaction) {
    // A standby: this connection will never write again. Dropped, so the
    // pool's next connection looks for the primary.
    broken_ = true;
    return WithSqlState(absl::UnavailableError("database unavailable"),
                        sqlstate);
  }
  if (state.substr(0, 2) == "08" || state.substr(0, 2) == "57") {
    return WithSqlState(absl::UnavailableError("database unavailable"),
                        sqlstate);
  }
  if (state == "40001" || state == "40P01") {
    return WithSqlState(
        absl::AbortedError("conflicting concurrent write; retry"), sqlstate);
  }
  return WithSqlState(absl::InternalError("internal error"), sqlstate);
}

absl::Status Connection::Prepare(const Statement& statement,
                                 const Params& params) {
  if (prepared_.contains(statement.name)) return absl::OkStatus();
  PGresult* prepared = PQprepare(conn_, statement.name, statement.sql,
                                 params.size(), params.types().data());
  auto checked = Check(prepared, statement.name);
  if (!checked.ok()) return checked.status();
  prepared_.insert(statement.name);
  return absl::OkStatus();
}

namespace {

// The libpq arguments of a statement's parameters: binary values.
struct BoundParams {
  explicit BoundParams(const std::vector<std::string>& values,
                       const std::vector<bool>& nulls)
      : values(values.size()),
        lengths(values.size()),
        formats(values.size(), 1) {
    for (size_t i = 0; i < values.size(); ++i) {
      this->values[i] = nulls[i] ? nullptr : values[i].data();
      lengths[i] = static_cast<int>(values[i].size());
    }
  }
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;
};

constexpr absl::string_view kSkippedPayload = "mdc.pipeline_skipped";

}  // namespace

void Connection::FailIfCommitUnconfirmed(
    std::vector<absl::StatusOr<Result>>& results) {
  if (!sync_wait_cancelled_) return;
  sync_wait_cancelled_ = false;
  log::Warning(
      "database commit not confirmed by the synchronous standby; answered "
      "UNAVAILABLE so the client sends it again");
  const absl::Status unconfirmed = WithSqlState(
      domain::WithReason(absl::UnavailableError(kCommitUnconfirmedMessage),
                         domain::reason::kCommitUnconfirmed),
      kPlainWarningSqlState);
  for (auto& result : results) {
    if (result.ok()) result = unconfirmed;
  }
}

absl::StatusOr<Result> Connection::Exec(const Statement& statement,
                                        const Params& params) {
  sync_wait_cancelled_ = false;
  std::vector<absl::StatusOr<Result>> results;
  results.push_back(ExecOnce(statement, params));
  FailIfCommitUnconfirmed(results);
  return std::move(results[0]);
}

absl::StatusOr<Result> Connection::ExecOnce(const Statement& statement,
                                            const Params& params) {
  const BoundParams bound(params.values_, params.nulls_);
  if (statement.plan_each_time) {
    PGresult* result = PQexecParams(conn_, statement.sql, params.size(),
                                    params.types().data(), bound.values.data(),
                                    bound.lengths.data(), bound.formats.data(),
                                    /*resultFormat=*/1);
    return Check(result, statement.name);
  }
  if (auto prepared = Prepare(statement, params); !prepared.ok()) {
    return prepared;
  }
  PGresult* result = PQexecPrepared(conn_, statement.name, params.size(),
                                    bound.values.data(), bound.lengths.data(),
                                    bound.formats.data(), /*resultFormat=*/1);
  return Check(result, statement.name);
}

std::vector<absl::StatusOr<Result>> Connection::ExecPipeline(
    const std::vector<Query>& queries) {
  sync_wait_cancelled_ = false;
  std::vector<absl::StatusOr<Result>> results = ExecPipelineOnce(queries);
  FailIfCommitUnconfirmed(results);
  return results;
}

std::vector<absl::StatusOr<Result>> Connection::ExecPipelineOnce(
    const std::vector<Query>& queries) {
  std::vector<absl::StatusOr<Result>> results;
  results.reserve(queries.size());
  auto fail_rest = [&](const absl::Status& status) {
    while (results.size() < queries.size()) results.push_back(status);
    return std::move(results);
  };
  // Statements are prepared (once per connection) before the pipeline.
  for (const Query& q : queries) {
    if (q.statement->plan_each_time) continue;
    if (auto prepared = Prepare(*q.statement, *q.params); !prepared.ok()) {
      return fail_rest(prepared);
    }
  }
  const absl::Status lost = absl::UnavailableError("database unavailable");
  if (PQenterPipelineMode(conn_) != 1) {
    log::Warning("database pipeline refused",
                 {{"error", PQerrorMessage(conn_)}});
    return fail_rest(lost);
  }
  bool sent = true;
  for (const Query& q : queries) {
    const BoundParams bound(q.params->values_, q.params->nulls_);
    const int queued =
        q.statement->plan_each_time
            ? PQsendQueryParams(conn_, q.statement->sql, q.params->size(),
                                q.params->types().data(), bound.values.data(),
                                bound.lengths.data(), bound.formats.data(),
                                /*resultFormat=*/1)
            : PQsendQueryPrepared(conn_, q.statement->name, q.params->size(),
                                  bound.values.data(), bound.lengths.data(),
                                  bound.formats.data(), /*resultFormat=*/1);
    if (queued != 1) {
      sent = false;
      break;
    }
  }
  if (!sent || PQpipelineSync(conn_) != 1) {
    log::Warning("database connection lost",
                 {{"statement", "pipeline"}, {"error", PQerrorMessage(conn_)}});
    broken_ = true;  // in an unknown protocol state: the pool drops it
    return fail_rest(lost);
  }
  for (const Query& q : queries) {
    PGresult* raw = PQgetResult(conn_);
    if (raw == nullptr) {
      broken_ = true;
      return fail_rest(lost);
    }
    if (PQresultStatus(raw) == PGRES_PIPELINE_ABORTED) {
      PQclear(raw);
      absl::Status skipped = absl::AbortedError(
          "not run: an earlier statement of the same batch failed");
      skipped.SetPayload(kSkippedPayload, absl::Cord("1"));
      results.push_back(std::move(skipped));
    } else {
      results.push_back(Check(raw, q.statement->name));
    }
    // Each query's results end with a null result.
    while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
  }
  // The Sync's own result, then back to normal mode.
  if (PGresult* sync = PQgetResult(conn_)) PQclear(sync);
  if (PQexitPipelineMode(conn_) != 1) {
    log::Warning("database pipeline did not end",
                 {{"error", PQerrorMessage(conn_)}});
    broken_ = true;
  }
  return results;
}

absl::StatusOr<Result> Connection::ExecScript(const std::string& sql) {
  sync_wait_cancelled_ = false;
  std::vector<absl::StatusOr<Result>> results;
  results.push_back(Check(PQexec(conn_, sql.c_str()), "script"));
  FailIfCommitUnconfirmed(results);
  return std::move(results[0]);
}

bool IsCommitUnconfirmed(const absl::Status& status) {
  return !status.ok() && SqlState(status) == kPlainWarningSqlState;
}

absl::StatusOr<Result> Connection::CopyIn(const std::string& copy,
                                          absl::string_view data) {
  PGresult* started = PQexec(conn_, copy.c_str());
  if (PQresultStatus(started) != PGRES_COPY_IN) {
    return Check(started, "copy");
  }
  PQclear(started);
  // libpq takes at most INT_MAX bytes a call; send in pieces well below.
  constexpr size_t kPiece = 1 << 20;
  bool sent = true;
  for (size_t at = 0; at < data.size() && sent; at += kPiece) {
    const size_t n = std::min(kPiece, data.size() - at);
    sent = PQputCopyData(conn_, data.data() + at, static_cast<int>(n)) == 1;
  }
  // A failed send still ends the COPY, so the connection is left usable
  // (or found broken by Check below).
  PQputCopyEnd(conn_, sent ? nullptr : "mdc: sending the rows failed");
  absl::StatusOr<Result> result = Check(PQgetResult(conn_), "copy");
  // Drain to the end of the command (PQgetResult answers null there).
  while (PGresult* more = PQgetResult(conn_)) PQclear(more);
  return result;
}

bool IsSkippedInPipeline(const absl::Status& status) {
  return status.GetPayload(kSkippedPayload).has_value();
}

std::optional<std::string> SqlState(const absl::Status& status) {
  auto payload = status.GetPayload(kSqlStatePayload);
  if (!payload.has_value()) return std::nullopt;
  return std::string(*payload);
}

}  // namespace mdc::storage

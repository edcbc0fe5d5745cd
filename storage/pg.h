// A thin, typed layer over libpq: named prepared statements, parameters and
// results in PostgreSQL's binary format (exact doubles and instants, no text
// round trips), and libpq errors mapped to absl::Status.
//
// A Connection is not thread-safe; the pool hands each one to one thread at
// a time. Params and Result are plain values.
#ifndef MDC_STORAGE_PG_H_
#define MDC_STORAGE_PG_H_

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace mdc::storage {

// A SQL statement with a stable name, prepared once per connection on first
// use. Define them as `inline constexpr` constants next to their repository.
struct Statement {
  const char* name;
  const char* sql;
  // For a write: the same write for many rows at once, which a write batch
  // runs instead of several submissions of this statement (batch.h). Its
  // parameter $i is the array of parameter $i of every submission, in
  // submission order; it must write what running the submissions one after
  // the other would (the last write of a key wins) and answer, for each
  // submission, the rows this statement would, each followed by one more
  // column: the submission's 1-based place in the arrays (int8), in
  // ascending order of that place.
  const Statement* merged = nullptr;
  // Planned anew with each call's values (libpq's unnamed statement) rather
  // than prepared once per connection: for a statement whose good plan
  // depends on them. PostgreSQL switches a prepared statement to a generic
  // plan after five calls when it looks no dearer; for a LATERAL "latest
  // row of each symbol" over the partitions of a trading day, that plan
  // cannot prune partitions while planning, so it appends them and sorts
  // every row of each symbol instead of reading the newest one from the
  // index: 2.7 s instead of 15 ms for 1,000 symbols of 1,500 quotes each.
  bool plan_each_time = false;
};

// Bound parameters, in order ($1, $2, ...), each with its type.
class Params {
 public:
  Params& Text(absl::string_view value);
  Params& Int64(int64_t value);
  Params& Int32(int32_t value);
  Params& Double(double value);
  Params& OptionalDouble(std::optional<double> value);
  Params& Bool(bool value);
  Params& Time(absl::Time value);
  Params& OptionalTime(std::optional<absl::Time> value);
  Params& Date(absl::CivilDay value);
  // A time of day (SQL `time`), minute precision.
  Params& TimeOfDay(absl::CivilMinute value);
  Params& Bytes(absl::string_view value);
  Params& TextArray(const std::vector<std::string>& values);
  Params& DoubleArray(const std::vector<std::optional<double>>& values);
  Params& BytesArray(const std::vector<std::string>& values);
  Params& DateArray(const std::vector<absl::CivilDay>& values);
  Params& Int64Array(const std::vector<int64_t>& values);
  Params& OptionalInt64Array(const std::vector<std::optional<int64_t>>& values);
  Params& TimeArray(const std::vector<absl::Time>& values);
  // A NULL of the type named by `oid`.
  Params& Null(Oid oid);

  // The columns of `rows` as arrays: parameter $i of the answer is the array
  // of parameter $i of every row, in order (NULLs kept). Nullopt when the
  // rows' types differ or one has no array type here.
  static std::optional<Params> Columns(const std::vector<const Params*>& rows);

  int size() const { return static_cast<int>(types_.size()); }
  const std::vector<Oid>& types() const { return types_; }

 private:
  friend class Connection;
  Params& Add(Oid oid, std::string value);

  std::vector<Oid> types_;
  std::vector<std::string> values_;
  std::vector<bool> nulls_;
};

// The rows a statement returned, in binary format. Accessors take a row and
// a column index; calling one on a NULL or a column of another type is a bug
// (checked in debug builds).
class Result {
 public:
  explicit Result(PGresult* result) : result_(result, &PQclear) {}

  // Rows [first, first + count) of this result as a result of their own
  // (the answer of one submission of a merged statement); it shares the
  // rows, so copying none.
  Result Rows(int first, int count) const;

  int rows() const { return count_ >= 0 ? count_ : PQntuples(result_.get()); }
  int columns() const { return PQnfields(result_.get()); }
  // Rows an INSERT/UPDATE/DELETE touched.
  int64_t affected_rows() const;

  bool IsNull(int row, int col) const;
  absl::string_view Bytes(int row, int col) const;  // text, varchar, bytea
  std::string String(int row, int col) const;
  int64_t Int64(int row, int col) const;  // int2, int4 or int8
  double Double(int row, int col) const;  // float4 or float8
  std::optional<double> OptionalDouble(int row, int col) const;
  bool Bool(int row, int col) const;
  absl::Time Time(int row, int col) const;              // timestamptz
  absl::CivilDay Date(int row, int col) const;          // date
  absl::CivilMinute TimeOfDay(int row, int col) const;  // time (minutes)
  std::vector<std::string> TextArray(int row, int col) const;

 private:
  const char* Value(int row, int col) const {
    return PQgetvalue(result_.get(), first_ + row, col);
  }
  int Length(int row, int col) const {
    return PQgetlength(result_.get(), first_ + row, col);
  }

  std::shared_ptr<PGresult> result_;
  int first_ = 0;   // of the rows this result shows
  int count_ = -1;  // of them; -1: all
};

class Connection {
 public:
  // Connects to `url` (a libpq URL or key=value string). Returns UNAVAILABLE
  // when the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<Connection>> Open(
      const std::string& url);

  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs a prepared statement (preparing it on first use).
  absl::StatusOr<Result> Exec(const Statement& statement,
                              const Params& params = Params());

  // Runs SQL text through the simple query protocol: no parameters, may hold
  // several statements (migrations, BEGIN/COMMIT, maintenance commands).
  absl::StatusOr<Result> ExecScript(const std::string& sql);

  // Runs `copy`, a COPY ... FROM STDIN statement, sending `data` as its
  // input (in the format the statement names) in one go. Returns the
  // statement's result (rows copied in Result::affected_rows()).
  absl::StatusOr<Result> CopyIn(const std::string& copy,
                                absl::string_view data);

  // One statement of a pipeline.
  struct Query {
    const Statement* statement;
    const Params* params;
  };
  // Sends every query at once in libpq's pipeline mode and then reads the
  // results: one round trip for all of them, run in order as one implicit
  // transaction (or inside the caller's BEGIN ... COMMIT when those are
  // among the queries). Returns one result per query. After the first
  // failure the server skips the rest: those answer ABORTED with
  // IsSkippedInPipeline() true.
  std::vector<absl::StatusOr<Result>> ExecPipeline(
      const std::vector<Query>& queries);

  // False once the connection to the server is lost; the pool replaces it.
  bool healthy() const;

 private:
  explicit Connection(PGconn* conn) : conn_(conn) {}
  absl::StatusOr<Result> Check(PGresult* result, const char* what);
  // Exec and ExecPipeline without the check of FailIfCommitUnconfirmed.
  absl::StatusOr<Result> ExecOnce(const Statement& statement,
                                  const Params& params);
  std::vector<absl::StatusOr<Result>> ExecPipelineOnce(
      const std::vector<Query>& queries);
  absl::Status Prepare(const Statement& statement, const Params& params);

  // Answers `results` unchanged unless the notice receiver saw the
  // synchronous-standby wait of a commit cancelled while they ran: then
  // every successful one becomes UNAVAILABLE, reason COMMIT_UNCONFIRMED.
  void FailIfCommitUnconfirmed(std::vector<absl::StatusOr<Result>>& results);

  PGconn* conn_;
  bool broken_ = false;  // left mid-protocol by a failed pipeline
  // Set by the notice receiver (pg_notices.h) while a call runs; cleared
  // when the next one starts.
  bool sync_wait_cancelled_ = false;
  absl::flat_hash_set<const char*> prepared_;
};

// SQLSTATE of a failed statement, carried as a payload of the status the
// storage layer returns, so repositories can tell a unique violation from
// other failures without parsing messages.
std::optional<std::string> SqlState(const absl::Status& status);
// True for the status of a pipelined query the server skipped because an
// earlier query of the same pipeline failed.
bool IsSkippedInPipeline(const absl::Status& status);
inline constexpr absl::string_view kUniqueViolation = "23505";
inline constexpr absl::string_view kForeignKeyViolation = "23503";
// query_canceled: the statement ran past statement_timeout (or someone
// cancelled it). It answers UNAVAILABLE with reason DATABASE_TIMEOUT; the
// statement's transaction is rolled back and the connection stays usable.
inline constexpr absl::string_view kQueryCanceled = "57014";
// True for the status of a statement cancelled that way.
inline bool IsStatementTimeout(const absl::Status& status) {
  return SqlState(status) == kQueryCanceled;
}
// read_only_sql_transaction: the connection reached a standby (a name that
// moved, a primary demoted by a failover). Answered UNAVAILABLE, and the
// connection is dropped so the next one finds the primary.
inline constexpr absl::string_view kReadOnlyTransaction = "25006";
// True for the status of a call whose commit PostgreSQL made on the primary
// without the synchronous standby's confirmation (reason
// COMMIT_UNCONFIRMED): its outcome after a failover is unknown.
bool IsCommitUnconfirmed(const absl::Status& status);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_PG_H_

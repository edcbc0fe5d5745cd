// Helpers the repositories share to read result rows whose decoding can fail
// (a stored payload that no longer parses), and the lower bound of a keyset
// page over a time range.
#ifndef MDC_STORAGE_ROWS_H_
#define MDC_STORAGE_ROWS_H_

#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/log.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/pg.h"

namespace mdc::storage {

// Every row of `result`, decoded by `read_row(result, row, args...)`, which
// returns absl::StatusOr<T>. The first row that cannot be decoded fails the
// read.
template <typename T, typename ReadRow, typename... Args>
absl::StatusOr<std::vector<T>> ReadRows(const Result& result, ReadRow read_row,
                                        const Args&... args) {
  std::vector<T> records;
  records.reserve(result.rows());
  for (int row = 0; row < result.rows(); ++row) {
    absl::StatusOr<T> record = read_row(result, row, args...);
    if (!record.ok()) return record.status();
    records.push_back(*std::move(record));
  }
  return records;
}

// The first row of `result` decoded as ReadRows does; nullopt when there is
// no row.
template <typename T, typename ReadRow, typename... Args>
absl::StatusOr<std::optional<T>> ReadFirstRow(const Result& result,
                                              ReadRow read_row,
                                              const Args&... args) {
  if (result.rows() == 0) return std::optional<T>();
  absl::StatusOr<T> record = read_row(result, 0, args...);
  if (!record.ok()) return record.status();
  return std::optional<T>(*std::move(record));
}

// The exclusive lower bound of one page of a keyset read of [start, end):
// the last instant of the previous page, or just before `start` on the
// first page.
inline absl::Time PageAfter(std::optional<absl::Time> after, absl::Time start) {
  return after.value_or(start - absl::Microseconds(1));
}

// Sets `out` to the instant stored in `table` (domain::SetTimestamp, which
// clamps to the Timestamp range), with a warning when the row is outside the
// supported range: written before it was enforced, listed by the view
// out_of_range_instants (migration 0006). Such a row never fails a read.
inline void SetStoredTimestamp(absl::Time stored, absl::string_view table,
                               google::protobuf::Timestamp* out) {
  domain::SetTimestamp(stored, out);
  if (!domain::IsSupportedInstant(stored)) {
    log::Warning("stored instant outside the supported range",
                 {{"table", table},
                  {"instant", absl::FormatTime(stored)},
                  {"see", "view out_of_range_instants"}});
  }
}

}  // namespace mdc::storage

#endif  // MDC_STORAGE_ROWS_H_

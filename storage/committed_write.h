// The completion of a collector write's statement: reports the write to the
// pool's observer as one CommittedWrite (observer.h) when it committed, then
// hands the writer on to the write path (service/calls/write_call.h).
#ifndef MDC_STORAGE_COMMITTED_WRITE_H_
#define MDC_STORAGE_COMMITTED_WRITE_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/coverage.h"
#include "storage/batch.h"
#include "storage/developer_repository.h"
#include "storage/observer.h"

namespace mdc::storage {

// What one collector write stores.
struct CollectorWrite {
  absl::string_view table;  // a string constant: "stock_quotes", ...
  domain::RecordKind kind;
  absl::Time observed_at;  // when its records were observed
  int64_t records;         // its records, one row of `table` each
};

// `done` adapted to the writer the statement returns (FirstDeveloper: none,
// having written nothing, when nobody holds the token; MDC_WRITER_CTE).
// Before `done` runs, a write that committed is reported to `observer` as
// one CommittedWrite carrying its writer's tally: the writer is known only
// now, since the statement authenticated it.
ResultCallback ReportCollectorWrite(StorageObserver& observer,
                                    CollectorWrite write,
                                    DeveloperCallback done);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMMITTED_WRITE_H_

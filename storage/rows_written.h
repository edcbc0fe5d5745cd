// Reports the rows the repositories write to the pool's observer
// (observer.h), for the rows-written metric.
#ifndef MDC_STORAGE_ROWS_WRITTEN_H_
#define MDC_STORAGE_ROWS_WRITTEN_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "storage/batch.h"
#include "storage/observer.h"

namespace mdc::storage {

// `done`, first reporting `rows` rows of `table` (a string constant)
// written when the write succeeded and returned a row. For the writes that
// authenticate their writer (MDC_WRITER_CTE): they return the writer, and
// no row, having written nothing, when nobody holds the token.
ResultCallback CountRowsWritten(StorageObserver& observer,
                                absl::string_view table, int64_t rows,
                                ResultCallback done);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_ROWS_WRITTEN_H_

#include "storage/rows_written.h"

#include <utility>

namespace mdc::storage {

ResultCallback CountRowsWritten(StorageObserver& observer,
                                absl::string_view table, int64_t rows,
                                ResultCallback done) {
  return [&observer, table, rows,
          done = std::move(done)](absl::StatusOr<Result> result) mutable {
    if (result.ok() && result->rows() > 0) observer.RowsWritten(table, rows);
    std::move(done)(std::move(result));
  };
}

}  // namespace mdc::storage

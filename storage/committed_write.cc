#include "storage/committed_write.h"

#include <optional>
#include <utility>

#include "absl/time/clock.h"
#include "domain/time.h"

namespace mdc::storage {

ResultCallback ReportCollectorWrite(StorageObserver& observer,
                                    CollectorWrite write,
                                    DeveloperCallback done) {
  return [&observer, write,
          done = std::move(done)](absl::StatusOr<Result> result) mutable {
    absl::StatusOr<std::optional<DeveloperRecord>> writer =
        FirstDeveloper(result);
    if (writer.ok() && writer->has_value()) {
      domain::WriteTally tally;
      tally.developer_id = (*writer)->id;
      tally.username = (*writer)->username;
      tally.kind = write.kind;
      tally.day = domain::TradingDay(write.observed_at);
      tally.last_written = absl::Now();
      tally.last_observed = write.observed_at;
      tally.records = write.records;
      observer.WriteCommitted(
          CommittedWrite{write.table, write.records, std::move(tally)});
    }
    std::move(done)(std::move(writer));
  };
}

}  // namespace mdc::storage

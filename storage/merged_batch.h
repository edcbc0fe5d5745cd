// The statements a write batch sends: its submissions, with those of a
// statement that has a merged form (Statement::merged) replaced by one
// statement for all of them. A batch of 30 shortlist writes then costs the
// database one INSERT of 30 rows instead of 30 INSERTs of one row (each of
// which set up the partitioned table, its indexes and the writer lookup on
// its own), and the answers are split back, one per submission.
//
// Submissions of different statements do not depend on each other (they
// write different tables), so a merged statement runs where its first
// submission stood.
#ifndef MDC_STORAGE_MERGED_BATCH_H_
#define MDC_STORAGE_MERGED_BATCH_H_

#include <cstddef>
#include <deque>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/pg.h"

namespace mdc::storage {

class MergedBatch {
 public:
  // Merges what can be merged among `queries`, which must outlive this.
  explicit MergedBatch(const std::vector<Connection::Query>& queries);
  MergedBatch(const MergedBatch&) = delete;
  MergedBatch& operator=(const MergedBatch&) = delete;

  // The statements to run, in order.
  const std::vector<Connection::Query>& queries() const { return sent_; }

  // One answer per submission, in submission order, from the results of
  // queries() (all of which succeeded): a merged statement's rows are
  // handed to the submissions their last column names, without that
  // column's value mattering to anyone else. A merged answer that does
  // not name its submissions in order is a bug in its SQL: those
  // submissions get INTERNAL.
  std::vector<absl::StatusOr<Result>> Split(
      std::vector<absl::StatusOr<Result>> results) const;

 private:
  size_t submissions_;
  std::vector<Connection::Query> sent_;
  // Which submissions each sent statement answers.
  std::vector<std::vector<size_t>> answers_;
  // The array parameters of the merged statements (a deque: stable
  // addresses for sent_).
  std::deque<Params> merged_params_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MERGED_BATCH_H_

// A Result built here rather than received: the answer of a read the
// server gives from decoded compacted quotes without a round trip to
// PostgreSQL (storage/compacted_reads_fast.h). Values are laid out as
// PostgreSQL sends them in binary, so Result's readers, and every caller
// reading the rows, cannot tell the difference.
#ifndef MDC_STORAGE_SYNTHESIZED_RESULT_H_
#define MDC_STORAGE_SYNTHESIZED_RESULT_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "storage/pg.h"

namespace mdc::storage {

class SynthesizedResult {
 public:
  // The columns' types (pg_binary OIDs), in order.
  explicit SynthesizedResult(const std::vector<Oid>& types);

  // Appends a row; then sets each of its columns (unset ones are NULL).
  void AddRow();
  void SetBytes(int col, absl::string_view value);  // text, bytea
  void SetTime(int col, absl::Time value);          // timestamptz
  void SetDouble(int col, double value);            // float8
  void SetOptionalDouble(int col, std::optional<double> value);
  void SetNull(int col);

  // The result (this builder is spent).
  Result Take() &&;

 private:
  PGresult* result_;
  int columns_;
  int row_ = -1;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_SYNTHESIZED_RESULT_H_

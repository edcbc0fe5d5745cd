#include "storage/merged_batch.h"

#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "common/log.h"

namespace mdc::storage {

MergedBatch::MergedBatch(const std::vector<Connection::Query>& queries)
    : submissions_(queries.size()) {
  // Submissions of each mergeable statement, in order.
  absl::flat_hash_map<const Statement*, std::vector<size_t>> groups;
  for (size_t i = 0; i < queries.size(); ++i) {
    if (queries[i].statement->merged != nullptr) {
      groups[queries[i].statement].push_back(i);
    }
  }
  for (size_t i = 0; i < queries.size(); ++i) {
    const Statement* statement = queries[i].statement;
    auto group = groups.find(statement);
    if (group == groups.end() || group->second.size() < 2) {
      sent_.push_back(queries[i]);
      answers_.push_back({i});
      continue;
    }
    if (group->second.front() != i) continue;  // sent with its first
    std::vector<const Params*> rows;
    rows.reserve(group->second.size());
    for (size_t member : group->second) rows.push_back(queries[member].params);
    std::optional<Params> columns = Params::Columns(rows);
    if (!columns.has_value()) {
      // Parameters that cannot travel as arrays: each on its own.
      for (size_t member : group->second) {
        sent_.push_back(queries[member]);
        answers_.push_back({member});
      }
      continue;
    }
    merged_params_.push_back(*std::move(columns));
    sent_.push_back({statement->merged, &merged_params_.back()});
    answers_.push_back(group->second);
  }
}

std::vector<absl::StatusOr<Result>> MergedBatch::Split(
    std::vector<absl::StatusOr<Result>> results) const {
  std::vector<absl::StatusOr<Result>> out(
      submissions_, absl::InternalError("internal error"));
  for (size_t s = 0; s < sent_.size(); ++s) {
    const std::vector<size_t>& members = answers_[s];
    if (members.size() == 1) {
      out[members[0]] = std::move(results[s]);
      continue;
    }
    if (!results[s].ok()) {
      for (size_t member : members) out[member] = results[s].status();
      continue;
    }
    // Each submission's rows, by the place in the last column.
    const Result& merged = *results[s];
    const int place = merged.columns() - 1;
    int row = 0;
    for (size_t k = 0; k < members.size(); ++k) {
      const int first = row;
      while (row < merged.rows() &&
             merged.Int64(row, place) == static_cast<int64_t>(k + 1)) {
        ++row;
      }
      out[members[k]] = merged.Rows(first, row - first);
    }
    if (row != merged.rows()) {
      log::Error("merged statement answered out of order",
                 {{"statement", sent_[s].statement->name}});
      for (size_t member : members) {
        out[member] = absl::InternalError("internal error");
      }
    }
  }
  return out;
}

}  // namespace mdc::storage

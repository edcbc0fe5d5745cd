#include "storage/synthesized_result.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "storage/pg_binary.h"

namespace mdc::storage {
SynthesizedResult::SynthesizedResult(const std::vector<Oid>& types)
    : result_(PQmakeEmptyPGresult(nullptr, PGRES_TUPLES_OK)),
      columns_(static_cast<int>(types.size())) {
  std::vector<PGresAttDesc> attributes(types.size());
  std::vector<std::string> names(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    names[i] = "c" + std::to_string(i);
    attributes[i] = PGresAttDesc{};
    attributes[i].name = names[i].data();
    attributes[i].typid = types[i];
    attributes[i].typlen = -1;
    attributes[i].atttypmod = -1;
    attributes[i].format = 1;  // binary, as Connection asks for
  }
  // Copies the descriptions (names included).
  PQsetResultAttrs(result_, columns_, attributes.data());
}

void SynthesizedResult::AddRow() {
  ++row_;
  // A row exists once one of its values is set; libpq makes it with every
  // column NULL.
  SetNull(0);
}

void SynthesizedResult::SetBytes(int col, absl::string_view value) {
  // libpq copies the value; a non-null pointer for an empty one.
  PQsetvalue(result_, row_, col,
             const_cast<char*>(value.empty() ? "" : value.data()),
             static_cast<int>(value.size()));
}

void SynthesizedResult::SetTime(int col, absl::Time value) {
  const int64_t micros =
      absl::ToUnixMicros(value) - pg_binary::kPgEpochUnixMicros;
  std::string bytes;
  pg_binary::AppendBigEndian(bytes, static_cast<uint64_t>(micros), 8);
  PQsetvalue(result_, row_, col, bytes.data(), 8);
}

void SynthesizedResult::SetDouble(int col, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  std::string bytes;
  pg_binary::AppendBigEndian(bytes, bits, 8);
  PQsetvalue(result_, row_, col, bytes.data(), 8);
}

void SynthesizedResult::SetOptionalDouble(int col,
                                          std::optional<double> value) {
  if (value) {
    SetDouble(col, *value);
  } else {
    SetNull(col);
  }
}

void SynthesizedResult::SetNull(int col) {
  PQsetvalue(result_, row_, col, nullptr, -1);
}

Result SynthesizedResult::Take() && { return Result(result_); }

}  // namespace mdc::storage

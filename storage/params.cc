// Params: values bound in PostgreSQL's binary format (pg_binary.h).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/pg.h"
#include "storage/pg_binary.h"

namespace mdc::storage {
namespace {

using pg_binary::AppendArrayHeader;
using pg_binary::AppendBigEndian;
using pg_binary::ArrayOidOf;
using pg_binary::DaysSincePgEpoch;
using pg_binary::DoubleBits;
using pg_binary::EncodeArray;
using pg_binary::kBoolOid;
using pg_binary::kByteaArrayOid;
using pg_binary::kByteaOid;
using pg_binary::kDateArrayOid;
using pg_binary::kDateOid;
using pg_binary::kFloat8ArrayOid;
using pg_binary::kFloat8Oid;
using pg_binary::kInt4Oid;
using pg_binary::kInt8ArrayOid;
using pg_binary::kInt8Oid;
using pg_binary::kPgEpochUnixMicros;
using pg_binary::kTextArrayOid;
using pg_binary::kTextOid;
using pg_binary::kTimeOid;
using pg_binary::kTimestamptzArrayOid;
using pg_binary::kTimestamptzOid;

}  // namespace

Params& Params::Add(Oid oid, std::string value) {
  types_.push_back(oid);
  values_.push_back(std::move(value));
  nulls_.push_back(false);
  return *this;
}

Params& Params::Text(absl::string_view value) {
  return Add(kTextOid, std::string(value));
}

Params& Params::Int64(int64_t value) {
  std::string out;
  AppendBigEndian(out, static_cast<uint64_t>(value), 8);
  return Add(kInt8Oid, std::move(out));
}

Params& Params::Int32(int32_t value) {
  std::string out;
  AppendBigEndian(out, static_cast<uint32_t>(value), 4);
  return Add(kInt4Oid, std::move(out));
}

Params& Params::Double(double value) {
  std::string out;
  AppendBigEndian(out, DoubleBits(value), 8);
  return Add(kFloat8Oid, std::move(out));
}

Params& Params::OptionalDouble(std::optional<double> value) {
  return value.has_value() ? Double(*value) : Null(kFloat8Oid);
}

Params& Params::OptionalTime(std::optional<absl::Time> value) {
  return value.has_value() ? Time(*value) : Null(kTimestamptzOid);
}

Params& Params::Bool(bool value) {
  return Add(kBoolOid, std::string(1, value ? 1 : 0));
}

Params& Params::Time(absl::Time value) {
  std::string out;
  AppendBigEndian(
      out,
      static_cast<uint64_t>(absl::ToUnixMicros(value) - kPgEpochUnixMicros), 8);
  return Add(kTimestamptzOid, std::move(out));
}

Params& Params::Date(absl::CivilDay value) {
  std::string out;
  AppendBigEndian(out, static_cast<uint32_t>(DaysSincePgEpoch(value)), 4);
  return Add(kDateOid, std::move(out));
}

Params& Params::TimeOfDay(absl::CivilMinute value) {
  std::string out;
  const int64_t micros =
      (int64_t{value.hour()} * 60 + value.minute()) * 60 * 1000000;
  AppendBigEndian(out, static_cast<uint64_t>(micros), 8);
  return Add(kTimeOid, std::move(out));
}

Params& Params::Bytes(absl::string_view value) {
  return Add(kByteaOid, std::string(value));
}

Params& Params::TextArray(const std::vector<std::string>& values) {
  std::vector<std::optional<std::string>> elements(values.begin(),
                                                   values.end());
  return Add(kTextArrayOid, EncodeArray(kTextOid, elements));
}

Params& Params::BytesArray(const std::vector<std::string>& values) {
  std::vector<std::optional<std::string>> elements(values.begin(),
                                                   values.end());
  return Add(kByteaArrayOid, EncodeArray(kByteaOid, elements));
}

Params& Params::DoubleArray(const std::vector<std::optional<double>>& values) {
  std::vector<std::optional<std::string>> elements;
  elements.reserve(values.size());
  for (const auto& v : values) {
    if (!v.has_value()) {
      elements.emplace_back(std::nullopt);
      continue;
    }
    std::string encoded;
    AppendBigEndian(encoded, DoubleBits(*v), 8);
    elements.emplace_back(std::move(encoded));
  }
  return Add(kFloat8ArrayOid, EncodeArray(kFloat8Oid, elements));
}

Params& Params::DateArray(const std::vector<absl::CivilDay>& values) {
  std::vector<std::optional<std::string>> elements;
  elements.reserve(values.size());
  for (const auto& day : values) {
    std::string encoded;
    AppendBigEndian(encoded, static_cast<uint32_t>(DaysSincePgEpoch(day)), 4);
    elements.emplace_back(std::move(encoded));
  }
  return Add(kDateArrayOid, EncodeArray(kDateOid, elements));
}

Params& Params::Int64Array(const std::vector<int64_t>& values) {
  std::vector<std::optional<std::string>> elements;
  elements.reserve(values.size());
  for (int64_t value : values) {
    std::string encoded;
    AppendBigEndian(encoded, static_cast<uint64_t>(value), 8);
    elements.emplace_back(std::move(encoded));
  }
  return Add(kInt8ArrayOid, EncodeArray(kInt8Oid, elements));
}

Params& Params::OptionalInt64Array(
    const std::vector<std::optional<int64_t>>& values) {
  std::vector<std::optional<std::string>> elements;
  elements.reserve(values.size());
  for (const auto& value : values) {
    if (!value.has_value()) {
      elements.emplace_back(std::nullopt);
      continue;
    }
    std::string encoded;
    AppendBigEndian(encoded, static_cast<uint64_t>(*value), 8);
    elements.emplace_back(std::move(encoded));
  }
  return Add(kInt8ArrayOid, EncodeArray(kInt8Oid, elements));
}

Params& Params::TimeArray(const std::vector<absl::Time>& values) {
  std::vector<std::optional<std::string>> elements;
  elements.reserve(values.size());
  for (absl::Time value : values) {
    std::string encoded;
    AppendBigEndian(
        encoded,
        static_cast<uint64_t>(absl::ToUnixMicros(value) - kPgEpochUnixMicros),
        8);
    elements.emplace_back(std::move(encoded));
  }
  return Add(kTimestamptzArrayOid, EncodeArray(kTimestamptzOid, elements));
}

Params& Params::Null(Oid oid) {
  Add(oid, std::string());
  nulls_.back() = true;
  return *this;
}

std::optional<Params> Params::Columns(const std::vector<const Params*>& rows) {
  if (rows.empty()) return std::nullopt;
  const std::vector<Oid>& types = rows.front()->types_;
  for (const Params* row : rows) {
    if (row->types_ != types) return std::nullopt;
  }
  Params columns;
  for (size_t col = 0; col < types.size(); ++col) {
    const std::optional<Oid> array_oid = ArrayOidOf(types[col]);
    if (!array_oid.has_value()) return std::nullopt;
    bool has_null = false;
    size_t bytes = 20;
    for (const Params* row : rows) {
      has_null = has_null || row->nulls_[col];
      bytes += 4 + row->values_[col].size();
    }
    std::string array;
    array.reserve(bytes);
    AppendArrayHeader(array, types[col], rows.size(), has_null);
    for (const Params* row : rows) {
      if (row->nulls_[col]) {
        AppendBigEndian(array, 0xffffffffu, 4);
        continue;
      }
      AppendBigEndian(array, row->values_[col].size(), 4);
      array += row->values_[col];
    }
    columns.Add(*array_oid, std::move(array));
  }
  return columns;
}

}  // namespace mdc::storage

// PostgreSQL's binary wire format of the types mdc binds and reads: type
// OIDs, big-endian integers, the date and timestamp epoch, one-dimensional
// arrays. Shared by Params (params.cc) and Result (pg.cc); not for
// repositories, which go through those two.
#ifndef MDC_STORAGE_PG_BINARY_H_
#define MDC_STORAGE_PG_BINARY_H_

#include <libpq-fe.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/civil_time.h"

namespace mdc::storage::pg_binary {

// Type OIDs of pg_type, fixed since PostgreSQL 7.
inline constexpr Oid kBoolOid = 16;
inline constexpr Oid kByteaOid = 17;
inline constexpr Oid kInt8Oid = 20;
inline constexpr Oid kInt4Oid = 23;
inline constexpr Oid kTextOid = 25;
inline constexpr Oid kFloat8Oid = 701;
inline constexpr Oid kDateOid = 1082;
inline constexpr Oid kTimeOid = 1083;
inline constexpr Oid kTimestamptzOid = 1184;
inline constexpr Oid kBoolArrayOid = 1000;
inline constexpr Oid kByteaArrayOid = 1001;
inline constexpr Oid kInt4ArrayOid = 1007;
inline constexpr Oid kTextArrayOid = 1009;
inline constexpr Oid kInt8ArrayOid = 1016;
inline constexpr Oid kFloat8ArrayOid = 1022;
inline constexpr Oid kDateArrayOid = 1182;
inline constexpr Oid kTimeArrayOid = 1183;
inline constexpr Oid kTimestamptzArrayOid = 1185;

// The OID of the array type of `element`, or nullopt for a type mdc does not
// bind as arrays.
inline std::optional<Oid> ArrayOidOf(Oid element) {
  switch (element) {
    case kBoolOid:
      return kBoolArrayOid;
    case kByteaOid:
      return kByteaArrayOid;
    case kInt4Oid:
      return kInt4ArrayOid;
    case kTextOid:
      return kTextArrayOid;
    case kInt8Oid:
      return kInt8ArrayOid;
    case kFloat8Oid:
      return kFloat8ArrayOid;
    case kDateOid:
      return kDateArrayOid;
    case kTimeOid:
      return kTimeArrayOid;
    case kTimestamptzOid:
      return kTimestamptzArrayOid;
    default:
      return std::nullopt;
  }
}

// PostgreSQL's binary epoch for dates and timestamps is 2000-01-01 UTC.
inline constexpr int64_t kPgEpochUnixMicros = 946684800000000LL;
inline constexpr int64_t kPgEpochUnixDays = 10957;

inline void AppendBigEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

inline uint64_t ReadBigEndian(const char* data, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | static_cast<unsigned char>(data[i]);
  }
  return value;
}

inline uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline int32_t DaysSincePgEpoch(absl::CivilDay day) {
  return static_cast<int32_t>((day - absl::CivilDay(1970, 1, 1)) -
                              kPgEpochUnixDays);
}

// The header of a one-dimensional array of `count` elements of
// `element_oid`; each element follows as its length (-1 for NULL) and bytes.
inline void AppendArrayHeader(std::string& out, Oid element_oid, size_t count,
                              bool has_null) {
  AppendBigEndian(out, 1, 4);  // dimensions
  AppendBigEndian(out, has_null ? 1 : 0, 4);
  AppendBigEndian(out, element_oid, 4);
  AppendBigEndian(out, count, 4);
  AppendBigEndian(out, 1, 4);  // lower bound
}

// One-dimensional array in binary format; `elements` hold already-encoded
// values, nullopt for NULL.
inline std::string EncodeArray(
    Oid element_oid, const std::vector<std::optional<std::string>>& elements) {
  bool has_null = false;
  size_t bytes = 20;
  for (const auto& e : elements) {
    has_null = has_null || !e.has_value();
    bytes += 4 + (e.has_value() ? e->size() : 0);
  }
  std::string out;
  out.reserve(bytes);
  AppendArrayHeader(out, element_oid, elements.size(), has_null);
  for (const auto& e : elements) {
    if (!e.has_value()) {
      AppendBigEndian(out, 0xffffffffu, 4);
      continue;
    }
    AppendBigEndian(out, e->size(), 4);
    out += *e;
  }
  return out;
}

}  // namespace mdc::storage::pg_binary

#endif  // MDC_STORAGE_PG_BINARY_H_

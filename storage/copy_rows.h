// Rows in PostgreSQL's binary COPY format (COPY ... FROM STDIN (FORMAT
// binary)), built in memory for Connection::CopyIn: the fastest way rows
// enter PostgreSQL, with exact doubles and instants (no text round trip).
//
// Not thread-safe; a plain value.
#ifndef MDC_STORAGE_COPY_ROWS_H_
#define MDC_STORAGE_COPY_ROWS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "storage/pg_binary.h"

namespace mdc::storage {

class CopyRows {
 public:
  CopyRows() {
    // Signature, flags (no OIDs), header extension length.
    out_.append("PGCOPY\n\377\r\n\0", 11);
    pg_binary::AppendBigEndian(out_, 0, 4);
    pg_binary::AppendBigEndian(out_, 0, 4);
  }

  // Starts a row of `columns` values, each added next in column order.
  void Row(int columns) {
    pg_binary::AppendBigEndian(out_, static_cast<uint16_t>(columns), 2);
    ++rows_;
  }
  void Int64(int64_t v) {
    Length(8);
    pg_binary::AppendBigEndian(out_, static_cast<uint64_t>(v), 8);
  }
  void Int32(int32_t v) {
    Length(4);
    pg_binary::AppendBigEndian(out_, static_cast<uint32_t>(v), 4);
  }
  void Double(double v) {
    Length(8);
    pg_binary::AppendBigEndian(out_, pg_binary::DoubleBits(v), 8);
  }
  void OptionalDouble(std::optional<double> v) {
    if (v.has_value()) {
      Double(*v);
    } else {
      Null();
    }
  }
  // text or bytea: the bytes as they are.
  void Bytes(absl::string_view v) {
    Length(v.size());
    out_.append(v.data(), v.size());
  }
  void Time(absl::Time t) {
    Length(8);
    pg_binary::AppendBigEndian(
        out_,
        static_cast<uint64_t>(absl::ToUnixMicros(t) -
                              pg_binary::kPgEpochUnixMicros),
        8);
  }
  void Date(absl::CivilDay day) {
    Length(4);
    pg_binary::AppendBigEndian(
        out_, static_cast<uint32_t>(pg_binary::DaysSincePgEpoch(day)), 4);
  }
  void Null() { pg_binary::AppendBigEndian(out_, 0xffffffffu, 4); }

  int64_t rows() const { return rows_; }

  // The whole COPY input, trailer included; the builder is spent.
  std::string Finish() && {
    pg_binary::AppendBigEndian(out_, 0xffff, 2);
    return std::move(out_);
  }

 private:
  void Length(size_t n) { pg_binary::AppendBigEndian(out_, n, 4); }

  std::string out_;
  int64_t rows_ = 0;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COPY_ROWS_H_

// The cursors of the stream RPCs (StreamService) and the order a day replay
// delivers records in. Pure functions; thread-safe.
//
// A watch cursor is the stream position of the last record sent: records
// are read in (txid, seq) order and only once every transaction below their
// txid has ended (migration 0009), so "after P" is exact. It travels as
// "<txid>.<seq>" in decimal; a cursor of decimal digits alone (from before
// migration 0009) means (0, seq).
//
// A replay cursor is the position of the last record sent in the replay
// order: (instant, kind, key), kinds at one instant in the order NIFTY,
// stock quotes, shortlists; quotes by symbol, shortlists by type then scope
// (byte order). It travels as "r" + base64url of "micros,kind,key1,key2".
#ifndef MDC_DOMAIN_STREAM_CURSORS_H_
#define MDC_DOMAIN_STREAM_CURSORS_H_

#include <cstdint>
#include <string>
#include <tuple>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The kinds of market record, numbered in replay order at one instant.
enum class RecordKind { kNifty = 0, kQuote = 1, kShortlist = 2 };

// A record's place in a day replay. key1/key2: the symbol of a quote; the
// type and scope names of a shortlist; empty for NIFTY.
struct ReplayPosition {
  absl::Time at;
  RecordKind kind = RecordKind::kNifty;
  std::string key1;
  std::string key2;

  friend bool operator<(const ReplayPosition& a, const ReplayPosition& b) {
    return std::tie(a.at, a.kind, a.key1, a.key2) <
           std::tie(b.at, b.kind, b.key1, b.key2);
  }
  friend bool operator==(const ReplayPosition& a, const ReplayPosition& b) {
    return std::tie(a.at, a.kind, a.key1, a.key2) ==
           std::tie(b.at, b.kind, b.key1, b.key2);
  }
};

std::string EncodeReplayCursor(const ReplayPosition& position);

// INVALID_ARGUMENT naming `cursor` unless `text` is a cursor
// EncodeReplayCursor made.
absl::StatusOr<ReplayPosition> ParseReplayCursor(absl::string_view text);

// Where a source of records of kind `source` resumes after `cursor`: the
// exclusive lower bound (instant, key1, key2) of its next keyset page, so
// that it yields exactly its records that come after `cursor` in replay
// order. Keys are compared in byte order; instants have microsecond
// precision (PostgreSQL's).
// Keys are symbols and enum names of printable ASCII, all below this one.
inline constexpr absl::string_view kAfterEveryKey = "\x7f";
// A NIFTY source has no key: it resumes at instants after `at`.
struct KeysetBound {
  absl::Time at;
  std::string key1;
  std::string key2;
};
KeysetBound ResumeBound(const ReplayPosition& cursor, RecordKind source);

// The bound a source starts from when replaying `day_start`'s day from its
// beginning: before every record of the day.
KeysetBound DayStartBound(absl::Time day_start);

// A market record's place in the watch streams: the id of the transaction
// that wrote it (pg_current_xact_id()), then its number from
// market_event_seq. Ordered as a pair.
struct StreamPosition {
  int64_t txid = 0;
  int64_t seq = 0;

  friend bool operator<(const StreamPosition& a, const StreamPosition& b) {
    return std::tie(a.txid, a.seq) < std::tie(b.txid, b.seq);
  }
  friend bool operator<=(const StreamPosition& a, const StreamPosition& b) {
    return !(b < a);
  }
  friend bool operator==(const StreamPosition& a, const StreamPosition& b) {
    return a.txid == b.txid && a.seq == b.seq;
  }
};

std::string EncodeWatchCursor(const StreamPosition& position);

// INVALID_ARGUMENT naming `cursor` unless `text` is "<txid>.<seq>" or
// "<seq>", each 1-18 decimal digits.
absl::StatusOr<StreamPosition> ParseWatchCursor(absl::string_view text);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_STREAM_CURSORS_H_

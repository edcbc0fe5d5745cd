// One-line JSON logging to stderr. Debian's abseil (20220623) has no
// absl/log, and the service wants machine-readable lines anyway: each call
// writes one complete JSON object and a newline with a single write, so
// lines from concurrent threads never interleave.
//
//   log::Info("request", {{"method", "SaveShortlist"}, {"code", "OK"}});
//
// Every line starts with the keys shared with the gateway: `time` (UTC,
// RFC 3339 with milliseconds), `level` (debug, info, warn, error) and `msg`;
// the caller's fields follow. Lines below the level set with SetLevel (info
// by default) are dropped.
//
// Thread-safe.
#ifndef MDC_COMMON_LOG_H_
#define MDC_COMMON_LOG_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::log {

// A field value: text, integer or floating point.
class Value {
 public:
  Value(absl::string_view text) : kind_(kText), text_(text) {}   // NOLINT
  Value(const std::string& text) : kind_(kText), text_(text) {}  // NOLINT
  Value(const char* text) : kind_(kText), text_(text) {}         // NOLINT
  Value(int64_t number) : kind_(kInt), int_(number) {}           // NOLINT
  Value(int number) : kind_(kInt), int_(number) {}               // NOLINT
  Value(double number) : kind_(kDouble), double_(number) {}      // NOLINT

  void AppendJson(std::string& out) const;

 private:
  enum Kind { kText, kInt, kDouble };
  Kind kind_;
  absl::string_view text_;
  int64_t int_ = 0;
  double double_ = 0;
};

using Fields = std::initializer_list<std::pair<absl::string_view, Value>>;

enum class Level { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

// Reads "debug", "info", "warn" or "error" (MDC_LOG_LEVEL; any case,
// surrounding spaces ignored, as the gateway reads it) into `level`; false,
// leaving it alone, for anything else.
bool ParseLevel(absl::string_view text, Level* level);
// The name ParseLevel reads, as written in the `level` key.
absl::string_view LevelName(Level level);

// Lines below `level` are dropped from now on. Meant for start-up.
void SetLevel(Level level);
Level CurrentLevel();
// Whether a line at `level` would be written (to skip building costly
// fields).
bool Enabled(Level level);

// The access-log switch (MDC_ACCESS_LOG, on by default): whether the
// per-request info line is written. Error lines are written regardless.
void SetAccessLog(bool on);
bool AccessLogEnabled();

void Debug(absl::string_view message, Fields fields = {});
void Info(absl::string_view message, Fields fields = {});
void Warning(absl::string_view message, Fields fields = {});
void Error(absl::string_view message, Fields fields = {});

// Appends `text` as a JSON string literal (quotes included) to `out`.
void AppendJsonString(absl::string_view text, std::string& out);

// Appends `now` as 2026-11-27T09:16:29.123Z (UTC, milliseconds), the lines'
// "time" (years 1970 to 9999). Each thread keeps the text of its last second.
void AppendTime(std::string& out, absl::Time now);

}  // namespace mdc::log

#endif  // MDC_COMMON_LOG_H_

// One-line JSON logging to stderr. Debian's abseil (20220623) has no
// absl/log, and the service wants machine-readable lines anyway: each call
// writes one complete JSON object and a newline with a single write, so
// lines from concurrent threads never interleave.
//
//   log::Info("request", {{"method", "SaveShortlist"}, {"status", 0}});
//
// Thread-safe.
#ifndef MDC_COMMON_LOG_H_
#define MDC_COMMON_LOG_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

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

void Info(absl::string_view message, Fields fields = {});
void Warning(absl::string_view message, Fields fields = {});
void Error(absl::string_view message, Fields fields = {});

// Appends `text` as a JSON string literal (quotes included) to `out`.
void AppendJsonString(absl::string_view text, std::string& out);

}  // namespace mdc::log

#endif  // MDC_COMMON_LOG_H_

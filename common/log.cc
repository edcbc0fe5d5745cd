#include "common/log.h"

#include <unistd.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace mdc::log {
namespace {

void Write(absl::string_view level, absl::string_view message, Fields fields) {
  std::string line = "{\"ts\":\"";
  line += absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                           absl::UTCTimeZone());
  absl::StrAppend(&line, "\",\"level\":\"", level, "\",\"msg\":");
  AppendJsonString(message, line);
  for (const auto& [key, value] : fields) {
    line += ',';
    AppendJsonString(key, line);
    line += ':';
    value.AppendJson(line);
  }
  line += "}\n";
  // One write(2) per line: atomic enough for lines under PIPE_BUF and never
  // interleaved mid-line by stdio buffering.
  const char* data = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, left);
    if (written <= 0) return;
    data += written;
    left -= static_cast<size_t>(written);
  }
}

}  // namespace

void AppendJsonString(absl::string_view text, std::string& out) {
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void Value::AppendJson(std::string& out) const {
  switch (kind_) {
    case kText:
      AppendJsonString(text_, out);
      break;
    case kInt:
      absl::StrAppend(&out, int_);
      break;
    case kDouble:
      absl::StrAppendFormat(&out, "%.3f", double_);
      break;
  }
}

void Info(absl::string_view message, Fields fields) {
  Write("info", message, fields);
}
void Warning(absl::string_view message, Fields fields) {
  Write("warning", message, fields);
}
void Error(absl::string_view message, Fields fields) {
  Write("error", message, fields);
}

}  // namespace mdc::log

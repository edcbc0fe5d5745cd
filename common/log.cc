#include "common/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace mdc::log {
namespace {

std::atomic<int> min_level{static_cast<int>(Level::kInfo)};
std::atomic<bool> access_log{true};

void Write(Level level, absl::string_view message, Fields fields) {
  if (!Enabled(level)) return;
  std::string line = "{\"time\":\"";
  line += absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                           absl::UTCTimeZone());
  absl::StrAppend(&line, "\",\"level\":\"", LevelName(level), "\",\"msg\":");
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

bool ParseLevel(absl::string_view text, Level* level) {
  text = absl::StripAsciiWhitespace(text);
  for (Level candidate :
       {Level::kDebug, Level::kInfo, Level::kWarn, Level::kError}) {
    if (absl::EqualsIgnoreCase(text, LevelName(candidate))) {
      *level = candidate;
      return true;
    }
  }
  return false;
}

absl::string_view LevelName(Level level) {
  switch (level) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarn:
      return "warn";
    case Level::kError:
      return "error";
  }
  return "info";
}

void SetLevel(Level level) {
  min_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

Level CurrentLevel() {
  return static_cast<Level>(min_level.load(std::memory_order_relaxed));
}

bool Enabled(Level level) {
  return static_cast<int>(level) >= min_level.load(std::memory_order_relaxed);
}

void SetAccessLog(bool on) { access_log.store(on, std::memory_order_relaxed); }

bool AccessLogEnabled() { return access_log.load(std::memory_order_relaxed); }

void Debug(absl::string_view message, Fields fields) {
  Write(Level::kDebug, message, fields);
}
void Info(absl::string_view message, Fields fields) {
  Write(Level::kInfo, message, fields);
}
void Warning(absl::string_view message, Fields fields) {
  Write(Level::kWarn, message, fields);
}
void Error(absl::string_view message, Fields fields) {
  Write(Level::kError, message, fields);
}

}  // namespace mdc::log

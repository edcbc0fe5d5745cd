#include "common/log.h"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace mdc::log {
namespace {

std::atomic<int> min_level{static_cast<int>(Level::kInfo)};
std::atomic<bool> access_log{true};

// Appends `value` as `digits` decimal digits, zero-padded.
void AppendDigits(std::string& out, int64_t value, int digits) {
  char text[8];
  for (int i = digits - 1; i >= 0; --i) {
    text[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out.append(text, digits);
}

void Write(Level level, absl::string_view message, Fields fields) {
  if (!Enabled(level)) return;
  std::string line;
  line.reserve(256);
  line += "{\"time\":\"";
  AppendTime(line, absl::Now());
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

// What absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ") wrote, for a few thousand
// instructions a line.
void AppendTime(std::string& out, absl::Time now) {
  thread_local int64_t cached_second = INT64_MIN;
  thread_local std::string cached;  // "YYYY-MM-DDTHH:MM:SS"
  const int64_t millis = absl::ToUnixMillis(now);
  const int64_t second = millis / 1000;
  if (second != cached_second) {
    const absl::CivilSecond civil =
        absl::ToCivilSecond(absl::FromUnixSeconds(second), absl::UTCTimeZone());
    cached.clear();
    AppendDigits(cached, civil.year(), 4);
    cached += '-';
    AppendDigits(cached, civil.month(), 2);
    cached += '-';
    AppendDigits(cached, civil.day(), 2);
    cached += 'T';
    AppendDigits(cached, civil.hour(), 2);
    cached += ':';
    AppendDigits(cached, civil.minute(), 2);
    cached += ':';
    AppendDigits(cached, civil.second(), 2);
    cached_second = second;
  }
  out += cached;
  out += '.';
  AppendDigits(out, millis - second * 1000, 3);
  out += 'Z';
}

void AppendJsonString(absl::string_view text, std::string& out) {
  out += '"';
  // Runs of characters that need no escape go in at once.
  size_t plain = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
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
        absl::StrAppendFormat(&out, "\\u%04x", c);
    }
  }
  out.append(text.data() + plain, text.size() - plain);
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

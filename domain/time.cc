#include "domain/time.h"

#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "domain/text.h"

namespace mdc::domain {
namespace {

constexpr char kZoneInfoDir[] = "/usr/share/zoneinfo";

// Maps lower-cased zone names to their canonical spelling, from the system
// tzdata. abseil loads zones by exact file name; clients write them in any
// case. Built once, on first use.
const absl::flat_hash_map<std::string, std::string>& ZoneNamesByLowerCase() {
  static const auto* names = [] {
    auto* map = new absl::flat_hash_map<std::string, std::string>();
    std::error_code ec;
    const std::filesystem::path root(kZoneInfoDir);
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator();
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      std::string name = it->path().lexically_relative(root).string();
      map->emplace(absl::AsciiStrToLower(name), std::move(name));
    }
    return map;
  }();
  return *names;
}

bool IsZoneNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' ||
         c == '-' || c == '+';
}

// "+05:30" / "-04:00" → seconds east of UTC.
bool ParseFixedOffset(absl::string_view text, int* seconds) {
  if (text.size() != 6 || (text[0] != '+' && text[0] != '-') ||
      text[3] != ':') {
    return false;
  }
  int hours = 0;
  int minutes = 0;
  if (!ParseDigits(text.substr(1, 2), &hours) ||
      !ParseDigits(text.substr(4, 2), &minutes) || hours > 14 || minutes > 59) {
    return false;
  }
  *seconds = (hours * 3600 + minutes * 60) * (text[0] == '-' ? -1 : 1);
  return true;
}

absl::Status BadWallClock(absl::string_view text) {
  return absl::InvalidArgumentError(absl::StrCat(
      "must be a wall-clock time YYYY-MM-DDTHH:MM:SS without offset or "
      "fraction, got ",
      QuoteForMessage(text)));
}

}  // namespace

const absl::TimeZone& ExchangeZone() {
  static const absl::TimeZone* zone = [] {
    auto* tz = new absl::TimeZone();
    if (!absl::LoadTimeZone(std::string(kExchangeZoneName), tz)) {
      // IST has had no DST since 1945; a fixed offset is exact for every
      // date the service stores if tzdata is missing.
      *tz = absl::FixedTimeZone(5 * 3600 + 30 * 60);
    }
    return tz;
  }();
  return *zone;
}

absl::StatusOr<absl::TimeZone> ResolveTimeZone(absl::string_view name) {
  if (name.empty()) return ExchangeZone();
  int offset_seconds = 0;
  if (ParseFixedOffset(name, &offset_seconds)) {
    return absl::FixedTimeZone(offset_seconds);
  }
  bool plausible = name.size() <= 64 && name.front() != '/' &&
                   name.find("..") == absl::string_view::npos;
  for (char c : name) plausible = plausible && IsZoneNameChar(c);
  if (plausible) {
    const auto& names = ZoneNamesByLowerCase();
    auto it = names.find(absl::AsciiStrToLower(name));
    absl::TimeZone zone;
    if (it != names.end() && absl::LoadTimeZone(it->second, &zone)) {
      return zone;
    }
    // tzdata may be absent (minimal containers): UTC is still known.
    if (absl::AsciiStrToLower(name) == "utc" ||
        absl::AsciiStrToLower(name) == "etc/utc") {
      return absl::UTCTimeZone();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown time zone ", QuoteForMessage(name),
      "; use an IANA name such as Asia/Kolkata or UTC, or an offset such as "
      "+05:30"));
}

absl::StatusOr<absl::CivilSecond> ParseWallClock(absl::string_view text) {
  if (text.size() != 19 || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return BadWallClock(text);
  }
  auto day = ParseDate(text.substr(0, 10));
  if (!day.ok()) return BadWallClock(text);
  int hour = 0, minute = 0, second = 0;
  if (!ParseDigits(text.substr(11, 2), &hour) ||
      !ParseDigits(text.substr(14, 2), &minute) ||
      !ParseDigits(text.substr(17, 2), &second)) {
    return BadWallClock(text);
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return absl::InvalidArgumentError(
        absl::StrCat(QuoteForMessage(text), " is not a valid time of day"));
  }
  return absl::CivilSecond(day->year(), day->month(), day->day(), hour, minute,
                           second);
}

absl::StatusOr<absl::CivilDay> ParseDate(absl::string_view text) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' ||
      !ParseDigits(text.substr(0, 4), &year) ||
      !ParseDigits(text.substr(5, 2), &month) ||
      !ParseDigits(text.substr(8, 2), &day)) {
    return absl::InvalidArgumentError(
        absl::StrCat("must be a date YYYY-MM-DD, got ", QuoteForMessage(text)));
  }
  const absl::CivilDay civil(year, month, day);
  // abseil normalises out-of-range fields (Feb 30 → Mar 2); the API refuses.
  if (year < 1 || civil.year() != year || civil.month() != month ||
      civil.day() != day) {
    return absl::InvalidArgumentError(
        absl::StrCat(QuoteForMessage(text), " is not a valid calendar date"));
  }
  return civil;
}

absl::StatusOr<absl::Time> ParseInstant(absl::string_view wall_clock,
                                        absl::string_view zone_name) {
  auto civil = ParseWallClock(wall_clock);
  if (!civil.ok()) return civil.status();
  auto zone = ResolveTimeZone(zone_name);
  if (!zone.ok()) return zone.status();
  return SupportedInstantAt(*civil, *zone);
}

absl::Time SupportedStart() {
  // Once: every stored instant read back is checked against both ends.
  static const absl::Time start =
      absl::FromCivil(absl::CivilDay(1900, 1, 1), absl::UTCTimeZone());
  return start;
}

bool IsSupportedInstant(absl::Time t) {
  return t >= SupportedStart() && t < FarFuture();
}

absl::Status CheckSupportedInstant(absl::Time t) {
  if (IsSupportedInstant(t)) return absl::OkStatus();
  // FormatTime would print years outside 0000-9999 unpadded or not at all.
  const absl::CivilSecond utc = absl::ToCivilSecond(t, absl::UTCTimeZone());
  return absl::InvalidArgumentError(
      absl::StrFormat("must be between 1900-01-01 and 2199-12-31 (UTC); got "
                      "%04d-%02d-%02dT%02d:%02d:%02dZ",
                      utc.year(), utc.month(), utc.day(), utc.hour(),
                      utc.minute(), utc.second()));
}

absl::StatusOr<absl::Time> SupportedInstantAt(absl::CivilSecond wall_clock,
                                              const absl::TimeZone& zone) {
  const absl::Time t = zone.At(wall_clock).pre;
  if (auto supported = CheckSupportedInstant(t); !supported.ok()) {
    return supported;
  }
  return t;
}

absl::CivilDay TradingDay(absl::Time t) {
  return absl::ToCivilDay(t, ExchangeZone());
}

absl::Time DayStart(absl::CivilDay day) {
  return absl::FromCivil(day, ExchangeZone());
}

absl::Time FarFuture() {
  static const absl::Time far_future =
      absl::FromCivil(absl::CivilDay(2200, 1, 1), absl::UTCTimeZone());
  return far_future;
}

absl::Time SessionOpen(absl::CivilDay day) {
  return absl::FromCivil(
      absl::CivilMinute(day.year(), day.month(), day.day(), 9, 15),
      ExchangeZone());
}

absl::Time SessionClose(absl::CivilDay day) {
  return absl::FromCivil(
      absl::CivilMinute(day.year(), day.month(), day.day(), 15, 30),
      ExchangeZone());
}

std::string FormatDate(absl::CivilDay day) {
  return absl::StrFormat("%04d-%02d-%02d", day.year(), day.month(), day.day());
}

std::string FormatInstant(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

bool IsWeekend(absl::CivilDay day) {
  const absl::Weekday weekday = absl::GetWeekday(day);
  return weekday == absl::Weekday::saturday || weekday == absl::Weekday::sunday;
}

}  // namespace mdc::domain

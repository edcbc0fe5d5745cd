// Time rules of the API: parsing of the wall-clock strings and zone names
// clients send, and the exchange calendar arithmetic (trading day, session
// open and close) every read is built on.
//
// All functions are pure and thread-safe. Zone names are resolved against the
// system tzdata (/usr/share/zoneinfo) through abseil.
#ifndef MDC_DOMAIN_TIME_H_
#define MDC_DOMAIN_TIME_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The NSE's zone. Every "day" of the API is a calendar date in it.
inline constexpr absl::string_view kExchangeZoneName = "Asia/Kolkata";

// Asia/Kolkata, loaded once.
const absl::TimeZone& ExchangeZone();

// Resolves a zone as clients may write it: an IANA name in any letter case
// ("UTC", "etc/utc", "asia/kolkata") or a fixed offset "+05:30" / "-04:00".
// An empty name means the exchange zone. On failure returns INVALID_ARGUMENT
// whose message says what is accepted (the caller prefixes the field name).
absl::StatusOr<absl::TimeZone> ResolveTimeZone(absl::string_view name);

// Parses exactly "YYYY-MM-DDTHH:MM:SS": no offset, no fraction, no rolling
// over of impossible values (2025-02-30, T24:00:00 are errors).
absl::StatusOr<absl::CivilSecond> ParseWallClock(absl::string_view text);

// Parses exactly "YYYY-MM-DD", rejecting impossible dates.
absl::StatusOr<absl::CivilDay> ParseDate(absl::string_view text);

// ParseWallClock in the zone ResolveTimeZone(zone_name) gives. A wall clock
// that a DST change skips or repeats maps to the earlier instant. The
// instant must be supported (CheckSupportedInstant).
absl::StatusOr<absl::Time> ParseInstant(absl::string_view wall_clock,
                                        absl::string_view zone_name);

// The instants the service accepts and stores: [SupportedStart(),
// FarFuture()) = [1900-01-01T00:00:00Z, 2200-01-01T00:00:00Z), the years
// 1900-2199 in UTC (the holiday years, 1900-2200, cover every trading day
// of it). Every wall-clock time a request sends (collector writes, runs,
// orders, read datetimes, the backtest clock) resolves to an instant in this
// range or is refused with 400; it is well inside what a
// google.protobuf.Timestamp carries (years 0001-9999), so any far-off zone
// offset still converts.
absl::Time SupportedStart();
bool IsSupportedInstant(absl::Time t);
// OK for a supported instant, else INVALID_ARGUMENT stating the rule and the
// instant in UTC (the caller prefixes the field name).
absl::Status CheckSupportedInstant(absl::Time t);
// The instant of `wall_clock` in `zone` (the earlier one across a DST
// change), checked by CheckSupportedInstant.
absl::StatusOr<absl::Time> SupportedInstantAt(absl::CivilSecond wall_clock,
                                              const absl::TimeZone& zone);

// The trading day (Asia/Kolkata calendar date) an instant falls on.
absl::CivilDay TradingDay(absl::Time t);

// 00:00 of a trading day in Asia/Kolkata.
absl::Time DayStart(absl::CivilDay day);
// 09:15 and 15:30 of a trading day in Asia/Kolkata: the regular session.
absl::Time SessionOpen(absl::CivilDay day);
absl::Time SessionClose(absl::CivilDay day);

// An instant later than anything stored: the upper bound of a read that
// means "whatever is stored". Finite, unlike absl::InfiniteFuture(), so it
// encodes as a SQL timestamptz parameter. 2200-01-01T00:00:00Z.
absl::Time FarFuture();

// "YYYY-MM-DD".
std::string FormatDate(absl::CivilDay day);
// RFC 3339 UTC with a Z, whole seconds: "2025-12-31T03:45:00Z".
std::string FormatInstant(absl::Time t);

// True on Saturdays and Sundays.
bool IsWeekend(absl::CivilDay day);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TIME_H_

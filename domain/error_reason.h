// Machine-readable error reasons (AIP-193): a stable UPPER_SNAKE_CASE word a
// client may branch on, where the status code alone is ambiguous (a 403 may
// be the caller's role or the backtest clock; a 503 the database or the
// broker) and the message is prose meant for people.
//
// A reason travels in an absl::Status as a google.rpc.ErrorInfo payload with
// domain "mdc.v1", beside any google.rpc.BadRequest payload (see
// domain/field_errors.h); ToRpcStatus turns both into the details that
// service/calls/grpc_status.cc sends and the gateway renders as JSON
// `details`. The reasons are listed in docs/api.md ("Error reasons"); once
// published a reason never changes meaning.
//
// Everything here is a pure function of its arguments: thread-safe.
#ifndef MDC_DOMAIN_ERROR_REASON_H_
#define MDC_DOMAIN_ERROR_REASON_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/rpc/status.pb.h"

namespace mdc::domain {

// Type URL under which the ErrorInfo payload travels in an absl::Status.
inline constexpr absl::string_view kErrorInfoTypeUrl =
    "type.googleapis.com/google.rpc.ErrorInfo";

// Type URL under which a google.rpc.RetryInfo payload travels.
inline constexpr absl::string_view kRetryInfoTypeUrl =
    "type.googleapis.com/google.rpc.RetryInfo";

// ErrorInfo.domain of every reason this service defines.
inline constexpr absl::string_view kErrorDomain = "mdc.v1";

// The reasons. Each names the condition, not the code, so a client tells
// apart two errors that share an HTTP status.
namespace reason {
// PERMISSION_DENIED: the request asks for an instant at or after the
// backtest clock (X-Current-Timestamp). Metadata: `field` (the parameter,
// e.g. "datetime") and `backtestClock` (the clock, RFC 3339 UTC).
inline constexpr absl::string_view kFutureRead = "FUTURE_READ";
// FAILED_PRECONDITION: deleting this developer would leave no admin.
inline constexpr absl::string_view kLastAdmin = "LAST_ADMIN";
// ALREADY_EXISTS: another developer has this username.
inline constexpr absl::string_view kUsernameTaken = "USERNAME_TAKEN";
// ALREADY_EXISTS: a date of the request is already in the holiday calendar.
// Metadata: `dates` (those dates, YYYY-MM-DD, comma-separated).
inline constexpr absl::string_view kHolidayExists = "HOLIDAY_EXISTS";
// FAILED_PRECONDITION: broker credentials need MDC_SECRET_KEY, which this
// server does not have.
inline constexpr absl::string_view kSecretKeyNotConfigured =
    "SECRET_KEY_NOT_CONFIGURED";
// RESOURCE_EXHAUSTED: sign-in refused because this client address sent too
// many unknown tokens this minute (domain/token_throttle.h). Carries a
// RetryInfo.
inline constexpr absl::string_view kSignInThrottled = "SIGN_IN_THROTTLED";
// RESOURCE_EXHAUSTED: as kSignInThrottled, on any other route that needs a
// token. Carries a RetryInfo.
inline constexpr absl::string_view kAuthThrottled = "AUTH_THROTTLED";
// FAILED_PRECONDITION: no broker token endpoint or no broker credentials
// configured: a setting, not an outage, so not worth retrying.
inline constexpr absl::string_view kBrokerNotConfigured =
    "BROKER_NOT_CONFIGURED";
// UNAVAILABLE: the broker token endpoint failed (timeout, unreachable,
// non-2xx, or an answer without an access token).
inline constexpr absl::string_view kBrokerUnavailable = "BROKER_UNAVAILABLE";
// RESOURCE_EXHAUSTED: this developer made more calls than its rate limit
// (MDC_RATE_LIMIT_*) allows; nothing was done. Carries a RetryInfo.
// Metadata: `limit` ("reads" or "writes").
inline constexpr absl::string_view kRateLimited = "RATE_LIMITED";
// RESOURCE_EXHAUSTED: a heavy read (a cross-section, candles of many
// symbols, coverage) over MDC_HEAVY_READS_PER_DEVELOPER, or one that waited
// MDC_HEAVY_READ_WAIT for one of the server's MDC_HEAVY_READS turns; nothing
// was read. Carries a RetryInfo. Metadata: `limit` ("developer" or
// "server").
inline constexpr absl::string_view kHeavyReadsLimited = "HEAVY_READS_LIMITED";
// UNAVAILABLE: a database statement ran past MDC_STATEMENT_TIMEOUT (or was
// cancelled) and was rolled back: nothing of it was written.
inline constexpr absl::string_view kDatabaseTimeout = "DATABASE_TIMEOUT";
// UNAVAILABLE: PostgreSQL committed the write on the primary but stopped
// waiting for the synchronous standby to confirm its copy (the wait was
// cancelled, e.g. by pg_cancel_backend): whether the write survives a
// failover is unknown, so it is not acknowledged. Sending it again is safe
// (the writes are idempotent upserts).
inline constexpr absl::string_view kCommitUnconfirmed = "COMMIT_UNCONFIRMED";
// RESOURCE_EXHAUSTED: a watch stream (StreamService) was ended because its
// caller read more slowly than records arrived. Metadata: `cursor` (the last
// cursor sent; resume from the last one received).
inline constexpr absl::string_view kWatcherFellBehind = "WATCHER_FELL_BEHIND";
// RESOURCE_EXHAUSTED: this developer already has as many exports, day
// replays or watches open on this server as its cap allows
// (domain/stream_quota.h). Carries a RetryInfo. Metadata: `kind`
// ("exports", "replays" or "watches") and `limit`.
inline constexpr absl::string_view kTooManyStreams = "TOO_MANY_STREAMS";
}  // namespace reason

// `status` with `reason` (and `metadata`, keys lowerCamelCase) attached as a
// google.rpc.ErrorInfo of domain kErrorDomain, replacing any reason it had.
// Code, message and other payloads (a BadRequest) are kept. An OK status is
// returned unchanged: success has no reason.
absl::Status WithReason(
    absl::Status status, absl::string_view reason,
    const std::map<std::string, std::string>& metadata = {});

// The reason attached to `status`, or "" when it has none.
std::string ReasonOf(const absl::Status& status);

// `status` with a google.rpc.RetryInfo saying the call may be sent again
// after `delay` (negative counts as zero), replacing any it had. The gateway
// turns it into a Retry-After header. An OK status is returned unchanged.
absl::Status WithRetryDelay(absl::Status status, absl::Duration delay);

// The retry delay attached to `status`, or nullopt when it has none.
std::optional<absl::Duration> RetryDelayOf(const absl::Status& status);

// The most bytes a google.rpc.Status the server sends may take, serialized:
// with base64 and the message it stays far below the header list size of
// every hop (gRPC's trailers; docs/operations.md, "Limits").
inline constexpr size_t kMaxStatusBytes = 8 * 1024;

// `status` as a google.rpc.Status: code, message (cut to
// kMaxStatusMessageBytes), and as details the BadRequest payload (first,
// when present), then the ErrorInfo payload, then the RetryInfo payload
// (each when present), cut to kMaxStatusBytes in all. No details when it
// carries none of them.
google::rpc::Status ToRpcStatus(const absl::Status& status);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_ERROR_REASON_H_

// Rules of the broker access token the service holds: when it expires, and
// the JSON exchanged with the broker's token endpoint
// (POST {"api_key","api_secret"} → {"access_token"}).
#ifndef MDC_DOMAIN_BROKER_TOKEN_H_
#define MDC_DOMAIN_BROKER_TOKEN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

// Broker tokens expire daily at 06:00 IST: the first 06:00 IST strictly
// after `fetched_at`.
absl::Time BrokerTokenExpiry(absl::Time fetched_at);

// Whether a token expiring at `expires_at` may still be handed out at `now`
// (it must stay valid for at least a minute more).
bool BrokerTokenUsable(absl::Time expires_at, absl::Time now);

// The request body: {"api_key":"...","api_secret":"..."}, properly escaped.
std::string BrokerTokenRequestBody(absl::string_view api_key,
                                   absl::string_view api_secret);

// The access token from the endpoint's answer. UNAVAILABLE saying what is
// wrong when the body is not a JSON object with a non-empty string
// "access_token" (other fields are ignored).
absl::StatusOr<std::string> ParseBrokerTokenResponse(absl::string_view body);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_BROKER_TOKEN_H_

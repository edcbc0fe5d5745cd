#include "service/broker/broker_tokens.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "domain/broker_token.h"
#include "domain/error_reason.h"
#include "domain/time.h"

namespace mdc {

absl::StatusOr<storage::StoredBrokerToken> BrokerTokens::Current(
    absl::Time now) {
  if (token_url_.empty()) {
    return domain::WithReason(
        absl::UnavailableError(
            "no broker is configured: the server has no token endpoint "
            "(MDC_BROKER_TOKEN_URL)"),
        domain::reason::kBrokerNotConfigured);
  }
  auto stored = repository_.Find();
  if (!stored.ok()) return stored.status();
  if (stored->has_value() &&
      domain::BrokerTokenUsable((*stored)->expires_at, now)) {
    return **stored;
  }

  absl::MutexLock local(&refresh_mu_);
  storage::StoredBrokerToken current;
  // A waiter must outlast the refresh in progress: its HTTP call plus slack.
  absl::Status refreshed = repository_.WithRefreshLock(
      timeout_ + absl::Seconds(5),
      [&](storage::BrokerTokenRepository::LockedSession& session)
          -> absl::Status {
        // Another thread or replica may have refreshed while we waited.
        auto again = session.Find();
        if (!again.ok()) return again.status();
        if (again->has_value() &&
            domain::BrokerTokenUsable((*again)->expires_at, now)) {
          current = **again;
          return absl::OkStatus();
        }
        auto token = Fetch();
        if (!token.ok()) return token.status();
        current.access_token = *std::move(token);
        current.fetched_at = now;
        current.expires_at = domain::BrokerTokenExpiry(now);
        log::Info("broker token refreshed",
                  {{"expires_at", domain::FormatInstant(current.expires_at)}});
        return session.Save(current.access_token, current.expires_at);
      });
  if (!refreshed.ok()) return refreshed;
  return current;
}

absl::StatusOr<std::string> BrokerTokens::Fetch() {
  auto credentials = credentials_.Get();
  if (!credentials.ok()) return credentials.status();
  if (!credentials->has_value()) {
    return domain::WithReason(
        absl::UnavailableError(
            "no broker credentials are configured (MDC_BROKER_API_KEY and "
            "MDC_BROKER_API_SECRET, or PUT /v1/admin/broker)"),
        domain::reason::kBrokerNotConfigured);
  }
  auto response =
      http_.PostJson(token_url_,
                     domain::BrokerTokenRequestBody((*credentials)->api_key,
                                                    (*credentials)->api_secret),
                     timeout_);
  absl::Status failure;
  if (!response.ok()) {
    failure = absl::UnavailableError(
        response.status().code() == absl::StatusCode::kDeadlineExceeded
            ? absl::StrCat("the broker token endpoint did not answer within ",
                           absl::FormatDuration(timeout_))
            : absl::StrCat("the broker token endpoint could not be reached (",
                           response.status().message(), ")"));
  } else if (response->status < 200 || response->status > 299) {
    failure = absl::UnavailableError(
        absl::StrCat("the broker token endpoint answered HTTP ",
                     response->status, " instead of a token"));
  } else {
    auto token = domain::ParseBrokerTokenResponse(response->body);
    if (token.ok()) return token;
    failure = token.status();
  }
  log::Warning("broker token refresh failed", {{"error", failure.message()}});
  return domain::WithReason(failure, domain::reason::kBrokerUnavailable);
}

}  // namespace mdc

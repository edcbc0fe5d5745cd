#include "service/broker/broker_tokens.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "domain/broker_token.h"
#include "domain/error_reason.h"
#include "domain/time.h"

namespace mdc {

std::optional<BrokerToken> BrokerTokens::Usable(
    const std::optional<storage::StoredBrokerToken>& stored,
    const domain::SecretBox& box, absl::Time now) {
  if (!stored.has_value() ||
      !domain::BrokerTokenUsable(stored->expires_at, now)) {
    return std::nullopt;
  }
  auto opened =
      box.Open(stored->access_token_sealed, kBrokerAccessTokenContext);
  if (!opened.ok()) {
    log::Warning(
        "the stored broker token cannot be opened with this server's "
        "MDC_SECRET_KEY (sealed under another key?); fetching a new one",
        {{"error", opened.status().message()}});
    return std::nullopt;
  }
  return BrokerToken{*std::move(opened), stored->expires_at,
                     stored->fetched_at};
}

absl::StatusOr<BrokerToken> BrokerTokens::FetchUnstored(absl::Time now) {
  auto token = Fetch();
  if (!token.ok()) return token.status();
  BrokerToken current{*std::move(token), domain::BrokerTokenExpiry(now), now};
  if (!warned_unstored_.exchange(true)) {
    log::Warning(
        "MDC_SECRET_KEY is not set: the broker token is not stored, every "
        "token request fetches a new one from the broker",
        {});
  }
  return current;
}

absl::StatusOr<BrokerToken> BrokerTokens::Current(absl::Time now) {
  if (token_url_.empty()) {
    return domain::WithReason(
        absl::FailedPreconditionError(
            "no broker is configured: the server has no token endpoint "
            "(MDC_BROKER_TOKEN_URL)"),
        domain::reason::kBrokerNotConfigured);
  }
  const domain::SecretBox* box = credentials_.secret_box();
  if (box == nullptr) return FetchUnstored(now);

  auto stored = repository_.Find();
  if (!stored.ok()) return stored.status();
  if (auto usable = Usable(*stored, *box, now); usable.has_value()) {
    return *std::move(usable);
  }

  absl::MutexLock local(&refresh_mu_);
  BrokerToken current;
  // A waiter must outlast the refresh in progress: its HTTP call plus slack.
  absl::Status refreshed = repository_.WithRefreshLock(
      timeout_ + absl::Seconds(5),
      [&](storage::BrokerTokenRepository::LockedSession& session)
          -> absl::Status {
        // Another thread or replica may have refreshed while we waited.
        auto again = session.Find();
        if (!again.ok()) return again.status();
        if (auto usable = Usable(*again, *box, now); usable.has_value()) {
          current = *std::move(usable);
          return absl::OkStatus();
        }
        auto token = Fetch();
        if (!token.ok()) return token.status();
        current.access_token = *std::move(token);
        current.fetched_at = now;
        current.expires_at = domain::BrokerTokenExpiry(now);
        log::Info("broker token refreshed",
                  {{"expires_at", domain::FormatInstant(current.expires_at)}});
        return session.Save(
            box->Seal(current.access_token, kBrokerAccessTokenContext),
            current.expires_at);
      });
  if (!refreshed.ok()) return refreshed;
  return current;
}

absl::StatusOr<std::string> BrokerTokens::Fetch() {
  auto credentials = credentials_.Get();
  if (!credentials.ok()) return credentials.status();
  if (!credentials->has_value()) {
    return domain::WithReason(
        absl::FailedPreconditionError(
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

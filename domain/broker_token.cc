#include "domain/broker_token.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "absl/status/status.h"
#include "domain/time.h"

namespace mdc::domain {

absl::Time BrokerTokenExpiry(absl::Time fetched_at) {
  const absl::CivilDay day = TradingDay(fetched_at);
  const absl::Time today = absl::FromCivil(
      absl::CivilHour(day.year(), day.month(), day.day(), 6), ExchangeZone());
  if (fetched_at < today) return today;
  const absl::CivilDay next = day + 1;
  return absl::FromCivil(
      absl::CivilHour(next.year(), next.month(), next.day(), 6),
      ExchangeZone());
}

bool BrokerTokenUsable(absl::Time expires_at, absl::Time now) {
  return now + absl::Minutes(1) < expires_at;
}

std::string BrokerTokenRequestBody(absl::string_view api_key,
                                   absl::string_view api_secret) {
  google::protobuf::Struct body;
  (*body.mutable_fields())["api_key"].set_string_value(std::string(api_key));
  (*body.mutable_fields())["api_secret"].set_string_value(
      std::string(api_secret));
  std::string json;
  // A Struct of strings always converts.
  (void)google::protobuf::util::MessageToJsonString(body, &json);
  return json;
}

absl::StatusOr<std::string> ParseBrokerTokenResponse(absl::string_view body) {
  google::protobuf::Struct parsed;
  if (!google::protobuf::util::JsonStringToMessage(
           google::protobuf::StringPiece(body.data(), body.size()), &parsed)
           .ok()) {
    return absl::UnavailableError(
        "the broker token endpoint answered with something that is not a "
        "JSON object");
  }
  auto it = parsed.fields().find("access_token");
  if (it == parsed.fields().end() ||
      it->second.kind_case() != google::protobuf::Value::kStringValue ||
      it->second.string_value().empty()) {
    return absl::UnavailableError(
        "the broker token endpoint answered without a non-empty string "
        "\"access_token\"");
  }
  return it->second.string_value();
}

}  // namespace mdc::domain

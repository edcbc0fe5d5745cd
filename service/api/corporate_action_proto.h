// A corporate action as the answers give it (mdc.v1.CorporateActionInfo),
// shared by the developer's list and the admin's entry.
#ifndef MDC_SERVICE_API_CORPORATE_ACTION_PROTO_H_
#define MDC_SERVICE_API_CORPORATE_ACTION_PROTO_H_

#include <optional>
#include <string>

#include "domain/corporate_actions.h"
#include "mdc/v1/developer.pb.h"

namespace mdc {

// `action` of `isin`; `close` is the stored close before its ex-date (its
// factors need one for a dividend or rights issue, and are absent without).
void ToProto(const std::string& isin, const domain::CorporateAction& action,
             std::optional<double> close, v1::CorporateActionInfo* out);

}  // namespace mdc

#endif  // MDC_SERVICE_API_CORPORATE_ACTION_PROTO_H_

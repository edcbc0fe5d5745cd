#include "service/api/corporate_action_proto.h"

#include "domain/time.h"

namespace mdc {

void ToProto(const std::string& isin, const domain::CorporateAction& action,
             std::optional<double> close, v1::CorporateActionInfo* out) {
  out->set_isin(isin);
  out->set_ex_date(domain::FormatDate(action.ex_date));
  out->set_kind(std::string(domain::ActionKindName(action.kind)));
  out->set_description(action.description);
  switch (action.kind) {
    case domain::ActionKind::kBonus:
    case domain::ActionKind::kRights:
      out->set_new_shares(action.ratio_a);
      out->set_held_shares(action.ratio_b);
      break;
    case domain::ActionKind::kSplit:
    case domain::ActionKind::kConsolidation:
      out->set_old_face_value(action.ratio_a);
      out->set_new_face_value(action.ratio_b);
      break;
    case domain::ActionKind::kDividend:
      break;
  }
  out->set_amount(action.amount);
  if (auto factors = domain::FactorsOf(action, close)) {
    out->set_price_factor(factors->price);
    out->set_volume_factor(factors->volume);
  }
}

}  // namespace mdc

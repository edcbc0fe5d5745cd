#include "service/api/dashboard/dashboard_proto.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "domain/proto_time.h"

namespace mdc {

void ToProto(const storage::RunRecord& run, v1::Run* out) {
  out->set_id(absl::StrCat(run.id));
  out->set_name(run.name);
  for (const auto& tag : run.tags) out->add_tags(tag);
  domain::SetTimestamp(run.start_at, out->mutable_start_time());
  domain::SetTimestamp(run.end_at, out->mutable_end_time());
  out->set_completed(run.completed);
  domain::SetTimestamp(run.created_at, out->mutable_created_time());
  out->set_order_count(static_cast<int32_t>(run.order_count));
}

void ToProto(const storage::OrderRecord& order, v1::Order* out) {
  out->set_id(absl::StrCat(order.id));
  out->set_run_id(absl::StrCat(order.run_id));
  out->set_nse_symbol(order.nse_symbol);
  out->set_entry_price(order.entry_price);
  out->set_stop_loss_price(order.stop_loss_price);
  out->set_take_profit_price(order.take_profit_price);
  domain::SetTimestamp(order.ordered_at, out->mutable_time());
  domain::SetTimestamp(order.created_at, out->mutable_created_time());
}

}  // namespace mdc

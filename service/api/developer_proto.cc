#include "service/api/developer_proto.h"

#include "absl/strings/str_cat.h"
#include "domain/proto_time.h"

namespace mdc {

void ToProto(const storage::DeveloperRecord& record, v1::Developer* out) {
  out->set_id(absl::StrCat(record.id));
  out->set_username(record.username);
  out->set_role(record.role);
  domain::SetTimestamp(record.created_at, out->mutable_created_time());
  if (record.last_seen_at.has_value()) {
    domain::SetTimestamp(*record.last_seen_at, out->mutable_last_seen_time());
  }
}

}  // namespace mdc

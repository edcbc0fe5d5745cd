// storage::DeveloperRecord → mdc.v1.Developer (never the token hash).
#ifndef MDC_SERVICE_API_DEVELOPER_PROTO_H_
#define MDC_SERVICE_API_DEVELOPER_PROTO_H_

#include "mdc/v1/market.pb.h"
#include "storage/developer_repository.h"

namespace mdc {

void ToProto(const storage::DeveloperRecord& record, v1::Developer* out);

}  // namespace mdc

#endif  // MDC_SERVICE_API_DEVELOPER_PROTO_H_

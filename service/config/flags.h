// Command-line flags as the server's commands take them: "--name value" or
// "--name=value", nothing else. Which names are valid is the caller's
// business; this only splits them.
#ifndef MDC_SERVICE_CONFIG_FLAGS_H_
#define MDC_SERVICE_CONFIG_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mdc {

struct Flag {
  std::string name;  // without the leading "--"
  std::string value;
};

// The flags of `args`, in order. INVALID_ARGUMENT for an argument that is
// not a flag or a flag without a value.
absl::StatusOr<std::vector<Flag>> ParseFlags(
    const std::vector<std::string>& args);

}  // namespace mdc

#endif  // MDC_SERVICE_CONFIG_FLAGS_H_

// Loads the server configuration from a map of environment variables (plus
// flags), as mdc-server would from its environment, for configuration tests.
#ifndef MDC_TESTS_SUPPORT_CONFIG_FROM_H_
#define MDC_TESTS_SUPPORT_CONFIG_FROM_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "service/config/config.h"

namespace mdc::testing {

// LoadConfig(args) with `vars` as the environment; DATABASE_URL defaults to a
// placeholder so each test names only the settings it is about.
inline absl::StatusOr<Config> ConfigFrom(
    std::map<std::string, std::string> vars,
    const std::vector<std::string>& args = {}) {
  vars.emplace("DATABASE_URL", "postgres://localhost/mdc");
  return LoadConfig(args, [&vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_CONFIG_FROM_H_

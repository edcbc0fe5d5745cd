#include "service/config/flags.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace mdc {

absl::StatusOr<std::vector<Flag>> ParseFlags(
    const std::vector<std::string>& args) {
  std::vector<Flag> flags;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (!absl::ConsumePrefix(&arg, "--")) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected argument ", args[i]));
    }
    Flag flag;
    if (auto eq = arg.find('='); eq != absl::string_view::npos) {
      flag.name = std::string(arg.substr(0, eq));
      flag.value = std::string(arg.substr(eq + 1));
    } else if (i + 1 < args.size()) {
      flag.name = std::string(arg);
      flag.value = args[++i];
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--", arg, " needs a value"));
    }
    flags.push_back(std::move(flag));
  }
  return flags;
}

}  // namespace mdc

#include "service/admin_cli/admin_cli.h"

#include <map>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "domain/developers.h"
#include "domain/tokens.h"
#include "service/auth/auth.h"
#include "service/config/flags.h"
#include "storage/developer_repository.h"
#include "storage/migrations.h"
#include "storage/pool.h"

namespace mdc {
namespace {

constexpr char kUsage[] =
    "admin commands (first set-up and recovery):\n"
    "  mdc-server create-developer --username NAME [--role developer|admin]"
    " [--database-url URL]\n"
    "  mdc-server refresh-key --username NAME [--database-url URL]\n"
    "Prints the new token on stdout. DATABASE_URL is used when --database-url"
    " is absent.\n";

// The flags of `args` (after the command name), each name in `allowed`.
absl::StatusOr<std::map<std::string, std::string>> ParseCommandFlags(
    const std::vector<std::string> &args,
    const std::vector<std::string> &allowed) {
  auto parsed =
      ParseFlags(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!parsed.ok()) return parsed.status();
  std::map<std::string, std::string> flags;
  for (const Flag &flag : *parsed) {
    bool known = false;
    for (const auto &a : allowed) known = known || a == flag.name;
    if (!known) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", flag.name));
    }
    flags[flag.name] = flag.value;
  }
  return flags;
}

}  // namespace

const char *AdminCommandUsage() { return kUsage; }

bool IsAdminCommand(absl::string_view command) {
  return command == "create-developer" || command == "refresh-key";
}

int RunAdminCommand(const std::vector<std::string> &args,
                    const std::function<const char *(const char *)> &getenv,
                    std::FILE *out, std::FILE *err) {
  const bool create = args.at(0) == "create-developer";
  std::vector<std::string> allowed = {"username", "database-url"};
  if (create) allowed.push_back("role");
  auto flags = ParseCommandFlags(args, allowed);
  if (!flags.ok()) {
    std::fprintf(err, "%s\n%s", std::string(flags.status().message()).c_str(),
                 kUsage);
    return 2;
  }
  const std::string username = (*flags)["username"];
  if (auto valid = domain::CheckUsername(username); !valid.ok()) {
    std::fprintf(err, "--username %s\n%s", std::string(valid.message()).c_str(),
                 kUsage);
    return 2;
  }
  Role role = Role::kDeveloper;
  if (create && flags->count("role") > 0 &&
      !ParseRole((*flags)["role"], &role)) {
    std::fprintf(err, "--role must be developer or admin\n%s", kUsage);
    return 2;
  }
  std::string url = (*flags)["database-url"];
  if (url.empty() && getenv("DATABASE_URL") != nullptr) {
    url = getenv("DATABASE_URL");
  }
  if (url.empty()) {
    std::fprintf(err, "no database: set DATABASE_URL or --database-url\n");
    return 2;
  }

  storage::ConnectionPool pool(url, 1);
  auto migrated = storage::ApplyMigrations(pool, storage::EmbeddedMigrations());
  if (!migrated.ok()) {
    std::fprintf(err, "cannot prepare the database: %s\n",
                 std::string(migrated.status().message()).c_str());
    return 1;
  }
  storage::DeveloperRepository developers(pool);
  const std::string token = domain::GenerateToken();
  auto done = create ? developers.Create(username, RoleName(role),
                                         domain::HashToken(token))
                     : developers.ReplaceTokenHashByUsername(
                           username, domain::HashToken(token));
  if (!done.ok()) {
    std::fprintf(err, "%s failed: %s\n", args[0].c_str(),
                 std::string(done.status().message()).c_str());
    return 1;
  }
  std::fprintf(err, "%s %s '%s' (id %lld); its token follows, shown only now\n",
               create ? "created" : "new token for", done->role.c_str(),
               done->username.c_str(), static_cast<long long>(done->id));
  std::fprintf(out, "%s\n", token.c_str());
  return 0;
}

}  // namespace mdc

#include "service/admin_cli/admin_cli.h"

#include <map>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "domain/compaction.h"
#include "domain/developers.h"
#include "domain/tokens.h"
#include "service/admin_cli/import_command.h"
#include "service/auth/auth.h"
#include "service/config/flags.h"
#include "storage/compaction_repository.h"
#include "storage/developer_repository.h"
#include "storage/migrations.h"
#include "storage/pool.h"

namespace mdc {
namespace {

constexpr char kUsage[] =
    "admin commands (first set-up, recovery, deployments):\n"
    "  mdc-server create-developer --username NAME [--role developer|admin]"
    " [--database-url URL]\n"
    "  mdc-server refresh-key --username NAME [--database-url URL]\n"
    "  mdc-server migrate [--database-url URL] [--db-wait-seconds N]\n"
    "  mdc-server compact --through YYYY-MM-DD [--database-url URL]\n"
    "  mdc-server import --kind equity_list|symbol_changes|corporate_actions"
    " --file PATH [--database-url URL]\n"
    "The first two print the new token on stdout. migrate applies the schema"
    " migrations not applied yet and exits, waiting up to N seconds (0-3600,"
    " else MDC_DB_WAIT_SECONDS, else 60) for the database. DATABASE_URL is"
    " used when --database-url is absent. compact compacts the stock quotes"
    " of the trading days up to --through (before today) into compressed"
    " batches and prints what it did. import loads one of NSE's files"
    " (docs/api.md section 13.2) and prints what it imported.\n";

constexpr int kDefaultDbWaitSeconds = 60;

// The flags of `args` (after the command name), each name in `allowed`.
absl::StatusOr<std::map<std::string, std::string>> ParseCommandFlags(
    const std::vector<std::string>& args,
    const std::vector<std::string>& allowed) {
  auto parsed =
      ParseFlags(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!parsed.ok()) return parsed.status();
  std::map<std::string, std::string> flags;
  for (const Flag& flag : *parsed) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == flag.name;
    if (!known) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", flag.name));
    }
    flags[flag.name] = flag.value;
  }
  return flags;
}

// --database-url, else DATABASE_URL; empty when neither is set.
std::string DatabaseUrl(std::map<std::string, std::string>& flags,
                        const std::function<const char*(const char*)>& getenv) {
  std::string url = flags["database-url"];
  if (url.empty() && getenv("DATABASE_URL") != nullptr) {
    url = getenv("DATABASE_URL");
  }
  return url;
}

// Brings the schema up to date before a command uses the database; false
// (reported on `err`) when it cannot.
bool PrepareDatabase(storage::ConnectionPool& pool, std::FILE* err) {
  auto migrated = storage::ApplyMigrations(pool, storage::EmbeddedMigrations());
  if (!migrated.ok()) {
    std::fprintf(err, "cannot prepare the database: %s\n",
                 std::string(migrated.status().message()).c_str());
    return false;
  }
  return true;
}

// `mdc-server migrate`: waits for the database, applies the migrations not
// applied yet (under the same advisory lock as a starting server, so it may
// run while servers start) and reports what it did.
int RunMigrate(std::map<std::string, std::string>& flags,
               const std::function<const char*(const char*)>& getenv,
               std::FILE* err) {
  const std::string url = DatabaseUrl(flags, getenv);
  if (url.empty()) {
    std::fprintf(err, "no database: set DATABASE_URL or --database-url\n");
    return 2;
  }
  int wait_seconds = kDefaultDbWaitSeconds;
  std::string wait_text;
  const char* wait_source = "--db-wait-seconds";
  if (flags.count("db-wait-seconds") > 0) {
    wait_text = flags["db-wait-seconds"];
  } else if (getenv("MDC_DB_WAIT_SECONDS") != nullptr) {
    wait_text = getenv("MDC_DB_WAIT_SECONDS");
    wait_source = "MDC_DB_WAIT_SECONDS";
  }
  if (!wait_text.empty() && (!absl::SimpleAtoi(wait_text, &wait_seconds) ||
                             wait_seconds < 0 || wait_seconds > 3600)) {
    std::fprintf(err, "%s must be a whole number of seconds from 0 to 3600\n%s",
                 wait_source, kUsage);
    return 2;
  }
  storage::ConnectionPool pool(url, 1);
  if (auto ready = storage::WaitForDatabase(pool, absl::Seconds(wait_seconds));
      !ready.ok()) {
    std::fprintf(err, "migrate failed after waiting %d s: %s\n", wait_seconds,
                 std::string(ready.message()).c_str());
    return 1;
  }
  const auto& migrations = storage::EmbeddedMigrations();
  auto applied = storage::ApplyMigrations(pool, migrations);
  if (!applied.ok()) {
    std::fprintf(err, "migrate failed: %s\n",
                 std::string(applied.status().message()).c_str());
    return 1;
  }
  if (applied->empty()) {
    std::fprintf(err,
                 "schema up to date: all %zu migrations were applied before\n",
                 migrations.size());
  } else {
    std::fprintf(err, "applied %zu of %zu migrations: %s\n", applied->size(),
                 migrations.size(), absl::StrJoin(*applied, ", ").c_str());
  }
  return 0;
}

// The table locks `compact` waits for (docs/operations.md): an operator's
// run may wait longer than the hourly maintenance's.
constexpr absl::Duration kCompactLockWait = absl::Seconds(30);

// `mdc-server compact --through DAY`: brings the schema up to date, then
// compacts (storage/compaction_repository.h). The counts go to stdout.
int RunCompact(std::map<std::string, std::string>& flags,
               const std::function<const char*(const char*)>& getenv,
               std::FILE* out, std::FILE* err) {
  auto through =
      domain::ParseCompactThrough(flags["through"], absl::Now(), "--through");
  if (!through.ok()) {
    // The message names the flag: "--through: must be ...".
    std::fprintf(err, "%s\n%s", std::string(through.status().message()).c_str(),
                 kUsage);
    return 2;
  }
  const std::string url = DatabaseUrl(flags, getenv);
  if (url.empty()) {
    std::fprintf(err, "no database: set DATABASE_URL or --database-url\n");
    return 2;
  }
  storage::ConnectionPool pool(url, 1);
  if (!PrepareDatabase(pool, err)) return 1;
  storage::CompactionRepository compaction(pool);
  auto counts = compaction.CompactThrough(*through, kCompactLockWait);
  if (!counts.ok()) {
    std::fprintf(err, "compact failed: %s\n",
                 std::string(counts.status().message()).c_str());
    return 1;
  }
  std::fprintf(out,
               "days %d quotes %lld batches %lld busy_months %d "
               "nifty_days %d nifty_quotes %lld nifty_batches %lld\n",
               counts->days, static_cast<long long>(counts->quotes),
               static_cast<long long>(counts->batches), counts->busy_months,
               counts->nifty_days, static_cast<long long>(counts->nifty_quotes),
               static_cast<long long>(counts->nifty_batches));
  return 0;
}

}  // namespace

const char* AdminCommandUsage() { return kUsage; }

bool IsAdminCommand(absl::string_view command) {
  return command == "create-developer" || command == "refresh-key" ||
         command == "migrate" || command == "compact" || command == "import";
}

int RunAdminCommand(const std::vector<std::string>& args,
                    const std::function<const char*(const char*)>& getenv,
                    std::FILE* out, std::FILE* err) {
  const bool create = args.at(0) == "create-developer";
  const bool migrate = args.at(0) == "migrate";
  if (args.at(0) == "import") {
    auto flags = ParseCommandFlags(args, {"database-url", "kind", "file"});
    if (!flags.ok()) {
      std::fprintf(err, "%s\n%s", std::string(flags.status().message()).c_str(),
                   kUsage);
      return 2;
    }
    const std::string url = DatabaseUrl(*flags, getenv);
    if (url.empty()) {
      std::fprintf(err, "no database: set DATABASE_URL or --database-url\n");
      return 2;
    }
    return RunImportCommand((*flags)["kind"], (*flags)["file"], url, out, err);
  }
  const bool compact = args.at(0) == "compact";
  std::vector<std::string> allowed = {"database-url"};
  if (compact) {
    allowed.push_back("through");
    auto flags = ParseCommandFlags(args, allowed);
    if (!flags.ok()) {
      std::fprintf(err, "%s\n%s", std::string(flags.status().message()).c_str(),
                   kUsage);
      return 2;
    }
    return RunCompact(*flags, getenv, out, err);
  }
  if (migrate) allowed.push_back("db-wait-seconds");
  if (!migrate) allowed.push_back("username");
  if (create) allowed.push_back("role");
  auto flags = ParseCommandFlags(args, allowed);
  if (!flags.ok()) {
    std::fprintf(err, "%s\n%s", std::string(flags.status().message()).c_str(),
                 kUsage);
    return 2;
  }
  if (migrate) return RunMigrate(*flags, getenv, err);
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
  const std::string url = DatabaseUrl(*flags, getenv);
  if (url.empty()) {
    std::fprintf(err, "no database: set DATABASE_URL or --database-url\n");
    return 2;
  }

  storage::ConnectionPool pool(url, 1);
  if (!PrepareDatabase(pool, err)) return 1;
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

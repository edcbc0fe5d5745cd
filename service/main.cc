// mdc-server: the mdc gRPC server. See `mdc-server --help`.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "common/log.h"
#include "service/admin_cli/admin_cli.h"
#include "service/config/config.h"
#include "service/health_probe/health_probe.h"
#include "service/lifecycle/server.h"

int main(int argc, char** argv) {
  // Debian builds abseil without NDEBUG, so every absl::Mutex (gRPC's too)
  // records its lock order in a process-wide graph on each acquisition:
  // about a tenth of the server's instructions per collector write. The
  // test binaries keep the check on (it aborts on a lock-order cycle).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--version") {
    std::fputs("mdc-server " MDC_VERSION "\n", stdout);
    return 0;
  }
  // MDC_LOG_LEVEL holds before the configuration is read (admin commands,
  // configuration errors); an invalid value is refused by LoadConfig below.
  if (const char* level = std::getenv("MDC_LOG_LEVEL"); level != nullptr) {
    mdc::log::Level parsed;
    if (mdc::log::ParseLevel(level, &parsed)) mdc::log::SetLevel(parsed);
  }
  if (mdc::IsHealthCommand(args)) {
    return mdc::RunHealthCommand(
        args, [](const char* name) { return std::getenv(name); }, stderr);
  }
  if (!args.empty() && mdc::IsAdminCommand(args[0])) {
    return mdc::RunAdminCommand(
        args, [](const char* name) { return std::getenv(name); }, stdout,
        stderr);
  }
  // Block SIGTERM/SIGINT before gRPC starts threads, so only sigwait below
  // sees them and shutdown runs on this thread, in order.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(mdc::ConfigUsage().c_str(), stdout);
    std::fputs("\n", stdout);
    std::fputs(mdc::AdminCommandUsage(), stdout);
    std::fputs(mdc::HealthCommandUsage(), stdout);
    return 0;
  }
  auto config =
      mdc::LoadConfig(args, [](const char* name) { return std::getenv(name); });
  if (!config.ok()) {
    mdc::log::Error("bad configuration",
                    {{"error", config.status().message()}});
    std::fputs(mdc::ConfigUsage().c_str(), stderr);
    return 2;
  }
  mdc::log::SetLevel(config->log_level);
  mdc::log::SetAccessLog(config->access_log);
  auto server = mdc::Server::Start(*config);
  if (!server.ok()) {
    mdc::log::Error("start-up failed", {{"error", server.status().message()}});
    return 1;
  }
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  mdc::log::Info("signal received", {{"signal", signal_number}});
  (*server)->Shutdown();
  return 0;
}

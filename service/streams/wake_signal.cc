#include "service/streams/wake_signal.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "common/log.h"

namespace mdc {
namespace {

int OpenEventFd() {
  const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    // Only when the process is out of file descriptors at start-up.
    log::Error("cannot create an eventfd for the market hub");
    std::abort();
  }
  return fd;
}

}  // namespace

WakeSignal::WakeSignal() : fd_(OpenEventFd()) {}

WakeSignal::~WakeSignal() { close(fd_); }

void WakeSignal::Raise() {
  const uint64_t one = 1;
  // A full counter (never, at 2^64 - 2) would only mean it is raised.
  [[maybe_unused]] const ssize_t written = write(fd_, &one, sizeof one);
}

bool WakeSignal::Take() {
  uint64_t count = 0;
  return read(fd_, &count, sizeof count) == sizeof count && count > 0;
}

}  // namespace mdc

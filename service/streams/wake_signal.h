// A signal one thread raises and another waits for in poll(2) next to its
// database socket (an eventfd): the market hub learns of its own server's
// commits without waiting out its tick. Raising is one write(2), so it is
// cheap enough for the write path, and never blocks.
//
// Thread-safe.
#ifndef MDC_SERVICE_STREAMS_WAKE_SIGNAL_H_
#define MDC_SERVICE_STREAMS_WAKE_SIGNAL_H_

namespace mdc {

class WakeSignal {
 public:
  WakeSignal();
  ~WakeSignal();
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  void Raise();
  // Lowers the signal; whether it was raised since the last call.
  bool Take();
  // Readable while raised.
  int fd() const { return fd_; }

 private:
  const int fd_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_WAKE_SIGNAL_H_

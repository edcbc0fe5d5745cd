// A server-streaming RPC on the gRPC callback API whose messages are made a
// page at a time by a MessageSource on a stream worker (the blocking part:
// database pages), while the reactor sends the previous message: at most
// two messages are in memory whatever the stream's length, and a slow
// reader holds the source back (the next message is made only once the
// previous one has been handed to gRPC). A cancelled call (the client went
// away) makes no further message. Day replay and the exports are such
// streams. A source may make its messages on arenas of their own
// (ArenaMessage, service/streams/arena_message.h); the stream sends the
// message each one holds.
//
// Thread-safe: the source is used by one worker job at a time.
#ifndef MDC_SERVICE_STREAMS_PAGED_STREAM_H_
#define MDC_SERVICE_STREAMS_PAGED_STREAM_H_

#include <grpcpp/support/server_callback.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "common/log.h"
#include "service/calls/call_runner.h"
#include "service/calls/grpc_status.h"
#include "service/calls/rpc_facts.h"
#include "service/streams/arena_message.h"
#include "service/streams/stream_slots.h"
#include "service/streams/stream_workers.h"

namespace mdc {

// The messages of one stream: `Message` is the message sent, or an
// ArenaMessage holding it.
template <typename Message>
class MessageSource {
 public:
  virtual ~MessageSource() = default;

  // Inside CallRunner::Run, once the caller is authenticated: checks the
  // request; an error ends the call with it before any message.
  virtual absl::Status Open(const CallContext& call) = 0;

  // The next message; nullopt once every message was made (the call ends
  // OK). An error ends the call with it.
  virtual absl::StatusOr<std::optional<Message>> Next() = 0;

  // How many records `message` holds, for the log line.
  virtual int64_t Count(const Message& message) const = 0;
};

// The log line a stream writes when it ends: `message`, and the records
// sent under `count_key` beside the request id, method and code.
struct StreamEndLog {
  absl::string_view message;
  absl::string_view count_key;
};

// The per-developer cap a stream counts against (stream_slots.h): its place
// is taken once the caller is authenticated and given back when it ends.
struct StreamCap {
  StreamSlots& slots;
  domain::StreamKind kind;
};

namespace internal {

template <typename Message>
using StreamReactor =
    grpc::ServerWriteReactor<typename SentMessage<Message>::type>;

template <typename Message>
class PagedStream final
    : public std::enable_shared_from_this<PagedStream<Message>> {
 public:
  PagedStream(CallRunner& calls, StreamWorkers& workers, StreamCap cap,
              std::unique_ptr<MessageSource<Message>> source, StreamEndLog log,
              StreamReactor<Message>* reactor)
      : calls_(calls),
        workers_(workers),
        cap_(cap),
        source_(std::move(source)),
        log_(log),
        reactor_(reactor) {}

  // On a stream worker: authenticate, open the source, make the first
  // message.
  void Open(grpc::CallbackServerContext* context, const RpcFacts& rpc) {
    method_ = rpc.method;
    grpc::Status answer =
        calls_.Run(context, rpc, [&](const CallContext& call) -> absl::Status {
          request_id_ = call.request_id;
          auto slot = cap_.slots.Take(cap_.kind, call.caller);
          if (!slot.ok()) return slot.status();
          slot_ = *std::move(slot);
          return source_->Open(call);
        });
    {
      absl::MutexLock lock(&mu_);
      opening_ = false;
      if (!answer.ok()) {
        end_ = answer;
        producing_ = false;
      }
    }
    if (answer.ok()) {
      Produce();
    } else {
      Pump();
    }
  }

  void WriteDone(bool ok) {
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) cancelled_ = true;
    }
    Pump();
  }

  void Cancelled() {
    {
      absl::MutexLock lock(&mu_);
      cancelled_ = true;
    }
    Pump();
  }

 private:
  // On a stream worker: the next message, or the end.
  void Produce() {
    absl::StatusOr<std::optional<Message>> next = source_->Next();
    {
      absl::MutexLock lock(&mu_);
      producing_ = false;
      if (!next.ok()) {
        end_ = ToGrpcStatus(next.status());
      } else if (!next->has_value()) {
        end_ = grpc::Status::OK;
      } else {
        ready_ = **std::move(next);
      }
    }
    Pump();
  }

  // Sends the prepared message and asks for the next, or ends the call.
  void Pump() {
    bool write = false;
    bool produce = false;
    std::optional<grpc::Status> finish;
    {
      absl::MutexLock lock(&mu_);
      // While Open runs it reads the call's context: the call must not end.
      if (finished_ || writing_ || opening_) return;
      if (cancelled_) {
        finish = grpc::Status::CANCELLED;
      } else if (ready_.has_value()) {
        message_ = *std::move(ready_);
        ready_.reset();
        writing_ = true;
        write = true;
        sent_ += source_->Count(*message_);
        if (!producing_ && !end_.has_value()) produce = producing_ = true;
      } else if (end_.has_value() && !producing_) {
        finish = *end_;
      }
      if (finish.has_value()) finished_ = true;
    }
    if (produce) {
      workers_.Post([self = this->shared_from_this()] { self->Produce(); });
    }
    if (write) reactor_->StartWrite(SentMessage<Message>::Of(*message_));
    if (finish.has_value()) {
      log::Info(
          log_.message,
          {{"request_id", request_id_},
           {"method", method_},
           {"code", absl::StatusCodeToString(
                        static_cast<absl::StatusCode>(finish->error_code()))},
           {log_.count_key, sent_}});
      // Only the one call that set finished_ gets here, after Open.
      slot_.Reset();
      reactor_->Finish(*finish);
    }
  }

  CallRunner& calls_;
  StreamWorkers& workers_;
  const StreamCap cap_;
  // Taken by Open, given back by the finish.
  StreamSlot slot_;
  // Used by one Open or Produce at a time.
  const std::unique_ptr<MessageSource<Message>> source_;
  const StreamEndLog log_;
  StreamReactor<Message>* const reactor_;
  absl::string_view method_;  // the RPC's name, for the log line
  std::string request_id_;

  absl::Mutex mu_;
  bool opening_ ABSL_GUARDED_BY(mu_) = true;
  bool producing_ ABSL_GUARDED_BY(mu_) = true;  // Open runs first
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> end_ ABSL_GUARDED_BY(mu_);
  std::optional<Message> ready_ ABSL_GUARDED_BY(mu_);
  int64_t sent_ ABSL_GUARDED_BY(mu_) = 0;
  // Being written; touched by whoever set writing_.
  std::optional<Message> message_;
};

template <typename Message>
class PagedStreamReactor final : public StreamReactor<Message> {
 public:
  PagedStreamReactor(CallRunner& calls, StreamWorkers& workers, StreamCap cap,
                     std::unique_ptr<MessageSource<Message>> source,
                     StreamEndLog log)
      : stream_(std::make_shared<PagedStream<Message>>(
            calls, workers, cap, std::move(source), log, this)) {}

  std::shared_ptr<PagedStream<Message>> stream() const { return stream_; }

  void OnWriteDone(bool ok) override { stream_->WriteDone(ok); }
  void OnCancel() override { stream_->Cancelled(); }
  void OnDone() override { delete this; }

 private:
  const std::shared_ptr<PagedStream<Message>> stream_;
};

}  // namespace internal

// Starts a stream of `rpc` whose messages `source` makes, counted against
// `cap`; the reactor deletes itself when the call is done. `rpc` outlives
// the call (it is a ServiceCalls entry).
template <typename Message>
internal::StreamReactor<Message>* StartPagedStream(
    CallRunner& calls, StreamWorkers& workers, StreamCap cap,
    grpc::CallbackServerContext* context, const RpcFacts& rpc,
    std::unique_ptr<MessageSource<Message>> source, StreamEndLog log) {
  auto* reactor = new internal::PagedStreamReactor<Message>(
      calls, workers, cap, std::move(source), log);
  workers.Post([stream = reactor->stream(), context, &rpc] {
    stream->Open(context, rpc);
  });
  return reactor;
}

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_PAGED_STREAM_H_

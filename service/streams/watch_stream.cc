#include "service/streams/watch_stream.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/error_reason.h"
#include "mdc/v1/stream.grpc.pb.h"
#include "service/calls/grpc_status.h"

namespace mdc {
namespace {

class WatchReactor;

// Before every record (real positions are never negative).
constexpr domain::StreamPosition kBeforeAll{-1, -1};

// The state of one watch, shared by its reactor, the hub and the jobs it
// posts to the stream workers (each holds a reference, so whichever ends
// last frees it). The reactor is called only until Finish.
class Watch final : public HubSubscriber,
                    public std::enable_shared_from_this<Watch> {
 public:
  Watch(WatchDeps deps, grpc::ServerWriteReactor<v1::MarketEvents>* reactor)
      : deps_(deps), reactor_(reactor) {}

  const domain::WatchSelection& selection() const override {
    return selection_;
  }

  bool Offer(const std::vector<SharedEvent>& events) override {
    absl::MutexLock lock(&mu_);
    if (finished_ || end_.has_value()) return false;
    for (const SharedEvent& event : events) {
      if (event->position <= resume_after_) continue;
      live_.push_back(event);
      live_bytes_ += event->wire_bytes;
    }
    if (live_.size() > static_cast<size_t>(kMaxQueuedEvents) ||
        live_bytes_ > kMaxQueuedBytes) {
      // Memory stays bounded: the queue goes, the watcher resumes later.
      live_.clear();
      live_bytes_ = 0;
      catch_up_.clear();
      const std::string cursor = domain::EncodeWatchCursor(last_sent_);
      end_ = domain::WithReason(
          absl::ResourceExhaustedError(absl::StrCat(
              "the watcher fell behind: more than ", kMaxQueuedEvents,
              " records (or ", kMaxQueuedBytes >> 20,
              " MiB) waited for it to read them; resume from the last "
              "cursor received (the last sent was ",
              cursor, ")")),
          domain::reason::kWatcherFellBehind, {{"cursor", cursor}});
      return false;
    }
    return true;
  }

  void Flush() override { Pump(); }

  void Tick(absl::Time now, const domain::StreamPosition& offered) override {
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || !open_ || writing_ || !catch_up_done_ ||
          !catch_up_.empty() || !live_.empty() ||
          now - last_write_ < deps_.heartbeat) {
        return;
      }
      // Nothing waits and nothing is being written: every record of its
      // selection up to `offered` has been sent (or was before its cursor).
      last_sent_ = std::max(last_sent_, offered);
      heartbeat_ = true;
    }
    Pump();
  }

  void Close() override {
    {
      absl::MutexLock lock(&mu_);
      if (finished_ || end_.has_value()) return;
      end_ = absl::UnavailableError(
          absl::StrCat("the server is shutting down; resume from cursor ",
                       domain::EncodeWatchCursor(last_sent_)));
    }
    Pump();
  }

  // On a stream worker: authenticate, parse, subscribe.
  void Open(grpc::CallbackServerContext* context, const RpcFacts& rpc,
            const ParseWatch& parse) {
    method_ = rpc.method;
    grpc::Status answer = deps_.calls.Run(
        context, rpc, [&](const CallContext& call) -> absl::Status {
          request_id_ = call.request_id;
          auto slot = deps_.slots.Take(domain::StreamKind::kWatch, call.caller);
          if (!slot.ok()) return slot.status();
          slot_ = *std::move(slot);
          auto selection = parse(call.clock);
          if (!selection.ok()) return selection.status();
          selection_ = *std::move(selection);
          {
            absl::MutexLock lock(&mu_);
            resume_after_ = selection_.cursor.value_or(kBeforeAll);
          }
          auto live_from = deps_.hub.Subscribe(shared_from_this());
          if (!live_from.ok()) return live_from.status();
          absl::MutexLock lock(&mu_);
          const std::optional<domain::StreamPosition> cursor =
              selection_.cursor;
          last_sent_ = cursor.value_or(*live_from);
          if (cursor.has_value() && *cursor < *live_from) {
            catch_up_after_ = *cursor;
            catch_up_to_ = *live_from;
          } else {
            catch_up_done_ = true;
          }
          open_ = true;
          return absl::OkStatus();
        });
    {
      absl::MutexLock lock(&mu_);
      opening_ = false;
      if (!answer.ok()) refused_ = answer;
    }
    Pump();
  }

  void WriteDone(bool ok) {
    {
      absl::MutexLock lock(&mu_);
      writing_ = false;
      if (!ok) cancelled_ = true;  // the caller is gone
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
  // Sends the next message, reads the next catch-up page or ends the call,
  // whichever is due; at most one write at a time.
  void Pump() {
    enum class Action { kNone, kWrite, kFinish, kReadCatchUp };
    Action action = Action::kNone;
    grpc::Status status;
    {
      absl::MutexLock lock(&mu_);
      // While Open runs it reads the call's context: the call must not end.
      if (finished_ || writing_ || opening_) return;
      if (refused_.has_value() || cancelled_ || end_.has_value()) {
        finished_ = true;
        status = refused_.has_value() ? *refused_
                 : cancelled_         ? grpc::Status::CANCELLED
                                      : ToGrpcStatus(*end_);
        action = Action::kFinish;
      } else if (!open_) {
        return;
      } else if (hello_) {
        hello_ = false;
        message_.Clear();
        message_.set_cursor(domain::EncodeWatchCursor(last_sent_));
        action = Action::kWrite;
      } else if (!catch_up_.empty()) {
        Fill(catch_up_);
        action = Action::kWrite;
      } else if (!catch_up_done_) {
        if (catch_up_reading_) return;
        catch_up_reading_ = true;
        action = Action::kReadCatchUp;
      } else if (!live_.empty()) {
        Fill(live_);
        action = Action::kWrite;
      } else if (heartbeat_) {
        heartbeat_ = false;
        message_.Clear();
        message_.set_cursor(domain::EncodeWatchCursor(last_sent_));
        action = Action::kWrite;
      }
      if (action == Action::kWrite) {
        writing_ = true;
        last_write_ = absl::Now();
        sent_ += message_.events_size();
      }
    }
    switch (action) {
      case Action::kWrite:
        reactor_->StartWrite(&message_);
        break;
      case Action::kFinish:
        log::Info(
            "watch ended",
            {{"request_id", request_id_},
             {"method", method_},
             {"code", absl::StatusCodeToString(
                          static_cast<absl::StatusCode>(status.error_code()))},
             {"events_sent", sent_}});
        // Only the one call that set finished_ gets here, after Open.
        slot_.Reset();
        reactor_->Finish(status);
        break;
      case Action::kReadCatchUp:
        deps_.workers.Post(
            [self = shared_from_this()] { self->ReadCatchUp(); });
        break;
      case Action::kNone:
        break;
    }
  }

  // Moves up to a message's worth of `queue` into message_.
  void Fill(std::deque<SharedEvent>& queue) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    message_.Clear();
    for (int i = 0; i < kMaxEventsPerMessage && !queue.empty(); ++i) {
      const SharedEvent& event = queue.front();
      if (&queue == &live_) live_bytes_ -= event->wire_bytes;
      *message_.add_events() = event->event;
      last_sent_ = event->position;
      queue.pop_front();
    }
    message_.set_cursor(domain::EncodeWatchCursor(last_sent_));
  }

  // On a stream worker: the next page of what the watcher missed.
  void ReadCatchUp() {
    domain::StreamPosition after;
    domain::StreamPosition up_to;
    {
      absl::MutexLock lock(&mu_);
      after = catch_up_after_;
      up_to = catch_up_to_;
    }
    absl::StatusOr<std::vector<storage::StreamEvent>> page;
    switch (selection_.kind) {
      case domain::RecordKind::kQuote:
        page = deps_.events.ListQuotesSince(selection_.symbol_list, after,
                                            up_to, kMaxEventsPerMessage);
        break;
      case domain::RecordKind::kNifty:
        page = deps_.events.ListNiftySince(after, up_to, kMaxEventsPerMessage);
        break;
      case domain::RecordKind::kShortlist:
        page = deps_.events.ListShortlistsSince(selection_.type,
                                                selection_.scope, after, up_to,
                                                kMaxEventsPerMessage);
        break;
    }
    {
      absl::MutexLock lock(&mu_);
      catch_up_reading_ = false;
      if (!page.ok()) {
        if (!end_.has_value()) end_ = page.status();
      } else {
        if (static_cast<int>(page->size()) < kMaxEventsPerMessage) {
          catch_up_done_ = true;
        }
        for (storage::StreamEvent& event : *page) {
          catch_up_after_ = event.position;
          catch_up_.push_back(
              std::make_shared<const storage::StreamEvent>(std::move(event)));
        }
      }
    }
    Pump();
  }

  const WatchDeps deps_;
  grpc::ServerWriteReactor<v1::MarketEvents>* const reactor_;
  // Set by Open before the hub knows the watch, then only read.
  domain::WatchSelection selection_;
  absl::string_view method_;  // the RPC's name, for the log line
  std::string request_id_;

  absl::Mutex mu_;
  bool opening_ ABSL_GUARDED_BY(mu_) = true;
  std::optional<grpc::Status> refused_ ABSL_GUARDED_BY(mu_);  // by Open
  bool open_ ABSL_GUARDED_BY(mu_) = false;
  bool hello_ ABSL_GUARDED_BY(mu_) = true;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<absl::Status> end_ ABSL_GUARDED_BY(mu_);
  // Live records up to this position were sent by the catch-up (or are
  // before the caller's cursor).
  domain::StreamPosition resume_after_ ABSL_GUARDED_BY(mu_) = kBeforeAll;
  domain::StreamPosition last_sent_ ABSL_GUARDED_BY(mu_);
  domain::StreamPosition catch_up_after_ ABSL_GUARDED_BY(mu_);
  domain::StreamPosition catch_up_to_ ABSL_GUARDED_BY(mu_);
  // When the last message was written, and whether a heartbeat is due.
  absl::Time last_write_ ABSL_GUARDED_BY(mu_) = absl::Now();
  bool heartbeat_ ABSL_GUARDED_BY(mu_) = false;
  bool catch_up_done_ ABSL_GUARDED_BY(mu_) = false;
  bool catch_up_reading_ ABSL_GUARDED_BY(mu_) = false;
  std::deque<SharedEvent> catch_up_ ABSL_GUARDED_BY(mu_);
  std::deque<SharedEvent> live_ ABSL_GUARDED_BY(mu_);
  int64_t live_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t sent_ ABSL_GUARDED_BY(mu_) = 0;
  // The message being written; touched only by whoever set writing_.
  v1::MarketEvents message_;
  // Taken by Open, given back by the finish.
  StreamSlot slot_;
};

class WatchReactor final : public grpc::ServerWriteReactor<v1::MarketEvents> {
 public:
  explicit WatchReactor(WatchDeps deps)
      : deps_(deps), watch_(std::make_shared<Watch>(deps, this)) {}

  std::shared_ptr<Watch> watch() const { return watch_; }

  void OnWriteDone(bool ok) override { watch_->WriteDone(ok); }
  void OnCancel() override { watch_->Cancelled(); }
  void OnDone() override {
    deps_.hub.Unsubscribe(watch_.get());
    delete this;
  }

 private:
  const WatchDeps deps_;
  const std::shared_ptr<Watch> watch_;
};

}  // namespace

grpc::ServerWriteReactor<v1::MarketEvents>* StartWatch(
    WatchDeps deps, grpc::CallbackServerContext* context, const RpcFacts& rpc,
    ParseWatch parse) {
  auto* reactor = new WatchReactor(deps);
  deps.workers.Post(
      [watch = reactor->watch(), context, &rpc, parse = std::move(parse)] {
        watch->Open(context, rpc, parse);
      });
  return reactor;
}

}  // namespace mdc

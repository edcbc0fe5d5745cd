#include "service/streams/replay_stream.h"

#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "common/log.h"
#include "domain/stream_requests.h"
#include "mdc/v1/stream.grpc.pb.h"
#include "service/calls/grpc_status.h"

namespace mdc {
namespace {

// The records of one kind, a page at a time.
class Source {
 public:
  Source(domain::RecordKind kind, domain::KeysetBound bound)
      : kind_(kind), bound_(std::move(bound)) {}

  // Refills the buffer from the database when it is empty and more may
  // follow.
  absl::Status Fill(storage::MarketEventRepository& events,
                    const domain::ReplayPlan& plan) {
    if (!buffer_.empty() || exhausted_) return absl::OkStatus();
    absl::StatusOr<std::vector<storage::ReplayRecord>> page;
    switch (kind_) {
      case domain::RecordKind::kQuote:
        page = events.ReplayQuotes(plan.day, plan.symbols, bound_, plan.end,
                                   kReplayPage);
        break;
      case domain::RecordKind::kNifty:
        page = events.ReplayNifty(plan.day, bound_, plan.end, kReplayPage);
        break;
      case domain::RecordKind::kShortlist:
        page = events.ReplayShortlists(plan.day, bound_, plan.end, kReplayPage);
        break;
    }
    if (!page.ok()) return page.status();
    exhausted_ = static_cast<int>(page->size()) < kReplayPage;
    if (!page->empty()) {
      const domain::ReplayPosition& last = page->back().position;
      bound_ = {last.at, last.key1, last.key2};
    }
    for (auto& record : *page) buffer_.push_back(std::move(record));
    return absl::OkStatus();
  }

  bool empty() const { return buffer_.empty(); }
  const domain::ReplayPosition& head() const {
    return buffer_.front().position;
  }
  storage::ReplayRecord& front() { return buffer_.front(); }
  void pop() { buffer_.pop_front(); }

 private:
  const domain::RecordKind kind_;
  domain::KeysetBound bound_;
  bool exhausted_ = false;
  std::deque<storage::ReplayRecord> buffer_;
};

class Replay final : public std::enable_shared_from_this<Replay> {
 public:
  Replay(ReplayDeps deps, grpc::ServerWriteReactor<v1::MarketEvents>* reactor)
      : deps_(deps), reactor_(reactor) {}

  // On a stream worker: authenticate, parse, then produce the first message.
  void Open(grpc::CallbackServerContext* context, const RpcFacts& rpc,
            const v1::ReplayDayRequest& request) {
    method_ = rpc.method;
    grpc::Status answer = deps_.calls.Run(
        context, rpc, [&](const CallContext& call) -> absl::Status {
          request_id_ = call.request_id;
          auto plan = domain::ParseReplayDay(request, call.clock);
          if (!plan.ok()) return plan.status();
          plan_ = *std::move(plan);
          AddSource(domain::RecordKind::kNifty, plan_.nifty);
          AddSource(domain::RecordKind::kQuote, plan_.quotes);
          AddSource(domain::RecordKind::kShortlist, plan_.shortlists);
          return absl::OkStatus();
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
  void AddSource(domain::RecordKind kind, bool wanted) {
    if (!wanted) return;
    sources_.emplace_back(kind, plan_.cursor.has_value()
                                    ? domain::ResumeBound(*plan_.cursor, kind)
                                    : domain::DayStartBound(plan_.day_start));
  }

  // On a stream worker: merges the next message out of the sources.
  void Produce() {
    v1::MarketEvents message;
    absl::Status status;
    while (message.events_size() < kReplayEventsPerMessage) {
      Source* next = nullptr;
      for (Source& source : sources_) {
        status = source.Fill(deps_.events, plan_);
        if (!status.ok()) break;
        if (!source.empty() &&
            (next == nullptr || source.head() < next->head())) {
          next = &source;
        }
      }
      if (!status.ok() || next == nullptr) break;
      *message.add_events() = std::move(next->front().event);
      next->pop();
    }
    {
      absl::MutexLock lock(&mu_);
      producing_ = false;
      if (!status.ok()) {
        end_ = ToGrpcStatus(status);
      } else if (message.events_size() == 0) {
        end_ = grpc::Status::OK;
      } else {
        message.set_cursor(message.events(message.events_size() - 1).cursor());
        ready_ = std::move(message);
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
        sent_ += message_.events_size();
        if (!producing_ && !end_.has_value()) produce = producing_ = true;
      } else if (end_.has_value() && !producing_) {
        finish = *end_;
      }
      if (finish.has_value()) finished_ = true;
    }
    if (produce) {
      deps_.workers.Post([self = shared_from_this()] { self->Produce(); });
    }
    if (write) reactor_->StartWrite(&message_);
    if (finish.has_value()) {
      log::Info(
          "replay ended",
          {{"request_id", request_id_},
           {"method", method_},
           {"code", absl::StatusCodeToString(
                        static_cast<absl::StatusCode>(finish->error_code()))},
           {"events_sent", sent_}});
      reactor_->Finish(*finish);
    }
  }

  const ReplayDeps deps_;
  grpc::ServerWriteReactor<v1::MarketEvents>* const reactor_;
  absl::string_view method_;  // the RPC's name, for the log line
  std::string request_id_;
  // Used by one Produce at a time.
  domain::ReplayPlan plan_;
  std::vector<Source> sources_;

  absl::Mutex mu_;
  bool opening_ ABSL_GUARDED_BY(mu_) = true;
  bool producing_ ABSL_GUARDED_BY(mu_) = true;  // Open runs first
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> end_ ABSL_GUARDED_BY(mu_);
  std::optional<v1::MarketEvents> ready_ ABSL_GUARDED_BY(mu_);
  int64_t sent_ ABSL_GUARDED_BY(mu_) = 0;
  v1::MarketEvents message_;  // being written; touched by whoever set writing_
};

class ReplayReactor final : public grpc::ServerWriteReactor<v1::MarketEvents> {
 public:
  explicit ReplayReactor(ReplayDeps deps)
      : replay_(std::make_shared<Replay>(deps, this)) {}

  std::shared_ptr<Replay> replay() const { return replay_; }

  void OnWriteDone(bool ok) override { replay_->WriteDone(ok); }
  void OnCancel() override { replay_->Cancelled(); }
  void OnDone() override { delete this; }

 private:
  const std::shared_ptr<Replay> replay_;
};

}  // namespace

grpc::ServerWriteReactor<v1::MarketEvents>* StartReplay(
    ReplayDeps deps, grpc::CallbackServerContext* context, const RpcFacts& rpc,
    const v1::ReplayDayRequest& request) {
  auto* reactor = new ReplayReactor(deps);
  deps.workers.Post([replay = reactor->replay(), context, &rpc, request] {
    replay->Open(context, rpc, request);
  });
  return reactor;
}

}  // namespace mdc

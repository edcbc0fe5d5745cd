#include "service/streams/replay_stream.h"

#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "domain/instrument_series.h"
#include "domain/stream_requests.h"
#include "mdc/v1/stream.grpc.pb.h"
#include "service/api/instrument_series.h"
#include "service/streams/paged_stream.h"

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

// The day's records merged from one source per kind.
class ReplaySource final : public MessageSource<v1::MarketEvents> {
 public:
  ReplaySource(storage::MarketEventRepository& events,
               storage::InstrumentRepository& instruments,
               v1::ReplayDayRequest request)
      : events_(events),
        instruments_(instruments),
        request_(std::move(request)) {}

  absl::Status Open(const CallContext& call) override {
    auto plan = domain::ParseReplayDay(request_, call.clock);
    if (!plan.ok()) return plan.status();
    plan_ = *std::move(plan);
    if (absl::Status followed = FollowRenames(); !followed.ok()) {
      return followed;
    }
    AddSource(domain::RecordKind::kNifty, plan_.nifty);
    AddSource(domain::RecordKind::kQuote, plan_.quotes);
    AddSource(domain::RecordKind::kShortlist, plan_.shortlists);
    return absl::OkStatus();
  }

  // Merges the next message out of the sources.
  absl::StatusOr<std::optional<v1::MarketEvents>> Next() override {
    v1::MarketEvents message;
    while (message.events_size() < kReplayEventsPerMessage) {
      Source* next = nullptr;
      for (Source& source : sources_) {
        if (auto filled = source.Fill(events_, plan_); !filled.ok()) {
          return filled;
        }
        if (!source.empty() &&
            (next == nullptr || source.head() < next->head())) {
          next = &source;
        }
      }
      if (next == nullptr) break;
      *message.add_events() = std::move(next->front().event);
      next->pop();
    }
    if (message.events_size() == 0) return std::nullopt;
    message.set_cursor(message.events(message.events_size() - 1).cursor());
    return message;
  }

  int64_t Count(const v1::MarketEvents& message) const override {
    return message.events_size();
  }

 private:
  // Replaces each listed symbol the security master knows by its
  // instrument's symbol of the day, so the old and the new symbol replay
  // the same records. When no listed symbol names anything that day, the
  // day has no quotes to replay (an empty list would mean every symbol).
  absl::Status FollowRenames() {
    if (plan_.symbols.empty()) return absl::OkStatus();
    std::vector<std::optional<domain::SymbolHistory>> histories;
    for (const std::string& symbol : plan_.symbols) {
      auto history = HistoryOfSymbol(symbol, instruments_);
      if (!history.ok()) return history.status();
      histories.push_back(*std::move(history));
    }
    plan_.symbols = domain::SymbolsOnDay(plan_.symbols, histories, plan_.day);
    if (plan_.symbols.empty()) plan_.quotes = false;
    return absl::OkStatus();
  }

  void AddSource(domain::RecordKind kind, bool wanted) {
    if (!wanted) return;
    sources_.emplace_back(kind, plan_.cursor.has_value()
                                    ? domain::ResumeBound(*plan_.cursor, kind)
                                    : domain::DayStartBound(plan_.day_start));
  }

  storage::MarketEventRepository& events_;
  storage::InstrumentRepository& instruments_;
  const v1::ReplayDayRequest request_;
  domain::ReplayPlan plan_;
  std::vector<Source> sources_;
};

}  // namespace

grpc::ServerWriteReactor<v1::MarketEvents>* StartReplay(
    ReplayDeps deps, grpc::CallbackServerContext* context, const RpcFacts& rpc,
    const v1::ReplayDayRequest& request) {
  return StartPagedStream<v1::MarketEvents>(
      deps.calls, deps.workers, {deps.slots, domain::StreamKind::kReplay},
      context, rpc,
      std::make_unique<ReplaySource>(deps.events, deps.instruments, request),
      {"replay ended", "events_sent"});
}

}  // namespace mdc

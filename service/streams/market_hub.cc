#include "service/streams/market_hub.h"

#include <algorithm>
#include <utility>

#include "absl/time/clock.h"
#include "common/log.h"
#include "storage/notification_listener.h"

namespace mdc {
namespace {

constexpr char kChannel[] = "mdc_market_events";
// Records read per round trip.
constexpr int kPage = 1000;
// How often the thread looks up from waiting (to notice Stop).
constexpr absl::Duration kTick = absl::Milliseconds(250);
// Between attempts to reach the database again.
constexpr absl::Duration kRetry = absl::Seconds(1);

}  // namespace

MarketHub::MarketHub(std::string database_url,
                     storage::MarketEventRepository& events)
    : database_url_(std::move(database_url)), events_(events) {}

MarketHub::~MarketHub() { Stop(); }

void MarketHub::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void MarketHub::Stop() {
  std::vector<std::shared_ptr<HubSubscriber>> closing;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    closing.swap(subscribers_);
  }
  for (auto& subscriber : closing) subscriber->Close();
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<int64_t> MarketHub::Subscribe(
    std::shared_ptr<HubSubscriber> subscriber) {
  absl::MutexLock lock(&mu_);
  if (stopping_) {
    return absl::UnavailableError("the server is shutting down; retry");
  }
  if (!last_seq_.has_value()) {
    return absl::UnavailableError("database unavailable");
  }
  subscribers_.push_back(std::move(subscriber));
  return *last_seq_;
}

void MarketHub::Unsubscribe(HubSubscriber* subscriber) {
  absl::MutexLock lock(&mu_);
  subscribers_.erase(
      std::remove_if(subscribers_.begin(), subscribers_.end(),
                     [&](const auto& s) { return s.get() == subscriber; }),
      subscribers_.end());
}

int MarketHub::subscribers() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(subscribers_.size());
}

void MarketHub::Loop() {
  std::unique_ptr<storage::NotificationListener> listener;
  auto stopping = [this] {
    absl::MutexLock lock(&mu_);
    return stopping_;
  };
  while (!stopping()) {
    if (listener == nullptr) {
      auto opened =
          storage::NotificationListener::Open(database_url_, kChannel);
      if (!opened.ok()) {
        absl::SleepFor(kRetry);
        continue;
      }
      listener = *std::move(opened);
      // Listening first, then reading: whatever commits from here on
      // notifies, and whatever committed before is read now.
      bool known;
      {
        absl::MutexLock lock(&mu_);
        known = last_seq_.has_value();
      }
      if (!known) {
        auto latest = events_.LatestSeq();
        if (!latest.ok()) {
          listener.reset();
          absl::SleepFor(kRetry);
          continue;
        }
        absl::MutexLock lock(&mu_);
        last_seq_ = *latest;
        log::Info("market hub listening", {{"seq", *latest}});
      } else {
        log::Info("market hub listening again; catching up");
      }
      if (!CatchUp()) {
        listener.reset();
        continue;
      }
    }
    auto notified = listener->Wait(kTick);
    if (!notified.ok()) {
      log::Warning("market hub lost its database connection; reconnecting");
      listener.reset();
      continue;
    }
    if (*notified > 0 && !CatchUp()) listener.reset();
  }
}

bool MarketHub::CatchUp() {
  while (true) {
    int64_t after;
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return true;
      after = *last_seq_;
    }
    auto page = events_.ListSince(after, kPage);
    if (!page.ok()) {
      log::Warning("market hub cannot read new records",
                   {{"error", page.status().ToString()}});
      absl::SleepFor(kRetry);
      return false;
    }
    const bool full = static_cast<int>(page->size()) == kPage;
    if (!page->empty()) Offer(*std::move(page));
    if (!full) return true;
  }
}

void MarketHub::Offer(std::vector<storage::SeqEvent> events) {
  std::vector<SharedEvent> shared;
  shared.reserve(events.size());
  for (auto& event : events) {
    shared.push_back(
        std::make_shared<const storage::SeqEvent>(std::move(event)));
  }
  std::vector<std::shared_ptr<HubSubscriber>> offered;
  {
    absl::MutexLock lock(&mu_);
    std::vector<SharedEvent> selected;
    std::vector<std::shared_ptr<HubSubscriber>> keep;
    keep.reserve(subscribers_.size());
    for (auto& subscriber : subscribers_) {
      selected.clear();
      const domain::WatchSelection& selection = subscriber->selection();
      for (const SharedEvent& event : shared) {
        if (selection.Selects(event->event)) selected.push_back(event);
      }
      if (selected.empty()) {
        keep.push_back(subscriber);
        continue;
      }
      if (subscriber->Offer(selected)) keep.push_back(subscriber);
      offered.push_back(subscriber);
    }
    subscribers_.swap(keep);
    last_seq_ = shared.back()->seq;
  }
  for (auto& subscriber : offered) subscriber->Flush();
}

}  // namespace mdc

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
// The longest the hub waits between reads (with subscribers), and between
// ticks of its subscribers.
constexpr absl::Duration kTick = absl::Milliseconds(250);
// While committed records wait behind an open older transaction, the hub
// reads again after this, doubling up to kHeldBackMax.
constexpr absl::Duration kHeldBackFirst = absl::Milliseconds(1);
constexpr absl::Duration kHeldBackMax = absl::Milliseconds(100);
// At most one NOTIFY per this: under a steady stream of commits the other
// servers hear of them this often, and PostgreSQL's notification queue
// (whose commit lock serialises notifying transactions) is barely used.
constexpr absl::Duration kNotifyGap = absl::Milliseconds(5);
// Between attempts to reach the database again.
constexpr absl::Duration kRetry = absl::Seconds(1);

}  // namespace

MarketHub::MarketHub(std::string database_url,
                     storage::MarketEventRepository& events,
                     WakeSignal& commits)
    : database_url_(std::move(database_url)),
      events_(events),
      commits_(commits) {}

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
  commits_.Raise();  // wakes the thread
  if (thread_.joinable()) thread_.join();
}

absl::StatusOr<domain::StreamPosition> MarketHub::Subscribe(
    std::shared_ptr<HubSubscriber> subscriber) {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) {
      return absl::UnavailableError("the server is shutting down; retry");
    }
    if (position_.has_value()) {
      subscribers_.push_back(std::move(subscriber));
      return *position_;
    }
  }
  // An idle hub does not know where the stream is: ask the database.
  auto latest = events_.LatestPosition();
  if (!latest.ok()) return absl::UnavailableError("database unavailable");
  absl::MutexLock lock(&mu_);
  if (stopping_) {
    return absl::UnavailableError("the server is shutting down; retry");
  }
  // Another subscriber may have set it meanwhile: the hub reads from there.
  if (!position_.has_value()) position_ = *latest;
  subscribers_.push_back(std::move(subscriber));
  return *position_;
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
  bool held_back = false;
  absl::Duration held_back_wait = kHeldBackFirst;
  bool notify_pending = false;
  absl::Time last_notify = absl::InfinitePast();
  absl::Time next_tick = absl::Now() + kTick;
  while (!stopping()) {
    if (listener == nullptr) {
      auto opened =
          storage::NotificationListener::Open(database_url_, kChannel);
      if (!opened.ok()) {
        // Live watches stay open through a database restart: they still
        // get their heartbeats.
        TickSubscribers();
        absl::SleepFor(kRetry);
        continue;
      }
      listener = *std::move(opened);
      log::Info("market hub listening");
      // Listening first, then reading: whatever commits from here on is
      // announced, and whatever committed before is read now.
      if (!CatchUp(held_back)) {
        listener.reset();
        continue;
      }
    }
    const absl::Time now = absl::Now();
    absl::Duration wait = std::max(absl::ZeroDuration(), next_tick - now);
    if (held_back) wait = std::min(wait, held_back_wait);
    int wake_fd = commits_.fd();
    if (notify_pending) {
      wait = std::min(
          wait, std::max(absl::ZeroDuration(), last_notify + kNotifyGap - now));
      // A NOTIFY is already due at the end of the gap, and it will announce
      // every commit made until then: with nobody here to read for, further
      // commits need not wake the hub (under a stream of writes that was a
      // wake-up per batch).
      if (subscribers() == 0) wake_fd = -1;
    }
    auto notified = listener->Wait(wait, wake_fd);
    if (!notified.ok()) {
      log::Warning("market hub lost its database connection; reconnecting");
      listener.reset();
      continue;
    }
    if (wake_fd >= 0 && commits_.Take()) notify_pending = true;
    // This server's watchers first, then the other servers' hubs.
    const bool was_held_back = held_back;
    if (!CatchUp(held_back)) {
      listener.reset();
      continue;
    }
    if (notify_pending && absl::Now() >= last_notify + kNotifyGap) {
      if (!listener->Notify().ok()) {
        listener.reset();
        continue;
      }
      notify_pending = false;
      last_notify = absl::Now();
    }
    held_back_wait = held_back && was_held_back
                         ? std::min(held_back_wait * 2, kHeldBackMax)
                         : kHeldBackFirst;
    if (absl::Now() >= next_tick) {
      TickSubscribers();
      next_tick = absl::Now() + kTick;
    }
  }
}

bool MarketHub::CatchUp(bool& held_back) {
  held_back = false;
  while (true) {
    domain::StreamPosition after;
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return true;
      if (subscribers_.empty()) {
        // Nobody to read for; the next subscriber asks the database where
        // the stream is.
        position_.reset();
        return true;
      }
      after = *position_;
    }
    auto page = events_.ListCommitted(after, kPage);
    if (!page.ok()) {
      log::Warning("market hub cannot read new records",
                   {{"error", page.status().ToString()}});
      absl::SleepFor(kRetry);
      return false;
    }
    held_back = page->held_back;
    const bool full = static_cast<int>(page->events.size()) == kPage;
    if (!page->events.empty()) Offer(std::move(page->events));
    if (!full) return true;
  }
}

void MarketHub::Offer(std::vector<storage::StreamEvent> events) {
  std::vector<SharedEvent> shared;
  shared.reserve(events.size());
  for (auto& event : events) {
    shared.push_back(
        std::make_shared<const storage::StreamEvent>(std::move(event)));
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
    // Subscribers that joined while the page was read get it too: they
    // start before it (position_ had not moved).
    position_ = shared.back()->position;
  }
  for (auto& subscriber : offered) subscriber->Flush();
}

void MarketHub::TickSubscribers() {
  std::vector<std::shared_ptr<HubSubscriber>> ticked;
  domain::StreamPosition offered;
  {
    absl::MutexLock lock(&mu_);
    if (!position_.has_value()) return;
    ticked = subscribers_;
    offered = *position_;
  }
  const absl::Time now = absl::Now();
  for (auto& subscriber : ticked) subscriber->Tick(now, offered);
}

}  // namespace mdc

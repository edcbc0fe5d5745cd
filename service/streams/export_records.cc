// Exports of stored records (quotes, NIFTY quotes, shortlists): the days of
// the range one after the other, each read in keyset pages of the replay's
// (trading_day, observed_at, key) indexes.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/export_requests.h"
#include "domain/stream_cursors.h"
#include "domain/time.h"
#include "service/streams/export_sources.h"

namespace mdc {
namespace {

// One page of one day's records of a kind: (stores, day, after this bound,
// before `end`, at most `limit`).
using ReadDayPage =
    std::function<absl::StatusOr<std::vector<storage::ReplayRecord>>(
        const ExportStores&, absl::CivilDay, const domain::KeysetBound&,
        absl::Time end, int limit)>;

// The pages of one kind of record over the days of an export.
class DayPages {
 public:
  DayPages(ExportReader reader, ReadDayPage read)
      : reader_(reader), read_(std::move(read)) {}

  void Start(const domain::ExportDays& days) {
    days_ = days;
    day_ = days.first;
    bound_ = domain::DayStartBound(days.start);
  }

  // The next non-empty page and its day; an empty page at the end.
  absl::StatusOr<std::vector<storage::ReplayRecord>> Next(absl::CivilDay& day) {
    while (day_ <= days_.last && domain::DayStart(day_) < days_.end) {
      const absl::Time day_end =
          std::min(domain::DayStart(day_ + 1), days_.end);
      std::vector<storage::ReplayRecord> page;
      absl::Status read = reader_.reads.Read(
          reader_.from, [&](const ExportStores& stores) -> absl::Status {
            auto rows = read_(stores, day_, bound_, day_end, kExportPage);
            if (!rows.ok()) return rows.status();
            page = *std::move(rows);
            return absl::OkStatus();
          });
      if (!read.ok()) return read;
      day = day_;
      if (static_cast<int>(page.size()) < kExportPage) {
        day_ += 1;
        bound_ = domain::DayStartBound(domain::DayStart(day_));
      } else {
        const domain::ReplayPosition& last = page.back().position;
        bound_ = {last.at, last.key1, last.key2};
      }
      if (!page.empty()) return page;
    }
    return std::vector<storage::ReplayRecord>();
  }

 private:
  const ExportReader reader_;
  const ReadDayPage read_;
  domain::ExportDays days_;
  absl::CivilDay day_;
  domain::KeysetBound bound_;
};

// Moves the record of `event` into `out`.
void MoveRecord(v1::MarketEvent& event, v1::ExportRecord& out) {
  switch (event.record_case()) {
    case v1::MarketEvent::kQuote:
      *out.mutable_quote() = std::move(*event.mutable_quote());
      break;
    case v1::MarketEvent::kNifty:
      *out.mutable_nifty() = std::move(*event.mutable_nifty());
      break;
    case v1::MarketEvent::kShortlist:
      *out.mutable_shortlist() = std::move(*event.mutable_shortlist());
      break;
    case v1::MarketEvent::RECORD_NOT_SET:
      break;
  }
}

// Parses the request under the call's clock: the days, and how one page of
// a day is read and which of its records are kept.
struct RecordPlan {
  domain::ExportDays days;
  ReadDayPage read;
  std::function<bool(const v1::MarketEvent&)> keep;
};
using PlanRecords =
    std::function<absl::StatusOr<RecordPlan>(const domain::BacktestClock&)>;

class RecordExport final : public MessageSource<v1::ExportChunk> {
 public:
  RecordExport(ExportReader reader, PlanRecords plan)
      : reader_(reader), plan_(std::move(plan)) {}

  absl::Status Open(const CallContext& call) override {
    auto plan = plan_(call.clock);
    if (!plan.ok()) return plan.status();
    keep_ = std::move(plan->keep);
    pages_.emplace(reader_, std::move(plan->read));
    pages_->Start(plan->days);
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<v1::ExportChunk>> Next() override {
    while (true) {
      absl::CivilDay day;
      auto page = pages_->Next(day);
      if (!page.ok()) return page.status();
      if (page->empty()) return std::nullopt;
      v1::ExportChunk chunk;
      const std::string trading_day = domain::FormatDate(day);
      for (storage::ReplayRecord& record : *page) {
        if (keep_ && !keep_(record.event)) continue;
        v1::ExportRecord* out = chunk.add_records();
        out->set_trading_day(trading_day);
        MoveRecord(record.event, *out);
      }
      if (chunk.records_size() > 0) return chunk;
    }
  }

  int64_t Count(const v1::ExportChunk& chunk) const override {
    return chunk.records_size();
  }

 private:
  const ExportReader reader_;
  const PlanRecords plan_;
  std::function<bool(const v1::MarketEvent&)> keep_;
  std::optional<DayPages> pages_;
};

}  // namespace

std::unique_ptr<MessageSource<v1::ExportChunk>> QuoteExport(
    ExportReader reader, v1::ExportQuotesRequest request) {
  return std::make_unique<RecordExport>(
      reader,
      [request = std::move(request)](
          const domain::BacktestClock& clock) -> absl::StatusOr<RecordPlan> {
        auto parsed = domain::ParseExportQuotes(request, clock);
        if (!parsed.ok()) return parsed.status();
        RecordPlan plan;
        plan.days = parsed->days;
        plan.read = [symbols = std::move(parsed->symbols)](
                        const ExportStores& stores, absl::CivilDay day,
                        const domain::KeysetBound& bound, absl::Time end,
                        int limit) {
          return stores.events.ReplayQuotes(day, symbols, bound, end, limit);
        };
        return plan;
      });
}

std::unique_ptr<MessageSource<v1::ExportChunk>> NiftyExport(
    ExportReader reader, v1::ExportNiftyRequest request) {
  return std::make_unique<RecordExport>(
      reader,
      [request = std::move(request)](
          const domain::BacktestClock& clock) -> absl::StatusOr<RecordPlan> {
        auto days = domain::ParseExportNifty(request, clock);
        if (!days.ok()) return days.status();
        RecordPlan plan;
        plan.days = *days;
        plan.read = [](const ExportStores& stores, absl::CivilDay day,
                       const domain::KeysetBound& bound, absl::Time end,
                       int limit) {
          return stores.events.ReplayNifty(day, bound, end, limit);
        };
        return plan;
      });
}

std::unique_ptr<MessageSource<v1::ExportChunk>> ShortlistExport(
    ExportReader reader, v1::ExportShortlistsRequest request) {
  return std::make_unique<RecordExport>(
      reader,
      [request = std::move(request)](
          const domain::BacktestClock& clock) -> absl::StatusOr<RecordPlan> {
        auto parsed = domain::ParseExportShortlists(request, clock);
        if (!parsed.ok()) return parsed.status();
        RecordPlan plan;
        plan.days = parsed->days;
        plan.read = [](const ExportStores& stores, absl::CivilDay day,
                       const domain::KeysetBound& bound, absl::Time end,
                       int limit) {
          return stores.events.ReplayShortlists(day, bound, end, limit);
        };
        plan.keep = [selection =
                         *std::move(parsed)](const v1::MarketEvent& event) {
          return domain::Selects(selection, event.shortlist());
        };
        return plan;
      });
}

}  // namespace mdc

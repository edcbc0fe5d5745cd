// Exports of stored records (quotes, NIFTY quotes, shortlists): the days of
// the range one after the other, each read in keyset pages of the replay's
// (trading_day, observed_at, key) indexes.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/export_requests.h"
#include "domain/instrument_series.h"
#include "domain/quote_adjustment.h"
#include "domain/stream_cursors.h"
#include "domain/time.h"
#include "google/protobuf/unknown_field_set.h"
#include "service/api/adjusted_reads.h"
#include "service/api/instrument_series.h"
#include "service/streams/export_sources.h"

namespace mdc {
namespace {

// One page of one day's records of a kind: (stores, day, after this bound,
// before `end`, at most `limit`).
using ReadDayPage = std::function<absl::StatusOr<storage::StoredRecordPage>(
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

  // The next non-empty page and its day; nullopt at the end.
  absl::StatusOr<std::optional<storage::StoredRecordPage>> Next(
      absl::CivilDay& day) {
    while (day_ <= days_.last && domain::DayStart(day_) < days_.end) {
      const absl::Time day_end =
          std::min(domain::DayStart(day_ + 1), days_.end);
      std::optional<storage::StoredRecordPage> page;
      absl::Status read = reader_.reads.Read(
          reader_.from, [&](const ExportStores& stores) -> absl::Status {
            auto rows = read_(stores, day_, bound_, day_end, kExportPage);
            if (!rows.ok()) return rows.status();
            page.emplace(*std::move(rows));
            return absl::OkStatus();
          });
      if (!read.ok()) return read;
      day = day_;
      if (page->size() < kExportPage) {
        day_ += 1;
        bound_ = domain::DayStartBound(domain::DayStart(day_));
      } else {
        bound_ = page->BoundAfter(page->size() - 1);
      }
      if (page->size() > 0) return page;
    }
    return std::nullopt;
  }

 private:
  const ExportReader reader_;
  const ReadDayPage read_;
  domain::ExportDays days_;
  absl::CivilDay day_;
  domain::KeysetBound bound_;
};

// Fills `out` with row `row` of `page`.
using FillRecord = std::function<absl::Status(
    const storage::StoredRecordPage& page, int row, v1::ExportRecord& out)>;

// Parses the request under the call's clock: the days, how one page of a
// day is read, how a row of it fills a record, and which records are kept.
struct RecordPlan {
  domain::ExportDays days;
  ReadDayPage read;
  FillRecord fill;
  std::function<bool(const v1::ExportRecord&)> keep;  // unset: every one
};
using PlanRecords =
    std::function<absl::StatusOr<RecordPlan>(const domain::BacktestClock&)>;

class RecordExport final : public MessageSource<ExportMessage> {
 public:
  RecordExport(ExportReader reader, PlanRecords plan)
      : reader_(reader), plan_(std::move(plan)) {}

  absl::Status Open(const CallContext& call) override {
    auto plan = plan_(call.clock);
    if (!plan.ok()) return plan.status();
    fill_ = std::move(plan->fill);
    keep_ = std::move(plan->keep);
    pages_.emplace(reader_, std::move(plan->read));
    pages_->Start(plan->days);
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ExportMessage>> Next() override {
    while (true) {
      absl::CivilDay day;
      auto page = pages_->Next(day);
      if (!page.ok()) return page.status();
      if (!page->has_value()) return std::nullopt;
      const storage::StoredRecordPage& rows = **page;
      ExportMessage message = NewExportMessage();
      v1::ExportChunk& chunk = *message;
      chunk.mutable_records()->Reserve(rows.size());
      const std::string trading_day = domain::FormatDate(day);
      for (int row = 0; row < rows.size(); ++row) {
        v1::ExportRecord* out = chunk.add_records();
        if (absl::Status filled = fill_(rows, row, *out); !filled.ok()) {
          return filled;
        }
        if (keep_ && !keep_(*out)) {
          chunk.mutable_records()->RemoveLast();
          continue;
        }
        out->set_trading_day(trading_day);
      }
      if (chunk.records_size() > 0) return message;
    }
  }

  int64_t Count(const ExportMessage& message) const override {
    return message->records_size();
  }

 private:
  const ExportReader reader_;
  const PlanRecords plan_;
  FillRecord fill_;
  std::function<bool(const v1::ExportRecord&)> keep_;
  std::optional<DayPages> pages_;
};

// The instruments of a quote export's listed symbols: each symbol's
// history (nullopt: unknown to the security master) and, adjusted, the
// factors of every symbol of each instrument, by stored symbol.
struct ListedInstruments {
  bool resolved = false;
  std::vector<std::optional<domain::SymbolHistory>> histories;
  absl::flat_hash_map<std::string, domain::AdjustmentFactors> factors;

  absl::Status Resolve(const std::vector<std::string>& symbols,
                       domain::Adjustment adjustment, absl::CivilDay as_of,
                       const ExportStores& stores) {
    for (const std::string& symbol : symbols) {
      auto resolved =
          AdjustedSymbolOf(adjustment, symbol, as_of, stores.instruments,
                           stores.quotes, stores.nifty, "symbols");
      if (!resolved.ok()) return resolved.status();
      if (adjustment != domain::Adjustment::kRaw &&
          resolved->history.has_value()) {
        for (const domain::SymbolPeriod& period : *resolved->history) {
          factors.insert_or_assign(period.symbol, resolved->factors);
        }
      }
      histories.push_back(std::move(resolved->history));
    }
    resolved = true;
    return absl::OkStatus();
  }

  // Multiplies the stored QuoteData CopyTo forwarded (as bytes) by its
  // symbol's factors: parsed, adjusted and set as the quote's own field.
  absl::Status Adjust(v1::StockQuote& quote) const {
    auto it = factors.find(quote.nse_symbol());
    if (it == factors.end()) return absl::OkStatus();
    google::protobuf::UnknownFieldSet* unknown =
        quote.GetReflection()->MutableUnknownFields(&quote);
    v1::QuoteData data;
    for (int i = 0; i < unknown->field_count(); ++i) {
      const google::protobuf::UnknownField& f = unknown->field(i);
      if (f.number() == v1::StockQuote::kQuoteDataFieldNumber &&
          f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED &&
          !data.ParseFromString(f.length_delimited())) {
        return absl::DataLossError(absl::StrCat(
            "a stored quote of ", quote.nse_symbol(), " does not parse"));
      }
    }
    unknown->Clear();
    *quote.mutable_quote_data() = std::move(data);
    domain::AdjustQuote(it->second, &quote);
    return absl::OkStatus();
  }
};

}  // namespace

ExportMessage NewExportMessage() {
  // A chunk of a thousand quotes takes about 220 KB of its arena (the
  // records, their timestamps, strings and unknown-field sets; the
  // forwarded QuoteData bytes are allocated apart): blocks growing to 64 KiB
  // make that a handful of allocations.
  google::protobuf::ArenaOptions options;
  options.start_block_size = 8 << 10;
  options.max_block_size = 64 << 10;
  return ExportMessage(options);
}

std::unique_ptr<MessageSource<ExportMessage>> QuoteExport(
    ExportReader reader, v1::ExportQuotesRequest request) {
  return std::make_unique<RecordExport>(
      reader,
      [request = std::move(request)](
          const domain::BacktestClock& clock) -> absl::StatusOr<RecordPlan> {
        auto parsed = domain::ParseExportQuotes(request, clock);
        if (!parsed.ok()) return parsed.status();
        RecordPlan plan;
        plan.days = parsed->days;
        // Listed symbols the security master knows stand for their
        // instrument: each day reads the symbol it had that day
        // (docs/api.md section 13.5). Resolved at the first page, with the
        // factors of an adjusted export (an unknown symbol is then a 400
        // before any record). Every symbol (none listed) is exported as
        // stored.
        auto listed = std::make_shared<ListedInstruments>();
        const domain::Adjustment adjustment = parsed->adjustment;
        // Point in time: the actions known on the export's day.
        const absl::CivilDay as_of = domain::TradingDay(clock.Now(absl::Now()));
        plan.read =
            [symbols = std::move(parsed->symbols), listed, adjustment, as_of](
                const ExportStores& stores, absl::CivilDay day,
                const domain::KeysetBound& bound, absl::Time end,
                int limit) -> absl::StatusOr<storage::StoredRecordPage> {
          if (symbols.empty()) {
            return stores.events.ExportQuotes(day, symbols, bound, end, limit);
          }
          if (!listed->resolved) {
            absl::Status resolved =
                listed->Resolve(symbols, adjustment, as_of, stores);
            if (!resolved.ok()) return resolved;
          }
          const std::vector<std::string> of_day =
              domain::SymbolsOnDay(symbols, listed->histories, day);
          // No symbol of the list that day: an empty page (no statement).
          if (of_day.empty()) {
            return storage::StoredRecordPage(storage::Result(nullptr));
          }
          return stores.events.ExportQuotes(day, of_day, bound, end, limit);
        };
        plan.fill = [listed, adjustment](const storage::StoredRecordPage& page,
                                         int row, v1::ExportRecord& out) {
          v1::StockQuote& quote = *out.mutable_quote();
          page.CopyTo(row, quote);
          if (adjustment == domain::Adjustment::kRaw) return absl::OkStatus();
          out.set_adjustment(std::string(domain::AdjustmentName(adjustment)));
          return listed->Adjust(quote);
        };
        return plan;
      });
}

std::unique_ptr<MessageSource<ExportMessage>> NiftyExport(
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
          return stores.events.ExportNifty(day, bound, end, limit);
        };
        plan.fill = [](const storage::StoredRecordPage& page, int row,
                       v1::ExportRecord& out) {
          page.CopyTo(row, *out.mutable_nifty());
          return absl::OkStatus();
        };
        return plan;
      });
}

std::unique_ptr<MessageSource<ExportMessage>> ShortlistExport(
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
          return stores.events.ExportShortlists(day, bound, end, limit);
        };
        plan.fill = [](const storage::StoredRecordPage& page, int row,
                       v1::ExportRecord& out) {
          return page.CopyTo(row, *out.mutable_shortlist());
        };
        plan.keep = [selection =
                         *std::move(parsed)](const v1::ExportRecord& record) {
          return domain::Selects(selection, record.shortlist());
        };
        return plan;
      });
}

}  // namespace mdc

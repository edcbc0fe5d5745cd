// The candle export: symbol after symbol (the ones asked for, or every
// stock symbol of the range's months, found by a loose scan of the primary
// key), each symbol's priced quotes of the range read in keyset pages of
// the primary key (index-only: it includes last_price and volume) and
// turned into candles as they come, so at most a page of points and the
// candle still growing are held per export.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "domain/candles.h"
#include "domain/export_requests.h"
#include "domain/time.h"
#include "service/api/adjusted_reads.h"
#include "service/api/instrument_series.h"
#include "service/api/market_reads.h"
#include "service/streams/export_sources.h"

namespace mdc {
namespace {

// Price points read per page, and candidate symbols per page of "every
// symbol".
constexpr int kPointPage = 5000;
constexpr int kSymbolPage = 500;

class CandleSource final : public MessageSource<ExportMessage> {
 public:
  CandleSource(ExportReader reader, v1::ExportCandlesRequest request)
      : reader_(reader), request_(std::move(request)) {}

  absl::Status Open(const CallContext& call) override {
    auto plan = domain::ParseExportCandles(request_, call.clock);
    if (!plan.ok()) return plan.status();
    plan_ = *std::move(plan);
    every_symbol_ = plan_.symbols.empty();
    if (plan_.adjustment == domain::Adjustment::kRaw) return absl::OkStatus();
    // Point in time: the actions known on the export's day. Every listed
    // symbol's factors before the first record, so an unknown one is a 400
    // and never a file broken off.
    const absl::CivilDay as_of =
        domain::TradingDay(call.clock.Now(absl::Now()));
    return reader_.reads.Read(
        reader_.from, [&](const ExportStores& stores) -> absl::Status {
          for (const std::string& symbol : plan_.symbols) {
            auto factors = AdjustmentFor(plan_.adjustment, symbol, as_of,
                                         stores.instruments, stores.quotes,
                                         stores.nifty, "symbols");
            if (!factors.ok()) return factors.status();
            factors_.push_back(*std::move(factors));
          }
          return absl::OkStatus();
        });
  }

  absl::StatusOr<std::optional<ExportMessage>> Next() override {
    ExportMessage chunk = NewExportMessage();
    while (chunk->records_size() < kExportPage) {
      if (!symbol_.has_value()) {
        auto next = NextSymbol();
        if (!next.ok()) return next.status();
        if (!next->has_value()) break;
        symbol_ = **next;
        builder_.emplace(plan_.interval);
        after_.reset();
        absl::Status resolved = ResolveInstrument();
        if (!resolved.ok()) return resolved;
        if (instrument_done_) {
          symbol_.reset();  // another symbol of an instrument exported
          continue;
        }
      }
      std::vector<domain::PricePoint> points;
      absl::Status read = reader_.reads.Read(
          reader_.from, [&](const ExportStores& stores) -> absl::Status {
            const SymbolSeries series(*symbol_, stores.quotes, stores.nifty,
                                      history_);
            auto page = series.PricePoints(plan_.days.start, plan_.days.end,
                                           after_, kPointPage);
            if (!page.ok()) return page.status();
            points = *std::move(page);
            return absl::OkStatus();
          });
      if (!read.ok()) return read;
      if (!factors_.empty()) {
        const domain::AdjustmentFactors& factors = factors_[next_listed_ - 1];
        for (domain::PricePoint& point : points) point = factors.Adjust(point);
      }
      for (const domain::PricePoint& point : points) builder_->Add(point);
      if (static_cast<int>(points.size()) < kPointPage) {
        Append(std::move(*builder_).Finish(), *chunk);
        symbol_.reset();
        builder_.reset();
      } else {
        after_ = points.back().time;
        Append(builder_->TakeFinished(), *chunk);
      }
    }
    if (chunk->records_size() == 0) return std::nullopt;
    return chunk;
  }

  int64_t Count(const ExportMessage& chunk) const override {
    return chunk->records_size();
  }

 private:
  // The next symbol to export; nullopt after the last.
  absl::StatusOr<std::optional<std::string>> NextSymbol() {
    if (!every_symbol_) {
      if (next_listed_ >= plan_.symbols.size()) return std::nullopt;
      return plan_.symbols[next_listed_++];
    }
    if (candidates_.empty() && !candidates_exhausted_) {
      absl::Status read = reader_.reads.Read(
          reader_.from, [&](const ExportStores& stores) -> absl::Status {
            auto page = stores.quote_batches.ListSymbols(
                last_candidate_, plan_.days.first, plan_.days.last,
                kSymbolPage);
            if (!page.ok()) return page.status();
            candidates_ = *std::move(page);
            return absl::OkStatus();
          });
      if (!read.ok()) return read;
      candidates_exhausted_ =
          static_cast<int>(candidates_.size()) < kSymbolPage;
      next_candidate_ = 0;
      if (!candidates_.empty()) last_candidate_ = candidates_.back();
    }
    if (next_candidate_ >= candidates_.size()) return std::nullopt;
    std::string symbol = std::move(candidates_[next_candidate_++]);
    if (next_candidate_ == candidates_.size()) candidates_.clear();
    return symbol;
  }

  // For a listed symbol the security master knows: the instrument's
  // history, so its candles continue across renames (each named by the
  // symbol its close was stored under); a later listed symbol of an
  // instrument already exported is skipped (instrument_done_). Every
  // symbol of a range is exported as stored.
  absl::Status ResolveInstrument() {
    history_.reset();
    instrument_done_ = false;
    if (every_symbol_) return absl::OkStatus();
    std::optional<domain::SymbolHistory> history;
    absl::Status read = reader_.reads.Read(
        reader_.from, [&](const ExportStores& stores) -> absl::Status {
          auto found = HistoryOfSymbol(*symbol_, stores.instruments);
          if (!found.ok()) return found.status();
          history = *std::move(found);
          return absl::OkStatus();
        });
    if (!read.ok()) return read;
    if (!history.has_value()) return absl::OkStatus();
    for (const domain::SymbolHistory& done : exported_) {
      if (done == *history) {
        instrument_done_ = true;
        return absl::OkStatus();
      }
    }
    exported_.push_back(*history);
    history_ = std::move(history);
    return absl::OkStatus();
  }

  void Append(const std::vector<domain::Candle>& candles,
              v1::ExportChunk& chunk) const {
    for (const domain::Candle& candle : candles) {
      v1::ExportRecord* record = chunk.add_records();
      record->set_trading_day(
          domain::FormatDate(domain::TradingDay(candle.time)));
      if (plan_.adjustment != domain::Adjustment::kRaw) {
        record->set_adjustment(
            std::string(domain::AdjustmentName(plan_.adjustment)));
      }
      v1::SymbolCandle* out = record->mutable_candle();
      out->set_symbol(history_.has_value()
                          ? domain::SymbolOn(*history_, domain::TradingDay(
                                                            candle.close_time))
                                .value_or(*symbol_)
                          : *symbol_);
      out->set_interval(plan_.interval.name);
      ToProto(candle, out->mutable_candle());
    }
  }

  const ExportReader reader_;
  const v1::ExportCandlesRequest request_;
  domain::CandleExport plan_;
  bool every_symbol_ = false;
  size_t next_listed_ = 0;
  // Every symbol: the current page of candidates.
  std::vector<std::string> candidates_;
  size_t next_candidate_ = 0;
  bool candidates_exhausted_ = false;
  std::string last_candidate_;
  // The symbol being exported, its builder and where its next page starts.
  std::optional<std::string> symbol_;
  std::optional<domain::CandleBuilder> builder_;
  std::optional<absl::Time> after_;
  // The instrument of the symbol being exported, and those exported.
  std::optional<domain::SymbolHistory> history_;
  bool instrument_done_ = false;
  // Adjusted: the factors of each listed symbol, in the list's order.
  std::vector<domain::AdjustmentFactors> factors_;
  std::vector<domain::SymbolHistory> exported_;
};

}  // namespace

std::unique_ptr<MessageSource<ExportMessage>> CandleExport(
    ExportReader reader, v1::ExportCandlesRequest request) {
  return std::make_unique<CandleSource>(reader, std::move(request));
}

}  // namespace mdc

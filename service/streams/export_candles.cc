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

#include "domain/candles.h"
#include "domain/export_requests.h"
#include "domain/time.h"
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
    return absl::OkStatus();
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
      }
      std::vector<domain::PricePoint> points;
      absl::Status read = reader_.reads.Read(
          reader_.from, [&](const ExportStores& stores) -> absl::Status {
            const SymbolSeries series(*symbol_, stores.quotes, stores.nifty);
            auto page = series.PricePoints(plan_.days.start, plan_.days.end,
                                           after_, kPointPage);
            if (!page.ok()) return page.status();
            points = *std::move(page);
            return absl::OkStatus();
          });
      if (!read.ok()) return read;
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

  void Append(const std::vector<domain::Candle>& candles,
              v1::ExportChunk& chunk) const {
    for (const domain::Candle& candle : candles) {
      v1::ExportRecord* record = chunk.add_records();
      record->set_trading_day(
          domain::FormatDate(domain::TradingDay(candle.time)));
      v1::SymbolCandle* out = record->mutable_candle();
      out->set_symbol(*symbol_);
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
};

}  // namespace

std::unique_ptr<MessageSource<ExportMessage>> CandleExport(
    ExportReader reader, v1::ExportCandlesRequest request) {
  return std::make_unique<CandleSource>(reader, std::move(request));
}

}  // namespace mdc

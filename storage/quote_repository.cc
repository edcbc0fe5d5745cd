#include "storage/quote_repository.h"

#include <optional>
#include <string>
#include <vector>

#include "service/domain/time.h"
#include "storage/quote_columns.h"

namespace mdc::storage {
namespace {

// One statement for any batch size: the rows travel as parallel arrays.
constexpr Statement kUpsertBatch{
    "quotes_upsert_batch",
    "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
    "last_price, volume, quote_data, written_by) "
    "SELECT q.nse_symbol, $2, $3, q.last_price, q.volume, q.quote_data, $7 "
    "FROM unnest($1::text[], $4::float8[], $5::float8[], $6::bytea[]) "
    "AS q(nse_symbol, last_price, volume, quote_data) "
    "ON CONFLICT (nse_symbol, observed_at) DO UPDATE SET "
    "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "
    "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "
    "written_at = now()"};

}  // namespace

absl::Status QuoteRepository::UpsertBatch(const domain::QuoteBatch& batch,
                                          int64_t writer_id) {
  std::vector<std::string> symbols;
  std::vector<std::optional<double>> last_prices;
  std::vector<std::optional<double>> volumes;
  std::vector<std::string> payloads;
  symbols.reserve(batch.quotes.size());
  last_prices.reserve(batch.quotes.size());
  volumes.reserve(batch.quotes.size());
  payloads.reserve(batch.quotes.size());
  for (const auto& quote : batch.quotes) {
    symbols.push_back(quote.symbol);
    last_prices.push_back(LastPrice(quote.quote));
    volumes.push_back(Volume(quote.quote));
    payloads.push_back(quote.quote.SerializeAsString());
  }
  return pool_
      .ExecWrite(kUpsertBatch, Params()
                                   .TextArray(symbols)
                                   .Time(batch.observed_at)
                                   .Date(domain::TradingDay(batch.observed_at))
                                   .DoubleArray(last_prices)
                                   .DoubleArray(volumes)
                                   .BytesArray(payloads)
                                   .Int64(writer_id))
      .status();
}

}  // namespace mdc::storage

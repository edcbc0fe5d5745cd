#include "storage/nifty_repository.h"

#include "absl/status/status.h"
#include "service/domain/proto_time.h"
#include "service/domain/time.h"
#include "storage/quote_columns.h"

namespace mdc::storage {
namespace {

constexpr Statement kUpsert{
    "nifty_upsert",
    "INSERT INTO nifty_quotes (observed_at, trading_day, last_price, volume, "
    "day_change_perc, quote_data, written_by) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) "
    "ON CONFLICT (observed_at) DO UPDATE SET "
    "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "
    "day_change_perc = EXCLUDED.day_change_perc, "
    "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "
    "written_at = now()"};

constexpr Statement kFindLatest{
    "nifty_find_latest",
    "SELECT observed_at, day_change_perc, quote_data FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at <= $2 "
    "ORDER BY observed_at DESC LIMIT 1"};

}  // namespace

absl::Status NiftyRepository::Upsert(const domain::NiftyObservation& nifty,
                                     int64_t writer_id) {
  return pool_
      .ExecWrite(kUpsert, Params()
                              .Time(nifty.observed_at)
                              .Date(domain::TradingDay(nifty.observed_at))
                              .OptionalDouble(LastPrice(nifty.quote))
                              .OptionalDouble(Volume(nifty.quote))
                              .Double(nifty.day_change_perc)
                              .Bytes(nifty.quote.SerializeAsString())
                              .Int64(writer_id))
      .status();
}

absl::StatusOr<std::optional<v1::NiftyQuote>> NiftyRepository::FindLatest(
    absl::Time not_before, absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kFindLatest, Params().Time(not_before).Time(at));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<v1::NiftyQuote>();
  v1::NiftyQuote quote;
  domain::SetTimestamp(result->Time(0, 0), quote.mutable_timestamp());
  quote.set_day_change_perc(result->Double(0, 1));
  if (!ParseQuoteData(result->Bytes(0, 2), quote.mutable_quote_data())) {
    return absl::DataLossError("stored NIFTY quote is unreadable");
  }
  return std::optional<v1::NiftyQuote>(std::move(quote));
}

}  // namespace mdc::storage

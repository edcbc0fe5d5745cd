#include "storage/nifty_repository.h"

#include <cstdint>

#include "absl/status/status.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/committed_write.h"
#include "storage/compacted_nifty.h"
#include "storage/compacted_nifty_fast.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

// The one upsert of NIFTY quotes, for one write and for a batch of them
// alike: `input` is a query of the writes, one row each with the columns
// below, its writer's token hash and its place; `token_hashes` the array of
// those hashes. Writes only rows whose token hash a developer holds (see
// MDC_WRITERS_CTE); of several writes of one instant, the last (the highest
// place) is written, as running them in order would leave it. The conflict
// key holds trading_day, which the server computes from observed_at: the
// same uniqueness as without it (migration 0010).
#define MDC_UPSERT_NIFTIES(input, token_hashes) \
  "WITH input AS (" input "), " MDC_WRITERS_CTE(token_hashes)                 \
  ", stored AS (INSERT INTO nifty_quotes (observed_at, trading_day, "         \
  "last_price, volume, day_change_perc, quote_data, written_by) "             \
  "SELECT DISTINCT ON (input.observed_at, input.trading_day) "                \
  "input.observed_at, input.trading_day, input.last_price, input.volume, "    \
  "input.day_change_perc, input.quote_data, writer.id FROM input "            \
  "JOIN writer ON writer.token_hash = input.token_hash "                      \
  "ORDER BY input.observed_at, input.trading_day, input.place DESC "          \
  "ON CONFLICT (observed_at, trading_day) DO UPDATE SET "                     \
  "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "              \
  "day_change_perc = EXCLUDED.day_change_perc, "                              \
  "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "      \
  "written_at = now()) " MDC_WRITER_ANSWER

// A batch of writes (Statement::merged): the parameters as arrays.
constexpr Statement kUpsertNifties{
    "nifty_upsert_merged",
    MDC_UPSERT_NIFTIES(
        "SELECT * FROM unnest($1::timestamptz[], $2::date[], $3::float8[], "
        "$4::float8[], $5::float8[], $6::bytea[], $7::bytea[]) "
        "WITH ORDINALITY AS i(observed_at, trading_day, last_price, volume, "
        "day_change_perc, quote_data, token_hash, place)",
        "$7")};

// One write: the same statement over one row.
constexpr Statement kUpsertNifty{
    "nifty_upsert",
    MDC_UPSERT_NIFTIES(
        "SELECT $1::timestamptz AS observed_at, $2::date AS trading_day, "
        "$3::float8 AS last_price, $4::float8 AS volume, "
        "$5::float8 AS day_change_perc, $6::bytea AS quote_data, "
        "$7::bytea AS token_hash, 1::bigint AS place",
        "ARRAY[$7::bytea]"),
    &kUpsertNifties};

#undef MDC_UPSERT_NIFTIES

// Every read by instant also bounds trading_day ($3, $4 here; the last two
// parameters of the pages), so only the partitions of those days are read
// (storage/trading_day_bounds.h).
constexpr Statement kFindLatestNifty{
    "nifty_find_latest",
    "SELECT observed_at, day_change_perc, quote_data FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at <= $2 "
    "AND trading_day BETWEEN $3 AND $4 "
    "ORDER BY observed_at DESC LIMIT 1"};

// Keyset pages: $3 is the last instant of the previous page (or just before
// $1 on the first page).
constexpr Statement kListNiftyRange{
    "nifty_list_range",
    "SELECT observed_at, day_change_perc, quote_data FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at < $2 AND observed_at > $3 "
    "AND trading_day BETWEEN $5 AND $6 ORDER BY observed_at LIMIT $4"};

constexpr Statement kNiftyPricePoints{
    "nifty_price_points",
    "SELECT observed_at, last_price, volume FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at < $2 AND observed_at > $3 "
    "AND last_price IS NOT NULL AND trading_day BETWEEN $5 AND $6 "
    "ORDER BY observed_at LIMIT $4"};

absl::StatusOr<v1::NiftyQuote> NiftyAt(const Result& result, int row) {
  v1::NiftyQuote quote;
  SetStoredTimestamp(result.Time(row, 0), "nifty_quotes",
                     quote.mutable_timestamp());
  quote.set_day_change_perc(result.Double(row, 1));
  if (!ParseQuoteData(result.Bytes(row, 2), quote.mutable_quote_data())) {
    return absl::DataLossError("stored NIFTY quote is unreadable");
  }
  return quote;
}

// Runs `page`, a keyset page statement over the NIFTY quotes in
// [start, end): ($1 start, $2 end, $3 after, $4 limit, $5 and $6 the
// trading days of after and end: a later page skips earlier months).
absl::StatusOr<Result> ExecPage(ConnectionPool& pool, const Statement& page,
                                absl::Time start, absl::Time end,
                                std::optional<absl::Time> after, int limit) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  const absl::Time page_after = PageAfter(after, start);
  // The compacted quotes of the page's days (storage/compacted_nifty.h):
  // the first `limit` after page_after, and one more in case one is at
  // page_after itself (the filter's bounds are inclusive).
  CompactedNiftyFilter compacted{TradingDayFrom(page_after), TradingDayTo(end),
                                 page_after, end};
  if (limit > 0 && limit < INT32_MAX) compacted.first_count = limit + 1;
  compacted.priced_only = &page == &kNiftyPricePoints;
  return NiftyPageSeeingCompacted(**conn, page,
                                  Params()
                                      .Time(start)
                                      .Time(end)
                                      .Time(page_after)
                                      .Int32(limit)
                                      .Date(TradingDayFrom(page_after))
                                      .Date(TradingDayTo(end)),
                                  compacted, start, page_after, end, limit,
                                  compacted.priced_only
                                      ? NiftyPageColumns::kPricePoints
                                      : NiftyPageColumns::kQuotes);
}

}  // namespace

void NiftyRepository::Upsert(const domain::NiftyObservation& nifty,
                             const std::string& token_hash,
                             DeveloperCallback done) {
  pool_.SubmitWrite(
      kUpsertNifty,
      Params()
          .Time(nifty.observed_at)
          .Date(domain::TradingDay(nifty.observed_at))
          .OptionalDouble(LastPrice(nifty.quote))
          .OptionalDouble(Volume(nifty.quote))
          .Double(nifty.day_change_perc)
          .Bytes(nifty.quote.SerializeAsString())
          .Bytes(token_hash),
      ReportCollectorWrite(
          pool_.observer(),
          CollectorWrite{"nifty_quotes", domain::RecordKind::kNifty,
                         nifty.observed_at, 1},
          std::move(done)));
}

absl::StatusOr<std::optional<v1::NiftyQuote>> NiftyRepository::FindLatest(
    absl::Time not_before, absl::Time at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  CompactedNiftyFilter compacted{TradingDayFrom(not_before), TradingDayTo(at),
                                 not_before, at};
  compacted.latest_only = true;
  auto result = NiftyLatestSeeingCompacted(**conn, kFindLatestNifty,
                                           Params()
                                               .Time(not_before)
                                               .Time(at)
                                               .Date(TradingDayFrom(not_before))
                                               .Date(TradingDayTo(at)),
                                           compacted);
  if (!result.ok()) return result.status();
  return ReadFirstRow<v1::NiftyQuote>(*result, NiftyAt);
}

absl::StatusOr<std::vector<v1::NiftyQuote>> NiftyRepository::ListRange(
    absl::Time start, absl::Time end, std::optional<absl::Time> after,
    int limit) {
  auto result = ExecPage(pool_, kListNiftyRange, start, end, after, limit);
  if (!result.ok()) return result.status();
  return ReadRows<v1::NiftyQuote>(*result, NiftyAt);
}

absl::StatusOr<std::vector<domain::PricePoint>> NiftyRepository::PricePoints(
    absl::Time start, absl::Time end, std::optional<absl::Time> after,
    int limit) {
  auto result = ExecPage(pool_, kNiftyPricePoints, start, end, after, limit);
  if (!result.ok()) return result.status();
  return ReadPricePoints(*result);
}

}  // namespace mdc::storage

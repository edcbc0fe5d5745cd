#include "domain/nifty_batch_codec.h"

#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/column_codec.h"
#include "domain/exact_number_column.h"
#include "domain/quote_payload_wire.h"

namespace mdc::domain {
namespace {

// The first byte of a NIFTY batch; stock quote batches use 1 and 2.
constexpr char kNiftyVersion = 3;
// QuotePayload.day_change_perc (field 3) in QuoteDataFields::numbers.
constexpr int kPayloadDayChangePerc = 2;

// The payload's day change of a stored NIFTY quote, when its payload has
// one: the write usually posts the same number beside it.
std::optional<double> PayloadDayChange(const std::string& quote_data) {
  std::optional<QuoteDataFields> fields = ParseQuoteDataWire(quote_data);
  if (!fields || !fields->has_payload) return std::nullopt;
  return fields->numbers[kPayloadDayChangePerc];
}

// The day change column: a bitmap of the quotes whose day change is the
// payload's (bit for bit), then the others as an exact number column.
void PutDayChanges(const std::vector<StoredNiftyQuote>& quotes,
                   columns::Writer& out) {
  std::vector<bool> copied;
  std::vector<double> rest;
  for (const StoredNiftyQuote& nifty : quotes) {
    const std::optional<double> payload =
        PayloadDayChange(nifty.quote.quote_data);
    const bool same = payload && columns::DoubleBits(*payload) ==
                                     columns::DoubleBits(nifty.day_change_perc);
    copied.push_back(same);
    if (!same) rest.push_back(nifty.day_change_perc);
  }
  columns::PutPresence(copied, out);
  columns::PutExactNumbers(rest, out);
}

void GetDayChanges(columns::Reader& in, std::vector<StoredNiftyQuote>& quotes) {
  const std::vector<bool> copied = columns::GetPresence(quotes.size(), in);
  const std::vector<double> rest = columns::GetExactNumbers(
      quotes.size() - columns::CountPresent(copied), in);
  size_t next = 0;
  for (size_t i = 0; i < quotes.size() && !in.failed(); ++i) {
    if (!copied[i]) {
      quotes[i].day_change_perc = rest[next++];
      continue;
    }
    const std::optional<double> payload =
        PayloadDayChange(quotes[i].quote.quote_data);
    if (!payload) {
      in.Corrupt();
      return;
    }
    quotes[i].day_change_perc = *payload;
  }
}

}  // namespace

bool StoredNiftyQuote::operator==(const StoredNiftyQuote& other) const {
  return quote == other.quote && columns::DoubleBits(day_change_perc) ==
                                     columns::DoubleBits(other.day_change_perc);
}

std::string EncodeNiftyBatch(const std::vector<StoredNiftyQuote>& quotes) {
  std::vector<StoredQuote> stored;
  stored.reserve(quotes.size());
  for (const StoredNiftyQuote& nifty : quotes) stored.push_back(nifty.quote);
  columns::Writer raw;
  PutStoredQuotes(stored, raw);
  PutDayChanges(quotes, raw);
  return FrameBatch(kNiftyVersion, raw.out());
}

absl::StatusOr<std::vector<StoredNiftyQuote>> DecodeNiftyBatch(
    absl::string_view batch) {
  int version = -1;
  auto raw = UnframeBatch(batch, version);
  if (version != kNiftyVersion) {
    return absl::DataLossError(absl::StrCat(
        "compacted NIFTY batch: unknown format version ", version));
  }
  if (!raw.ok()) return raw.status();
  columns::Reader in(*raw);
  auto stored = GetStoredQuotes(in);
  if (!stored.ok()) return stored.status();
  std::vector<StoredNiftyQuote> quotes(stored->size());
  for (size_t i = 0; i < stored->size(); ++i) {
    quotes[i].quote = std::move((*stored)[i]);
  }
  if (!in.failed()) GetDayChanges(in, quotes);
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted NIFTY batch: truncated columns");
  }
  return quotes;
}

}  // namespace mdc::domain

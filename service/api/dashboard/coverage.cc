// DashboardService: the coverage of a trading day (which session minutes
// hold data, per symbol, NIFTY 50 and shortlist) and the freshness of each
// collector (developer_writes).
#include "domain/coverage.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/day_reads.h"
#include "domain/field_errors.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "service/api/dashboard/dashboard_service.h"

namespace mdc {
namespace {

// The ranges and minute count of a series, in any of the two messages that
// carry them.
template <typename Message>
void SetMinutes(const storage::SeriesMinutes& series, Message* out) {
  const std::vector<domain::MinuteRange> ranges =
      domain::MinuteRanges(series.minute_bits);
  out->set_minutes(domain::CoveredMinutes(ranges));
  out->set_records(series.records);
  for (const domain::MinuteRange& range : ranges) {
    v1::MinuteRange* r = out->add_ranges();
    r->set_first(range.first);
    r->set_last(range.last);
  }
  domain::SetTimestamp(series.last_time, out->mutable_last_time());
}

void ToProto(const storage::WriterSummary& writer, v1::WriterActivity* out) {
  out->set_developer_id(absl::StrCat(writer.developer_id));
  out->set_username(writer.username);
  out->set_kind(std::string(domain::RecordKindName(writer.kind)));
  domain::SetTimestamp(writer.last_written, out->mutable_last_write_time());
  domain::SetTimestamp(writer.last_observed, out->mutable_last_record_time());
  out->set_day_records(writer.day_records);
  if (writer.day_last_written.has_value()) {
    domain::SetTimestamp(*writer.day_last_written,
                         out->mutable_day_last_write_time());
  }
}

}  // namespace

grpc::Status DashboardService::GetCoverage(
    grpc::ServerContext* context, const v1::GetCoverageRequest* request,
    v1::Coverage* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        std::optional<absl::CivilDay> day;
        if (!request->date().empty()) {
          auto parsed = domain::ParseDate(request->date());
          if (!parsed.ok()) {
            return domain::InvalidField("date", parsed.status().message());
          }
          day = *parsed;
        } else {
          // The latest day the caller may see: before the clock, if set.
          const absl::Time before = call.clock.CutEnd(domain::FarFuture());
          auto latest =
              stores.coverage.LatestDay(domain::TradingDay(before), before);
          if (!latest.ok()) return latest.status();
          day = *latest;
        }
        if (!day.has_value()) return absl::OkStatus();  // nothing stored
        auto limit = domain::DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        const absl::Time before = *limit + absl::Microseconds(1);
        const storage::SessionMinutesSpec session{domain::SessionOpen(*day),
                                                  domain::SessionMinutes(*day)};
        response->set_date(domain::FormatDate(*day));
        domain::SetTimestamp(session.open, response->mutable_session_start());
        response->set_session_minutes(session.minutes);

        auto quotes = stores.coverage.QuoteMinutes(*day, session, before);
        if (!quotes.ok()) return quotes.status();
        for (const storage::SeriesMinutes& series : *quotes) {
          v1::SymbolCoverage* out = response->add_symbols();
          out->set_nse_symbol(series.key);
          SetMinutes(series, out);
        }
        auto nifty = stores.coverage.NiftyMinutes(*day, session, before);
        if (!nifty.ok()) return nifty.status();
        if (nifty->has_value()) {
          response->mutable_nifty()->set_nse_symbol("NIFTY");
          SetMinutes(**nifty, response->mutable_nifty());
        }
        auto lists = stores.coverage.ShortlistMinutes(*day, session, before);
        if (!lists.ok()) return lists.status();
        for (const storage::SeriesMinutes& series : *lists) {
          v1::ShortlistCoverage* out = response->add_shortlists();
          v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
          v1::ShortlistType_Parse(series.key, &type);
          v1::Scope scope = v1::SCOPE_UNSPECIFIED;
          v1::Scope_Parse(series.key2, &scope);
          out->set_shortlist_type(type);
          out->set_scope(scope);
          SetMinutes(series, out);
        }
        // The collectors' freshness is about the present: a backtest
        // must not see it.
        if (call.clock.active()) return absl::OkStatus();
        auto writers = stores.developer_writes.Summaries(*day);
        if (!writers.ok()) return writers.status();
        for (const storage::WriterSummary& writer : *writers) {
          ToProto(writer, response->add_writers());
        }
        return absl::OkStatus();
      });
}

}  // namespace mdc

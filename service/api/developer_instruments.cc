// DeveloperService's reads of the security master and corporate actions.
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/corporate_actions.h"
#include "domain/field_errors.h"
#include "domain/security_master.h"
#include "domain/text.h"
#include "domain/time.h"
#include "service/api/adjusted_reads.h"
#include "service/api/corporate_action_proto.h"
#include "service/api/developer_service.h"

namespace mdc {
namespace {

// The most instruments a name-prefix search answers.
constexpr int kMaxInstruments = 100;
constexpr size_t kMaxPrefixCharacters = 100;

// The characters of UTF-8 `text` (the gateway has checked it is UTF-8).
size_t Characters(absl::string_view text) {
  size_t count = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}
constexpr absl::CivilDay kLastDay{2199, 12, 31};

void ToProto(const storage::InstrumentRecord& record, absl::CivilDay date,
             v1::InstrumentInfo* out) {
  const domain::Instrument& i = record.instrument;
  out->set_isin(i.isin);
  out->set_symbol(domain::SymbolOn(record.symbols, date).value_or(""));
  out->set_name(i.name);
  out->set_series(i.series);
  if (i.listing_date.has_value()) {
    out->set_listing_date(domain::FormatDate(*i.listing_date));
  }
  if (i.face_value.has_value()) out->set_face_value(*i.face_value);
  if (i.market_lot.has_value()) out->set_market_lot(*i.market_lot);
  if (i.paid_up_value.has_value()) out->set_paid_up_value(*i.paid_up_value);
  for (size_t k = 0; k < record.symbols.size(); ++k) {
    v1::InstrumentSymbol* symbol = out->add_symbols();
    symbol->set_symbol(record.symbols[k].symbol);
    symbol->set_valid_from(domain::FormatDate(record.symbols[k].valid_from));
    if (k + 1 < record.symbols.size()) {
      symbol->set_valid_to(
          domain::FormatDate(record.symbols[k + 1].valid_from));
    }
  }
}

// The query of a ListInstruments request, or what is wrong with it.
absl::StatusOr<storage::InstrumentQuery> QueryOf(
    const v1::ListInstrumentsRequest& request) {
  const int given = !request.symbol().empty() + !request.isin().empty() +
                    !request.prefix().empty();
  if (given != 1) {
    return domain::InvalidField(
        "symbol", given == 0 ? "give one of symbol, isin or prefix"
                             : "give only one of symbol, isin or prefix");
  }
  storage::InstrumentQuery query;
  if (!request.symbol().empty()) {
    if (auto s = domain::CheckStockSymbol(request.symbol()); !s.ok()) {
      return domain::InvalidField("symbol", s.message());
    }
    query.symbol = request.symbol();
  } else if (!request.isin().empty()) {
    if (auto s = domain::CheckIsin(request.isin()); !s.ok()) {
      return domain::InvalidField("isin", s.message());
    }
    query.isin = request.isin();
  } else {
    if (Characters(request.prefix()) > kMaxPrefixCharacters) {
      return domain::InvalidField("prefix", "must be at most 100 characters");
    }
    if (auto c = domain::FindControlOrFormatCharacter(request.prefix())) {
      return domain::InvalidField("prefix", domain::ControlOrFormatRule(*c));
    }
    query.prefix = request.prefix();
  }
  return query;
}

// An optional YYYY-MM-DD parameter.
absl::StatusOr<absl::CivilDay> DateOr(const std::string& text,
                                      absl::string_view field,
                                      absl::CivilDay otherwise) {
  if (text.empty()) return otherwise;
  auto day = domain::ParseDate(text);
  if (!day.ok()) return domain::InvalidField(field, day.status().message());
  return *day;
}

// The rule of a single-field status ("field: rule").
std::string RuleOf(const absl::Status& status) {
  const absl::string_view message = status.message();
  const size_t colon = message.find(": ");
  return std::string(
      colon == absl::string_view::npos ? message : message.substr(colon + 2));
}

}  // namespace

grpc::Status DeveloperService::ListInstruments(
    grpc::ServerContext* context, const v1::ListInstrumentsRequest* request,
    v1::ListInstrumentsResponse* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        auto query = QueryOf(*request);
        if (!query.ok()) return query.status();
        auto date = DateOr(request->date(), "date",
                           domain::TradingDay(call.clock.Now(absl::Now())));
        if (!date.ok()) return date.status();
        auto records = stores.instruments.List(*query, kMaxInstruments);
        if (!records.ok()) return records.status();
        if (records->empty() && query->prefix.empty()) {
          const bool by_symbol = !query->symbol.empty();
          return domain::InvalidField(
              by_symbol ? "symbol" : "isin",
              absl::StrCat("no instrument of the security master has ",
                           by_symbol ? "had symbol " : "ISIN ",
                           by_symbol ? query->symbol : query->isin));
        }
        response->set_date(domain::FormatDate(*date));
        for (const auto& record : *records) {
          ToProto(record, *date, response->add_instruments());
        }
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::ListCorporateActions(
    grpc::ServerContext* context,
    const v1::ListCorporateActionsRequest* request,
    v1::ListCorporateActionsResponse* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext&) -> absl::Status {
        domain::FieldErrors errors;
        errors.AddStatus("symbol", domain::CheckStockSymbol(request->symbol()));
        auto start = DateOr(request->start_date(), "start_date",
                            domain::kEarliestListing);
        auto end = DateOr(request->end_date(), "end_date", kLastDay);
        // DateOr's status already names its field: keep just the rule.
        if (!start.ok()) errors.Add("start_date", RuleOf(start.status()));
        if (!end.ok()) errors.Add("end_date", RuleOf(end.status()));
        if (errors.empty() && *start > *end) {
          errors.Add("start_date", "must not be after end_date");
        }
        if (!errors.empty()) return errors.ToStatus();
        auto record = stores.instruments.FindBySymbol(request->symbol());
        if (!record.ok()) return record.status();
        if (!record->has_value()) {
          return domain::InvalidField(
              "symbol", absl::StrCat("no instrument of the security master "
                                     "has had symbol ",
                                     request->symbol()));
        }
        const std::string& isin = (*record)->instrument.isin;
        auto actions = stores.instruments.Actions(isin, *start, *end);
        if (!actions.ok()) return actions.status();
        response->set_isin(isin);
        for (const domain::CorporateAction& action : *actions) {
          std::optional<double> close;
          if (domain::NeedsPreviousClose(action.kind)) {
            auto read = PreviousClose((*record)->symbols, action.ex_date,
                                      stores.quotes, stores.nifty);
            if (!read.ok()) return read.status();
            close = *read;
          }
          ToProto(isin, action, close, response->add_actions());
        }
        return absl::OkStatus();
      });
}

}  // namespace mdc

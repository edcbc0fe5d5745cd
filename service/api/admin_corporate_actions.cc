// AdminService's entry of one corporate action (docs/api.md
// section 13.7): the request checked in the domain
// (domain/corporate_action_entry.h), its instrument found in the security
// master, and the action stored under the key the file import uses, so
// entering it again, or importing it from NSE's file, changes nothing.
#include "absl/strings/str_cat.h"
#include "domain/corporate_action_entry.h"
#include "domain/field_errors.h"
#include "domain/time.h"
#include "service/api/admin_service.h"
#include "service/api/corporate_action_proto.h"

namespace mdc {
namespace {

// The instrument an entry names, checked against its ex-date: its ISIN
// and its symbol on that day. INVALID_ARGUMENT naming `isin` or `symbol`
// (no such instrument, or not its symbol that day) or `ex_date` (before
// the instrument's listing: outside its data).
struct EntryInstrument {
  std::string isin;
  std::string symbol;
};

absl::StatusOr<EntryInstrument> FindEntryInstrument(
    const domain::ActionEntry& entry, storage::InstrumentRepository& master) {
  std::optional<storage::InstrumentRecord> record;
  if (!entry.isin.empty()) {
    storage::InstrumentQuery query;
    query.isin = entry.isin;
    auto found = master.List(query, 1);
    if (!found.ok()) return found.status();
    if (found->empty()) {
      return domain::InvalidField(
          "isin", absl::StrCat(entry.isin,
                               " is no instrument of the security master; "
                               "import NSE's equity list first"));
    }
    record = std::move(found->front());
  } else {
    auto found = master.FindBySymbol(entry.symbol);
    if (!found.ok()) return found.status();
    if (!found->has_value()) {
      return domain::InvalidField(
          "symbol", absl::StrCat(entry.symbol,
                                 " is the symbol of no instrument of the "
                                 "security master; import NSE's equity "
                                 "list first"));
    }
    record = **std::move(found);
  }
  const absl::CivilDay ex_date = entry.action.ex_date;
  const std::optional<std::string> symbol =
      domain::SymbolOn(record->symbols, ex_date);
  if (!symbol.has_value()) {
    const absl::CivilDay listed = record->symbols.empty()
                                      ? domain::kEarliestListing
                                      : record->symbols.front().valid_from;
    return domain::InvalidField(
        "ex_date",
        absl::StrCat("is before ", record->instrument.isin, " was listed (",
                     domain::FormatDate(listed), "): outside its data"));
  }
  if (!entry.symbol.empty() && *symbol != entry.symbol) {
    return domain::InvalidField(
        "symbol", absl::StrCat(entry.symbol, " was not the symbol of ",
                               record->instrument.isin, " on ",
                               domain::FormatDate(ex_date), " (", *symbol,
                               " was); give that symbol or the ISIN"));
  }
  return EntryInstrument{record->instrument.isin, *symbol};
}

}  // namespace

grpc::Status AdminService::CreateCorporateAction(
    grpc::ServerContext* context,
    const v1::CreateCorporateActionRequest* request,
    v1::CreateCorporateActionResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto entry = domain::ParseActionEntry(*request);
    if (!entry.ok()) return entry.status();
    auto instrument = FindEntryInstrument(*entry, stores_.instruments);
    if (!instrument.ok()) return instrument.status();
    domain::CorporateAction action = entry->action;
    action.isin = instrument->isin;
    auto created = stores_.instruments.EnterAction(instrument->isin,
                                                   instrument->symbol, action);
    if (!created.ok()) return created.status();
    // The factors that need no stored close (the list route gives a
    // dividend's and a rights issue's).
    ToProto(instrument->isin, action, std::nullopt, response->mutable_action());
    response->set_created(*created);
    return absl::OkStatus();
  });
}

}  // namespace mdc

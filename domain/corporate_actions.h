// Corporate actions: what they are, how NSE's corporate-actions download
// describes them (its PURPOSE column, free text), and the price and volume
// factors adjusted reads apply (docs/api.md, "Adjusted reads").
//
// PURPOSE is split into parts at '/' (after dropping the "/-" NSE writes
// after rupee amounts: "Rs 10/-"), and each part is read as one of:
//   Bonus a:b                         a new shares for every b held
//   ... Split ... From Rs X ... To Rs Y   face value X becomes Y (X > Y)
//   ... Consolidation ... From Rs X ... To Rs Y   (X < Y)
//   ... Dividend ... Rs N [Per Share]     N rupees a share; or P% of the
//                                         row's FACE VALUE
//   Rights a:b @ Premium Rs P             a new for every b held, paying
//                                         FACE VALUE + P (or "@ Rs S": S)
// Parts about meetings, results, interest, redemptions and the like (AGM,
// EGM, ...) carry no price effect and are passed over. Anything else (a
// demerger, a part without its numbers) is not guessed: the whole row is
// listed back with its line and the part not understood.
//
// Pure functions; thread-compatible.
#ifndef MDC_DOMAIN_CORPORATE_ACTIONS_H_
#define MDC_DOMAIN_CORPORATE_ACTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "domain/security_master.h"

namespace mdc::domain {

enum class ActionKind { kSplit, kBonus, kConsolidation, kDividend, kRights };

// "split", "bonus", "consolidation", "dividend", "rights".
absl::string_view ActionKindName(ActionKind kind);
std::optional<ActionKind> ParseActionKind(absl::string_view name);

// One action. Numbers as the text gives them:
//   bonus a:b and rights a:b: ratio_a = a (new), ratio_b = b (held);
//   split and consolidation: ratio_a = old face value, ratio_b = new;
//   dividend: amount = rupees a share; rights: amount = price paid a share.
struct CorporateAction {
  std::string isin;
  absl::CivilDay ex_date;
  ActionKind kind = ActionKind::kDividend;
  double ratio_a = 0;
  double ratio_b = 0;
  double amount = 0;
  // The part of PURPOSE it was read from (or an admin's note), which also
  // tells two actions of one kind on one day apart.
  std::string description;
};

// OK when the numbers of `action` make sense for its kind: ratios and
// amounts positive, a split lowering and a consolidation raising the face
// value. INVALID_ARGUMENT naming the rule otherwise.
absl::Status CheckActionNumbers(const CorporateAction& action);

// The actions one PURPOSE text describes (isin and ex_date left empty):
// empty when it describes none with a price effect (an AGM). `face_value`
// (the row's FACE VALUE) prices dividends given in percent and rights
// given as a premium. INVALID_ARGUMENT naming the part not understood.
absl::StatusOr<std::vector<CorporateAction>> ParsePurpose(
    absl::string_view purpose, std::optional<double> face_value);

// One row of the corporate-actions file, read but not yet tied to an ISIN.
struct CorporateActionRow {
  int line = 0;
  std::string symbol;
  absl::CivilDay ex_date;
  std::vector<CorporateAction> actions;
};

struct ParsedActions {
  std::vector<CorporateActionRow> rows;
  std::vector<RejectedRow> rejected;
  // Rows read fine that carry no price effect (an AGM alone), with why.
  std::vector<RejectedRow> ignored;
};

// NSE's corporate-actions download: SYMBOL, COMPANY NAME, SERIES, PURPOSE,
// FACE VALUE, EX-DATE (and further columns, ignored). INVALID_ARGUMENT only
// when the file is not such a file.
absl::StatusOr<ParsedActions> ParseCorporateActions(absl::string_view csv);

// The factors one action contributes to a read adjusted for it: prices of
// records before its ex-date are multiplied by `price`, volumes by
// `volume`.
struct ActionFactors {
  double price = 1;
  double volume = 1;
};

// Splits, bonuses and consolidations: price b/(a+b) for a bonus a:b, new/old
// face value for a split or consolidation; volume the inverse. Dividends:
// price 1 - amount / previous_close (CRSP, Yahoo); rights a:b at S:
// price (b * P + a * S) / ((a + b) * P) with P the previous close (the
// theoretical ex-rights price over P); volume 1 for both. Nullopt when a
// dividend or rights issue has no previous close, or its factor would not
// be in (0, 1] (an amount at or above the close): it is then not applied.
std::optional<ActionFactors> FactorsOf(const CorporateAction& action,
                                       std::optional<double> previous_close);

// True when `kind` is needed for a previous close (dividends, rights).
bool NeedsPreviousClose(ActionKind kind);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_CORPORATE_ACTIONS_H_

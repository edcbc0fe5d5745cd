// An admin's entry of one corporate action (POST
// /v1/admin/corporate-actions): the request checked field by field into a
// CorporateAction, with a description written from its numbers when none
// is given, so entering the same action twice is one action.
#ifndef MDC_DOMAIN_CORPORATE_ACTION_ENTRY_H_
#define MDC_DOMAIN_CORPORATE_ACTION_ENTRY_H_

#include <string>

#include "absl/status/statusor.h"
#include "domain/corporate_actions.h"
#include "mdc/v1/admin.pb.h"

namespace mdc::domain {

// The most characters of an action's description.
inline constexpr int kMaxActionDescription = 200;

// The entered action and how it names its instrument (exactly one of
// `isin` and `symbol`; action.isin is left empty for the caller to fill).
struct ActionEntry {
  std::string isin;
  std::string symbol;
  CorporateAction action;
};

// INVALID_ARGUMENT naming every bad field: `isin` (both or neither of isin
// and symbol, or a malformed ISIN), `symbol`, `kind`, `ex_date`, a number
// of the kind (new_shares, held_shares, old_face_value, new_face_value,
// amount) that is not positive and finite or breaks the kind's rule (a
// split lowers the face value), a number above kMaxMagnitude, a number the
// kind does not use that is not 0, and `description`.
absl::StatusOr<ActionEntry> ParseActionEntry(
    const v1::CreateCorporateActionRequest& request);

// The description written from an action's kind and numbers, as NSE words
// them: "Bonus 1:1", "Split From Rs 10 To Rs 2", "Consolidation From Rs 1
// To Rs 10", "Dividend Rs 2.5", "Rights 1:5 @ Rs 120".
std::string DescribeAction(const CorporateAction& action);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_CORPORATE_ACTION_ENTRY_H_

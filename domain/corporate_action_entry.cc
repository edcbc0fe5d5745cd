#include "domain/corporate_action_entry.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/number_limits.h"
#include "domain/security_master.h"
#include "domain/text.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// One number of the request: its field, its value, and whether the kind
// uses it.
struct EnteredNumber {
  const char* field;
  double value;
  bool used;
};

// Which numbers a kind uses.
bool UsesRatio(ActionKind kind) {
  return kind == ActionKind::kBonus || kind == ActionKind::kRights;
}
bool UsesFaceValues(ActionKind kind) {
  return kind == ActionKind::kSplit || kind == ActionKind::kConsolidation;
}
bool UsesAmount(ActionKind kind) {
  return kind == ActionKind::kDividend || kind == ActionKind::kRights;
}

int Characters(absl::string_view text) {
  int n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

void CheckNumbers(const v1::CreateCorporateActionRequest& request,
                  ActionKind kind, FieldErrors& errors) {
  const EnteredNumber numbers[] = {
      {"new_shares", request.new_shares(), UsesRatio(kind)},
      {"held_shares", request.held_shares(), UsesRatio(kind)},
      {"old_face_value", request.old_face_value(), UsesFaceValues(kind)},
      {"new_face_value", request.new_face_value(), UsesFaceValues(kind)},
      {"amount", request.amount(), UsesAmount(kind)},
  };
  for (const EnteredNumber& n : numbers) {
    if (std::isfinite(n.value) && !WithinMaxMagnitude(n.value)) {
      errors.Add(n.field, absl::StrCat("must be at most ", kMaxMagnitudeText));
    } else if (n.used && !(std::isfinite(n.value) && n.value > 0)) {
      errors.Add(n.field, absl::StrCat("must be a positive number for a ",
                                       ActionKindName(kind),
                                       " (zero, negative or "
                                       "not finite is no ratio "
                                       "or amount)"));
    } else if (!n.used && n.value != 0) {
      errors.Add(n.field, absl::StrCat("is not used by a ",
                                       ActionKindName(kind), "; leave it 0"));
    }
  }
  if (UsesFaceValues(kind) && errors.empty()) {
    const double from = request.old_face_value();
    const double to = request.new_face_value();
    if (from == to) {
      errors.Add("new_face_value", "must differ from old_face_value");
    } else if ((kind == ActionKind::kSplit) != (from > to)) {
      errors.Add("new_face_value",
                 kind == ActionKind::kSplit
                     ? "must be lower than old_face_value for a split"
                     : "must be higher than old_face_value for a "
                       "consolidation");
    }
  }
}

}  // namespace

std::string DescribeAction(const CorporateAction& action) {
  switch (action.kind) {
    case ActionKind::kBonus:
      return absl::StrCat("Bonus ", action.ratio_a, ":", action.ratio_b);
    case ActionKind::kSplit:
      return absl::StrCat("Split From Rs ", action.ratio_a, " To Rs ",
                          action.ratio_b);
    case ActionKind::kConsolidation:
      return absl::StrCat("Consolidation From Rs ", action.ratio_a, " To Rs ",
                          action.ratio_b);
    case ActionKind::kDividend:
      return absl::StrCat("Dividend Rs ", action.amount);
    case ActionKind::kRights:
      return absl::StrCat("Rights ", action.ratio_a, ":", action.ratio_b,
                          " @ Rs ", action.amount);
  }
  return "";
}

absl::StatusOr<ActionEntry> ParseActionEntry(
    const v1::CreateCorporateActionRequest& request) {
  FieldErrors errors;
  ActionEntry entry;
  const bool has_isin = !request.isin().empty();
  const bool has_symbol = !request.symbol().empty();
  if (has_isin == has_symbol) {
    errors.Add("isin", has_isin ? "give only one of isin and symbol"
                                : "give one of isin and symbol");
  } else if (has_isin) {
    errors.AddStatus("isin", CheckIsin(request.isin()));
    entry.isin = request.isin();
  } else {
    errors.AddStatus("symbol", CheckStockSymbol(request.symbol()));
    entry.symbol = request.symbol();
  }
  const std::optional<ActionKind> kind = ParseActionKind(request.kind());
  if (!kind.has_value()) {
    errors.Add("kind",
               "must be one of split, bonus, consolidation, dividend, rights");
  }
  if (request.ex_date().empty()) {
    errors.Add("ex_date", "is required (YYYY-MM-DD)");
  } else {
    auto day = ParseDate(request.ex_date());
    errors.AddStatus("ex_date", day.status());
    if (day.ok()) entry.action.ex_date = *day;
  }
  if (kind.has_value()) {
    entry.action.kind = *kind;
    CheckNumbers(request, *kind, errors);
  }
  if (Characters(request.description()) > kMaxActionDescription) {
    errors.Add("description", "must be at most 200 characters");
  } else if (auto c = FindControlOrFormatCharacter(request.description())) {
    errors.Add("description", ControlOrFormatRule(*c));
  }
  if (!errors.empty()) return errors.ToStatus();
  CorporateAction& action = entry.action;
  if (UsesRatio(action.kind)) {
    action.ratio_a = request.new_shares();
    action.ratio_b = request.held_shares();
  } else if (UsesFaceValues(action.kind)) {
    action.ratio_a = request.old_face_value();
    action.ratio_b = request.new_face_value();
  }
  if (UsesAmount(action.kind)) action.amount = request.amount();
  action.description = request.description().empty() ? DescribeAction(action)
                                                     : request.description();
  return entry;
}

}  // namespace mdc::domain

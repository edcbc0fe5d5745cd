#include "domain/corporate_actions.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "domain/nse_csv.h"
#include "domain/text.h"

namespace mdc::domain {
namespace {

constexpr absl::string_view kCorporateActionsWhat =
    "NSE's corporate-actions file (SYMBOL, COMPANY NAME, SERIES, PURPOSE, "
    "FACE VALUE, EX-DATE, ...)";

// Parts of PURPOSE with no price effect: passed over, not refused.
constexpr absl::string_view kNoPriceEffect[] = {
    "AGM",      "EGM",        "GENERAL MEETING", "RESULTS",
    "INTEREST", "REDEMPTION", "BOOK CLOSURE",    "BUY BACK",
    "BUYBACK",  "MEETING",    "ANNUAL GENERAL",  "POSTAL BALLOT"};

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// Reads a decimal number at text[*pos], moving *pos past it.
std::optional<double> NumberAt(absl::string_view text, size_t* pos) {
  size_t end = *pos;
  while (end < text.size() && (IsDigit(text[end]) || text[end] == '.')) ++end;
  // A trailing '.' ends a sentence ("Rs 2.") rather than a fraction.
  size_t stop = end;
  while (stop > *pos && text[stop - 1] == '.') --stop;
  auto number = ParseNseNumber(text.substr(*pos, stop - *pos));
  if (number.has_value()) *pos = end;
  return number;
}

// The first "a:b" at or after `from` (blanks allowed around ':').
std::optional<std::pair<double, double>> FindRatio(absl::string_view text) {
  for (size_t colon = text.find(':'); colon != absl::string_view::npos;
       colon = text.find(':', colon + 1)) {
    size_t left = colon;
    while (left > 0 && text[left - 1] == ' ') --left;
    size_t start = left;
    while (start > 0 && (IsDigit(text[start - 1]) || text[start - 1] == '.'))
      --start;
    size_t right = colon + 1;
    while (right < text.size() && text[right] == ' ') ++right;
    size_t pos = start;
    auto a = start < left ? NumberAt(text.substr(0, left), &pos) : std::nullopt;
    auto b = NumberAt(text, &right);
    if (a.has_value() && b.has_value()) return std::make_pair(*a, *b);
  }
  return std::nullopt;
}

// The rupee amount after the first "RS" or "RE" (a word of its own, then
// '.', blanks or digits) at or after `from`; *end is set past it.
std::optional<double> FindRupees(absl::string_view text, size_t from,
                                 size_t* end = nullptr) {
  for (size_t i = from; i + 2 <= text.size(); ++i) {
    const absl::string_view word = text.substr(i, 2);
    if (word != "RS" && word != "RE") continue;
    if (i > 0 && std::isalpha(static_cast<unsigned char>(text[i - 1])))
      continue;
    size_t pos = i + 2;
    if (pos < text.size() &&
        std::isalpha(static_cast<unsigned char>(text[pos])))
      continue;
    while (pos < text.size() && (text[pos] == '.' || text[pos] == ' ')) ++pos;
    auto amount = NumberAt(text, &pos);
    if (amount.has_value()) {
      if (end != nullptr) *end = pos;
      return amount;
    }
  }
  return std::nullopt;
}

// "FROM RS X ... TO RS Y" of a split or consolidation.
std::optional<std::pair<double, double>> FindFromTo(absl::string_view text) {
  const size_t from = text.find("FROM");
  if (from == absl::string_view::npos) return std::nullopt;
  size_t after = 0;
  auto old_value = FindRupees(text, from, &after);
  if (!old_value.has_value()) return std::nullopt;
  const size_t to = text.find("TO", after);
  if (to == absl::string_view::npos) return std::nullopt;
  auto new_value = FindRupees(text, to);
  if (!new_value.has_value()) return std::nullopt;
  return std::make_pair(*old_value, *new_value);
}

// P of "P%" in `text`.
std::optional<double> FindPercent(absl::string_view text) {
  const size_t percent = text.find('%');
  if (percent == absl::string_view::npos) return std::nullopt;
  size_t end = percent;
  while (end > 0 && text[end - 1] == ' ') --end;
  size_t start = end;
  while (start > 0 && (IsDigit(text[start - 1]) || text[start - 1] == '.'))
    --start;
  return ParseNseNumber(text.substr(start, end - start));
}

absl::Status NotUnderstood(absl::string_view part, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("PURPOSE part ", QuoteForMessage(part), " ", why));
}

// One part of PURPOSE (upper-cased, blanks collapsed): its action, nullopt
// for a part with no price effect, or why it was not understood.
absl::StatusOr<std::optional<CorporateAction>> ParsePart(
    absl::string_view part, absl::string_view original,
    std::optional<double> face_value) {
  CorporateAction action;
  action.description = std::string(original);
  auto with_ratio = [&](ActionKind kind) -> absl::Status {
    auto ratio = FindRatio(part);
    if (!ratio.has_value()) return NotUnderstood(original, "has no ratio a:b");
    action.kind = kind;
    action.ratio_a = ratio->first;
    action.ratio_b = ratio->second;
    return absl::OkStatus();
  };
  if (absl::StrContains(part, "DEMERGER")) {
    return NotUnderstood(original,
                         "is a demerger, whose price factor the text does "
                         "not give; enter it as an admin");
  }
  if (absl::StrContains(part, "BONUS")) {
    if (auto s = with_ratio(ActionKind::kBonus); !s.ok()) return s;
  } else if (absl::StrContains(part, "SPLIT") ||
             absl::StrContains(part, "SUB-DIVISION") ||
             absl::StrContains(part, "SUBDIVISION") ||
             absl::StrContains(part, "CONSOLIDATION")) {
    auto face = FindFromTo(part);
    if (!face.has_value()) {
      return NotUnderstood(original, "has no face values From Rs X To Rs Y");
    }
    action.kind = absl::StrContains(part, "CONSOLIDATION")
                      ? ActionKind::kConsolidation
                      : ActionKind::kSplit;
    action.ratio_a = face->first;
    action.ratio_b = face->second;
  } else if (absl::StrContains(part, "RIGHTS")) {
    if (auto s = with_ratio(ActionKind::kRights); !s.ok()) return s;
    const size_t premium = part.find("PREMIUM");
    if (premium != absl::string_view::npos) {
      auto amount = FindRupees(part, premium);
      if (!amount.has_value() || !face_value.has_value()) {
        return NotUnderstood(original,
                             "has a premium but no amount or FACE VALUE");
      }
      action.amount = *face_value + *amount;
    } else if (auto price =
                   FindRupees(part, part.find('@') == absl::string_view::npos
                                        ? part.size()
                                        : part.find('@'));
               price.has_value()) {
      action.amount = *price;
    } else {
      return NotUnderstood(original, "has no price (@ Rs S or Premium Rs P)");
    }
  } else if (absl::StrContains(part, "DIVIDEND")) {
    action.kind = ActionKind::kDividend;
    if (auto rupees = FindRupees(part, 0); rupees.has_value()) {
      action.amount = *rupees;
    } else if (auto percent = FindPercent(part); percent.has_value()) {
      if (!face_value.has_value()) {
        return NotUnderstood(original, "is in percent but FACE VALUE is empty");
      }
      action.amount = *percent / 100 * *face_value;
    } else {
      return NotUnderstood(original, "has no amount (Rs N or P%)");
    }
  } else {
    for (absl::string_view word : kNoPriceEffect) {
      if (absl::StrContains(part, word))
        return std::optional<CorporateAction>();
    }
    return NotUnderstood(original, "is not an action this parser knows");
  }
  if (auto s = CheckActionNumbers(action); !s.ok()) {
    return NotUnderstood(original, s.message());
  }
  return std::optional<CorporateAction>(std::move(action));
}

}  // namespace

absl::string_view ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSplit:
      return "split";
    case ActionKind::kBonus:
      return "bonus";
    case ActionKind::kConsolidation:
      return "consolidation";
    case ActionKind::kDividend:
      return "dividend";
    case ActionKind::kRights:
      return "rights";
  }
  return "dividend";
}

std::optional<ActionKind> ParseActionKind(absl::string_view name) {
  for (ActionKind kind :
       {ActionKind::kSplit, ActionKind::kBonus, ActionKind::kConsolidation,
        ActionKind::kDividend, ActionKind::kRights}) {
    if (ActionKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

absl::Status CheckActionNumbers(const CorporateAction& action) {
  switch (action.kind) {
    case ActionKind::kBonus:
    case ActionKind::kRights:
      if (!(action.ratio_a > 0) || !(action.ratio_b > 0)) {
        return absl::InvalidArgumentError(
            "has a ratio a:b that is not positive on both sides");
      }
      if (action.kind == ActionKind::kRights && !(action.amount > 0)) {
        return absl::InvalidArgumentError("has a price that is not positive");
      }
      return absl::OkStatus();
    case ActionKind::kSplit:
    case ActionKind::kConsolidation:
      if (!(action.ratio_a > 0) || !(action.ratio_b > 0)) {
        return absl::InvalidArgumentError(
            "has a face value that is not positive");
      }
      if (action.ratio_a == action.ratio_b) {
        return absl::InvalidArgumentError(
            "leaves the face value as it was (From equals To)");
      }
      if ((action.kind == ActionKind::kSplit) !=
          (action.ratio_a > action.ratio_b)) {
        return absl::InvalidArgumentError(
            action.kind == ActionKind::kSplit
                ? "is a split that raises the face value"
                : "is a consolidation that lowers the face value");
      }
      return absl::OkStatus();
    case ActionKind::kDividend:
      if (!(action.amount > 0)) {
        return absl::InvalidArgumentError("has an amount that is not positive");
      }
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<CorporateAction>> ParsePurpose(
    absl::string_view purpose, std::optional<double> face_value) {
  // "Rs 10/-" writes a '/' that does not separate parts.
  const std::string text = absl::StrReplaceAll(purpose, {{"/-", " "}});
  std::vector<CorporateAction> actions;
  for (absl::string_view raw : absl::StrSplit(text, '/')) {
    const std::string original(absl::StripAsciiWhitespace(raw));
    if (original.empty()) continue;
    std::string upper = absl::AsciiStrToUpper(original);
    absl::RemoveExtraAsciiWhitespace(&upper);
    auto action = ParsePart(upper, original, face_value);
    if (!action.ok()) return action.status();
    if (action->has_value()) actions.push_back(std::move(**action));
  }
  return actions;
}

absl::StatusOr<ParsedActions> ParseCorporateActions(absl::string_view csv) {
  auto table = ReadCsvTable(
      csv, {"SYMBOL", "SERIES", "PURPOSE", "FACE VALUE", "EX-DATE"},
      kCorporateActionsWhat);
  if (!table.ok()) return table.status();
  ParsedActions parsed;
  for (const CsvRow& row : *table) {
    const auto& f = row.fields;
    auto reject = [&](std::string reason) {
      parsed.rejected.push_back({row.line, std::move(reason)});
    };
    if (auto s = CheckStockSymbol(f[0]); !s.ok()) {
      reject(absl::StrCat("SYMBOL: ", s.message()));
      continue;
    }
    std::optional<double> face_value;
    if (!IsNseEmpty(f[3])) {
      face_value = ParseNseNumber(f[3]);
      if (!face_value.has_value()) {
        reject(absl::StrCat("FACE VALUE ", QuoteForMessage(f[3]),
                            " is not a number"));
        continue;
      }
    }
    if (IsNseEmpty(f[4])) {
      reject("EX-DATE: empty");
      continue;
    }
    auto ex_date = ParseNseDate(f[4]);
    if (!ex_date.ok()) {
      reject(absl::StrCat("EX-DATE: ", ex_date.status().message()));
      continue;
    }
    auto actions = ParsePurpose(f[2], face_value);
    if (!actions.ok()) {
      reject(std::string(actions.status().message()));
      continue;
    }
    if (actions->empty()) {
      parsed.ignored.push_back(
          {row.line, absl::StrCat("PURPOSE ", QuoteForMessage(f[2]),
                                  " has no price effect")});
      continue;
    }
    CorporateActionRow out;
    out.line = row.line;
    out.symbol = f[0];
    out.ex_date = *ex_date;
    for (auto& action : *actions) action.ex_date = *ex_date;
    out.actions = std::move(*actions);
    parsed.rows.push_back(std::move(out));
  }
  return parsed;
}

bool NeedsPreviousClose(ActionKind kind) {
  return kind == ActionKind::kDividend || kind == ActionKind::kRights;
}

std::optional<ActionFactors> FactorsOf(const CorporateAction& action,
                                       std::optional<double> previous_close) {
  ActionFactors factors;
  switch (action.kind) {
    case ActionKind::kBonus:
      factors.price = action.ratio_b / (action.ratio_a + action.ratio_b);
      factors.volume = 1 / factors.price;
      return factors;
    case ActionKind::kSplit:
    case ActionKind::kConsolidation:
      factors.price = action.ratio_b / action.ratio_a;
      factors.volume = 1 / factors.price;
      return factors;
    case ActionKind::kDividend:
      if (!previous_close.has_value() || !(*previous_close > action.amount)) {
        return std::nullopt;
      }
      factors.price = 1 - action.amount / *previous_close;
      return factors;
    case ActionKind::kRights: {
      if (!previous_close.has_value() || !(*previous_close > 0)) {
        return std::nullopt;
      }
      const double p = *previous_close;
      const double a = action.ratio_a, b = action.ratio_b;
      factors.price = (b * p + a * action.amount) / ((a + b) * p);
      if (!(factors.price > 0) || factors.price > 1) return std::nullopt;
      return factors;
    }
  }
  return std::nullopt;
}

}  // namespace mdc::domain

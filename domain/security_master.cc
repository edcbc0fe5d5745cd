#include "domain/security_master.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "domain/nse_csv.h"
#include "domain/series_symbol.h"
#include "domain/text.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// What the import routes name the files, for "expected ..." messages.
constexpr absl::string_view kEquityListWhat =
    "NSE's equity list EQUITY_L.csv (SYMBOL, NAME OF COMPANY, SERIES, DATE "
    "OF LISTING, PAID UP VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE)";
constexpr absl::string_view kSymbolChangesWhat =
    "NSE's symbol-change list (SM_NAME_OF_COMPANY, SM_KEY_SYMBOL, "
    "SM_NEW_SYMBOL, SM_APPLICABLE_FROM)";

// The period of `history` holding `day`, or -1.
int PeriodOn(const SymbolHistory& history, absl::CivilDay day) {
  int found = -1;
  for (size_t i = 0; i < history.size(); ++i) {
    if (history[i].valid_from <= day) found = static_cast<int>(i);
  }
  return found;
}

// True when some instrument other than `isin` is called `symbol` on a day
// of [from, to) (to: nullopt for open-ended).
bool HeldByAnother(const SecurityMaster& master, absl::string_view isin,
                   absl::string_view symbol, absl::CivilDay from,
                   std::optional<absl::CivilDay> to, std::string* holder) {
  for (const auto& [other, history] : master.symbols) {
    if (other == isin) continue;
    for (size_t i = 0; i < history.size(); ++i) {
      if (history[i].symbol != symbol) continue;
      const absl::CivilDay start = history[i].valid_from;
      const std::optional<absl::CivilDay> end =
          i + 1 < history.size()
              ? std::optional<absl::CivilDay>(history[i + 1].valid_from)
              : std::nullopt;
      const bool starts_before_our_end = !to.has_value() || start < *to;
      const bool ends_after_our_start = !end.has_value() || *end > from;
      if (starts_before_our_end && ends_after_our_start) {
        *holder = other;
        return true;
      }
    }
  }
  return false;
}

std::optional<double> OptionalNumber(const std::string& field,
                                     absl::string_view column,
                                     std::string* problem) {
  if (IsNseEmpty(field)) return std::nullopt;
  auto number = ParseNseNumber(field);
  if (!number.has_value()) {
    *problem =
        absl::StrCat(column, " ", QuoteForMessage(field), " is not a number");
  }
  return number;
}

}  // namespace

bool operator==(const Instrument& a, const Instrument& b) {
  return std::tie(a.isin, a.name, a.series, a.listing_date, a.paid_up_value,
                  a.market_lot, a.face_value) ==
         std::tie(b.isin, b.name, b.series, b.listing_date, b.paid_up_value,
                  b.market_lot, b.face_value);
}

bool operator==(const SymbolPeriod& a, const SymbolPeriod& b) {
  return a.symbol == b.symbol && a.valid_from == b.valid_from;
}

absl::Status CheckIsin(absl::string_view isin) {
  if (isin.size() != 12) {
    return absl::InvalidArgumentError(absl::StrCat(
        QuoteForMessage(isin), " is not an ISIN: it must be 12 characters"));
  }
  for (size_t i = 0; i < 12; ++i) {
    const char c = isin[i];
    const bool upper = c >= 'A' && c <= 'Z';
    const bool digit = c >= '0' && c <= '9';
    if ((i < 2 && !upper) || (i == 11 && !digit) || (!upper && !digit)) {
      return absl::InvalidArgumentError(absl::StrCat(
          QuoteForMessage(isin),
          " is not an ISIN: 2 capital letters, 9 capital letters or digits "
          "and a check digit"));
    }
  }
  // ISO 6166: letters become two digits (A=10 ... Z=35), then the Luhn
  // check over the digit string including the check digit.
  std::string digits;
  for (char c : isin) {
    if (c >= 'A' && c <= 'Z') {
      absl::StrAppend(&digits, c - 'A' + 10);
    } else {
      digits.push_back(c);
    }
  }
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = *it - '0';
    if (twice) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    twice = !twice;
  }
  if (sum % 10 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        QuoteForMessage(isin), " is not an ISIN: its check digit is wrong"));
  }
  return absl::OkStatus();
}

absl::Status CheckStockSymbol(absl::string_view symbol) {
  if (IsNiftySymbol(symbol)) {
    return absl::InvalidArgumentError(
        "NIFTY names the index, not an instrument");
  }
  return CheckSeriesSymbol(symbol);
}

absl::StatusOr<ParsedRows<EquityListEntry>> ParseEquityList(
    absl::string_view csv) {
  auto table =
      ReadCsvTable(csv,
                   {"SYMBOL", "NAME OF COMPANY", "SERIES", "DATE OF LISTING",
                    "PAID UP VALUE", "MARKET LOT", "ISIN NUMBER", "FACE VALUE"},
                   kEquityListWhat);
  if (!table.ok()) return table.status();
  ParsedRows<EquityListEntry> parsed;
  for (const CsvRow& row : *table) {
    const auto& f = row.fields;
    auto reject = [&](std::string reason) {
      parsed.rejected.push_back({row.line, std::move(reason)});
    };
    if (auto s = CheckStockSymbol(f[0]); !s.ok()) {
      reject(absl::StrCat("SYMBOL: ", s.message()));
      continue;
    }
    if (auto s = CheckIsin(f[6]); !s.ok()) {
      reject(absl::StrCat("ISIN NUMBER: ", s.message()));
      continue;
    }
    if (f[1].empty() || f[1].size() > 200) {
      reject("NAME OF COMPANY: must be 1-200 characters");
      continue;
    }
    EquityListEntry entry;
    entry.line = row.line;
    entry.symbol = f[0];
    Instrument& i = entry.instrument;
    i.isin = f[6];
    i.name = f[1];
    i.series = IsNseEmpty(f[2]) ? "" : f[2];
    if (i.series.size() > 8) {
      reject("SERIES: must be at most 8 characters");
      continue;
    }
    if (!IsNseEmpty(f[3])) {
      auto day = ParseNseDate(f[3]);
      if (!day.ok()) {
        reject(absl::StrCat("DATE OF LISTING: ", day.status().message()));
        continue;
      }
      i.listing_date = *day;
    }
    std::string problem;
    i.paid_up_value = OptionalNumber(f[4], "PAID UP VALUE", &problem);
    i.face_value = OptionalNumber(f[7], "FACE VALUE", &problem);
    if (!IsNseEmpty(f[5])) {
      int lot = 0;
      if (!ParseDigits(f[5], &lot) || lot <= 0) {
        problem = absl::StrCat("MARKET LOT ", QuoteForMessage(f[5]),
                               " is not a positive whole number");
      }
      i.market_lot = lot;
    }
    if (!problem.empty()) {
      reject(problem);
      continue;
    }
    parsed.rows.push_back(std::move(entry));
  }
  return parsed;
}

absl::StatusOr<ParsedRows<SymbolChange>> ParseSymbolChanges(
    absl::string_view csv) {
  auto table = ReadCsvTable(csv,
                            {"SM_NAME_OF_COMPANY", "SM_KEY_SYMBOL",
                             "SM_NEW_SYMBOL", "SM_APPLICABLE_FROM"},
                            kSymbolChangesWhat);
  if (!table.ok()) return table.status();
  ParsedRows<SymbolChange> parsed;
  for (const CsvRow& row : *table) {
    const auto& f = row.fields;
    std::string problem;
    if (auto s = CheckStockSymbol(f[1]); !s.ok()) {
      problem = absl::StrCat("SM_KEY_SYMBOL: ", s.message());
    } else if (auto s = CheckStockSymbol(f[2]); !s.ok()) {
      problem = absl::StrCat("SM_NEW_SYMBOL: ", s.message());
    } else if (f[1] == f[2]) {
      problem = "SM_NEW_SYMBOL: the same as SM_KEY_SYMBOL";
    }
    SymbolChange change;
    if (problem.empty()) {
      auto day = ParseNseDate(f[3]);
      if (!day.ok()) {
        problem = absl::StrCat("SM_APPLICABLE_FROM: ", day.status().message());
      } else {
        change.applicable_from = *day;
      }
    }
    if (!problem.empty()) {
      parsed.rejected.push_back({row.line, problem});
      continue;
    }
    change.line = row.line;
    change.company = f[0];
    change.old_symbol = f[1];
    change.new_symbol = f[2];
    parsed.rows.push_back(std::move(change));
  }
  return parsed;
}

std::optional<std::string> SymbolOn(const SymbolHistory& history,
                                    absl::CivilDay day) {
  const int i = PeriodOn(history, day);
  if (i < 0) return std::nullopt;
  return history[i].symbol;
}

std::optional<std::string> IsinOfSymbolOn(const SecurityMaster& master,
                                          absl::string_view symbol,
                                          absl::CivilDay day) {
  for (const auto& [isin, history] : master.symbols) {
    auto on = SymbolOn(history, day);
    if (on.has_value() && *on == symbol) return isin;
  }
  return std::nullopt;
}

std::optional<std::string> IsinOfSymbolEver(const SecurityMaster& master,
                                            absl::string_view symbol) {
  std::optional<std::string> best;
  absl::CivilDay best_from = kEarliestListing - 1;
  for (const auto& [isin, history] : master.symbols) {
    for (const auto& period : history) {
      if (period.symbol == symbol && period.valid_from > best_from) {
        best = isin;
        best_from = period.valid_from;
      }
    }
  }
  return best;
}

ImportOutcome MergeEquityList(SecurityMaster& master,
                              const std::vector<EquityListEntry>& rows) {
  ImportOutcome outcome;
  for (const EquityListEntry& row : rows) {
    const std::string& isin = row.instrument.isin;
    auto known = master.instruments.find(isin);
    if (known == master.instruments.end()) {
      const absl::CivilDay from =
          row.instrument.listing_date.value_or(kEarliestListing);
      std::string holder;
      if (HeldByAnother(master, isin, row.symbol, from, std::nullopt,
                        &holder)) {
        outcome.rejected.push_back(
            {row.line,
             absl::StrCat("SYMBOL: ", row.symbol, " is the symbol of ISIN ",
                          holder, " on or after ", FormatDate(from))});
        continue;
      }
      master.instruments[isin] = row.instrument;
      master.symbols[isin] = {SymbolPeriod{row.symbol, from}};
      ++outcome.imported;
      continue;
    }
    SymbolHistory& history = master.symbols[isin];
    if (!history.empty() && history.back().symbol != row.symbol) {
      outcome.rejected.push_back(
          {row.line,
           absl::StrCat("SYMBOL: ISIN ", isin, " is stored under symbol ",
                        history.back().symbol, " since ",
                        FormatDate(history.back().valid_from), ", not ",
                        row.symbol,
                        "; import the symbol-change list for a rename")});
      continue;
    }
    if (known->second == row.instrument) {
      ++outcome.unchanged;
      continue;
    }
    known->second = row.instrument;
    ++outcome.imported;
  }
  return outcome;
}

namespace {

enum class ChangeResult { kApplied, kUnchanged, kPending, kRejected };

ChangeResult ApplyOne(SecurityMaster& master, const SymbolChange& change,
                      std::string* reason) {
  const absl::CivilDay day = change.applicable_from;
  // Already recorded: a period of the new symbol starting that day, right
  // after one of the old symbol.
  for (const auto& [isin, history] : master.symbols) {
    for (size_t i = 1; i < history.size(); ++i) {
      if (history[i].symbol == change.new_symbol &&
          history[i].valid_from == day &&
          history[i - 1].symbol == change.old_symbol) {
        return ChangeResult::kUnchanged;
      }
    }
  }
  for (auto& [isin, history] : master.symbols) {
    const int i = PeriodOn(history, day - 1);
    if (i < 0) continue;
    const std::optional<absl::CivilDay> next =
        i + 1 < static_cast<int>(history.size())
            ? std::optional<absl::CivilDay>(history[i + 1].valid_from)
            : std::nullopt;
    if (next.has_value() && *next <= day) continue;
    std::string holder;
    if (history[i].symbol == change.new_symbol) {
      // Today's symbol imported first: the part before the change was
      // called the old symbol.
      if (HeldByAnother(master, isin, change.old_symbol, history[i].valid_from,
                        day, &holder)) {
        *reason = absl::StrCat("SM_KEY_SYMBOL: ", change.old_symbol,
                               " is the symbol of ISIN ", holder, " before ",
                               FormatDate(day));
        return ChangeResult::kRejected;
      }
      history[i].symbol = change.old_symbol;
      history.insert(history.begin() + i + 1,
                     SymbolPeriod{change.new_symbol, day});
      return ChangeResult::kApplied;
    }
    if (history[i].symbol == change.old_symbol) {
      if (HeldByAnother(master, isin, change.new_symbol, day, next, &holder)) {
        *reason = absl::StrCat("SM_NEW_SYMBOL: ", change.new_symbol,
                               " is the symbol of ISIN ", holder, " from ",
                               FormatDate(day));
        return ChangeResult::kRejected;
      }
      history.insert(history.begin() + i + 1,
                     SymbolPeriod{change.new_symbol, day});
      return ChangeResult::kApplied;
    }
  }
  return ChangeResult::kPending;
}

}  // namespace

ImportOutcome ApplySymbolChanges(SecurityMaster& master,
                                 const std::vector<SymbolChange>& rows) {
  ImportOutcome outcome;
  std::vector<const SymbolChange*> pending;
  for (const auto& row : rows) pending.push_back(&row);
  // A chain (A->B, then B->C) may be listed in any order and meet the
  // master from either end, so apply what applies and retry the rest until
  // a pass changes nothing.
  bool progress = true;
  while (progress && !pending.empty()) {
    progress = false;
    std::vector<const SymbolChange*> still;
    for (const SymbolChange* change : pending) {
      std::string reason;
      switch (ApplyOne(master, *change, &reason)) {
        case ChangeResult::kApplied:
          ++outcome.imported;
          progress = true;
          break;
        case ChangeResult::kUnchanged:
          ++outcome.unchanged;
          progress = true;
          break;
        case ChangeResult::kRejected:
          outcome.rejected.push_back({change->line, reason});
          progress = true;
          break;
        case ChangeResult::kPending:
          still.push_back(change);
      }
    }
    pending = std::move(still);
  }
  for (const SymbolChange* change : pending) {
    outcome.rejected.push_back(
        {change->line,
         absl::StrCat("SM_KEY_SYMBOL: neither ", change->old_symbol,
                      " (before ", FormatDate(change->applicable_from),
                      ") nor ", change->new_symbol,
                      " is the symbol of a known instrument; import the "
                      "equity list first")});
  }
  std::sort(outcome.rejected.begin(), outcome.rejected.end(),
            [](const RejectedRow& a, const RejectedRow& b) {
              return a.line < b.line;
            });
  return outcome;
}

}  // namespace mdc::domain

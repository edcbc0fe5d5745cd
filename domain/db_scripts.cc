#include "domain/db_scripts.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

struct ScriptSpec {
  DbScript script;
  const char* name;
  std::vector<const char*> args;  // required arguments
};

const std::vector<ScriptSpec>& Specs() {
  static const auto* specs = new std::vector<ScriptSpec>{
      {DbScript::kAnalyze, "analyze", {}},
      {DbScript::kVacuum, "vacuum", {}},
      {DbScript::kPurgeBefore, "purge-before", {"before"}},
      {DbScript::kDedupeCheck, "dedupe-check", {}},
  };
  return *specs;
}

}  // namespace

std::string DbScriptNames() {
  std::vector<std::string> names;
  for (const ScriptSpec& spec : Specs()) names.emplace_back(spec.name);
  return absl::StrJoin(names, ", ");
}

absl::Status CheckDbScriptArgCount(size_t count) {
  if (count <= static_cast<size_t>(kMaxDbScriptArgs)) return absl::OkStatus();
  return InvalidField(
      "args",
      absl::StrCat("has ", count, " arguments; at most ", kMaxDbScriptArgs));
}

absl::StatusOr<DbScriptPlan> PlanDbScript(
    absl::string_view script, bool dry_run,
    const std::map<std::string, std::string>& args) {
  FieldErrors errors;
  const ScriptSpec* spec = nullptr;
  for (const ScriptSpec& candidate : Specs()) {
    if (script == candidate.name) spec = &candidate;
  }
  if (spec == nullptr) {
    errors.Add("script", absl::StrCat(script.empty() ? "is required"
                                                     : "is not a known script",
                                      "; valid scripts: ", DbScriptNames()));
    return errors.ToStatus();
  }
  DbScriptPlan plan;
  plan.script = spec->script;
  plan.name = spec->name;
  plan.dry_run = dry_run;
  const std::string takes =
      spec->args.empty()
          ? absl::StrCat(spec->name, " takes no arguments")
          : absl::StrCat(spec->name,
                         " takes: ", absl::StrJoin(spec->args, ", "));
  for (const auto& [name, value] : args) {
    bool known = false;
    for (const char* arg : spec->args) known = known || name == arg;
    if (!known) {
      // The name is client text: keep it printable and short in the field.
      std::string shown = name.substr(0, 64);
      for (char& c : shown) {
        if (!absl::ascii_isprint(static_cast<unsigned char>(c))) c = '?';
      }
      errors.Add(absl::StrCat("args.", shown),
                 absl::StrCat("is not an argument of this script; ", takes));
    }
  }
  if (spec->script == DbScript::kPurgeBefore) {
    auto it = args.find("before");
    if (it == args.end() || it->second.empty()) {
      errors.Add("args.before",
                 "is required: purge-before deletes market data of trading "
                 "days before this date (YYYY-MM-DD)");
    } else if (auto day = ParseDate(it->second); !day.ok()) {
      errors.AddStatus("args.before", day.status());
    } else {
      plan.before = *day;
    }
  }
  if (!errors.empty()) return errors.ToStatus();
  return plan;
}

}  // namespace mdc::domain

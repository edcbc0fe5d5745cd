#include "service/api/admin_service.h"

#include <algorithm>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/admin_requests.h"
#include "domain/calendar.h"
#include "domain/compaction.h"
#include "domain/db_scripts.h"
#include "domain/developers.h"
#include "domain/error_reason.h"
#include "domain/field_errors.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "service/api/developer_proto.h"
#include "service/broker/db_broker_credentials.h"

namespace mdc {
namespace {

int32_t Clamp32(int64_t value) {
  return static_cast<int32_t>(
      std::min<int64_t>(value, std::numeric_limits<int32_t>::max()));
}

absl::StatusOr<int64_t> DeveloperId(const std::string& id) {
  auto parsed = domain::ParseDeveloperId(id);
  if (!parsed.ok())
    return domain::InvalidField("id", parsed.status().message());
  return *parsed;
}

absl::Status UnknownDeveloper(int64_t id) {
  return absl::NotFoundError(absl::StrCat("no developer with id ", id));
}

// Maps the repository's NOT_FOUND onto a message naming the id.
absl::Status NameId(absl::Status status, int64_t id) {
  return absl::IsNotFound(status) ? UnknownDeveloper(id) : status;
}

}  // namespace

grpc::Status AdminService::ListDevelopers(
    grpc::ServerContext* context, const v1::ListDevelopersRequest* request,
    v1::ListDevelopersResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    domain::FieldErrors errors;
    auto size = domain::ResolvePageSize(request->page_size());
    errors.AddStatus("pageSize", size.status());
    auto after = domain::DecodeDeveloperPageToken(request->page_token());
    errors.AddStatus("pageToken", after.status());
    if (!errors.empty()) return errors.ToStatus();
    auto page = stores_.developers.List(*after, *size);
    if (!page.ok()) return page.status();
    for (const auto& developer : page->developers) {
      ToProto(developer, response->add_developers());
    }
    if (page->more) {
      response->set_next_page_token(
          domain::EncodeDeveloperPageToken(page->developers.back().id));
    }
    response->set_total_size(Clamp32(page->total));
    return absl::OkStatus();
  });
}

grpc::Status AdminService::GetDeveloper(grpc::ServerContext* context,
                                        const v1::GetDeveloperRequest* request,
                                        v1::Developer* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto id = DeveloperId(request->id());
    if (!id.ok()) return id.status();
    auto found = stores_.developers.Find(*id);
    if (!found.ok()) return found.status();
    if (!found->has_value()) return UnknownDeveloper(*id);
    ToProto(**found, response);
    return absl::OkStatus();
  });
}

grpc::Status AdminService::CreateDeveloper(
    grpc::ServerContext* context, const v1::CreateDeveloperRequest* request,
    v1::Developer* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    domain::FieldErrors errors;
    errors.AddStatus("username", domain::CheckUsername(request->username()));
    Role role = Role::kDeveloper;
    if (!request->role().empty() && !ParseRole(request->role(), &role)) {
      errors.Add("role", "must be developer or admin");
    }
    if (!errors.empty()) return errors.ToStatus();
    const std::string token = domain::GenerateToken();
    auto created = stores_.developers.Create(
        request->username(), RoleName(role), domain::HashToken(token));
    if (!created.ok()) return created.status();
    ToProto(*created, response);
    response->set_token(token);
    return absl::OkStatus();
  });
}

grpc::Status AdminService::RefreshDeveloperKey(
    grpc::ServerContext* context, const v1::RefreshDeveloperKeyRequest* request,
    v1::Developer* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto id = DeveloperId(request->id());
    if (!id.ok()) return id.status();
    // Every replica looks tokens up in the database on every
    // call (no cache), so the old token is refused as soon as
    // this commits.
    const std::string token = domain::GenerateToken();
    auto refreshed =
        stores_.developers.ReplaceTokenHash(*id, domain::HashToken(token));
    if (!refreshed.ok()) return NameId(refreshed.status(), *id);
    ToProto(*refreshed, response);
    response->set_token(token);
    return absl::OkStatus();
  });
}

grpc::Status AdminService::DeleteDeveloper(
    grpc::ServerContext* context, const v1::DeleteDeveloperRequest* request,
    google::protobuf::Empty*) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto id = DeveloperId(request->id());
    if (!id.ok()) return id.status();
    return NameId(stores_.developers.Delete(*id), *id);
  });
}

grpc::Status AdminService::ListHolidays(grpc::ServerContext* context,
                                        const v1::ListHolidaysRequest* request,
                                        v1::ListHolidaysResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto year = domain::ResolveYear(request->year(), absl::Now());
    if (!year.ok()) return year.status();
    auto entries = stores_.holidays.ListYear(*year);
    if (!entries.ok()) return entries.status();
    for (const auto& entry : *entries) {
      domain::ToProto(entry, response->add_holidays());
    }
    return absl::OkStatus();
  });
}

grpc::Status AdminService::CreateHolidays(
    grpc::ServerContext* context, const v1::CreateHolidaysRequest* request,
    v1::ListHolidaysResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto entries =
        domain::ValidateCalendarEntries(request->holidays(), request->dates());
    if (!entries.ok()) return entries.status();
    if (auto created = stores_.holidays.CreateAll(*entries); !created.ok()) {
      return created;
    }
    std::sort(entries->begin(), entries->end(),
              [](const auto& a, const auto& b) { return a.date < b.date; });
    for (const auto& entry : *entries) {
      domain::ToProto(entry, response->add_holidays());
    }
    return absl::OkStatus();
  });
}

absl::Status AdminService::DeleteHolidayDays(
    const std::vector<absl::CivilDay>& days,
    v1::DeleteHolidaysResponse* response) {
  auto deleted = stores_.holidays.Delete(days);
  if (!deleted.ok()) return deleted.status();
  if (deleted->empty()) {
    return absl::NotFoundError(days.size() == 1
                                   ? "this date is not in the holiday calendar"
                                   : "none of these dates is in the holiday "
                                     "calendar");
  }
  for (const auto& day : *deleted) {
    response->add_deleted_dates(domain::FormatDate(day));
  }
  return absl::OkStatus();
}

grpc::Status AdminService::DeleteHolidays(
    grpc::ServerContext* context, const v1::DeleteHolidaysRequest* request,
    v1::DeleteHolidaysResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto days = domain::ValidateDateList(request->dates());
    if (!days.ok()) return days.status();
    return DeleteHolidayDays(*days, response);
  });
}

grpc::Status AdminService::DeleteHoliday(
    grpc::ServerContext* context, const v1::DeleteHolidayRequest* request,
    v1::DeleteHolidaysResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto day = domain::ParseDate(request->date());
    if (!day.ok()) {
      return domain::InvalidField("date", day.status().message());
    }
    return DeleteHolidayDays({*day}, response);
  });
}

grpc::Status AdminService::ListDataDates(
    grpc::ServerContext* context, const v1::ListDataDatesRequest* request,
    v1::ListDataDatesResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto dates = stores_.market_data.ListDates();
    if (!dates.ok()) return dates.status();
    for (const auto& counts : *dates) {
      auto* date = response->add_dates();
      date->set_date(domain::FormatDate(counts.day));
      date->set_shortlist_count(Clamp32(counts.shortlists));
      date->set_quote_count(Clamp32(counts.quotes));
      date->set_nifty_count(Clamp32(counts.nifty_quotes));
    }
    return absl::OkStatus();
  });
}

grpc::Status AdminService::DeleteDataDates(
    grpc::ServerContext* context, const v1::DeleteDataDatesRequest* request,
    v1::DeleteDataDatesResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto days = domain::ValidateDateList(request->dates());
    if (!days.ok()) return days.status();
    auto deleted = stores_.market_data.DeleteDays(*days);
    if (!deleted.ok()) return deleted.status();
    response->set_shortlists(Clamp32(deleted->shortlists));
    response->set_quotes(Clamp32(deleted->quotes));
    response->set_nifty_quotes(Clamp32(deleted->nifty_quotes));
    return absl::OkStatus();
  });
}

// The table locks a compaction waits for (the partition swap locks
// stock_quotes briefly); past this it fails with nothing changed, and the
// caller may try again.
constexpr absl::Duration kCompactionLockWait = absl::Seconds(10);

grpc::Status AdminService::CompactHistory(
    grpc::ServerContext* context, const v1::CompactHistoryRequest* request,
    v1::CompactHistoryResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto through =
        domain::ParseCompactThrough(request->through(), absl::Now(), "through");
    if (!through.ok()) return through.status();
    auto counts =
        stores_.compaction.CompactThrough(*through, kCompactionLockWait);
    if (!counts.ok()) return counts.status();
    response->set_days(counts->days);
    response->set_quotes(counts->quotes);
    response->set_batches(counts->batches);
    response->set_busy_months(counts->busy_months);
    response->set_nifty_days(counts->nifty_days);
    response->set_nifty_quotes(counts->nifty_quotes);
    response->set_nifty_batches(counts->nifty_batches);
    return absl::OkStatus();
  });
}

grpc::Status AdminService::GetStorageReport(
    grpc::ServerContext* context, const v1::GetStorageReportRequest* request,
    v1::StorageReport* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto report = stores_.storage_report.Report();
    if (!report.ok()) return report.status();
    for (const storage::StorageUsage& usage : *report) {
      v1::StorageUsage* out = response->add_usage();
      out->set_kind(usage.kind);
      out->set_month(usage.month);
      out->set_form(usage.form);
      out->set_rows(usage.rows);
      out->set_bytes(usage.bytes);
      out->set_bytes_per_row(
          usage.rows > 0 ? static_cast<double>(usage.bytes) / usage.rows : 0);
    }
    return absl::OkStatus();
  });
}

grpc::Status AdminService::RunDbScript(grpc::ServerContext* context,
                                       const v1::RunDbScriptRequest* request,
                                       v1::RunDbScriptResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    if (auto counted = domain::CheckDbScriptArgCount(request->args_size());
        !counted.ok()) {
      return counted;
    }
    const std::map<std::string, std::string> args(request->args().begin(),
                                                  request->args().end());
    auto plan =
        domain::PlanDbScript(request->script(), request->dry_run(), args);
    if (!plan.ok()) return plan.status();
    absl::StatusOr<storage::MaintenanceReport> report;
    switch (plan->script) {
      case domain::DbScript::kAnalyze:
        report = stores_.maintenance.Analyze(plan->dry_run);
        break;
      case domain::DbScript::kVacuum:
        report = stores_.maintenance.Vacuum(plan->dry_run);
        break;
      case domain::DbScript::kDedupeCheck:
        report = stores_.maintenance.DedupeCheck();
        if (report.ok() && plan->dry_run) {
          report->log.push_back(
              "dedupe-check only reads; dryRun changes "
              "nothing");
        }
        break;
      case domain::DbScript::kPurgeBefore: {
        auto counts =
            stores_.market_data.PurgeBefore(plan->before, plan->dry_run);
        if (!counts.ok()) return counts.status();
        const std::string verb = plan->dry_run ? "would delete " : "deleted ";
        const std::string when = absl::StrCat(" of trading days before ",
                                              domain::FormatDate(plan->before));
        storage::MaintenanceReport purge;
        purge.affected = counts->total();
        purge.log = {
            absl::StrCat(verb, counts->shortlists, " shortlist snapshots",
                         when),
            absl::StrCat(verb, counts->quotes, " stock quotes", when),
            absl::StrCat(verb, counts->nifty_quotes, " NIFTY quotes", when),
        };
        report = std::move(purge);
        break;
      }
    }
    if (!report.ok()) return report.status();
    response->set_script(plan->name);
    response->set_dry_run(plan->dry_run);
    response->set_affected_rows(Clamp32(report->affected));
    for (auto& line : report->log) response->add_log(std::move(line));
    return absl::OkStatus();
  });
}

grpc::Status AdminService::SetBrokerCredentials(
    grpc::ServerContext* context,
    const v1::SetBrokerCredentialsRequest* request,
    v1::BrokerCredentialsStatus* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    domain::FieldErrors errors;
    errors.AddStatus("apiKey",
                     domain::CheckBrokerCredential(request->api_key()));
    errors.AddStatus("apiSecret",
                     domain::CheckBrokerCredential(request->api_secret()));
    if (!errors.empty()) return errors.ToStatus();
    if (!secret_box_.has_value()) {
      return domain::WithReason(
          absl::FailedPreconditionError(
              "broker credentials are stored encrypted and this server "
              "has no key: set MDC_SECRET_KEY (64 hex characters, e.g. "
              "from `openssl rand -hex 32`) and restart it"),
          domain::reason::kSecretKeyNotConfigured);
    }
    auto stored = stores_.broker_credentials.Put(
        secret_box_->Seal(request->api_key(), kBrokerApiKeyContext),
        secret_box_->Seal(request->api_secret(), kBrokerApiSecretContext));
    if (!stored.ok()) return stored.status();
    response->set_configured(true);
    domain::SetTimestamp(*stored, response->mutable_updated_time());
    return absl::OkStatus();
  });
}

grpc::Status AdminService::GetBrokerCredentials(
    grpc::ServerContext* context,
    const v1::GetBrokerCredentialsRequest* request,
    v1::BrokerCredentialsStatus* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto stored = stores_.broker_credentials.Get();
    if (!stored.ok()) return stored.status();
    response->set_configured(stored->has_value());
    if (stored->has_value()) {
      domain::SetTimestamp((*stored)->updated_at,
                           response->mutable_updated_time());
    }
    return absl::OkStatus();
  });
}

}  // namespace mdc

// mdc.v1.AdminService: developers and tokens, holidays, stored data,
// maintenance scripts and broker credentials. Every RPC requires an admin
// token.
#ifndef MDC_SERVICE_API_ADMIN_SERVICE_H_
#define MDC_SERVICE_API_ADMIN_SERVICE_H_

#include <optional>
#include <vector>

#include "domain/secret_box.h"
#include "mdc/v1/admin.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "storage/broker_credentials_repository.h"
#include "storage/compaction_repository.h"
#include "storage/developer_repository.h"
#include "storage/holiday_repository.h"
#include "storage/instrument_repository.h"
#include "storage/maintenance_repository.h"
#include "storage/market_data_repository.h"
#include "storage/storage_report_repository.h"

namespace mdc {

class AdminService final : public v1::AdminService::Service {
 public:
  // The repositories this service reads and writes, and no others.
  struct Stores {
    storage::DeveloperRepository& developers;
    storage::HolidayRepository& holidays;
    storage::MarketDataRepository& market_data;
    storage::MaintenanceRepository& maintenance;
    storage::BrokerCredentialsRepository& broker_credentials;
    storage::CompactionRepository& compaction;
    storage::StorageReportRepository& storage_report;
    storage::InstrumentRepository& instruments;
  };

  // `secret_box` seals broker credentials; empty when MDC_SECRET_KEY is not
  // set, and then SetBrokerCredentials is FAILED_PRECONDITION with reason
  // SECRET_KEY_NOT_CONFIGURED.
  AdminService(CallRunner& calls, Stores stores,
               std::optional<domain::SecretBox> secret_box)
      : calls_(calls, v1::AdminService::service_full_name()),
        stores_(stores),
        secret_box_(std::move(secret_box)) {}

  grpc::Status ListDevelopers(grpc::ServerContext* context,
                              const v1::ListDevelopersRequest* request,
                              v1::ListDevelopersResponse* response) override;
  grpc::Status GetDeveloper(grpc::ServerContext* context,
                            const v1::GetDeveloperRequest* request,
                            v1::Developer* response) override;
  grpc::Status CreateDeveloper(grpc::ServerContext* context,
                               const v1::CreateDeveloperRequest* request,
                               v1::Developer* response) override;
  grpc::Status RefreshDeveloperKey(
      grpc::ServerContext* context,
      const v1::RefreshDeveloperKeyRequest* request,
      v1::Developer* response) override;
  grpc::Status DeleteDeveloper(grpc::ServerContext* context,
                               const v1::DeleteDeveloperRequest* request,
                               google::protobuf::Empty* response) override;
  grpc::Status ListHolidays(grpc::ServerContext* context,
                            const v1::ListHolidaysRequest* request,
                            v1::ListHolidaysResponse* response) override;
  grpc::Status CreateHolidays(grpc::ServerContext* context,
                              const v1::CreateHolidaysRequest* request,
                              v1::ListHolidaysResponse* response) override;
  grpc::Status DeleteHolidays(grpc::ServerContext* context,
                              const v1::DeleteHolidaysRequest* request,
                              v1::DeleteHolidaysResponse* response) override;
  grpc::Status DeleteHoliday(grpc::ServerContext* context,
                             const v1::DeleteHolidayRequest* request,
                             v1::DeleteHolidaysResponse* response) override;
  grpc::Status ListDataDates(grpc::ServerContext* context,
                             const v1::ListDataDatesRequest* request,
                             v1::ListDataDatesResponse* response) override;
  grpc::Status DeleteDataDates(grpc::ServerContext* context,
                               const v1::DeleteDataDatesRequest* request,
                               v1::DeleteDataDatesResponse* response) override;
  grpc::Status RunDbScript(grpc::ServerContext* context,
                           const v1::RunDbScriptRequest* request,
                           v1::RunDbScriptResponse* response) override;
  grpc::Status CompactHistory(grpc::ServerContext* context,
                              const v1::CompactHistoryRequest* request,
                              v1::CompactHistoryResponse* response) override;
  grpc::Status GetStorageReport(grpc::ServerContext* context,
                                const v1::GetStorageReportRequest* request,
                                v1::StorageReport* response) override;
  grpc::Status SetBrokerCredentials(
      grpc::ServerContext* context,
      const v1::SetBrokerCredentialsRequest* request,
      v1::BrokerCredentialsStatus* response) override;
  grpc::Status GetBrokerCredentials(
      grpc::ServerContext* context,
      const v1::GetBrokerCredentialsRequest* request,
      v1::BrokerCredentialsStatus* response) override;
  grpc::Status ImportInstruments(grpc::ServerContext* context,
                                 const v1::ImportInstrumentsRequest* request,
                                 v1::ImportFileResponse* response) override;
  grpc::Status ImportCorporateActions(
      grpc::ServerContext* context,
      const v1::ImportCorporateActionsRequest* request,
      v1::ImportFileResponse* response) override;
  grpc::Status CreateCorporateAction(
      grpc::ServerContext* context,
      const v1::CreateCorporateActionRequest* request,
      v1::CreateCorporateActionResponse* response) override;

 private:
  // Deletes the holidays of `days`, answering their dates; NOT_FOUND when
  // none was a holiday.
  absl::Status DeleteHolidayDays(const std::vector<absl::CivilDay>& days,
                                 v1::DeleteHolidaysResponse* response);

  ServiceCalls calls_;
  Stores stores_;
  const std::optional<domain::SecretBox> secret_box_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_ADMIN_SERVICE_H_

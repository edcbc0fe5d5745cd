// AdminService's imports of NSE's files: the security master (EQUITY_L.csv,
// the symbol-change list) and the corporate actions (service/imports).
#include "domain/field_errors.h"
#include "service/api/admin_service.h"
#include "service/imports/file_imports.h"

namespace mdc {
namespace {

void AddNotes(const std::vector<domain::RejectedRow>& notes,
              google::protobuf::RepeatedPtrField<v1::ImportedRowNote>* out) {
  for (const auto& note : notes) {
    v1::ImportedRowNote* row = out->Add();
    row->set_line(note.line);
    row->set_reason(domain::CutText(note.reason, domain::kMaxDescriptionBytes));
  }
}

void ToProto(const FileImportReport& report, v1::ImportFileResponse* out) {
  out->set_kind(report.kind);
  out->set_imported(report.imported);
  out->set_unchanged(report.unchanged);
  AddNotes(report.rejected, out->mutable_rejected());
  AddNotes(report.ignored, out->mutable_ignored());
}

}  // namespace

grpc::Status AdminService::ImportInstruments(
    grpc::ServerContext* context, const v1::ImportInstrumentsRequest* request,
    v1::ImportFileResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    // The corporate-actions file has its own route.
    if (request->kind() == kCorporateActionsFile) {
      return domain::InvalidField(
          "kind",
          "must be equity_list or symbol_changes; corporate "
          "actions are imported at "
          "/v1/admin/corporate-actions/import");
    }
    auto report =
        ImportFile(request->kind(), request->csv(), stores_.instruments);
    if (!report.ok()) return report.status();
    ToProto(*report, response);
    return absl::OkStatus();
  });
}

grpc::Status AdminService::ImportCorporateActions(
    grpc::ServerContext* context,
    const v1::ImportCorporateActionsRequest* request,
    v1::ImportFileResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto report =
        ImportFile(kCorporateActionsFile, request->csv(), stores_.instruments);
    if (!report.ok()) return report.status();
    ToProto(*report, response);
    return absl::OkStatus();
  });
}

}  // namespace mdc

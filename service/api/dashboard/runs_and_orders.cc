// DashboardService: the caller's trading runs and their orders, each order
// listed with its trade outcome.
//
// Another developer's run, an unknown run and a malformed run id all answer
// RunNotFound(), so a caller learns nothing about runs it does not own.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/dashboard_requests.h"
#include "domain/field_errors.h"
#include "domain/minute_bars.h"
#include "domain/outcomes.h"
#include "domain/paging.h"
#include "domain/runs.h"
#include "domain/symbol_day.h"
#include "domain/text.h"
#include "domain/time.h"
#include "service/api/dashboard/dashboard_proto.h"
#include "service/api/dashboard/dashboard_service.h"

namespace mdc {
namespace {

// The kinds that tie a keyset page token to its list.
constexpr absl::string_view kRunsPage = "runs";
constexpr absl::string_view kOrdersPage = "orders";

absl::Status RunNotFound() { return absl::NotFoundError("run not found"); }

domain::OrderLevels LevelsOf(const storage::OrderRecord& order) {
  return domain::OrderLevels{order.ordered_at, order.entry_price,
                             order.stop_loss_price, order.take_profit_price};
}

}  // namespace

grpc::Status DashboardService::ListRuns(grpc::ServerContext* context,
                                        const v1::ListRunsRequest* request,
                                        v1::ListRunsResponse* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        std::string tag;
        if (!request->tag().empty()) {
          auto normalized = domain::NormalizeTag(request->tag());
          errors.AddStatus("tag", normalized.status());
          if (normalized.ok()) tag = *normalized;
        }
        auto page_size = domain::PageSize(request->page_size());
        errors.AddStatus("pageSize", page_size.status());
        auto cursor =
            domain::DecodeKeysetToken(kRunsPage, request->page_token());
        errors.AddStatus("pageToken", cursor.status());
        if (!errors.empty()) return errors.ToStatus();
        auto runs =
            stores_.runs.ListRuns(call.caller.developer_id, tag, *cursor,
                                  domain::PageReadSize(*page_size));
        if (!runs.ok()) return runs.status();
        const bool more = domain::TrimToPage(*runs, *page_size);
        for (const auto& run : *runs) ToProto(run, response->add_runs());
        if (more) {
          response->set_next_page_token(domain::EncodeKeysetToken(
              kRunsPage, {runs->back().created_at, runs->back().id}));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::ListRunTags(
    grpc::ServerContext* context, const v1::ListRunTagsRequest* request,
    v1::ListRunTagsResponse* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        auto tags = stores_.runs.ListTags(call.caller.developer_id);
        if (!tags.ok()) return tags.status();
        for (auto& tag : *tags) response->add_tags(std::move(tag));
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::CreateRun(grpc::ServerContext* context,
                                         const v1::CreateRunRequest* request,
                                         v1::Run* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto zone = domain::ResolveTimeZone(request->timezone());
        errors.AddStatus("timezone", zone.status());
        std::optional<absl::Time> start = domain::RequiredWallClock(
            request->start_datetime(), zone, "start_datetime",
            "a wall-clock time", errors);
        std::optional<absl::Time> end = domain::RequiredWallClock(
            request->end_datetime(), zone, "end_datetime", "a wall-clock time",
            errors);
        if (start.has_value() && end.has_value() && *start > *end) {
          errors.Add("start_datetime", "must not be after end_datetime");
        }
        domain::CheckRunName(request->name(), "name", errors);
        storage::NewRun run;
        run.tags = domain::NormalizeTags(request->tags(), "tags", errors);
        if (!errors.empty()) return errors.ToStatus();
        run.name = request->name();
        run.start_at = *start;
        run.end_at = *end;
        auto created = stores_.runs.CreateRun(call.caller.developer_id, run);
        if (!created.ok()) return created.status();
        ToProto(*created, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::UpdateRun(grpc::ServerContext* context,
                                         const v1::UpdateRunRequest* request,
                                         v1::Run* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        storage::RunChanges changes;
        for (const std::string& path : request->update_mask().paths()) {
          if (path.empty()) {
            // The gateway's mask of an empty JSON body.
            continue;
          } else if (path == "completed") {
            changes.completed = request->run().completed();
          } else if (path == "name") {
            domain::CheckRunName(request->run().name(), "name", errors);
            changes.name = request->run().name();
          } else if (path == "tags") {
            changes.tags =
                domain::NormalizeTags(request->run().tags(), "tags", errors);
          } else {
            errors.Add(
                "update_mask",
                absl::StrCat("cannot change ", domain::QuoteForMessage(path),
                             "; a run's changeable fields are "
                             "completed, name and tags"));
          }
        }
        if (!errors.empty()) return errors.ToStatus();
        // Nothing named (an empty body): the run is answered unchanged.
        auto updated =
            changes.completed || changes.name || changes.tags
                ? stores_.runs.UpdateRun(call.caller.developer_id, *run_id,
                                         changes)
                : stores_.runs.FindRun(call.caller.developer_id, *run_id);
        if (!updated.ok()) return updated.status();
        if (!updated->has_value()) return RunNotFound();
        ToProto(**updated, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::DeleteRun(grpc::ServerContext* context,
                                         const v1::DeleteRunRequest* request,
                                         google::protobuf::Empty* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        auto deleted =
            stores_.runs.DeleteRun(call.caller.developer_id, *run_id);
        if (!deleted.ok()) return deleted.status();
        if (!*deleted) return RunNotFound();
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::ListOrders(grpc::ServerContext* context,
                                          const v1::ListOrdersRequest* request,
                                          v1::ListOrdersResponse* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        const std::optional<double> gain =
            OptionalField(request->has_target_gain_percentage(),
                          request->target_gain_percentage());
        domain::CheckGainPercentage(gain, "targetGainPercentage", errors);
        auto page_size = domain::PageSize(request->page_size());
        errors.AddStatus("pageSize", page_size.status());
        auto cursor =
            domain::DecodeKeysetToken(kOrdersPage, request->page_token());
        errors.AddStatus("pageToken", cursor.status());
        if (!errors.empty()) return errors.ToStatus();
        auto run = stores_.runs.FindRun(call.caller.developer_id, *run_id);
        if (!run.ok()) return run.status();
        if (!run->has_value()) return RunNotFound();

        auto orders = stores_.runs.ListOrders(*run_id, *cursor,
                                              domain::PageReadSize(*page_size));
        if (!orders.ok()) return orders.status();
        const bool more = domain::TrimToPage(*orders, *page_size);

        // Every symbol-day the page needs, fetched in one statement.
        std::vector<domain::SymbolDay> keys;
        absl::flat_hash_set<domain::SymbolDay> seen;
        for (const auto& order : *orders) {
          domain::SymbolDay key(order.nse_symbol,
                                domain::TradingDay(order.ordered_at));
          if (seen.insert(key).second) keys.push_back(std::move(key));
        }
        auto prices = stores_.quote_batches.PricesOfSymbolDays(
            keys, call.clock.CutEnd(domain::FarFuture()));
        if (!prices.ok()) return prices.status();
        domain::MinuteBarCache bars(*std::move(prices));

        for (const auto& order : *orders) {
          v1::Order* out = response->add_orders();
          ToProto(order, out);
          *out->mutable_outcome() = domain::ComputeOutcome(
              domain::OrderTrade(LevelsOf(order), gain),
              bars.Of(order.nse_symbol, domain::TradingDay(order.ordered_at)));
        }
        if (more) {
          response->set_next_page_token(domain::EncodeKeysetToken(
              kOrdersPage, {orders->back().ordered_at, orders->back().id}));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::CreateOrder(
    grpc::ServerContext* context, const v1::CreateOrderRequest* request,
    v1::Order* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        domain::CheckSymbolParameter(request->nse_symbol(), "nseSymbol",
                                     errors);
        domain::CheckOrderPrices(
            OptionalField(request->has_entry_price(), request->entry_price()),
            OptionalField(request->has_stop_loss_price(),
                          request->stop_loss_price()),
            OptionalField(request->has_take_profit_price(),
                          request->take_profit_price()),
            errors);
        auto zone = domain::ResolveTimeZone(request->timezone());
        errors.AddStatus("timezone", zone.status());
        std::optional<absl::Time> at =
            domain::RequiredWallClock(request->datetime(), zone, "datetime",
                                      "the order's wall-clock time", errors);
        if (!errors.empty()) return errors.ToStatus();
        storage::NewOrder order;
        order.nse_symbol = request->nse_symbol();
        order.entry_price = request->entry_price();
        order.stop_loss_price = request->stop_loss_price();
        order.take_profit_price = request->take_profit_price();
        order.ordered_at = *at;
        auto created =
            stores_.runs.CreateOrder(call.caller.developer_id, *run_id, order);
        if (!created.ok()) return created.status();
        if (!created->has_value()) return RunNotFound();
        ToProto(**created, response);
        return absl::OkStatus();
      });
}

}  // namespace mdc

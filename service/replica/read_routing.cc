#include "service/replica/read_routing.h"

namespace mdc {
namespace {

constexpr absl::string_view kCollector = "mdc.v1.CollectorService";
constexpr absl::string_view kDeveloper = "mdc.v1.DeveloperService";
constexpr absl::string_view kDashboard = "mdc.v1.DashboardService";
constexpr absl::string_view kAdmin = "mdc.v1.AdminService";
constexpr absl::string_view kHealth = "mdc.v1.HealthService";
constexpr absl::string_view kStream = "mdc.v1.StreamService";

constexpr ReadsFrom kPrimary = ReadsFrom::kPrimary;
constexpr ReadsFrom kReplica = ReadsFrom::kReplica;

}  // namespace

const std::vector<ReadRoute>& ReadRoutes() {
  static const auto* const routes = new std::vector<ReadRoute>{
      // Collectors write; CheckHoliday decides what they collect next.
      {kCollector, "SaveShortlist", kPrimary},
      {kCollector, "SaveNifty", kPrimary},
      {kCollector, "SaveQuotes", kPrimary},
      {kCollector, "CheckHoliday", kPrimary},
      // Developer market reads: what collectors stored, as of an instant.
      {kDeveloper, "GetList", kReplica},
      {kDeveloper, "GetQuote", kReplica},
      {kDeveloper, "GetQuoteTimeline", kReplica},
      {kDeveloper, "GetNifty", kReplica},
      {kDeveloper, "GetNiftyTimeline", kReplica},
      {kDeveloper, "GetHistoricalCandles", kReplica},
      {kDeveloper, "GetShortlistPersistence", kReplica},
      {kDeveloper, "ListHolidays", kReplica},
      // Refreshed and stored through the database by whichever server
      // asks first: it must see the token another server just stored.
      {kDeveloper, "GetBrokerToken", kPrimary},
      // Sign-in counts failed attempts (a write) and checks the token.
      {kDashboard, "SignIn", kPrimary},
      // Dashboard market views: the same stored data as the developer reads.
      {kDashboard, "ListAvailableDatetimes", kReplica},
      {kDashboard, "GetCandles", kReplica},
      {kDashboard, "GetDailyPersistentCompanies", kReplica},
      {kDashboard, "GetDailyUniqueCompanies", kReplica},
      {kDashboard, "GetShortlist", kReplica},
      {kDashboard, "GetQuoteTimeline", kReplica},
      // A day's coverage and the collectors' last writes: lag is harmless
      // (the tallies themselves are a second behind).
      {kDashboard, "GetCoverage", kReplica},
      // The caller's own runs and orders: a list right after a create must
      // show it.
      {kDashboard, "ListRuns", kPrimary},
      {kDashboard, "ListRunTags", kPrimary},
      {kDashboard, "CreateRun", kPrimary},
      {kDashboard, "UpdateRun", kPrimary},
      {kDashboard, "DeleteRun", kPrimary},
      {kDashboard, "ListOrders", kPrimary},
      {kDashboard, "CreateOrder", kPrimary},
      // Admins change what they then list.
      {kAdmin, "ListDevelopers", kPrimary},
      {kAdmin, "GetDeveloper", kPrimary},
      {kAdmin, "CreateDeveloper", kPrimary},
      {kAdmin, "RefreshDeveloperKey", kPrimary},
      {kAdmin, "DeleteDeveloper", kPrimary},
      {kAdmin, "ListHolidays", kPrimary},
      {kAdmin, "CreateHolidays", kPrimary},
      {kAdmin, "DeleteHolidays", kPrimary},
      {kAdmin, "DeleteHoliday", kPrimary},
      {kAdmin, "ListDataDates", kPrimary},
      {kAdmin, "DeleteDataDates", kPrimary},
      {kAdmin, "RunDbScript", kPrimary},
      {kAdmin, "SetBrokerCredentials", kPrimary},
      {kAdmin, "GetBrokerCredentials", kPrimary},
      // The primary's health is the server's.
      {kHealth, "Check", kPrimary},
      // Catch-up reads follow commit-ordered cursors that a NOTIFY on the
      // primary announced: a replica could miss the rows announced.
      {kStream, "WatchQuotes", kPrimary},
      {kStream, "WatchNifty", kPrimary},
      {kStream, "WatchShortlists", kPrimary},
      {kStream, "ReplayDay", kPrimary},
  };
  return *routes;
}

std::optional<ReadsFrom> ReadsFromOf(absl::string_view service,
                                     absl::string_view method) {
  for (const ReadRoute& route : ReadRoutes()) {
    if (route.service == service && route.method == method) {
      return route.reads_from;
    }
  }
  return std::nullopt;
}

}  // namespace mdc

package openapigen

// access says which token an RPC needs.
type access int

const (
	public         access = iota // no Authorization header
	developerToken               // a developer or an admin token
	adminToken                   // an admin token; a developer token is 403
)

// clockUse says what the backtest clock (X-Current-Timestamp and
// X-Current-Timezone, docs/api.md section 9.3) does to an RPC.
type clockUse int

const (
	clockIgnored clockUse = iota // the answer does not depend on time
	clockCuts                    // data stamped at or after the clock is left out
	clockForbids                 // as clockCuts, and asking for an instant at or after it is 403
)

// rpcContract is what the server does with one RPC beyond what the proto
// says: the token it needs, how the backtest clock applies, and the error
// statuses particular to it. The statuses every RPC of its kind can answer
// (400, 401, 413, 429, 503, ...) are added by rule in errors.go.
type rpcContract struct {
	access access
	clock  clockUse
	// errors maps an HTTP status to when this RPC answers it. An entry for
	// a status the rules also add replaces their wording.
	errors map[int]string
	// bodyOptional: no body at all is a valid request (it means {}).
	bodyOptional bool
}

// Wordings shared by several RPCs.
const (
	runNotFound  = "The run does not exist, belongs to another developer, or its id is not 1-18 digits (never 403)."
	noDeveloper  = "No developer has this id."
	listAsOf     = "No snapshot of that type and scope on the trading day of `datetime` (default: now) at or before it."
	quoteAsOf    = "Nothing stored on the trading day of `datetime` at or before it; without `datetime`, nothing stored at all (before the backtest clock when it is set)."
	holidayGone  = "None of the dates is in the holiday calendar."
	needsSecrets = "The server has no MDC_SECRET_KEY, so it cannot store the credentials encrypted."
	watchClock   = "X-Current-Timestamp is set: a watch is live, the backtest clock applies to ReplayDay only."
)

// contracts holds every RPC of package mdc.v1 by full name. A test checks
// that it names exactly the RPCs the protos define, and the build fails on
// an operation without an entry, so a new RPC cannot slip into the document
// without its errors.
//
// The sources: service/api/*.cc (Access:: of each call, the statuses each
// returns), domain/backtest_clock.cc (the 403 of the clock), storage/ (404,
// 409 and 412 of the repositories) and docs/api.md.
var contracts = map[string]rpcContract{
	"mdc.v1.CollectorService.SaveShortlist": {access: developerToken},
	"mdc.v1.CollectorService.SaveNifty":     {access: developerToken},
	"mdc.v1.CollectorService.SaveQuotes":    {access: developerToken},
	"mdc.v1.CollectorService.CheckHoliday":  {access: developerToken},

	"mdc.v1.DeveloperService.GetList":                 {access: developerToken, clock: clockForbids, errors: map[int]string{404: listAsOf}},
	"mdc.v1.DeveloperService.GetQuote":                {access: developerToken, clock: clockForbids, errors: map[int]string{404: quoteAsOf}},
	"mdc.v1.DeveloperService.GetQuoteTimeline":        {access: developerToken, clock: clockForbids},
	"mdc.v1.DeveloperService.GetNifty":                {access: developerToken, clock: clockForbids, errors: map[int]string{404: quoteAsOf}},
	"mdc.v1.DeveloperService.GetNiftyTimeline":        {access: developerToken, clock: clockForbids},
	"mdc.v1.DeveloperService.GetHistoricalCandles":    {access: developerToken, clock: clockForbids},
	"mdc.v1.DeveloperService.GetShortlistPersistence": {access: developerToken, clock: clockForbids},
	"mdc.v1.DeveloperService.GetBrokerToken": {access: developerToken, errors: map[int]string{
		412: "No broker token endpoint or no broker credentials are configured (reason BROKER_NOT_CONFIGURED), or stored credentials cannot be decrypted with this server's MDC_SECRET_KEY: a setting, not an outage; not worth retrying.",
		503: "The broker's token endpoint failed, timed out or answered something unusable (reason BROKER_UNAVAILABLE), or the database cannot be reached.",
	}},
	"mdc.v1.DeveloperService.ListHolidays": {access: developerToken},

	"mdc.v1.DashboardService.SignIn": {access: public, errors: map[int]string{
		401: "The token is unknown or revoked (counted as a failed sign-in).",
		429: "More than 10 failed sign-ins from this client address in the current minute, or no free database connection; retry later.",
	}},
	"mdc.v1.DashboardService.ListAvailableDatetimes":      {access: developerToken, clock: clockCuts},
	"mdc.v1.DashboardService.GetCandles":                  {access: developerToken, clock: clockForbids},
	"mdc.v1.DashboardService.GetDailyPersistentCompanies": {access: developerToken, clock: clockForbids},
	"mdc.v1.DashboardService.GetDailyUniqueCompanies":     {access: developerToken, clock: clockForbids},
	"mdc.v1.DashboardService.GetShortlist":                {access: developerToken, clock: clockForbids, errors: map[int]string{404: listAsOf}},
	"mdc.v1.DashboardService.GetQuoteTimeline":            {access: developerToken, clock: clockForbids},
	"mdc.v1.DashboardService.GetCoverage":                 {access: developerToken, clock: clockForbids},
	"mdc.v1.DashboardService.ListRuns":                    {access: developerToken},
	"mdc.v1.DashboardService.ListRunTags":                 {access: developerToken},
	"mdc.v1.DashboardService.CreateRun":                   {access: developerToken},
	"mdc.v1.DashboardService.UpdateRun":                   {access: developerToken, errors: map[int]string{404: runNotFound}, bodyOptional: true},
	"mdc.v1.DashboardService.DeleteRun":                   {access: developerToken, errors: map[int]string{404: runNotFound}},
	"mdc.v1.DashboardService.ListOrders":                  {access: developerToken, clock: clockCuts, errors: map[int]string{404: runNotFound}},
	"mdc.v1.DashboardService.CreateOrder":                 {access: developerToken, errors: map[int]string{404: runNotFound}},

	"mdc.v1.AdminService.ListDevelopers":      {access: adminToken},
	"mdc.v1.AdminService.GetDeveloper":        {access: adminToken, errors: map[int]string{404: noDeveloper}},
	"mdc.v1.AdminService.CreateDeveloper":     {access: adminToken, errors: map[int]string{409: "The username is taken."}},
	"mdc.v1.AdminService.RefreshDeveloperKey": {access: adminToken, errors: map[int]string{404: noDeveloper}},
	"mdc.v1.AdminService.DeleteDeveloper": {access: adminToken, errors: map[int]string{
		404: noDeveloper,
		412: "The developer is the last admin; create another admin first.",
	}},
	"mdc.v1.AdminService.ListHolidays":         {access: adminToken},
	"mdc.v1.AdminService.CreateHolidays":       {access: adminToken, errors: map[int]string{409: "A date is already in the calendar (the message names it); nothing was stored."}},
	"mdc.v1.AdminService.DeleteHolidays":       {access: adminToken, errors: map[int]string{404: holidayGone}},
	"mdc.v1.AdminService.DeleteHoliday":        {access: adminToken, errors: map[int]string{404: "The date is not in the holiday calendar."}},
	"mdc.v1.AdminService.ListDataDates":        {access: adminToken},
	"mdc.v1.AdminService.DeleteDataDates":      {access: adminToken},
	"mdc.v1.AdminService.RunDbScript":          {access: adminToken},
	"mdc.v1.AdminService.SetBrokerCredentials": {access: adminToken, errors: map[int]string{412: needsSecrets}},
	"mdc.v1.AdminService.GetBrokerCredentials": {access: adminToken},

	// Streams: a watch with the backtest clock set is 412; replay is cut by
	// the clock, and a day starting at or after it is 403 (streams.go).
	"mdc.v1.StreamService.WatchQuotes":     {access: developerToken, errors: map[int]string{412: watchClock}},
	"mdc.v1.StreamService.WatchNifty":      {access: developerToken, errors: map[int]string{412: watchClock}},
	"mdc.v1.StreamService.WatchShortlists": {access: developerToken, errors: map[int]string{412: watchClock}},
	"mdc.v1.StreamService.ReplayDay":       {access: developerToken, clock: clockForbids},

	// Health answers 503 with its own body while the database is down; see
	// healthResponses in errors.go.
	"mdc.v1.HealthService.Check": {access: public},
}

package gateway

// Retrying a unary call on another server (docs/architecture.md, "Several
// servers"). A call that failed because its server went away (killed, cut
// off, or draining after SIGTERM: shouldRetry) is sent again, at once, within the call's
// own deadline, and the balancer picks a server that is still there; the
// client sees only the answer of the last attempt. Only the methods that
// retryRules marks safe are sent again: a second execution, had the first
// taken effect, leaves the same data and gives the same answer, so the
// retry is invisible. The others (Create Run, Create Order, ...) answer 503
// and the client decides (docs/api.md: list before retrying a create).
//
// Streaming calls (StreamService) never pass through here: once a message
// has arrived a retry would repeat it, and the client resumes from its last
// cursor instead. gRPC itself still replays any call no server received
// (transparent retry), whatever its method.

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// retryRule says whether a method is sent again after its server failed,
// and why.
type retryRule struct {
	retry bool
	why   string
}

// retryRules has one entry per unary method of mdc.v1; a test fails when a
// method is missing, so a new RPC gets a decision. Keys are gRPC full
// method names.
var retryRules = map[string]retryRule{
	// Collector writes: upserts on the natural key (docs/api.md 2).
	"/mdc.v1.CollectorService/SaveShortlist": {true, "upsert on (type, scope, instant)"},
	"/mdc.v1.CollectorService/SaveNifty":     {true, "upsert on the instant"},
	"/mdc.v1.CollectorService/SaveQuotes":    {true, "upsert on (symbol, instant), the batch in one transaction"},
	"/mdc.v1.CollectorService/CheckHoliday":  {true, "read"},

	"/mdc.v1.DeveloperService/GetList":                 {true, "read"},
	"/mdc.v1.DeveloperService/GetQuote":                {true, "read"},
	"/mdc.v1.DeveloperService/GetQuoteTimeline":        {true, "read"},
	"/mdc.v1.DeveloperService/GetNifty":                {true, "read"},
	"/mdc.v1.DeveloperService/GetNiftyTimeline":        {true, "read"},
	"/mdc.v1.DeveloperService/GetHistoricalCandles":    {true, "read"},
	"/mdc.v1.DeveloperService/GetShortlistPersistence": {true, "read"},
	"/mdc.v1.DeveloperService/GetBrokerToken":          {true, "read; a refresh it triggers runs once across servers (advisory lock) and is stored"},
	"/mdc.v1.DeveloperService/ListHolidays":            {true, "read"},

	"/mdc.v1.DashboardService/SignIn":                      {true, "read; at worst a wrong token counts one more failure toward the throttle"},
	"/mdc.v1.DashboardService/ListAvailableDatetimes":      {true, "read"},
	"/mdc.v1.DashboardService/GetCandles":                  {true, "read"},
	"/mdc.v1.DashboardService/GetDailyPersistentCompanies": {true, "read"},
	"/mdc.v1.DashboardService/GetDailyUniqueCompanies":     {true, "read"},
	"/mdc.v1.DashboardService/GetShortlist":                {true, "read"},
	"/mdc.v1.DashboardService/GetQuoteTimeline":            {true, "read"},
	"/mdc.v1.DashboardService/GetCoverage":                 {true, "read"},
	"/mdc.v1.DashboardService/ListRuns":                    {true, "read"},
	"/mdc.v1.DashboardService/ListRunTags":                 {true, "read"},
	"/mdc.v1.DashboardService/ListOrders":                  {true, "read"},
	"/mdc.v1.DashboardService/UpdateRun":                   {true, "sets the given fields to the given values"},
	"/mdc.v1.DashboardService/CreateRun":                   {false, "a second run would be created"},
	"/mdc.v1.DashboardService/CreateOrder":                 {false, "a second order would be created"},
	"/mdc.v1.DashboardService/DeleteRun":                   {false, "a second delete answers 404"},

	"/mdc.v1.AdminService/ListDevelopers":       {true, "read"},
	"/mdc.v1.AdminService/GetDeveloper":         {true, "read"},
	"/mdc.v1.AdminService/ListHolidays":         {true, "read"},
	"/mdc.v1.AdminService/ListDataDates":        {true, "read"},
	"/mdc.v1.AdminService/GetBrokerCredentials": {true, "read"},
	"/mdc.v1.AdminService/SetBrokerCredentials": {true, "replaces the stored credentials with the same ones"},
	"/mdc.v1.AdminService/CreateDeveloper":      {false, "a second create answers USERNAME_TAKEN and the token of the first is lost"},
	"/mdc.v1.AdminService/RefreshDeveloperKey":  {false, "each call issues a new token; the first would be lost"},
	"/mdc.v1.AdminService/DeleteDeveloper":      {false, "a second delete answers 404"},
	"/mdc.v1.AdminService/CreateHolidays":       {false, "a second create answers HOLIDAY_EXISTS"},
	"/mdc.v1.AdminService/DeleteHolidays":       {false, "a second delete answers 404"},
	"/mdc.v1.AdminService/DeleteHoliday":        {false, "a second delete answers 404"},
	"/mdc.v1.AdminService/DeleteDataDates":      {false, "a second delete counts 0 rows"},
	"/mdc.v1.AdminService/RunDbScript":          {false, "a maintenance script runs once per request (purge-before would count 0 rows)"},

	"/mdc.v1.HealthService/Check": {true, "read"},
}

// retryDelays are the waits before the second and third attempt: the
// first retry goes at once (the balancer already knows the failed server is
// gone, or learns it while picking), the second after a pause.
var retryDelays = []time.Duration{0, 50 * time.Millisecond}

// attempt is what one attempt of a call tells about where it failed.
type attempt struct {
	// reachedServer: the call was sent on a connection to a server.
	reachedServer bool
	// serverAnswered: the status is the server's own answer (its response
	// headers or trailers arrived), not the client library's account of a
	// connection that broke under the call.
	serverAnswered bool
}

// shouldRetry reports whether an attempt of method that failed with err is
// sent again. Only for the methods retryRules allows, while the caller
// still waits, and when the attempt reached a server (one that reached none
// failed because no server is ready, gRPC having replayed it where it
// could: it is answered at once). Then:
//
//   - UNAVAILABLE that the server did not answer: the connection broke under
//     the call (the server was killed, or its host or network went away).
//   - CANCELLED: the server cancelled it (a draining server cancels the
//     calls it received but had not started, docs/api.md 9.1).
//
// An UNAVAILABLE the server answered itself (its database is unreachable,
// DATABASE_TIMEOUT, BROKER_UNAVAILABLE) is its considered answer about the
// database or the broker, which every server shares: it stands.
func shouldRetry(ctx context.Context, method string, err error, a attempt) bool {
	if err == nil || ctx.Err() != nil || !a.reachedServer || !retryRules[method].retry {
		return false
	}
	switch status.Code(err) {
	case codes.Unavailable:
		return !a.serverAnswered
	case codes.Canceled:
		return true
	}
	return false
}

// invokeWithRetry makes the call, and again on another server while
// shouldRetry says so, at most len(retryDelays) times. It returns the
// server the last attempt reached (zero when none), how many attempts were
// sent again, and the last attempt's error.
func invokeWithRetry(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
	invoker grpc.UnaryInvoker, opts []grpc.CallOption) (peer.Peer, int, error) {
	opts = opts[:len(opts):len(opts)] // each attempt appends its own options
	for retries := 0; ; retries++ {
		var p peer.Peer
		var header, trailer metadata.MD
		err := invoker(ctx, method, req, reply, cc,
			append(opts, grpc.Peer(&p), grpc.Header(&header), grpc.Trailer(&trailer))...)
		// A server's answer always brings metadata (content-type at least);
		// a broken connection brings none.
		a := attempt{reachedServer: p.Addr != nil, serverAnswered: len(header) > 0 || len(trailer) > 0}
		if retries == len(retryDelays) || !shouldRetry(ctx, method, err, a) {
			return p, retries, err
		}
		noteRetry(ctx, err)
		if !sleepCtx(ctx, retryDelays[retries]) {
			return p, retries, err
		}
	}
}

// sleepCtx waits d, or until ctx is done; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// noteRetry counts a retry in the request's log line, with the error of the
// first attempt that was sent again.
func noteRetry(ctx context.Context, err error) {
	if info := infoFrom(ctx); info != nil {
		info.retries++
		if info.retried == nil {
			info.retried = err
		}
	}
}

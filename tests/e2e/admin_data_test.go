package e2e

import (
	"fmt"
	"strings"
	"testing"
)

func TestAdminHolidays(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	r := s.admin("POST", "/v1/admin/holidays", map[string]any{"holidays": []map[string]any{
		{"date": "2025-10-02", "name": "Gandhi Jayanti"},
		{"date": "2025-03-14", "name": "Holi"},
	}})
	adminExpectStatus(t, "create {holidays}", r, 200)
	adminExpectStatus(t, "create {dates}", s.admin("POST", "/v1/admin/holidays",
		map[string]any{"dates": []string{"2025-12-25"}}), 200)
	// Muhurat trading: a special session on a Sunday.
	adminExpectStatus(t, "create special session", s.admin("POST", "/v1/admin/holidays", map[string]any{
		"holidays": []map[string]any{{"date": "2025-11-09", "name": "Muhurat", "sessionOpen": "18:00", "sessionClose": "19:15"}}}), 200)
	list := s.admin("GET", "/v1/admin/holidays?year=2025", nil)
	adminExpectStatus(t, "list", list, 200)
	var dates []string
	for _, h := range list.body["holidays"].([]any) {
		dates = append(dates, h.(map[string]any)["date"].(string))
	}
	if got := strings.Join(dates, ","); got != "2025-03-14,2025-10-02,2025-11-09,2025-12-25" {
		t.Errorf("holidays of 2025 ascending: got %s", got)
	}
	if !strings.Contains(list.raw, `"sessionOpen":"18:00"`) && !strings.Contains(list.raw, `"sessionOpen": "18:00"`) {
		t.Errorf("special session times not listed: %s", list.raw)
	}
	if r := s.admin("GET", "/v1/admin/holidays?year=2024", nil); strings.Contains(r.raw, "2025-") {
		t.Errorf("2024 lists 2025 dates: %v", r)
	}
	if r := s.admin("GET", "/v1/admin/holidays?year=99999", nil); r.status != 400 || strings.Join(violations(r), ",") != "year" {
		t.Errorf("year 99999: want 400 naming year, got %v", r)
	}

	// All or none: a duplicate in the request is 400, an existing date 409,
	// and in both cases nothing of the request is stored.
	before := s.sql("SELECT count(*) FROM holidays")
	r = s.admin("POST", "/v1/admin/holidays", map[string]any{"dates": []string{"2026-01-26", "2026-01-26"}})
	if r.status != 400 || strings.Join(violations(r), ",") != "dates[1]" {
		t.Errorf("duplicate in request: want 400 naming dates[1], got %v", r)
	}
	r = s.admin("POST", "/v1/admin/holidays", map[string]any{"holidays": []map[string]any{
		{"date": "2026-01-26", "name": "Republic Day"}, {"date": "2025-10-02", "name": "again"}}})
	if r.status != 409 || !strings.Contains(r.raw, "2025-10-02") {
		t.Errorf("existing date: want 409 naming it, got %v", r)
	}
	if after := s.sql("SELECT count(*) FROM holidays"); after != before {
		t.Errorf("a refused create stored something: %s -> %s holidays", before, after)
	}
	r = s.admin("POST", "/v1/admin/holidays", map[string]any{"dates": []string{"2025-02-30"}})
	if r.status != 400 || strings.Join(violations(r), ",") != "dates[0]" {
		t.Errorf("impossible date: want 400 naming dates[0], got %v", r)
	}
	adminExpectStatus(t, "empty create", s.admin("POST", "/v1/admin/holidays", map[string]any{}), 400)

	r = s.admin("DELETE", "/v1/admin/holidays", map[string]any{"dates": []string{"2025-03-14", "2025-01-01"}})
	adminExpectStatus(t, "delete by body", r, 200)
	if fmt.Sprint(r.body["deletedDates"]) != "[2025-03-14]" {
		t.Errorf("delete by body reports the dates that existed: %v", r)
	}
	adminExpectStatus(t, "delete by body, none existed", s.admin("DELETE", "/v1/admin/holidays",
		map[string]any{"dates": []string{"2025-03-14"}}), 404)
	r = s.admin("DELETE", "/v1/admin/holidays/2025-12-25", nil)
	if r.status != 200 || fmt.Sprint(r.body["deletedDates"]) != "[2025-12-25]" {
		t.Errorf("delete by path: %v", r)
	}
	adminExpectStatus(t, "delete by path again", s.admin("DELETE", "/v1/admin/holidays/2025-12-25", nil), 404)
	if r := s.admin("DELETE", "/v1/admin/holidays/christmas", nil); r.status != 400 || strings.Join(violations(r), ",") != "date" {
		t.Errorf("delete by path, bad date: want 400 naming date, got %v", r)
	}
}

// The special session makes a Sunday a trading day for check-holiday
// (DeveloperService, issue 3), which reads the same calendar.
func TestAdminSpecialSessionIsATradingDay(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	adminExpectStatus(t, "create special session", s.admin("POST", "/v1/admin/holidays", map[string]any{
		"holidays": []map[string]any{{"date": "2025-11-09", "name": "Muhurat", "sessionOpen": "18:00", "sessionClose": "19:15"}}}), 200)
	r := s.admin("GET", "/v1/developer/collector/check-holiday?date=2025-11-09", nil)
	if r.status != 200 || r.body["isTradingDay"] != true || r.body["isHoliday"] == true {
		t.Errorf("a Sunday with a special session: want a trading day, got %v", r)
	}
	r = s.admin("GET", "/v1/developer/collector/check-holiday?date=2025-11-16", nil)
	if r.status != 200 || r.body["isTradingDay"] == true {
		t.Errorf("an ordinary Sunday: want no trading day, got %v", r)
	}
}

// saveDay stores one shortlist, one stock quote and one NIFTY quote at the
// wall clock `at` in `zone` through the collector API.
func saveDay(t *testing.T, s *adminStack, token, at, zone string) {
	t.Helper()
	quote := map[string]any{"status": "SUCCESS", "payload": map[string]any{"last_price": 1500.5, "volume": 1000}}
	for path, body := range map[string]map[string]any{
		"/v1/developer/collector/shortlists": {"timestamp": at, "timezone": zone, "shortlistType": "TOP_GAINERS",
			"entries": []map[string]any{{"nseSymbol": "INFY", "name": "Infosys", "price": 1500.5}}},
		"/v1/developer/collector/quotes": {"timestamp": at, "timezone": zone,
			"quotes": []map[string]any{{"nseSymbol": "INFY", "quoteData": quote}}},
		"/v1/developer/collector/nifty": {"timestamp": at, "timezone": zone, "quoteData": quote, "dayChangePerc": 0.4},
	} {
		if r := s.as(token, "POST", path, map[string]any{"data": body}); r.status != 200 {
			t.Fatalf("%s: %v", path, r)
		}
	}
}

func dataDates(t *testing.T, s *adminStack) string {
	t.Helper()
	r := s.admin("GET", "/v1/admin/data/available-dates", nil)
	adminExpectStatus(t, "available dates", r, 200)
	var parts []string
	for _, d := range r.body["dates"].([]any) {
		dm := d.(map[string]any)
		parts = append(parts, fmt.Sprintf("%s:%v/%v/%v", dm["date"], dm["shortlistCount"], dm["quoteCount"], dm["niftyCount"]))
	}
	return strings.Join(parts, " ")
}

func TestAdminDataByDate(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	_, token := s.newDeveloper("collector", "developer")
	saveDay(t, s, token, "2025-03-03T10:00:00", "Asia/Kolkata")
	saveDay(t, s, token, "2025-03-03T11:00:00", "Asia/Kolkata")
	// 20:00 UTC on the 4th is already the 5th in Kolkata: the 5th's data.
	saveDay(t, s, token, "2025-03-04T20:00:00", "UTC")
	s.sql("INSERT INTO holidays (holiday_date, name) VALUES ('2025-03-03', 'kept')")
	s.sql("INSERT INTO runs (developer_id, start_at, end_at) SELECT id, now(), now() FROM developers")
	s.sql("INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price, take_profit_price, ordered_at) " +
		"SELECT id, 'INFY', 100, 90, 110, now() FROM runs")
	kept := func() string {
		return s.sql("SELECT (SELECT count(*) FROM holidays) || '/' || (SELECT count(*) FROM developers) || '/' || " +
			"(SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM orders)")
	}
	before := kept()

	if got := dataDates(t, s); got != "2025-03-03:2/2/2 2025-03-05:1/1/1" {
		t.Fatalf("available dates with counts: got %s", got)
	}
	r := s.admin("DELETE", "/v1/admin/data/dates", map[string]any{"dates": []string{"2025-03-03", "2025-03-04"}})
	adminExpectStatus(t, "delete dates", r, 200)
	if r.body["shortlists"] != float64(2) || r.body["quotes"] != float64(2) || r.body["niftyQuotes"] != float64(2) {
		t.Errorf("delete dates counts per kind: got %v", r)
	}
	if got := dataDates(t, s); got != "2025-03-05:1/1/1" {
		t.Errorf("after delete: got %s", got)
	}
	if after := kept(); after != before {
		t.Errorf("holidays/developers/runs/orders changed: %s -> %s", before, after)
	}
	r = s.admin("DELETE", "/v1/admin/data/dates", map[string]any{"dates": []string{"2025-03-05", "someday"}})
	if r.status != 400 || strings.Join(violations(r), ",") != "dates[1]" {
		t.Errorf("bad date: want 400 naming dates[1], got %v", r)
	}
	if got := dataDates(t, s); got != "2025-03-05:1/1/1" {
		t.Errorf("a refused delete deleted something: %s", got)
	}
	adminExpectStatus(t, "no dates", s.admin("DELETE", "/v1/admin/data/dates", map[string]any{"dates": []string{}}), 400)
}

func TestAdminDbScripts(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	_, token := s.newDeveloper("collector", "developer")
	saveDay(t, s, token, "2025-01-02T10:00:00", "Asia/Kolkata")
	saveDay(t, s, token, "2025-02-03T10:00:00", "Asia/Kolkata")

	for _, script := range []string{"analyze", "vacuum", "dedupe-check"} {
		r := s.admin("POST", "/v1/admin/db-scripts", map[string]any{"script": script})
		if r.status != 200 || r.body["script"] != script || len(r.body["log"].([]any)) == 0 {
			t.Errorf("%s: %v", script, r)
		}
	}
	r := s.admin("POST", "/v1/admin/db-scripts", map[string]any{"script": "dedupe-check"})
	if r.body["affectedRows"] != float64(0) {
		t.Errorf("dedupe-check on clean data reports duplicates: %v", r)
	}

	purge := map[string]any{"script": "purge-before", "dryRun": true, "args": map[string]any{"before": "2025-02-01"}}
	r = s.admin("POST", "/v1/admin/db-scripts", purge)
	if r.status != 200 || r.body["affectedRows"] != float64(3) || r.body["dryRun"] != true {
		t.Errorf("purge-before dry run counts 3 rows: %v", r)
	}
	if got := dataDates(t, s); got != "2025-01-02:1/1/1 2025-02-03:1/1/1" {
		t.Errorf("a dry run deleted data: %s", got)
	}
	purge["dryRun"] = false
	r = s.admin("POST", "/v1/admin/db-scripts", purge)
	if r.status != 200 || r.body["affectedRows"] != float64(3) {
		t.Errorf("purge-before: %v", r)
	}
	if got := dataDates(t, s); got != "2025-02-03:1/1/1" {
		t.Errorf("after purge-before 2025-02-01: %s", got)
	}

	for _, bad := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"script": "drop-everything"}, "script"},
		{map[string]any{"script": "analyze; DROP TABLE developers"}, "script"},
		{map[string]any{}, "script"},
		{map[string]any{"script": "purge-before"}, "args.before"},
		{map[string]any{"script": "purge-before", "args": map[string]any{"before": "2025-02-30"}}, "args.before"},
		{map[string]any{"script": "vacuum", "args": map[string]any{"sql": "DROP TABLE developers"}}, "args.sql"},
	} {
		r := s.admin("POST", "/v1/admin/db-scripts", bad.body)
		if r.status != 400 || strings.Join(violations(r), ",") != bad.field {
			t.Errorf("%v: want 400 naming %s, got %v", bad.body, bad.field, r)
		}
	}
	r = s.admin("POST", "/v1/admin/db-scripts", map[string]any{"script": "nope"})
	if !strings.Contains(r.raw, "analyze, vacuum, purge-before, dedupe-check") {
		t.Errorf("unknown script: the message lists the valid ones: %v", r)
	}
	if s.sql("SELECT count(*) FROM developers") != "2" {
		t.Errorf("developers table changed")
	}
}

func TestAdminBrokerCredentials(t *testing.T) {
	keyless := startAdminStack(t, adminStackOptions{})
	r := keyless.admin("PUT", "/v1/admin/broker", map[string]any{"apiKey": "key-1", "apiSecret": "secret-1"})
	if r.status != 412 || !strings.Contains(r.raw, "MDC_SECRET_KEY") {
		t.Errorf("without MDC_SECRET_KEY: want 412 naming it, got %v", r)
	}
	if r := keyless.admin("GET", "/v1/admin/broker", nil); r.status != 200 || r.body["configured"] == true {
		t.Errorf("nothing stored: %v", r)
	}

	s := startAdminStack(t, adminStackOptions{secretKey: adminRandomHex(32)})
	r = s.admin("PUT", "/v1/admin/broker", map[string]any{"apiKey": "", "apiSecret": "has space"})
	if r.status != 400 || strings.Join(violations(r), ",") != "apiKey,apiSecret" {
		t.Errorf("bad credentials: want 400 naming apiKey and apiSecret, got %v", r)
	}
	apiKey, apiSecret := "key-"+adminRandomHex(8), "secret-"+adminRandomHex(16)
	r = s.admin("PUT", "/v1/admin/broker", map[string]any{"apiKey": apiKey, "apiSecret": apiSecret})
	if r.status != 200 || r.body["configured"] != true || r.body["updatedTime"] == nil {
		t.Fatalf("store credentials: %v", r)
	}
	got := s.admin("GET", "/v1/admin/broker", nil)
	if got.status != 200 || got.body["configured"] != true || got.body["updatedTime"] != r.body["updatedTime"] {
		t.Errorf("status after storing: %v", got)
	}
	if strings.Contains(got.raw+r.raw, apiKey) || strings.Contains(got.raw+r.raw, apiSecret) {
		t.Errorf("credentials returned to the client")
	}
	stored := s.sql("SELECT encode(api_key_sealed, 'escape') || encode(api_secret_sealed, 'hex') || " +
		"encode(api_secret_sealed, 'escape') FROM broker_credentials")
	if stored == "" || strings.Contains(stored, apiKey) || strings.Contains(stored, apiSecret) ||
		strings.Contains(stored, fmt.Sprintf("%x", apiSecret)) {
		t.Errorf("credentials are not encrypted at rest")
	}
	adminExpectStatus(t, "unknown token on broker", s.call("GET", "/v1/admin/broker", "Bearer "+s.adminToken+"x", nil), 401)
}

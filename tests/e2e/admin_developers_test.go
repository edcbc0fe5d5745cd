package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func TestAdminDevelopersCreateListGet(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})

	created := s.admin("POST", "/v1/admin/developers", map[string]any{"username": "ana.dev-1"})
	adminExpectStatus(t, "create", created, 200)
	if created.body["role"] != "developer" || !strings.HasPrefix(fmt.Sprint(created.body["token"]), "mdc_") {
		t.Errorf("create: role defaults to developer and a token is shown once: %v", created)
	}
	adminExpectStatus(t, "taken username", s.admin("POST", "/v1/admin/developers",
		map[string]any{"username": "ana.dev-1"}), 409)
	for _, bad := range []map[string]any{
		{"username": ""}, {"username": "has space"}, {"username": strings.Repeat("a", 65)},
	} {
		r := s.admin("POST", "/v1/admin/developers", bad)
		if r.status != 400 || strings.Join(violations(r), ",") != "username" {
			t.Errorf("username %q: want 400 naming username, got %v", bad["username"], r)
		}
	}
	r := s.admin("POST", "/v1/admin/developers", map[string]any{"username": "x", "role": "root"})
	if r.status != 400 || strings.Join(violations(r), ",") != "role" {
		t.Errorf("bad role: want 400 naming role, got %v", r)
	}

	for i := 0; i < 4; i++ {
		s.newDeveloper(fmt.Sprintf("pager%d", i), "developer")
	}
	// 1 bootstrap admin + ana + 4 = 6, walked two at a time.
	var seen []string
	token := ""
	for page := 0; ; page++ {
		r := s.admin("GET", "/v1/admin/developers?pageSize=2&pageToken="+token, nil)
		adminExpectStatus(t, "list", r, 200)
		if r.body["totalSize"] != float64(6) {
			t.Fatalf("totalSize: want 6, got %v", r)
		}
		for _, d := range r.body["developers"].([]any) {
			dm := d.(map[string]any)
			seen = append(seen, dm["username"].(string))
		}
		if strings.Contains(r.raw, "\"token\"") || strings.Contains(strings.ToLower(r.raw), "hash") {
			t.Errorf("list shows a token or hash: %s", r.raw)
		}
		token, _ = r.body["nextPageToken"].(string)
		if token == "" {
			break
		}
		if page > 5 {
			t.Fatal("paging does not end")
		}
	}
	if got := strings.Join(seen, ","); got != "admin,ana.dev-1,pager0,pager1,pager2,pager3" {
		t.Errorf("paged developers by id: got %s", got)
	}
	r = s.admin("GET", "/v1/admin/developers?pageSize=1001", nil)
	if r.status != 400 || strings.Join(violations(r), ",") != "pageSize" {
		t.Errorf("pageSize 1001: want 400 naming pageSize, got %v", r)
	}
	r = s.admin("GET", "/v1/admin/developers?pageToken=forged", nil)
	if r.status != 400 || strings.Join(violations(r), ",") != "pageToken" {
		t.Errorf("forged pageToken: want 400 naming pageToken, got %v", r)
	}

	id := created.body["id"].(string)
	got := s.admin("GET", "/v1/admin/developers/"+id, nil)
	adminExpectStatus(t, "get", got, 200)
	if got.body["username"] != "ana.dev-1" || got.body["token"] != nil || strings.Contains(got.raw, "ash") {
		t.Errorf("get: want the developer without token or hash, got %v", got)
	}
	adminExpectStatus(t, "get unknown", s.admin("GET", "/v1/admin/developers/999999", nil), 404)
	r = s.admin("GET", "/v1/admin/developers/abc", nil)
	if r.status != 400 || strings.Join(violations(r), ",") != "id" {
		t.Errorf("get id abc: want 400 naming id, got %v", r)
	}
}

func TestAdminLastSeenIsTrackedWithoutAWritePerRequest(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	id, token := s.newDeveloper("watcher", "developer")
	if r := s.admin("GET", "/v1/admin/developers/"+id, nil); r.body["lastSeenTime"] != nil {
		t.Fatalf("a developer that never called has no lastSeenTime: %v", r)
	}
	s.as(token, "GET", "/v1/developer/nifty", nil)
	first := s.admin("GET", "/v1/admin/developers/"+id, nil).body["lastSeenTime"]
	if first == nil {
		t.Fatal("lastSeenTime not set after a call")
	}
	xmin := s.sql("SELECT xmin FROM developers WHERE id = " + id)
	for i := 0; i < 5; i++ {
		s.as(token, "GET", "/v1/developer/nifty", nil)
	}
	if again := s.admin("GET", "/v1/admin/developers/"+id, nil).body["lastSeenTime"]; again != first {
		t.Errorf("lastSeenTime rewritten within a minute: %v then %v", first, again)
	}
	if now := s.sql("SELECT xmin FROM developers WHERE id = " + id); now != xmin {
		t.Errorf("the developer row was written again within a minute")
	}
	// A minute later (simulated), the next call stamps it again.
	s.sql("UPDATE developers SET last_seen_at = now() - interval '2 minutes' WHERE id = " + id)
	s.as(token, "GET", "/v1/developer/nifty", nil)
	if fresh := s.sql("SELECT last_seen_at > now() - interval '30 seconds' FROM developers WHERE id = " + id); fresh != "t" {
		t.Errorf("lastSeenTime not refreshed after a minute")
	}
}

func TestAdminRefreshKeyRevokesTheOldTokenAtOnce(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	id, old := s.newDeveloper("rotator", "developer")
	const route = "/v1/developer/nifty"
	if r := s.as(old, "GET", route, nil); r.status == 401 || r.status == 403 {
		t.Fatalf("fresh token refused: %v", r)
	}
	r := s.admin("PATCH", "/v1/admin/developers/"+id+"/refresh-key", nil)
	adminExpectStatus(t, "refresh", r, 200)
	fresh, _ := r.body["token"].(string)
	if fresh == "" || fresh == old || r.body["id"] != id {
		t.Fatalf("refresh: want the developer with a new token, got %v", r)
	}
	adminExpectStatus(t, "old token right after refresh", s.as(old, "GET", route, nil), 401)
	if r := s.as(fresh, "GET", route, nil); r.status == 401 || r.status == 403 {
		t.Errorf("new token refused: %v", r)
	}
	adminExpectStatus(t, "refresh unknown", s.admin("PATCH", "/v1/admin/developers/999999/refresh-key", nil), 404)
}

func TestAdminDeleteDeveloperCascadesAndKeepsTheLastAdmin(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	id, token := s.newDeveloper("leaver", "developer")
	s.sql("INSERT INTO runs (developer_id, start_at, end_at) VALUES (" + id + ", now(), now())")
	s.sql("INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price, take_profit_price, ordered_at) " +
		"SELECT id, 'INFY', 100, 90, 110, now() FROM runs WHERE developer_id = " + id)
	s.sql("INSERT INTO holidays (holiday_date, name) VALUES ('2025-12-25', 'Christmas')")

	adminExpectStatus(t, "delete", s.admin("DELETE", "/v1/admin/developers/"+id, nil), 200)
	if got := s.sql("SELECT count(*) FROM runs") + s.sql("SELECT count(*) FROM orders"); got != "00" {
		t.Errorf("runs and orders of a deleted developer remain")
	}
	if s.sql("SELECT count(*) FROM holidays") != "1" {
		t.Errorf("deleting a developer touched holidays")
	}
	adminExpectStatus(t, "deleted developer's token", s.as(token, "GET", "/v1/developer/nifty", nil), 401)
	adminExpectStatus(t, "delete again", s.admin("DELETE", "/v1/admin/developers/"+id, nil), 404)

	// The bootstrap admin is the only admin: it stays.
	adminID := s.sql("SELECT id FROM developers WHERE username = 'admin'")
	r := s.admin("DELETE", "/v1/admin/developers/"+adminID, nil)
	if r.status != 412 || !strings.Contains(fmt.Sprint(r.body["message"]), "last admin") {
		t.Errorf("deleting the last admin: want 412 saying why, got %v", r)
	}
	// With a second admin, one of them may go; then the other is the last.
	otherID, otherToken := s.newDeveloper("second-admin", "admin")
	adminExpectStatus(t, "delete one of two admins", s.as(otherToken, "DELETE", "/v1/admin/developers/"+adminID, nil), 200)
	adminExpectStatus(t, "delete the remaining admin", s.as(otherToken, "DELETE", "/v1/admin/developers/"+otherID, nil), 412)
}

func TestAdminCommandLineCreatesAndRecoversAdmins(t *testing.T) {
	s := startAdminStack(t, adminStackOptions{})
	server := binaryPath(t, "MDC_SERVER_BIN", "mdc-server")
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(server, args...)
		cmd.Env = append(cmd.Environ(), "DATABASE_URL="+s.dbURL)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return strings.TrimSpace(out.String()), errOut.String(), err
	}
	token, log, err := run("create-developer", "--username", "ops", "--role", "admin")
	if err != nil || !strings.HasPrefix(token, "mdc_") {
		t.Fatalf("create-developer: %v\nstdout %q\nstderr %s", err, token, log)
	}
	adminExpectStatus(t, "CLI admin on an admin route", s.as(token, "GET", "/v1/admin/developers", nil), 200)
	if _, _, err := run("create-developer", "--username", "ops"); err == nil {
		t.Errorf("create-developer with a taken username succeeded")
	}
	if _, _, err := run("create-developer", "--username", "bad name"); err == nil {
		t.Errorf("create-developer with a bad username succeeded")
	}
	fresh, log, err := run("refresh-key", "--username", "ops")
	if err != nil || fresh == token || !strings.HasPrefix(fresh, "mdc_") {
		t.Fatalf("refresh-key: %v\nstdout %q\nstderr %s", err, fresh, log)
	}
	adminExpectStatus(t, "token replaced by the CLI", s.as(token, "GET", "/v1/admin/developers", nil), 401)
	adminExpectStatus(t, "token from refresh-key", s.as(fresh, "GET", "/v1/admin/developers", nil), 200)
}

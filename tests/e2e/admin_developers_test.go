package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Counts and lists every developer of the database: a private stack.
func TestAdminDevelopersCreateListGet(t *testing.T) {
	s := StartStack(t)
	admin := s.AdminToken()

	created := s.Do(t, "POST", "/v1/admin/developers", admin, map[string]any{"username": "ana.dev-1"})
	checkStatus(t, "create", created, 200)
	if created.JSON["role"] != "developer" || !strings.HasPrefix(fmt.Sprint(created.JSON["token"]), "mdc_") {
		t.Errorf("create: role defaults to developer and a token is shown once: %v", created)
	}
	checkStatus(t, "taken username", s.Do(t, "POST", "/v1/admin/developers", admin,
		map[string]any{"username": "ana.dev-1"}), 409)
	for _, bad := range []map[string]any{
		{"username": ""}, {"username": "has space"}, {"username": strings.Repeat("a", 65)},
	} {
		r := s.Do(t, "POST", "/v1/admin/developers", admin, bad)
		if r.Status != 400 || !violationsAre(r.JSON, "username") {
			t.Errorf("username %q: want 400 naming username, got %v", bad["username"], r)
		}
	}
	r := s.Do(t, "POST", "/v1/admin/developers", admin, map[string]any{"username": "x", "role": "root"})
	if r.Status != 400 || !violationsAre(r.JSON, "role") {
		t.Errorf("bad role: want 400 naming role, got %v", r)
	}

	for i := 0; i < 4; i++ {
		s.NewNamedDeveloper(t, fmt.Sprintf("pager%d", i), "developer")
	}
	// 1 bootstrap admin + ana + 4 = 6, walked two at a time.
	var seen []string
	token := ""
	for page := 0; ; page++ {
		r := s.Do(t, "GET", "/v1/admin/developers?pageSize=2&pageToken="+token, admin, nil)
		checkStatus(t, "list", r, 200)
		if !isNumber(r.JSON["totalSize"], 6) {
			t.Fatalf("totalSize: want 6, got %v", r)
		}
		for _, d := range r.JSON["developers"].([]any) {
			dm := d.(map[string]any)
			seen = append(seen, dm["username"].(string))
		}
		if strings.Contains(r.Text(), "\"token\"") || strings.Contains(strings.ToLower(r.Text()), "hash") {
			t.Errorf("list shows a token or hash: %s", r.Text())
		}
		token, _ = r.JSON["nextPageToken"].(string)
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
	r = s.Do(t, "GET", "/v1/admin/developers?pageSize=1001", admin, nil)
	if r.Status != 400 || !violationsAre(r.JSON, "pageSize") {
		t.Errorf("pageSize 1001: want 400 naming pageSize, got %v", r)
	}
	r = s.Do(t, "GET", "/v1/admin/developers?pageToken=forged", admin, nil)
	if r.Status != 400 || !violationsAre(r.JSON, "pageToken") {
		t.Errorf("forged pageToken: want 400 naming pageToken, got %v", r)
	}

	id := created.JSON["id"].(string)
	got := s.Do(t, "GET", "/v1/admin/developers/"+id, admin, nil)
	checkStatus(t, "get", got, 200)
	if got.JSON["username"] != "ana.dev-1" || got.JSON["token"] != nil || strings.Contains(got.Text(), "ash") {
		t.Errorf("get: want the developer without token or hash, got %v", got)
	}
	checkStatus(t, "get unknown", s.Do(t, "GET", "/v1/admin/developers/999999", admin, nil), 404)
	r = s.Do(t, "GET", "/v1/admin/developers/abc", admin, nil)
	if r.Status != 400 || !violationsAre(r.JSON, "id") {
		t.Errorf("get id abc: want 400 naming id, got %v", r)
	}
}

func TestAdminLastSeenIsTrackedWithoutAWritePerRequest(t *testing.T) {
	s := SharedStack(t)
	admin := s.AdminToken()
	id, token := s.NewDeveloper(t, "developer")
	if r := s.Do(t, "GET", "/v1/admin/developers/"+id, admin, nil); r.JSON["lastSeenTime"] != nil {
		t.Fatalf("a developer that never called has no lastSeenTime: %v", r)
	}
	s.Do(t, "GET", "/v1/developer/nifty", token, nil)
	first := s.Do(t, "GET", "/v1/admin/developers/"+id, admin, nil).JSON["lastSeenTime"]
	if first == nil {
		t.Fatal("lastSeenTime not set after a call")
	}
	xmin := s.SQL(t, "SELECT xmin FROM developers WHERE id = "+id)
	for i := 0; i < 5; i++ {
		s.Do(t, "GET", "/v1/developer/nifty", token, nil)
	}
	if again := s.Do(t, "GET", "/v1/admin/developers/"+id, admin, nil).JSON["lastSeenTime"]; again != first {
		t.Errorf("lastSeenTime rewritten within a minute: %v then %v", first, again)
	}
	if now := s.SQL(t, "SELECT xmin FROM developers WHERE id = "+id); now != xmin {
		t.Errorf("the developer row was written again within a minute")
	}
	// A minute later (simulated), the next call stamps it again.
	s.SQL(t, "UPDATE developers SET last_seen_at = now() - interval '2 minutes' WHERE id = "+id)
	s.Do(t, "GET", "/v1/developer/nifty", token, nil)
	if fresh := s.SQL(t, "SELECT last_seen_at > now() - interval '30 seconds' FROM developers WHERE id = "+id); fresh != "t" {
		t.Errorf("lastSeenTime not refreshed after a minute")
	}
}

func TestAdminRefreshKeyRevokesTheOldTokenAtOnce(t *testing.T) {
	s := SharedStack(t)
	admin := s.AdminToken()
	id, old := s.NewDeveloper(t, "developer")
	const route = "/v1/developer/nifty"
	if r := s.Do(t, "GET", route, old, nil); r.Status == 401 || r.Status == 403 {
		t.Fatalf("fresh token refused: %v", r)
	}
	r := s.Do(t, "PATCH", "/v1/admin/developers/"+id+"/refresh-key", admin, nil)
	checkStatus(t, "refresh", r, 200)
	fresh, _ := r.JSON["token"].(string)
	if fresh == "" || fresh == old || r.JSON["id"] != id {
		t.Fatalf("refresh: want the developer with a new token, got %v", r)
	}
	checkStatus(t, "old token right after refresh", s.Do(t, "GET", route, old, nil), 401)
	if r := s.Do(t, "GET", route, fresh, nil); r.Status == 401 || r.Status == 403 {
		t.Errorf("new token refused: %v", r)
	}
	checkStatus(t, "refresh unknown", s.Do(t, "PATCH", "/v1/admin/developers/999999/refresh-key", admin, nil), 404)
}

// Counts every run and order, and deletes the bootstrap admin: a private
// stack.
func TestAdminDeleteDeveloperCascadesAndKeepsTheLastAdmin(t *testing.T) {
	s := StartStack(t)
	admin := s.AdminToken()
	id, token := s.NewDeveloper(t, "developer")
	s.SQL(t, "INSERT INTO runs (developer_id, start_at, end_at) VALUES ("+id+", now(), now())")
	s.SQL(t, "INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price, take_profit_price, ordered_at) "+
		"SELECT id, 'INFY', 100, 90, 110, now() FROM runs WHERE developer_id = "+id)
	s.SQL(t, "INSERT INTO holidays (holiday_date, name) VALUES ('2025-12-25', 'Christmas')")

	checkStatus(t, "delete", s.Do(t, "DELETE", "/v1/admin/developers/"+id, admin, nil), 200)
	if got := s.SQL(t, "SELECT count(*) FROM runs") + s.SQL(t, "SELECT count(*) FROM orders"); got != "00" {
		t.Errorf("runs and orders of a deleted developer remain")
	}
	if s.SQL(t, "SELECT count(*) FROM holidays") != "1" {
		t.Errorf("deleting a developer touched holidays")
	}
	checkStatus(t, "deleted developer's token", s.Do(t, "GET", "/v1/developer/nifty", token, nil), 401)
	checkStatus(t, "delete again", s.Do(t, "DELETE", "/v1/admin/developers/"+id, admin, nil), 404)

	// The bootstrap admin is the only admin: it stays.
	adminID := s.SQL(t, "SELECT id FROM developers WHERE username = 'admin'")
	r := s.Do(t, "DELETE", "/v1/admin/developers/"+adminID, admin, nil)
	if r.Status != 412 || !strings.Contains(fmt.Sprint(r.JSON["message"]), "last admin") {
		t.Errorf("deleting the last admin: want 412 saying why, got %v", r)
	}
	// With a second admin, one of them may go; then the other is the last.
	otherID, otherToken := s.NewDeveloper(t, "admin")
	checkStatus(t, "delete one of two admins", s.Do(t, "DELETE", "/v1/admin/developers/"+adminID, otherToken, nil), 200)
	checkStatus(t, "delete the remaining admin", s.Do(t, "DELETE", "/v1/admin/developers/"+otherID, otherToken, nil), 412)
}

func TestAdminCommandLineCreatesAndRecoversAdmins(t *testing.T) {
	s := SharedStack(t)
	username := "e2e_ops_" + mustRandomHex(t, 6)
	token, log, err := s.RunServerCommand(t, "create-developer", "--username", username, "--role", "admin")
	if err != nil || !strings.HasPrefix(token, "mdc_") {
		t.Fatalf("create-developer: %v\nstdout %q\nstderr %s", err, token, log)
	}
	checkStatus(t, "CLI admin on an admin route", s.Do(t, "GET", "/v1/admin/developers", token, nil), 200)
	if _, _, err := s.RunServerCommand(t, "create-developer", "--username", username); err == nil {
		t.Errorf("create-developer with a taken username succeeded")
	}
	if _, _, err := s.RunServerCommand(t, "create-developer", "--username", "bad name"); err == nil {
		t.Errorf("create-developer with a bad username succeeded")
	}
	fresh, log, err := s.RunServerCommand(t, "refresh-key", "--username", username)
	if err != nil || fresh == token || !strings.HasPrefix(fresh, "mdc_") {
		t.Fatalf("refresh-key: %v\nstdout %q\nstderr %s", err, fresh, log)
	}
	checkStatus(t, "token replaced by the CLI", s.Do(t, "GET", "/v1/admin/developers", token, nil), 401)
	checkStatus(t, "token from refresh-key", s.Do(t, "GET", "/v1/admin/developers", fresh, nil), 200)
}

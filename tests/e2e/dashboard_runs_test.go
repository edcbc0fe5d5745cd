package e2e

import (
	"reflect"
	"strings"
	"testing"
)

func TestDashboardRunTagRules(t *testing.T) {
	d := newDash(t)
	run := d.createRun(map[string]any{"name": "tags",
		"tags": []string{"  swing ", "alpha", "swing", "Beta", "x_y-1"}})
	// Trimmed, de-duplicated, sorted (byte order: upper case first).
	if got := dashList(run, "tags"); !reflect.DeepEqual(got, []any{"Beta", "alpha", "swing", "x_y-1"}) {
		t.Errorf("tags %v", got)
	}
	fifty := strings.Repeat("a", 50)
	run = d.createRun(map[string]any{"tags": []string{fifty}})
	if got := dashList(run, "tags"); len(got) != 1 || got[0] != fifty {
		t.Errorf("50 characters: %v", got)
	}

	cases := []struct {
		name  string
		tags  []string
		field string
	}{
		{"51 characters", []string{"ok", strings.Repeat("a", 51)}, "tags[1]"},
		{"inner space", []string{"two words"}, "tags[0]"},
		{"other character", []string{"dot.ted"}, "tags[0]"},
		{"blank", []string{"   "}, "tags[0]"},
		{"11 tags", []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10"}, "tags"},
	}
	for _, c := range cases {
		body := d.fails(400, "POST", "/v1/dashboard/runs", map[string]any{
			"start_datetime": "2025-02-03T09:15:00", "end_datetime": "2025-02-03T15:30:00", "tags": c.tags})
		if !dashHasField(body, c.field) {
			t.Errorf("%s: want a violation of %s: %v", c.name, c.field, body)
		}
	}
	// Ten distinct tags (with a duplicate) are fine.
	run = d.createRun(map[string]any{"tags": []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", " t9"}})
	if len(dashList(run, "tags")) != 10 {
		t.Errorf("ten tags: %v", run)
	}

	tags := d.ok("GET", "/v1/dashboard/runs/tags", nil)
	want := []any{"Beta", fifty, "alpha", "swing", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "x_y-1"}
	if got := dashList(tags, "tags"); !reflect.DeepEqual(got, want) {
		t.Errorf("run tags %v, want %v", got, want)
	}
	// Filter by tag (trimmed), newest first.
	runs := d.ok("GET", "/v1/dashboard/runs?tag=%20swing", nil)
	if got := dashList(runs, "runs"); len(got) != 1 || dashObj(got[0])["name"] != "tags" {
		t.Errorf("tag filter: %v", runs)
	}
	d.fails(400, "GET", "/v1/dashboard/runs?tag=a%20b", nil)
}

func TestDashboardRunValidation(t *testing.T) {
	d := newDash(t)
	body := d.fails(400, "POST", "/v1/dashboard/runs", map[string]any{
		"start_datetime": "2025-02-03T15:30:00", "end_datetime": "2025-02-03T09:15:00"})
	if !dashHasField(body, "start_datetime") {
		t.Errorf("start after end: %v", body)
	}
	body = d.fails(400, "POST", "/v1/dashboard/runs", map[string]any{
		"start_datetime": "2025-02-30T09:15:00", "timezone": "Mars/Olympus"})
	for _, f := range []string{"start_datetime", "end_datetime", "timezone"} {
		if !dashHasField(body, f) {
			t.Errorf("want a violation of %s: %v", f, body)
		}
	}
	run := d.createRun(map[string]any{"start_datetime": "2025-02-03T09:15:00",
		"end_datetime": "2025-02-03T09:15:00", "timezone": "UTC"})
	if run["startTime"] != "2025-02-03T09:15:00Z" || run["orderCount"] != nil && run["orderCount"] != 0.0 ||
		run["completed"] != nil && run["completed"] != false {
		t.Errorf("run %v", run)
	}
	runID := dashStr(run["id"])
	orders := "/v1/dashboard/runs/" + runID + "/orders"
	good := func() map[string]any {
		return map[string]any{"nseSymbol": "INFY", "entryPrice": 100, "stopLossPrice": 98,
			"takeProfitPrice": 105, "datetime": "2025-02-03T10:00:00"}
	}
	for name, c := range map[string]struct {
		key   string
		value any
		field string
	}{
		"stop above entry": {"stopLossPrice", 101, "stopLossPrice"},
		"target below":     {"takeProfitPrice", 99, "takeProfitPrice"},
		"zero entry":       {"entryPrice", 0, "entryPrice"},
		"bad datetime":     {"datetime", "2025-02-03T24:00:00", "datetime"},
		"bad symbol":       {"nseSymbol", "", "nseSymbol"},
	} {
		b := good()
		b[c.key] = c.value
		body := d.fails(400, "POST", orders, b)
		if !dashHasField(body, c.field) {
			t.Errorf("%s: want a violation of %s: %v", name, c.field, body)
		}
	}
	b := good()
	delete(b, "takeProfitPrice")
	if body := d.fails(400, "POST", orders, b); !dashHasField(body, "takeProfitPrice") {
		t.Errorf("missing takeProfitPrice: %v", body)
	}
	order := d.ok("POST", orders, good())
	if order["runId"] != runID || order["time"] != "2025-02-03T04:30:00Z" || order["entryPrice"] != 100.0 {
		t.Errorf("order %v", order)
	}
}

func TestDashboardRunPartialUpdateAndCascade(t *testing.T) {
	d := newDash(t)
	run := d.createRun(map[string]any{"name": "partial", "tags": []string{"keep", "me"}})
	path := "/v1/dashboard/runs/" + dashStr(run["id"])

	updated := d.ok("PATCH", path, map[string]any{"completed": true})
	if updated["completed"] != true || updated["name"] != "partial" ||
		!reflect.DeepEqual(dashList(updated, "tags"), []any{"keep", "me"}) {
		t.Errorf("completed only: %v", updated)
	}
	updated = d.ok("PATCH", path, map[string]any{"tags": []string{" new ", "new"}})
	if updated["completed"] != true || updated["name"] != "partial" ||
		!reflect.DeepEqual(dashList(updated, "tags"), []any{"new"}) {
		t.Errorf("tags only: %v", updated)
	}
	updated = d.ok("PATCH", path, map[string]any{})
	if updated["name"] != "partial" || updated["completed"] != true {
		t.Errorf("empty body changes nothing: %v", updated)
	}
	updated = d.ok("PATCH", path, map[string]any{"name": nil})
	if updated["name"] != nil && updated["name"] != "" {
		t.Errorf("name null clears: %v", updated)
	}
	d.ok("PATCH", path, map[string]any{"name": "again"})
	updated = d.ok("PATCH", path, map[string]any{"name": "", "tags": []string{}})
	if (updated["name"] != nil && updated["name"] != "") || len(dashList(updated, "tags")) != 0 ||
		updated["completed"] != true {
		t.Errorf("name \"\" and tags [] clear: %v", updated)
	}
	if body := d.fails(400, "PATCH", path, map[string]any{"tags": []string{"bad tag"}}); !dashHasField(body, "tags[0]") {
		t.Errorf("bad tag on update: %v", body)
	}

	for _, at := range []string{"2025-02-03T10:00:00", "2025-02-03T09:30:00"} {
		d.ok("POST", path+"/orders", map[string]any{"nseSymbol": "INFY", "entryPrice": 100,
			"stopLossPrice": 98, "takeProfitPrice": 105, "datetime": at})
	}
	listed := d.ok("GET", path+"/orders", nil)
	orders := dashList(listed, "orders")
	if len(orders) != 2 || dashObj(orders[0])["time"] != "2025-02-03T04:00:00Z" {
		t.Errorf("orders ascending: %v", listed)
	}
	runs := d.ok("GET", "/v1/dashboard/runs", nil)
	if got := dashList(runs, "runs"); len(got) != 1 || dashObj(got[0])["orderCount"] != 2.0 {
		t.Errorf("orderCount: %v", runs)
	}

	d.ok("DELETE", path, nil)
	d.fails(404, "GET", path+"/orders", nil)
	if n := d.s.SQL(t, "SELECT count(*) FROM orders WHERE run_id = "+dashStr(run["id"])); n != "0" {
		t.Errorf("orders left after delete: %s", n)
	}
	d.fails(404, "DELETE", path, nil)
}

func TestDashboardRunsArePrivate(t *testing.T) {
	owner := newDash(t)
	other := newDash(t)
	run := owner.createRun(map[string]any{"name": "mine", "tags": []string{"secret"}})
	path := "/v1/dashboard/runs/" + dashStr(run["id"])
	owner.ok("POST", path+"/orders", map[string]any{"nseSymbol": "INFY", "entryPrice": 100,
		"stopLossPrice": 98, "takeProfitPrice": 105, "datetime": "2025-02-03T10:00:00"})

	missing := other.fails(404, "GET", "/v1/dashboard/runs/999999999/orders", nil)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", path + "/orders", nil},
		{"POST", path + "/orders", map[string]any{"nseSymbol": "INFY", "entryPrice": 100,
			"stopLossPrice": 98, "takeProfitPrice": 105, "datetime": "2025-02-03T10:00:00"}},
		{"PATCH", path, map[string]any{"completed": true}},
		{"DELETE", path, nil},
		{"GET", "/v1/dashboard/runs/abc/orders", nil},
		{"DELETE", "/v1/dashboard/runs/-1", nil},
	} {
		body := other.fails(404, c.method, c.path, c.body)
		// Exactly as if it did not exist.
		if body["message"] != missing["message"] {
			t.Errorf("%s %s: %v, want the answer of a missing run %v", c.method, c.path, body, missing)
		}
	}
	if runs := other.ok("GET", "/v1/dashboard/runs", nil); len(dashList(runs, "runs")) != 0 {
		t.Errorf("another's runs listed: %v", runs)
	}
	if tags := other.ok("GET", "/v1/dashboard/runs/tags", nil); len(dashList(tags, "tags")) != 0 {
		t.Errorf("another's tags listed: %v", tags)
	}
	// The owner's run is untouched.
	runs := owner.ok("GET", "/v1/dashboard/runs", nil)
	got := dashList(runs, "runs")
	if len(got) != 1 || dashObj(got[0])["completed"] == true || dashObj(got[0])["orderCount"] != 1.0 {
		t.Errorf("owner's run changed: %v", runs)
	}
}

func TestDashboardRunsPaging(t *testing.T) {
	d := newDash(t)
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, dashStr(d.createRun(map[string]any{})["id"]))
	}
	var seen []string
	token := ""
	for pages := 0; pages < 5; pages++ {
		answer := d.ok("GET", dashQuery("/v1/dashboard/runs", map[string]string{"pageSize": "2", "pageToken": token}), nil)
		for _, r := range dashList(answer, "runs") {
			seen = append(seen, dashStr(dashObj(r)["id"]))
		}
		token, _ = answer["nextPageToken"].(string)
		if token == "" {
			break
		}
	}
	want := []string{ids[4], ids[3], ids[2], ids[1], ids[0]}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("pages %v, want newest first %v", seen, want)
	}
	if body := d.fails(400, "GET", "/v1/dashboard/runs?pageToken=garbage", nil); !dashHasField(body, "pageToken") {
		t.Errorf("bad token: %v", body)
	}
	if body := d.fails(400, "GET", "/v1/dashboard/runs?pageSize=-1", nil); !dashHasField(body, "pageSize") {
		t.Errorf("negative page size: %v", body)
	}
}

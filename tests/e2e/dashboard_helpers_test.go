package e2e

// Helpers of the dashboard end-to-end tests, on top of the shared harness.

import (
	"encoding/json"
	"testing"
)

// dash is one developer's view of the shared stack.
type dash struct {
	t     *testing.T
	s     *Stack
	id    string
	token string
}

// newDash makes a developer on the shared stack (NewDeveloper).
func newDash(t *testing.T) *dash {
	t.Helper()
	s := SharedStack(t)
	id, token := s.NewDeveloper(t, "developer")
	return &dash{t: t, s: s, id: id, token: token}
}

// anonymous is a caller without a token.
func (d *dash) anonymous() *dash { return &dash{t: d.t, s: d.s} }

// call sends a request and decodes the JSON answer (nil for an empty body);
// headers are name, value pairs.
func (d *dash) call(method, path string, body any, headers ...string) (int, map[string]any) {
	d.t.Helper()
	h := map[string]string{}
	for i := 0; i+1 < len(headers); i += 2 {
		h[headers[i]] = headers[i+1]
	}
	r := d.s.Do(d.t, method, path, d.token, body, h)
	var out map[string]any
	if len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, &out); err != nil {
			d.t.Fatalf("%s %s: answer is not a JSON object: %v: %s", method, path, err, r.Body)
		}
	}
	return r.Status, out
}

// ok sends a request that must answer 200.
func (d *dash) ok(method, path string, body any, headers ...string) map[string]any {
	d.t.Helper()
	status, out := d.call(method, path, body, headers...)
	if status != 200 {
		d.t.Fatalf("%s %s: status %d, want 200: %v", method, path, status, out)
	}
	return out
}

// fails sends a request that must answer `want`, and returns the body.
func (d *dash) fails(want int, method, path string, body any, headers ...string) map[string]any {
	d.t.Helper()
	status, out := d.call(method, path, body, headers...)
	if status != want {
		d.t.Fatalf("%s %s: status %d, want %d: %v", method, path, status, want, out)
	}
	return out
}

func (d *dash) createRun(body map[string]any) map[string]any {
	d.t.Helper()
	if _, ok := body["start_datetime"]; !ok {
		body["start_datetime"] = "2025-02-03T09:15:00"
	}
	if _, ok := body["end_datetime"]; !ok {
		body["end_datetime"] = "2025-02-03T15:30:00"
	}
	return d.ok("POST", "/v1/dashboard/runs", body)
}

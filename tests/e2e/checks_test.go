package e2e

// Checks on the gateway's answers and readers of their JSON, shared by every
// test file.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// expectStatus stops t unless r has the status want.
func expectStatus(t *testing.T, r *Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d; body %s", r.Status, want, r.Text())
	}
}

// checkStatus records a failure of t, and goes on, unless r has the status
// want; what names the call in the message.
func checkStatus(t *testing.T, what string, r *Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Errorf("%s: want %d, got %v", what, want, r)
	}
}

// expectFieldError checks a 4xx that names `field` in the message and, for
// 400s from the server or gateway, in a BadRequest field violation (one
// whose field starts with `field`).
func expectFieldError(t *testing.T, r *Response, status int, field string) {
	t.Helper()
	expectStatus(t, r, status)
	if !strings.Contains(fmt.Sprint(r.JSON["message"]), field) {
		t.Fatalf("message does not name %q: %s", field, r.Text())
	}
	if status != http.StatusBadRequest {
		return
	}
	for _, f := range fieldViolations(r.JSON) {
		if strings.HasPrefix(f, field) {
			return
		}
	}
	t.Fatalf("no field violation for %q: %s", field, r.Text())
}

// fieldViolations lists, in order, the `field` of each BadRequest field
// violation in the details of an error body.
func fieldViolations(body map[string]any) []string {
	var fields []string
	for _, d := range asSlice(body["details"]) {
		for _, v := range asSlice(asObject(d)["fieldViolations"]) {
			fields = append(fields, fmt.Sprint(asObject(v)["field"]))
		}
	}
	return fields
}

// violationsAre reports whether the error body's field violations name
// exactly fields, in that order.
func violationsAre(body map[string]any, fields ...string) bool {
	return strings.Join(fieldViolations(body), ",") == strings.Join(fields, ",")
}

// hasFieldViolation reports whether one of the body's field violations names
// field.
func hasFieldViolation(body map[string]any, field string) bool {
	for _, f := range fieldViolations(body) {
		if f == field {
			return true
		}
	}
	return false
}

// expectMessageNames checks that the error message contains every part.
func expectMessageNames(t *testing.T, r *Response, parts ...string) {
	t.Helper()
	msg := fmt.Sprint(r.JSON["message"])
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q does not contain %q", msg, p)
		}
	}
}

// num reads a JSON number (json.Number, as Do decodes them) as float64.
func num(t *testing.T, v any) float64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v (%T) is not a number", v, v)
	}
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// isNumber reports whether v is a JSON number (as Do decodes them) equal to
// want.
func isNumber(v any, want float64) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := n.Float64()
	return err == nil && f == want
}

// field walks a decoded JSON value: field(v, "quoteData", "payload",
// "last_price").
func field(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// asSlice reads v as a JSON array (nil when it is not one).
func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// asObject reads v as a JSON object (nil when it is not one).
func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// query builds a path with its query string.
func query(path string, params map[string]string) string {
	v := url.Values{}
	for k, val := range params {
		v.Set(k, val)
	}
	return path + "?" + v.Encode()
}

package e2e

// Error reasons (docs/api.md section 9.1, "Error reasons"): the errors a
// client branches on carry a google.rpc.ErrorInfo of domain "mdc.v1" in the
// `details` the gateway renders, and 400s still carry their BadRequest.

import (
	"testing"
)

const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// errorInfo returns the ErrorInfo detail of an error body, or nil.
func errorInfo(body map[string]any) map[string]any {
	for _, d := range asSlice(body["details"]) {
		if obj := asObject(d); obj["@type"] == errorInfoType {
			return obj
		}
	}
	return nil
}

// expectReason checks that r has the HTTP status want and an ErrorInfo with
// the reason and the service's domain, and returns the ErrorInfo's metadata.
func expectReason(t *testing.T, r *Response, want int, reason string) map[string]any {
	t.Helper()
	expectStatus(t, r, want)
	info := errorInfo(r.JSON)
	if info == nil || info["reason"] != reason || info["domain"] != "mdc.v1" {
		t.Fatalf("want ErrorInfo {reason %s, domain mdc.v1} in details, got %s", reason, r.Text())
	}
	return asObject(info["metadata"])
}

// expectNoReason checks that r has the HTTP status want and no ErrorInfo.
func expectNoReason(t *testing.T, r *Response, want int) {
	t.Helper()
	expectStatus(t, r, want)
	if info := errorInfo(r.JSON); info != nil {
		t.Fatalf("want no ErrorInfo, got %v in %s", info, r.Text())
	}
}

// Deletes the bootstrap admin and stores holidays: a private stack, without
// MDC_SECRET_KEY (the harness's default).
func TestErrorReasons(t *testing.T) {
	s := StartStack(t)
	admin := s.AdminToken()
	_, developer := s.NewDeveloper(t, "developer")

	t.Run("USERNAME_TAKEN", func(t *testing.T) {
		body := map[string]any{"username": "reason.taken"}
		expectStatus(t, s.Do(t, "POST", "/v1/admin/developers", admin, body), 200)
		r := s.Do(t, "POST", "/v1/admin/developers", admin, body)
		if md := expectReason(t, r, 409, "USERNAME_TAKEN"); len(md) != 0 {
			t.Errorf("USERNAME_TAKEN has no metadata: %s", r.Text())
		}
	})

	t.Run("HOLIDAY_EXISTS", func(t *testing.T) {
		expectStatus(t, s.Do(t, "POST", "/v1/admin/holidays", admin,
			map[string]any{"dates": []string{"2031-01-26", "2031-03-10"}}), 200)
		r := s.Do(t, "POST", "/v1/admin/holidays", admin,
			map[string]any{"dates": []string{"2031-03-10", "2031-08-15", "2031-01-26"}})
		md := expectReason(t, r, 409, "HOLIDAY_EXISTS")
		if md["dates"] != "2031-01-26,2031-03-10" {
			t.Errorf("HOLIDAY_EXISTS metadata: want dates 2031-01-26,2031-03-10, got %s", r.Text())
		}
		if n := s.SQL(t, "SELECT count(*) FROM holidays"); n != "2" {
			t.Errorf("a refused create stored something: %s holidays", n)
		}
	})

	t.Run("LAST_ADMIN", func(t *testing.T) {
		adminID := s.SQL(t, "SELECT id FROM developers WHERE username = 'admin'")
		r := s.Do(t, "DELETE", "/v1/admin/developers/"+adminID, admin, nil)
		expectReason(t, r, 412, "LAST_ADMIN")
		expectMessageNames(t, r, "last admin")
	})

	t.Run("SECRET_KEY_NOT_CONFIGURED", func(t *testing.T) {
		r := s.Do(t, "PUT", "/v1/admin/broker", admin, map[string]any{"apiKey": "key-1", "apiSecret": "secret-1"})
		expectReason(t, r, 412, "SECRET_KEY_NOT_CONFIGURED")
		expectMessageNames(t, r, "MDC_SECRET_KEY")
	})

	t.Run("FUTURE_READ", func(t *testing.T) {
		// Clock 2034-02-07T11:00:00 IST = 05:30Z; every read below asks for
		// noon or the next day.
		clock := clockHeader("2034-02-07T11:00:00")
		for _, c := range []struct {
			path, field string
		}{
			{"/v1/developer/nifty?datetime=2034-02-07T12:00:00", "datetime"},
			{"/v1/developer/lists?type=TOP_GAINERS&datetime=2034-02-07T12:00:00", "datetime"},
			{"/v1/developer/quote-timeline?symbol=INFY&start_datetime=2034-02-07T12:00:00&end_datetime=2034-02-07T15:00:00", "start_datetime"},
			{"/v1/developer/historical-candles?symbol=NIFTY&interval=1hour&start_datetime=2034-02-07T11:00:00&end_datetime=2034-02-07T15:00:00", "start_datetime"},
			{"/v1/dashboard/candles?symbol=INFY&date=2034-02-08", "date"},
			{"/v1/dashboard/shortlists?type=TOP_GAINERS&datetime=2034-02-07T12:00:00", "datetime"},
		} {
			r := s.Do(t, "GET", c.path, developer, nil, clock)
			md := expectReason(t, r, 403, "FUTURE_READ")
			if md["field"] != c.field || md["backtestClock"] != "2034-02-07T05:30:00Z" {
				t.Errorf("%s: want metadata field %s, backtestClock 2034-02-07T05:30:00Z, got %s", c.path, c.field, r.Text())
			}
		}
		// The same read before the clock is no error.
		r := s.Do(t, "GET", "/v1/developer/quote-timeline?symbol=INFY&start_datetime=2034-02-07T10:00:00", developer, nil, clock)
		expectStatus(t, r, 200)
	})

	t.Run("a role 403 has no reason", func(t *testing.T) {
		// What lets a backtest tell "asked for the future" from "not allowed".
		expectNoReason(t, s.Do(t, "GET", "/v1/admin/developers", developer, nil), 403)
	})

	t.Run("400s keep their field violations", func(t *testing.T) {
		for _, c := range []struct {
			method, path string
			body         any
			headers      map[string]string
			fields       []string
		}{
			{"POST", "/v1/admin/developers", map[string]any{"username": "has space", "role": "root"}, nil, []string{"username", "role"}},
			{"POST", "/v1/admin/holidays", map[string]any{"dates": []string{"2031-05-01", "2031-05-01"}}, nil, []string{"dates[1]"}},
			{"PUT", "/v1/admin/broker", map[string]any{"apiKey": "", "apiSecret": "has space"}, nil, []string{"apiKey", "apiSecret"}},
			{"GET", "/v1/developer/nifty", nil, map[string]string{"X-Current-Timestamp": "2034-02-30T10:00:00"}, []string{"X-Current-Timestamp"}},
		} {
			token := admin
			if c.method == "GET" {
				token = developer
			}
			var headers []map[string]string
			if c.headers != nil {
				headers = append(headers, c.headers)
			}
			r := s.Do(t, c.method, c.path, token, c.body, headers...)
			expectNoReason(t, r, 400)
			if !violationsAre(r.JSON, c.fields...) {
				t.Errorf("%s %s: want field violations %v, got %s", c.method, c.path, c.fields, r.Text())
			}
		}
	})

	t.Run("other errors have no reason", func(t *testing.T) {
		expectNoReason(t, s.Do(t, "GET", "/v1/admin/developers/999999", admin, nil), 404)
		expectNoReason(t, s.Do(t, "GET", "/v1/developer/nifty", "", nil), 401)
	})
}

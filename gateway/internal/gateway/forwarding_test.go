package gateway

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

func TestHeaderForwarding(t *testing.T) {
	rec, base := startGateway(t)
	resp := do(t, "GET", base+"/v1/developer/nifty", "", map[string]string{
		"Authorization":       "Bearer s3cr3t",
		"X-Current-Timestamp": "2025-01-02T10:15:00",
		"X-Current-Timezone":  "Asia/Kolkata",
		"X-Run-Id":            "run-42",
		"X-Forwarded-For":     "203.0.113.7",
		"Grpc-Metadata-Role":  "admin",
		"User-Agent":          "collector/1.0",
	})
	if resp.status != http.StatusOK {
		t.Fatalf("status = %d, body %s", resp.status, resp.body)
	}
	_, _, md := rec.last()
	for key, want := range map[string]string{
		"authorization":       "Bearer s3cr3t",
		"x-current-timestamp": "2025-01-02T10:15:00",
		"x-current-timezone":  "Asia/Kolkata",
		"x-run-id":            "run-42",
	} {
		if got := md.Get(key); len(got) != 1 || got[0] != want {
			t.Errorf("metadata %s = %q, want [%q]", key, got, want)
		}
	}
	if got := md.Get("grpcgateway-authorization"); len(got) != 0 {
		t.Errorf("token forwarded twice, as grpcgateway-authorization too")
	}
	if got := md.Get("role"); len(got) != 0 {
		t.Errorf("Grpc-Metadata-Role forwarded as %q", got)
	}
	if got := md.Get("grpcgateway-user-agent"); len(got) != 1 || got[0] != "collector/1.0" {
		t.Errorf("grpcgateway-user-agent = %q (default forwarding of permanent headers)", got)
	}
	// The client address the gateway saw comes last.
	xff := md.Get("x-forwarded-for")
	if len(xff) != 1 || !strings.HasSuffix(xff[0], ", 127.0.0.1") || !strings.HasPrefix(xff[0], "203.0.113.7") {
		t.Errorf("x-forwarded-for = %q, want the sent value then 127.0.0.1", xff)
	}
}

func TestClientAddressWithoutProxy(t *testing.T) {
	rec, base := startGateway(t)
	do(t, "GET", base+"/v1/developer/nifty", "", nil)
	_, _, md := rec.last()
	if got := md.Get("x-forwarded-for"); len(got) != 1 || got[0] != "127.0.0.1" {
		t.Errorf("x-forwarded-for = %q, want [127.0.0.1]", got)
	}
}

func TestQueryParameterSpellings(t *testing.T) {
	rec, base := startGateway(t)
	tests := []struct {
		name  string
		query string
	}{
		{"snake_case", "symbol=INFY&start_datetime=2025-01-01T09:15:00&end_datetime=2025-01-01T10:00:00&page_size=5&page_token=abc"},
		{"lowerCamelCase", "symbol=INFY&startDatetime=2025-01-01T09:15:00&endDatetime=2025-01-01T10:00:00&pageSize=5&pageToken=abc"},
		{"mixed", "symbol=INFY&startDatetime=2025-01-01T09:15:00&end_datetime=2025-01-01T10:00:00&pageSize=5&page_token=abc"},
	}
	want := &mdcv1.GetQuoteTimelineRequest{
		Symbol:        "INFY",
		StartDatetime: "2025-01-01T09:15:00",
		EndDatetime:   "2025-01-01T10:00:00",
		PageSize:      5,
		PageToken:     "abc",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, "GET", base+"/v1/developer/quote-timeline?"+tt.query, "", nil)
			if resp.status != http.StatusOK {
				t.Fatalf("status = %d, body %s", resp.status, resp.body)
			}
			if _, got, _ := rec.last(); !proto.Equal(got, want) {
				t.Errorf("server got %v, want %v", got, want)
			}
		})
	}
}

func TestUpdateRunMask(t *testing.T) {
	rec, base := startGateway(t)
	tests := []struct {
		name     string
		body     string
		wantMask []string
	}{
		{"all three", `{"name":"swing","tags":["a"],"completed":true}`, []string{"completed", "name", "tags"}},
		{"null name and empty tags", `{"name":null,"tags":[]}`, []string{"name", "tags"}},
		{"completed only", `{"completed":false}`, []string{"completed"}},
		{"unknown keys ignored", `{"completed":true,"color":"red","name":"x"}`, []string{"completed", "name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, "PATCH", base+"/v1/dashboard/runs/run-7", tt.body, nil)
			if resp.status != http.StatusOK {
				t.Fatalf("status = %d, body %s", resp.status, resp.body)
			}
			_, got, _ := rec.last()
			req := got.(*mdcv1.UpdateRunRequest)
			if req.GetRunId() != "run-7" {
				t.Errorf("run_id = %q", req.GetRunId())
			}
			if paths := req.GetUpdateMask().GetPaths(); !slices.Equal(paths, tt.wantMask) {
				t.Errorf("update_mask = %v, want %v", paths, tt.wantMask)
			}
		})
	}
	t.Run("bad value names the field", func(t *testing.T) {
		resp := do(t, "PATCH", base+"/v1/dashboard/runs/run-7", `{"completed":"yes"}`, nil)
		if resp.status != http.StatusBadRequest {
			t.Fatalf("status = %d, body %s", resp.status, resp.body)
		}
		if fv := fieldViolations(t, errorBody(t, resp.body)); !strings.Contains(fv["completed"], "bool") {
			t.Errorf("field violations = %v", fv)
		}
	})
}

func TestResponseJSON(t *testing.T) {
	_, base := startGateway(t)
	tests := []struct {
		name    string
		path    string
		present []string // substrings of the body
		absent  []string
	}{
		{"defaults are emitted", "/v1/developer/collector/check-holiday?date=2025-01-26",
			[]string{`"isHoliday":false`, `"isTradingDay":true`, `"name":""`}, nil},
		{"quote payload keeps snake_case; unset stays absent", "/v1/developer/nifty",
			[]string{`"last_price":24500.5`, `"volume":0`, `"status":"SUCCESS"`},
			[]string{`"timestamp"`, `"day_change"`, `"dayChangePerc"`, `"lastPrice"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, "GET", base+tt.path, "", nil)
			if resp.status != http.StatusOK {
				t.Fatalf("status = %d, body %s", resp.status, resp.body)
			}
			// protojson varies its whitespace; compare compacted JSON.
			var v any
			if err := json.Unmarshal(resp.body, &v); err != nil {
				t.Fatal(err)
			}
			compact, _ := json.Marshal(v)
			for _, s := range tt.present {
				if !strings.Contains(string(compact), s) {
					t.Errorf("body %s lacks %s", compact, s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(string(compact), s) {
					t.Errorf("body %s has %s", compact, s)
				}
			}
		})
	}
}

func TestHealth(t *testing.T) {
	rec, base := startGateway(t)
	tests := []struct {
		status     mdcv1.HealthCheckResponse_ServingStatus
		wantHTTP   int
		wantStatus string
	}{
		{mdcv1.HealthCheckResponse_SERVING, http.StatusOK, "SERVING"},
		{mdcv1.HealthCheckResponse_NOT_SERVING, http.StatusServiceUnavailable, "NOT_SERVING"},
	}
	for _, tt := range tests {
		for _, path := range []string{"/health", "/v1/health"} {
			t.Run(tt.wantStatus+" "+path, func(t *testing.T) {
				rec.mu.Lock()
				rec.health = tt.status
				rec.mu.Unlock()
				resp := do(t, "GET", base+path, "", nil)
				if resp.status != tt.wantHTTP {
					t.Errorf("HTTP status = %d, want %d", resp.status, tt.wantHTTP)
				}
				var body struct{ Status, Database, Version string }
				if err := json.Unmarshal(resp.body, &body); err != nil || body.Status != tt.wantStatus {
					t.Errorf("body = %s (%v), want status %s", resp.body, err, tt.wantStatus)
				}
			})
		}
	}
}

func TestServerDown(t *testing.T) {
	// An address nothing listens on.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	srv := httptest.NewServer(newTestHandler(t, addr))
	t.Cleanup(srv.Close)

	for _, path := range []string{"/health", "/v1/developer/nifty"} {
		start := time.Now()
		resp := do(t, "GET", srv.URL+path, "", nil)
		elapsed := time.Since(start)
		if resp.status != http.StatusServiceUnavailable {
			t.Fatalf("%s: status = %d, want 503; body %s", path, resp.status, resp.body)
		}
		// Far below the 30 s call deadline: the call failed, it did not wait.
		if elapsed > 10*time.Second {
			t.Errorf("%s took %s", path, elapsed)
		}
		st := errorBody(t, resp.body)
		if codes.Code(st.GetCode()) != codes.Unavailable {
			t.Errorf("code = %d", st.GetCode())
		}
		if strings.Contains(st.GetMessage(), "127.0.0.1") || strings.Contains(st.GetMessage(), "dial") {
			t.Errorf("message leaks transport details: %q", st.GetMessage())
		}
	}
}

func TestCallDeadline(t *testing.T) {
	rec, addr := startFakeServer(t)
	rec.mu.Lock()
	rec.delay = time.Minute
	rec.mu.Unlock()
	o := testOptions()
	o.CallTimeout = 200 * time.Millisecond
	srv := httptest.NewServer(newTestHandlerWith(t, addr, o))
	t.Cleanup(srv.Close)

	resp := do(t, "GET", srv.URL+"/v1/developer/nifty", "", nil)
	if resp.status != http.StatusGatewayTimeout {
		t.Fatalf("status = %d, want 504; body %s", resp.status, resp.body)
	}
	if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != codes.DeadlineExceeded {
		t.Errorf("body = %s", resp.body)
	}
}

func TestQueryParameterErrors(t *testing.T) {
	_, base := startGateway(t)
	resp := do(t, "GET", base+"/v1/developer/quote-timeline?symbol=INFY&pageSize=many", "", nil)
	if resp.status != http.StatusBadRequest {
		t.Fatalf("status = %d, want 400; body %s", resp.status, resp.body)
	}
	if st := errorBody(t, resp.body); !strings.Contains(st.GetMessage(), "page_size") && !strings.Contains(st.GetMessage(), "pageSize") {
		t.Errorf("message %q does not name the parameter", st.GetMessage())
	}
}

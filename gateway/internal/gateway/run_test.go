package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	h := accessLog(slog.New(slog.NewJSONHandler(&buf, nil)), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	tests := []struct {
		name      string
		runID     string
		wantRunID bool
	}{
		{"with run id", "run-9", true},
		{"without run id", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			r := httptest.NewRequest("POST", "/v1/developer/collector/nifty?x=1", nil)
			if tt.runID != "" {
				r.Header.Set("X-Run-Id", tt.runID)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("log line %q: %v", buf.String(), err)
			}
			if line["method"] != "POST" || line["path"] != "/v1/developer/collector/nifty" || line["status"] != float64(418) {
				t.Errorf("log line = %v", line)
			}
			if _, ok := line["duration_ms"].(float64); !ok {
				t.Errorf("no duration_ms in %v", line)
			}
			if got, ok := line["run_id"]; ok != tt.wantRunID || (ok && got != tt.runID) {
				t.Errorf("run_id = %v in %v", got, line)
			}
		})
	}
}

func TestRunStopsWhenContextEnds(t *testing.T) {
	_, addr := startFakeServer(t)
	o := testOptions()
	o.HTTPAddr = "127.0.0.1:0"
	o.GRPCAddr = addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

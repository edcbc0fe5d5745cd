package gateway

import (
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"mdc/gateway/internal/codec"
)

// A RESOURCE_EXHAUSTED with a RetryInfo (the server's per-developer rate
// limit) is a 429 with Retry-After in whole seconds, rounded up; the detail
// stays in the body. Without a RetryInfo there is no Retry-After.
func TestRetryAfterFromRetryInfo(t *testing.T) {
	tests := []struct {
		name  string
		delay *time.Duration // nil: no RetryInfo
		want  string
	}{
		{"no RetryInfo", nil, ""},
		{"under a second rounds up", durationPtr(200 * time.Millisecond), "1"},
		{"whole seconds stay", durationPtr(3 * time.Second), "3"},
		{"a fraction over rounds up", durationPtr(3*time.Second + time.Nanosecond), "4"},
		{"zero", durationPtr(0), "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := status.New(codes.ResourceExhausted, "too many reads")
			if tt.delay != nil {
				var err error
				st, err = st.WithDetails(
					&errdetails.ErrorInfo{Reason: "RATE_LIMITED", Domain: "mdc.v1"},
					&errdetails.RetryInfo{RetryDelay: durationpb.New(*tt.delay)})
				if err != nil {
					t.Fatal(err)
				}
			}
			w := httptest.NewRecorder()
			r := httptest.NewRequest("GET", "/v1/developer/lists", nil)
			handleError(r.Context(), nil, codec.NewMarshaler(), w, r, st.Err())
			if w.Code != 429 {
				t.Errorf("status = %d, want 429", w.Code)
			}
			if got := w.Header().Get("Retry-After"); got != tt.want {
				t.Errorf("Retry-After = %q, want %q", got, tt.want)
			}
			body := errorBody(t, w.Body.Bytes())
			wantDetails := 0
			if tt.delay != nil {
				wantDetails = 2
			}
			if len(body.GetDetails()) != wantDetails {
				t.Errorf("details = %v, want %d", body.GetDetails(), wantDetails)
			}
		})
	}
}

func durationPtr(d time.Duration) *time.Duration { return &d }

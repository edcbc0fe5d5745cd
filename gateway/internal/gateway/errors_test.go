package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"mdc/gateway/internal/codec"
)

// errorBody parses a gateway error answer as google.rpc.Status.
func errorBody(t *testing.T, b []byte) *spb.Status {
	t.Helper()
	var st spb.Status
	if err := protojson.Unmarshal(b, &st); err != nil {
		t.Fatalf("error body %s is not a google.rpc.Status: %v", b, err)
	}
	return &st
}

// fieldViolations returns the google.rpc.BadRequest violations in st as
// field -> description.
func fieldViolations(t *testing.T, st *spb.Status) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range st.GetDetails() {
		var br errdetails.BadRequest
		if d.MessageIs(&br) {
			if err := d.UnmarshalTo(&br); err != nil {
				t.Fatal(err)
			}
			for _, v := range br.GetFieldViolations() {
				out[v.GetField()] = v.GetDescription()
			}
		}
	}
	return out
}

func TestErrorCodeToHTTPStatus(t *testing.T) {
	rec, base := startGateway(t)
	tests := []struct {
		code codes.Code
		want int
	}{
		{codes.InvalidArgument, 400},
		{codes.OutOfRange, 400},
		{codes.FailedPrecondition, 412},
		{codes.Unauthenticated, 401},
		{codes.PermissionDenied, 403},
		{codes.NotFound, 404},
		{codes.AlreadyExists, 409},
		{codes.Aborted, 409},
		{codes.ResourceExhausted, 429},
		{codes.Unimplemented, 501},
		{codes.Unavailable, 503},
		{codes.DeadlineExceeded, 504},
		{codes.Internal, 500},
		{codes.Unknown, 500},
		{codes.DataLoss, 500},
	}
	for _, tt := range tests {
		t.Run(tt.code.String(), func(t *testing.T) {
			st := status.New(tt.code, "message for the caller")
			if tt.code == codes.InvalidArgument {
				var err error
				st, err = st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
					{Field: "data.timestamp", Description: "must be YYYY-MM-DDTHH:MM:SS"},
				}})
				if err != nil {
					t.Fatal(err)
				}
			}
			rec.setError(st.Err())
			resp := do(t, "GET", base+"/v1/developer/collector/check-holiday?date=2025-01-01", "", nil)
			if resp.status != tt.want {
				t.Errorf("HTTP status = %d, want %d (body %s)", resp.status, tt.want, resp.body)
			}
			if ct := resp.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			got := errorBody(t, resp.body)
			if codes.Code(got.GetCode()) != tt.code || got.GetMessage() != "message for the caller" {
				t.Errorf("body = %s, want code %d and the server's message", resp.body, tt.code)
			}
			auth := resp.header.Get("WWW-Authenticate")
			if (tt.code == codes.Unauthenticated) != (auth == "Bearer") {
				t.Errorf("WWW-Authenticate = %q", auth)
			}
			if tt.code == codes.InvalidArgument {
				fv := fieldViolations(t, got)
				if fv["data.timestamp"] != "must be YYYY-MM-DDTHH:MM:SS" {
					t.Errorf("field violations = %v, body %s", fv, resp.body)
				}
			}
		})
	}
}

func TestErrorHandlerHidesNonStatusErrors(t *testing.T) {
	tests := []struct {
		name        string
		err         error
		wantStatus  int
		wantCode    codes.Code
		wantMessage string
		clientGone  bool // the HTTP client hung up before the answer
	}{
		{"plain error", errors.New("pq: relation \"quotes\" does not exist"), 500, codes.Internal, "internal error", false},
		{"canceled by the client", status.Error(codes.Canceled, "context canceled"), 499, codes.Canceled, "context canceled", true},
		{"canceled by the server", status.Error(codes.Canceled, "Server Shutdown"), 503, codes.Unavailable, "the server cancelled the call while shutting down; retry", false},
		{"server internal keeps its message", status.Error(codes.Internal, "could not store the shortlist"), 500, codes.Internal, "could not store the shortlist", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("GET", "/v1/health", nil)
			if tt.clientGone {
				ctx, cancel := context.WithCancel(r.Context())
				cancel()
				r = r.WithContext(ctx)
			}
			handleError(r.Context(), nil, codec.NewMarshaler(), w, r, tt.err)
			if w.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			st := errorBody(t, w.Body.Bytes())
			if codes.Code(st.GetCode()) != tt.wantCode || st.GetMessage() != tt.wantMessage {
				t.Errorf("body = %s", w.Body.Bytes())
			}
		})
	}
}

func TestRoutingErrors(t *testing.T) {
	_, base := startGateway(t)
	tests := []struct {
		method, path string
		wantStatus   int
		wantCode     codes.Code
	}{
		{"GET", "/v2/developer/lists", http.StatusNotFound, codes.NotFound},
		{"GET", "/v0/health", http.StatusNotFound, codes.NotFound},
		{"POST", "/v2/developer/collector/shortlists", http.StatusNotFound, codes.NotFound},
		{"GET", "/v1/no-such-thing", http.StatusNotFound, codes.NotFound},
		{"DELETE", "/v1/developer/lists", http.StatusMethodNotAllowed, codes.Unimplemented},
		{"GET", "/v1/developer/collector/shortlists", http.StatusMethodNotAllowed, codes.Unimplemented},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp := do(t, tt.method, base+tt.path, "", nil)
			if resp.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d", resp.status, tt.wantStatus)
			}
			if st := errorBody(t, resp.body); codes.Code(st.GetCode()) != tt.wantCode {
				t.Errorf("body = %s, want code %d", resp.body, tt.wantCode)
			}
		})
	}
}

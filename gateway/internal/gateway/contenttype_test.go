package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
)

// A body the API is sent must say it is JSON; the forms a cross-site HTML
// form can send (and no Content-Type at all) are 415 before the body is
// read or anything is forwarded.
func TestRequireJSON(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	tests := []struct {
		contentType []string
		want        int
	}{
		{[]string{"application/json"}, http.StatusOK},
		{[]string{"application/json; charset=utf-8"}, http.StatusOK},
		{[]string{"Application/JSON"}, http.StatusOK},
		{[]string{"application/merge-patch+json"}, http.StatusOK},
		{nil, http.StatusUnsupportedMediaType},
		{[]string{"text/plain"}, http.StatusUnsupportedMediaType},
		{[]string{"text/plain; charset=utf-8"}, http.StatusUnsupportedMediaType},
		{[]string{"application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType},
		{[]string{"multipart/form-data; boundary=x"}, http.StatusUnsupportedMediaType},
		{[]string{"application/json", "text/plain"}, http.StatusUnsupportedMediaType},
		{[]string{"application/json; ="}, http.StatusUnsupportedMediaType},
	}
	for _, path := range []string{"/v1/developer/collector/quotes", "/v1/dashboard/auth/sign-in"} {
		for _, tt := range tests {
			rec.reset()
			body := &countingReader{r: strings.NewReader(`{}`)}
			req := httptest.NewRequest("POST", path, body)
			req.Header.Set("Authorization", "Bearer t")
			for _, v := range tt.contentType {
				req.Header.Add("Content-Type", v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if tt.want == http.StatusOK {
				if w.Code == http.StatusUnsupportedMediaType {
					t.Errorf("%s %q: 415 %s", path, tt.contentType, w.Body.String())
				}
				continue
			}
			if w.Code != tt.want {
				t.Errorf("%s %q: status %d, want %d; %s", path, tt.contentType, w.Code, tt.want, w.Body.String())
				continue
			}
			if st := errorBody(t, w.Body.Bytes()); codes.Code(st.GetCode()) != codes.InvalidArgument || !strings.Contains(st.GetMessage(), "application/json") {
				t.Errorf("%s %q: body %s", path, tt.contentType, w.Body.String())
			}
			if body.n != 0 {
				t.Errorf("%s %q: read %d body bytes before the 415", path, tt.contentType, body.n)
			}
			if m, _, _ := rec.last(); m != "" {
				t.Errorf("%s %q: forwarded as %s", path, tt.contentType, m)
			}
		}
	}
	// No body: nothing to type.
	req := httptest.NewRequest("GET", "/v1/developer/nifty", nil)
	req.Header.Set("Authorization", "Bearer t")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code == http.StatusUnsupportedMediaType {
		t.Errorf("GET without a body: 415")
	}
}

func TestSecurityHeaders(t *testing.T) {
	_, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	for _, tt := range []struct {
		path    string
		noStore bool
	}{
		{"/v1/developer/nifty", true},
		{"/v1/unknown", true},
		{"/health", true},
		{"/openapi.json", true},
		{"/docs/", false},
		{"/", false},
	} {
		req := httptest.NewRequest("GET", tt.path, nil)
		req.Header.Set("Authorization", "Bearer t")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", tt.path, got)
		}
		if got := w.Header().Get("Cache-Control"); (got == "no-store") != tt.noStore {
			t.Errorf("%s: Cache-Control = %q, want no-store: %v", tt.path, got, tt.noStore)
		}
	}
}

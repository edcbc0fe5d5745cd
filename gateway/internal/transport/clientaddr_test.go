package transport

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestClientAddress(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, peer, xff   string
		wantAddr, wantXFF string
	}{
		{"untrusted peer: its claim is ignored", "192.0.2.1:5000", "203.0.113.9", "192.0.2.1:5000", "203.0.113.9"},
		{"trusted peer names the client", "127.0.0.1:5000", "203.0.113.9", "203.0.113.9:0", ""},
		{"the rightmost untrusted hop is the client", "127.0.0.1:5000", "198.51.100.1, 203.0.113.9, 10.1.2.3", "203.0.113.9:0", "198.51.100.1"},
		{"trusted peer without a header", "127.0.0.1:5000", "", "127.0.0.1:5000", ""},
		{"garbage stops the walk", "127.0.0.1:5000", "203.0.113.9, not-an-ip", "127.0.0.1:5000", "203.0.113.9, not-an-ip"},
	}
	for _, tt := range tests {
		var gotAddr, gotXFF string
		h := WithClientAddress(trusted, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gotAddr, gotXFF = r.RemoteAddr, r.Header.Get("X-Forwarded-For")
		}))
		req := httptest.NewRequest("GET", "/v1/health", nil)
		req.RemoteAddr = tt.peer
		if tt.xff != "" {
			req.Header.Set("X-Forwarded-For", tt.xff)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
		if gotAddr != tt.wantAddr || gotXFF != tt.wantXFF {
			t.Errorf("%s: RemoteAddr %q, X-Forwarded-For %q; want %q, %q", tt.name, gotAddr, gotXFF, tt.wantAddr, tt.wantXFF)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "gateway", "1.2.3"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted it", bad)
		}
	}
}

package e2e

import (
	"net/http"
	"testing"
)

// GET /health and /v1/health need no token and report SERVING while the
// server reaches its database.
func TestHealth(t *testing.T) {
	s := SharedStack(t)
	for _, path := range []string{"/health", "/v1/health"} {
		t.Run(path, func(t *testing.T) {
			r := s.Do(t, http.MethodGet, path, "", nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: want 200, got %v", path, r)
			}
			if got := r.JSON["status"]; got != "SERVING" {
				t.Errorf("GET %s: status = %v, want SERVING (%v)", path, got, r)
			}
		})
	}
}

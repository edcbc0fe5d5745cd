package e2e

import (
	"net/http"
	"testing"
)

// NewDeveloper creates a developer with a unique username and the given role
// ("developer" or "admin") through POST /v1/admin/developers with the admin
// token, and returns its id and token.
func (s *Stack) NewDeveloper(t *testing.T, role string) (id, token string) {
	t.Helper()
	suffix, err := randomHex(6)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]string{"username": "e2e_" + role + "_" + suffix, "role": role}
	r := s.Do(t, http.MethodPost, "/v1/admin/developers", s.AdminToken(), body)
	if r.Status != http.StatusOK {
		t.Fatalf("creating a %s: %v", role, r)
	}
	id, _ = r.JSON["id"].(string)
	token, _ = r.JSON["token"].(string)
	if id == "" || token == "" {
		t.Fatalf("creating a %s: no id or token in %v", role, r)
	}
	return id, token
}

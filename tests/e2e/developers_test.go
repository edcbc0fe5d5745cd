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
	return s.NewNamedDeveloper(t, "e2e_"+role+"_"+mustRandomHex(t, 6), role)
}

// NewNamedDeveloper is NewDeveloper with the username given, for tests that
// look for it afterwards. The name must be free in the stack's database.
func (s *Stack) NewNamedDeveloper(t *testing.T, username, role string) (id, token string) {
	t.Helper()
	body := map[string]string{"username": username, "role": role}
	r := s.Do(t, http.MethodPost, "/v1/admin/developers", s.AdminToken(), body)
	if r.Status != http.StatusOK {
		t.Fatalf("creating %s %q: %v", role, username, r)
	}
	id, _ = r.JSON["id"].(string)
	token, _ = r.JSON["token"].(string)
	if id == "" || token == "" {
		t.Fatalf("creating %s %q: no id or token in %v", role, username, r)
	}
	return id, token
}

// newDevelopers makes n developers and returns their tokens.
func newDevelopers(t *testing.T, s *Stack, n int) []string {
	t.Helper()
	tokens := make([]string, n)
	for i := range tokens {
		_, tokens[i] = s.NewDeveloper(t, "developer")
	}
	return tokens
}

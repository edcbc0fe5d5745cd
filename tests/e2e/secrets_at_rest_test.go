package e2e

// Secrets at rest: after an admin stored the broker credentials and the
// service stored a broker token, a dump of the whole database holds none of
// them in clear, neither as text nor as the hex pg_dump writes bytea in.

import (
	"bytes"
	"context"
	"encoding/hex"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// pgDump dumps the stack's database (schema and data) with pg_dump.
func pgDump(t *testing.T, dbURL string) string {
	t.Helper()
	bin, err := exec.LookPath("pg_dump")
	if err != nil {
		bin = "/usr/lib/postgresql/15/bin/pg_dump"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--no-owner", "--no-privileges", "--dbname="+dbURL)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pg_dump: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String()
}

func TestNoBrokerSecretInClearInTheDatabase(t *testing.T) {
	fake := &fakeBroker{mode: "ok"}
	endpoint := httptest.NewServer(fake)
	t.Cleanup(endpoint.Close)
	secretKey := mustRandomHex(t, 32)
	s := StartStackWith(t, StackOptions{Env: []string{
		"MDC_BROKER_TOKEN_URL=" + endpoint.URL + "/session/token",
		"MDC_BROKER_TIMEOUT_SECONDS=5",
		"MDC_SECRET_KEY=" + secretKey,
	}})
	apiKey := "plainkey-" + mustRandomHex(t, 8)
	apiSecret := "plainsecret-" + mustRandomHex(t, 8)
	r := s.Do(t, "PUT", "/v1/admin/broker", s.AdminToken(),
		map[string]any{"apiKey": apiKey, "apiSecret": apiSecret})
	expectStatus(t, r, 200)

	_, token := s.NewDeveloper(t, "developer")
	r = s.Do(t, "GET", "/v1/developer/token", token, nil)
	expectStatus(t, r, 200)
	accessToken, _ := r.JSON["accessToken"].(string)
	if !strings.HasPrefix(accessToken, "broker-token-") {
		t.Fatalf("token: %s", r.Text())
	}
	fake.mu.Lock()
	if fake.last["api_key"] != apiKey || fake.last["api_secret"] != apiSecret {
		t.Errorf("the endpoint was not sent the stored credentials: %v", fake.last)
	}
	fake.mu.Unlock()
	// Both are stored: the dump below looks at real rows.
	if n := s.SQL(t, "SELECT (SELECT count(*) FROM broker_credentials) + (SELECT count(*) FROM broker_tokens)"); n != "2" {
		t.Fatalf("%s stored rows of credentials and token, want 2", n)
	}

	dump := pgDump(t, s.DatabaseURL())
	if !strings.Contains(dump, "broker_tokens") || !strings.Contains(dump, "broker_credentials") {
		t.Fatalf("the dump lacks the broker tables:\n%.2000s", dump)
	}
	lower := strings.ToLower(dump)
	for name, plain := range map[string]string{
		"broker access token": accessToken,
		"broker API key":      apiKey,
		"broker API secret":   apiSecret,
		"MDC_SECRET_KEY":      secretKey,
	} {
		if strings.Contains(dump, plain) {
			t.Errorf("the %s is in the database dump in clear", name)
		}
		if strings.Contains(lower, hex.EncodeToString([]byte(plain))) {
			t.Errorf("the %s is in the database dump in clear (as bytea hex)", name)
		}
	}
}

package upstream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mdc/gateway/internal/testcert"
)

func TestGRPCTransport(t *testing.T) {
	dir := t.TempDir()
	ca, _ := testcert.WriteKeyPair(t, dir, "ca")
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("-----BEGIN NOTHING-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, ca, serverName, mentions string
	}{
		{"plaintext", "", "", ""},
		{"CA", ca, "", ""},
		{"CA and server name", ca, "mdc-server", ""},
		{"missing CA file", filepath.Join(dir, "none.pem"), "", "MDC_GRPC_TLS_CA"},
		{"CA file without a certificate", garbage, "", "no PEM certificate"},
		{"server name without a CA", "", "mdc-server", "MDC_GRPC_TLS_CA"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt, err := Credentials(tt.ca, tt.serverName)
			if tt.mentions == "" {
				if err != nil || opt == nil {
					t.Errorf("got %v, %v", opt, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("err = %v, want it to mention %q", err, tt.mentions)
			}
		})
	}
}

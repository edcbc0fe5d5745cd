package transport

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mdc/gateway/internal/testcert"
)

func TestServerTLSConfig(t *testing.T) {
	dir := t.TempDir()
	cert, key := testcert.WriteKeyPair(t, dir, "gateway")
	otherCert, _ := testcert.WriteKeyPair(t, dir, "other")

	if cfg, err := ServerTLSConfig("", ""); cfg != nil || err != nil {
		t.Errorf("neither file: %v, %v; want plain HTTP", cfg, err)
	}
	cfg, err := ServerTLSConfig(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinVersion != tls.VersionTLS12 || len(cfg.Certificates) != 1 {
		t.Errorf("config: min version %x, %d certificates", cfg.MinVersion, len(cfg.Certificates))
	}

	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, cert, key, mentions string
	}{
		{"missing certificate file", filepath.Join(dir, "none.crt"), key, "no such file"},
		{"certificate of another key", otherCert, key, "private key does not match"},
		{"not PEM", garbage, key, "MDC_TLS_CERT"},
		{"half configured", cert, "", "MDC_TLS_KEY"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ServerTLSConfig(tt.cert, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("err = %v, want it to mention %q", err, tt.mentions)
			}
		})
	}
}

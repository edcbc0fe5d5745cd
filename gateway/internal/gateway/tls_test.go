package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeKeyPair writes a self-signed certificate for 127.0.0.1 and its key
// as PEM files in dir, and returns their paths.
func writeKeyPair(t *testing.T, dir, name string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile = filepath.Join(dir, name+".crt")
	keyFile = filepath.Join(dir, name+".key")
	writePEM(t, certFile, "CERTIFICATE", der)
	writePEM(t, keyFile, "PRIVATE KEY", keyDER)
	return certFile, keyFile
}

func writePEM(t *testing.T, path, blockType string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestParseOptionsTLS(t *testing.T) {
	parse := func(args []string, env map[string]string) (Options, error) {
		return ParseOptions(args, func(k string) string { return env[k] }, io.Discard)
	}
	o, err := parse(nil, map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem",
		"MDC_GRPC_TLS_CA": "/ca.pem", "MDC_GRPC_TLS_SERVER_NAME": "mdc-server"})
	if err != nil {
		t.Fatal(err)
	}
	if o.TLSCertFile != "/c.pem" || o.TLSKeyFile != "/k.pem" || o.GRPCTLSCAFile != "/ca.pem" || o.GRPCTLSServerName != "mdc-server" {
		t.Errorf("from the environment: %+v", o)
	}
	o, err = parse([]string{"--tls-cert=/f.pem", "--tls-key", "/g.pem", "--grpc-tls-ca=/h.pem"},
		map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem"})
	if err != nil {
		t.Fatal(err)
	}
	if o.TLSCertFile != "/f.pem" || o.TLSKeyFile != "/g.pem" || o.GRPCTLSCAFile != "/h.pem" || o.GRPCTLSServerName != "" {
		t.Errorf("flags win: %+v", o)
	}
	if o, err = parse(nil, nil); err != nil || o.TLSCertFile != "" || o.GRPCTLSCAFile != "" {
		t.Errorf("default: %+v, %v", o, err)
	}

	for _, tt := range []struct {
		name     string
		args     []string
		env      map[string]string
		mentions []string
	}{
		{"certificate without key", nil, map[string]string{"MDC_TLS_CERT": "/c.pem"}, []string{"MDC_TLS_CERT is set but MDC_TLS_KEY is not"}},
		{"key without certificate", nil, map[string]string{"MDC_TLS_KEY": "/k.pem"}, []string{"MDC_TLS_KEY is set but MDC_TLS_CERT is not"}},
		{"flag emptied", []string{"--tls-key="}, map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem"}, []string{"MDC_TLS_KEY"}},
		{"server name without a CA", nil, map[string]string{"MDC_GRPC_TLS_SERVER_NAME": "mdc"}, []string{"MDC_GRPC_TLS_SERVER_NAME", "MDC_GRPC_TLS_CA"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(tt.args, tt.env)
			if err == nil {
				t.Fatal("no error")
			}
			for _, m := range tt.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

func TestServerTLSConfig(t *testing.T) {
	dir := t.TempDir()
	cert, key := writeKeyPair(t, dir, "gateway")
	otherCert, _ := writeKeyPair(t, dir, "other")

	if cfg, err := serverTLSConfig("", ""); cfg != nil || err != nil {
		t.Errorf("neither file: %v, %v; want plain HTTP", cfg, err)
	}
	cfg, err := serverTLSConfig(cert, key)
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
			_, err := serverTLSConfig(tt.cert, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("err = %v, want it to mention %q", err, tt.mentions)
			}
		})
	}
}

func TestGRPCTransport(t *testing.T) {
	dir := t.TempDir()
	ca, _ := writeKeyPair(t, dir, "ca")
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
			opt, err := grpcTransport(tt.ca, tt.serverName)
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

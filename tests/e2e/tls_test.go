package e2e

// Optional TLS on both hops (docs/operations.md, "TLS"): the gateway serves
// HTTPS only with MDC_TLS_CERT and MDC_TLS_KEY, the server speaks gRPC over
// TLS only with MDC_GRPC_TLS_CERT and MDC_GRPC_TLS_KEY, and the gateway
// verifies it against MDC_GRPC_TLS_CA. Certificates come from a CA made for
// the test; a half or broken configuration stops start-up with a message
// naming the setting.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func TestTLSOnBothHops(t *testing.T) {
	ca := newTestCA(t)
	server := ca.serverCert(t, "mdc-server")
	gateway := ca.serverCert(t, "mdc-gateway")
	s := StartStackWith(t, StackOptions{
		Env: []string{"MDC_GRPC_TLS_CERT=" + server.cert, "MDC_GRPC_TLS_KEY=" + server.key},
		GatewayEnv: []string{
			"MDC_TLS_CERT=" + gateway.cert, "MDC_TLS_KEY=" + gateway.key,
			"MDC_GRPC_TLS_CA=" + ca.certPEM,
		},
		ClientTLS: ca.clientConfig(),
	})

	t.Run("HTTPS with the CA: a write and a read through both hops", func(t *testing.T) {
		if !strings.HasPrefix(s.BaseURL(), "https://") {
			t.Fatalf("base URL %s", s.BaseURL())
		}
		_, dev := s.NewDeveloper(t, "developer")
		save := s.Do(t, "POST", "/v1/developer/collector/shortlists", dev, map[string]any{"data": map[string]any{
			"timestamp": "2025-12-31T09:20:00", "timezone": "Asia/Kolkata",
			"shortlistType": "TOP_GAINERS", "scope": "TOP_5",
			"entries": []any{map[string]any{"nseSymbol": "RELIANCE", "name": "Reliance Industries", "price": 1543.2}},
		}})
		expectStatus(t, save, 200)
		list := s.Do(t, "GET", "/v1/developer/lists?type=TOP_GAINERS&datetime=2025-12-31T09:30:00&timezone=Asia/Kolkata", dev, nil)
		expectStatus(t, list, 200)
		entries := asSlice(list.JSON["entries"])
		if len(entries) != 1 || field(entries[0], "nseSymbol") != "RELIANCE" || !isNumber(field(entries[0], "price"), 1543.2) {
			t.Fatalf("read back %s", list.Text())
		}
	})

	t.Run("plain HTTP to the HTTPS port is refused", func(t *testing.T) {
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + s.httpAddr + "/health")
		if err != nil {
			return // refused outright: fine too
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusBadRequest || strings.Contains(string(body), "SERVING") {
			t.Fatalf("plain HTTP: %d %s; want the TLS server's 400", resp.StatusCode, body)
		}
	})

	t.Run("HTTPS without trusting the CA fails", func(t *testing.T) {
		_, err := (&http.Client{Timeout: 10 * time.Second}).Get(s.BaseURL() + "/health")
		var unknown x509.UnknownAuthorityError
		if err == nil || !errors.As(err, &unknown) {
			t.Fatalf("err = %v, want an unknown certificate authority", err)
		}
	})

	t.Run("gRPC: plaintext fails, TLS with the CA works", func(t *testing.T) {
		check := func(creds credentials.TransportCredentials) (*healthpb.HealthCheckResponse, error) {
			conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(creds))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			return healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		}
		if r, err := check(insecure.NewCredentials()); err == nil {
			t.Errorf("plaintext gRPC to the TLS server answered %v", r)
		}
		// The system's roots do not hold the test's CA.
		if r, err := check(credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})); err == nil {
			t.Errorf("TLS without the CA answered %v", r)
		}
		r, err := check(credentials.NewTLS(ca.clientConfig()))
		if err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("TLS with the CA: %v, %v", r, err)
		}
	})
}

// A half or broken TLS configuration stops start-up with a message naming
// the setting; nothing is served in plaintext instead.
func TestTLSMisconfigurationStopsStartUp(t *testing.T) {
	ca := newTestCA(t)
	pair := ca.serverCert(t, "one")
	other := ca.serverCert(t, "other")
	garbage := ca.writeFile(t, "garbage.pem", "not a certificate\n")

	for _, tt := range []struct {
		name, bin string
		env       []string
		says      []string
	}{
		{"server: certificate without key", env.serverBin,
			[]string{"MDC_GRPC_TLS_CERT=" + pair.cert},
			[]string{"MDC_GRPC_TLS_CERT is set but MDC_GRPC_TLS_KEY is not"}},
		{"server: key without certificate", env.serverBin,
			[]string{"MDC_GRPC_TLS_KEY=" + pair.key},
			[]string{"MDC_GRPC_TLS_KEY is set but MDC_GRPC_TLS_CERT is not"}},
		{"server: mismatched pair", env.serverBin,
			[]string{"MDC_GRPC_TLS_CERT=" + pair.cert, "MDC_GRPC_TLS_KEY=" + other.key},
			[]string{"MDC_GRPC_TLS_KEY", "does not belong to the certificate"}},
		{"server: certificate not PEM", env.serverBin,
			[]string{"MDC_GRPC_TLS_CERT=" + garbage, "MDC_GRPC_TLS_KEY=" + pair.key},
			[]string{"MDC_GRPC_TLS_CERT", "holds no PEM certificate"}},
		{"server: missing file", env.serverBin,
			[]string{"MDC_GRPC_TLS_CERT=" + pair.cert + ".gone", "MDC_GRPC_TLS_KEY=" + pair.key},
			[]string{"MDC_GRPC_TLS_CERT: cannot read"}},
		{"gateway: certificate without key", env.gatewayBin,
			[]string{"MDC_TLS_CERT=" + pair.cert},
			[]string{"MDC_TLS_CERT is set but MDC_TLS_KEY is not"}},
		{"gateway: key without certificate", env.gatewayBin,
			[]string{"MDC_TLS_KEY=" + pair.key},
			[]string{"MDC_TLS_KEY is set but MDC_TLS_CERT is not"}},
		{"gateway: mismatched pair", env.gatewayBin,
			[]string{"MDC_TLS_CERT=" + pair.cert, "MDC_TLS_KEY=" + other.key},
			[]string{"MDC_TLS_CERT", "private key does not match public key"}},
		{"gateway: CA not PEM", env.gatewayBin,
			[]string{"MDC_GRPC_TLS_CA=" + garbage},
			[]string{"MDC_GRPC_TLS_CA: no PEM certificate"}},
		{"gateway: server name without CA", env.gatewayBin,
			[]string{"MDC_GRPC_TLS_SERVER_NAME=mdc-server"},
			[]string{"MDC_GRPC_TLS_SERVER_NAME is set but MDC_GRPC_TLS_CA is not"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stderr, err := runToExit(t, tt.bin, tt.env)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() == 0 {
				t.Fatalf("exit: %v, want a failed start-up; stderr:\n%s", err, stderr)
			}
			for _, s := range tt.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
		})
	}
}

// runToExit runs bin with the settings of a stack that cannot start for any
// other reason (free addresses, no metrics listener, a database that is
// never waited for) plus extra, and returns its stderr once it exits. A
// binary still running after 20 s has started serving: it is killed and the
// test fails.
func runToExit(t *testing.T, bin string, extra []string) (string, error) {
	t.Helper()
	httpAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	grpcAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(),
		"MDC_HTTP_ADDR="+httpAddr, "MDC_GRPC_ADDR="+grpcAddr, "MDC_METRICS_ADDR=",
		"DATABASE_URL=postgres://mdc@127.0.0.1:1/none", "MDC_DB_WAIT_SECONDS=0",
		"MDC_TLS_CERT=", "MDC_TLS_KEY=", "MDC_GRPC_TLS_CERT=", "MDC_GRPC_TLS_KEY=",
		"MDC_GRPC_TLS_CA=", "MDC_GRPC_TLS_SERVER_NAME=")
	cmd.Env = append(cmd.Env, extra...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s was still running after 20 s; stderr:\n%s", bin, stderr.String())
	}
	return stderr.String(), err
}

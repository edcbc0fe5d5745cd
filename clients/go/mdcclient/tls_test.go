package mdcclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

// startTLSServer serves the health service over TLS with a certificate for
// 127.0.0.1 that a CA made here signed; it returns the address and the CA
// certificate's PEM file.
func startTLSServer(t *testing.T) (addr, caFile string, h *healthServer) {
	t.Helper()
	newKey := func() *ecdsa.PrivateKey {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	caKey, leafKey := newKey(), newKey()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "mdc-server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.Creds(credentials.NewServerTLSFromCert(&tls.Certificate{
		Certificate: [][]byte{leafDER}, PrivateKey: leafKey,
	})))
	h = &healthServer{got: make(chan metadata.MD, 1)}
	mdcv1.RegisterHealthServiceServer(srv, h)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String(), caFile, h
}

func TestTLSWithCAReachesATLSServer(t *testing.T) {
	addr, caFile, h := startTLSServer(t)
	check := func(opts ...grpc.DialOption) error {
		conn, err := mdcclient.Dial(addr, "mdc_secret", opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err = mdcv1.NewHealthServiceClient(conn).Check(ctx, &mdcv1.HealthCheckRequest{})
		return err
	}

	// Loopback without the option: plaintext, which a TLS server refuses.
	if err := check(); err == nil {
		t.Error("plaintext call to the TLS server succeeded")
	}
	tlsOpt, err := mdcclient.TLSWithCA(caFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(tlsOpt); err != nil {
		t.Fatalf("with TLSWithCA: %v", err)
	}
	if got := (<-h.got).Get("authorization"); len(got) != 1 || got[0] != "Bearer mdc_secret" {
		t.Errorf("authorization = %q", got)
	}
}

func TestTLSWithCARefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not PEM\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, says := range map[string]string{
		garbage:                        "no PEM certificate",
		filepath.Join(dir, "none.pem"): "no such file",
	} {
		if _, err := mdcclient.TLSWithCA(file); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("TLSWithCA(%s): err = %v, want %q", file, err, says)
		}
	}
}

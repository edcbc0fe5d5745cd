package gateway

// TLS on both hops of the gateway (docs/operations.md, "TLS"): HTTPS for its
// clients (MDC_TLS_CERT, MDC_TLS_KEY) and TLS to the gRPC server
// (MDC_GRPC_TLS_CA, MDC_GRPC_TLS_SERVER_NAME). The files are read once, at
// start-up: a renewed certificate takes a restart.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// minTLSVersion is the oldest protocol either hop speaks: TLS 1.0 and 1.1
// are deprecated (RFC 8996).
const minTLSVersion = tls.VersionTLS12

// checkPair refuses one file of a pair without the other, naming both
// settings: half a configuration is a mistake, never a request for
// plaintext.
func checkPair(name, value, otherName, otherValue string) error {
	switch {
	case value != "" && otherValue == "":
		return fmt.Errorf("%s is set but %s is not: set both, or neither", name, otherName)
	case value == "" && otherValue != "":
		return fmt.Errorf("%s is set but %s is not: set both, or neither", otherName, name)
	}
	return nil
}

// serverTLSConfig is the HTTPS configuration of the key pair in certFile
// and keyFile (PEM), nil when neither is set (plain HTTP).
func serverTLSConfig(certFile, keyFile string) (*tls.Config, error) {
	if err := checkPair("MDC_TLS_CERT", certFile, "MDC_TLS_KEY", keyFile); err != nil {
		return nil, err
	}
	if certFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("MDC_TLS_CERT (%s) / MDC_TLS_KEY (%s): %w", certFile, keyFile, err)
	}
	return &tls.Config{MinVersion: minTLSVersion, Certificates: []tls.Certificate{cert}}, nil
}

// grpcTransport is how the gateway dials the server: TLS verified against
// the CA certificates in caFile (PEM) when it is set, with serverName as
// the name the server's certificate must carry (default: the host of
// MDC_GRPC_ADDR); plaintext otherwise.
func grpcTransport(caFile, serverName string) (grpc.DialOption, error) {
	if caFile == "" {
		if serverName != "" {
			return nil, errors.New("MDC_GRPC_TLS_SERVER_NAME is set but MDC_GRPC_TLS_CA is not: TLS to the server needs the CA that signed its certificate")
		}
		return grpc.WithTransportCredentials(insecure.NewCredentials()), nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("MDC_GRPC_TLS_CA: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("MDC_GRPC_TLS_CA: no PEM certificate in %s", caFile)
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{
		MinVersion: minTLSVersion,
		RootCAs:    roots,
		ServerName: serverName,
	})), nil
}

package upstream

// TLS to the gRPC server (docs/operations.md, "TLS"; MDC_GRPC_TLS_CA,
// MDC_GRPC_TLS_SERVER_NAME). The CA file is read once, at start-up.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"mdc/gateway/internal/transport"
)

// Credentials is how the gateway dials the server: TLS verified against
// the CA certificates in caFile (PEM) when it is set, with serverName as
// the name the server's certificate must carry (default: the host of
// MDC_GRPC_ADDR); plaintext otherwise.
func Credentials(caFile, serverName string) (grpc.DialOption, error) {
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
		MinVersion: transport.MinTLSVersion,
		RootCAs:    roots,
		ServerName: serverName,
	})), nil
}

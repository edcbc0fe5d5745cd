package transport

// HTTPS for the gateway's clients (docs/operations.md, "TLS"; MDC_TLS_CERT,
// MDC_TLS_KEY; TLS to the gRPC server is upstream's). The files are read
// once, at start-up: a renewed certificate takes a restart.

import (
	"crypto/tls"
	"fmt"
)

// MinTLSVersion is the oldest protocol either hop of the gateway speaks:
// TLS 1.0 and 1.1 are deprecated (RFC 8996).
const MinTLSVersion = tls.VersionTLS12

// CheckPair refuses one file of a pair without the other, naming both
// settings: half a configuration is a mistake, never a request for
// plaintext.
func CheckPair(name, value, otherName, otherValue string) error {
	switch {
	case value != "" && otherValue == "":
		return fmt.Errorf("%s is set but %s is not: set both, or neither", name, otherName)
	case value == "" && otherValue != "":
		return fmt.Errorf("%s is set but %s is not: set both, or neither", otherName, name)
	}
	return nil
}

// ServerTLSConfig is the HTTPS configuration of the key pair in certFile
// and keyFile (PEM), nil when neither is set (plain HTTP).
func ServerTLSConfig(certFile, keyFile string) (*tls.Config, error) {
	if err := CheckPair("MDC_TLS_CERT", certFile, "MDC_TLS_KEY", keyFile); err != nil {
		return nil, err
	}
	if certFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("MDC_TLS_CERT (%s) / MDC_TLS_KEY (%s): %w", certFile, keyFile, err)
	}
	return &tls.Config{MinVersion: MinTLSVersion, Certificates: []tls.Certificate{cert}}, nil
}

package e2e

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net"
)

// randomHex returns n random bytes as 2n hex digits.
func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// randomToken returns a token shaped like the ones scripts/run.sh makes:
// "mdc_" and 256 random bits in url-safe base64.
func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "mdc_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// freeAddr returns a 127.0.0.1 address with a port nothing listens on now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

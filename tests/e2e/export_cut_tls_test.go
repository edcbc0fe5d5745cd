package e2e

// A cut download over HTTPS (docs/api.md section 11, "Errors"): HTTP/2's
// stream is reset (RST_STREAM), and an HTTP/1.0 answer under TLS ends with
// a TCP reset, not close_notify (which would be the clean end of its
// close-delimited body).

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestACutExportOverTLS(t *testing.T) {
	ca := newTestCA(t)
	gateway := ca.serverCert(t, "mdc-gateway")
	s := StartStackWith(t, StackOptions{
		GatewayEnv: []string{"MDC_TLS_CERT=" + gateway.cert, "MDC_TLS_KEY=" + gateway.key},
		ClientTLS:  ca.clientConfig(),
	})
	_, token := s.NewDeveloper(t, "developer")
	fillQuotes(t, s, cutDay, cutRows)
	fillQuotes(t, s, wholeDay, wholeRows)
	url := func(day, format string) string {
		return s.BaseURL() + "/v1/developer/export/quotes?start_date=" + day + "&format=" + format
	}

	t.Run("HTTP/2: a whole file ends with its trailer", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, url(wholeDay, "ndjson"), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: ca.clientConfig(), ForceAttemptHTTP2: true}}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		if resp.ProtoMajor != 2 || resp.Trailer.Get("Mdc-Export-Rows") != "1200" {
			t.Fatalf("%s, trailer %v", resp.Proto, resp.Trailer)
		}
	})
	// HTTP/1.0 without ALPN: curl would offer "http/1.0", which the
	// gateway's TLS (h2, http/1.1) refuses in the handshake.
	for _, version := range [][]string{{"--http2"}, {"--http1.1"}, {"--http1.0", "--no-alpn"}} {
		t.Run("curl "+strings.Join(version, " ")+": a failed transfer", func(t *testing.T) {
			curlCut(t, s, url(cutDay, "csv"), token, append(version, "--cacert", ca.certPEM)...)
		})
	}
}

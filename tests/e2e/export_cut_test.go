package e2e

// A cut download cannot pass as complete (docs/api.md section 11,
// "Errors" and "Completeness"): mdc-server killed in the middle of an
// export, the gateway breaks the answer off so that curl (HTTP/1.1 and
// HTTP/1.0) and Go's client see an error, a whole file ends with the
// Mdc-Export-Rows trailer, and the gateway logs and counts each cut.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	cutDay    = "2035-06-05" // enough rows that no download ends before the kill
	cutRows   = 300000
	wholeDay  = "2035-06-06" // a small export that ends well
	wholeRows = 1200
)

func TestACutExportCannotPassAsComplete(t *testing.T) {
	metricsAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{GatewayEnv: []string{"MDC_GATEWAY_METRICS_ADDR=" + metricsAddr}})
	developerID, token := s.NewDeveloper(t, "developer")
	fillQuotes(t, s, cutDay, cutRows)
	fillQuotes(t, s, wholeDay, wholeRows)
	exportURL := func(day, format string) string {
		return s.BaseURL() + "/v1/developer/export/quotes?start_date=" + day + "&format=" + format
	}

	t.Run("a whole file ends with its row count in the trailer", func(t *testing.T) {
		for _, format := range []string{"csv", "ndjson", "parquet"} {
			resp := openExport(t, exportURL(wholeDay, format), token)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if got := resp.Trailer.Get("Mdc-Export-Rows"); got != strconv.Itoa(wholeRows) {
				t.Errorf("%s: Mdc-Export-Rows = %q, want %d", format, got, wholeRows)
			}
			if format == "csv" {
				if _, rows := csvRows(t, body); len(rows) != wholeRows {
					t.Errorf("csv: %d rows", len(rows))
				}
			}
		}
		// curl shows the trailer with the headers (-D).
		headers := filepath.Join(t.TempDir(), "headers")
		out, err := exec.Command("curl", "-sS", "-o", os.DevNull, "-D", headers, "-H", "Authorization: Bearer "+token,
			exportURL(wholeDay, "csv")).CombinedOutput()
		if err != nil {
			t.Fatalf("curl: %v: %s", err, out)
		}
		dump, _ := os.ReadFile(headers)
		if !strings.Contains(string(dump), fmt.Sprintf("Mdc-Export-Rows: %d\r\n", wholeRows)) {
			t.Errorf("curl's headers and trailers:\n%s", dump)
		}
	})

	t.Run("Go's client: a read error, no trailer", func(t *testing.T) {
		resp := openExport(t, exportURL(cutDay, "csv"), token)
		defer resp.Body.Close()
		// The first bytes have arrived: the file has begun.
		if _, err := io.CopyN(io.Discard, resp.Body, 64<<10); err != nil {
			t.Fatal(err)
		}
		s.KillServer(t)
		defer s.StartServer(t)
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil {
			t.Fatalf("the cut download read to a clean end (%d more bytes)", n)
		}
		if got := resp.Trailer.Get("Mdc-Export-Rows"); got != "" {
			t.Errorf("a cut download with Mdc-Export-Rows: %s", got)
		}
	})

	for _, c := range []struct{ name, format string }{
		{"--http1.1", "csv"}, {"--http1.1", "ndjson"}, {"--http1.0", "csv"}, {"--http1.0", "ndjson"},
	} {
		t.Run("curl "+c.name+" "+c.format+": a failed transfer", func(t *testing.T) {
			curlCut(t, s, exportURL(cutDay, c.format), token, c.name)
		})
	}

	t.Run("the gateway logs and counts each cut", func(t *testing.T) {
		const cuts = 5 // Go's client and curl's four
		var lines []map[string]any
		waitFor(t, "the gateway's cut lines", func() bool {
			lines = lines[:0]
			for _, line := range logLines(t, s.gateway.logPath) {
				if line["msg"] == "export cut" {
					lines = append(lines, line)
				}
			}
			return len(lines) >= cuts
		})
		if len(lines) != cuts {
			t.Errorf("%d cut lines, want %d", len(lines), cuts)
		}
		for _, line := range lines {
			rows, _ := strconv.Atoi(fmt.Sprint(line["rows_sent"]))
			bytes, _ := strconv.Atoi(fmt.Sprint(line["bytes_sent"]))
			if line["level"] != "error" || line["route"] != "/v1/developer/export/quotes" ||
				len(fmt.Sprint(line["developer_token"])) != 16 || rows <= 0 || rows >= cutRows || bytes <= 0 ||
				!strings.Contains(fmt.Sprint(line["reason"]), "Unavailable") || line["request_id"] == "" {
				t.Errorf("cut line %v", line)
			}
		}
		// The token's print names the developer through the stored hash
		// (docs/operations.md, "Logs").
		tokenPrint := fmt.Sprint(lines[0]["developer_token"])
		if id := s.SQL(t, "SELECT id FROM developers WHERE encode(token_hash, 'hex') LIKE '"+tokenPrint+"%'"); id != developerID {
			t.Errorf("developer_token %s is developer %q, want %s", tokenPrint, id, developerID)
		}
		got := fetchScrape(t, metricsAddr).sum("mdc_gateway_export_cut_total",
			map[string]string{"route": "/v1/developer/export/quotes"})
		if got != cuts {
			t.Errorf("mdc_gateway_export_cut_total = %v, want %d", got, cuts)
		}
	})
}

// curlCut runs curl (with args) on the export at url, kills mdc-server once
// the first bytes are in, and wants curl to report a failed transfer:
// exit 18 (partial file: HTTP/1.1 without its last chunk), 56 (failure
// receiving: the reset) or 92 (HTTP/2 stream error). It restarts the
// server.
func curlCut(t *testing.T, s *Stack, url, token string, args ...string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "export")
	var stderr strings.Builder
	// The rate limit keeps the transfer going until the kill.
	args = append([]string{"-sS", "--limit-rate", "1M", "-o", file, "-H", "Authorization: Bearer " + token}, args...)
	cmd := exec.Command("curl", append(args, url)...)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var early error
	waitFor(t, "curl's first bytes", func() bool {
		select {
		case early = <-done:
			return true // curl ended before the file began
		default:
		}
		info, err := os.Stat(file)
		return err == nil && info.Size() > 0
	})
	if early != nil || cmd.ProcessState != nil {
		t.Fatalf("curl %v ended before the kill: %v: %s", args, early, stderr.String())
	}
	s.KillServer(t)
	defer s.StartServer(t)
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("curl still running 2 minutes after the kill")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("curl %v exited with %v, want a failed transfer: %s", args, err, stderr.String())
	}
	if code := exit.ExitCode(); code != 18 && code != 56 && code != 92 {
		t.Errorf("curl %v exit %d: %s", args, code, stderr.String())
	}
}

// openExport GETs an export with token and wants 200.
func openExport(t *testing.T, url, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	return resp
}

// waitFor polls cond until it holds, for at most 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 30 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

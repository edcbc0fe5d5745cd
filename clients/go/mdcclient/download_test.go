package mdcclient_test

// DownloadExport against the real mdc-gateway and mdc-server: a whole file
// is renamed into place with its row count; a download cut by the server's
// death (SIGKILL once its first bytes are in) is an Unavailable *Error and
// leaves no file; a refused export is the gateway's status. The gRPC
// iterator ends in an error too, never a clean end.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
	mdcv1 "github.com/mdc-project/mdc/clients/go/mdcv1"
)

const (
	cutDay = "2035-11-06"
	// More rows than the gateway, the sockets and gRPC's windows can hold,
	// so an export cannot have ended when the server is killed.
	cutRows = 200000
)

func TestDownloadExport(t *testing.T) {
	s := startMdcServer(t)
	base := startGateway(t, s)
	token := s.newDeveloper(t, "download")
	// QuoteData{status: SUCCESS, payload: {last_price, volume}}, with SQL:
	// far faster than the API.
	psql(t, s.databaseURL(), fmt.Sprintf(`INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
		SELECT 'GOCUT' || (g %% 500), timestamptz '%s 09:15:00+05:30' + (g / 500) * interval '1 second',
		       date '%s', 101.5, 1000, '\x08011212090000000000605940210000000000408f40'::bytea
		FROM generate_series(0, %d) g`, cutDay, cutDay, cutRows-1))
	exportURL := base + "/v1/developer/export/quotes?start_date=" + cutDay
	dir := t.TempDir()
	ctx := context.Background()

	t.Run("a whole file is renamed into place", func(t *testing.T) {
		path := filepath.Join(dir, "whole.csv")
		rows, err := mdcclient.DownloadExport(ctx, nil, exportURL+"&format=csv&symbols=GOCUT1", token, path)
		if err != nil || rows != cutRows/500 {
			t.Fatalf("rows %d, err %v", rows, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(path + ".part"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the part file: %v", err)
		}
	})

	t.Run("a refused export is the gateway's status", func(t *testing.T) {
		path := filepath.Join(dir, "refused.csv")
		_, err := mdcclient.DownloadExport(ctx, nil, exportURL+"&format=xml", token, path)
		var e *mdcclient.Error
		if !errors.As(err, &e) || e.Code != codes.InvalidArgument {
			t.Fatalf("err %v", err)
		}
		if _, ok := e.Violation("format"); !ok {
			t.Errorf("no violation of format: %v", e.FieldViolations)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a file for a refused export: %v", err)
		}
	})

	for _, format := range []string{"csv", "ndjson"} {
		t.Run("a cut download is Unavailable and leaves no file ("+format+")", func(t *testing.T) {
			path := filepath.Join(dir, "cut."+format)
			gate := newGate()
			done := make(chan error, 1)
			go func() {
				_, err := mdcclient.DownloadExport(ctx, &http.Client{Transport: gate}, exportURL+"&format="+format, token, path)
				done <- err
			}()
			gate.waitFirstBytes(t)
			s.kill()
			close(gate.release)
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("the download did not end within 2 minutes of the kill")
			}
			s.start()
			var e *mdcclient.Error
			if !errors.As(err, &e) || e.Code != codes.Unavailable {
				t.Fatalf("err %v, want an Unavailable *Error", err)
			}
			for _, p := range []string{path, path + ".part"} {
				if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s: %v", p, err)
				}
			}
		})
	}

	t.Run("the gRPC iterator ends in an error", func(t *testing.T) {
		conn := s.dial(t, token)
		var n int
		var last error
		for rec, err := range mdcclient.ExportQuotes(ctx, conn, &mdcv1.ExportQuotesRequest{StartDate: cutDay}) {
			if err != nil {
				last = err
				break
			}
			if n++; n == 1 && rec != nil {
				s.kill()
			}
		}
		s.start()
		if e := mdcclient.ErrorOf(last); e == nil || e.Code != codes.Unavailable || n >= cutRows {
			t.Fatalf("after %d of %d records: %v", n, cutRows, last)
		}
	})
}

// gate is a RoundTripper whose answers' bodies stop after their first bytes
// until release is closed: the test kills the server while a download is
// surely under way (a gate, not a sleep).
type gate struct {
	first   chan struct{}
	release chan struct{}
	seen    bool
}

func newGate() *gate { return &gate{first: make(chan struct{}), release: make(chan struct{})} }

func (g *gate) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &gatedBody{ReadCloser: resp.Body, g: g}
	return resp, nil
}

func (g *gate) waitFirstBytes(t *testing.T) {
	t.Helper()
	select {
	case <-g.first:
	case <-time.After(time.Minute):
		t.Fatal("no byte of the export within a minute")
	}
}

type gatedBody struct {
	io.ReadCloser
	g *gate
}

func (b *gatedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && !b.g.seen {
		b.g.seen = true
		close(b.g.first)
		<-b.g.release
	}
	return n, err
}

package gateway

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"

	"mdc/gateway/gen/mdcv1"
)

// fakeImports records the import requests the gateway forwards.
type fakeImports struct {
	mdcv1.UnimplementedAdminServiceServer
	mu      sync.Mutex
	kind    string
	csv     []byte
	actions []byte
}

func (f *fakeImports) ImportInstruments(_ context.Context, req *mdcv1.ImportInstrumentsRequest) (*mdcv1.ImportFileResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.kind, f.csv = req.GetKind(), req.GetCsv()
	return &mdcv1.ImportFileResponse{Kind: req.GetKind(), Imported: 1}, nil
}

func (f *fakeImports) ImportCorporateActions(_ context.Context, req *mdcv1.ImportCorporateActionsRequest) (*mdcv1.ImportFileResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.actions = req.GetCsv()
	return &mdcv1.ImportFileResponse{Kind: "corporate_actions"}, nil
}

// A route taking a file gets the body, byte for byte, in its bytes field
// when it is sent as text/csv, answers JSON, and refuses any other
// Content-Type before reading the body; a JSON route refuses text/csv.
func TestCSVBodies(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeImports{}
	s := grpc.NewServer()
	mdcv1.RegisterAdminServiceServer(s, fake)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	ts := httptest.NewServer(newTestHandler(t, lis.Addr().String()))
	t.Cleanup(ts.Close)
	srv := ts.URL

	file := "SYMBOL,NAME OF COMPANY\r\n\"A, \"\"B\"\"\",x\xc3\xa9\n"
	resp := do(t, "POST", srv+"/v1/admin/instruments/import?kind=equity_list", file,
		map[string]string{"Content-Type": "text/csv; charset=utf-8"})
	if resp.status != http.StatusOK || !strings.Contains(resp.header.Get("Content-Type"), "application/json") ||
		!strings.Contains(string(resp.body), `"imported":1`) {
		t.Fatalf("import: %d %s %s", resp.status, resp.header.Get("Content-Type"), resp.body)
	}
	fake.mu.Lock()
	if fake.kind != "equity_list" || string(fake.csv) != file {
		t.Errorf("forwarded kind %q csv %q", fake.kind, fake.csv)
	}
	fake.mu.Unlock()
	resp = do(t, "POST", srv+"/v1/admin/corporate-actions/import", "SYMBOL\n", map[string]string{"Content-Type": "text/csv"})
	fake.mu.Lock()
	if resp.status != http.StatusOK || string(fake.actions) != "SYMBOL\n" {
		t.Errorf("corporate actions: %d %s, forwarded %q", resp.status, resp.body, fake.actions)
	}
	fake.mu.Unlock()

	for _, ct := range []string{"application/json", "text/plain", "application/x-www-form-urlencoded"} {
		resp := do(t, "POST", srv+"/v1/admin/corporate-actions/import", "SYMBOL\n", map[string]string{"Content-Type": ct})
		if resp.status != http.StatusUnsupportedMediaType || !strings.Contains(string(resp.body), "text/csv") {
			t.Errorf("%s to a file route: %d %s", ct, resp.status, resp.body)
		}
	}
	resp = do(t, "POST", srv+"/v1/admin/holidays", `{"dates":["2030-01-01"]}`, map[string]string{"Content-Type": "text/csv"})
	if resp.status != http.StatusUnsupportedMediaType {
		t.Errorf("text/csv to a JSON route: %d %s", resp.status, resp.body)
	}
}

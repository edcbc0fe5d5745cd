package mdcclient_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
)

// TestImportFile exports a day, deletes it and imports the file back
// through the real server and gateway.
func TestImportFile(t *testing.T) {
	s := startMdcServer(t)
	base := startGateway(t, s)
	token := s.newDeveloper(t, "upload")
	psql(t, s.databaseURL(), `INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
		SELECT 'GOIMP' || g, timestamptz '2035-05-02 09:15:00+05:30', date '2035-05-02', 101.5, 1000,
		       '\x08011212090000000000605940210000000000408f40'::bytea
		FROM generate_series(1, 3) g`)
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "quotes.parquet")
	if _, err := mdcclient.DownloadExport(ctx, nil, base+"/v1/developer/export/quotes?start_date=2035-05-02&format=parquet", token, file); err != nil {
		t.Fatal(err)
	}
	psql(t, s.databaseURL(), `DELETE FROM stock_quotes WHERE trading_day = '2035-05-02'`)

	res, err := mdcclient.ImportFile(ctx, nil, base+"/v1/admin/import/quotes?format=parquet", s.adminToken, file)
	if err != nil {
		t.Fatal(err)
	}
	if res.GetRecords() != 3 || res.GetWritten() != 3 || res.GetUnchanged() != 0 {
		t.Errorf("answer %v, want 3 records written", res)
	}
	again := filepath.Join(dir, "again.parquet")
	if _, err := mdcclient.DownloadExport(ctx, nil, base+"/v1/developer/export/quotes?start_date=2035-05-02&format=parquet", token, again); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(file)
	b, _ := os.ReadFile(again)
	if string(a) != string(b) {
		t.Error("the day exported after the import differs from the file imported")
	}

	t.Run("a bad file names its line", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.csv")
		if err := os.WriteFile(bad, []byte("timestamp,trading_day\r\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := mdcclient.ImportFile(ctx, nil, base+"/v1/admin/import/quotes?format=csv", s.adminToken, bad)
		var e *mdcclient.Error
		if !errors.As(err, &e) || e.Code != codes.InvalidArgument || !strings.HasPrefix(e.Message, "line 1: missing column") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a developer token is refused", func(t *testing.T) {
		_, err := mdcclient.ImportFile(ctx, nil, base+"/v1/admin/import/quotes?format=parquet", token, file)
		var e *mdcclient.Error
		if !errors.As(err, &e) || e.Code != codes.PermissionDenied {
			t.Fatalf("err %v", err)
		}
	})
}

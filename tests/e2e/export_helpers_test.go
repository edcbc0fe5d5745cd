package e2e

// Helpers of the export tests (docs/api.md "Export"): raw answers, CSV and
// NDJSON bodies, and Parquet files read back with pyarrow.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// getRaw sends GET path with token and extra headers and returns the whole
// answer (Do's Response, whose JSON is nil for a file).
func getRaw(t *testing.T, s *Stack, path, token string, headers ...map[string]string) *Response {
	t.Helper()
	return s.Do(t, http.MethodGet, path, token, nil, headers...)
}

// csvRows parses a CSV body: its header and rows.
func csvRows(t *testing.T, body []byte) (header []string, rows [][]string) {
	t.Helper()
	all, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("the answer is not CSV: %v\n%s", err, body)
	}
	if len(all) == 0 {
		t.Fatalf("a CSV answer without a header line")
	}
	return all[0], all[1:]
}

// csvColumn is the values of the column named name, in row order.
func csvColumn(t *testing.T, header []string, rows [][]string, name string) []string {
	t.Helper()
	for i, h := range header {
		if h == name {
			out := make([]string, len(rows))
			for r, row := range rows {
				out[r] = row[i]
			}
			return out
		}
	}
	t.Fatalf("no column %q in %v", name, header)
	return nil
}

// ndjsonLines decodes each line of an NDJSON body.
func ndjsonLines(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		var line map[string]any
		if err := dec.Decode(&line); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("the answer is not NDJSON: %v\n%s", err, body)
		}
		out = append(out, line)
	}
}

// parquetSummary is what testdata/parquet_summary.py prints of a file.
type parquetSummary struct {
	Rows   int                  `json:"rows"`
	Types  map[string]string    `json:"types"`
	Nulls  map[string]int       `json:"nulls"`
	Values map[string][]*string `json:"values"`
	// The file's key-value metadata but Arrow's schema.
	Metadata map[string]string `json:"metadata"`
}

var pyarrowOnce struct {
	sync.Once
	python string
	err    string
}

// pyarrowPython is the python of a virtual environment with the pinned
// pyarrow (testdata/requirements-parquet.txt), made once beside the
// binaries under test and reused by later runs.
func pyarrowPython(t *testing.T) string {
	t.Helper()
	pyarrowOnce.Do(func() {
		venv := filepath.Join(filepath.Dir(env.serverBin), "e2e-pyarrow-venv")
		python := filepath.Join(venv, "bin", "python")
		requirements, _ := filepath.Abs(filepath.Join("testdata", "requirements-parquet.txt"))
		if _, err := os.Stat(python); err != nil {
			if out, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput(); err != nil {
				pyarrowOnce.err = "python3 -m venv: " + err.Error() + ": " + string(out)
				return
			}
		}
		out, err := exec.Command(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
			"-r", requirements).CombinedOutput()
		if err != nil {
			pyarrowOnce.err = "pip install pyarrow: " + err.Error() + ": " + string(out)
			return
		}
		pyarrowOnce.python = python
	})
	if pyarrowOnce.err != "" {
		t.Fatal(pyarrowOnce.err)
	}
	return pyarrowOnce.python
}

// readParquet reads a Parquet body back with pyarrow.
func readParquet(t *testing.T, body []byte) parquetSummary {
	t.Helper()
	python := pyarrowPython(t)
	file := filepath.Join(t.TempDir(), "export.parquet")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "parquet_summary.py"))
	var stderr strings.Builder
	cmd := exec.Command(python, script, file)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pyarrow cannot read the file: %v: %s", err, stderr.String())
	}
	var summary parquetSummary
	if err := json.Unmarshal(out, &summary); err != nil {
		t.Fatalf("parquet_summary.py: %v: %s", err, out)
	}
	return summary
}

// value is the text of one cell of a Parquet column; "<null>" for null.
func (p parquetSummary) value(t *testing.T, column string, row int) string {
	t.Helper()
	values, ok := p.Values[column]
	if !ok || row >= len(values) {
		t.Fatalf("no row %d of column %q in %v", row, column, p.Types)
	}
	if values[row] == nil {
		return "<null>"
	}
	return *values[row]
}

package export

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// csvFeed reads the rows of a CSV file as csvWriter writes them (RFC 4180,
// a header line naming the layout's columns, an empty field for null).
type csvFeed struct {
	r    *csv.Reader
	row  csvCells
	line int64
}

func newCSVSource(body io.Reader, l layout) (recordSource, error) {
	r := csv.NewReader(body)
	r.ReuseRecord = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, &placeError{"line", 1, fmt.Errorf("the file is empty: a %s file begins with the header line %s", l.kind, columnList(l))}
	}
	if err != nil {
		return nil, csvError(err)
	}
	if len(header) > 0 {
		// A byte order mark some spreadsheets write.
		header[0] = trimBOM(header[0])
	}
	if !sameColumns(l, header) {
		return nil, headerError("line", 1, l, header)
	}
	r.FieldsPerRecord = len(l.columns)
	return newRowSource(&csvFeed{r: r}, l), nil
}

func trimBOM(s string) string {
	if len(s) >= 3 && s[:3] == "\xef\xbb\xbf" {
		return s[3:]
	}
	return s
}

// csvError places an error of the CSV reader at its line.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		reason := pe.Err
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			reason = errors.New("has a different number of fields than the header")
		}
		return &placeError{"line", int64(pe.StartLine), reason}
	}
	return err
}

func (f *csvFeed) unit() string { return "line" }

func (f *csvFeed) nextRow() (fileCells, int64, error) {
	fields, err := f.r.Read()
	if err != nil {
		return nil, 0, csvError(err)
	}
	line, _ := f.r.FieldPos(0)
	f.row.fields = fields
	return &f.row, int64(line), nil
}

// csvCells are the fields of one CSV row.
type csvCells struct{ fields []string }

func (c *csvCells) null(i int) bool            { return c.fields[i] == "" }
func (c *csvCells) text(i int) (string, error) { return c.fields[i], nil }
func (c *csvCells) float(i int) (float64, error) {
	f, err := strconv.ParseFloat(c.fields[i], 64)
	if err != nil {
		return 0, fmt.Errorf("is not a number: %q", c.fields[i])
	}
	return f, nil
}

func (c *csvCells) int32(i int) (int32, error) {
	n, err := strconv.ParseInt(c.fields[i], 10, 32)
	if err != nil {
		return 0, fmt.Errorf("is not a whole number: %q", c.fields[i])
	}
	return int32(n), nil
}

func (c *csvCells) instant(i int) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, c.fields[i])
	if err != nil {
		return time.Time{}, fmt.Errorf("is not an RFC 3339 instant (2025-01-02T03:45:00Z): %q", c.fields[i])
	}
	return t, nil
}

func (c *csvCells) date(i int) (string, error) {
	if _, err := time.Parse(time.DateOnly, c.fields[i]); err != nil {
		return "", fmt.Errorf("is not a date YYYY-MM-DD: %q", c.fields[i])
	}
	return c.fields[i], nil
}

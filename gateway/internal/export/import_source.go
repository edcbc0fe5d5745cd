package export

import (
	"errors"
	"fmt"
	"io"

	"mdc/gateway/gen/mdcv1"
)

// recordSource reads the records of an imported file one by one, each with
// the place in the file it began at (a line of CSV or NDJSON, counted from
// 1 with the header; a row of Parquet, counted from 1).
type recordSource interface {
	// next is the next record and its place; io.EOF after the last.
	next() (*mdcv1.ExportRecord, int64, error)
	// unit names the places: "line" or "row".
	unit() string
}

// placeError is a bad part of an imported file: where, and why.
type placeError struct {
	unit  string // line or row
	place int64
	err   error
}

func (e *placeError) Error() string { return fmt.Sprintf("%s %d: %v", e.unit, e.place, e.err) }
func (e *placeError) Unwrap() error { return e.err }

// headerError is a file whose columns are not the layout's.
func headerError(unit string, place int64, l layout, got []string) error {
	want := make(map[string]bool, len(l.columns))
	for _, c := range l.columns {
		want[c.name] = true
	}
	have := make(map[string]bool, len(got))
	for _, name := range got {
		have[name] = true
	}
	for _, name := range got {
		if name == adjustmentColumn && !want[name] {
			return &placeError{unit, place, errAdjustedFile}
		}
		if !want[name] {
			return &placeError{unit, place, fmt.Errorf("unexpected column %q: a %s file has the columns %s", name, l.kind, columnList(l))}
		}
	}
	for _, c := range l.columns {
		if !have[c.name] {
			return &placeError{unit, place, fmt.Errorf("missing column %q: a %s file has the columns %s", c.name, l.kind, columnList(l))}
		}
	}
	return &placeError{unit, place, fmt.Errorf("the columns must come in the export's order: %s", columnList(l))}
}

func columnList(l layout) string {
	s := ""
	for i, c := range l.columns {
		if i > 0 {
			s += ","
		}
		s += c.name
	}
	return s
}

// sameColumns reports whether got are the layout's columns in its order.
func sameColumns(l layout, got []string) bool {
	if len(got) != len(l.columns) {
		return false
	}
	for i, c := range l.columns {
		if got[i] != c.name {
			return false
		}
	}
	return true
}

// rowSource is the recordSource of a file of rows (CSV, Parquet): rows
// from a rowFeed, made into records by the layout's builder.
type rowSource struct {
	feed    rowFeed
	builder recordBuilder
	reader  rowReader
	start   int64 // where the record being built began; 0: none yet
}

// rowFeed gives the rows of a file: the cells of the next row and its
// place, io.EOF after the last.
type rowFeed interface {
	nextRow() (fileCells, int64, error)
	unit() string
}

func newRowSource(feed rowFeed, l layout) *rowSource {
	return &rowSource{feed: feed, builder: builderOf(l), reader: rowReader{l: l}}
}

func (s *rowSource) unit() string { return s.feed.unit() }

func (s *rowSource) next() (*mdcv1.ExportRecord, int64, error) {
	for {
		c, place, err := s.feed.nextRow()
		if errors.Is(err, io.EOF) {
			if err := s.builder.end(); err != nil {
				return nil, 0, &placeError{s.unit(), s.start, err}
			}
			return nil, 0, io.EOF
		}
		if err != nil {
			return nil, 0, err
		}
		if s.start == 0 {
			s.start = place
		}
		s.reader.c, s.reader.err = c, nil
		rec, err := s.builder.row(&s.reader)
		if err != nil {
			return nil, 0, &placeError{s.unit(), place, err}
		}
		if rec != nil {
			start := s.start
			s.start = 0
			return rec, start, nil
		}
	}
}

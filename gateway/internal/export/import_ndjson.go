package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protojson"

	"mdc/gateway/gen/mdcv1"
)

// ndjsonMaxLine is the longest line an imported NDJSON file may have: a
// shortlist of 1,000 entries with their quotes and depths fits.
const ndjsonMaxLine = 16 << 20

// ndjsonSource reads the lines of an NDJSON file as ndjsonWriter writes
// them: the proto JSON of one mdc.v1.ExportRecord a line. Empty lines are
// skipped (they still count).
type ndjsonSource struct {
	r    *bufio.Reader
	line int64
	buf  []byte
}

var ndjsonIn = protojson.UnmarshalOptions{}

func newNDJSONSource(body io.Reader) recordSource {
	return &ndjsonSource{r: bufio.NewReaderSize(body, 64<<10)}
}

func (s *ndjsonSource) unit() string { return "line" }

func (s *ndjsonSource) next() (*mdcv1.ExportRecord, int64, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, 0, err
		}
		s.line++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		rec := &mdcv1.ExportRecord{}
		if err := ndjsonIn.Unmarshal(line, rec); err != nil {
			return nil, 0, &placeError{"line", s.line, fmt.Errorf("is not a record as an export writes it: %v", err)}
		}
		if rec.Adjustment != nil {
			return nil, 0, &placeError{"line", s.line, errAdjustedFile}
		}
		return rec, s.line, nil
	}
}

// readLine is the next line without its end; io.EOF after the last.
func (s *ndjsonSource) readLine() ([]byte, error) {
	s.buf = s.buf[:0]
	for {
		part, err := s.r.ReadSlice('\n')
		s.buf = append(s.buf, part...)
		if len(s.buf) > ndjsonMaxLine {
			return nil, &placeError{"line", s.line + 1, fmt.Errorf("is longer than %d bytes", ndjsonMaxLine)}
		}
		switch {
		case err == nil:
			return s.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(s.buf) == 0 {
				return nil, io.EOF
			}
			return s.buf, nil
		default:
			return nil, err
		}
	}
}

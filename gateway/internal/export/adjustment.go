package export

// Adjusted exports (docs/api.md section 13.6) say which adjustment produced
// them, in each format, so that an adjusted file is never taken for stored
// data: the header AdjustmentHeader, a file name ending in the adjustment,
// a last column `adjustment` in CSV and Parquet (plus the Parquet file's
// key-value metadata), and the record's `adjustment` field in NDJSON. A raw
// export is unchanged, byte for byte. The import refuses adjusted files.

import (
	"errors"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// AdjustmentHeader names the adjustment of a quote or candle export:
// raw, split or all.
const AdjustmentHeader = "X-Mdc-Adjustment"

// adjustmentColumn is the column CSV and Parquet files of adjusted exports
// end with, and parquetAdjustmentKey the Parquet key-value metadata.
const (
	adjustmentColumn     = "adjustment"
	parquetAdjustmentKey = "mdc.adjustment"
)

// errAdjustedFile is why the import refuses an adjusted export.
var errAdjustedFile = errors.New("this is an adjusted export (its prices and volumes were multiplied for corporate actions, " +
	"column or field `adjustment`), not stored data: import a raw export (without adjustment)")

// requestAdjustment is the `adjustment` of an export request: "" when its
// RPC takes none, "raw" when absent. The server has checked the value.
func requestAdjustment(req proto.Message) string {
	m := req.ProtoReflect()
	f := m.Descriptor().Fields().ByName(protoreflect.Name(adjustmentColumn))
	if f == nil {
		return ""
	}
	if v := m.Get(f).String(); v != "" {
		return v
	}
	return "raw"
}

// adjusted is whether an export of this adjustment is adjusted.
func adjusted(adjustment string) bool { return adjustment != "" && adjustment != "raw" }

// withAdjustmentColumn is l with a last column `adjustment` holding value
// on every row.
func withAdjustmentColumn(l layout, value string) layout {
	columns := append(append([]column(nil), l.columns...), column{adjustmentColumn, colString})
	return layout{kind: l.kind, columns: columns, adjustment: value, rowPerRecord: l.rowPerRecord, rows: func() rowsFunc {
		inner := l.rows()
		return func(rec []byte, w rowWriter) error {
			return inner(rec, markedRows{rowWriter: w, value: value})
		}
	}}
}

// markedRows ends each row with the adjustment.
type markedRows struct {
	rowWriter
	value string
}

func (m markedRows) EndRow() error {
	m.rowWriter.String(m.value)
	return m.rowWriter.EndRow()
}

package openapigen

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The export routes (mdc.v1.ExportService): the gateway answers them with a
// file, not with grpc-gateway's JSON stream (gateway internal/export), in
// the format the `format` query parameter names, which the RPCs' request
// messages do not hold.

// exportFormats are the values of `format`, the first the default.
var exportFormats = []any{"csv", "parquet", "ndjson"}

// maxCandleSymbols is service/api/developer_many_symbols.cc's
// kMaxCandleSymbols: GetCandlesOfSymbols names at most 100 symbols.
const maxCandleSymbols = 100

func isExportRPC(rpc string) bool {
	return strings.HasPrefix(rpc, "mdc.v1.ExportService.")
}

// applyExports documents the files the export routes answer with and their
// `format` parameter; it runs after applyStreams, which describes the
// stream every server-streaming RPC would otherwise answer with.
func applyExports(ops []operation) {
	for _, o := range ops {
		if o.rpc == "mdc.v1.DeveloperService.GetCandlesOfSymbols" {
			limitSymbols(o.op, maxCandleSymbols)
		}
		if !isExportRPC(o.rpc) {
			continue
		}
		o.op.Parameters = append(o.op.Parameters, &openapi3.ParameterRef{Value: &openapi3.Parameter{
			Name: "format",
			In:   openapi3.ParameterInQuery,
			Description: "The file format: `csv` (default; a header line, RFC 4180), `parquet` (typed columns) " +
				"or `ndjson` (the JSON of one ExportRecord per line). The columns of each kind are in docs/api.md, \"Export\".",
			Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
				Type:    &openapi3.Types{openapi3.TypeString},
				Enum:    exportFormats,
				Default: exportFormats[0],
			}),
		}})
		ok := o.op.Responses.Value("200")
		if ok == nil || ok.Value == nil {
			continue
		}
		description := "The file, streamed as the records are read: CSV, Parquet or NDJSON as `format` asks " +
			"(`Content-Disposition: attachment`). An export without records is a file with the header (CSV) or the " +
			"schema (Parquet) and no rows. A failure after the file has begun breaks the answer off (the connection " +
			"or HTTP/2 stream is reset), so a cut file never looks whole."
		ok.Value.Description = &description
		ok.Value.Content = openapi3.Content{
			"text/csv": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
				Type:        &openapi3.Types{openapi3.TypeString},
				Description: "CSV with a header line; instants RFC 3339 UTC, trading days YYYY-MM-DD, null as an empty field.",
			})},
			"application/vnd.apache.parquet": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
				Type:        &openapi3.Types{openapi3.TypeString},
				Format:      "binary",
				Description: "A Parquet file: timestamps TIMESTAMP(MICROS, UTC), trading days DATE, numbers DOUBLE, every column nullable.",
			})},
			"application/x-ndjson": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("#/components/schemas/ExportRecord", nil)},
		}
	}
}

// limitSymbols sets the most `symbols` one operation takes, and that it
// needs one.
func limitSymbols(op *openapi3.Operation, most uint64) {
	for _, p := range op.Parameters {
		if p.Value == nil || p.Value.Name != "symbols" || p.Value.Schema == nil || p.Value.Schema.Value == nil {
			continue
		}
		p.Value.Schema.Value.MaxItems = &most
		p.Value.Schema.Value.MinItems = 1
	}
}

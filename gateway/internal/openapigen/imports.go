package openapigen

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The import routes (mdc.v1.ImportService): client-streaming RPCs whose
// HTTP body is a file the gateway reads as it streams (gateway
// internal/export, import_*.go), in the format the `format` query
// parameter names, not a JSON request message.

func isImportRPC(rpc string) bool {
	return strings.HasPrefix(rpc, "mdc.v1.ImportService.")
}

// importTooLarge is when an import answers 413.
const importTooLarge = "The file is larger than the gateway's MDC_IMPORT_MAX_BYTES (4 GiB by default; the 4 MiB body limit " +
	"of the other routes does not apply). Nothing was stored."

// applyImports documents the file an import route takes and its `format`
// parameter, in place of the JSON stream of request messages generated for
// it (whose schema goes: no route takes it). It runs after applyErrors and
// before every pass that reads request bodies.
func applyImports(doc *openapi3.T, ops []operation) {
	for _, o := range ops {
		if !isImportRPC(o.rpc) {
			continue
		}
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			for _, media := range rb.Value.Content {
				if media.Schema != nil {
					if name, ok := strings.CutPrefix(media.Schema.Ref, "#/components/schemas/"); ok {
						delete(doc.Components.Schemas, name)
					}
				}
			}
		}
		o.op.Parameters = append(o.op.Parameters, &openapi3.ParameterRef{Value: &openapi3.Parameter{
			Name: "format",
			In:   openapi3.ParameterInQuery,
			Description: "The file's format: `csv` (default), `parquet` or `ndjson`, in the layout an export of the same kind " +
				"writes (docs/api.md, \"Export\" and \"Import\").",
			Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
				Type:    &openapi3.Types{openapi3.TypeString},
				Enum:    exportFormats,
				Default: exportFormats[0],
			}),
		}})
		o.op.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{
			Required: true,
			Description: "The file an export wrote, as it is (any Content-Type), streamed: stored whole once it has " +
				"ended, or not at all. A bad line (CSV, NDJSON) or row (Parquet) is 400 naming it.",
			Content: openapi3.Content{
				"text/csv": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
					Type:        &openapi3.Types{openapi3.TypeString},
					Description: "CSV with the export's header line and columns.",
				})},
				"application/vnd.apache.parquet": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
					Type:        &openapi3.Types{openapi3.TypeString},
					Format:      "binary",
					Description: "A Parquet file with the export's columns and types.",
				})},
				// Text, not a $ref to ExportRecord: a schema a request reaches
				// gets nullable fields (applyRequestNullable), which would change
				// the exports' answers too.
				"application/x-ndjson": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
					Type:        &openapi3.Types{openapi3.TypeString},
					Description: "One ExportRecord (see the schema of that name) as JSON a line, as an export writes it.",
				})},
			},
		}}
		if r := o.op.Responses.Value("413"); r != nil && r.Value != nil {
			description := importTooLarge
			r.Value.Description = &description
		}
	}
}

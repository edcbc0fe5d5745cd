package openapigen

import (
	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/internal/routes"
	"mdc/gateway/internal/rpcpolicy"
)

// csvBodyDescription is what the document says of a file body.
const csvBodyDescription = "The file, as NSE publishes it: UTF-8 CSV text (docs/api.md, " +
	"\"Instrument and corporate-action files\"). Send it as the whole body with " +
	"Content-Type text/csv."

// applyFileBodies describes the body of the routes that take a file (their
// http rule's body is one bytes field, routes.IsFileBody) as text/csv: the
// converter only knows JSON bodies and would describe a base64 string.
func applyFileBodies(ops []operation) {
	for _, o := range ops {
		md, err := rpcpolicy.Lookup(o.rpc)
		if err != nil {
			continue
		}
		rule, ok := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		if !ok || rule == nil || !routes.IsFileBody(rule, md.Input()) || o.op.RequestBody == nil {
			continue
		}
		schema := openapi3.NewStringSchema()
		schema.Description = csvBodyDescription
		body := openapi3.NewRequestBody().WithRequired(true).
			WithDescription(csvBodyDescription).
			WithContent(openapi3.Content{"text/csv": openapi3.NewMediaType().WithSchema(schema)})
		o.op.RequestBody = &openapi3.RequestBodyRef{Value: body}
	}
}

package openapigen

import (
	"github.com/getkin/kin-openapi/openapi3"

	"mdc/gateway/internal/rpcpolicy"
)

// Server-streaming RPCs: protoc-gen-openapiv2 describes their 200 answer as
// one application/json object {"result", "error"}. The gateway sends one
// such object per line (application/x-ndjson), or one Server-Sent Event per
// message when the request accepts text/event-stream (the gateway's stream/streams.go,
// docs/api.md "Streams over HTTP").
func applyStreams(ops []operation) {
	for _, o := range ops {
		if !isStreamRPC(o.rpc) {
			continue
		}
		ok := o.op.Responses.Value("200")
		if ok == nil || ok.Value == nil {
			continue
		}
		line := ok.Value.Content.Get("application/json")
		if line == nil {
			continue
		}
		line.Schema.Value.Description = "One line of the stream: `result` holds one message (MarketEvents); " +
			"`error` (a google.rpc.Status) is the last line when the stream fails after it started."
		description := "A stream, one JSON object per line (application/x-ndjson), or with `Accept: text/event-stream` " +
			"one Server-Sent Event per line: `data: <that object>`, and `event: error` before the error that ends it. " +
			"A watch never ends by itself; a replay ends after the day's last record."
		ok.Value.Description = &description
		ok.Value.Content = openapi3.Content{
			"application/x-ndjson": line,
			"text/event-stream": &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{
				Type:        &openapi3.Types{openapi3.TypeString},
				Description: "Server-Sent Events: `data: {\"result\": ...}` per message, blank line between events.",
			})},
		}
	}
}

// isStreamRPC tells whether rpc (a full name) streams its answer, as its
// descriptor says.
func isStreamRPC(rpc string) bool {
	md, err := rpcpolicy.Lookup(rpc)
	return err == nil && md.IsStreamingServer()
}

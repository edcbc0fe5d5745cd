package openapigen

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// examplesFS holds the request bodies of the seed contract's two write
// routes (docs/api.md sections 2.1 and 2.2), in the shape it gives:
// a shortlist with {nseSymbol, name, price} entries, and a NIFTY quote in
// the short payload form (last_price, day_change_perc, volume, ohlc).
//
//go:embed examples/*.json
var examplesFS embed.FS

// bodyExample is the example request body of one RPC.
type bodyExample struct {
	file, summary string
}

var bodyExamples = map[string]bodyExample{
	"mdc.v1.CollectorService.SaveShortlist": {"examples/save_shortlist.json", "A TOP_GAINERS snapshot (docs/api.md section 2.1)"},
	"mdc.v1.CollectorService.SaveNifty":     {"examples/save_nifty.json", "A NIFTY 50 quote in the short payload form (docs/api.md section 2.2)"},
}

// applyExamples attaches each example to its operation's JSON body.
// Document validation then checks it against the body's schema. An example
// whose operation is gone is reported to warn.
func applyExamples(ops []operation, warn func(string)) error {
	found := 0
	for _, o := range ops {
		ex, ok := bodyExamples[o.rpc]
		if !ok {
			continue
		}
		found++
		raw, err := examplesFS.ReadFile(ex.file)
		if err != nil {
			return err
		}
		var value any
		if err := json.Unmarshal(raw, &value); err != nil {
			return fmt.Errorf("%s: %w", ex.file, err)
		}
		if o.op.RequestBody == nil || o.op.RequestBody.Value == nil || o.op.RequestBody.Value.Content.Get("application/json") == nil {
			warn(fmt.Sprintf("%s has no JSON request body for its example", o.rpc))
			continue
		}
		media := o.op.RequestBody.Value.Content.Get("application/json")
		example := openapi3.NewExample(value)
		example.Summary = ex.summary
		media.Examples = openapi3.Examples{"seed": &openapi3.ExampleRef{Value: example}}
	}
	if found != len(bodyExamples) {
		warn(fmt.Sprintf("internal/openapigen/examples.go: %d of %d examples found their operation", found, len(bodyExamples)))
	}
	return nil
}

// dropExamples removes the examples again.
func dropExamples(ops []operation) {
	for _, o := range ops {
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			for _, media := range rb.Value.Content {
				media.Examples = nil
			}
		}
	}
}

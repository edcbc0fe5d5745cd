package openapigen

import "github.com/getkin/kin-openapi/openapi3"

// numberRange bounds a numeric query parameter (inclusive; nil: unbounded).
type numberRange struct {
	min, max *float64
}

func bound(v float64) *float64 { return &v }

// queryRanges are the bounds the server enforces on numeric query
// parameters, by name (docs/api.md sections 1 and 9; a value outside is
// 400). pageSize: 0 means the default; above 1000 most lists read 1000,
// the developers list refuses it (left unbounded above here).
var queryRanges = map[string]numberRange{
	"pageSize":             {min: bound(0)},
	"minPercentage":        {min: bound(0), max: bound(100)},
	"stopLossPercentage":   {min: bound(0), max: bound(100)},
	"takeProfitPercentage": {min: bound(0)},
	"targetGainPercentage": {min: bound(0)},
}

// applyNumberRanges sets queryRanges on the query parameters.
func applyNumberRanges(ops []operation) {
	for _, o := range ops {
		for _, p := range o.op.Parameters {
			if p.Value == nil || p.Value.In != openapi3.ParameterInQuery || p.Value.Schema == nil || p.Value.Schema.Value == nil {
				continue
			}
			r, ok := queryRanges[p.Value.Name]
			s := p.Value.Schema.Value
			if !ok || !(s.Type.Is("integer") || s.Type.Is("number")) {
				continue
			}
			s.Min, s.Max = r.min, r.max
		}
	}
}

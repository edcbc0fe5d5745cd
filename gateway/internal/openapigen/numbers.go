package openapigen

import "github.com/getkin/kin-openapi/openapi3"

// numberRange bounds a numeric query parameter (inclusive; nil: unbounded).
type numberRange struct {
	min, max *float64
	// orZero: 0 is valid too, as absent (proto3 cannot tell them apart).
	orZero bool
}

func bound(v float64) *float64 { return &v }

// queryRanges are the bounds the server enforces on numeric query
// parameters, by name (docs/api.md sections 1 and 9; a value outside is
// 400). pageSize: 0 means the default; above 1000 most lists read 1000
// (rpcQueryRanges has the one that refuses it). year: the holiday lists
// take 1900-2200, and 0 (or absent) for the current year. The gain
// percentages: at most 1000 (domain/number_limits.h kMaxGainPercentage).
var queryRanges = map[string]numberRange{
	"pageSize":             {min: bound(0)},
	"year":                 {min: bound(1900), max: bound(2200), orZero: true},
	"minPercentage":        {min: bound(0), max: bound(100)},
	"stopLossPercentage":   {min: bound(0), max: bound(100)},
	"takeProfitPercentage": {min: bound(0), max: bound(1000)},
	"targetGainPercentage": {min: bound(0), max: bound(1000)},
}

// rpcQueryRanges replace queryRanges for one RPC.
var rpcQueryRanges = map[string]map[string]numberRange{
	// docs/api.md section 9.5: pageSize 1-1000 (0 the default), else 400.
	"mdc.v1.AdminService.ListDevelopers": {"pageSize": {min: bound(0), max: bound(1000)}},
}

// applyNumberRanges sets queryRanges on the query parameters.
func applyNumberRanges(ops []operation) {
	for _, o := range ops {
		for _, p := range o.op.Parameters {
			if p.Value == nil || p.Value.In != openapi3.ParameterInQuery || p.Value.Schema == nil || p.Value.Schema.Value == nil {
				continue
			}
			r, ok := queryRanges[p.Value.Name]
			if own, found := rpcQueryRanges[o.rpc][p.Value.Name]; found {
				r, ok = own, true
			}
			s := p.Value.Schema.Value
			if !ok || !(s.Type.Is("integer") || s.Type.Is("number")) {
				continue
			}
			if r.orZero {
				zero := &openapi3.Schema{Enum: []any{0}}
				within := &openapi3.Schema{Min: r.min, Max: r.max}
				s.AnyOf = openapi3.SchemaRefs{openapi3.NewSchemaRef("", zero), openapi3.NewSchemaRef("", within)}
				continue
			}
			s.Min, s.Max = r.min, r.max
		}
	}
}

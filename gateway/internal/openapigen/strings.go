package openapigen

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Forms of the strings the protos type as plain `string` (docs/api.md
// section 1 and 9; the server's parsers in domain/time.cc,
// domain/observations.cc, domain/calendar.cc).
const (
	// A wall-clock time in a request: no offset, no fraction. The ranges
	// of month, day, hour, minute and second are checked here too (the
	// server also refuses days a month lacks, e.g. 02-30); years from 1000.
	wallClockPattern = `^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$`
	// An id: a positive whole number as a string.
	idPattern = `^[1-9][0-9]*$`
	// An NSE symbol: 1-32 of A-Z a-z 0-9 & . _ -.
	symbolPattern = `^[A-Za-z0-9&._-]{1,32}$`
	// A special session's open or close, HH:MM in Asia/Kolkata.
	clockTimePattern = `^[0-9]{2}:[0-9]{2}$`
	// A username: 1-64 of A-Z a-z 0-9 _ . -.
	usernamePattern = `^[A-Za-z0-9_.-]{1,64}$`
)

// stringForm is what is known about a string field or parameter.
type stringForm struct {
	format  string // "date": YYYY-MM-DD (RFC 3339 full-date)
	pattern string
	enum    []any
}

var (
	date      = stringForm{format: "date"}
	wallClock = stringForm{pattern: wallClockPattern}
	symbol    = stringForm{pattern: symbolPattern}
	clockTime = stringForm{pattern: clockTimePattern}
	id        = stringForm{pattern: idPattern}
)

// formsByName apply to every string property and query parameter of that
// JSON name, in requests and responses alike; for a repeated field, to its
// items. A Timestamp (already format date-time) is left alone, so response
// `timestamp`s stay instants while request `timestamp`s are wall clocks.
var formsByName = map[string]stringForm{
	"date":          date,
	"dates":         date,
	"deletedDates":  date,
	"datetime":      wallClock,
	"startDatetime": wallClock,
	"endDatetime":   wallClock,
	"timestamp":     wallClock,
	"nseSymbol":     symbol,
	"symbol":        symbol,
	"sessionOpen":   clockTime,
	"sessionClose":  clockTime,
	"id":            id,
	"runId":         id,
}

// The names the query parameters that the protos keep as strings accept
// (domain/market_enums.cc reads them in any case, '-' as '_'; the forms
// listed are the documented ones).
var (
	shortlistTypes = []any{"TOP_GAINERS", "VOLUME_SHOCKERS", "top-gainers", "volume-shockers"}
	scopes         = []any{"TOP_5", "FULL"}
	// domain/candles.cc
	intervals = []any{"1minute", "2minute", "3minute", "5minute", "10minute", "15minute", "30minute", "1hour", "4hour", "1day", "1week", "1month"}
	// service/auth/auth.cc ParseRole
	roles = []any{"developer", "admin"}
	// domain/db_scripts.cc
	dbScripts = []any{"analyze", "vacuum", "purge-before", "dedupe-check"}
)

// queryForms apply to query parameters by name.
var queryForms = map[string]stringForm{
	"type":     {enum: shortlistTypes},
	"scope":    {enum: scopes},
	"interval": {enum: intervals},
}

// propertyForms apply to one property of one component schema. A renamed
// field or message is reported (the build goes on without its form).
var propertyForms = map[string]map[string]stringForm{
	"CreateDeveloperRequest": {"role": {enum: roles}, "username": {pattern: usernamePattern}},
	"Developer":              {"role": {enum: roles}},
	"RunDbScriptRequest":     {"script": {enum: dbScripts}},
	"RunDbScriptResponse":    {"script": {enum: dbScripts}},
	"CandleSeries":           {"interval": {enum: intervals}},
}

// applyStringForms sets the formats, patterns and enums above.
func applyStringForms(doc *openapi3.T, ops []operation, warn func(string)) {
	for _, name := range sortedKeys(doc.Components.Schemas) {
		s := doc.Components.Schemas[name].Value
		for prop, ref := range s.Properties {
			if form, ok := formsByName[prop]; ok {
				form.apply(ref)
			}
		}
		for prop, form := range propertyForms[name] {
			ref, ok := s.Properties[prop]
			if !ok {
				warn(fmt.Sprintf("internal/openapigen/strings.go: schema %s has no property %q", name, prop))
				continue
			}
			form.apply(ref)
		}
	}
	for _, schema := range sortedKeys(propertyForms) {
		if _, ok := doc.Components.Schemas[schema]; !ok {
			warn("internal/openapigen/strings.go: no schema " + schema)
		}
	}
	for _, o := range ops {
		for _, p := range o.op.Parameters {
			if p.Value == nil || p.Value.In == openapi3.ParameterInHeader {
				continue
			}
			if form, ok := formsByName[p.Value.Name]; ok {
				form.apply(p.Value.Schema)
			}
			if form, ok := queryForms[p.Value.Name]; ok && p.Value.In == openapi3.ParameterInQuery {
				form.apply(p.Value.Schema)
			}
		}
	}
}

// apply sets f on the string schema ref, or on its items when it is an
// array of strings. References and other types are left alone.
func (f stringForm) apply(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Ref != "" || ref.Value == nil {
		return
	}
	s := ref.Value
	if s.Type.Is("array") {
		f.apply(s.Items)
		return
	}
	if !s.Type.Is("string") || s.Format != "" {
		return
	}
	s.Format = f.format
	if f.pattern != "" {
		s.Pattern = f.pattern
	}
	if f.enum != nil {
		s.Enum = f.enum
	}
}

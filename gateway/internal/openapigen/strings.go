package openapigen

import (
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// Forms of the strings the protos type as plain `string` (docs/api.md
// section 1 and 9; the server's parsers in domain/time.cc,
// domain/observations.cc, domain/calendar.cc).
const (
	// A wall-clock time in a request: no offset, no fraction. The server
	// takes instants from 1900-01-01T00:00:00Z to before 2200-01-01 (domain/
	// time.cc SupportedInstantAt); the pattern allows the wall clocks inside
	// that range in every zone (offsets up to 14 hours): 1900-01-02 to
	// 2199-12-30. The ranges of month, day, hour, minute and second are
	// checked here, and so are the days a month lacks (the server refuses
	// 04-31 and 02-30): day 31 only in the months that have it, 29 February
	// only in leap years (1900 and 2100 are none, 2000 is one).
	wallClockPattern = `^` + wallClockBody + `$`
	wallClockBody    = `((190[1-9]|19[1-9][0-9]|20[0-9]{2}|21[0-8][0-9]|219[0-8])-` + monthDay +
		`|1900-(01-(0[2-9]|[12][0-9]|3[01])|(0[2-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[3-9]|1[0-2])-(29|30)|(0[3578]|1[02])-31)` +
		`|2199-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|10)-31)` +
		`|(19(0[48]|[2468][048]|[13579][26])|20(0[048]|[2468][048]|[13579][26])|21(0[48]|[2468][048]|[13579][26]))-02-29)` +
		`T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]`
	// A date YYYY-MM-DD, years 0001-9999 (domain/time.cc ParseDate).
	dateBody = `((000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-` + monthDay +
		`|([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)-02-29)`
	// A date of a holiday to create: the calendar years 1900-2200
	// (domain/calendar.h kFirstCalendarYear, kLastCalendarYear).
	calendarDatePattern = `^((19[0-9]{2}|2[01][0-9]{2}|2200)-` + monthDay +
		`|(19(0[48]|[2468][048]|[13579][26])|20(0[048]|[2468][048]|[13579][26])|21(0[48]|[2468][048]|[13579][26]))-02-29)$`
	// A month and a day it has, 29 February aside.
	monthDay = `((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)`
	// An optional date query parameter: a date YYYY-MM-DD, or empty for
	// absent (format "date" cannot say "or empty").
	optionalDatePattern = `^(` + dateBody + `)?$`
	// The same or empty: a query parameter or header left empty is absent.
	optionalWallClockPattern = `^(` + wallClockBody + `)?$`
	// A time zone: a fixed offset +HH:MM / -HH:MM up to 14:00, or one of the
	// IANA names every tzdata has. The server takes any IANA name of its
	// tzdata in any case (domain/time.cc), which no schema can list; the
	// pattern names the common ones, so a value it allows is always accepted.
	// Empty is the same as absent: the default zone, Asia/Kolkata.
	timeZonePattern = `^([+-](0[0-9]|1[0-3]):[0-5][0-9]|[+-]14:00|` + timeZoneNames + `)?$`
	timeZoneNames   = `UTC|Etc/UTC|GMT|Asia/Kolkata|Asia/Calcutta|Asia/Dubai|Asia/Singapore|Asia/Hong_Kong|Asia/Shanghai|Asia/Tokyo|` +
		`Europe/London|Europe/Berlin|Europe/Paris|America/New_York|America/Chicago|America/Los_Angeles|Australia/Sydney`
	// A run tag as the server keeps it (docs/api.md section 9.4, "Tag
	// rules"); the server also trims surrounding blanks first.
	tagPattern = `^[A-Za-z0-9_-]{1,50}$`
	// The `tag` filter of the runs list: a tag, or empty for no filter.
	tagFilterPattern = `^([A-Za-z0-9_-]{1,50})?$`
	// Printable ASCII without blanks (broker credentials, with maxLength 4096).
	printablePattern = `^[!-~]+$`
	// An id: a positive whole number as a string of 1-18 digits (the server's
	// rule, domain/developers.cc and run ids).
	idPattern = `^[1-9][0-9]{0,17}$`
	// An NSE symbol: 1-32 of A-Z a-z 0-9 & . _ -.
	symbolPattern = `^[A-Za-z0-9&._-]{1,32}$`
	// A special session's open or close, HH:MM in Asia/Kolkata.
	// Empty for an ordinary holiday.
	clockTimePattern = `^(([01][0-9]|2[0-3]):[0-5][0-9])?$`
	// A username: 1-64 of A-Z a-z 0-9 _ . -.
	usernamePattern = `^[A-Za-z0-9_.-]{1,64}$`
	// An ISIN: 2 letters, 9 letters or digits, a check digit (the server
	// also checks the digit, domain/security_master.cc CheckIsin).
	isinPattern = `^[A-Z]{2}[A-Z0-9]{9}[0-9]$`
	// An instrument's symbol on a day, empty when it had none then.
	optionalSymbolPattern = `^([A-Za-z0-9&._-]{1,32})?$`
)

// stringForm is what is known about a string field or parameter.
type stringForm struct {
	format    string // "date": YYYY-MM-DD (RFC 3339 full-date)
	pattern   string
	enum      []any
	maxLength uint64 // characters; 0: none
}

var (
	date      = stringForm{format: "date"}
	wallClock = stringForm{pattern: wallClockPattern}
	symbol    = stringForm{pattern: symbolPattern}
	clockTime = stringForm{pattern: clockTimePattern}
	id        = stringForm{pattern: idPattern}
	timeZone  = stringForm{pattern: timeZonePattern}
)

// formsByName apply to every string property and query parameter of that
// JSON name, in requests and responses alike; for a repeated field, to its
// items. A Timestamp (already format date-time) is left alone, so response
// `timestamp`s stay instants while request `timestamp`s are wall clocks.
var formsByName = map[string]stringForm{
	"date":          date,
	"dates":         date,
	"startDate":     date,
	"endDate":       date,
	"tradingDay":    date,
	"through":       date,
	"missing":       symbol,
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
	"timezone":      timeZone,
	"isin":          {pattern: isinPattern},
	"exDate":        date,
	"validFrom":     date,
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
	// domain/adjustment.cc ParseAdjustment
	adjustments = []any{"raw", "split", "all"}
	// domain/corporate_actions.cc ActionKindName
	actionKinds = []any{"split", "bonus", "consolidation", "dividend", "rights"}
	// service/api/admin_imports.cc
	importKinds = []any{"equity_list", "symbol_changes", "corporate_actions"}
)

// queryForms apply to query parameters by name, after formsByName. An
// empty query parameter is absent to the server, so the wall-clock ones
// may be empty.
var queryForms = map[string]stringForm{
	"datetime":      {pattern: optionalWallClockPattern},
	"startDatetime": {pattern: optionalWallClockPattern},
	"endDatetime":   {pattern: optionalWallClockPattern},
	"type":          {enum: shortlistTypes},
	"scope":         {enum: scopes},
	"interval":      {enum: intervals},
	"tag":           {pattern: tagFilterPattern},
	"symbols":       symbol,
	"kinds":         {enum: []any{"quotes", "nifty", "shortlists"}},
	"adjustment":    {enum: adjustments},
	// service/api/developer_instruments.cc: a name's start, free text.
	"prefix": {pattern: noControlPattern, maxLength: 100},
	"kind":   {enum: importKinds[:2]},
}

// propertyForms apply to one property of one component schema. A renamed
// field or message is reported (the build goes on without its form).
var propertyForms = map[string]map[string]stringForm{
	"CreateDeveloperRequest": {"role": {enum: roles}, "username": {pattern: usernamePattern}},
	"Developer":              {"role": {enum: roles}},
	"RunDbScriptRequest":     {"script": {enum: dbScripts}},
	"RunDbScriptResponse":    {"script": {enum: dbScripts}},
	"CandleSeries":           {"interval": {enum: intervals}, "adjustment": {enum: adjustments[1:]}},
	"QuoteTimeline":          {"adjustment": {enum: adjustments[1:]}},
	"QuoteCrossSection":      {"adjustment": {enum: adjustments[1:]}},
	"ImportFileResponse":     {"kind": {enum: importKinds}},
	"CorporateActionInfo":    {"kind": {enum: actionKinds}},
	// domain/corporate_action_entry.cc ParseActionEntry: one of isin and
	// symbol, the other empty or absent.
	"CreateCorporateActionRequest": {
		"kind":        {enum: actionKinds},
		"description": {pattern: noControlPattern, maxLength: 200},
		"isin":        {pattern: `^(` + isinPattern[1:len(isinPattern)-1] + `)?$`},
		"symbol":      {pattern: optionalSymbolPattern},
	},
	"InstrumentInfo":   {"symbol": {pattern: optionalSymbolPattern}, "listingDate": {pattern: optionalDatePattern}},
	"InstrumentSymbol": {"validTo": {pattern: optionalDatePattern}},
	// Empty when no day has data (before the backtest clock): not a "date".
	"Coverage": {"date": {pattern: optionalDatePattern}},
}

// applyStringForms sets the formats, patterns and enums above.
func applyStringForms(doc *openapi3.T, ops []operation, warn func(string)) {
	for _, name := range sortedKeys(doc.Components.Schemas) {
		s := doc.Components.Schemas[name].Value
		for prop, ref := range s.Properties {
			if _, own := propertyForms[name][prop]; own {
				continue // the property's own form below
			}
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
			// An optional query parameter left empty is absent: a date or
			// a name of an enum may be empty too.
			if s := p.Value.Schema; p.Value.In == openapi3.ParameterInQuery && !p.Value.Required &&
				s != nil && s.Value != nil && s.Value.Type.Is("string") {
				if s.Value.Format == "date" {
					s.Value.Format = ""
					s.Value.Pattern = optionalDatePattern
				}
				if len(s.Value.Enum) > 0 && !slices.Contains(s.Value.Enum, any("")) {
					s.Value.Enum = append(slices.Clone(s.Value.Enum), "")
				}
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
	if f.maxLength > 0 {
		s.MaxLength = &f.maxLength
	}
}

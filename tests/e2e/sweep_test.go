package e2e

// The bad-input sweep (issue 12): every operation of the OpenAPI document the
// gateway serves, each of its path, query and header parameters and each
// string and number of its request body, sent with values no field accepts
// (bytes that are not UTF-8, dates and wall clocks in years 0001 and 9999,
// numbers near and past the double range, NaN, headers over the size
// limits), with a token of the role the route wants. Every answer must be
// the documented 400 (431 for a header too large) with the google.rpc.Status
// JSON body naming the field, and no transport or library text. The cases
// are derived from the document, so a new route or field is swept as soon as
// it exists.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// sweepCase is one request with one bad value.
type sweepCase struct {
	op    sweepOp
	what  string // where the bad value is, for failure messages
	field string // what the answer must name; "" for no field
	want  int    // the status it must get
	// lenient: the document's schema accepts the value (a date in year 1
	// where any date is documented), so any answer but a 5xx will do.
	lenient bool
	target  string // path and query
	token   string
	header  map[string]string
	body    []byte // nil: no body
}

// badValue is one bad value in its three spellings: in a URL (already
// escaped), in a header, and as a JSON literal.
type badValue struct {
	name    string
	url     string
	header  string
	literal string
}

var (
	invalidUTF8 = badValue{name: "invalid UTF-8", url: "a%FFb", header: "a\xffb", literal: "\"a\xffb\""}
	badDates    = []badValue{
		{name: "year 1", url: "0001-01-01", header: "0001-01-01", literal: `"0001-01-01"`},
		{name: "year 9999", url: "9999-12-31", header: "9999-12-31", literal: `"9999-12-31"`},
	}
	badWallClocks = []badValue{
		{name: "year 1", url: "0001-01-01T00:00:00", header: "0001-01-01T00:00:00", literal: `"0001-01-01T00:00:00"`},
		{name: "year 9999", url: "9999-12-31T23:59:59", header: "9999-12-31T23:59:59", literal: `"9999-12-31T23:59:59"`},
	}
	badNumbers = []badValue{
		{name: "1e306", url: "1e306", literal: "1e306"},
		{name: "-1e306", url: "-1e306", literal: "-1e306"},
		{name: "1e400 (past the double range)", url: "1e400", literal: "1e400"},
		{name: "NaN", url: "NaN", literal: `"NaN"`},
		{name: "-Infinity", url: "-Infinity", literal: `"-Infinity"`},
	}
)

// badValues are the values sent for a field of kind k.
func badValues(k valueKind) []badValue {
	switch k {
	case kindDate:
		return append([]badValue{invalidUTF8}, badDates...)
	case kindWallClock:
		return append([]badValue{invalidUTF8}, badWallClocks...)
	case kindNumber:
		return badNumbers
	}
	return []badValue{invalidUTF8}
}

// oversized is a header value over the gateway's 8 KiB field limit.
var oversized = strings.Repeat("x", 9<<10)

// Undocumented headers every request may carry, sent oversized too (each
// operation so gets cases even without parameters).
var commonHeaders = []string{"Authorization", "Cookie", "User-Agent"}

// leakedText is text of the transport or of a library that must never reach
// a client (lowercase).
var leakedText = []string{
	"grpc:", "rpc error", "marshal", "proto:", "protojson", "transport:",
	"sqlstate", "pq:", "libpq", "panic", "goroutine ", "runtime error",
}

// sweepFixture holds what the cases point at: the tokens and the ids that
// path parameters take.
type sweepFixture struct {
	admin, developer string
	pathValues       map[string]string
	deleteValues     map[string]string // for DELETE routes, before pathValues
}

func TestSweepEveryRouteWithBadValues(t *testing.T) {
	// A private stack: a value wrongly accepted must not leave data behind
	// for other tests.
	s := StartStack(t)
	doc := fetchOpenAPI(t, s)
	ops := doc.operations(t)
	// TestAccessMatrixCoversEveryRoute holds the document to the protos'
	// HTTP bindings, so no route escapes the sweep by missing from it.
	checkNumbersAreBounded(t, doc, ops)

	_, dev := s.NewDeveloper(t, "developer")
	// The developer the admin routes of /developers/{id} act on: not dev,
	// so a wrongly accepted refresh-key or delete changes nothing else.
	targetID, _ := s.NewDeveloper(t, "developer")
	newRun := func() string {
		run := s.Do(t, "POST", "/v1/dashboard/runs", dev, map[string]any{
			"name": "sweep", "startDatetime": "2025-02-03T09:15:00", "endDatetime": "2025-02-03T15:30:00",
		})
		expectStatus(t, run, 200)
		return fmt.Sprint(run.JSON["id"])
	}
	fx := sweepFixture{
		admin:      s.AdminToken(),
		developer:  dev,
		pathValues: map[string]string{"id": targetID, "runId": newRun(), "date": "2031-01-01"},
		// A wrongly accepted delete must not take the run the other routes
		// use away.
		deleteValues: map[string]string{"runId": newRun()},
	}

	var cases []sweepCase
	fields := 0
	for _, op := range ops {
		cases = append(cases, sweepCases(t, doc, op, fx)...)
		fields += len(op.params)
		if op.body != nil {
			fields += len(doc.leaves(op.body))
		}
	}
	// A document the sweep misreads would make it pass with nothing sent.
	if len(ops) < 40 || fields < 200 {
		t.Fatalf("read %d operations and %d parameters and body fields from /openapi.json; the API has more", len(ops), fields)
	}
	t.Logf("%d operations, %d parameters and body fields, %d requests", len(ops), fields, len(cases))

	problems := runSweep(s, cases)
	sort.Strings(problems)
	shown := 80
	if os.Getenv("MDC_SWEEP_SHOW_ALL") != "" {
		shown = len(problems)
	}
	for i, p := range problems {
		if i == shown {
			t.Errorf("... and %d more", len(problems)-shown)
			break
		}
		t.Error(p)
	}
}

// checkNumbersAreBounded fails t for a number a request takes without a
// documented minimum and maximum (int32 and int64 bound themselves): values
// near the double range made computed answers overflow to Infinity, so
// every number the server takes is bounded, and the sweep's numbers are
// outside every bound.
func checkNumbersAreBounded(t *testing.T, doc openAPIDoc, ops []sweepOp) {
	t.Helper()
	bounded := func(s map[string]any) bool {
		if f := s["format"]; f == "int32" || f == "int64" {
			return true
		}
		if _, enum := s["enum"]; enum {
			return true
		}
		_, min := s["minimum"].(float64)
		_, max := s["maximum"].(float64)
		if min && max {
			return true
		}
		// anyOf alternatives (year: 0, or 1900-2200) each bounded.
		alts := asSlice(s["anyOf"])
		for _, alt := range alts {
			a := asObject(alt)
			_, amin := a["minimum"].(float64)
			_, amax := a["maximum"].(float64)
			if _, enum := a["enum"]; !enum && !(amin && amax) {
				return false
			}
		}
		return len(alts) > 0
	}
	for _, op := range ops {
		for _, p := range op.params {
			if paramKind(p) == kindNumber && !bounded(p.schema) {
				t.Errorf("%s: %s parameter %s has no documented minimum and maximum", op, p.in, p.name)
			}
		}
		if op.body == nil {
			continue
		}
		for _, leaf := range doc.leaves(op.body) {
			if leaf.kind == kindNumber && !bounded(leaf.schema) {
				t.Errorf("%s: body field %s has no documented minimum and maximum", op, leaf.field())
			}
		}
	}
}

// sweepCases are the cases of one operation.
func sweepCases(t *testing.T, doc openAPIDoc, op sweepOp, fx sweepFixture) []sweepCase {
	t.Helper()
	token := fx.developer
	switch {
	case op.public:
		token = ""
	case op.admin:
		token = fx.admin
	}
	pathWith := func(name, value string) string {
		return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllStringFunc(op.template, func(m string) string {
			p := strings.Trim(m, "{}")
			if p == name {
				return value
			}
			v, ok := fx.deleteValues[p]
			if !ok || op.method != http.MethodDelete {
				v, ok = fx.pathValues[p]
			}
			if !ok {
				t.Fatalf("%s: no value for path parameter %s; add one to the sweep's fixture", op, m)
			}
			return v
		})
	}
	var baseBody []byte
	base := op.example
	if op.csvBody {
		baseBody = []byte(sweepCSVFile)
	}
	if op.body != nil {
		if base == nil {
			base = doc.sample(op.body, 0)
		}
		baseBody = mustMarshal(t, base)
	}
	// Required query parameters get valid values (the server may stop at
	// the first missing one); the one under test replaces its own.
	query := func(name, value string) string {
		var parts []string
		for _, p := range op.params {
			if p.in == "query" && p.required && p.name != name {
				parts = append(parts, p.name+"="+url.QueryEscape(validSample(t, p)))
			}
		}
		if name != "" {
			parts = append(parts, name+"="+value)
		}
		if len(parts) == 0 {
			return ""
		}
		return "?" + strings.Join(parts, "&")
	}
	newCase := func(what, field string, want int) sweepCase {
		return sweepCase{op: op, what: what, field: field, want: want,
			target: pathWith("", "") + query("", ""), token: token, body: baseBody}
	}

	var cases []sweepCase
	for _, p := range op.params {
		for _, v := range badValues(paramKind(p)) {
			c := newCase(fmt.Sprintf("%s %s = %s", p.in, p.name, v.name), p.name, http.StatusBadRequest)
			c.lenient = documentAccepts(p.schema, v)
			switch p.in {
			case "path":
				c.target = pathWith(p.name, v.url) + query("", "")
			case "query":
				c.target = pathWith("", "") + query(p.name, v.url)
			case "header":
				c.header = map[string]string{p.name: v.header}
			default:
				t.Fatalf("%s: parameter %s in %q", op, p.name, p.in)
			}
			cases = append(cases, c)
		}
		if p.in == "header" {
			c := newCase(fmt.Sprintf("header %s of 9 KiB", p.name), p.name, http.StatusRequestHeaderFieldsTooLarge)
			c.header = map[string]string{p.name: oversized}
			cases = append(cases, c)
		}
	}
	for _, name := range commonHeaders {
		c := newCase(fmt.Sprintf("header %s of 9 KiB", name), name, http.StatusRequestHeaderFieldsTooLarge)
		c.header = map[string]string{name: oversized}
		cases = append(cases, c)
	}
	// Each under the gateway's field limit, together over the server's
	// 8 KiB of metadata.
	c := newCase("headers Cookie and User-Agent of 6 KiB each", "", http.StatusRequestHeaderFieldsTooLarge)
	c.header = map[string]string{"Cookie": oversized[:6<<10], "User-Agent": oversized[:6<<10]}
	cases = append(cases, c)

	if op.csvBody {
		c = newCase("a file of one byte 0xFF", "csv", http.StatusBadRequest)
		c.body = []byte{0xff}
		cases = append(cases, c)
	}
	if op.body == nil {
		return cases
	}
	c = newCase("a body of one byte 0xFF", "", http.StatusBadRequest)
	c.body = []byte{0xff}
	cases = append(cases, c)
	const placeholder = "mdc-sweep-bad-value"
	for _, leaf := range doc.leaves(op.body) {
		withPlaceholder := mustMarshal(t, doc.withValue(op.body, base, leaf.path, placeholder))
		for _, v := range badValues(leaf.kind) {
			c := newCase(fmt.Sprintf("body %s = %s", leaf.field(), v.name), leaf.field(), http.StatusBadRequest)
			c.lenient = documentAccepts(leaf.schema, v)
			c.body = bytes.Replace(withPlaceholder, []byte(`"`+placeholder+`"`), []byte(v.literal), 1)
			cases = append(cases, c)
		}
	}
	return cases
}

// documentAccepts reports whether a string schema takes the value: a date
// or wall clock its pattern allows, or any date where only the format
// "date" is given (years 0001-9999). Text that is not UTF-8 and the bad
// numbers are never valid.
func documentAccepts(schema map[string]any, v badValue) bool {
	if v == invalidUTF8 || stringKind(schema) == kindText || schemaType(schema) != "string" {
		return false
	}
	if pattern, _ := schema["pattern"].(string); pattern != "" {
		return patternAccepts(pattern, v.header)
	}
	return schema["format"] == "date"
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runSweep sends the cases, a few at a time, and returns what was wrong
// with the answers.
func runSweep(s *Stack, cases []sweepCase) []string {
	return checkAll(cases, 4, func(c sweepCase) string { return sendSweepCase(s, c) })
}

// checkAll runs check on every item, workers at a time, and returns the
// problems it described (its non-empty answers).
func checkAll[T any](items []T, workers int, check func(T) string) []string {
	var (
		mu       sync.Mutex
		problems []string
		wg       sync.WaitGroup
	)
	next := make(chan T)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for item := range next {
				if p := check(item); p != "" {
					mu.Lock()
					problems = append(problems, p)
					mu.Unlock()
				}
			}
		}()
	}
	for _, item := range items {
		next <- item
	}
	close(next)
	wg.Wait()
	return problems
}

// exchange sends one request (body, when not nil, as JSON; the bearer
// token, when not empty) and reads the whole answer (at most 1 MiB).
func exchange(s *Stack, method, target, token string, body []byte, header map[string]string) (*http.Response, []byte, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.BaseURL()+target, reader)
	if err != nil {
		return nil, nil, fmt.Errorf("building the request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	return resp, data, nil
}

// leakIn is the library text an answer carries, "" when none.
func leakIn(data []byte) string {
	lower := strings.ToLower(string(data))
	for _, leak := range leakedText {
		if strings.Contains(lower, leak) {
			return leak
		}
	}
	return ""
}

// sweepCSVFile is the file a sweep of a file route sends: a header alone,
// which every import reads as a file of no rows.
const sweepCSVFile = "SYMBOL,NAME OF COMPANY,SERIES,DATE OF LISTING,PAID UP VALUE,MARKET LOT,ISIN NUMBER,FACE VALUE," +
	"SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM,PURPOSE,EX-DATE\n"

// sendSweepCase sends c and describes what is wrong with the answer, ""
// when nothing is.
func sendSweepCase(s *Stack, c sweepCase) string {
	header := c.header
	if c.op.csvBody {
		header = map[string]string{"Content-Type": "text/csv"}
		for k, v := range c.header {
			header[k] = v
		}
	}
	resp, data, err := exchange(s, c.op.method, c.target, c.token, c.body, header)
	if err != nil {
		return fmt.Sprintf("%s, %s: %v", c.op, c.what, err)
	}
	fail := func(format string, args ...any) string {
		return fmt.Sprintf("%s, %s: %s; got %d %s", c.op, c.what, fmt.Sprintf(format, args...), resp.StatusCode, truncate(data, 300))
	}
	if leak := leakIn(data); leak != "" {
		return fail("the answer carries library text %q", leak)
	}
	if c.lenient && resp.StatusCode < 400 {
		return ""
	}
	if c.lenient && resp.StatusCode >= 500 || !c.lenient && resp.StatusCode != c.want {
		return fail("want status %d", c.want)
	}
	var st struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
		Details []struct {
			FieldViolations []struct {
				Field string `json:"field"`
			} `json:"fieldViolations"`
		} `json:"details"`
	}
	if err := json.Unmarshal(data, &st); err != nil || st.Code == nil || *st.Code == 0 || st.Message == "" {
		return fail("the answer is not a google.rpc.Status JSON object")
	}
	if c.field == "" || c.lenient {
		return ""
	}
	// As expectFieldError: a 400 names the field in a BadRequest field
	// violation (query parameters may be named in snake_case); a 431 names
	// the header in its message.
	if c.want == http.StatusRequestHeaderFieldsTooLarge {
		if !containsFold(st.Message, c.field) {
			return fail("the message does not name %s", c.field)
		}
		return ""
	}
	for _, d := range st.Details {
		for _, v := range d.FieldViolations {
			if strings.HasPrefix(v.Field, c.field) || strings.HasPrefix(v.Field, snakeCase(c.field)) {
				return ""
			}
		}
	}
	return fail("no field violation names %s", c.field)
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// snakeCase is the snake_case spelling of a lowerCamelCase name
// (startDatetime → start_datetime), which error messages of query
// parameters may use.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

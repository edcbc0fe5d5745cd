package e2e

// The bad-input sweep's second mode (issue 20): many bad values in one
// request. Every list of every request body and every list query parameter
// of the served OpenAPI document is sent with 1, 100 and 1,000 bad items,
// and bodies are also filled to just under the body limit with them. Every
// answer must be a 4xx google.rpc.Status of bounded size: at most 100 field
// violations, a short message, and no library text. (Before, one violation
// per item travelled in the gRPC trailers, and a few hundred overflowed
// them and tore down the connection other callers shared.)

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// Bounds of an error answer, as the server makes them (domain/
// field_errors.h): 100 violations and a 1 KiB message; the gateway adds
// little around them.
const (
	maxAnswerViolations = 100
	maxAnswerMessage    = 1024
	maxAnswerBytes      = 16 << 10
)

// badListValue is the bad value each leaf of a list item gets: one no
// field of its kind accepts, in valid JSON, so that every item is decoded
// and checked.
func badListValue(kind valueKind) any {
	switch kind {
	case kindNumber:
		return 1e306
	case kindDate:
		return "2025-13-45"
	case kindWallClock:
		return "2025-13-45T25:61:61"
	}
	return "bad \u0007 value!"
}

// listCase is one request of the list sweep.
type listCase struct {
	op     sweepOp
	what   string
	target string
	token  string
	body   []byte
}

func TestSweepListsWithManyBadItems(t *testing.T) {
	s := StartStack(t)
	doc := fetchOpenAPI(t, s)
	ops := doc.operations(t)
	_, dev := s.NewDeveloper(t, "developer")
	targetID, _ := s.NewDeveloper(t, "developer")
	run := s.Do(t, "POST", "/v1/dashboard/runs", dev, map[string]any{
		"name": "sweep", "startDatetime": "2025-02-03T09:15:00", "endDatetime": "2025-02-03T15:30:00",
	})
	expectStatus(t, run, 200)
	fx := sweepFixture{admin: s.AdminToken(), developer: dev,
		pathValues: map[string]string{"id": targetID, "runId": fmt.Sprint(run.JSON["id"]), "date": "2031-01-01"}}

	var cases []listCase
	lists := 0
	for _, op := range ops {
		c, n := listCases(t, doc, op, fx)
		cases = append(cases, c...)
		lists += n
	}
	// The collector bodies, shortlist entries with quotes and depths, the
	// admin date lists, tags and the stream symbols at least.
	if lists < 10 {
		t.Fatalf("found %d lists in /openapi.json; the API has more", lists)
	}
	t.Logf("%d lists, %d requests", lists, len(cases))

	problems := checkAll(cases, 3, func(c listCase) string { return sendListCase(s, c) })
	sort.Strings(problems)
	for i, p := range problems {
		if i == 60 {
			t.Errorf("... and %d more", len(problems)-i)
			break
		}
		t.Error(p)
	}
	// The stack still serves.
	expectStatus(t, s.Do(t, "GET", "/v1/developer/holidays", dev, nil), 200)
}

// listCases are the requests of op's lists, and how many lists it has.
func listCases(t *testing.T, doc openAPIDoc, op sweepOp, fx sweepFixture) ([]listCase, int) {
	t.Helper()
	token := fx.developer
	switch {
	case op.public:
		token = ""
	case op.admin:
		token = fx.admin
	}
	path := op.template
	for name, v := range fx.pathValues {
		path = strings.ReplaceAll(path, "{"+name+"}", v)
	}
	var required []string
	for _, p := range op.params {
		if p.in == "query" && p.required && schemaType(doc.resolve(p.schema)) != "array" {
			required = append(required, p.name+"="+url.QueryEscape(validSample(t, p)))
		}
	}
	var cases []listCase
	lists := 0
	for _, p := range op.params {
		if p.in != "query" || schemaType(doc.resolve(p.schema)) != "array" {
			continue
		}
		lists++
		for _, n := range []int{1, 100, 1000, 5000} {
			q := append([]string(nil), required...)
			for range n {
				q = append(q, p.name+"="+url.QueryEscape("bad!value"))
			}
			cases = append(cases, listCase{op: op, token: token,
				what:   fmt.Sprintf("query %s with %d bad items", p.name, n),
				target: path + "?" + strings.Join(q, "&")})
		}
	}
	if op.body == nil {
		return cases, lists
	}
	target := path
	if len(required) > 0 {
		target += "?" + strings.Join(required, "&")
	}
	base := op.example
	if base == nil {
		base = doc.sample(op.body, 0)
	}
	leaves := doc.leaves(op.body)
	for _, list := range listPaths(leaves) {
		lists++
		// One item with every leaf under it bad (its own lists hold one
		// bad item each).
		itemPath := append(append([]any(nil), list...), 0)
		itemValue := valueAt(withAllLeaves(doc, op.body, base, leaves, itemPath), itemPath)
		for _, n := range []int{1, 100, 1000} {
			items := make([]any, n)
			for i := range items {
				items[i] = itemValue
			}
			body := doc.withValue(op.body, base, list, items)
			cases = append(cases, listCase{op: op, token: token, target: target,
				what: fmt.Sprintf("body %s with %d bad items", fieldName(list), n),
				body: mustMarshal(t, body)})
		}
		// As many as fit in a body just under the limit.
		one := mustMarshal(t, itemValue)
		n := (4<<20 - 4096) / (len(one) + 1)
		items := make([]any, n)
		for i := range items {
			items[i] = itemValue
		}
		body := mustMarshal(t, doc.withValue(op.body, base, list, items))
		for len(body) > 4<<20 {
			items = items[:len(items)*9/10]
			body = mustMarshal(t, doc.withValue(op.body, base, list, items))
		}
		cases = append(cases, listCase{op: op, token: token, target: target,
			what: fmt.Sprintf("body %s with %d bad items (%d bytes)", fieldName(list), len(items), len(body)),
			body: body})
	}
	return cases, lists
}

// listPaths are the paths of the lists that hold body leaves, outermost
// first: data.quotes, data.quotes[0].quoteData.payload.depth.buy, ...
func listPaths(leaves []bodyLeaf) [][]any {
	seen := map[string]bool{}
	var out [][]any
	for _, leaf := range leaves {
		for i, step := range leaf.path {
			if _, ok := step.(int); !ok {
				continue
			}
			list := append([]any(nil), leaf.path[:i]...)
			if key := fieldName(list); !seen[key] {
				seen[key] = true
				out = append(out, list)
			}
		}
	}
	return out
}

// withAllLeaves is body with every leaf under prefix set to its bad value.
func withAllLeaves(doc openAPIDoc, schema map[string]any, body any, leaves []bodyLeaf, prefix []any) any {
	for _, leaf := range leaves {
		if hasPrefix(leaf.path, prefix) {
			body = doc.withValue(schema, body, leaf.path, badListValue(leaf.kind))
		}
	}
	return body
}

// valueAt is the value at path inside v.
func valueAt(v any, path []any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = asObject(v)[s]
		case int:
			list := asSlice(v)
			if s >= len(list) {
				return nil
			}
			v = list[s]
		}
	}
	return v
}

func hasPrefix(path, prefix []any) bool {
	if len(path) < len(prefix) {
		return false
	}
	for i := range prefix {
		if path[i] != prefix[i] {
			return false
		}
	}
	return true
}

func fieldName(path []any) string {
	return bodyLeaf{path: path}.field()
}

// sendListCase sends c and describes what is wrong with the answer, ""
// when nothing is.
func sendListCase(s *Stack, c listCase) string {
	resp, data, err := exchange(s, c.op.method, c.target, c.token, c.body, nil)
	if err != nil {
		return fmt.Sprintf("%s, %s: %v", c.op, c.what, err)
	}
	fail := func(format string, args ...any) string {
		return fmt.Sprintf("%s, %s: %s; got %d %s", c.op, c.what, fmt.Sprintf(format, args...), resp.StatusCode, truncate(data, 200))
	}
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		return fail("want a 4xx")
	}
	if leak := leakIn(data); leak != "" {
		return fail("the answer carries library text %q", leak)
	}
	var st struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
		Details []struct {
			FieldViolations []json.RawMessage `json:"fieldViolations"`
		} `json:"details"`
	}
	if err := json.Unmarshal(data, &st); err != nil || st.Code == nil || st.Message == "" {
		return fail("the answer is not a google.rpc.Status JSON object")
	}
	violations := 0
	for _, d := range st.Details {
		violations += len(d.FieldViolations)
	}
	switch {
	case violations > maxAnswerViolations:
		return fail("%d field violations, want at most %d", violations, maxAnswerViolations)
	case len(st.Message) > maxAnswerMessage+64:
		return fail("a message of %d bytes", len(st.Message))
	case len(data) > maxAnswerBytes:
		return fail("an answer of %d bytes", len(data))
	}
	return ""
}

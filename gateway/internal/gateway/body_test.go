package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	"mdc/gateway/gen/mdcv1"
)

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestBodyLimit(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	const limit = DefaultMaxBodyBytes
	big := `{"data":{"entries":[]}}` + strings.Repeat(" ", 5<<20) // valid JSON, 5 MiB
	exact := `{"data":{"timestamp":"2025-01-01T10:00:00","entries":[]}}`
	exact += strings.Repeat(" ", limit-len(exact))

	tests := []struct {
		name          string
		body          string
		chunked       bool // no Content-Length
		wantStatus    int
		wantMaxRead   int // at most this many body bytes read before answering
		wantForwarded bool
	}{
		{"5 MiB with Content-Length", big, false, http.StatusRequestEntityTooLarge, 0, false},
		{"5 MiB chunked", big, true, http.StatusRequestEntityTooLarge, limit + 1, false},
		{"exactly 4 MiB with Content-Length", exact, false, http.StatusOK, limit, true},
		{"exactly 4 MiB chunked", exact, true, http.StatusOK, limit + 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.setError(nil)
			rec.reset()
			body := &countingReader{r: strings.NewReader(tt.body)}
			req := httptest.NewRequest("POST", "/v1/developer/collector/shortlists", body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer t")
			req.ContentLength = int64(len(tt.body))
			if tt.chunked {
				req.ContentLength = -1
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %.300s", w.Code, tt.wantStatus, w.Body.String())
			}
			if body.n > tt.wantMaxRead && tt.wantStatus != http.StatusOK {
				t.Errorf("read %d body bytes before refusing, want at most %d", body.n, tt.wantMaxRead)
			}
			method, _, _ := rec.last()
			if forwarded := method == "SaveShortlist"; forwarded != tt.wantForwarded {
				t.Errorf("forwarded = %v, want %v", forwarded, tt.wantForwarded)
			}
			if tt.wantStatus == http.StatusRequestEntityTooLarge {
				st := errorBody(t, w.Body.Bytes())
				if codes.Code(st.GetCode()) != codes.ResourceExhausted || st.GetMessage() == "" {
					t.Errorf("body = %s", w.Body.Bytes())
				}
			}
		})
	}
}

func TestBodyLimitOverHTTP(t *testing.T) {
	_, base := startGateway(t)
	big := strings.Repeat(" ", 5<<20)
	// No Content-Length: the client sends the body chunked.
	req, err := http.NewRequest("POST", base+"/v1/developer/collector/shortlists", io.MultiReader(strings.NewReader(big)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer t")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status = %d, want 413; body %s", resp.StatusCode, b)
	}
	if st := errorBody(t, b); codes.Code(st.GetCode()) != codes.ResourceExhausted {
		t.Errorf("body = %s", b)
	}
}

func TestRequiredRepeatedFields(t *testing.T) {
	rec, base := startGateway(t)
	const requiredMsg = "is required"
	tests := []struct {
		name      string
		path      string
		body      string
		wantField string // "" means the request is forwarded
	}{
		{"shortlist without entries", "/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS"}}`, "data.entries"},
		{"shortlist with null entries", "/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-01T10:00:00","entries":null}}`, "data.entries"},
		{"shortlist with an unknown field and without entries", "/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","sector":"IT"}}`, "data.entries"},
		{"quotes with entries but one without quoteData is the server's call", "/v1/developer/collector/quotes",
			`{"data":{"timestamp":"2025-01-01T10:00:00","quotes":[{"nseSymbol":"INFY"}]}}`, ""},
		{"shortlist with empty entries", "/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","entries":[]}}`, ""},
		{"shortlist with entries", "/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-01T10:00:00","entries":[{"nseSymbol":"INFY","price":1520.5}]}}`, ""},
		{"shortlist without data is the server's call", "/v1/developer/collector/shortlists", `{}`, ""},
		{"quotes without quotes", "/v1/developer/collector/quotes",
			`{"data":{"timestamp":"2025-01-01T10:00:00"}}`, "data.quotes"},
		{"quotes with empty quotes", "/v1/developer/collector/quotes",
			`{"data":{"timestamp":"2025-01-01T10:00:00","quotes":[]}}`, ""},
		{"nifty has no required list", "/v1/developer/collector/nifty",
			`{"data":{"timestamp":"2025-01-01T10:00:00","dayChangePerc":0.5}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.reset()
			resp := do(t, "POST", base+tt.path, tt.body, nil)
			method, _, _ := rec.last()
			if tt.wantField == "" {
				if resp.status != http.StatusOK || method == "" {
					t.Fatalf("status = %d (body %s), forwarded as %q; want 200 and forwarded", resp.status, resp.body, method)
				}
				return
			}
			if resp.status != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400; body %s", resp.status, resp.body)
			}
			if method != "" {
				t.Errorf("the request reached the server as %s", method)
			}
			st := errorBody(t, resp.body)
			if fv := fieldViolations(t, st); fv[tt.wantField] != requiredMsg {
				t.Errorf("field violations = %v, want %s: %s", fv, tt.wantField, requiredMsg)
			}
			if !strings.Contains(st.GetMessage(), tt.wantField) {
				t.Errorf("message %q does not name %s", st.GetMessage(), tt.wantField)
			}
		})
	}
}

func TestEmptyEntriesReachServer(t *testing.T) {
	rec, base := startGateway(t)
	resp := do(t, "POST", base+"/v1/developer/collector/shortlists",
		`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"VOLUME_SHOCKERS","scope":"FULL","entries":[]}}`, nil)
	if resp.status != http.StatusOK || string(resp.body) != "{}" {
		t.Fatalf("status %d body %s, want 200 {}", resp.status, resp.body)
	}
	_, req, _ := rec.last()
	got := req.(*mdcv1.SaveShortlistRequest).GetData()
	if got.GetShortlistType() != mdcv1.ShortlistType_VOLUME_SHOCKERS || got.GetScope() != mdcv1.Scope_FULL || len(got.GetEntries()) != 0 {
		t.Errorf("server got %v", got)
	}
}

func TestUnknownFieldsIgnored(t *testing.T) {
	rec, base := startGateway(t)
	body := `{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","newField":{"a":[1,2]},` +
		`"entries":[{"nseSymbol":"INFY","price":1520,"sector":"IT","quoteData":{"status":"SUCCESS",` +
		`"payload":{"last_price":1520,"brand_new_metric":7}}}]},"meta":true}`
	resp := do(t, "POST", base+"/v1/developer/collector/shortlists", body, nil)
	if resp.status != http.StatusOK {
		t.Fatalf("status = %d, body %s", resp.status, resp.body)
	}
	_, req, _ := rec.last()
	e := req.(*mdcv1.SaveShortlistRequest).GetData().GetEntries()
	if len(e) != 1 || e[0].GetNseSymbol() != "INFY" || e[0].GetQuoteData().GetPayload().GetLastPrice() != 1520 {
		t.Errorf("server got %v", req)
	}
}

func TestBadBodies(t *testing.T) {
	rec, base := startGateway(t)
	tests := []struct {
		name      string
		body      string
		wantField string // "" when no field can be named
		wantText  string // in the message
	}{
		{"price is a string", `{"data":{"timestamp":"2025-01-01T10:00:00","entries":[{"nseSymbol":"A","price":1},{"nseSymbol":"B","price":"abc"}]}}`,
			"data.entries[1].price", "invalid value for double field price"},
		{"timestamp is a number", `{"data":{"timestamp":20250101,"entries":[]}}`,
			"data.timestamp", "invalid value for string field timestamp"},
		{"entries is an object", `{"data":{"entries":{}}}`, "data.entries", "unexpected token"},
		{"unknown enum value", `{"data":{"shortlistType":"TOP_LOSERS","entries":[]}}`,
			"data.shortlistType", "TOP_GAINERS, VOLUME_SHOCKERS"},
		{"unknown enum value next to an unknown field", `{"data":{"future":1,"entries":[{"quoteData":{"status":"MAYBE"}}]}}`,
			"data.entries[0].quoteData.status", `unknown value "MAYBE"`},
		{"snake_case names", "{\n \"data\": {\n  \"shortlist_type\": \"TOP_GAINERS\",\n  \"entries\": [{\"nse_symbol\": 5}]}}",
			"data.entries[0].nse_symbol", "invalid value for string field nseSymbol"},
		{"truncated JSON", `{"data":{"entries":[`, "", "invalid request body"},
		{"not JSON", `hello`, "", "invalid request body"},
		{"trailing garbage", `{"data":{"entries":[]}} x`, "", "invalid request body"},
		{"array instead of object", `[1]`, "", "invalid request body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.reset()
			resp := do(t, "POST", base+"/v1/developer/collector/shortlists", tt.body, nil)
			if resp.status != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400; body %s", resp.status, resp.body)
			}
			if method, _, _ := rec.last(); method != "" {
				t.Errorf("the request reached the server")
			}
			st := errorBody(t, resp.body)
			if codes.Code(st.GetCode()) != codes.InvalidArgument {
				t.Errorf("code = %d", st.GetCode())
			}
			if !strings.Contains(st.GetMessage(), tt.wantText) {
				t.Errorf("message %q does not contain %q", st.GetMessage(), tt.wantText)
			}
			fv := fieldViolations(t, st)
			if tt.wantField == "" {
				if len(fv) != 0 {
					t.Errorf("field violations = %v, want none", fv)
				}
				return
			}
			if d, ok := fv[tt.wantField]; !ok || !strings.Contains(d, tt.wantText) {
				t.Errorf("field violations = %v, want %s with %q", fv, tt.wantField, tt.wantText)
			}
			if !strings.HasPrefix(st.GetMessage(), tt.wantField+": ") {
				t.Errorf("message %q does not start with the field", st.GetMessage())
			}
		})
	}
}

func TestEmptyBodyIsEmptyMessage(t *testing.T) {
	rec, base := startGateway(t)
	resp := do(t, "POST", base+"/v1/developer/collector/nifty", "", nil)
	if resp.status != http.StatusOK {
		t.Fatalf("status = %d, body %s", resp.status, resp.body)
	}
	if method, req, _ := rec.last(); method != "SaveNifty" || req.(*mdcv1.SaveNiftyRequest).GetData() != nil {
		t.Errorf("server got %s %v, want SaveNifty with an empty request", method, req)
	}
}

// Numbers sent as JSON strings are refused naming the field, on the
// collector bodies and elsewhere, though protojson would read them; the
// 64-bit integers keep protojson's reading (numbers or strings).
func TestNumbersMustBeJSONNumbers(t *testing.T) {
	rec, addr := startFakeServer(t)
	h := newTestHandler(t, addr)
	tests := []struct {
		path, body, field string
	}{
		{"/v1/developer/collector/shortlists",
			`{"data":{"timestamp":"2025-01-02T09:15:00","shortlistType":"TOP_GAINERS","entries":[{"nseSymbol":"A","price":"12.5"}]}}`,
			"data.entries[0].price"},
		{"/v1/developer/collector/quotes",
			`{"data":{"timestamp":"2025-01-02T09:15:00","quotes":[{"nseSymbol":"A","quoteData":{"status":"SUCCESS","payload":{"last_price":"12.5"}}}]}}`,
			"data.quotes[0].quoteData.payload.last_price"},
		{"/v1/developer/collector/nifty",
			`{"data":{"timestamp":"2025-01-02T09:15:00","quoteData":{"status":"SUCCESS","payload":{"last_price":1,"depth":{"buy":[{"price":1,"quantity":"NaN"}]}}},"dayChangePerc":1}}`,
			"data.quoteData.payload.depth.buy[0].quantity"},
		{"/v1/developer/collector/nifty",
			`{"data":{"timestamp":"2025-01-02T09:15:00","quoteData":{"status":"SUCCESS","payload":{"last_price":1}},"dayChangePerc":"-0.5"}}`,
			"data.dayChangePerc"},
	}
	for _, tt := range tests {
		rec.reset()
		w := post(h, tt.path, "Bearer t", strings.NewReader(tt.body))
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %s", tt.field, w.Code, w.Body.String())
			continue
		}
		if !strings.Contains(w.Body.String(), `"field":"`+tt.field+`"`) || !strings.Contains(w.Body.String(), "must be a JSON number") {
			t.Errorf("%s: body %s", tt.field, w.Body.String())
		}
		if m, _, _ := rec.last(); m != "" {
			t.Errorf("%s: forwarded as %s", tt.field, m)
		}
	}
	// The same bodies with numbers are forwarded.
	w := post(h, "/v1/developer/collector/shortlists", "Bearer t", strings.NewReader(
		`{"data":{"timestamp":"2025-01-02T09:15:00","shortlistType":"TOP_GAINERS","entries":[{"nseSymbol":"A","price":12.5,"name":"x"}]}}`))
	if w.Code != http.StatusOK {
		t.Errorf("numbers as numbers: %d %s", w.Code, w.Body.String())
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Response is what the gateway answered.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// JSON is the body decoded as a JSON object, numbers as json.Number so
	// they compare exactly; nil when the body is not a JSON object.
	JSON map[string]any
}

// Text is the raw body as a string.
func (r *Response) Text() string { return string(r.Body) }

// Do sends method path (e.g. "/v1/developer/lists?type=TOP_GAINERS") to the
// gateway. token, when not empty, goes in "Authorization: Bearer <token>".
// body is nil (no body), a string or []byte (sent as is) or any other value
// (marshalled to JSON); a body is sent as application/json. headers are
// added last and override the ones above. A transport error fails t.
func (s *Stack) Do(t *testing.T, method, path, token string, body any, headers ...map[string]string) *Response {
	t.Helper()
	var reader io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		reader = strings.NewReader(b)
	case []byte:
		reader = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("%s %s: marshalling the body: %v", method, path, err)
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.BaseURL()+path, reader)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if reader != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, h := range headers {
		for k, v := range h {
			req.Header.Set(k, v)
		}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the response: %v", method, path, err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var obj map[string]any
	if dec.Decode(&obj) == nil && !dec.More() {
		r.JSON = obj
	}
	return r
}

// DoWithAuthorization is Do with the Authorization header exactly as given,
// e.g. "Basic x" or "Bearer" alone; "" sends no Authorization header at all.
// For the tests of malformed and refused credentials; headers are added.
func (s *Stack) DoWithAuthorization(t *testing.T, method, path, authorization string, body any, headers ...map[string]string) *Response {
	t.Helper()
	h := map[string]string{}
	for _, m := range headers {
		for k, v := range m {
			h[k] = v
		}
	}
	if authorization != "" {
		h["Authorization"] = authorization
	}
	return s.Do(t, method, path, "", body, h)
}

// String describes the response for failure messages.
func (r *Response) String() string {
	return fmt.Sprintf("HTTP %d %s", r.Status, r.Body)
}

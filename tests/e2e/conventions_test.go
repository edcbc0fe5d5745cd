package e2e

// API-wide conventions (API.md section 1) that no single area owns.

import (
	"strings"
	"testing"
)

func TestUnparsableQueryParametersAreNamedWithoutInternalWording(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	cases := []struct{ path, field string }{
		{"/v1/developer/holidays?year=abc", "year"},
		{"/v1/developer/holidays?year=99999999999", "year"},
		{"/v1/developer/quote-timeline?symbol=TCS&pageSize=ten", "pageSize"},
		{"/v1/developer/quote-timeline?symbol=TCS&page_size=ten", "pageSize"},
		{"/v1/dashboard/daily-persistent-companies?date=2025-01-02&type=TOP_GAINERS&minPercentage=most", "minPercentage"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := s.Do(t, "GET", c.path, token, nil)
			expectFieldError(t, r, 400, c.field)
			if strings.Contains(r.Text(), "strconv") || strings.Contains(r.Text(), "parsing field") {
				t.Fatalf("internal wording reaches the client: %s", r.Text())
			}
		})
	}
}

func TestOtherApiVersionsAreNotFound(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	expectStatus(t, s.Do(t, "GET", "/v2/developer/lists?type=TOP_GAINERS", token, nil), 404)
	expectStatus(t, s.Do(t, "GET", "/v1/health", "", nil), 200)
	expectStatus(t, s.Do(t, "GET", "/health", "", nil), 200)
}

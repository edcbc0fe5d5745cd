package codec

import (
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
)

func TestQueryErrorStatusNamesTheParameterWithoutGoWording(t *testing.T) {
	cases := []struct{ msg, field, description string }{
		{`parsing field "year": strconv.ParseInt: parsing "abc": invalid syntax`, "year", "must be a whole number"},
		{`parsing field "page_size": strconv.ParseInt: parsing "9999999999": value out of range`, "pageSize", "is out of range"},
		{`parsing field "min_percentage": strconv.ParseFloat: parsing "x": invalid syntax`, "minPercentage", "must be a number"},
		{`parsing field "take_profit_percentage": strconv.ParseFloat: parsing "": invalid syntax`, "takeProfitPercentage", "must be a number"},
		{`parsing field "completed": strconv.ParseBool: parsing "yes": invalid syntax`, "completed", "must be true or false"},
	}
	for _, c := range cases {
		st, ok := QueryErrorStatus(c.msg)
		if !ok {
			t.Fatalf("%q not recognised", c.msg)
		}
		if want := c.field + ": " + c.description; st.Message() != want {
			t.Errorf("message %q, want %q", st.Message(), want)
		}
		details := st.Details()
		if len(details) != 1 {
			t.Fatalf("details %v", details)
		}
		v := details[0].(*errdetails.BadRequest).FieldViolations[0]
		if v.Field != c.field || v.Description != c.description {
			t.Errorf("violation %v", v)
		}
	}
	if _, ok := QueryErrorStatus("data.timestamp: is required"); ok {
		t.Error("a server message must pass unchanged")
	}
}

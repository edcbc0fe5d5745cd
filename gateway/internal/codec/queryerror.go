package codec

import (
	"regexp"
	"strings"

	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
)

// grpc-gateway reports a query parameter it cannot parse as
// `parsing field "page_size": strconv.ParseInt: parsing "abc": invalid syntax`:
// Go's internal wording, naming the proto field. QueryErrorStatus rewrites it
// for the caller, naming the parameter by its JSON name with a
// google.rpc.BadRequest field violation.
var queryParseError = regexp.MustCompile(`^parsing field "([^"]+)": (.*)$`)

func QueryErrorStatus(msg string) (*status.Status, bool) {
	m := queryParseError.FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	return apierror.ViolationsStatus([]apierror.Violation{{Field: jsonFieldPath(m[1]), Description: parseProblem(m[2])}}), true
}

// parseProblem says in the caller's terms what kind of value was expected.
func parseProblem(cause string) string {
	switch {
	case strings.Contains(cause, "value out of range"):
		return "is out of range"
	case strings.Contains(cause, "ParseInt"), strings.Contains(cause, "ParseUint"):
		return "must be a whole number"
	case strings.Contains(cause, "ParseFloat"):
		return "must be a number"
	case strings.Contains(cause, "ParseBool"):
		return "must be true or false"
	}
	return "has a value that cannot be read"
}

// jsonFieldPath turns a dotted proto field path (min_percentage) into the
// lowerCamelCase JSON path clients write (minPercentage).
func jsonFieldPath(protoPath string) string {
	parts := strings.Split(protoPath, ".")
	for i, p := range parts {
		words := strings.Split(p, "_")
		for j := 1; j < len(words); j++ {
			if words[j] != "" {
				words[j] = strings.ToUpper(words[j][:1]) + words[j][1:]
			}
		}
		parts[i] = strings.Join(words, "")
	}
	return strings.Join(parts, ".")
}

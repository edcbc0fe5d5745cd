// Package jsonnum writes a float64 as JSON writes it, for the gateway's
// hand-written JSON (the access log line, the export's depth column).
package jsonnum

import (
	"math"
	"strconv"
)

// Append appends f as encoding/json and protojson write a double (the rule
// of ECMAScript's Number.prototype.toString): plain decimals from 1e-6 up
// to 1e21, an exponent outside, a negative one-digit exponent unpadded
// (e-7, not e-07). NaN and the infinities, which JSON has no number for,
// are protojson's strings "NaN", "Infinity" and "-Infinity".
func Append(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	if abs := math.Abs(f); abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

package jsonnum

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// Every finite double is written as encoding/json writes it.
func TestAppendIsEncodingJSONsNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, -1e21,
		1.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1 + 0.2}
	for range 5000 {
		values = append(values, (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(60)-30)))
	}
	for _, f := range values {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Append(nil, f); string(got) != string(want) {
			t.Errorf("%v: %s, encoding/json writes %s", f, got, want)
		}
	}
}

func TestValuesWithoutAJSONNumberAreProtojsonsStrings(t *testing.T) {
	for f, want := range map[float64]string{math.NaN(): `"NaN"`, math.Inf(1): `"Infinity"`, math.Inf(-1): `"-Infinity"`} {
		if got := string(Append(nil, f)); got != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
	}
}

package codec

import "testing"

func TestJSONPathAt(t *testing.T) {
	tests := []struct {
		name string
		data string
		at   string // the path of the first occurrence of this text
		want string
	}{
		{"top-level key", `{"data":1}`, `1`, "data"},
		{"nested value", `{"data":{"entries":[{"price":1},{"price":"abc"}]}}`, `"abc"`, "data.entries[1].price"},
		{"object value", `{"data":{"entries":{}}}`, `{}`, "data.entries"},
		{"key", `{"data":{"a":1,"dup":2}}`, `"dup"`, "data.dup"},
		{"after an array", `{"a":[1,[2,3]],"b":"x"}`, `"x"`, "b"},
		{"nested arrays", `{"a":[1,[2,"y"]]}`, `"y"`, "a[1][1]"},
		{"root", `  {"a":1}`, `{`, ""},
		{"syntax error inside a member", `{"data":{"timestamp":}}`, `}`, "data.timestamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := indexOf(tt.data, tt.at)
			if got := jsonPathAt([]byte(tt.data), off); got != tt.want {
				t.Errorf("jsonPathAt(%s, %d) = %q, want %q", tt.data, off, got, tt.want)
			}
		})
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestOffsetOf(t *testing.T) {
	data := []byte("{\n  \"é\": \"x\"\n}")
	// Line 2, column 8 is the opening quote of "x" (é is one rune, two bytes).
	if got := offsetOf(data, 2, 8); data[got] != '"' || string(data[got:got+3]) != `"x"` {
		t.Errorf("offsetOf = %d (%q)", got, data[got:])
	}
}

package transport

import (
	"strings"
	"testing"
)

func TestBearerProblem(t *testing.T) {
	tests := []struct {
		header string
		want   string
	}{
		{"", MissingAuthMessage},
		{"t0ken", MalformedAuthMessage},
		{"Basic dXNlcjpwYXNz", MalformedAuthMessage},
		{"Bearer", MalformedAuthMessage},
		{"Bearer ", MalformedAuthMessage},
		{"Bearertoken", MalformedAuthMessage},
		{"Bearer   ", BadTokenMessage},
		{"Bearer " + strings.Repeat("t", 513), BadTokenMessage},
		{"Bearer " + strings.Repeat("t", 512), ""},
		{"Bearer t", ""},
		{"bearer t", ""},
		{"BEARER  t ", ""},
	}
	for _, tt := range tests {
		if got := bearerProblem(tt.header); got != tt.want {
			t.Errorf("bearerProblem(%.40q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

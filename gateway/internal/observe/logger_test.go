package observe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"testing"
)

// utcTime is the time of log lines (the form mdc-server writes too).
var utcTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func TestNewLoggerLevels(t *testing.T) {
	for name, level := range levelNames {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			NewLogger(&buf, slog.LevelDebug).Log(t.Context(), level, "m")
			var l map[string]any
			if err := json.Unmarshal(buf.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if l["level"] != name || l["msg"] != "m" || !utcTime.MatchString(fmt.Sprint(l["time"])) {
				t.Errorf("line = %v", l)
			}
		})
	}
}

package observe

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// NewLogger writes JSON lines to w at level and above, with the keys
// shared with mdc-server: time (RFC 3339 in UTC, milliseconds), level
// (debug, info, warn, error), msg, then the attributes of the message.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	out := &lineWriter{w: w}
	return slog.New(&jsonHandler{out: out, Handler: slog.NewJSONHandler(out, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) > 0 {
				return a
			}
			switch a.Key {
			case slog.LevelKey:
				if l, ok := a.Value.Any().(slog.Level); ok {
					return slog.String(slog.LevelKey, levelName(l))
				}
			case slog.TimeKey:
				if a.Value.Kind() == slog.KindTime {
					return slog.String(slog.TimeKey, a.Value.Time().UTC().Format(timeLayout))
				}
			}
			return a
		},
	})})
}

// timeLayout is the format of the time of a log line.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// levelNames are the values of MDC_LOG_LEVEL, which are also the level
// values of log lines.
var levelNames = map[string]slog.Level{
	"debug": slog.LevelDebug,
	"info":  slog.LevelInfo,
	"warn":  slog.LevelWarn,
	"error": slog.LevelError,
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warn"
	default:
		return "error"
	}
}

// ParseLogLevel reads a MDC_LOG_LEVEL value (case-insensitive).
func ParseLogLevel(s string) (slog.Level, error) {
	if l, ok := levelNames[strings.ToLower(strings.TrimSpace(s))]; ok {
		return l, nil
	}
	return 0, fmt.Errorf("invalid log level %q: want debug, info, warn or error", s)
}

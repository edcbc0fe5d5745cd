package gateway

import (
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"mdc/gateway/internal/upstream"
)

func TestParseOptions(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    Options
		wantErr bool
	}{
		{"defaults", nil, nil,
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second}, false},
		{"environment", nil, map[string]string{"MDC_HTTP_ADDR": ":9000", "MDC_GRPC_ADDR": "db:1", "MDC_MAX_BODY_BYTES": "1024"},
			Options{HTTPAddr: ":9000", GRPCAddr: "db:1", MaxBodyBytes: 1024, CallTimeout: 30 * time.Second}, false},
		{"flags win", []string{"--http-addr", ":1", "--grpc-addr=x:2", "--max-body-bytes=10", "--call-timeout=2s"},
			map[string]string{"MDC_HTTP_ADDR": ":9000", "MDC_GRPC_ADDR": "db:1"},
			Options{HTTPAddr: ":1", GRPCAddr: "x:2", MaxBodyBytes: 10, CallTimeout: 2 * time.Second}, false},
		{"bad size", []string{"--max-body-bytes=0"}, nil, Options{}, true},
		{"bad environment", nil, map[string]string{"MDC_MAX_BODY_BYTES": "lots"}, Options{}, true},
		{"stray argument", []string{"serve"}, nil, Options{}, true},
		{"cors origins", nil, map[string]string{"MDC_CORS_ORIGINS": " https://a.example.com, HTTP://Localhost:5173/ ,"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second,
				CORSOrigins: []string{"https://a.example.com", "http://localhost:5173"}}, false},
		{"cors flag wins", []string{"--cors-origins="}, map[string]string{"MDC_CORS_ORIGINS": "https://a.example.com"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second}, false},
		{"cors origin with a path", nil, map[string]string{"MDC_CORS_ORIGINS": "https://a.example.com/app"}, Options{}, true},
		{"cors origin without a scheme", nil, map[string]string{"MDC_CORS_ORIGINS": "a.example.com"}, Options{}, true},
		{"cors wildcard", nil, map[string]string{"MDC_CORS_ORIGINS": "*"}, Options{}, true},
		{"log level from the environment", nil, map[string]string{"MDC_LOG_LEVEL": "DEBUG"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, LogLevel: slog.LevelDebug}, false},
		{"log level flag wins", []string{"--log-level=error"}, map[string]string{"MDC_LOG_LEVEL": "debug"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, LogLevel: slog.LevelError}, false},
		{"log level warn", nil, map[string]string{"MDC_LOG_LEVEL": "warn"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, LogLevel: slog.LevelWarn}, false},
		{"invalid log level", nil, map[string]string{"MDC_LOG_LEVEL": "verbose"}, Options{}, true},
		{"access log off", nil, map[string]string{"MDC_ACCESS_LOG": "off"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, NoAccessLog: true}, false},
		{"access log flag wins", []string{"--access-log=on"}, map[string]string{"MDC_ACCESS_LOG": "off"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second}, false},
		{"invalid access log", nil, map[string]string{"MDC_ACCESS_LOG": "sometimes"}, Options{}, true},
		{"body budget from the environment", nil, map[string]string{"MDC_MAX_BODY_BYTES_IN_FLIGHT": "1048576"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, MaxBodyBytesInFlight: 1 << 20, CallTimeout: 30 * time.Second}, false},
		{"body budget flag wins", []string{"--max-body-bytes-in-flight=2048"}, map[string]string{"MDC_MAX_BODY_BYTES_IN_FLIGHT": "1048576"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, MaxBodyBytesInFlight: 2048, CallTimeout: 30 * time.Second}, false},
		{"bad body budget", []string{"--max-body-bytes-in-flight=0"}, nil, Options{}, true},
		{"bad body budget environment", nil, map[string]string{"MDC_MAX_BODY_BYTES_IN_FLIGHT": "64M"}, Options{}, true},
		{"streams per connection from the environment", nil, map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "8"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, StreamsPerConnection: 8}, false},
		{"streams per connection flag wins", []string{"--streams-per-connection=511"}, map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "8"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, StreamsPerConnection: 511}, false},
		{"export write timeout from the environment", nil, map[string]string{"MDC_EXPORT_WRITE_TIMEOUT": "5s"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, ExportWriteTimeout: 5 * time.Second}, false},
		{"no export write timeout", []string{"--export-write-timeout=0s"}, nil, Options{}, true},
		{"import limit from the environment", nil, map[string]string{"MDC_IMPORT_MAX_BYTES": "1048576"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, ImportMaxBytes: 1 << 20}, false},
		{"import limit flag wins", []string{"--import-max-bytes=2048"}, map[string]string{"MDC_IMPORT_MAX_BYTES": "1048576"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, ImportMaxBytes: 2048}, false},
		{"no import limit", []string{"--import-max-bytes=0"}, nil, Options{}, true},
		{"import limit not a number", nil, map[string]string{"MDC_IMPORT_MAX_BYTES": "big"}, Options{}, true},
		{"no streams per connection", []string{"--streams-per-connection=0"}, nil, Options{}, true},
		{"too many streams per connection", nil, map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "512"}, Options{}, true},
		{"streams per connection not a number", nil, map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "many"}, Options{}, true},
		{"heavy reads from the environment", nil, map[string]string{"MDC_GATEWAY_HEAVY_READS": "4"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, HeavyReads: 4}, false},
		{"heavy reads flag wins, 0 is no limit", []string{"--heavy-reads=0"}, map[string]string{"MDC_GATEWAY_HEAVY_READS": "4"},
			Options{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:50051", MaxBodyBytes: 4 << 20, CallTimeout: 30 * time.Second, HeavyReads: -1}, false},
		{"too many heavy reads", []string{"--heavy-reads=1025"}, nil, Options{}, true},
		{"negative heavy reads", nil, map[string]string{"MDC_GATEWAY_HEAVY_READS": "-1"}, Options{}, true},
		{"heavy reads not a number", nil, map[string]string{"MDC_GATEWAY_HEAVY_READS": "few"}, Options{}, true},
	}
	for _, tt := range tests {
		if tt.want.ExportWriteTimeout == 0 && !tt.wantErr {
			tt.want.ExportWriteTimeout = DefaultExportWriteTimeout
		}
		if tt.want.ImportMaxBytes == 0 {
			tt.want.ImportMaxBytes = DefaultImportMaxBytes
		}
		if tt.want.MaxBodyBytesInFlight == 0 {
			tt.want.MaxBodyBytesInFlight = DefaultMaxBodyBytesInFlight
		}
		if tt.want.StreamsPerConnection == 0 {
			tt.want.StreamsPerConnection = upstream.DefaultStreamsPerConnection
		}
		if tt.want.HeavyReads == 0 {
			tt.want.HeavyReads = DefaultHeavyReads
		}
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseOptions(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseOptionsErrors(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"invalid log level names the setting and the choices", nil, map[string]string{"MDC_LOG_LEVEL": "loud"}, "MDC_LOG_LEVEL"},
		{"invalid log level lists the levels", []string{"--log-level=trace"}, nil, "debug, info, warn or error"},
		{"invalid access log", nil, map[string]string{"MDC_ACCESS_LOG": "maybe"}, "want on or off"},
		{"streams per connection out of range names the setting and the range", nil,
			map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "1000"}, "MDC_GATEWAY_STREAMS_PER_CONNECTION) must be from 1 to 511"},
		{"streams per connection not a number names the setting", nil,
			map[string]string{"MDC_GATEWAY_STREAMS_PER_CONNECTION": "x"}, "MDC_GATEWAY_STREAMS_PER_CONNECTION: want a whole number"},
		{"heavy reads out of range names the setting and the range", nil,
			map[string]string{"MDC_GATEWAY_HEAVY_READS": "2000"}, "MDC_GATEWAY_HEAVY_READS) must be from 0 to 1024"},
		{"heavy reads not a number names the setting", nil,
			map[string]string{"MDC_GATEWAY_HEAVY_READS": "x"}, "MDC_GATEWAY_HEAVY_READS: want a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseOptions(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to mention %q", err, tt.wantErr)
			}
		})
	}
	if _, err := ParseOptions([]string{"--version"}, func(string) string { return "" }, io.Discard); !errors.Is(err, ErrVersion) {
		t.Errorf("--version: err = %v, want ErrVersion", err)
	}
}

// A bad list stops the gateway at start with the setting's name; a good one
// is kept as given.
func TestParseOptionsServerList(t *testing.T) {
	getenv := func(v string) func(string) string {
		return func(name string) string {
			if name == "MDC_GRPC_ADDR" {
				return v
			}
			return ""
		}
	}
	o, err := ParseOptions(nil, getenv("10.0.0.1:50051,10.0.0.2:50051"), io.Discard)
	if err != nil || o.GRPCAddr != "10.0.0.1:50051,10.0.0.2:50051" {
		t.Fatalf("GRPCAddr = %q, %v", o.GRPCAddr, err)
	}
	_, err = ParseOptions(nil, getenv("10.0.0.1:50051,10.0.0.2"), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "MDC_GRPC_ADDR") || !strings.Contains(err.Error(), `entry 2 "10.0.0.2"`) {
		t.Errorf("bad list: error = %v", err)
	}
	_, err = ParseOptions([]string{"--grpc-addr", "a:1,a:1"}, getenv(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--grpc-addr") {
		t.Errorf("bad --grpc-addr: error = %v", err)
	}
}

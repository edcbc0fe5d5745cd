package upstream

import (
	"slices"
	"strings"
	"testing"
)

func TestParseServerAddrs(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  []string
	}{
		{"127.0.0.1:50051", []string{"127.0.0.1:50051"}},
		{" mdc-server:50051 ", []string{"mdc-server:50051"}},
		// One value is a gRPC target as it stands: gRPC's DNS resolver
		// turns a name into every address it has.
		{"dns:///mdc-server:50051", []string{"dns:///mdc-server:50051"}},
		{"127.0.0.1:50051,127.0.0.1:50052", []string{"127.0.0.1:50051", "127.0.0.1:50052"}},
		{"a.example:1, b.example:65535 ,[::1]:50051", []string{"a.example:1", "b.example:65535", "[::1]:50051"}},
	} {
		got, err := ParseServerAddrs(tc.value)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseServerAddrs(%q) = %q, %v; want %q", tc.value, got, err, tc.want)
		}
	}
}

func TestParseServerAddrsRefusesBadLists(t *testing.T) {
	for _, tc := range []struct{ value, wantErr string }{
		{"", "no server address"},
		{"  ", "no server address"},
		{"127.0.0.1:50051,", `entry 2 "" of the list: empty`},
		{",127.0.0.1:50051", `entry 1 "" of the list: empty`},
		{"a:1,,b:2", `entry 2 "" of the list: empty`},
		{"a:1,b", `entry 2 "b" of the list: want host:port`},
		{"a:1,:2", `entry 2 ":2" of the list: no host`},
		{"a:1,b:0", `entry 2 "b:0" of the list: port "0": want a number from 1 to 65535`},
		{"a:1,b:65536", `port "65536"`},
		{"a:1,b:http", `port "http"`},
		{"a:1,a:1", `entry 2 "a:1" of the list: the address is listed twice`},
		{"dns:///a:1,b:2", "not gRPC targets"},
		{"a:1,::1:2", `entry 2 "::1:2" of the list: want host:port`},
	} {
		_, err := ParseServerAddrs(tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseServerAddrs(%q) error = %v; want one containing %q", tc.value, err, tc.wantErr)
		}
	}
}

func TestServerTarget(t *testing.T) {
	target, opts, err := serverTarget("127.0.0.1:50051")
	if err != nil || target != "127.0.0.1:50051" || len(opts) != 0 {
		t.Errorf("one address: %q, %d options, %v", target, len(opts), err)
	}
	target, opts, err = serverTarget("127.0.0.1:50051,127.0.0.1:50052")
	if err != nil || target != listScheme+":///servers" || len(opts) != 1 {
		t.Errorf("a list: %q, %d options, %v", target, len(opts), err)
	}
	if _, _, err := serverTarget("a:1,"); err == nil || !strings.HasPrefix(err.Error(), "MDC_GRPC_ADDR: ") {
		t.Errorf("a bad list: %v", err)
	}
}

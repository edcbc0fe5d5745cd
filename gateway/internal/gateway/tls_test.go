package gateway

import (
	"io"
	"strings"
	"testing"
)

func TestParseOptionsTLS(t *testing.T) {
	parse := func(args []string, env map[string]string) (Options, error) {
		return ParseOptions(args, func(k string) string { return env[k] }, io.Discard)
	}
	o, err := parse(nil, map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem",
		"MDC_GRPC_TLS_CA": "/ca.pem", "MDC_GRPC_TLS_SERVER_NAME": "mdc-server"})
	if err != nil {
		t.Fatal(err)
	}
	if o.TLSCertFile != "/c.pem" || o.TLSKeyFile != "/k.pem" || o.GRPCTLSCAFile != "/ca.pem" || o.GRPCTLSServerName != "mdc-server" {
		t.Errorf("from the environment: %+v", o)
	}
	o, err = parse([]string{"--tls-cert=/f.pem", "--tls-key", "/g.pem", "--grpc-tls-ca=/h.pem"},
		map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem"})
	if err != nil {
		t.Fatal(err)
	}
	if o.TLSCertFile != "/f.pem" || o.TLSKeyFile != "/g.pem" || o.GRPCTLSCAFile != "/h.pem" || o.GRPCTLSServerName != "" {
		t.Errorf("flags win: %+v", o)
	}
	if o, err = parse(nil, nil); err != nil || o.TLSCertFile != "" || o.GRPCTLSCAFile != "" {
		t.Errorf("default: %+v, %v", o, err)
	}

	for _, tt := range []struct {
		name     string
		args     []string
		env      map[string]string
		mentions []string
	}{
		{"certificate without key", nil, map[string]string{"MDC_TLS_CERT": "/c.pem"}, []string{"MDC_TLS_CERT is set but MDC_TLS_KEY is not"}},
		{"key without certificate", nil, map[string]string{"MDC_TLS_KEY": "/k.pem"}, []string{"MDC_TLS_KEY is set but MDC_TLS_CERT is not"}},
		{"flag emptied", []string{"--tls-key="}, map[string]string{"MDC_TLS_CERT": "/c.pem", "MDC_TLS_KEY": "/k.pem"}, []string{"MDC_TLS_KEY"}},
		{"server name without a CA", nil, map[string]string{"MDC_GRPC_TLS_SERVER_NAME": "mdc"}, []string{"MDC_GRPC_TLS_SERVER_NAME", "MDC_GRPC_TLS_CA"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(tt.args, tt.env)
			if err == nil {
				t.Fatal("no error")
			}
			for _, m := range tt.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

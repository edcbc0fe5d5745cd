package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantExit   bool
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"serve", nil, nil, false, 0, "", ""},
		{"version", []string{"--version"}, nil, true, 0, "mdc-gateway dev\n", ""},
		{"version with one dash", []string{"-version"}, nil, true, 0, "mdc-gateway dev\n", ""},
		{"help", []string{"--help"}, nil, true, 0, "", "-log-level"},
		{"invalid log level", nil, map[string]string{"MDC_LOG_LEVEL": "chatty"}, true, 2, "", `invalid log level "chatty"`},
		{"invalid access log", nil, map[string]string{"MDC_ACCESS_LOG": "maybe"}, true, 2, "", "MDC_ACCESS_LOG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			_, code, exit := parseArgs(tt.args, func(k string) string { return tt.env[k] }, &stdout, &stderr)
			if exit != tt.wantExit || code != tt.wantCode {
				t.Errorf("exit %v code %d, want %v %d", exit, code, tt.wantExit, tt.wantCode)
			}
			if stdout.String() != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", stdout.String(), tt.wantStdout)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}

// TestVersionFromLdflags builds the program the way build.sh does and runs
// it with --version.
func TestVersionFromLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	bin := filepath.Join(t.TempDir(), "mdc-gateway")
	if out, err := exec.Command(goBin, "build", "-ldflags", "-X main.version=9.8.7", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	if string(out) != "mdc-gateway 9.8.7\n" {
		t.Errorf("--version printed %q", out)
	}
}

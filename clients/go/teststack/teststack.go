// Package teststack starts and stops mdc test stacks for the repository's Go
// tests (the client's, the example's and tests/e2e) through scripts/stack.sh,
// the one launcher every suite uses (docs/architecture.md, "Test stacks"). It
// needs a checkout: the script is found from the working directory upwards,
// or named by MDC_STACK_SH. It is no part of the client's API.
package teststack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Options changes what Start starts; the zero value is a whole stack on a
// fresh database.
type Options struct {
	// ServerEnv and GatewayEnv are added to each binary's environment after
	// the script's own entries, so they may override them
	// ("MDC_SECRET_KEY=<64 hex>").
	ServerEnv, GatewayEnv []string
	// DatabaseURL runs the server on this database, neither created nor
	// dropped; empty: a fresh one from MDC_TEST_DATABASE_URL.
	DatabaseURL string
	// DBPrefix names the fresh database: DBPrefix<random hex>.
	DBPrefix string
	// NoGateway starts mdc-server only; Resume("gateway") starts the
	// gateway later.
	NoGateway bool
}

// Stack is what `scripts/stack.sh start` printed.
type Stack struct {
	Handle           string `json:"handle"`
	Dir              string `json:"dir"`
	BaseURL          string `json:"base_url"`
	HTTPAddr         string `json:"http_addr"`
	GRPCAddr         string `json:"grpc_addr"`
	AdminToken       string `json:"admin_token"`
	Database         string `json:"database"`
	DatabaseURL      string `json:"database_url"`
	SuperDatabaseURL string `json:"super_database_url"`
	Logs             struct {
		Server  string `json:"server"`
		Gateway string `json:"gateway"`
	} `json:"logs"`
}

// Script is the path of scripts/stack.sh: MDC_STACK_SH, else the first
// scripts/stack.sh found from the working directory upwards.
func Script() (string, error) {
	if p := os.Getenv("MDC_STACK_SH"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", "stack.sh")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no scripts/stack.sh above the working directory (set MDC_STACK_SH)")
		}
		dir = parent
	}
}

// run runs the script with args and returns its stdout; an error carries
// its stderr.
func run(args ...string) ([]byte, error) {
	script, err := Script()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		name := strings.Join(args[:min(2, len(args))], " ")
		return nil, fmt.Errorf("stack.sh %s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// Start starts a stack and returns once it is healthy. The script stops it
// when this process exits, should Stop never be called.
func Start(opts Options) (*Stack, error) {
	args := []string{"start", "--owner-pid", strconv.Itoa(os.Getpid())}
	for _, kv := range opts.ServerEnv {
		args = append(args, "--server-env", kv)
	}
	for _, kv := range opts.GatewayEnv {
		args = append(args, "--gateway-env", kv)
	}
	if opts.DatabaseURL != "" {
		args = append(args, "--database-url", opts.DatabaseURL)
	}
	if opts.DBPrefix != "" {
		args = append(args, "--db-prefix", opts.DBPrefix)
	}
	if opts.NoGateway {
		args = append(args, "--no-gateway")
	}
	out, err := run(args...)
	if err != nil {
		return nil, err
	}
	var s Stack
	if err := json.Unmarshal(out, &s); err != nil {
		return nil, fmt.Errorf("stack.sh start printed %q: %w", out, err)
	}
	return &s, nil
}

// Stop stops the gateway, then the server, drops the database the stack
// created and removes its folder. It fails when a process had to be killed
// or exited other than 0 after SIGTERM; the folder is then kept for its
// logs.
func (s *Stack) Stop() error {
	_, err := run("stop", s.Handle)
	return err
}

// StopKeep is Stop that keeps the stack's folder (its logs) in any case.
func (s *Stack) StopKeep() error {
	_, err := run("stop", s.Handle, "--keep")
	return err
}

// StopProcess stops one process, "server" or "gateway": SIGTERM, SIGKILL
// after the grace period (an error then, or on an exit status other than 0).
func (s *Stack) StopProcess(name string) error {
	_, err := run("stop", s.Handle, name)
	return err
}

// Kill sends SIGKILL to one process and returns once it is gone.
func (s *Stack) Kill(name string) error {
	_, err := run("kill", s.Handle, name)
	return err
}

// Resume starts a stopped process again with the same settings and returns
// once the stack is healthy. With env, those KEY=VALUE entries are all its
// settings from now on (Env's, changed), instead of the ones it had.
func (s *Stack) Resume(name string, env ...string) error {
	args := []string{"resume", s.Handle, name}
	for _, kv := range env {
		args = append(args, "--env", kv)
	}
	_, err := run(args...)
	return err
}

// Exited says how the process, "server" or "gateway", ended; "" while it
// runs or before it was started.
func (s *Stack) Exited(name string) string {
	if s.PID(name) == 0 || s.Running(name) {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(s.Handle, name+".status"))
	if err != nil {
		return "mdc-" + name + " exited"
	}
	return "mdc-" + name + " exited with status " + strings.TrimSpace(string(data))
}

// Check fails, saying how, when a started process has exited.
func (s *Stack) Check() error {
	_, err := run("check", s.Handle)
	return err
}

// PID is the process id of "server" or "gateway" (0 when never started).
func (s *Stack) PID(name string) int {
	data, err := os.ReadFile(filepath.Join(s.Handle, name+".pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// Running reports whether the process runs (started, not exited).
func (s *Stack) Running(name string) bool {
	if _, err := os.Stat(filepath.Join(s.Handle, name+".status")); err == nil {
		return false
	}
	pid := s.PID(name)
	if pid == 0 {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// Env is the environment the script gives the process, "server" or
// "gateway" (KEY=VALUE entries, added to the caller's).
func (s *Stack) Env(name string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(s.Handle, name+".env"))
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n"), nil
}

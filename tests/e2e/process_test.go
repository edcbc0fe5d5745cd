package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/mdc-project/mdc/clients/go/teststack"
)

// process is one child binary of a stack, its output appended to a log file.
type process struct {
	name    string
	bin     string
	args    []string // command-line arguments
	env     []string // added to the test binary's environment
	logPath string
	runAs   *syscall.Credential // the user it runs as; nil: the test's
	// stack and role ("server", "gateway") make it one of a stack's
	// processes, run by scripts/stack.sh: the methods below ask the script.
	stack *teststack.Stack
	role  string

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit status, valid once done is closed
}

// start launches the process; its stdout and stderr go to logPath.
func (p *process) start() error {
	if p.stack != nil {
		// env is all of its settings: the script's, maybe changed.
		return p.stack.Resume(p.role, p.env...)
	}
	if p.running() {
		return fmt.Errorf("%s is already running", p.name)
	}
	logFile, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(logFile, "==== %s e2e: starting %s\n", time.Now().UTC().Format(time.RFC3339), p.bin)
	cmd := exec.Command(p.bin, p.args...)
	// Later entries win, so these override the inherited environment.
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = childProcAttr()
	if p.runAs != nil {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.Credential = p.runAs
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("starting %s: %w", p.name, err)
	}
	p.cmd = cmd
	p.done = make(chan struct{})
	go func(done chan struct{}) {
		p.err = cmd.Wait()
		logFile.Close()
		close(done)
	}(p.done)
	return nil
}

// running reports whether the process was started and has not exited.
func (p *process) running() bool {
	if p.stack != nil {
		return p.stack.Running(p.role)
	}
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// exited returns a description of how the process ended, or "" while it
// runs.
func (p *process) exited() string {
	if p.stack != nil {
		return p.stack.Exited(p.role)
	}
	if p.done == nil || p.running() {
		return ""
	}
	if p.err == nil {
		return fmt.Sprintf("%s exited with status 0", p.name)
	}
	return fmt.Sprintf("%s exited: %v", p.name, p.err)
}

// stop sends SIGTERM, waits up to grace for the process to exit (the server
// drains calls in flight) and kills it after that. It reports a kill or an
// exit status other than 0, which after SIGTERM means an unclean shutdown.
func (p *process) stop(grace time.Duration) error {
	if !p.running() {
		return nil
	}
	if p.stack != nil {
		return p.stack.StopProcess(p.role) // its grace is the script's, 20 s
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s did not exit within %v of SIGTERM and was killed", p.name, grace)
	}
	var exitErr *exec.ExitError
	if errors.As(p.err, &exitErr) {
		return fmt.Errorf("%s exited after SIGTERM: %v", p.name, p.err)
	}
	return p.err
}

// pid is the process id of the running process.
func (p *process) pid() int {
	if p.stack != nil {
		return p.stack.PID(p.role)
	}
	return p.cmd.Process.Pid
}

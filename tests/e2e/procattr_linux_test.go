package e2e

import "syscall"

// childProcAttr makes the kernel kill a child when the test binary dies
// without cleaning up (a panic, a go test timeout), so no server outlives it.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

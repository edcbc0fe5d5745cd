package mdcclient_test

import "syscall"

// procAttr makes the kernel kill the server when the test binary dies, so
// no server outlives a crashed test run.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

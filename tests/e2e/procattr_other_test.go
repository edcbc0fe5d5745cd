//go:build !linux

package e2e

import "syscall"

// childProcAttr: no parent-death signal outside Linux.
func childProcAttr() *syscall.SysProcAttr {
	return nil
}

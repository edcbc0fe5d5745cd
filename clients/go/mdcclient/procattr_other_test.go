//go:build !linux

package mdcclient_test

import "syscall"

func procAttr() *syscall.SysProcAttr { return nil }

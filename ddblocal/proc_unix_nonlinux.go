//go:build unix && !linux

package ddblocal

import "syscall"

// setParentDeathSignal is a no-op: only Linux has a parent-death signal.
func setParentDeathSignal(*syscall.SysProcAttr) {}

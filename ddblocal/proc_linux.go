//go:build linux

package ddblocal

import "syscall"

// setParentDeathSignal makes the kernel kill the server if the test binary
// dies without calling Stop (e.g. a test timeout panic), so no JVM lingers.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
